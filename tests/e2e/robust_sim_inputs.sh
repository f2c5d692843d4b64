#!/bin/sh
# Bad inputs of issue 9 (tests/data/bad-inputs, from ../shared/bad-inputs):
# sizes, durations and times that do not fit 64-bit ticks, INVALID_NODE
# nodes, and paths that are not regular files given as ETs. Each ends in one
# exact line (at 6dd528c: a segfault, wrong cycles with exit 0, or an
# undefined float-to-integer cast).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs"
T="$TEST_TMP"
sim() { # PREFIX [SYSTEM [MEMORY]]
    "$VIMANA" --workload-configuration="$1" --system-configuration="${2:-$G/system/ring.json}" \
        --network-configuration="$G/network/ring2.yml" \
        --remote-memory-configuration="${3:-$G/memory/no_memory_expansion.json}" --network-backend=analytical
}
# et NAME RANK JSON-NODES: writes $T/NAME.RANK.et from a node list.
et() {
    et_from_nodes "$T/$1.$2.et" "$3"
}
# one_line: stderr of the last command is exactly one line.
one_line() {
    expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "$1: lines on stderr"
}

# F1: a 2^64-1 byte all-reduce wrapped the chunk count (heap overflow).
W="$D/F1-coll-size-overflow/wl"
expect_error "vimana: error: $W.0.et: node 1 (coll1): comm_size 18446744073709551615 is out of range (at most 9223372036854775807 bytes)" \
    sim "$W"
one_line F1

# F4: duration_micros x 1000 wrapped (wrong cycles, exit 0).
W="$D/F4-duration-overflow/wl"
expect_error "vimana: error: $W.0.et: node 1 (comp1): duration out of range: duration_micros 9223372036854775808 does not fit the 64-bit nanosecond clock (at most 18446744073709551)" \
    sim "$W"
one_line F4
W="$D/F4-duration-overflow/max/wl"
expect_error "vimana: error: $W.0.et: node 1 (comp1): duration out of range: duration_micros 18446744073709551615 does not fit the 64-bit nanosecond clock (at most 18446744073709551)" \
    sim "$W"
# Each duration fits, their sum does not.
et sum 0 '{"id": "1", "name": "a", "type": "COMP_NODE", "duration_micros": "10000000000000000"},
  {"id": "2", "name": "b", "type": "COMP_NODE", "duration_micros": "10000000000000000", "data_deps": ["1"]}'
et sum 1 '{"id": "1", "name": "idle", "type": "COMP_NODE"}'
expect_error "vimana: error: $T/sum.0.et: node 2 (b): duration out of range: duration_micros 10000000000000000 starting at t = 10000000000000000000 ends past the 64-bit nanosecond clock" \
    sim "$T/sum"
# The largest duration that fits runs to the exact cycle.
et big 0 '{"id": "1", "name": "a", "type": "COMP_NODE", "duration_micros": "18446744073709551"}'
et big 1 '{"id": "1", "name": "idle", "type": "COMP_NODE"}'
expect_ok sim "$T/big"
grep -qxF "sys[0] finished, 18446744073709551000 cycles, exposed communication 0 cycles." "$T/out" ||
    fail "largest duration: exact cycles"

# F2: float-to-tick casts of remote-memory and roofline times.
F2="$D/F2-float-to-tick-cast"
W="$F2/remote_mem/wl"
expect_error "vimana: error: $W.0.et: node 1 (mem1): remote memory time out of range: tensor_size 18446744073709551615 at remote-mem-bw 1 plus remote-mem-latency 5 ($F2/remote_mem/per_npu_bw1.json) does not fit the 64-bit nanosecond clock" \
    sim "$W" "$G/system/ring.json" "$F2/remote_mem/per_npu_bw1.json"
one_line F2-remote-mem
W="$G/workload/roofline_2/roofline_2"
# The configuration reader refuses the absurd peak-perf before any tick exists.
expect_error "vimana: error: $F2/roofline/system_peak_perf_1e-300.json: key 'peak-perf': 1e-300 is out of range (0, or 1e-6 to 1000000000 TFLOP/s)" \
    sim "$W" "$F2/roofline/system_peak_perf_1e-300.json"
