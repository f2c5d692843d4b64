#!/bin/sh
# vimana-et synth sample and compare (docs/synth.md): fit -> sample with the
# same number of ranks -> compare, on corpus traces (micro2024 demo1 and
# demo2, demo2 jittered so that ranks and steps differ), a golden ring
# shift (sends and receives) and generated transformers (TP x DP with
# communicator groups): the kind mix within 2 % (absolute share), the
# two-sample KS distance of durations and sizes at most 0.05, the simulated
# step time (the last NPU's finish cycles) within 5 % of the source's.
# Also: same seed -> same bytes, another seed -> other bytes, other rank
# counts validate and simulate, no string of the source in the model, and
# one-line errors for bad models and options.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

ET=$VIMANA_ET
T=$TEST_TMP
S=$VIMANA_SRCDIR
CASES="$REF/golden/cases"
CORPUS="$REF/corpus/et"

case_key() { # CASE KEY
    v=$(sed -n "s/^$2 = //p" "$CASES/$1.case")
    case $v in ../*) v="$CASES/$v" ;; esac
    printf '%s' "$v"
}

# The step time: the largest finish cycle count of `vimana` on a golden
# case's system and network (or SYSTEM NETWORK given as files).
step_time() { # WORKLOAD GROUPS-or-"" CASE | WORKLOAD GROUPS-or-"" SYSTEM NETWORK
    if [ $# -eq 3 ]; then
        set -- "$1" "$2" "$(case_key "$3" system)" "$(case_key "$3" network)" "$(case_key "$3" backend)"
    else
        set -- "$1" "$2" "$3" "$4" analytical
    fi
    timeout 300 "$VIMANA" --workload-configuration="$1" --system-configuration="$3" --network-configuration="$4" \
        --network-backend="$5" ${2:+--comm-group-configuration="$2"} 2>&1 |
        sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' | sort -n | tail -1
}

# |A - B| / A <= 5 %.
within_5pc() { # A B
    awk -v a="$1" -v b="$2" 'BEGIN { d = b - a; if (d < 0) d = -d; exit !(a > 0 && d <= 0.05 * a) }'
}

# The compare figures: "share_diff ks_duration ks_size", the KS values the
# largest over the kinds with enough values and the pooled one.
figures() { # A B
    "$ET" synth compare "$1" "$2" --json > "$T/cmp.json" || return 1
    sed -n 's/.*"max_share_diff": \([0-9.]*\).*/\1/p' "$T/cmp.json"
    for k in ks_duration ks_size; do
        grep -o "\"$k\": [0-9.]*" "$T/cmp.json" | sed 's/.*: //' | sort -g | tail -1 | grep . || echo 0
    done
}

# fit -> sample (seed 1, same N) -> validate -> compare -> simulate.
check_fidelity() { # LABEL SOURCE NPUS GROUPS-or-"" SIM-ARGS...
    label=$1 src=$2 n=$3 groups=$4
    shift 4
    expect_ok "$ET" synth fit "$src" ${groups:+--groups "$groups"} -o "$T/$label.json"
    expect_ok "$ET" synth sample --model "$T/$label.json" --npus "$n" --seed 1 -o "$T/$label/s"
    expect_ok "$ET" validate "$T/$label/s"
    f=$(figures "$src" "$T/$label/s" | tr '\n' ' ')
    [ -n "$f" ] || { fail "$label: compare failed"; return; }
    set -- $f "$@"
    mix=$1 ksd=$2 kss=$3
    shift 3
    awk -v x="$mix" 'BEGIN { exit !(x <= 0.02) }' || fail "$label: kind mix differs by $mix"
    awk -v x="$ksd" 'BEGIN { exit !(x <= 0.05) }' || fail "$label: KS of durations $ksd"
    awk -v x="$kss" 'BEGIN { exit !(x <= 0.05) }' || fail "$label: KS of sizes $kss"
    sg=""
    [ -f "$T/$label/s.groups.json" ] && sg="$T/$label/s.groups.json"
    want=$(step_time "$src" "$groups" "$@")
    got=$(step_time "$T/$label/s" "$sg" "$@")
    [ -n "$want" ] || fail "$label: the source does not simulate"
    within_5pc "$want" "$got" || fail "$label: step time $got, source $want (more than 5 % apart)"
    # The measured figures, for the note (make check keeps them in the log).
    echo "FIGURES $label: kind-mix diff $mix, KS durations $ksd, KS sizes $kss, step time source $want synth $got"
}

