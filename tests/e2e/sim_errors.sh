#!/bin/sh
# Bad input: every case stops with one exact line naming the file, the
# record and the problem, and a non-zero exit - never a crash or a hang.
# Also the inputs the reference crashes on but Vimana simulates.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$TEST_TMP"
RING2="$G/network/ring2.yml"
RING8="$G/network/ring8.yml"
SYS="$G/system/ring.json"

# et NAME RANK JSON-NODES: writes $T/NAME.RANK.et from a node list.
et() {
    et_from_nodes "$T/$1.$2.et" "$3"
}
IDLE='{"id": "1", "name": "idle", "type": "COMP_NODE"}'
sim() { # PREFIX NETWORK [FLAGS...]
    prefix=$1 net=$2
    shift 2
    "$VIMANA" --workload-configuration="$T/$prefix" --system-configuration="$SYS" --network-configuration="$net" "$@"
}

# A receive no send ever matches: a deadlock, with the node still waiting.
et dead 0 '{"id": "5", "name": "recv_from_1", "type": "COMM_RECV_NODE", "attr": [
  {"name": "comm_src", "int32_val": 1}, {"name": "comm_tag", "int32_val": 7}, {"name": "comm_size", "uint64_val": "1024"}]}'
et dead 1 "$IDLE"
expect_error "vimana: deadlock: NPU 0 never finished; waiting on node 5 (recv_from_1)" sim dead "$RING2"
grep -qxF "vimana: error: deadlock: 1 of 2 NPUs never finished at t = 1 (1 message unmatched or in flight: a RECV no SEND matches, a SEND nobody receives, or a collective some NPUs never join)" "$T/err" ||
    fail "deadlock summary line"

# A dependency cycle, printed in order.
et cyc 0 '{"id": "1", "name": "a", "type": "COMP_NODE", "data_deps": ["3"]},
  {"id": "2", "name": "b", "type": "COMP_NODE", "data_deps": ["1"]},
  {"id": "3", "name": "c", "type": "COMP_NODE", "ctrl_deps": ["2"]}, {"id": "9", "name": "d", "type": "COMP_NODE"}'
et cyc 1 "$IDLE"
expect_error "vimana: error: $T/cyc.0.et: dependency cycle: 1 -> 2 -> 3 -> 1" sim cyc "$RING2"

# A trace with metadata but no node.
et empty 0 ''
et empty 1 "$IDLE"
expect_error "vimana: error: $T/empty.0.et: no issuable node: the trace has no nodes (an idle NPU needs at least one, e.g. a 0 us COMP node)" \
    sim empty "$RING2"

# A zero-byte send.
et zero 0 '{"id": "1", "name": "send", "type": "COMM_SEND_NODE", "attr": [{"name": "comm_dst", "int32_val": 1},
  {"name": "comm_tag", "int32_val": 3}, {"name": "comm_size", "uint64_val": "0"}]}'
et zero 1 "$IDLE"
expect_error "vimana: error: $T/zero.0.et: node 1 (send): zero-byte COMM_SEND between NPU 0 and NPU 1 (tag 3)" sim zero "$RING2"

# A dependency on a node that is not in the file, and the option to drop it.
et miss 0 '{"id": "2", "name": "x", "type": "COMP_NODE", "data_deps": ["77"]}'
et miss 1 "$IDLE"
expect_error "vimana: error: $T/miss.0.et: node 2 (x) depends on node 77, which is not in the file (--drop-missing-deps ignores such dependencies)" \
    sim miss "$RING2"
expect_ok sim miss "$RING2" --drop-missing-deps
expect_eq "$(grep -c 'finished, 1 cycles' "$T/out")" 2 "--drop-missing-deps runs the trace"

AR='{"name": "is_cpu_op", "bool_val": false}, {"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"}'
# Unknown communicator group.
et pg 0 "{\"id\": \"1\", \"name\": \"ar\", \"type\": \"COMM_COLL_NODE\", \"attr\": [$AR, {\"name\": \"pg_name\", \"string_val\": \"5\"}]}"
et pg 1 "$IDLE"
expect_error "vimana: error: $T/pg.0.et: For rank 0 ET node 1, communicator group 5 not found" sim pg "$RING2"

# involved_dim of the wrong type; a collective type the simulator lacks; comm on the CPU.
et inv 0 "{\"id\": \"1\", \"name\": \"ar\", \"type\": \"COMM_COLL_NODE\", \"attr\": [$AR, {\"name\": \"involved_dim\", \"int64_val\": \"1\"}]}"
et inv 1 "$IDLE"
expect_error "vimana: error: $T/inv.0.et: node 1 (ar): Expected bool_list in involved_dim but found another type (int64_val)" sim inv "$RING2"
et red 0 '{"id": "1", "name": "reduce", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "1"}, {"name": "comm_size", "uint64_val": "64"}]}'
et red 1 "$IDLE"
expect_error "vimana: error: $T/red.0.et: node 1 (reduce): Unsupported collective comm type 1 (REDUCE) (supported: ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, BROADCAST)" \
    sim red "$RING2"
