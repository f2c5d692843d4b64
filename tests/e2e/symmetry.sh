#!/bin/sh
# Symmetry detection (issue 14, docs/symmetry.md): --run-stats says on one
# line whether the NPUs are interchangeable and, if not, the first reason,
# and whether the run used the reduced simulation (NPU 0 only, its sends
# mirrored); --no-symmetry skips the check. Exactness of the reduction is
# tested by symmetry_equivalence.sh.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
IN="$VIMANA_SRCDIR/inputs"
sim() { # PREFIX SYSTEM NETWORK [FLAGS...]
    prefix=$1 sys=$2 net=$3
    shift 3
    "$VIMANA" --workload-configuration="$prefix" --system-configuration="$sys" --network-configuration="$net" \
        --run-stats "$@"
}
symmetry_line() { # EXPECTED WHAT: the one symmetry line of the run
    expect_eq "$(grep -c '^vimana: symmetry: ' "$T/err")" 1 "$2: one symmetry line"
    expect_eq "$(grep '^vimana: symmetry: ' "$T/err")" "$1" "$2"
}
WHY="every NPU runs the same trace of collectives on ring, direct or halving-doubling, analytical backend on dimensions"
ON="vimana: symmetry: on ($WHY); reduced simulation: NPU 0 simulated, its messages mirrored for the other 7 NPUs"
eligible() { # WHAT THE REDUCTION DOES NOT COVER
    echo "vimana: symmetry: eligible ($WHY); full simulation used (the reduced simulation does not cover $1 yet)"
}
messages() { # the message count of the --run-stats line
    sed -n 's/^vimana: .* simulated [0-9]* ns in [0-9.]* s: \([0-9]*\) messages, .*/\1/p' "$T/err"
}
RING="$IN/system/ring.json"
R8="$IN/network/ring8.yml"

"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --single-file --out "$T/one/ar" >/dev/null || fail "generate"
expect_ok sim "$T/one/ar" "$RING" "$R8"
symmetry_line "$ON" "single file, ring"
cp "$T/out" "$T/eligible.out"
# 1 MiB ring all-reduce on ring8 (golden ring8-ring-ar): 117780 cycles on every NPU.
expect_eq "$(grep -c '^sys\[[0-7]\] finished, 117780 cycles, exposed communication 117780 cycles\.$' "$T/out")" 8 \
    "reduced: every NPU reported"
expect_eq "$(grep -o '^sys\[[0-9]*\] finished' "$T/out" | tr -d '\n')" \
    "sys[0] finishedsys[1] finishedsys[2] finishedsys[3] finishedsys[4] finishedsys[5] finishedsys[6] finished"\
"sys[7] finished" "reduced: NPU order"
reduced_messages=$(messages)
expect_ok sim "$T/one/ar" "$RING" "$R8" --no-symmetry
symmetry_line "vimana: symmetry: off (--no-symmetry); full simulation" "--no-symmetry"
expect_eq "$(grep -c '^sys\[[0-7]\] finished, 117780 cycles, exposed communication 117780 cycles\.$' "$T/out")" 8 \
    "full: every NPU"
# The reduced run sends NPU 0's messages only: one eighth of the full run's.
expect_eq "$((reduced_messages * 8))" "$(messages)" "reduced: messages of one NPU of 8"
# --progress keeps the reduction: its lines follow NPU 0, said so.
expect_ok sim "$T/one/ar" "$RING" "$R8" --progress
symmetry_line "$ON" "--progress"
grep -qE "^vimana: simulated \(reduced: NPU 0 for all 8\): t = 117780 ns, $reduced_messages messages, 8 of 8 NPUs \
finished \([0-9]+\.[0-9] s\)$" "$T/err" || fail "--progress, reduced: closing line; got: $(cat "$T/err")"
# Without --run-stats nothing is added to stderr.
expect_ok "$VIMANA" --workload-configuration="$T/one/ar" --system-configuration="$RING" --network-configuration="$R8"
expect_eq "$(cat "$T/err")" "" "no --run-stats: stderr"