MLP="$CORPUS/micro2024-demo2/MLP_ModelParallel"
check_fidelity demo2 "$MLP" 32 "" demo2-dgx-mlp-cu
check_fidelity demo1 "$CORPUS/micro2024-demo1/allreduce" 8 "" demo1-ring-ar-cu
check_fidelity ringshift "$(case_key sw8-ring_shift_ar-cu workload)" 8 "" sw8-ring_shift_ar-cu
check_fidelity mixed-p2p "$(case_key ring2-mixed_p2p_ar-cu workload)" 2 "" ring2-mixed_p2p_ar-cu

# demo2 with every duration jittered by up to 20 %: ranks differ (compute
# ratios), many distinct durations (1 % quantiles), steps replayed from
# their means.
mkdir -p "$T/jit"
expect_ok "$ET" obfuscate "$MLP" -o "$T/jit/mlp" --jitter 0.2 --seed 9
check_fidelity jitter "$T/jit/mlp" 32 "" demo2-dgx-mlp-cu

# Generated transformers, TP 2 x DP 4 on 8 ranks (8 layers, h 2048, s 1024:
# durations of 40 us and more), the DP all-reduce in 4 buckets overlapping
# the backward pass; the groups file gives the communicators' layouts.
GPT="--layers 8 --hidden 2048 --heads 16 --ffn 8192 --seq 1024 --vocab 32000 --micro-batch 1 --global-batch 16"
expect_ok "$ET" generate transformer $GPT --tp 2 --pp 1 --dp 4 --dp-buckets 4 --out "$T/gpt/g"
SW8="$S/inputs/system/ring.json $S/inputs/network/switch8.yml"
check_fidelity gpt "$T/gpt/g" 8 "$T/gpt/g.groups.json" $SW8
# The same with every duration jittered by up to 30 %.
mkdir -p "$T/jgpt"
expect_ok "$ET" obfuscate "$T/gpt/g" -o "$T/jgpt/g" --jitter 0.3 --seed 4
check_fidelity gpt-jitter "$T/jgpt/g" 8 "$T/gpt/g.groups.json" $SW8
expect_ok "$ET" generate transformer $GPT --tp 2 --pp 2 --dp 2 --dp-buckets 2 --out "$T/gpt-pp/g"
check_fidelity gpt-pp "$T/gpt-pp/g" 8 "$T/gpt-pp/g.groups.json" $SW8
expect_ok "$ET" generate transformer $GPT --tp 4 --pp 1 --dp 2 --sp --out "$T/gpt-sp/g"
check_fidelity gpt-sp "$T/gpt-sp/g" 8 "$T/gpt-sp/g.groups.json" $SW8
# The communicators: TP pairs (size 2, stride 1) and DP quads (stride 2).
expect_eq "$(grep '"communicators"' "$T/gpt.json")" \
    '  "communicators": [{"size": 2, "stride": 1}, {"size": 4, "stride": 2}],' "transformer communicators"
expect_eq "$(cat "$T/gpt/s.groups.json" | tr -d ' \n')" "$(cat "$T/gpt/g.groups.json" | tr -d ' \n')" \
    "the sampled groups are the generator's"

# PyTorch process groups in METADATA nodes give the layout without
# --groups: halves of 8 ranks (size 4, stride 1), one 1 MiB all-reduce on
# each rank's half after 7 us of compute.
mkdir -p "$T/pg"
r=0
while [ "$r" -lt 8 ]; do
    cat > "$T/pg/src.json" <<JSON
{"global_metadata": {}, "nodes": [
  {"id": "1", "name": "## process_group:init ##", "type": "METADATA_NODE",
   "inputs": {"values": "['[{\\"pg_name\\": \\"1\\", \\"ranks\\": [0, 1, 2, 3]}, {\\"pg_name\\": \\"2\\", \\"ranks\\": [4, 5, 6, 7]}]']",
              "shapes": "[]", "types": "[]"}},
  {"id": "2", "name": "kernel", "type": "COMP_NODE", "duration_micros": "7", "data_deps": ["1"]},
  {"id": "3", "name": "ar", "type": "COMM_COLL_NODE", "data_deps": ["2"],
   "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"},
            {"name": "pg_name", "string_val": "$((r / 4 + 1))"}]}]}
