#!/bin/sh
# The ns3_shim backend under --network-faults (link_fault, ABI 1.4): a
# bandwidth factor slows a link from its tick on (a later fault replaces an
# earlier one), a link down reroutes from its tick on (a packet already on
# its device still crosses it), a partition and a link down on a network of
# dimensions are refused in one line. Every time is exact, derived by hand.
# Skipped (77) when configure did not build the shim (no ns-3).
#
# tests/data/topology/fat_tree_8.txt: NPU-leaf links 400Gbps = 50 B/ns and
# 500 ns, leaf-spine 800Gbps = 100 B/ns and 1000 ns. 1 MiB from NPU 0 to
# NPU 4 is 256 packets of 4096 B, 4098 B on the wire: 81.96 ns each at 50
# B/ns, 40.98 at 100, 163.92 at 25. The source paces one packet every 81.96
# ns, so packet i reaches switch 8 at a(i) = 581.96 + 81.96 i.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
need_ns3
FT="$VIMANA_SRCDIR/tests/data/topology/fat_tree_8.txt"
NET="$VIMANA_SRCDIR/inputs/network"
SYS="$VIMANA_SRCDIR/inputs/system"

flows 8 "$T/ft/f" 0:4 || fail "flows 0:4"

# run NAME NETWORK WORKLOAD [FAULTS]: NPU DST's finish into $T/NAME.finish
# ($DST, default 4), the link records "src dst bytes messages busy_ticks
# max_queue_ticks" into $T/NAME.links.
run() {
    name=$1 net=$2 wl=$3 nf=${4:-}
    set -- --workload-configuration="$wl" --system-configuration="$SYS/ring.json" --network-configuration="$net" \
        --network-backend=ns3_shim --report="$T/$name.json"
    [ -n "$nf" ] && set -- "$@" --network-faults="$nf"
    "$VIMANA" "$@" >"$T/$name.out" 2>&1 || fail "$name: $(cat "$T/$name.out")"
    sed -n "s/^sys\[${DST:-4}\] finished, \([0-9]*\) cycles.*/\1/p" "$T/$name.out" >"$T/$name.finish"
    sed -n 's/^{"src_device": \([0-9]*\), "dst_device": \([0-9]*\), "bytes": \([0-9]*\), "messages": \([0-9]*\), "busy_ticks": \([0-9]*\),.*"max_queue_ticks": \([0-9]*\),.*/\1 \2 \3 \4 \5 \6/p' \
        "$T/$name.json" | sort -n -k1,1 -k2,2 | tr '\n' ';' >"$T/$name.links"
}

faults() { # FILE LINE...: a faults file
    f=$1
    shift
    printf -- '%s\n' "$@" >"$f"
}

