#!/bin/sh
# The Garnet-style flit-level backend (backends/garnet_stub, --network-backend=garnet).
# Every time below is derived by hand from the model's rules
# (backends/garnet_stub/README.md):
#  - 1 cycle = 1 ns; defaults flit_bytes=16, vcs=auto, vc_depth=auto, pipeline=1;
#  - a message sent at t0 is ceil(bytes/16) flits, ready at the source
#    router at t0 + pipeline;
#  - a link of B bytes/ns takes flit k (from 0) of a lone packet at cycle
#    s + floor(k * 16 / B), s = the head's first cycle;
#  - a flit sent at cycle c is ready at the next router at c + L +
#    pipeline, L = the link latency in cycles, and ejected at the
#    destination at c + L (its NI takes it as it arrives; a flit longer
#    than a cycle: c its tail's cycle);
#  - the message is delivered when its tail flit is ejected.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
NET="$VIMANA_SRCDIR/inputs/network"
DATA="$VIMANA_SRCDIR/tests/data/garnet"
P2P="$DATA/p2p_400g.txt"

run_on() { # BACKEND WORKLOAD NETWORK [OPTIONS]
    b=$1 w=$2 n=$3
    shift 3
    "$VIMANA" --workload-configuration="$w" --system-configuration="$SYS" --network-configuration="$n" \
        --network-backend="$b" "$@"
}

# finish_of BACKEND WORKLOAD NETWORK [OPTIONS]: the largest "finished, N
# cycles" of a run (the run must succeed).
finish_of() {
    run_on "$@" >"$T/out" 2>"$T/err" || { fail "run $*: $(cat "$T/err")"; echo 0; return; }
    sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" | sort -n | tail -n 1
}

# within PCT A B WHAT: |A - B| <= PCT % of B.
within() {
    awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 100 <= p * b) }' ||
        fail "$4: $2 is not within $1 % of $3"
}

# ---- (a) one large point-to-point message -----------------------------------
# 1 MiB = 65536 flits over one 400Gbps (50 B/ns), 500 ns link: the head is
# ready at 0 + 1; flit 65535 leaves at 1 + floor(65535 * 16 / 50) = 1 +
# 20971 = 20972 and is ejected at 20972 + 500 = 21472. size/bandwidth +
# latency = 20971.52 + 500 = 21471.52: within 2 %.
"$VIMANA_ET" generate send-recv --npus 2 --size 1MiB --out "$T/p2p/f" >/dev/null || fail "generate p2p"
got=$(finish_of garnet "$T/p2p/f" "$P2P" --report="$T/p2p.csv")
expect_eq "$got" 21472 "1 MiB point-to-point"
within 2 "$got" 21471.52 "1 MiB point-to-point vs size/bandwidth + latency"
# Its link record: 1 MiB, one message, busy trunc(65536 * 16 / 50) = 20971
# ticks, no queueing (the head left in the cycle it was ready).
expect_eq "$(awk -F, '$1 == 0 && $2 == 1 { print $3 "," $4 "," $5 "," $9 "," $10 }' "$T/p2p.links.csv")" \
    "1048576,1,20971,0,0" "point-to-point link record"

# One flit longer than a cycle is written downstream when its tail has
# left: 64 KiB in a single 65536-byte flit over 50 B/ns takes the
# serialiser 1310.72 cycles: ready at 1, the tail leaves in cycle 1 +
# 1310 = 1311, ejected at 1311 + 500 = 1811 - as the 4096 16-byte
# flits of (b) below (1811), not 1 + 500 = 501 as if the tail were free.
"$VIMANA_ET" generate send-recv --npus 2 --size 64KiB --out "$T/p64/f" >/dev/null || fail "generate 64 KiB"
expect_eq "$(finish_of garnet "$T/p64/f" "$P2P" --backend-options=flit_bytes=65536)" 1811 "one 64 KiB flit"
expect_eq "$(finish_of garnet "$T/p64/f" "$P2P")" 1811 "64 KiB in 16-byte flits"
# The same on ring8.yml (50 GB/s = 53.687 B/ns, 500 ns): 65536 / 53.687 =
# 1220.70 cycles, so the tail (of the one flit, or flit 4095 at 1 +
# floor(4095 x 16 / 53.687) = 1 + 1220) leaves in cycle 1221: 1221 + 500 =
# 1721 either way, against size/bandwidth + latency = 1720.70 (issue 28:
# 1720 +- 1; analytical 1720, ns3_shim 1721).
"$VIMANA_ET" generate send-recv --npus 8 --size 64KiB --out "$T/r64/f" >/dev/null || fail "generate ring 64 KiB"
expect_eq "$(finish_of garnet "$T/r64/f" "$NET/ring8.yml" --backend-options=flit_bytes=65536)" 1721 \
    "one 64 KiB flit on ring8"
