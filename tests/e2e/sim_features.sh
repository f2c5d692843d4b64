#!/bin/sh
# Workload features with hand-derived expectations: the remote-memory
# models, replay-only, BROADCAST, INVALID nodes, keys required only when
# used, and the --report / --timeline outputs.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$TEST_TMP"
RING2="$G/network/ring2.yml"
SYS="$G/system/ring.json"

et() { # NAME RANK JSON-NODES
    et_from_nodes "$T/$1.$2.et" "$3"
}
sim() { # PREFIX SYSTEM [FLAGS...]
    prefix=$1 sys=$2
    shift 2
    expect_ok "$VIMANA" --workload-configuration="$T/$prefix" --system-configuration="$sys" \
        --network-configuration="$RING2" "$@"
}
finished() { # NPU CYCLES EXPOSED WHAT
    grep -qxF "sys[$1] finished, $2 cycles, exposed communication $3 cycles." "$T/out" ||
        fail "$4: expected NPU $1 at $2 ($3 exposed); got: $(grep "sys\[$1\] finished" "$T/out")"
}

# Remote memory: one request = latency + trunc(bytes / bw) = 500 + 5000/50 = 600.
LOAD='{"id": "1", "name": "load", "type": "MEM_LOAD_NODE", "attr": [{"name": "tensor_size", "uint64_val": "5000"}]}'
et mem 0 "$LOAD"
et mem 1 "$LOAD"
memcfg() { printf '{"memory-type": "%s", "num-nodes": 1, "num-npus-per-node": %s, "remote-mem-latency": 500, "remote-mem-bw": 50}\n' "$1" "$2" >"$T/$1_$2.json"; }
memcfg PER_NPU_MEMORY_EXPANSION 1
sim mem "$SYS" --remote-memory-configuration="$T/PER_NPU_MEMORY_EXPANSION_1.json"
finished 0 600 600 "per-NPU memory"
finished 1 600 600 "per-NPU memory"
grep -qxF "sys[0], Remote mem time: 600" "$T/out" || fail "remote mem time line"
# Both NPUs on one node (or in one pool): the second request waits for the first.
memcfg PER_NODE_MEMORY_EXPANSION 2
sim mem "$SYS" --remote-memory-configuration="$T/PER_NODE_MEMORY_EXPANSION_2.json"
finished 0 600 600 "per-node memory, shared node"
finished 1 1200 1200 "per-node memory, shared node"
memcfg PER_NODE_MEMORY_EXPANSION 1
sim mem "$SYS" --remote-memory-configuration="$T/PER_NODE_MEMORY_EXPANSION_1.json"
finished 1 600 600 "per-node memory, one NPU per node"
memcfg MEMORY_POOL 1
sim mem "$SYS" --remote-memory-configuration="$T/MEMORY_POOL_1.json"
finished 0 600 600 "memory pool"
finished 1 1200 1200 "memory pool"

# replay-only: every node, collectives included, just waits its duration,
# and all of it counts as GPU time (so nothing is exposed).
AR='{"name": "is_cpu_op", "bool_val": false}, {"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "1048576"}'
for r in 0 1; do et replay $r "{\"id\": \"1\", \"name\": \"ar\", \"type\": \"COMM_COLL_NODE\", \"duration_micros\": \"7\", \"attr\": [$AR]}"; done
sed 's/"boost-mode": 0/"boost-mode": 0, "replay-only": 1/' "$SYS" >"$T/replay.json"
sim replay "$T/replay.json"
finished 0 7000 0 "replay-only"

# BROADCAST takes its duration as communication.
for r in 0 1; do et bcast $r '{"id": "1", "name": "bcast", "type": "COMM_COLL_NODE", "duration_micros": "3", "attr": [{"name": "comm_type", "int64_val": "5"}, {"name": "comm_size", "uint64_val": "64"}]}'; done
sim bcast "$SYS"
finished 1 3000 3000 "broadcast"
grep -qxF "sys[1], Comm time: 3000" "$T/out" || fail "broadcast comm time"

# An INVALID node finishes at once; its child still runs, and the report
# (where the reference throws) is printed in full.
for r in 0 1; do et inv $r '{"id": "1", "name": "nothing"}, {"id": "2", "name": "work", "type": "COMP_NODE", "duration_micros": "2", "data_deps": ["1"]}'; done
sim inv "$SYS"
finished 0 2000 0 "INVALID then COMP"
grep -qxF "sys[0], Invalid time: 0" "$T/out" || fail "invalid time line"
grep -qxF "sys[0], GPU time: 2000" "$T/out" || fail "GPU time after INVALID"

# collective-optimization is needed only to lay out an all-reduce.
grep -v collective-optimization "$SYS" >"$T/noopt.json"
expect_error "vimana: error: $G/workload/ar_1MiB_8/ar_1MiB_8.0.et: node 0 (coll_ALL_REDUCE_1048576): $T/noopt.json: key 'collective-optimization' is missing; it decides how this all-reduce is laid out over the dimensions (expected baseline or localBWAware)" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/noopt.json" \
    --network-configuration="$G/network/ring8.yml"