# expect_run NAME NETWORK WORKLOAD FINISH LINKS WHAT [FAULT...]: run NAME,
# under the faults file $T/NAME.yaml of the FAULT lines when there are any,
# finishes at FINISH with the link records LINKS.
expect_run() {
    name=$1 net=$2 wl=$3 want_finish=$4 want_links=$5 what=$6
    shift 6
    if [ $# -gt 0 ]; then
        faults "$T/$name.yaml" "$@"
        run "$name" "$net" "$wl" "$T/$name.yaml"
    else
        run "$name" "$net" "$wl"
    fi
    expect_eq "$(cat "$T/$name.finish")" "$want_finish" "$what"
    expect_eq "$(cat "$T/$name.links")" "$want_links" "$what: links"
}

# ---- no fault ----------------------------------------------------------------
# npu0 -> switch8 -> switch10 (the ECMP choice) -> switch9 -> npu4. The last
# packet leaves npu0 at 256 x 81.96 = 20981.76 and then crosses the delays
# (3000) and one packet time on each later hop (40.98 + 40.98 + 81.96):
# 24145.68, tick 24145.
expect_run plain "$FT" "$T/ft/f" 24145 '0 8 1048576 1 20981 0;8 10 1048576 1 10490 0;9 4 1048576 1 20981 0;10 9 1048576 1 10490 0;' "no fault"

# ---- a bandwidth factor on a link of the route, from tick 0 -----------------------
# [switch8, switch10] at 0.5: 50 B/ns, still as fast as the source's
# pacing (no queue); its packet time doubles to 81.96: 24145.68 + 40.98 =
# 24186.66, tick 24186. Busy on 8 -> 10: 256 x 81.96 = 20981.76.
expect_run half "$FT" "$T/ft/f" 24186 '0 8 1048576 1 20981 0;8 10 1048576 1 20981 0;9 4 1048576 1 20981 0;10 9 1048576 1 10490 0;' "factor 0.5" '- {link: [switch8, switch10], at: 0, bandwidth-factor: 0.5}'

# At 0.25 (25 B/ns) it is the bottleneck: busy without a gap from the first
# packet's arrival, 581.96, for 256 x 163.92 = 41963.52; the last packet
# then crosses 1000 + 40.98 + 1000 + 81.96 + 500: 45168.42, tick 45168.
expect_run quarter "$FT" "$T/ft/f" 45168 '0 8 1048576 1 20981 0;8 10 1048576 1 41963 0;9 4 1048576 1 20981 0;10 9 1048576 1 10490 0;' "factor 0.25" '- {link: [switch8, switch10], at: 0, bandwidth-factor: 0.25}'

# ---- a later fault replaces the earlier one, for what starts from then on ---------
# 0.25 from 0, 1 from 20000. Packets 0-118 start on 8 -> 10 before 20000
# (118 x 163.92 + 581.96 = 19924.52) at 163.92; 119 starts at 20088.44 at
# 40.98, though it was queued (at 10335.2) before the change: busy 119 x
# 163.92 + 137 x 40.98 = 25120.74. The backlog then drains at 100 B/ns into
# switch9 -> npu4 (50 B/ns), which carries packet 118 until 22211.38 (it
# reaches switch 9 at 19924.52 + 163.92 + 1000 + 40.98 + 1000 = 22129.42)
# and the other 137 back to back: 22211.38 + 137 x 81.96 + 500 = 33939.90.
expect_run back "$FT" "$T/ft/f" 33939 '0 8 1048576 1 20981 0;8 10 1048576 1 25120 0;9 4 1048576 1 20981 0;10 9 1048576 1 10490 0;' "factor 0.25 then 1" '- {link: [switch8, switch10], at: 0, bandwidth-factor: 0.25}' '- {link: [switch8, switch10], at: 20000, bandwidth-factor: 1}'

# ---- a spine link down from tick 0: the route through the other spine ----------
# The spines are alike: the time of no fault, over switch 11.
expect_run down0 "$FT" "$T/ft/f" 24145 '0 8 1048576 1 20981 0;8 11 1048576 1 10490 0;9 4 1048576 1 20981 0;11 9 1048576 1 10490 0;' "down at 0" '- {link: [switch8, switch10], at: 0, down: true}'

# ---- a spine link down in the middle of the message -----------------------------
# [switch10, switch9] down at 10000. Forwarded at switch 8 before it
# (a(i) < 10000: packets 0-114, a(114) = 9925.40) a packet takes 8 -> 10;
# those reaching switch 10 before it (a(i) + 1040.98 < 10000: 0-102) cross
# 10 -> 9. Packets 103-114 reach switch 10 after it and go back 10 -> 8 ->
# 11 -> 9; packets 115-255 take 8 -> 11. Bytes: 115, 103, 12, 153 and 153
# packets of 4096 on 8 -> 10, 10 -> 9, 10 -> 8, 8 -> 11, 11 -> 9 (busy:
# that many times 40.98). switch9 -> npu4 carries 0-102 back to back, idles
# 12 packet times (103-114 come late), then carries them and 115-255 back to
# back (the source's pacing is its rate): no fault's end + 12 x 81.96 =
# 25129.20, tick 25129.
expect_run downmid "$FT" "$T/ft/f" 25129 '0 8 1048576 1 20981 0;8 10 471040 1 4712 0;8 11 626688 1 6269 0;9 4 1048576 1 20981 0;10 8 49152 1 491 0;10 9 421888 1 4220 0;11 9 626688 1 6269 0;' "down at 10000" '- {link: [switch10, switch9], at: 10000, down: true}'

# ---- a partition is refused before the run ------------------------------------------
faults "$T/p.yaml" '- {link: [switch8, switch10], at: 0, down: true}' '- {link: [switch8, switch11], at: 200, down: true}'
expect_error "vimana: error: $T/p.yaml:2: link [switch8, switch11]: the links down from tick 200 cut NPUs 4, 5, 6, 7 off from NPU 0 (a partition: no route is left between them)" \
    "$VIMANA" --workload-configuration="$T/ft/f" --system-configuration="$SYS/ring.json" --network-configuration="$FT" \
    --network-backend=ns3_shim --network-faults="$T/p.yaml"
expect_eq "$(wc -l <"$T/err")" 1 "partition: lines on stderr"

# ---- a network of dimensions: bandwidth factors, no link down -----------------------
# 1 MiB from NPU 0 to NPU 1 on ring8 (50 GB/s = 53.6870912 B/ns, 500 ns):
# 76.331 ns a packet, 19540.78 for the 256 (sim_ns3.sh), + 500: 20040.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --size 1MiB --out "$T/p2p/p" >/dev/null || fail "generate p2p"
# [npu0, npu1] at 0.5 from 0: 2 x 19540.78 + 500 = 39581.56.
DST=1 expect_run rhalf "$NET/ring8.yml" "$T/p2p/p" 39581 '0 1 1048576 1 39081 0;' "ring8 factor 0.5" '- {link: [npu0, npu1], at: 0, bandwidth-factor: 0.5}'
# From 10000: packets 0-131 start before it (131 x 76.331 = 9999.39) at
# 76.331, the other 124 at 152.662: 10075.69 + 18930.14 = 29005.83 busy,
# + 500: 29505.83.
DST=1 expect_run rmid "$NET/ring8.yml" "$T/p2p/p" 29505 '0 1 1048576 1 29005 0;' "ring8 factor 0.5 from 10000" '- {link: [npu0, npu1], at: 10000, bandwidth-factor: 0.5}'
# Dimension-order routing has no other path for a link that is down.
faults "$T/rdown.yaml" '- {link: [npu1, npu0], at: 0, down: true}'
expect_error "vimana: error: $T/rdown.yaml:1: link [npu1, npu0]: ns3 routes a network of dimensions in dimension order, with no other path for a link that is down: give the network as a topology file, or a bandwidth-factor" \
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim --network-faults="$T/rdown.yaml"
expect_eq "$(wc -l <"$T/err")" 1 "ring8 down: lines on stderr"
finish