expect_eq "$(finish_of garnet "$T/r64/f" "$NET/ring8.yml")" 1721 "64 KiB in 16-byte flits on ring8"
# In 4 packets of 1024 flits (packet_flits=1024), each on a VC of its own
# (the NI cuts packet j + 1 when packet j takes its VC: VCs at 1, 2, 3, 4):
# the NI's injection port sends from one packet a cycle, so the cycle of a
# packet's tail gives the next packet nothing. P0's flit k leaves at 1 +
# 0.32 k, its tail at 1 + 327.36 (cycle 328); P1 starts at 329 (tail 656),
# P2 at 657 (984), P3 at 985 (1312): ejected at 1312 + 500 = 1812.
expect_eq "$(finish_of garnet "$T/p64/f" "$P2P" --backend-options=packet_flits=1024)" 1812 \
    "64 KiB in 4 packets of 1024 flits"

# ---- (b) credit flow control limits a long message ---------------------------
# 64 KiB = 4096 flits, one VC of 4 flits: the 4 credits cover 4 flits
# (0, 0.32, 0.64, 0.96 cycles into one cycle); a flit sent at c is ejected
# at c + 500 and its credit is back upstream at c + 1000. Round j (4 flits)
# leaves at 1 + 1000 j; the tail (round 1023) is ejected at 1 + 1000 * 1023
# + 500 = 1023501. With the default (auto) depth the credits never run
# out: 1 + floor(4095 * 16 / 50) + 500 = 1 + 1310 + 500 = 1811.
"$VIMANA_ET" generate send-recv --npus 2 --size 64KiB --out "$T/p64/f" >/dev/null || fail "generate p64"
expect_eq "$(finish_of garnet "$T/p64/f" "$P2P" --backend-options=vcs=1,vc_depth=4)" 1023501 \
    "64 KiB through one VC of 4 flits"
expect_eq "$(finish_of garnet "$T/p64/f" "$P2P")" 1811 "64 KiB with the default VC depth"

# ---- (c) ring all-reduce on an 8-NPU Ring: within 5 % of analytical ----------
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/ar/f" >/dev/null || fail "generate all-reduce"
ana=$(finish_of analytical "$T/ar/f" "$NET/ring8.yml")
gar=$(finish_of garnet "$T/ar/f" "$NET/ring8.yml")
expect_eq "$ana" 117780 "ring all-reduce, analytical"
within 5 "$gar" "$ana" "ring all-reduce, garnet vs analytical"
# Each ring step pays the pipeline once (at injection), and flits of 16 B
# round each chunk up: 117836.
expect_eq "$gar" 117836 "ring all-reduce, garnet"

# ---- (d) incast on a Switch: slower than analytical ------------------------
# NPUs 1..7 each send 1 MiB to NPU 0 at once on Switch 8 (50 GB/s =
# 53.687 B/ns, 500 ns). The analytical model times each message alone;
# here the switch's one link to NPU 0 carries all 7 x 65536 flits, at
# least 7 x 1048576 / 53.687 = 136720 cycles of serialisation.
flows 8 "$T/in/in" 1:0 2:0 3:0 4:0 5:0 6:0 7:0 || fail "flows (incast)"
ana=$(finish_of analytical "$T/in/in" "$NET/switch8.yml")
gar=$(finish_of garnet "$T/in/in" "$NET/switch8.yml" --report="$T/in.csv")
[ "$gar" -gt "$ana" ] || fail "incast: garnet ($gar) is not slower than analytical ($ana)"
[ "$gar" -ge 136720 ] || fail "incast: garnet ($gar) beats the bound of the shared link (136720)"
# The switch's link to NPU 0 (device 8 -> 0) carried the 7 messages; they
# waited there for the switch allocator, which sends one input's flit at a
# time (queueing delay > 0).
expect_eq "$(awk -F, '$1 == 8 && $2 == 0 { print $3 "," $4 }' "$T/in.links.csv")" "7340032,7" "incast link"
[ "$(awk -F, '$1 == 8 && $2 == 0 { print $9 }' "$T/in.links.csv")" -gt 0 ] || fail "incast: no queueing delay"