# Per-rank files of the generator differ only by their node ids (id =
# rank, as ASTRA-sim's microbenchmarks): alike, reduced, the same lines as
# the full run's.
RELABELLED="every NPU runs the same trace of collectives (but for its node ids) on ring, direct or halving-doubling, \
analytical backend on dimensions"
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/rank/ar" >/dev/null || fail "generate per-rank"
expect_ok sim "$T/rank/ar" "$RING" "$R8"
symmetry_line "vimana: symmetry: on ($RELABELLED); reduced simulation: NPU 0 simulated, its messages mirrored for the \
other 7 NPUs" "per-rank, ids differ"
cp "$T/out" "$T/rank.reduced"
expect_ok sim "$T/rank/ar" "$RING" "$R8" --no-symmetry
cmp -s "$T/out" "$T/rank.reduced" || fail "per-rank, ids differ: the reduced run's lines differ from the full run's"
cmp -s "$T/out" "$T/eligible.out" || fail "per-rank: not the single file's lines"
# --report names each NPU's own node ids, reduced as in full
expect_ok sim "$T/rank/ar" "$RING" "$R8" --report="$T/rank.json"
symmetry_line "vimana: symmetry: on ($RELABELLED); reduced simulation: NPU 0 simulated, its messages mirrored for the \
other 7 NPUs" "per-rank, --report"
sed 's/,$//' "$T/rank.json" | sort >"$T/rank.json.reduced"
expect_ok sim "$T/rank/ar" "$RING" "$R8" --report="$T/rank.json" --no-symmetry
sed 's/,$//' "$T/rank.json" | sort | cmp -s - "$T/rank.json.reduced" ||
    fail "per-rank, --report: the reduced run's report differs from the full run's"
grep -q '"npu": 5, "node": 5,' "$T/rank.json" || fail "per-rank, --report: NPU 5's node is not 5"
# ... but a trace that differs beyond its ids (here a node's name) is not alike
"$VIMANA_ET" json "$T/rank/ar.3.et" | sed 's/all_reduce_8npus/renamed/' >"$T/rank3.json"
"$VIMANA_ET" from-json "$T/rank3.json" -o "$T/rank/ar.3.et" || fail "rename NPU 3's node"
expect_ok sim "$T/rank/ar" "$RING" "$R8"
symmetry_line "vimana: symmetry: not eligible (NPU 3's trace differs from NPU 0's (beyond its node ids)); full simulation" \
    "per-rank, one size differs"
# The ResNet-50 data-parallel workload converted from text (the MICRO'24
# Chakra demo 2's Resnet50_DataParallel.txt, copied from the corpus into
# tests/data/text/resnet50_data_parallel.txt): its ranks' node ids differ
# (each rank's numbering continues), nothing else does -- reduced, and
# every line the full run's.
"$VIMANA_ET" convert text --input "$VIMANA_SRCDIR/tests/data/text/resnet50_data_parallel.txt" --output "$T/rn/r" \
    --num-npus 8 --num-passes 1 >/dev/null || fail "convert ResNet-50"
expect_ok sim "$T/rn/r" "$RING" "$R8"
symmetry_line "vimana: symmetry: on ($RELABELLED); reduced simulation: NPU 0 simulated, its messages mirrored for the \
other 7 NPUs" "ResNet-50 DP"
cp "$T/out" "$T/rn.reduced"
expect_ok sim "$T/rn/r" "$RING" "$R8" --no-symmetry
cmp -s "$T/out" "$T/rn.reduced" || fail "ResNet-50 DP: the reduced run's lines differ from the full run's"
expect_eq "$(grep -c 'finished, 1082481708 cycles, exposed communication 31708 cycles' "$T/out")" 8 "ResNet-50 DP finish"
# ... identical per-rank files are one trace.
i=0
while [ "$i" -lt 8 ]; do cp "$T/one/ar.et" "$T/rank/same.$i.et"; i=$((i + 1)); done
expect_ok sim "$T/rank/same" "$RING" "$R8"
symmetry_line "$ON" "identical per-rank files"

# Algorithms: halving-doubling on 8 is fine; the tree and one* are not.
for algo in direct halvingDoubling doubleBinaryTree oneRing; do
    sed "s/\"all-reduce-implementation\": \[\"ring\"\]/\"all-reduce-implementation\": [\"$algo\"]/" "$RING" >"$T/$algo.json"
done
expect_ok sim "$T/one/ar" "$T/direct.json" "$R8"
symmetry_line "$ON" "direct"
expect_ok sim "$T/one/ar" "$T/halvingDoubling.json" "$R8"
symmetry_line "$ON" "halving-doubling on 8"
expect_eq "$(grep -c '^sys\[[0-7]\] finished' "$T/out")" 8 "halving-doubling: every NPU reported"
# Halving-doubling mirrors by XOR, ring by negation: one dimension running
# both (an all-reduce by halving-doubling, an all-gather by ring) has no
# single mirror and is simulated in full.
"$VIMANA_ET" json "$T/one/ar.et" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
ag = json.loads(json.dumps(doc["nodes"][0]))
ag["id"] = "1"
ag["name"] = "ag"
for a in ag["attr"]:
    if a["name"] == "comm_type":
        a["int64_val"] = "2"  # ALL_GATHER
