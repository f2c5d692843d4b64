#!/bin/sh
# Configuration readers on bad input (tests/data/bad-inputs): system,
# remote-memory and communicator-group JSON, network YAML and the per-node
# custom map. Each case ends in exactly one stderr line naming the file, the
# position or key and the problem - never a 0-cycle answer, a hang, an
# endless read or a message split over lines - or in a correct run.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs"
M="$D/M-messages"
T="$TEST_TMP"
P2P="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2"
SYS="$G/system/ring.json"
RING2="$G/network/ring2.yml"
MEM="$G/memory/no_memory_expansion.json"

# sim [OPTIONS...]: the 1 MiB send 0 -> 1 on Ring 2 with the golden
# configurations; later options replace earlier ones.
sim() {
    timeout 60 "$VIMANA" --workload-configuration="$P2P" --system-configuration="$SYS" --network-configuration="$RING2" \
        --remote-memory-configuration="$MEM" "$@"
}

# one_error "exact line" CMD ARGS...: CMD must fail with that line as its
# whole stderr.
one_error() {
    want=$1
    shift
    if "$@" >"$T/out" 2>"$T/err"; then
        fail "expected failure from: $*"
        return
    fi
    [ "$(cat "$T/err")" = "$want" ] || {
        fail "stderr of '$*' is not exactly: $want"
        sed 's/^/    got: /' "$T/err" >&2
    }
}

# bad_config KIND FILE WHY [ARGS...]: sim with the KIND configuration FILE
# (and ARGS) fails with the one line "vimana: error: FILE: WHY".
bad_config() {
    kind=$1 file=$2 why=$3
    shift 3
    one_error "vimana: error: $file: $why" sim --"$kind"-configuration="$file" "$@"
}

# ---- network YAML: float -> tick casts, limits, nesting, escaping ---------
F2="$D/F2-float-to-tick-cast/network"
for be in analytical congestion_aware; do
    one_error "vimana: error: $F2/bwtiny.yml: bandwidth (1e-300) is too small: one byte would take more than 2^64-1 ns, the longest time Vimana can simulate" \
        sim --network-configuration="$F2/bwtiny.yml" --network-backend=$be
    one_error "vimana: error: $F2/lathuge.yml: latency (1e300) is too large: a message over the longest route (1 hop) would take more than 2^64-1 ns, the longest time Vimana can simulate" \
        sim --network-configuration="$F2/lathuge.yml" --network-backend=$be
done

# Loadable, but a 1 MiB message at 1e-15 GB/s takes about 9.8e20 ns: the
# backend refuses it instead of truncating an out-of-range double.
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 1e-15 ]\nlatency: [ 500 ]\n' >"$T/bw15.yml"
expect_error "vimana: analytical: error: $T/bw15.yml: a message of 1048576 bytes from NPU 0 to NPU 1 would arrive after 2^64-1 ns, the longest time Vimana can simulate (bandwidth[0] 1e-15 GB/s, latency[0] 500 ns)" \
    sim --network-configuration="$T/bw15.yml"
expect_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "bw15 analytical: one line (the backend's own)"
expect_error "vimana: congestion_aware: error: $T/bw15.yml: a message of 1048576 bytes from NPU 0 to NPU 1 would arrive after 2^64-1 ns, the longest time Vimana can simulate (bandwidth 1e-15 GB/s, latency 500 ns)" \
    sim --network-configuration="$T/bw15.yml" --network-backend=congestion_aware
expect_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "bw15 congestion_aware: one line (the backend's own)"

# Large but representable times stay exact: one hop of 1e15 ns plus
# trunc(1048576 / 53.6870912) = 19531 ns.
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50 ]\nlatency: [ 1e15 ]\n' >"$T/lat15.yml"
for be in analytical congestion_aware; do
    expect_ok sim --network-configuration="$T/lat15.yml" --network-backend=$be
    expect_eq "$(grep -c 'finished, 1000000000019531 cycles' "$T/out")" 2 "latency 1e15 on $be"
done

bad_config network "$M/net_npus1e9.yml" "npus_count: 1000000000 NPUs in all is more than the 1048576 Vimana supports"
bad_config network "$M/net_newline_in_topology.yml" "Topology name Ri\\n\\n\\n\\n\\n\\n\\nng not supported (expected Ring, FullyConnected or Switch)"
bad_config network "$D/H-hangs/network_nested100k.yml" "line 1: the value of key 'x' is nested deeper than 64 levels"
printf 'topology: [ FullyConnected ]\nnpus_count: [ 5000 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/fc5000.yml"
bad_config network "$T/fc5000.yml" "npus_count (5000): a FullyConnected network of more than 4096 NPUs needs more than 16777216 links, more than the congestion_aware backend supports" --network-backend=congestion_aware