# The all-to-all collective itself, direct (inputs/system/direct.json):
# every NPU receives 7/8 of 1 MiB through its one link from the switch,
# at least 917504 / 53.687 = 17090 cycles; analytical, which times every
# message alone, says 6520.
"$VIMANA_ET" generate all-to-all --npus 8 --size 1MiB --out "$T/a2a/f" >/dev/null || fail "generate all-to-all"
ana=$(SYS="$VIMANA_SRCDIR/inputs/system/direct.json" finish_of analytical "$T/a2a/f" "$NET/switch8.yml")
gar=$(SYS="$VIMANA_SRCDIR/inputs/system/direct.json" finish_of garnet "$T/a2a/f" "$NET/switch8.yml")
expect_eq "$ana" 6520 "direct all-to-all, analytical"
[ "$gar" -gt "$ana" ] || fail "direct all-to-all: garnet ($gar) is not slower than analytical ($ana)"
[ "$gar" -ge 17090 ] || fail "direct all-to-all: garnet ($gar) beats the bound of the links to the NPUs (17090)"

# ---- (e) a routing deadlock ends the run: stalled, never a hang --------------
# On a 4-NPU Ring each NPU i sends 64 KiB to i + 2 (two hops clockwise).
# With one VC of one flit each packet holds its first link and waits for
# the next one, held by its neighbour's: a cycle. With two VCs the dateline
# (VC class 1 after the link 3 -> 0) breaks it and every message arrives.
# The heads leave at 1 and are ready at the next router at 1 + 500 + 1 =
# 502, where no VC will ever free: the run stops in that cycle.
FLOW_SIZE=64KiB flows 4 "$T/dl/dl" 0:2 1:3 2:0 3:1 || fail "flows (deadlock)"
expect_error "vimana: error: network backend garnet failed: stalled: 4 messages pending at t = 502 (garnet: no flit can ever move: a routing deadlock; more vcs or a topology without cyclic routes avoids it)" \
    run_on garnet "$T/dl/dl" "$DATA/ring4.yml" --backend-options=vcs=1,vc_depth=1
got=$(finish_of garnet "$T/dl/dl" "$DATA/ring4.yml" --backend-options=vcs=2,vc_depth=1)
[ "$got" -gt 0 ] || fail "two VCs and the dateline: the run did not finish"

# ---- (f) torus from a topology file, backend-check -----------------------
"$VIMANA_ET" generate all-reduce --npus 16 --size 1MiB --out "$T/tor/f" >/dev/null || fail "generate torus"
got=$(finish_of garnet "$T/tor/f" "$NET/torus_4x4.txt")
[ "$got" -gt 0 ] || fail "all-reduce on torus_4x4.txt did not finish"
# backend-check sends messages of up to 1 GiB: 2^26 flits of 16 bytes per
# hop, a minute of simulation; with 64 KiB flits it takes a second.
expect_ok "$VIMANA" backend-check garnet --network-configuration="$NET/torus_4x4.txt" \
    --backend-options=flit_bytes=65536
expect_ok "$VIMANA" backend-check garnet --network-configuration="$NET/ring8.yml" \
    --backend-options=flit_bytes=65536,vcs=2,vc_depth=8,pipeline=3

# ---- (g) wormhole over 4 hops of a fat-tree ---------------------------------
# tests/data/topology/fat_tree_8.txt, NPU 0 -> NPU 4: npu0 -> switch8 ->
# switch10 (the ECMP choice of congestion_aware too) -> switch9 -> npu4.
# NPU links 50 B/ns and 500 ns, leaf-spine links 100 B/ns and 1000 ns.
# The tail leaves npu0 at 1 + floor(65535 * 16 / 50) = 20972 and each hop
# adds latency, and pipeline at each switch (the faster links never hold
# it back): 20972 + 501 + 1001 + 1001 + 500 = 23975 (store-and-forward
# takes 65912).
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 4 --size 1MiB --out "$T/ft/f" >/dev/null ||
    fail "generate fat-tree"
