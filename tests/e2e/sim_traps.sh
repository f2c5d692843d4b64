#!/bin/sh
# Silent traps made visible, and inputs the simulator used to get wrong:
# short algorithm lists, trace files beyond or short of the network size,
# gzip-compressed traces, the congestion_unaware backend name, a
# communicator-group path containing "empty", and a SEND nobody receives.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs"
T="$TEST_TMP"
SYS="$G/system/ring.json"
P2P="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2"
sim() { # PREFIX NETWORK [FLAGS...]
    prefix=$1 net=$2
    shift 2
    "$VIMANA" --workload-configuration="$prefix" --system-configuration="$SYS" --network-configuration="$G/network/$net" "$@"
}
# finished_all N CYCLES WHAT: stdout of the last run has N NPUs finished at CYCLES
finished_all() {
    expect_eq "$(grep -c "finished, $2 cycles" "$T/out")" "$1" "$3"
}
# 1 MiB from NPU 0 to 1 on ring2 (50 GB/s, 500 ns): 500 + 2^20 / (50 * 2^30 / 1e9) = 500 + 19531 ticks.
P2P_CYCLES=20031

# ring.json lists one algorithm per collective; on Ring x Ring 4x4 the
# collectives use dimension 0 only, as in the reference: one warning, same cycles.
expect_ok sim "$G/workload/ar_1MiB_16/ar_1MiB_16" ring-ring_4x4.yml
grep -qxF "vimana: warning: $SYS: 'all-reduce-implementation', 'reduce-scatter-implementation', 'all-gather-implementation', 'all-to-all-implementation' list 1 algorithm for a network of 2 dimensions: dimension 1 is unused by these collectives (as in ASTRA-sim)" "$T/err" ||
    fail "short algorithm list warning"
expect_eq "$(wc -l <"$T/err")" 1 "short algorithm list: one warning line"
finished_all 16 88720 "short algorithm list keeps the 6dd528c cycles"
# A one-algorithm list of a single collective, two dimensions unused.
printf '%s\n' '{"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,' \
    '"preferred-dataset-splits": 4, "all-reduce-implementation": ["ring"],' \
    '"all-gather-implementation": ["ring", "ring", "ring"], "reduce-scatter-implementation": ["ring", "ring", "ring"],' \
    '"all-to-all-implementation": ["ring", "ring", "ring"], "collective-optimization": "localBWAware",' \
    '"local-mem-bw": 50, "boost-mode": 0}' >"$T/ar1.json"
printf 'topology: [ Ring, Ring, Ring ]\nnpus_count: [ 2, 2, 2 ]\nbandwidth: [ 50.0, 50.0, 50.0 ]\nlatency: [ 500.0, 500.0, 500.0 ]\n' >"$T/r222.yml"
expect_ok "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/ar1.json" \
    --network-configuration="$T/r222.yml"
grep -qxF "vimana: warning: $T/ar1.json: 'all-reduce-implementation' lists 1 algorithm for a network of 3 dimensions: dimensions 1, 2 are unused by this collective (as in ASTRA-sim)" "$T/err" ||
    fail "single short list warning"

# Eight traces on a four-NPU network: NPUs 4 to 7 are dropped, with a warning.
expect_ok sim "$G/workload/ar_1MiB_8/ar_1MiB_8" ring4.yml
grep -qxF "vimana: warning: $G/workload/ar_1MiB_8/ar_1MiB_8.4.et: 4 trace files from NPU 4 up ignored: the network $G/network/ring4.yml has only 4 NPUs" "$T/err" ||
    fail "extra traces warning"
expect_eq "$(grep -c finished "$T/out")" 4 "extra traces: four NPUs run"
# Eight traces on a sixteen-NPU network: the reference stops at the first missing one; so do we, saying why.
expect_error "vimana: error: workload file: $G/workload/ar_1MiB_8/ar_1MiB_8.8.et does not exist (fewer traces than NPUs: the network $G/network/ring16.yml has 16 NPUs, the workload 8 traces; it needs $G/workload/ar_1MiB_8/ar_1MiB_8.0.et to $G/workload/ar_1MiB_8/ar_1MiB_8.15.et)" \
    sim "$G/workload/ar_1MiB_8/ar_1MiB_8" ring16.yml

# PREFIX.N.et.gz is read when PREFIX.N.et is absent (here NPU 0's only).
gzip -c "$P2P.0.et" >"$T/gz.0.et.gz"
cp "$P2P.1.et" "$T/gz.1.et"
expect_ok sim "$T/gz" ring2.yml
finished_all 2 $P2P_CYCLES "gzip-compressed trace"
expect_ok sim "$P2P" ring2.yml --network-backend=congestion_unaware
finished_all 2 $P2P_CYCLES "congestion_unaware = analytical"

# A communicator-group file in a folder named not-empty is read: only the exact value 'empty' means none.
expect_ok "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8_groups/ar_1MiB_8_groups" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --network-backend=congestion_aware \
    --comm-group-configuration="$D/S-comm-group-path-empty/not-empty/halves_8.json"
finished_all 8 109360 "comm group path containing 'empty' (golden ring8-groups-ar-ca)"
expect_error "vimana: error: $G/workload/ar_1MiB_8_groups/ar_1MiB_8_groups.0.et: For rank 0 ET node 0, communicator group 1 not found" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8_groups/ar_1MiB_8_groups" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --comm-group-configuration=empty

# A SEND nobody receives: its NPU finishes when the data arrives, but the run is a deadlock.
expect_error "vimana: error: deadlock: $D/F5-send-without-recv/wl.0.et: a SEND nobody receives: NPU 0 node 1 (send1) sent 1048576 bytes to NPU 1 with tag 0; no RECV on NPU 1 matched it by t = $P2P_CYCLES" \
    sim "$D/F5-send-without-recv/wl" ring2.yml
expect_eq "$(wc -l <"$T/err")" 1 "unreceived send: one line"
finish