et cpu 0 '{"id": "1", "name": "ar", "type": "COMM_COLL_NODE", "attr": [{"name": "is_cpu_op", "bool_val": true}, {"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "64"}]}'
et cpu 1 "$IDLE"
expect_error "vimana: error: $T/cpu.0.et: node 1 (ar): Comm node should not be on CPU (is_cpu_op is true)" sim cpu "$RING2"

# Remote memory without a memory model.
et mem 0 '{"id": "1", "name": "load", "type": "MEM_LOAD_NODE", "attr": [{"name": "tensor_size", "uint64_val": "4096"}]}'
et mem 1 "$IDLE"
expect_error "vimana: error: $G/memory/no_memory_expansion.json: Remote memory access is not supported in NO_MEMORY_EXPANSION (node 1 of $T/mem.0.et)" \
    sim mem "$RING2" --remote-memory-configuration="$G/memory/no_memory_expansion.json"

# A truncated trace: the record is cut short.
cp "$G/workload/ar_1MiB_8/ar_1MiB_8.0.et" "$T/cut.0.et"
head -c 40 "$G/workload/ar_1MiB_8/ar_1MiB_8.1.et" >"$T/cut.1.et"
expect_error "vimana: error: $T/cut.1.et: record 1 (byte offset 8): truncated record: length says 75 bytes but only 31 remain" \
    "$VIMANA" --workload-configuration="$T/cut" --system-configuration="$SYS" --network-configuration="$RING2"
expect_error "vimana: error: workload file: $T/nope.0.et does not exist" sim nope "$RING2"

# Configuration errors.
printf '{"scheduling-policy": "LIFO", "collective-optimization": "localBWAware"}\n' >"$T/nosplit.json"
expect_error "vimana: error: $T/nosplit.json: key 'preferred-dataset-splits' is missing (required, greater than 0)" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/nosplit.json" \
    --network-configuration="$RING8"
printf '{"preferred-dataset-splits": 4, "all-reduce-implementation": ["rings"]}\n' >"$T/algo.json"
expect_error "vimana: error: $T/algo.json: key 'all-reduce-implementation'[0]: unknown collective algorithm 'rings' (expected ring, oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling, doubleBinaryTree, nccl or oneNccl)" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/algo.json" \
    --network-configuration="$RING8"
printf 'topology: [ Ring, Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >"$T/net.yml"
expect_error "vimana: error: $T/net.yml: length of npus_count (1) doesn't match with dimensions (2)" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$SYS" \
    --network-configuration="$T/net.yml"
expect_error "vimana: unknown option '--bogus' (see vimana --help)" "$VIMANA" --bogus=1
expect_error "vimana: missing required option --system-configuration (see vimana --help)" \
    "$VIMANA" --workload-configuration=x
expect_error "vimana: --num-queues-per-dim: expected a positive integer, got '0'" \
    "$VIMANA" --workload-configuration=x --system-configuration=y --network-configuration=z --num-queues-per-dim=0

# Where the reference crashes but Vimana simulates: endpoint-delay 0 puts
# events at t = 0 before the loop starts. Hand-derived: per chunk
# 7 x (1110 + 1965) + 6 x 1110 + 1110 = 29295; 4 chunks = 117180.
sed 's/"endpoint-delay": 10/"endpoint-delay": 0/' "$SYS" >"$T/e0.json"
expect_ok "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/e0.json" \
    --network-configuration="$RING8"
expect_eq "$(grep -c 'finished, 117180 cycles' "$T/out")" 8 "endpoint-delay 0"

# A METADATA node (PyTorch process groups) registers its groups; an
# all-reduce in a group of every NPU then takes as long as a plain one.
META='{"id": "1", "name": "## process_group:init ##", "type": "METADATA_NODE", "inputs": {"values": "['"'"'[{\"pg_name\": \"1\", \"ranks\": [0, 1]}]'"'"']", "shapes": "", "types": ""}}'
for r in 0 1; do
    et meta $r "$META, {\"id\": \"2\", \"name\": \"ar\", \"type\": \"COMM_COLL_NODE\", \"data_deps\": [\"1\"], \"attr\": [$AR, {\"name\": \"pg_name\", \"string_val\": \"1\"}]}"
    et plain $r "{\"id\": \"2\", \"name\": \"ar\", \"type\": \"COMM_COLL_NODE\", \"attr\": [$AR]}"
done
expect_ok sim plain "$RING2"
plain=$(grep -m1 -o 'finished, [0-9]* cycles' "$T/out")
expect_ok sim meta "$RING2"
expect_eq "$(grep -c "$plain" "$T/out")" 2 "all-reduce after a METADATA node"

# A backend without options refuses --backend-options (one meant for
# garnet or ns3_shim is not ignored)
for b in analytical congestion_aware; do
    expect_error "vimana: error: $b: backend option 'vcs=16': $b takes no options" \
        sim meta "$RING2" --network-backend=$b --backend-options=vcs=16,cc=dcqcn
done
finish