expect_ok "$VIMANA" --workload-configuration="$G/workload/ag_1MiB_8/ag_1MiB_8" --system-configuration="$T/noopt.json" \
    --network-configuration="$G/network/ring8.yml"
expect_eq "$(grep -c 'finished, 151016 cycles' "$T/out")" 8 "all-gather without collective-optimization"

# Outputs: the three-node graph (AR 1 MiB -> {AG 2 MiB, COMP 50 us}) on Ring 8.
expect_ok "$VIMANA" --workload-configuration="$G/workload/hoti_3nodes_8/hoti_3nodes_8" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --report="$T/r.json" --timeline="$T/t.json"
expect_ok "$VIMANA" --workload-configuration="$G/workload/hoti_3nodes_8/hoti_3nodes_8" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --report="$T/r.csv"
python3 - "$T" <<'PY' || fail "report and timeline contents"
import csv, json, sys
t = sys.argv[1]
r = json.load(open(t + "/r.json"))
npu0 = [n for n in r["npus"] if n["npu"] == 0][0]
assert (npu0["finish"], npu0["exposed_communication"], npu0["gpu"], npu0["comm"], npu0["overlap"]) == \
    (405520, 355520, 50000, 405520, 50000), npu0
colls = sorted((c["type"], c["start"], c["end"], c["algorithm"]) for c in r["collectives"] if c["npu"] == 0)
assert colls == [("ALL_GATHER", 117780, 405520, "ring"), ("ALL_REDUCE", 0, 117780, "ring")], colls
rows = list(csv.DictReader(open(t + "/r.csv")))
assert len(rows) == 8 and rows[3]["finish"] == "405520" and rows[3]["overlap"] == "50000", rows[3]
crow = list(csv.DictReader(open(t + "/r.collectives.csv")))
assert len(crow) == 16 and {c["type"] for c in crow} == {"ALL_REDUCE", "ALL_GATHER"}
tl = json.load(open(t + "/t.json"))
ev = [e for e in tl["traceEvents"] if e["ph"] == "X" and e["pid"] == 0]
comp = [e for e in ev if e["cat"] == "compute"]
assert len(comp) == 1 and comp[0]["ts"] == 117.78 and comp[0]["dur"] == 50.0, comp
chunks = [e for e in ev if e["cat"] == "chunk"]
phases = [e for e in ev if e["cat"] == "phase"]
assert len(chunks) == 8 and len(phases) == 8          # 4 chunks of each collective, one phase each
for c in chunks:                                       # every phase nests in a chunk on its track
    assert any(p["tid"] == c["tid"] and p["ts"] >= c["ts"] and p["ts"] + p["dur"] <= c["ts"] + c["dur"] for p in phases)
# A chunk and its one phase share bounds: the chunk comes first, so that
# viewers nest the phase in it, not the other way round (issue 29 §4).
for i, c in enumerate(ev):
    if c["cat"] == "chunk":
        same = [j for j, p in enumerate(ev) if p["cat"] == "phase" and p["tid"] == c["tid"] and p["ts"] == c["ts"] and p["dur"] == c["dur"]]
        assert all(j > i for j in same), (c, same)
names = {e["args"]["name"] for e in tl["traceEvents"] if e["ph"] == "M" and e["pid"] == 0}
assert {"NPU 0", "GPU compute", "communication", "chunks"} <= names, names
PY
# --progress writes to stderr only, and ends with where the run stopped:
# 8 NPUs x (all-reduce: 4 chunks x 2x7 ring steps + all-gather: 4 x 7) = 672
# messages in full (--no-symmetry); the reduced run (--progress no longer
# turns it off) simulates NPU 0's 84 and says so.
HOTI="$G/workload/hoti_3nodes_8/hoti_3nodes_8"
for mode in --no-symmetry ""; do
    expect_ok "$VIMANA" --workload-configuration="$HOTI" --system-configuration="$SYS" \
        --network-configuration="$G/network/ring8.yml" $mode
    mv "$T/out" "$T/quiet.out"
    expect_ok "$VIMANA" --workload-configuration="$HOTI" --system-configuration="$SYS" \
        --network-configuration="$G/network/ring8.yml" --progress $mode
    cmp -s "$T/quiet.out" "$T/out" || fail "--progress $mode changed the report on stdout"
done
grep -qE '^vimana: simulated \(reduced: NPU 0 for all 8\): t = 405520 ns, 84 messages, 8 of 8 NPUs finished \([0-9]+\.[0-9] s\)$' \
    "$T/err" || fail "--progress closing line (reduced); got: $(cat "$T/err")"
expect_ok "$VIMANA" --workload-configuration="$HOTI" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --progress --no-symmetry
grep -qE '^vimana: simulated: t = 405520 ns, 672 messages, 8 of 8 NPUs finished \([0-9]+\.[0-9] s\)$' "$T/err" ||
    fail "--progress closing line; got: $(cat "$T/err")"
finish