JSON
    expect_ok "$ET" from-json "$T/pg/src.json" -o "$T/pg/src.$r.et"
    r=$((r + 1))
done
check_fidelity pytorch-groups "$T/pg/src" 8 "" ring8-hoti3nodes-ca
expect_eq "$(grep '"communicators"' "$T/pytorch-groups.json")" '  "communicators": [{"size": 4, "stride": 1}],' \
    "groups from METADATA"
expect_eq "$(tr -d ' \n' < "$T/pytorch-groups/s.groups.json")" '{"1":[0,1,2,3],"2":[4,5,6,7]}' "sampled halves"

# Same seed: the same bytes; another seed: other bytes (durations drawn
# from the jittered model's quantiles).
expect_ok "$ET" synth sample --model "$T/jitter.json" --npus 32 --seed 1 -o "$T/again/s"
expect_ok "$ET" synth sample --model "$T/jitter.json" --npus 32 --seed 2 -o "$T/other/s"
same=0 differ=0
for r in 0 7 31; do
    cmp -s "$T/jitter/s.$r.et" "$T/again/s.$r.et" && same=$((same + 1))
    cmp -s "$T/jitter/s.$r.et" "$T/other/s.$r.et" || differ=$((differ + 1))
done
expect_eq "$same $differ" "3 3" "seed 1 twice: same bytes; seed 2: other bytes"

