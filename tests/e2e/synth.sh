#!/bin/sh
# vimana-et synth fit: the model of a generated set (exact bytes), of a
# hand-built chain whose quantiles are known, of several sets at once; no
# string of the source in the model; one-line errors.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

# three-nodes on 2 NPUs: per rank an ALL_REDUCE (1 MiB), an ALL_GATHER
# (2 MiB) after it and a 50 us COMP node after the all-reduce, in that
# file order.
expect_ok "$ET" generate three-nodes --npus 2 --out "$T/three"
expect_ok "$ET" synth fit "$T/three" -o "$T/m.json"
# Rank 0 and 1 alike (one role): event 0 (the all-reduce) is what the COMP
# node (the first local node after it: join 0) waits for; event 1 depends
# on event 0 (distance 1) and nothing waits for it (join -1).
cat > "$T/want" <<'WANT'
{
  "format": "vimana-synth-model",
  "version": 2,
  "sets": 1,
  "files": 2,
  "nodes": 6,
  "kinds": {
    "comp_gpu": {"count": 2, "share": 0.333333,
      "duration_micros": {"values": [[50, 2]]},
      "next": {}},
    "coll_all_reduce": {"count": 2, "share": 0.333333,
      "duration_micros": {"values": [[0, 2]]},
      "size_bytes": {"values": [[1048576, 2]]},
      "next": {"coll_all_gather": 2}},
    "coll_all_gather": {"count": 2, "share": 0.333333,
      "duration_micros": {"values": [[0, 2]]},
      "size_bytes": {"values": [[2097152, 2]]},
      "next": {"comp_gpu": 2}}
  },
  "fan_in": [2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  "dependency_id_distance": {"values": [[1, 2], [2, 2]]},
  "ranks": 2,
  "rank_compute_ratio": [1.0000, 1.0000],
  "rank_nodes_ratio": [1.0000, 1.0000],
  "communicators": [{"size": "all"}],
  "roles": [
    {"ranks": [0, 1],
     "durations": {"comp_gpu": {"values": [[50, 2]]}},
     "sequences": [
       [["all_reduce", 1048576, 1, [1]], ["all_gather", 2097152, 1, [1]]]
     ],
     "steps": [
      {"local": [], "event": ["coll", 0, 0, 0, []]},
      {"local": [], "event": ["coll", 0, -1, 0, [1]]},
      {"local": [["comp_gpu", 1, 50]]}
     ]}
  ]
}
WANT
cmp -s "$T/m.json" "$T/want" || { fail "three-nodes model"; diff "$T/want" "$T/m.json" >&2; }

# A chain of 201 COMP nodes (durations 1..201 us, node k depends on k-1) and
# 3 CPU nodes. 201 distinct values: 1 % quantiles, and nearest-rank
# quantile q of 201 values is value number 2q, i.e. 2q+1.
{
    printf '{"global_metadata": {}, "nodes": [\n'
    k=1
    while [ $k -le 201 ]; do
        dep=""
        [ $k -gt 1 ] && dep=", \"data_deps\": [\"$((k - 1))\"]"
        printf '{"id": "%d", "name": "secret_layer_%d", "type": "COMP_NODE", "duration_micros": "%d"%s},\n' $k $k $k "$dep"
        k=$((k + 1))
    done
    printf '{"id": "250", "name": "cpu_a", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]},\n'
    printf '{"id": "251", "name": "cpu_b", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]},\n'
    printf '{"id": "252", "name": "cpu_c", "type": "COMP_NODE", "duration_micros": "5", "attr": [{"name": "is_cpu_op", "bool_val": true}]}\n'
    printf ']}\n'
} > "$T/chain.json"
expect_ok "$ET" from-json "$T/chain.json" -o "$T/chain.0.et"
expect_ok "$ET" synth fit "$T/chain" -o "$T/c.json"
odd=$(i=0; while [ $i -le 100 ]; do printf '%s%d' "$( [ $i -gt 0 ] && echo ', ')" $((2 * i + 1)); i=$((i + 1)); done)
expect_eq "$(grep -A1 '^    "comp_gpu"' "$T/c.json" | sed -n 's/.*"duration_micros": {"quantiles": \[\(.*\)\]},/\1/p')" "$odd" \
    "1 % quantiles of 1..201"
expect_eq "$(grep '^    "comp_gpu"' "$T/c.json")" '    "comp_gpu": {"count": 201, "share": 0.985294,' "GPU share 201/204"
expect_eq "$(grep -A1 '^    "comp_cpu"' "$T/c.json" | sed -n 2p)" '      "duration_micros": {"values": [[5, 3]]},' \
    "few distinct values: exact pairs"
expect_eq "$(grep -A2 '^    "comp_gpu"' "$T/c.json" | grep next)" '      "next": {"comp_gpu": 200, "comp_cpu": 1}},' "transitions"
expect_eq "$(grep '"fan_in"' "$T/c.json")" '  "fan_in": [4, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],' "fan-in"
# One step, no events: 201 GPU nodes summing to 201*202/2 us, 3 CPU nodes.
expect_eq "$(sed -n '/"steps"/,$p' "$T/c.json" | sed -n 2p)" \
    '      {"local": [["comp_gpu", 201, 20301], ["comp_cpu", 3, 15]]}' "steps of a chain"
grep -q secret "$T/c.json" && fail "a node name went into the model"

# Several sets: counts add up, a repeated run gives the same bytes.
expect_ok "$ET" synth fit "$T/three" "$T/chain" -o "$T/both.json"
expect_eq "$(sed -n 's/^  "sets": \(.*\),/\1/p; s/^  "files": \(.*\),/\1/p; s/^  "nodes": \(.*\),/\1/p' "$T/both.json" | tr '\n' ' ')" \
    "2 3 210 " "sets, files, nodes of two sets"
expect_ok "$ET" synth fit "$T/three" "$T/chain" -o "$T/both2.json"
cmp -s "$T/both.json" "$T/both2.json" || fail "synth fit is not deterministic"

# Errors: one line.
P="vimana-et synth"
expect_error "$P: $T/none: no such file, and no $T/none.0.et" "$ET" synth fit "$T/none" -o "$T/x.json"
expect_error "$P: fit: missing -o MODEL.json (see --help)" "$ET" synth fit "$T/three"
expect_error "$P: fit: missing PREFIX_OR_FILE (see --help)" "$ET" synth fit -o "$T/x.json"
expect_error "$P: unknown option '--bogus' (see --help)" "$ET" synth fit "$T/three" -o "$T/x.json" --bogus
expect_error "$P: unknown subcommand 'fitt' (expected fit, sample or compare)" "$ET" synth fitt
head -c 30 "$T/chain.0.et" > "$T/cut.0.et"
"$ET" synth fit "$T/cut" -o "$T/x.json" 2> "$T/err" && fail "a truncated trace was accepted"
expect_eq "$(wc -l < "$T/err")" 1 "truncated trace: one line"
grep -q "^$P: error: $T/cut.0.et: record" "$T/err" || fail "truncated trace: $(cat "$T/err")"
[ -e "$T/x.json" ] && fail "a model was written from a bad input"
expect_ok "$ET" synth --help
finish
