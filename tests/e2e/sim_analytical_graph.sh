#!/bin/sh
# The analytical (congestion-unaware) backend on a topology graph: a message
# costs the latencies of congestion_aware's route plus size / the slowest
# link of it, truncated once, whatever else is in flight.
#
# tests/data/topology/fat_tree_8.txt: NPU-leaf links 400Gbps = 50 B/ns,
# 500 ns; leaf-spine links 800Gbps = 100 B/ns, 1000 ns.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
DATA="$VIMANA_SRCDIR/tests/data/topology"

run() { # WORKLOAD NETWORK BACKEND
    "$VIMANA" --workload-configuration="$1" --system-configuration="$SYS" --network-configuration="$2" \
        --network-backend="$3"
}
last() { sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$1" | sort -n | tail -n 1; }

# ---- a 4-hop fat-tree path ----------------------------------------------------
# NPU 0 -> NPU 4: npu link, leaf-spine, spine-leaf, npu link: latencies
# 500 + 1000 + 1000 + 500 = 3000; the slowest link is 50 B/ns:
# 1048576 / 50 = 20971.52; 3000 + 20971.52 -> 23971. (congestion_aware,
# store-and-forward, takes 65912 on the same path.)
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 4 --size 1MiB --out "$T/p/p" >/dev/null || fail "generate p2p"
expect_ok run "$T/p/p" "$DATA/fat_tree_8.txt" analytical
expect_eq "$(grep -c '^sys\[[04]\] finished, 23971 cycles' "$T/out")" 2 "4-hop path: 23971 on NPUs 0 and 4"

# ---- a star is the network YAML's Switch --------------------------------------
# star_8.txt: one switch, 400Gbps and 500 ns per link; YAML Switch 8 with
# bandwidth 46.566128730773926 GB/s (= 50 B/ns) and latency 500: the same
# formula (2 hops x 500 + size / 50), so byte-identical output.
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/ar/ar" >/dev/null || fail "generate all-reduce"
printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 46.566128730773926 ]\nlatency: [ 500 ]\n' >"$T/sw8.yml"
expect_ok run "$T/ar/ar" "$DATA/star_8.txt" analytical
cp "$T/out" "$T/star.out"
expect_ok run "$T/ar/ar" "$T/sw8.yml" analytical
cmp -s "$T/star.out" "$T/out" || fail "star_8.txt and Switch 8 differ on analytical"
expect_eq "$(last "$T/out")" 148300 "Switch 8 all-reduce"

# ---- never slower than congestion_aware on the oversubscribed fat-tree ------
"$VIMANA_ET" generate all-to-all --npus 64 --size 1MiB --out "$T/a2a/a2a" >/dev/null || fail "generate all-to-all"
DIRECT="$VIMANA_SRCDIR/inputs/system/direct.json"
SYS="$DIRECT"
expect_ok run "$T/a2a/a2a" "$VIMANA_SRCDIR/inputs/network/fat_tree_64.txt" analytical
cu=$(last "$T/out")
expect_ok run "$T/a2a/a2a" "$VIMANA_SRCDIR/inputs/network/fat_tree_64.txt" congestion_aware
ca=$(last "$T/out")
[ "$cu" -gt 0 ] && [ "$cu" -lt "$ca" ] || fail "fat-tree all-to-all: analytical $cu is not below congestion_aware $ca"

# ---- a bad topology file is the toolkit's one line ----------------------------
"$VIMANA_ET" generate send-recv --npus 3 --src 0 --dst 2 --size 1MiB --out "$T/p3/p" >/dev/null || fail "generate 3"
expect_error "vimana: error: $DATA/zero_bandwidth.txt:3: link 0 -> 2: rate '0Gbps' must be above zero" \
    run "$T/p3/p" "$DATA/zero_bandwidth.txt" analytical
finish
