#!/bin/sh
# vimana-et obfuscate on corpus traces, golden workloads and a generated
# one: (1) no string of the source survives in the output bytes, (2) without
# jitter `vimana` finishes every NPU at the same cycles on source and output,
# (3) --jitter with a seed is deterministic and keeps every duration within
# the documented bound, --round-sizes rounds sizes up, (4) `vimana-et
# validate` accepts the output, (5) bad input gets one line.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

ET=$VIMANA_ET
T=$TEST_TMP
CASES="$REF/golden/cases"

# The value of KEY in a golden .case file (paths made absolute).
case_key() { # CASE KEY
    v=$(sed -n "s/^$2 = //p" "$CASES/$1.case")
    case $v in ../*) v="$CASES/$v" ;; esac
    printf '%s' "$v"
}

# Per-NPU finish lines of `vimana` on a case's configuration with WORKLOAD.
sim() { # CASE WORKLOAD
    set -- "$1" "$2" "$(case_key "$1" comm_group)"
    be=$(case_key "$1" backend)
    timeout 120 "$VIMANA" --workload-configuration="$2" --system-configuration="$(case_key "$1" system)" \
        --network-configuration="$(case_key "$1" network)" \
        --remote-memory-configuration="$(case_key "$1" memory)" \
        ${3:+--comm-group-configuration="$3"} --network-backend="$be" 2>&1 | grep 'finished' | sort
}

# Every string of the source's JSON form (values and names of 3+
# characters, not numbers or the kept attribute names and schema words).
source_strings() { # PREFIX N
    r=0
    while [ "$r" -lt "$2" ]; do
        "$ET" json "$1.$r.et" | grep -o '"[^"]*"' | tr -d '"'
        r=$((r + 1))
    done | sort -u | grep -Ev '^.{0,2}$|^-?[0-9.e+-]+$' |
        grep -vxF -e global_metadata -e nodes -e id -e name -e type -e data_deps -e ctrl_deps \
            -e duration_micros -e attr -e inputs -e outputs -e values -e shapes -e types \
            -e is_cpu_op -e comm_type -e comm_size -e comm_priority -e involved_dim -e pg_name \
            -e comm_src -e comm_dst -e comm_tag -e num_ops -e tensor_size -e version -e 0.0.4 \
            -e COMP_NODE -e COMM_COLL_NODE -e COMM_SEND_NODE -e COMM_RECV_NODE -e MEM_LOAD_NODE \
            -e MEM_STORE_NODE -e METADATA_NODE -e INVALID_NODE -e ranks \
            -e int64_val -e uint64_val -e int32_val -e uint32_val -e bool_val -e bool_list \
            -e string_val -e double_val -e float_val -e sint64_val -e sint32_val -e fixed64_val \
            -e start_time_micros -e doc_string -e list
}

# No source string (1), same cycles (2), validates (4).
check_set() { # CASE PREFIX NPUS LABEL
    out="$T/$4"
    expect_ok "$ET" obfuscate "$2" -o "$out"
    expect_eq "$(ls "$T" | grep -c "^$4\.[0-9]*\.et\$")" "$3" "$4: one output per rank"
    source_strings "$2" "$3" > "$T/strings"
    expect_eq "$(test -s "$T/strings" && echo yes)" yes "$4: the source has strings to look for"
    expect_eq "$(grep -laF -f "$T/strings" "$2".*.et | wc -l)" "$3" "$4: the strings are in every source file"
    leaked=$(cat "$out".*.et | grep -aoF -f "$T/strings" | sort -u | head -3)
    expect_eq "$leaked" "" "$4: source strings left in the output"
    expect_ok "$ET" validate "$out"
    sim "$1" "$2" > "$T/want"
    sim "$1" "$out" > "$T/got"
    expect_eq "$(grep -c finished "$T/want")" "$3" "$4: the source simulates"
        cmp -s "$T/want" "$T/got" || { fail "$4: cycles differ"; diff "$T/want" "$T/got" >&2; }
}

check_set demo2-dgx-mlp-cu "$REF/corpus/et/micro2024-demo2/MLP_ModelParallel" 32 mlp
check_set demo1-ring-ar-cu "$REF/corpus/et/micro2024-demo1/allreduce" 8 demo1
check_set ring2-roofline-cu "$(case_key ring2-roofline-cu workload)" 2 roofline
check_set ring8-groups-ar-ca "$(case_key ring8-groups-ar-ca workload)" 8 groups
check_set ring8-hoti3nodes-ca "$(case_key ring8-hoti3nodes-ca workload)" 8 hoti

# A generated workload (send-recv and three-nodes carry names and p2p fields).
expect_ok "$ET" generate three-nodes --npus 8 --out "$T/gen/three"
check_set ring8-hoti3nodes-ca "$T/gen/three" 8 three

# PyTorch ETs converted by the reference tools (48000 named nodes each).
zcat "$REF/corpus/expected/pytorch/host_0/host_0.et.gz" > "$T/host.0.et"
zcat "$REF/corpus/expected/pytorch/host_1/host_1.et.gz" > "$T/host.1.et"
check_set ring2-mixed_p2p_ar-cu "$T/host" 2 pytorch

# PyTorch process groups in a METADATA node: only pg_name and ranks stay,
# the groups still apply (halves of 8 NPUs), doc strings and other
# attributes go.
mkdir -p "$T/pg"
r=0
while [ "$r" -lt 8 ]; do
    pg=$((r / 4 + 1))
    cat > "$T/pg/src.json" <<JSON
{"global_metadata": {"version": "acme-private-7", "attr": [{"name": "cluster", "string_val": "acme-secret-pod"}]},
 "nodes": [
  {"id": "1", "name": "## process_group:init ##", "type": "METADATA_NODE",
   "inputs": {"values": "['[{\\"pg_name\\": \\"1\\", \\"pg_desc\\": \\"tensor_secret\\", \\"backend_config\\": \\"cuda:nccl\\", \\"ranks\\": [0, 1, 2, 3]}, {\\"pg_name\\": \\"2\\", \\"pg_desc\\": \\"tensor_secret\\", \\"ranks\\": [4, 5, 6, 7]}, {\\"pg_name\\": \\"private_pg\\", \\"ranks\\": [0]}]']",
              "shapes": "[[secret_shape]]", "types": "[secret_type]"}},
  {"id": "2", "name": "attention_secret_kernel", "type": "COMP_NODE", "duration_micros": "7",
   "attr": [{"name": "op_schema", "string_val": "aten::secret_op"}, {"name": "is_cpu_op", "bool_val": false, "doc_string": "secret_doc"}]},
  {"id": "3", "name": "allreduce_secret_grad", "type": "COMM_COLL_NODE", "data_deps": ["1", "2"],
   "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"},
            {"name": "pg_name", "string_val": "$pg"}]}]}
JSON
    expect_ok "$ET" from-json "$T/pg/src.json" -o "$T/pg/src.$r.et"
    sed 's/"string_val": "[12]"/"string_val": "0"/' "$T/pg/src.json" > "$T/pg/flat.json"
    expect_ok "$ET" from-json "$T/pg/flat.json" -o "$T/pg/flat.$r.et"
    r=$((r + 1))
done
check_set ring8-hoti3nodes-ca "$T/pg/src" 8 pgo
expect_ok "$ET" json "$T/pgo.0.et"
WANT='"values": "['"'"'[{\"pg_name\": \"1\", \"ranks\": [0, 1, 2, 3]}, {\"pg_name\": \"2\", \"ranks\": [4, 5, 6, 7]}]'"'"']"'
expect_eq "$(grep -cxF "    $WANT" "$T/out")" 1 "METADATA groups reduced to pg_name and ranks"
expect_eq "$(grep -o '"name": "[a-z_0-9]*"' "$T/out" | tr '\n' ' ')" \
    '"name": "meta_1" "name": "comp_2" "name": "is_cpu_op" "name": "coll_3" "name": "comm_type" "name": "comm_size" "name": "pg_name" ' \
    "neutral names, only the kept attributes"
# Without the groups the all-reduce spans all 8 NPUs: slower, so the kept
# groups are what made the cycles above.
[ "$(sim ring8-hoti3nodes-ca "$T/pgo")" != "$(sim ring8-hoti3nodes-ca "$T/pg/flat")" ] ||
    fail "the process groups make no difference"

# A pg_name that is not a number is renamed g0, g1, ... the same on every rank.
for r in 0 1; do
    cat > "$T/named.json" <<JSON
{"global_metadata": {}, "nodes": [
  {"id": "1", "name": "a", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"},
   {"name": "comm_size", "uint64_val": "64"}, {"name": "pg_name", "string_val": "dp_secret_$r"}]},
  {"id": "2", "name": "b", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"},
   {"name": "comm_size", "uint64_val": "64"}, {"name": "pg_name", "string_val": "tp_secret"}]}]}
JSON
    expect_ok "$ET" from-json "$T/named.json" -o "$T/named.$r.et"
done
expect_ok "$ET" obfuscate "$T/named" -o "$T/nm"
expect_ok "$ET" json "$T/nm.0.et"
expect_eq "$(grep -A1 '"pg_name"' "$T/out" | grep -o 'g[0-9]' | tr '\n' ' ')" "g0 g1 " "rank 0 group names"
expect_ok "$ET" json "$T/nm.1.et"
expect_eq "$(grep -A1 '"pg_name"' "$T/out" | grep -o 'g[0-9]' | tr '\n' ' ')" "g2 g1 " "rank 1 group names"

# Text where the simulator reads a number (it refuses the trace) becomes
# neutral text of the same kind: still refused, nothing carried along.
cat > "$T/text.json" <<'JSON'
{"global_metadata": {}, "nodes": [
  {"id": "1", "name": "a", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "string_val": "secret_ct"},
   {"name": "comm_size", "bytes_val": "c2VjcmV0"}, {"name": "pg_name", "string_list": {"values": ["secret_pg"]}},
   {"name": "involved_dim", "string_list": {"values": ["secret_a", "secret_b"]}}]}]}
JSON
expect_ok "$ET" from-json "$T/text.json" -o "$T/text.0.et"
expect_ok "$ET" obfuscate "$T/text.0.et" -o "$T/texto.et"
expect_eq "$(grep -ac secret "$T/texto.et")" 0 "text attributes carried along"
expect_ok "$ET" json "$T/texto.et"
expect_eq "$(grep -c '"string_val": "x"\|"bytes_val": "eA=="\|^       "x"$' "$T/out")" 4 "neutral text of the same kinds"

# (3) Jitter: deterministic for a seed, another seed differs, every
# duration within F of the source (rounded to the nearest microsecond).
durations() { # FILE
    "$ET" json "$1" | sed -n 's/.*"duration_micros": "\([0-9]*\)".*/\1/p'
}
J="$REF/corpus/et/micro2024-demo2/MLP_ModelParallel"
expect_ok "$ET" obfuscate "$J" -o "$T/j1" --jitter 0.1 --seed 42
expect_ok "$ET" obfuscate "$J" -o "$T/j2" --jitter=0.1 --seed=42
expect_ok "$ET" obfuscate "$J" -o "$T/j3" --jitter 0.1 --seed 43
for r in 0 5 31; do
    cmp -s "$T/j1.$r.et" "$T/j2.$r.et" || fail "jitter rank $r: same seed, different bytes"
    cmp -s "$T/j1.$r.et" "$T/j3.$r.et" && fail "jitter rank $r: another seed, same bytes"
    durations "$J.$r.et" > "$T/d0"
    durations "$T/j1.$r.et" > "$T/d1"
    expect_eq "$(wc -l < "$T/d1")" "$(wc -l < "$T/d0")" "jitter rank $r: every duration kept"
    bad=$(paste "$T/d0" "$T/d1" | awk '{ d = $2 - $1; if (d < 0) d = -d; if (d > 0.1 * $1 + 0.5) print }')
    expect_eq "$bad" "" "jitter rank $r: durations within 10 %"
    expect_eq "$(paste "$T/d0" "$T/d1" | awk '$1 != $2' | wc -l)" "$(wc -l < "$T/d0")" \
        "jitter rank $r: every duration changed"
