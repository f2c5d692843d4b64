#!/bin/sh
# Symmetry detection (issue 14, docs/symmetry.md): --run-stats says on one
# line whether the NPUs are interchangeable and, if not, the first reason;
# --no-symmetry skips the check. The reduced simulation is not implemented
# yet, so an eligible run still simulates every NPU and says so.
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
ELIGIBLE="vimana: symmetry: eligible (every NPU runs the same trace of collectives on ring, direct or halving-doubling, analytical backend on dimensions); full simulation used (the reduced simulation is not implemented yet)"
RING="$IN/system/ring.json"
R8="$IN/network/ring8.yml"

"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --single-file --out "$T/one/ar" >/dev/null || fail "generate"
expect_ok sim "$T/one/ar" "$RING" "$R8"
symmetry_line "$ELIGIBLE" "single file, ring"
cp "$T/out" "$T/eligible.out"
expect_ok sim "$T/one/ar" "$RING" "$R8" --no-symmetry
symmetry_line "vimana: symmetry: off (--no-symmetry); full simulation" "--no-symmetry"
cmp -s "$T/out" "$T/eligible.out" || fail "--no-symmetry changed the output"
# Without --run-stats nothing is added to stderr.
expect_ok "$VIMANA" --workload-configuration="$T/one/ar" --system-configuration="$RING" --network-configuration="$R8"
expect_eq "$(cat "$T/err")" "" "no --run-stats: stderr"

# Per-rank files of the generator differ (node id = rank).
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/rank/ar" >/dev/null || fail "generate per-rank"
expect_ok sim "$T/rank/ar" "$RING" "$R8"
symmetry_line "vimana: symmetry: not eligible (NPU 1's trace differs from NPU 0's); full simulation" "per-rank, ids differ"
# ... identical per-rank files are one trace.
i=0
while [ "$i" -lt 8 ]; do cp "$T/one/ar.et" "$T/rank/same.$i.et"; i=$((i + 1)); done
expect_ok sim "$T/rank/same" "$RING" "$R8"
symmetry_line "$ELIGIBLE" "identical per-rank files"

# Algorithms: halving-doubling on 8 is fine; the tree and one* are not.
for algo in direct halvingDoubling doubleBinaryTree oneRing; do
    sed "s/\"all-reduce-implementation\": \[\"ring\"\]/\"all-reduce-implementation\": [\"$algo\"]/" "$RING" >"$T/$algo.json"
done
expect_ok sim "$T/one/ar" "$T/direct.json" "$R8"
symmetry_line "$ELIGIBLE" "direct"
expect_ok sim "$T/one/ar" "$T/halvingDoubling.json" "$R8"
symmetry_line "$ELIGIBLE" "halving-doubling on 8"
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

# Communicator groups.
printf '{"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}\n' >"$T/groups.json"
expect_ok sim "$T/one/ar" "$RING" "$R8" --comm-group-configuration="$T/groups.json"
symmetry_line "vimana: symmetry: not eligible (communicator groups ($T/groups.json) split the NPUs); full simulation" "groups"

# Point-to-point: SEND/RECV traces are parsed per NPU; the node is named.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --out "$T/p/s" >/dev/null || fail "generate send-recv"
expect_ok sim "$T/p/s" "$RING" "$R8"
symmetry_line "vimana: symmetry: not eligible (node 0 (send_0_1) is a point-to-point SEND); full simulation" "send-recv"
finish