# Other rank counts: demo1 on 16 ranks (ring16), the transformer on 16
# (TP pairs and DP quads tile 16 ranks: 8 + 4 groups) and on 4 (DP quads
# need a multiple of 8 ranks: refused).
expect_ok "$ET" synth sample --model "$T/demo1.json" --npus 16 --seed 1 -o "$T/n16/d"
expect_ok "$ET" validate "$T/n16/d"
R16="$S/inputs/system/ring.json $REF/golden/inputs/network/ring16.yml"
expect_eq "$(step_time "$T/n16/d" "" $R16 | grep -c .)" 1 "demo1 on 16 ranks simulates"
expect_ok "$ET" synth sample --model "$T/gpt.json" --npus 16 --seed 1 -o "$T/n16/g"
expect_ok "$ET" validate "$T/n16/g"
expect_eq "$(grep -c '": \[' "$T/n16/g.groups.json")" 12 "16 ranks: 8 TP pairs and 4 DP quads"
expect_eq "$(grep -c '"12": \[9, 11, 13, 15\]' "$T/n16/g.groups.json")" 1 "the last DP quad"
expect_eq "$(step_time "$T/n16/g" "$T/n16/g.groups.json" $R16 | grep -c .)" 1 "transformer on 16 ranks simulates"
P="vimana-et synth"
expect_error "$P: --npus 4: communicator 1 (size 4, stride 2) needs a multiple of 8 ranks" \
    "$ET" synth sample --model "$T/gpt.json" --npus 4 -o "$T/n4/g"
[ -e "$T/n4/g.0.et" ] && fail "files written for a refused rank count"
# The ring shift's sends keep their pairs on 3 ranks; on 1 rank the send to
# offset 1 would be the rank itself.
expect_ok "$ET" synth sample --model "$T/ringshift.json" --npus 3 -o "$T/n3/r"
expect_eq "$(cat "$T/out")" "" "sample prints nothing"
expect_ok "$ET" validate "$T/n3/r"
expect_eq "$(cat "$T/out")" "$T/n3/r: valid (3 files, 12 nodes, 3 send/recv pairs matched)" "ring shift on 3 ranks"
expect_error "$P: --npus 1: a send at peer offset 1 would be the rank itself" \
    "$ET" synth sample --model "$T/ringshift.json" --npus 1 -o "$T/n1/r"

# Local kinds within a step follow the fitted kind transitions: a PyTorch
# trace (chakra-tests, one rank: CPU ops launching GPU kernels, 465 GPU
# and 870 CPU nodes in one step) keeps its order statistic. Its "other"
# collectives (no comm_type) cannot be sampled: made 1 KiB all-reduces.
# The sample fitted again gives each transition between two local kinds
# within 1 % of the local nodes of the source's count (shuffling the
# kinds, as before, gave comp_gpu -> comp_gpu 397 times against 68).
CH=$(ref_file corpus/et/chakra-tests/chakra.0.et)
CH=${CH%.0.et}
expect_ok "$ET" synth fit "$CH.0.et" -o "$T/chakra.json"
sed 's/\["other", 0, \([0-9]*\)\]/["all_reduce", 1024, \1]/g' "$T/chakra.json" > "$T/chakra-ar.json"
# "FROM TO COUNT" for the transitions between comp_gpu and comp_cpu.
local_next() { # MODEL
    awk '/^    "[a-z_]*": \{"count"/ { k = $1; gsub(/[":]/, "", k) }
        /^      "next": / && k ~ /^comp_[cg]pu$/ {
            s = $0; sub(/.*"next": \{/, "", s); sub(/\}.*/, "", s)
            n = split(s, a, /, /)
            for (i = 1; i <= n; i++) {
                split(a[i], b, /: /); t = b[1]; gsub(/"/, "", t)
                if (t ~ /^comp_[cg]pu$/) print k, t, b[2]
            }
        }' "$1"
}
expect_eq "$(local_next "$T/chakra.json" | tr '\n' ' ')" \
    "comp_gpu comp_gpu 68 comp_gpu comp_cpu 1139 comp_cpu comp_gpu 1141 comp_cpu comp_cpu 1287 " "source transitions"
for seed in 1 2 3; do
    expect_ok "$ET" synth sample --model "$T/chakra-ar.json" --npus 1 --seed "$seed" -o "$T/ch$seed/s"
    expect_ok "$ET" synth fit "$T/ch$seed/s" -o "$T/ch$seed.json"
    local_next "$T/ch$seed.json" > "$T/got"
    expect_eq "$(wc -l < "$T/got")" 4 "seed $seed: four local transitions"
    local_next "$T/chakra.json" | paste - "$T/got" | awk '
        { d = $3 - $6; if (d < 0) d = -d; if (d > worst) worst = d }
        END { exit !(worst <= 0.01 * 3643) }' || fail "seed $seed: transitions $(tr '\n' ' ' < "$T/got")"
done
expect_ok "$ET" synth compare "$CH.0.et" "$T/ch1/s" --json
expect_eq "$(grep -c '"comp_[cg]pu": {"share": \[0.[0-9]*, 0.[0-9]*\], "share_diff": 0.000000' "$T/out")" 2 \
    "the PyTorch sample keeps the kind mix"

# The model holds no string of the source: no node name, no attribute
# text (only the model's own words, kind names and numbers).
for m in demo2 demo1 gpt ringshift; do
    expect_eq "$(grep -o '[A-Za-z_][A-Za-z_0-9]*' "$T/$m.json" | sort -u | grep -vxE 'format|vimana|synth|model|version|sets|files|nodes|kinds|count|share|duration_micros|size_bytes|values|quantiles|next|fan_in|dependency_id_distance|ranks|rank_compute_ratio|rank_nodes_ratio|roles|durations|sequences|true|false|communicators|size|stride|all|null|steps|local|event|coll|send|recv|comp_gpu|comp_cpu|load|store|metadata|invalid|coll_[a-z_]*|all_reduce|all_gather|reduce_scatter|all_to_all|broadcast' | tr '\n' ' ')" \
        "" "$m: words in the model beyond its own vocabulary"
done
expect_eq "$(grep -c 'gpt\|layer\|mlp\|attn\|fwd\|bwd' "$T/gpt.json")" 0 "transformer names in the model"

# compare: the table, and the figures of a set against itself.
expect_ok "$ET" synth compare "$MLP" "$MLP"
cat > "$T/want" <<'TABLE'
kind                         share A   share B      diff    KS dur   KS size
comp_gpu                    0.620690  0.620690  0.000000    0.0000         -
coll_all_reduce             0.172414  0.172414  0.000000    0.0000    0.0000
coll_all_gather             0.206897  0.206897  0.000000    0.0000    0.0000
all (nodes)                      928       928  0.000000    0.0000    0.0000
TABLE
cmp -s "$T/out" "$T/want" || { fail "compare table"; diff "$T/want" "$T/out" >&2; }
# demo1 (8 all-reduces) against demo2: all-reduce shares 1 and 160/928;
# too few values for a per-kind KS, pooled durations 0 against 576 of 928
# non-zero: 576/928 = 0.620690.
expect_ok "$ET" synth compare "$CORPUS/micro2024-demo1/allreduce" "$MLP" --json
expect_eq "$(grep '"coll_all_reduce"' "$T/out")" \
    '    "coll_all_reduce": {"share": [1.000000, 0.172414], "share_diff": 0.827586, "ks_duration": null, "ks_size": null},' \
    "compare --json, one kind"
expect_eq "$(grep '"ks_duration"' "$T/out" | tail -1)" '  "ks_duration": 0.620690,' "pooled KS of durations"
expect_error "$P: compare: expected two sets PREFIX_A PREFIX_B (see --help)" "$ET" synth compare "$MLP"
expect_error "$P: compare: expected two sets, got a third 'x' (see --help)" "$ET" synth compare "$MLP" "$MLP" x
expect_error "$P: $T/none: no such file, and no $T/none.0.et" "$ET" synth compare "$MLP" "$T/none"

# Options of sample.
expect_error "$P: sample: missing --model MODEL.json (see --help)" "$ET" synth sample --npus 2 -o "$T/x"
expect_error "$P: sample: missing --npus N (see --help)" "$ET" synth sample --model "$T/demo1.json" -o "$T/x"
expect_error "$P: sample: missing -o PREFIX (see --help)" "$ET" synth sample --model "$T/demo1.json" --npus 2
expect_error "$P: --npus: expected 1 to 65536 ranks, got '0'" "$ET" synth sample --model "$T/demo1.json" --npus 0 -o "$T/x"
expect_error "$P: --npus: expected 1 to 65536 ranks, got '65537'" \
    "$ET" synth sample --model "$T/demo1.json" --npus 65537 -o "$T/x"
expect_error "$P: --seed: expected a non-negative integer, got 'x'" \
    "$ET" synth sample --model "$T/demo1.json" --npus 2 --seed x -o "$T/x"
expect_error "$P: unknown option '--bogus' (see --help)" "$ET" synth sample --model "$T/demo1.json" --bogus
expect_error "$P: error: $T/none.json: cannot open: No such file or directory" \
    "$ET" synth sample --model "$T/none.json" --npus 2 -o "$T/x"
expect_error "$P: error: $T: is a directory, expected a file" "$ET" synth sample --model "$T" --npus 2 -o "$T/x"

# Bad models: one line naming the file and the key.
M="$T/demo2.json"
bad_model() { # WANT-AFTER-FILE SED-EXPRESSION
    sed "$2" "$M" > "$T/bad.json"
    expect_error "$P: error: $T/bad.json: $1" "$ET" synth sample --model "$T/bad.json" --npus 32 -o "$T/b/x"
}
bad_model 'version: 1 is not supported (expected 2; fit the model again)' 's/"version": 2/"version": 1/'
bad_model 'version: missing' '/"version"/d'
bad_model 'format: expected "vimana-synth-model"' 's/"vimana-synth-model"/"other"/'
bad_model 'ranks: expected an integer from 1 to 65536' 's/"ranks": 32/"ranks": "32"/'
bad_model 'ranks: -1 is out of range (expected 1 to 65536)' 's/"ranks": 32/"ranks": -1/'
bad_model 'rank_compute_ratio: expected a list of 32, got 31' 's/"rank_compute_ratio": \[1.0000, /"rank_compute_ratio": [/'
bad_model 'rank_compute_ratio[0]: -1 is out of range (expected 0 to 1000)' 's/"rank_compute_ratio": \[1.0000/"rank_compute_ratio": [-1/'
bad_model 'kinds.comp_gpu.duration_micros.values[0][0]: -3456 is out of range (expected 0 to 1099511627776)' \
    's/\[\[3456, 64\]/[[-3456, 64]/'
bad_model 'kinds.comp_gpu.duration_micros.values[1][0]: 3456 is out of range (expected 3457 to 1099511627776)' \
    's/\[3648, 64\]/[3456, 64]/'
bad_model 'kinds.comp_gpu.duration_micros.values[0][1]: 0 is out of range (expected 1 to 1099511627776)' \
    's/\[\[3456, 64\]/[[3456, 0]/'
bad_model 'kinds.coll_all_reduce.size_bytes: expected an object with "values" or "quantiles"' \
    's/"size_bytes": {"values": \[\[65536/"size_bytes": {"v": [[65536/'
bad_model 'kinds.comp_tpu: unknown node kind' 's/"comp_gpu": {/"comp_tpu": {/'
bad_model 'kinds.comp_gpu.next.comp_tpu: unknown node kind' 's/"next": {"comp_gpu": 192/"next": {"comp_tpu": 192/'
bad_model 'kinds.comp_gpu.next.comp_gpu: -1 is out of range (expected 0 to 1125899906842624)' \
    's/"next": {"comp_gpu": 192/"next": {"comp_gpu": -1/'
bad_model 'kinds.comp_gpu.next: expected an object' 's/"next": {"comp_gpu": 192[^}]*}/"next": []/'
bad_model 'roles[0].sequences[0][0][0]: expected one of all_reduce, all_gather, reduce_scatter, all_to_all, broadcast' \
    's/\["all_gather", 37632/["barrier", 37632/'
bad_model 'roles[0].sequences[0][0][1]: 1125899906842625 is out of range (expected 0 to 1125899906842624)' \
    's/\["all_gather", 37632/["all_gather", 1125899906842625/'
bad_model 'roles[0].sequences[0]: holds 12 collectives, the steps issue 11' \
    's/\["all_gather", 37632, 1\]/["all_gather", 37632, 2]/'
bad_model 'roles[0].steps[0].event[1]: 1 is out of range (expected 0 to 0)' '0,/"coll", 0,/s//"coll", 1,/'
bad_model 'roles[0].steps[0].local[0][1]: expected a number from 0 to 1e+06' 's/\["comp_gpu", 1, 32291\]/["comp_gpu", "1", 32291]/'
bad_model "roles[0].steps[0].local[0][0]: kind comp_cpu has no entry in the role's durations" 's/\["comp_gpu", 1, 32291\]/["comp_cpu", 1, 32291]/'
bad_model 'roles[0].steps[1].event[4][0]: 2 is out of range (expected 1 to 1)' '/"steps"/{n;n;s/, \[\]\]}/, [2]]}/}'
bad_model 'roles: missing' 's/"roles"/"rolez"/'
# A key given twice was read silently, the last value winning (issue 29 §5).
bad_model "line 22, column 16: duplicate key 'ranks' (first given at line 22, column 3)" 's/"ranks": 32,/"ranks": 32, "ranks": 16,/'
bad_model 'roles[0].ranks[1]: rank 0 is already in a role' 's/"ranks": \[0, 1, 2,/"ranks": [0, 0, 2,/'
bad_model 'roles: rank 31 is in no role' 's/"ranks": \[\(.*\), 31\]/"ranks": [\1]/'
bad_model 'roles[0].durations.comp_gpu.values[0][1]: 0 is out of range (expected 1 to 1099511627776)' '/"durations"/s/\[\[3456, 64\]/[[3456, 0]/'
printf '{"format": ' > "$T/bad.json"
expect_error "$P: error: $T/bad.json: line 1, column 12: key 'format': expected a value, got the end of the file" \
    "$ET" synth sample --model "$T/bad.json" --npus 32 -o "$T/b/x"
# Without --groups, fit takes the communicators the generator wrote beside
# the traces (PREFIX.groups.json) and says so (issue 29 §4: the model it
# wrote was refused by sample).
expect_ok "$ET" synth fit "$T/gpt/g" -o "$T/beside.json"
expect_eq "$(cat "$TEST_TMP/err")" "$P: fit: communicators from $T/gpt/g.groups.json (--groups FILE chooses another)" \
    "fit: groups beside the traces"
expect_ok "$ET" synth sample --model "$T/beside.json" --npus 8 -o "$T/b/beside"
# A group given twice in --groups was read silently, the last one winning.
printf '{"0": [0, 1], "0": [0, 2]}' > "$T/dupgroups.json"
expect_error "$P: error: $T/dupgroups.json: line 1, column 15: duplicate key '0' (first given at line 1, column 2)" \
    "$ET" synth fit "$T/gpt/g" --groups "$T/dupgroups.json" -o "$T/x.json"
# With none at all, fit refuses the model sample could not use, at once.
mkdir -p "$T/gpt-ng"
for f in "$T"/gpt/g.*.et; do cp "$f" "$T/gpt-ng/"; done
expect_error "$P: error: $T/nogroups.json: communicators[0]: its size is unknown, so \`synth sample\` cannot use the model: fit again with --groups FILE (the traces' --comm-group-configuration)" \
    "$ET" synth fit "$T/gpt-ng/g" -o "$T/nogroups.json"
# sample refuses such a model (written by an older fit) in one line too.
expect_error "$P: error: $T/nogroups.json: communicators[0]: its size is unknown (fit with --groups FILE)" \
    "$ET" synth sample --model "$T/nogroups.json" --npus 8 -o "$T/b/x"
# Ranks that differ play roles: a pipeline's stages, or rank 0 sending
# and rank 1 receiving. Such models sample whole replicas of their ranks:
# rank r plays rank r mod N0, its sends and receives stay in its replica.
expect_eq "$(grep -c '"ranks": \[' "$T/gpt-pp.json")" 2 "pipeline: one role per stage"
# "r finish exposed" per NPU of a run, r taken mod $3 (0: as it is).
npu_cycles() { # WORKLOAD GROUPS NETWORK MOD
    "$VIMANA" --workload-configuration="$1" --system-configuration="$S/inputs/system/ring.json" \
        --network-configuration="$3" --comm-group-configuration="$2" 2>&1 |
        sed -n 's/^sys\[\([0-9]*\)\] finished, \([0-9]*\) cycles, exposed communication \([0-9]*\) cycles.*/\1 \2 \3/p' |
        awk -v m="$4" '{ print (m ? $1 % m : $1), $2, $3 }' | sort -n | uniq
}
# The transformer TP 2 x PP 2 x DP 2 (stages 0-3 and 4-7; both stages
# send at offset +4, the -4 of the second stage brought into (-4, 4]) on
# 16 and 24 ranks, on one switch of as many NPUs: TP pairs and DP pairs
# tile inside a replica, every pair of NPUs is 2 hops apart in the
# congestion-unaware network, and the source's ranks are alike within a
# stage (exact durations come back), so NPU r finishes with the cycles
# and exposed communication of the source's NPU r mod 8.
printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' > "$T/switch8.yml"
want=$(npu_cycles "$T/gpt-pp/g" "$T/gpt-pp/g.groups.json" "$T/switch8.yml" 0)
expect_eq "$(echo "$want" | wc -l)" 8 "the pipeline source simulates"
for n in 16 24; do
    expect_ok "$ET" synth sample --model "$T/gpt-pp.json" --npus "$n" --seed 1 -o "$T/pp$n/s"
    expect_ok "$ET" validate "$T/pp$n/s"
    expect_eq "$(cat "$T/out")" "$T/pp$n/s: valid ($n files, $((2328 * n / 8)) nodes, $((64 * n / 8)) send/recv pairs matched)" \
        "pipeline on $n ranks validates"
    expect_eq "$(grep -c '": \[' "$T/pp$n/s.groups.json")" "$n" "$n ranks: $((n / 2)) TP pairs and $((n / 2)) DP pairs"
    sed "s/\[ 8 \]/[ $n ]/" "$T/switch8.yml" > "$T/switch$n.yml"
    got=$(npu_cycles "$T/pp$n/s" "$T/pp$n/s.groups.json" "$T/switch$n.yml" 0 | wc -l)
    expect_eq "$got" "$n" "pipeline on $n ranks: every NPU finishes"
    expect_eq "$(npu_cycles "$T/pp$n/s" "$T/pp$n/s.groups.json" "$T/switch$n.yml" 8)" "$want" \
        "pipeline on $n ranks: NPU r finishes as the source's NPU r mod 8"
done
# The second replica's first stage sends to its own second stage.
expect_ok "$ET" json "$T/pp16/s.8.et" -o "$T/pp16/8.json"
for a in src dst; do
    expect_eq "$(grep -A1 "\"comm_$a\"" "$T/pp16/8.json" | grep -c '"int64_val": "12"')" 8 "rank 8: 8 messages with comm_$a 12"
done
expect_eq "$(grep -A1 '"comm_[sd][rs][ct]"' "$T/pp16/8.json" | grep '"int64_val"' | grep -vc '"\(8\|12\)"')" 0 \
    "rank 8 talks to rank 12 only"
expect_error "$P: --npus 12: the model's 8 ranks play 2 roles (their events differ), so --npus must be a multiple of 8" \
    "$ET" synth sample --model "$T/gpt-pp.json" --npus 12 -o "$T/b/x"
[ -e "$T/b/x.0.et" ] && fail "files written for a refused rank count"
# One-way send + all-reduce on "all" (2 roles) on 4 ranks: rank 2 sends
# to 3, the all-reduce spans the 4 ranks (every rank issues the same one
# on it), and the replicas finish alike.
expect_ok "$ET" synth sample --model "$T/mixed-p2p.json" --npus 4 -o "$T/mp4/s"
expect_ok "$ET" validate "$T/mp4/s"
expect_eq "$(cat "$T/out")" "$T/mp4/s: valid (4 files, 14 nodes, 2 send/recv pairs matched)" "one-way send on 4 ranks"
R4="$REF/golden/inputs/network/ring4.yml"
expect_eq "$(npu_cycles "$T/mp4/s" empty "$R4" 2 | wc -l)" 2 "the two replicas of 2 ranks finish alike"
# Rank 0 sends 1 MiB to rank 1, which receives it: a receive of another
# size, or an all-reduce of another size on rank 1, is refused.
M2="$T/mixed-p2p.json"
sed 's/"recv", 1, 1048576/"recv", 1, 1048577/' "$M2" > "$T/bad.json"
expect_error "$P: error: $T/bad.json: on 2 ranks the message of 1048576 bytes from rank 0 to rank 1 has no matching receive" \
    "$ET" synth sample --model "$T/bad.json" --npus 2 -o "$T/b/x"
sed '/"ranks": \[1\]/,$s/\["all_reduce", 1048576, 1\]/["all_reduce", 1048575, 1]/' "$M2" > "$T/bad.json"
expect_error "$P: error: $T/bad.json: communicators[0]: ranks 0 and 1 of one group issue different collectives" \
    "$ET" synth sample --model "$T/bad.json" --npus 2 -o "$T/b/x"
# --groups errors.
printf '{"1": [0, 1], "x": [2]}' > "$T/g.json"
expect_error "$P: error: $T/g.json: group \"x\": is not a group number" "$ET" synth fit "$MLP" --groups "$T/g.json" -o "$T/x"
printf '{"1": []}' > "$T/g.json"
expect_error "$P: error: $T/g.json: group \"1\": expected a non-empty list of ranks" \
    "$ET" synth fit "$MLP" --groups "$T/g.json" -o "$T/x"
expect_error "$P: error: $T/none.json: cannot open: No such file or directory" \
    "$ET" synth fit "$MLP" --groups "$T/none.json" -o "$T/x"
finish