done
# Ranks draw different factors for the same node.
expect_eq "$(durations "$T/j1.0.et" | sed -n 1p)" "$(durations "$T/j2.0.et" | sed -n 1p)" "rank 0 repeatable"
[ "$(durations "$T/j1.0.et" | sed -n 1p)" != "$(durations "$T/j1.1.et" | sed -n 1p)" ] ||
    fail "ranks 0 and 1 drew the same factor"
expect_ok "$ET" validate "$T/j1"

# --round-sizes: comm_size up to a multiple of 1000 (37632 -> 38000).
expect_ok "$ET" obfuscate "$J" -o "$T/rs" --round-sizes 1000
expect_ok "$ET" json "$T/rs.0.et"
expect_eq "$(grep -A1 '"comm_size"' "$T/out" | sed -n 's/.*"uint64_val": "\([0-9]*\)".*/\1/p' | sed -n 1p)" 38000 \
    "comm_size rounded up"
expect_eq "$(grep -A1 '"comm_size"' "$T/out" | sed -n 's/.*_val": "\([0-9]*\)".*/\1/p' | awk '$1 % 1000' | wc -l)" 0 \
    "every comm_size a multiple of 1000"

# (5) Bad input: one line naming the file or option.
P="vimana-et obfuscate"
expect_error "$P: $T/none: no such file, and no $T/none.0.et" "$ET" obfuscate "$T/none" -o "$T/x"
expect_error "$P: --jitter: expected a fraction F with 0 <= F < 1, got '1.5'" "$ET" obfuscate "$J" -o "$T/x" --jitter 1.5
expect_error "$P: --jitter: expected a fraction F with 0 <= F < 1, got 'abc'" "$ET" obfuscate "$J" -o "$T/x" --jitter abc
expect_error "$P: --jitter: expected a fraction F with 0 <= F < 1, got '-0.1'" "$ET" obfuscate "$J" -o "$T/x" --jitter=-0.1
expect_error "$P: --jitter: expected a fraction F with 0 <= F < 1, got 'nan'" "$ET" obfuscate "$J" -o "$T/x" --jitter nan
expect_error "$P: --seed: expected a non-negative integer, got 'x'" "$ET" obfuscate "$J" -o "$T/x" --seed x
expect_error "$P: --round-sizes: expected at least 1 byte, got '0'" "$ET" obfuscate "$J" -o "$T/x" --round-sizes 0
expect_error "$P: missing -o OUT (see --help)" "$ET" obfuscate "$J"
expect_error "$P: missing PREFIX_OR_FILE (see --help)" "$ET" obfuscate -o "$T/x"
expect_error "$P: unknown option '--bogus' (see --help)" "$ET" obfuscate "$J" -o "$T/x" --bogus
expect_error "$P: error: $T/three.0.et: the output would overwrite its input" "$ET" obfuscate "$T/three.0.et" -o "$T/three.0.et"
head -c 100 "$J.0.et" > "$T/cut.0.et"
"$ET" obfuscate "$T/cut" -o "$T/cutout" 2> "$T/err" && fail "truncated input accepted"
expect_eq "$(wc -l < "$T/err")" 1 "truncated input: one line"
grep -q "^$P: error: $T/cut.0.et: " "$T/err" || fail "truncated input: the line names the file: $(cat "$T/err")"
[ -e "$T/cutout.0.et" ] && fail "a partial output is left behind"
expect_error "$P: error: $T: is a directory, expected a file" "$ET" obfuscate "$T" -o "$T/x"

finish
