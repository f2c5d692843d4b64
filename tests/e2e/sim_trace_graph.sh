#!/bin/sh
# Workload traces and custom-collective traces share one loader and one
# ready set (core/trace). Each caller keeps its own wording of a refusal;
# node order in the file never changes a result; and a custom collective
# with thousands of nodes ready at once issues them in id order (it used to
# rescan every node after each completion).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$TEST_TMP"
RING2="$G/network/ring2.yml"

# et DIR NAME RANK JSON-NODES: writes DIR/NAME.RANK.et from a node list.
et() {
    et_from_nodes "$1/$2.$3.et" "$4"
}
# sim DIR [FLAGS...]: runs prefix wl of DIR with DIR/sys.json, from DIR.
sim() {
    dir=$1
    shift
    (cd "$dir" && "$VIMANA" --workload-configuration=wl --system-configuration=sys.json --network-configuration="$RING2" \
        --network-backend=congestion_aware "$@")
}
IDLE='{"id": "1", "name": "idle", "type": "COMP_NODE"}'
comp() { # ID NAME DURATION [DATA-DEP]
    printf '{"id": "%s", "name": "%s", "type": "COMP_NODE", "duration_micros": "%s"%s}' "$1" "$2" "$3" \
        "${4:+, \"data_deps\": [\"$4\"]}"
}

# ---- workload traces --------------------------------------------------------
mkdir "$T/w"
printf '{"scheduling-policy": "FIFO", "preferred-dataset-splits": 1, "local-mem-bw": 50}\n' >"$T/w/sys.json"
et "$T/w" wl 1 "$IDLE"
et "$T/w" wl 0 "$(comp 4 a 3), $(comp 9 b 2), $(comp 4 c 1)"
expect_error "vimana: error: wl.0.et: node id 4 appears twice" sim "$T/w"

# The same graph written in id order and backwards: the same run (every
# node's start and end in the timeline), byte for byte. One GPU slot runs
# the free nodes lowest id first: a 0-3, b 3-5, c 5-6, d 6-10, e 10-15 us.
et "$T/w" wl 0 "$(comp 1 a 3), $(comp 2 b 2 1), $(comp 3 c 1 1), $(comp 7 d 4 2), $(comp 30 e 5)"
expect_ok sim "$T/w" --timeline="$T/sorted.json"
grep -qx 'sys\[0\] finished, 15000 cycles, exposed communication 0 cycles.' "$T/out" ||
    fail "workload in id order: 3 + 2 + 1 + 4 + 5 us on the GPU slot"
grep -q '"name": *"d"[^}]*"ts": *6,' "$T/sorted.json" || grep -q '"ts": *6,[^}]*"name": *"d"' "$T/sorted.json" ||
    fail "node d starts at 6 us"
cp "$T/out" "$T/sorted.out"
et "$T/w" wl 0 "$(comp 30 e 5), $(comp 7 d 4 2), $(comp 3 c 1 1), $(comp 2 b 2 1), $(comp 1 a 3)"
expect_ok sim "$T/w" --timeline="$T/backwards.json"
cmp -s "$T/out" "$T/sorted.out" || fail "a trace written backwards finishes differently"
cmp -s "$T/backwards.json" "$T/sorted.json" || fail "a trace written backwards runs its nodes differently"

# ---- custom-collective traces -----------------------------------------------
mkdir "$T/c"
printf '{"scheduling-policy": "FIFO", "preferred-dataset-splits": 1, "all-reduce-implementation-custom": ["c"], "local-mem-bw": 50}\n' \
    >"$T/c/sys.json"
AR='{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "is_cpu_op", "bool_val": false},
  {"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "4096"}]}'
et "$T/c" wl 0 "$AR"
et "$T/c" wl 1 "$AR"
et "$T/c" c 1 "$(comp 1 x 1)"
et "$T/c" c 0 "$(comp 5 a 1), $(comp 6 b 1), $(comp 5 c 1)"
expect_error "vimana: error: c.0.et: node id 5 appears twice" sim "$T/c"
# Custom collectives name no node and take no --drop-missing-deps.
et "$T/c" c 0 "$(comp 5 a 1), $(comp 6 b 1 44)"
expect_error "vimana: error: c.0.et: node 6 depends on node 44, which is not in the file" sim "$T/c"
expect_error "vimana: error: c.0.et: node 6 depends on node 44, which is not in the file" sim "$T/c" --drop-missing-deps
et "$T/c" c 0 "$(comp 5 a 1 5)"
expect_error "vimana: error: c.0.et: dependency cycle: 5 -> 5" sim "$T/c"

# Many ready nodes: each rank sends N messages of growing size to the
# other and receives N, all free at the start, written backwards with
# sparse ids, beside chains of 50 one-microsecond COMP nodes. Sends leave in id order, so the
# finish time is fixed (figure from commit 94087ac, before the ready set).
N=1500
many() { # RANK PEER
    awk -v me="$1" -v peer="$2" -v n="$N" 'BEGIN {
        sep = ""
        printf "{\"global_metadata\": {\"version\": \"0.0.4\"}, \"nodes\": ["
        for (t = n - 1; t >= 0; t--) {
            size = 1024 * (t % 7 + 1)
            printf "%s{\"id\": \"%d\", \"name\": \"s%d\", \"type\": \"COMM_SEND_NODE\", \"attr\": [{\"name\": \"comm_dst\", \"int32_val\": %d}, {\"name\": \"comm_tag\", \"int32_val\": %d}, {\"name\": \"comm_size\", \"uint64_val\": \"%d\"}]}", sep, 10 * t + 3, t, peer, t, size
            sep = ", "
            printf "%s{\"id\": \"%d\", \"name\": \"r%d\", \"type\": \"COMM_RECV_NODE\", \"attr\": [{\"name\": \"comm_src\", \"int32_val\": %d}, {\"name\": \"comm_tag\", \"int32_val\": %d}, {\"name\": \"comm_size\", \"uint64_val\": \"%d\"}]}", sep, 10 * (n - 1 - t) + 7, t, peer, t, size
            printf "%s{\"id\": \"%d\", \"name\": \"k%d\", \"type\": \"COMP_NODE\", \"duration_micros\": \"1\"%s}", sep, 100000 + t, t, t % 50 ? ", \"data_deps\": [\"" (100000 + t - 1) "\"]" : ""
        }
        printf "]}\n"
    }' >"$T/many.json"
    "$VIMANA_ET" from-json "$T/many.json" -o "$T/c/c.$1.et" || fail "from-json c.$1"
}
many 0 1
many 1 0
expect_ok sim "$T/c"
expect_eq "$(grep -c '^sys\[[01]\] finished, 114405 cycles' "$T/out")" 2 "custom collective with $N ready sends and receives"

finish