doc["nodes"].append(ag)
json.dump(doc, sys.stdout)' >"$T/mixed.json" && mkdir -p "$T/mixed" && "$VIMANA_ET" from-json "$T/mixed.json" -o "$T/mixed/ar.et" >/dev/null ||
    fail "mixed trace"
expect_ok sim "$T/mixed/ar" "$T/halvingDoubling.json" "$R8"
symmetry_line "$(eligible "halving-doubling and ring or direct on one dimension (0)")" "halving-doubling and ring"
expect_ok sim "$T/mixed/ar" "$T/direct.json" "$R8"
symmetry_line "$ON" "direct and ring"

# --report is covered; the timeline, log lines and the handshake are not.
expect_ok sim "$T/one/ar" "$RING" "$R8" --report="$T/r.json"
symmetry_line "$ON" "--report"
# Every NPU's records, from NPU 0's figures (symmetry_equivalence.sh
# compares the whole file with the full run's).
expect_eq "$(grep -c '^{"npu": [0-7], "finish": 117780, ' "$T/r.json")" 8 "--report: every NPU's row"
expect_eq "$(grep -c '^{"npu": [0-7], "node": 0, .*"end": 117780, ' "$T/r.json")" 8 "--report: every NPU's collective"
expect_ok sim "$T/one/ar" "$RING" "$R8" --timeline="$T/t.json"
symmetry_line "$(eligible --timeline)" "--timeline"
expect_ok sim "$T/one/ar" "$RING" "$R8" --rendezvous-protocol=true
symmetry_line "$(eligible --rendezvous-protocol)" "rendezvous"
sed 's/"local-mem-bw": 50/"local-mem-bw": 50, "trace-enabled": 1/' "$RING" >"$T/traced.json"
expect_ok sim "$T/one/ar" "$T/traced.json" "$R8"
symmetry_line "$(eligible trace-enabled)" "trace-enabled"
expect_ok sim "$T/one/ar" "$T/doubleBinaryTree.json" "$R8"
symmetry_line "vimana: symmetry: not eligible (node 0 (all_reduce_8npus_1MB) runs doubleBinaryTree on dimension 0, whose schedule differs between NPUs); full simulation" "double binary tree"
expect_ok sim "$T/one/ar" "$T/oneRing.json" "$R8"
symmetry_line "vimana: symmetry: not eligible (node 0 (all_reduce_8npus_1MB) runs oneRing on dimension 0, whose schedule differs between NPUs); full simulation" "oneRing"

# Backends: congestion_aware, and a copy of the analytical module that is
# not the shipped file.
expect_ok sim "$T/one/ar" "$RING" "$R8" --network-backend=congestion_aware
symmetry_line "vimana: symmetry: not eligible (the network backend congestion_aware is not the shipped analytical one); full simulation" "congestion_aware"
cp "$VIMANA_BUILDDIR/backends/analytical/.libs/analytical.so" "$T/analytical.so"
expect_ok sim "$T/one/ar" "$RING" "$R8" --network-backend="$T/analytical.so"
symmetry_line "vimana: symmetry: not eligible (the network backend analytical is not the shipped analytical one); full simulation" "a module called analytical"
cmp -s "$T/out" "$T/eligible.out" || fail "the copied module changed the output"

# A topology graph, even on the analytical backend.
"$VIMANA_ET" generate all-reduce --npus 64 --size 1MiB --single-file --out "$T/g/ar" >/dev/null || fail "generate 64"
expect_ok sim "$T/g/ar" "$RING" "$IN/network/fat_tree_64.txt"
symmetry_line "vimana: symmetry: not eligible (the network $IN/network/fat_tree_64.txt is a topology graph, not Ring/FullyConnected/Switch dimensions); full simulation" "topology graph"

# Communicator groups that the trace does not use: the groups' own rotation
# does not keep the Ring's hop counts (3 -> 0), the Ring's rotation keeps
# the run (docs/symmetry.md, "Roles"), and the reduced run is the full one.
printf '{"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}\n' >"$T/groups.json"
expect_ok sim "$T/one/ar" "$RING" "$R8" --comm-group-configuration="$T/groups.json" --no-symmetry
sort "$T/out" >"$T/groups.full"
expect_ok sim "$T/one/ar" "$RING" "$R8" --comm-group-configuration="$T/groups.json"
symmetry_line "vimana: symmetry: on (the NPUs' traces are alike up to rotations of dimension 0: 1 class of 8 NPUs, \
analytical backend on dimensions); reduced simulation: 1 NPU simulated (one per class), its messages mirrored for the \
other 7 NPUs" "groups"
sort "$T/out" | cmp -s - "$T/groups.full" || fail "groups: the reduced run's reports differ from the full run's"