expect_eq "$(finish_of garnet "$T/ft/f" "$VIMANA_SRCDIR/tests/data/topology/fat_tree_8.txt" \
    --report="$T/ft.csv")" 23975 "4 hops of the fat-tree"
cat >"$T/want.csv" <<'CSV'
0,8,1048576,1,20971,0.874703,npu0,switch8,0,0,0,0
9,4,1048576,1,20971,0.874703,switch9,npu4,0,0,0,0
8,10,1048576,1,10485,0.437331,switch8,switch10,0,0,0,0
10,9,1048576,1,10485,0.437331,switch10,switch9,0,0,0,0
CSV
tail -n +2 "$T/ft.links.csv" | cmp -s - "$T/want.csv" || fail "fat-tree links: $(cat "$T/ft.links.csv")"

# ---- (h) options: the run reports its rate; bad ones refused in one line ----
run_on garnet "$T/p2p/f" "$P2P" --backend-options=stats=1 >/dev/null 2>"$T/err" || fail "stats=1"
grep -q '^vimana: garnet: info: 65536 flit-hops, [0-9]* cycles simulated, [0-9.]* s: [0-9.]* M flit-hops/s; 64 VCs a link$' \
    "$T/err" || fail "stats=1 line: $(cat "$T/err")"
# vcs=auto: ceil(round trip flits / 5) + 1 VCs, from 4 to 64, the round
# trip being (2L + pipeline + 2) cycles at the link's rate in 16-byte
# flits. p2p_400g (50 B/ns, 500 ns): 1003 x 50 / 16 = 3134.4 flits, 628
# VCs: 64 (above). 50 B/ns and 10 ns: 23 x 50 / 16 = 71.9 flits, 15 + 1 =
# 16 VCs. 16 B/ns (128 Gbps) and 1 ns, a Garnet-like link: 5 flits, 1 + 1
# = 2: Garnet 2.0's 4.
vcs_of() { # RATE LATENCY: the VCs a link that stats=1 reports
    printf '2 0 1\n\n0 1 %s %s 0\n' "$1" "$2" >"$T/vcs.txt"
    run_on garnet "$T/p2p/f" "$T/vcs.txt" --backend-options=stats=1 2>&1 >/dev/null |
        sed -n 's/^vimana: garnet: info: .*; \([0-9]*\) VCs a link$/\1/p'
}
expect_eq "$(vcs_of 400Gbps 10ns)" 16 "vcs=auto on a 10 ns link of 50 B/ns"
expect_eq "$(vcs_of 128Gbps 1ns)" 4 "vcs=auto on a 1 ns link of 16 B/ns"
run_on garnet "$T/p2p/f" "$P2P" --backend-options=stats=1,vcs=7 >/dev/null 2>"$T/err" || fail "stats=1,vcs=7"
grep -q '; 7 VCs a link$' "$T/err" || fail "vcs=7: $(cat "$T/err")"
bad() { # OPTIONS MESSAGE
    expect_error "vimana: error: garnet: --backend-options: $2" run_on garnet "$T/p2p/f" "$P2P" --backend-options="$1"
}
bad foo=1 "unknown key in 'foo=1' (known: flit_bytes, vcs, vc_depth, pipeline, stats, packet_flits, eject_flits)"
bad packet_flits=-1 "'packet_flits=-1': packet_flits must be an integer from 0 to 1048576 or max"
bad eject_flits=0 "'eject_flits=0': eject_flits must be an integer from 1 to 65536 or auto"
bad vcs=0 "'vcs=0': vcs must be an integer from 1 to 64 or auto"
bad vcs=65 "'vcs=65': vcs must be an integer from 1 to 64 or auto"
bad flit_bytes=abc "'flit_bytes=abc': flit_bytes must be an integer from 1 to 65536"
bad vc_depth=0 "'vc_depth=0': vc_depth must be an integer from 1 to 1048576 or auto"
bad pipeline=99999999999999 "'pipeline=99999999999999': pipeline must be an integer from 1 to 1000"
bad vcs "'vcs' is not key=value"
bad "vcs=2,,pipeline=1" "'' is not key=value"

finish
