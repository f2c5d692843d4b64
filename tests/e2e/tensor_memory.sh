#!/bin/sh
# --report's peak live tensor bytes per NPU (docs/simulator.md, "Peak tensor
# memory"): from the nodes' "inputs" / "outputs" string lists (tensor name,
# size, ...), a tensor live from its writer's start to its last reader's
# end; exact figures from a hand-worked trace, per-rank traces that differ
# only in their tensors kept apart by the symmetry reduction, and one line
# for every bad list.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"

printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$T/r2.yml"
printf '{"scheduling-policy": "LIFO", "active-chunks-per-dimension": 1, "preferred-dataset-splits": 1,
 "all-reduce-implementation": ["ring"], "collective-optimization": "baseline", "local-mem-bw": 50}\n' >"$T/s.json"

# trace OUT Y-BYTES [LOSS-OUTPUTS]: embed (10 us) reads weight w_embed (500 B,
# never written: live from t = 0) and writes x (1000 B); layer (20 us) reads
# x, writes y; loss (5 us) reads y and writes l (8 B, never read: live to
# the finish) and a tensor of 0 bytes (nothing).
trace() {
    loss_out=${3:-'"string_list": {"values": ["l", "8", "empty", "0"]}'}
    cat >"$T/t.json" <<JSON
{"global_metadata": {"version": "0.0.4"}, "nodes": [
 {"id": "0", "name": "embed", "type": "COMP_NODE", "duration_micros": "10", "attr": [
   {"name": "is_cpu_op", "bool_val": false},
   {"name": "inputs", "string_list": {"values": ["w_embed", "500"]}},
   {"name": "outputs", "string_list": {"values": ["x", "1000"]}}]},
 {"id": "1", "name": "layer", "type": "COMP_NODE", "data_deps": ["0"], "duration_micros": "20", "attr": [
   {"name": "is_cpu_op", "bool_val": false},
   {"name": "inputs", "string_list": {"values": ["x", "1000"]}},
   {"name": "outputs", "string_list": {"values": ["y", "$2"]}}]},
 {"id": "2", "name": "loss", "type": "COMP_NODE", "data_deps": ["1"], "duration_micros": "5", "attr": [
   {"name": "is_cpu_op", "bool_val": false},
   {"name": "inputs", "string_list": {"values": ["y", "$2"]}},
   {"name": "outputs", $loss_out}]}
]}
JSON
    expect_ok "$VIMANA_ET" from-json "$T/t.json" -o "$1"
}
run() { # PREFIX [ARGS...]
    p=$1
    shift
    "$VIMANA" --workload-configuration="$p" --system-configuration="$T/s.json" --network-configuration="$T/r2.yml" "$@"
}
peaks() { # REPORT.json: NPU=PEAK ...
    sed -n 's/^{"npu": \([0-9]*\),.*"peak_tensor_bytes": \([0-9]*\)}.*/\1=\2/p' "$1" | tr '\n' ' '
}

# Ticks: embed 0 - 10000, layer 10000 - 30000, loss 30000 - 35000. Live:
# w_embed 500 over [0, 10000], x 1000 over [0, 30000], y 4000 over [10000,
# 35000], l 8 over [30000, 35000]. At 0: 1500; at 10000 w_embed has gone and
# y come: 5000; at 30000: 4008; the peak is 5000.
trace "$T/one.et" 4000
expect_ok run "$T/one" --report="$T/r.json"
expect_eq "$(peaks "$T/r.json")" "0=5000 1=5000 " "peak tensor bytes"
expect_ok run "$T/one" --report="$T/r.csv" --no-symmetry
expect_eq "$(head -1 "$T/r.csv")" \
    "npu,finished,finish,exposed_communication,wall,cpu,gpu,comm,remote_mem,replay,invalid,overlap,peak_tensor_bytes" \
    "CSV header"
expect_eq "$(sed -n 2p "$T/r.csv")" "0,1,35000,0,35000,0,35000,0,0,0,0,0,5000" "CSV row"

# Per-rank traces alike but for y's size (6000 on NPU 1: 7000 at 10000):
# the symmetry reduction keeps them apart.
trace "$T/pr.0.et" 4000
trace "$T/pr.1.et" 6000
expect_ok run "$T/pr" --report="$T/r.json"
expect_eq "$(peaks "$T/r.json")" "0=5000 1=7000 " "per-rank peaks"

# A trace naming no tensors: no figure (JSON) / an empty field (CSV).
"$VIMANA_ET" generate all-reduce --npus 2 --size 1KiB --single-file --out "$T/ar" >/dev/null || fail "generate"
expect_ok run "$T/ar" --report="$T/r.json"
grep -q peak_tensor_bytes "$T/r.json" && fail "a peak without tensors"
expect_ok run "$T/ar" --report="$T/r.csv"
expect_eq "$(sed -n 2p "$T/r.csv" | sed 's/.*,//')" "" "CSV: no tensors, empty field"

# Bad lists: one line naming file, node and what is wrong (read with
# --report only: the run alone does not need them).
bad() { # OUTPUTS-ATTRIBUTE-JSON MESSAGE
    trace "$T/bad.et" 4000 "$1"
    expect_error "vimana: error: $T/bad.et: node 2 (loss): $2" run "$T/bad" --report="$T/r.json"
    expect_ok run "$T/bad"
}
bad '"string_list": {"values": ["l", "8", "m"]}' "attribute outputs: 3 strings, not tensor name and size pairs"
bad '"string_list": {"values": ["l", "8x"]}' \
    "attribute outputs: tensor 'l': size '8x' is not a whole number of bytes up to 2^50"
bad '"string_list": {"values": ["l", "1125899906842625"]}' \
    "attribute outputs: tensor 'l': size '1125899906842625' is not a whole number of bytes up to 2^50"
bad '"string_list": {"values": ["l", "-8"]}' \
    "attribute outputs: tensor 'l': size '-8' is not a whole number of bytes up to 2^50"
bad '"string_list": {"values": ["x", "1000"]}' \
    "attribute outputs: tensor 'x' is written more than once (by this node or an earlier one)"
bad '"int64_val": "7"' "attribute outputs must be a string list of tensor names and sizes"
finish