# A reduced run that fails is simulated again in full, so that the error is
# the full simulation's (which NPU reaches the overflow first, here a
# reduction of 2^62 bytes at 1e-6 GB/s), and nothing else is printed twice.
cat >"$T/huge.json" <<'JSON'
{"global_metadata": {"version": "0.0.4"}, "nodes": [{"id": "1", "name": "ar", "type": "COMM_COLL_NODE",
 "attr": [{"name": "comm_type", "int64_val": "0"}, {"name": "comm_size", "uint64_val": "4611686018427387904"}]}]}
JSON
mkdir -p "$T/huge"
"$VIMANA_ET" from-json "$T/huge.json" -o "$T/huge/w.et" >/dev/null || fail "from-json huge"
sed 's/"local-mem-bw": [0-9.e+-]*/"local-mem-bw": 1e-6/' "$RING" >"$T/lmb6.json"
"$VIMANA" --workload-configuration="$T/huge/w" --system-configuration="$T/lmb6.json" --network-configuration="$R8" \
    --no-symmetry >"$T/full.out" 2>"$T/full.err" && fail "huge: the full run succeeded"
grep -q "^vimana: error: $T/lmb6.json: key 'local-mem-bw' (1e-06 GB/s) is too small: reducing [0-9]* bytes on NPU [0-9] does not fit the 64-bit nanosecond clock$" \
    "$T/full.err" || fail "huge: full run's error: $(cat "$T/full.err")"
"$VIMANA" --workload-configuration="$T/huge/w" --system-configuration="$T/lmb6.json" --network-configuration="$R8" \
    >"$T/out" 2>"$T/err" && fail "huge: the run succeeded"
cmp -s "$T/err" "$T/full.err" || fail "huge: stderr differs from the full run's: $(cat "$T/err")"
cmp -s "$T/out" "$T/full.out" || fail "huge: stdout differs from the full run's"
expect_error "$(cat "$T/full.err")" sim "$T/huge/w" "$T/lmb6.json" "$R8"
symmetry_line "$(eligible "a run that fails (simulated again in full to report the error as the full simulation does)")" \
    "huge: the line says the run was simulated again in full"

# Past 4096 NPUs the analytical backend turns on the event loop's look-ahead
# hints (network ABI 1.3; docs/internals.md, the event path): they change
# nothing, so the full run of 8x8x80 = 5120 NPUs reports what the reduced
# one does.
printf 'topology: [ Switch, Switch, Switch ]\nnpus_count: [ 8, 8, 80 ]\nbandwidth: [ 50, 50, 50 ]\nlatency: [ 500, 500, 500 ]\n' \
    >"$T/sw5120.yml"
"$VIMANA_ET" generate all-reduce --npus 5120 --size 4MiB --single-file --out "$T/big/ar" >/dev/null ||
    fail "generate 5120"
R3="$IN/system/ring-ring-ring.json"
expect_ok sim "$T/big/ar" "$R3" "$T/sw5120.yml" --no-symmetry
sort "$T/out" >"$T/big.full"
expect_eq "$(messages)" 3809280 "look-ahead: every message of the full run"
expect_ok sim "$T/big/ar" "$R3" "$T/sw5120.yml"
symmetry_line "vimana: symmetry: on ($WHY); reduced simulation: NPU 0 simulated, its messages mirrored for the other 5119 NPUs" \
    "look-ahead: reduced"
sort "$T/out" >"$T/big.reduced"
cmp -s "$T/big.full" "$T/big.reduced" || fail "look-ahead: the full run's reports differ from the reduced run's"
expect_eq "$(grep -c '^sys\[[0-9]*\] finished' "$T/big.full")" 5120 "look-ahead: every NPU reported"

# Point-to-point: SEND/RECV traces are parsed per NPU; the node is named.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --out "$T/p/s" >/dev/null || fail "generate send-recv"
expect_ok sim "$T/p/s" "$RING" "$R8"
symmetry_line "vimana: symmetry: not eligible (no relabelling of the NPUs keeps the run (dimension 0: NPU 0's node 0 \
differs from NPU 1's)); full simulation" "send-recv"
finish
