#!/bin/sh
# Custom-collective ETs get the checks of workload ETs (at 6dd528c an empty
# file was sorted through qsort(NULL, 0), and a cycle or an unmatched SEND
# ran with exit 0 as a 0-cycle collective): no empty file, no dependency
# cycle, durations that fit the clock, files that exist, and every SEND
# matched by a RECV on its peer (and vice versa), in communicator-group
# ranks when the collective runs on a group.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs/C-custom-collective"
T="$TEST_TMP"
sim() { # DIR [NETWORK [FLAGS...]]: runs prefix wl with DIR/sys.json from DIR
    dir=$1 net=${2:-$G/network/ring2.yml}
    shift
    [ $# -gt 0 ] && shift
    (cd "$dir" && "$VIMANA" --workload-configuration=wl --system-configuration=sys.json --network-configuration="$net" \
        --remote-memory-configuration="$G/memory/no_memory_expansion.json" --network-backend=analytical "$@")
}
# et DIR NAME RANK JSON-NODES: writes DIR/NAME.RANK.et from a node list.
et() {
    et_from_nodes "$1/$2.$3.et" "$4"
}
one_line() {
    expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "$1: lines on stderr"
}

expect_error "vimana: error: c.0.et: no issuable node: the custom collective's trace has no nodes" sim "$D/empty"
one_line empty
expect_error "vimana: error: c.0.et: dependency cycle: 1 -> 2 -> 1" sim "$D/cycle"
one_line cycle
expect_error "vimana: error: c.0.et: node 1: COMM_SEND to rank 1 (tag 0, 4096 bytes) has no matching COMM_RECV in c.1.et" \
    sim "$D/sendonly"
one_line sendonly
expect_error "vimana: error: c.0.et: node 1: duration out of range: duration_micros 9223372036854775808 does not fit the 64-bit nanosecond clock (at most 18446744073709551)" \
    sim "$D/dur63"
one_line dur63
expect_error "vimana: error: custom collective: c.1.et: cannot open: No such file or directory (the ET prefix in the system configuration is relative to the working directory)" \
    sim "$D/missing1"
one_line missing1

# A RECV nobody sends, a size that differs, a peer outside the ranks.
SEND='"type": "COMM_SEND_NODE", "attr": [{"name": "comm_dst", "int32_val": 1}, {"name": "comm_tag", "int32_val": 2}, {"name": "comm_size", "uint64_val": "4096"}]'
RECV='"type": "COMM_RECV_NODE", "attr": [{"name": "comm_src", "int32_val": 0}, {"name": "comm_tag", "int32_val": 2}, {"name": "comm_size", "uint64_val": "4096"}]'
mkdir "$T/p2p"
cp "$D/sendonly/sys.json" "$D/sendonly/wl.0.et" "$D/sendonly/wl.1.et" "$T/p2p/"
et "$T/p2p" c 0 "{\"id\": \"4\", \"name\": \"s\", $SEND}"
et "$T/p2p" c 1 "{\"id\": \"6\", \"name\": \"r\", $RECV}"
expect_ok sim "$T/p2p"
et "$T/p2p" c 1 "{\"id\": \"6\", \"name\": \"r\", $RECV}, {\"id\": \"8\", \"name\": \"r2\", $RECV}"
expect_error "vimana: error: c.1.et: node 8: COMM_RECV from rank 0 (tag 2, 4096 bytes) has no matching COMM_SEND in c.0.et" \
    sim "$T/p2p"
one_line "unmatched RECV"
et "$T/p2p" c 1 "{\"id\": \"6\", \"name\": \"r\", $(echo "$RECV" | sed 's/"4096"/"4097"/')}"
expect_error "vimana: error: c.0.et: node 4: COMM_SEND to rank 1 (tag 2, 4096 bytes) has no matching COMM_RECV in c.1.et" \
    sim "$T/p2p"
et "$T/p2p" c 1 "{\"id\": \"6\", \"name\": \"r\", $(echo "$RECV" | sed 's/"comm_src", "int32_val": 0/"comm_src", "int32_val": 5/')}"
expect_error "vimana: error: c.1.et: node 6: COMM_RECV from rank 5, outside the 2 ranks running the custom collective" \
    sim "$T/p2p"

# On communicator group [3, 1] the file positions follow the sorted NPU ids
# (c.0.et runs on NPU 1, group rank 1) and peers are group ranks: c.0.et
# sending to rank 0 (NPU 3) matches c.1.et receiving from rank 1 (NPU 1).
mkdir "$T/grp"
cp "$D/sendonly/sys.json" "$T/grp/"
printf '{"1": [3, 1]}\n' >"$T/grp/groups.json"
IDLE='{"id": "1", "name": "idle", "type": "COMP_NODE"}'
AR='{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "4096"}, {"name": "pg_name", "string_val": "1"}]}'
et "$T/grp" wl 0 "$IDLE"
et "$T/grp" wl 1 "$AR"
et "$T/grp" wl 2 "$IDLE"
et "$T/grp" wl 3 "$AR"
et "$T/grp" c 0 "{\"id\": \"1\", \"name\": \"s\", $(echo "$SEND" | sed 's/"comm_dst", "int32_val": 1/"comm_dst", "int32_val": 0/')}"
et "$T/grp" c 1 "{\"id\": \"1\", \"name\": \"r\", $(echo "$RECV" | sed 's/"comm_src", "int32_val": 0/"comm_src", "int32_val": 1/')}"
expect_ok sim "$T/grp" "$G/network/ring4.yml" --comm-group-configuration=groups.json
grep -q "^sys\[3\] finished, [1-9][0-9]* cycles" "$T/out" || fail "group custom collective: NPU 3 receives"
# A RECV from rank 0 in c.1.et (which is rank 0 itself) matches no SEND.
et "$T/grp" c 1 "{\"id\": \"1\", \"name\": \"r\", $RECV}"
expect_error "vimana: error: c.1.et: node 1: COMM_RECV from rank 0 (tag 2, 4096 bytes) has no matching COMM_SEND in c.1.et" \
    sim "$T/grp" "$G/network/ring4.yml" --comm-group-configuration=groups.json
finish
