#!/bin/sh
# vimana-et synth fit: the model of a generated set (exact bytes), of a
# hand-built chain whose quantiles are known, of several sets at once; no
# string of the source in the model; one-line errors.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

# three-nodes on 2 NPUs: per rank an ALL_REDUCE (1 MiB), an ALL_GATHER
# (2 MiB) after it and a 50 us COMP node after both, in that file order.
expect_ok "$ET" generate three-nodes --npus 2 --out "$T/three"
expect_ok "$ET" synth fit "$T/three" -o "$T/m.json"
q() { # VALUE: 21 copies, comma-separated
    printf '%s' "$1"; i=1; while [ $i -lt 21 ]; do printf ', %s' "$1"; i=$((i + 1)); done
}
cat > "$T/want" <<WANT
{
  "format": "vimana-synth-model",
  "version": 1,
  "sets": 1,
  "files": 2,
  "nodes": 6,
  "kinds": {
    "comp_gpu": {"count": 2, "share": 0.333333,
      "duration_micros_quantiles": [$(q 50)],
      "next": {}},
    "coll_all_reduce": {"count": 2, "share": 0.333333,
      "duration_micros_quantiles": [$(q 0)],
      "size_bytes_quantiles": [$(q 1048576)],
      "next": {"coll_all_gather": 2}},
    "coll_all_gather": {"count": 2, "share": 0.333333,
      "duration_micros_quantiles": [$(q 0)],
      "size_bytes_quantiles": [$(q 2097152)],
      "next": {"comp_gpu": 2}}
  },
  "fan_in": [2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  "dependency_id_distance_quantiles": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
}
WANT
cmp -s "$T/m.json" "$T/want" || { fail "three-nodes model"; diff "$T/want" "$T/m.json" >&2; }

# A chain of 41 COMP nodes (durations 1..41 us, node k depends on k-1) and
# 3 CPU nodes: nearest-rank quantile q of 41 values is value 2q+1.
{
    printf '{"global_metadata": {}, "nodes": [\n'
    k=1
    while [ $k -le 41 ]; do
        dep=""
        [ $k -gt 1 ] && dep=", \"data_deps\": [\"$((k - 1))\"]"
        printf '{"id": "%d", "name": "secret_layer_%d", "type": "COMP_NODE", "duration_micros": "%d"%s},\n' $k $k $k "$dep"
        k=$((k + 1))
    done
    printf '{"id": "50", "name": "cpu_a", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]},\n'
    printf '{"id": "51", "name": "cpu_b", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]},\n'
    printf '{"id": "52", "name": "cpu_c", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]}\n'
    printf ']}\n'
} > "$T/chain.json"
expect_ok "$ET" from-json "$T/chain.json" -o "$T/chain.0.et"
expect_ok "$ET" synth fit "$T/chain" -o "$T/c.json"
odd=$(i=0; while [ $i -le 20 ]; do printf '%s%d' "$( [ $i -gt 0 ] && echo ', ')" $((2 * i + 1)); i=$((i + 1)); done)
expect_eq "$(grep -A1 '^    "comp_gpu"' "$T/c.json" | sed -n 's/.*"duration_micros_quantiles": \[\(.*\)\],/\1/p')" "$odd" \
    "quantiles of 1..41"
expect_eq "$(grep '^    "comp_gpu"' "$T/c.json")" '    "comp_gpu": {"count": 41, "share": 0.931818,' "GPU share 41/44"
expect_eq "$(grep -A2 '^    "comp_gpu"' "$T/c.json" | grep next)" '      "next": {"comp_gpu": 40, "comp_cpu": 1}},' "transitions"
expect_eq "$(grep '"fan_in"' "$T/c.json")" '  "fan_in": [4, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],' "fan-in"
grep -q secret "$T/c.json" && fail "a node name went into the model"

# Several sets: counts add up, a repeated run gives the same bytes.
expect_ok "$ET" synth fit "$T/three" "$T/chain" -o "$T/both.json"
expect_eq "$(sed -n 's/^  "sets": \(.*\),/\1/p; s/^  "files": \(.*\),/\1/p; s/^  "nodes": \(.*\),/\1/p' "$T/both.json" | tr '\n' ' ')" \
    "2 3 50 " "sets, files, nodes of two sets"
expect_ok "$ET" synth fit "$T/three" "$T/chain" -o "$T/both2.json"
cmp -s "$T/both.json" "$T/both2.json" || fail "synth fit is not deterministic"

# Errors: one line.
P="vimana-et synth"
expect_error "$P: $T/none: no such file, and no $T/none.0.et" "$ET" synth fit "$T/none" -o "$T/x.json"
expect_error "$P: fit: missing -o MODEL.json (see --help)" "$ET" synth fit "$T/three"
expect_error "$P: fit: missing PREFIX_OR_FILE (see --help)" "$ET" synth fit -o "$T/x.json"
expect_error "$P: unknown option '--bogus' (see --help)" "$ET" synth fit "$T/three" -o "$T/x.json" --bogus
expect_error "$P: unknown subcommand 'fitt' (expected fit)" "$ET" synth fitt
expect_error "$P: sample: not built yet (planned: see docs/synth.md)" "$ET" synth sample
head -c 30 "$T/chain.0.et" > "$T/cut.0.et"
"$ET" synth fit "$T/cut" -o "$T/x.json" 2> "$T/err" && fail "a truncated trace was accepted"
expect_eq "$(wc -l < "$T/err")" 1 "truncated trace: one line"
grep -q "^$P: error: $T/cut.0.et: record" "$T/err" || fail "truncated trace: $(cat "$T/err")"
[ -e "$T/x.json" ] && fail "a model was written from a bad input"
expect_ok "$ET" synth --help
finish