# ---- system JSON -----------------------------------------------------------
bad_config system "$M/sys_dupkey.json" "line 1, column 358: duplicate key 'endpoint-delay' (first given at line 1, column 31)"
bad_config system "$M/sys_trailing_garbage.json" "line 1, column 358: unexpected text after the end of the JSON object: 'xyz'"
# The file also repeats local-mem-bw; the NaN comes first in reading order.
bad_config system "$M/sys_lmb_nan.json" "line 1, column 374: key 'local-mem-bw': NaN is not a finite number"
bad_config system "$M/sys_empty.json" "line 1, column 1: expected a JSON object ('{'), got the end of the file"
bad_config system "$M/sys_newline_in_value.json" "line 2, column 30: control character \\n inside a string (write it as an escape)"
# A newline written as an escape is a valid value, and is echoed escaped.
sed 's/"LIFO"/"LI\\nFO"/' "$SYS" >"$T/sys_nl.json"
bad_config system "$T/sys_nl.json" "key 'scheduling-policy': unknown value 'LI\\nFO' (expected LIFO, FIFO or EXPLICIT)"
bad_config system "$D/F2-float-to-tick-cast/roofline/system_peak_perf_1e-300.json" "key 'peak-perf': 1e-300 is out of range (0, or 1e-6 to 1000000000 TFLOP/s)"
bad_config system "$D/H-hangs/system_pds1e9.json" "key 'preferred-dataset-splits': 1000000000 is out of range (1 to 4096 chunks per collective)" --workload-configuration="$D/H-hangs/ar_wl/wl"
one_error "vimana: error: $SYS: key 'endpoint-delay': 10 x --injection-scale 1e300 is out of range (0 to 9007199254740991)" \
    sim --injection-scale=1e300

# ---- remote-memory JSON ----------------------------------------------------
bad_config remote-memory "$M/mem_nolat.json" "key 'remote-mem-latency' is missing (required for PER_NPU_MEMORY_EXPANSION, in ns)"
bad_config remote-memory "$M/mem_empty.json" "line 1, column 1: expected a JSON object ('{'), got the end of the file"
bad_config remote-memory "$M/mem_newline_in_type.json" "line 1, column 20: control character \\n inside a string (write it as an escape)"
F9="$D/F9-memory-json-cast"
bad_config remote-memory "$F9/min.json" "key 'remote-mem-latency': 1e25 is out of range (0 to 9007199254740991)"
bad_config remote-memory "$F9/crash-df60dcf1d7048b2df85561f1394b19ce9b1d12ae" "key 'remote-mem-latency': 41111111111111111111111119.9 is out of range (0 to 9007199254740991)"

# ---- communicator-group JSON -----------------------------------------------
AR8="$G/workload/ar_1MiB_8_groups/ar_1MiB_8_groups"
RING8="$G/network/ring8.yml"
one_error "vimana: error: $M/cg_dupkey.json: line 1, column 18: duplicate key '1' (first given at line 1, column 2)" \
    sim --workload-configuration="$AR8" --network-configuration="$RING8" --comm-group-configuration="$M/cg_dupkey.json"
# Copied to a name without "empty": that word in the path once made vimana
# ignore the option altogether.
cp "$M/cg_emptylist.json" "$T/cg_nomembers.json"
one_error "vimana: error: $T/cg_nomembers.json: group 1: expected a non-empty list of NPU ids" \
    sim --workload-configuration="$AR8" --network-configuration="$RING8" --comm-group-configuration="$T/cg_nomembers.json"

# ---- /dev/zero and directories: refused before any read ---------------------
for opt in system-configuration remote-memory-configuration comm-group-configuration network-configuration; do
    one_error "vimana: error: /dev/zero: not a regular file (character device)" sim --$opt=/dev/zero
    mkdir -p "$T/dir.json"
    one_error "vimana: error: $T/dir.json: is a directory, expected a file" sim --$opt="$T/dir.json"
done
one_error "vimana: error: /dev/zero: not a regular file (character device)" \
    sim --network-configuration=/dev/zero --network-backend=congestion_aware
bad_config network "$T/dir.json" "is a directory, expected a file" --network-backend=congestion_aware

# ---- per-node custom map: YAML aliases are resolved ------------------------
# The bad-input folder maps node 2 (the workload's collective) through an
# alias to /nonexistent/pfxA; with the alias dropped it got "3" instead.
(cd "$D/S-per-node-custom-alias" && "$VIMANA" --workload-configuration=wl --system-configuration=sys.json \
    --network-configuration="$RING2") >"$T/out" 2>"$T/err" && fail "S-per-node-custom-alias: expected a failure"
grep -qF "/nonexistent/pfxA.0.et" "$T/err" || fail "S-per-node-custom-alias: node 2 must use the aliased prefix pfxA"
expect_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "S-per-node-custom-alias: one line"
# Every rank's all-reduce (node id = rank) aliased to the golden custom ring
# all-reduce: the golden result, 90174 cycles on every NPU.
{
    printf '0: &ring %s\n' "$G/workload/custom_ring_allreduce_8npus_1MB/custom_allreduce"
    for i in 1 2 3 4 5 6 7; do printf '%s: *ring\n' "$i"; done
} >"$T/map.yml"
printf '{"scheduling-policy": "FIFO", "preferred-dataset-splits": 1, "local-mem-bw": 50, "per-node-custom-implementation": "%s"}\n' \
    "$T/map.yml" >"$T/custom.json"
expect_ok "$VIMANA" --workload-configuration="$G/workload/all_reduce_8npus_1MB/all_reduce" \
    --system-configuration="$T/custom.json" --network-configuration="$RING8" --network-backend=congestion_aware
expect_eq "$(grep -c 'finished, 90174 cycles' "$T/out")" 8 "aliased per-node custom all-reduce"

# An empty object (found by the system_json, memory_json and comm_group_json
# fuzz targets: the duplicate-key check handed qsort a NULL array).
printf '{}\n' >"$T/empty_object.json"
bad_config system "$T/empty_object.json" "key 'preferred-dataset-splits' is missing (required, greater than 0)"
bad_config remote-memory "$T/empty_object.json" "key 'memory-type' is missing or not a string (expected NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION or MEMORY_POOL)"
expect_ok sim --comm-group-configuration="$T/empty_object.json"
expect_eq "$(grep -c 'finished, 20031 cycles' "$T/out")" 2 "an empty communicator-group object defines no group"
finish