one_line F2-roofline
# An in-range peak-perf with num_ops whose roofline time passes 2^64 ns.
sed 's/"peak-perf": 1e-300/"peak-perf": 1e-6/' "$F2/roofline/system_peak_perf_1e-300.json" >"$T/slow.json"
BIGOPS='{"id": "1", "name": "big_ops", "type": "COMP_NODE", "attr": [{"name": "is_cpu_op", "bool_val": false},
  {"name": "num_ops", "int64_val": "9000000000000000000"}, {"name": "tensor_size", "uint64_val": "1"}]}'
et ops 0 "$BIGOPS"
et ops 1 "$BIGOPS"
expect_error "vimana: error: $T/ops.0.et: node 1 (big_ops): roofline time out of range: 9e+12 s (peak-perf 1e-06 in $T/slow.json) does not fit the 64-bit nanosecond clock" \
    sim "$T/ops" "$T/slow.json"
one_line F2-roofline-runtime

# A local-mem-bw refused at load, and an in-range one so small that reducing
# a huge chunk takes more than 2^64 ns.
sed 's/"local-mem-bw": [0-9.e+-]*/"local-mem-bw": 1e-300/' "$G/system/ring.json" >"$T/lmb.json"
AR='{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"}]}'
et ar 0 "$AR"
et ar 1 "$AR"
expect_error "vimana: error: $T/lmb.json: key 'local-mem-bw': 1e-300 is out of range (0, or 1e-6 to 1000000000 GB/s)" \
    sim "$T/ar" "$T/lmb.json"
one_line local-mem-bw
sed 's/"local-mem-bw": [0-9.e+-]*/"local-mem-bw": 1e-6/' "$G/system/ring.json" >"$T/lmb6.json"
HUGE='{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "4611686018427387904"}]}'
et huge 0 "$HUGE"
et huge 1 "$HUGE"
expect_error "vimana: error: $T/lmb6.json: key 'local-mem-bw' (1e-06 GB/s) is too small: reducing 576460752303423488 bytes on NPU 1 does not fit the 64-bit nanosecond clock" \
    sim "$T/huge" "$T/lmb6.json"
one_line local-mem-bw-runtime

# INVALID_NODE runs as a zero-time node, with one warning per trace file.
W="$D/M-messages/invalid_node"
expect_ok sim "$W"
expect_eq "$(cat "$T/err")" "vimana: warning: $W.0.et: 1 INVALID_NODE node (first: node 1 (x)) runs as a zero-time node: the node type is unset" \
    "INVALID_NODE warning"
grep -qxF "sys[0] finished, 0 cycles, exposed communication 0 cycles." "$T/out" || fail "INVALID_NODE: 0 cycles"
grep -qxF "sys[1] finished, 5000 cycles, exposed communication 0 cycles." "$T/out" || fail "INVALID_NODE: NPU 1"
et inv 0 '{"id": "7", "name": "p"}, {"id": "3", "name": "q"}, {"id": "9", "name": "r", "type": "COMP_NODE", "duration_micros": "2"}'
et inv 1 '{"id": "1", "name": "idle", "type": "COMP_NODE"}'
expect_ok sim "$T/inv"
expect_eq "$(cat "$T/err")" "vimana: warning: $T/inv.0.et: 2 INVALID_NODE nodes (first: node 3 (q)) run as zero-time nodes: the node type is unset" \
    "INVALID_NODE warning, two nodes"

# A directory or a device given as an ET: one line, no endless read.
mkdir "$T/dir.0.et"
expect_error "vimana: error: $T/dir.0.et: is a directory, expected a file" sim "$T/dir"
one_line directory
ln -s /dev/zero "$T/zero.0.et"
expect_error "vimana: error: $T/zero.0.et: not a regular file (character device)" sim "$T/zero"
one_line /dev/zero
finish
