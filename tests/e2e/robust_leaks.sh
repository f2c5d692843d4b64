#!/bin/sh
# A run that stops with collectives in flight (a deadlock, or an error on
# another NPU) frees them: stderr holds exactly the run's own lines. In the
# sanitizer build (./scripts/build --sanitizers) LeakSanitizer adds its
# report to stderr, which these line counts catch; at 6dd528c the phase
# lists of unfinished chunks and running custom collectives leaked.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs/F6-leak-after-failure"
T="$TEST_TMP"
sim() { # PREFIX [SYSTEM]
    "$VIMANA" --workload-configuration="$1" --system-configuration="${2:-$G/system/ring.json}" \
        --network-configuration="$G/network/ring2.yml" \
        --remote-memory-configuration="$G/memory/no_memory_expansion.json" --network-backend=analytical
}
et() { # NAME RANK JSON-NODES
    et_from_nodes "$T/$1.$2.et" "$3"
}
lines() { # N WHAT: stderr of the last command has N lines
    expect_eq "$(wc -l <"$TEST_TMP/err")" "$1" "$2: lines on stderr"
}
SUMMARY="unmatched or in flight: a RECV no SEND matches, a SEND nobody receives, or a collective some NPUs never join)"

# NPU 0 all-reduces, NPU 1 never joins.
expect_error "vimana: error: deadlock: 1 of 2 NPUs never finished at t = 5000 (2 messages $SUMMARY" sim "$D/wl"
lines 2 "collective never joined"

# The fuzzer's reproducer leak-d1cff644... split at its "=====FZSEP=====" line
# into leak.0.et and leak.1.et: a SEND, a RECV and an all-reduce that
# deadlock with messages and chunks in flight.
expect_error "vimana: error: deadlock: 2 of 2 NPUs never finished at t = 27982 (4 messages $SUMMARY" sim "$D/leak"
lines 3 "fuzzer reproducer"

# An error on NPU 1 stops the run while NPU 0's all-reduce is in flight.
AR='{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"}]}'
et stop 0 "$AR"
et stop 1 '{"id": "1", "name": "a", "type": "COMP_NODE", "duration_micros": "5"},
  {"id": "2", "name": "b", "type": "COMP_NODE", "duration_micros": "18446744073709551615", "data_deps": ["1"]}'
expect_error "vimana: error: $T/stop.1.et: node 2 (b): duration out of range: duration_micros 18446744073709551615 does not fit the 64-bit nanosecond clock (at most 18446744073709551)" \
    sim "$T/stop"
lines 1 "error with a collective in flight"

# A custom collective in flight: NPU 0 runs it, NPU 1 never joins.
mkdir "$T/custom"
printf '{"scheduling-policy": "FIFO", "preferred-dataset-splits": 1, "all-reduce-implementation-custom": ["%s"], "local-mem-bw": 50}\n' \
    "$T/c" >"$T/custom/sys.json"
X='"attr": [{"name": "comm_tag", "int32_val": 0}, {"name": "comm_size", "uint64_val": "4096"}'
et c 0 "{\"id\": \"1\", \"name\": \"s\", \"type\": \"COMM_SEND_NODE\", $X, {\"name\": \"comm_dst\", \"int32_val\": 1}]},
  {\"id\": \"2\", \"name\": \"r\", \"type\": \"COMM_RECV_NODE\", $X, {\"name\": \"comm_src\", \"int32_val\": 1}]}"
et c 1 "{\"id\": \"1\", \"name\": \"s\", \"type\": \"COMM_SEND_NODE\", $X, {\"name\": \"comm_dst\", \"int32_val\": 0}]},
  {\"id\": \"2\", \"name\": \"r\", \"type\": \"COMM_RECV_NODE\", $X, {\"name\": \"comm_src\", \"int32_val\": 0}]}"
et cw 0 "$AR"
et cw 1 '{"id": "1", "name": "idle", "type": "COMP_NODE"}'
expect_error "vimana: deadlock: NPU 0 never finished; waiting on node 1 (ar)" sim "$T/cw" "$T/custom/sys.json"
lines 2 "custom collective never joined"
finish
