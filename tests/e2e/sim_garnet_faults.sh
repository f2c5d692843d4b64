#!/bin/sh
# Link faults on the Garnet-style flit-level backend (--network-faults,
# ABI 1.4 link_fault; backends/garnet_stub/README.md, "Network faults").
# Every time below is derived by hand from the model's rules, as in
# sim_garnet.sh:
#  - 1 cycle = 1 ns; defaults flit_bytes=16, vcs=4, vc_depth=auto, pipeline=1;
#  - 1 MiB is 65536 flits, ready at the source router at 0 + 1;
#  - a link of B bytes/ns takes flit k (from 0) of a lone packet at cycle
#    s + floor(k * 16 / B), s = the head's first cycle; with a bandwidth
#    factor f it takes 16 / (f B) cycles per flit, for the flits that start
#    from the fault's cycle on (the fault is applied before that cycle);
#  - a flit sent at cycle c is ready at the next router at c + L + 1 and
#    ejected at the destination at c + L; the message is delivered when its
#    tail flit is ejected.
#
# tests/data/topology/fat_tree_8.txt: NPUs 0-3 under leaf switch8, 4-7
# under switch9, both leaves up to spines switch10 and switch11; NPU links
# 50 B/ns (0.32 cycles a flit) and 500 ns, leaf-spine links 100 B/ns (0.16)
# and 1000 ns. NPU 0 -> NPU 4 goes npu0 -> switch8 -> switch10 (the ECMP
# choice) -> switch9 -> npu4; the NPU links are the slowest, so the tail
# leaves npu0 at 1 + floor(65535 * 0.32) = 20972 and each hop adds L + 1,
# the last L: 20972 + 501 + 1001 + 1001 + 500 = 23975 (sim_garnet.sh (g)).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
FT="$VIMANA_SRCDIR/tests/data/topology/fat_tree_8.txt"
RING4="$VIMANA_SRCDIR/tests/data/garnet/ring4.yml"

run_on() { # WORKLOAD NETWORK [OPTIONS]
    w=$1 n=$2
    shift 2
    sim_run "$w" "$SYS" "$n" --network-backend=garnet "$@"
}

# finish_of WORKLOAD NETWORK [OPTIONS]: the largest "finished, N cycles" of
# a run (the run must succeed).
finish_of() {
    run_on "$@" >"$T/out" 2>"$T/err" || { fail "run $*: $(cat "$T/err")"; echo 0; return; }
    sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" | sort -n | tail -n 1
}

# faults NAME LINE...: writes the faults file $T/NAME.yaml, one fault a line.
faults() {
    f="$T/$1.yaml"
    shift
    : >"$f"
    for line in "$@"; do
        printf -- '- %s\n' "$line" >>"$f"
    done
}

# links_of CSV: the link records' "src>dst:bytes" of a --report CSV, sorted.
links_of() {
    awk -F, 'NR > 1 { print $7 ">" $8 ":" $3 }' "$1" | LC_ALL=C sort | tr '\n' ' '
}

# routed NAME FINISH WHAT LINKS LINKS_WHAT: on the fat tree under the faults
# NAME.yaml the run finishes at FINISH and its packet crosses exactly LINKS
# (as links_of gives them).
routed() {
    expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/$1.yaml" --report="$T/$1.csv")" "$2" "$3"
    expect_eq "$(links_of "$T/$1.links.csv")" "$4" "$5"
}

"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 4 --size 1MiB --out "$T/ft/f" >/dev/null ||
    fail "generate fat-tree"
W="$T/ft/f"
expect_eq "$(finish_of "$W" "$FT")" 23975 "fat-tree, no fault"
ROUTE10="npu0>switch8:1048576 switch10>switch9:1048576 switch8>switch10:1048576 switch9>npu4:1048576 "

# ---- (a) a bandwidth factor on a link of the route -------------------------
# [switch8, switch10] at 0.25: 25 B/ns, 0.64 cycles a flit, now the slowest
# link. The flits reach switch8 at 502 + floor(0.32 k), faster than it
# takes them, and the VC there (3136 flits) keeps it busy: flit k leaves at
# 502 + floor(0.64 k), the tail at 502 + floor(41942.4) = 42444; then
# 1001 + 1001 + 500 to npu4 (the faster links keep up): 44946.
faults spine "{link: [switch8, switch10], at: 0, bandwidth-factor: 0.25}"
expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/spine.yaml" --report="$T/spine.csv")" 44946 \
    "spine link at a quarter of its bandwidth"
# Its record: busy trunc(65536 * 16 / 25) = 41943 ticks.
expect_eq "$(awk -F, '$7 == "switch8" && $8 == "switch10" { print $5 }' "$T/spine.links.csv")" 41943 \
    "busy ticks of the slowed link"
# The same rate on npu0's link: the tail leaves npu0 at 1 + floor(65535 *
# 0.64) = 1 + 41942 = 41943, + 501 + 1001 + 1001 + 500 = 44946.
faults npu "{link: [npu0, switch8], at: 0, bandwidth-factor: 0.5}"
expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/npu.yaml")" 44946 "NPU link at half its bandwidth"
# From cycle 10000 on: flits 0-31246 left at 1 + floor(0.32 k) <= 9999;
# the serialiser is free at 1 + 31247 * 0.32 = 10000.04, and flit 31247 + j
# leaves at floor(10000.04 + 0.64 j): the tail (j = 34288) at
# floor(31944.36) = 31944, ejected at 31944 + 3003 = 34947.
faults late "{link: [npu0, switch8], at: 10000, bandwidth-factor: 0.5}"
expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/late.yaml")" 34947 "NPU link halved from cycle 10000"
# A factor above 1: both NPU links at 100 B/ns (0.16), every link alike:
# 1 + floor(65535 * 0.16) = 10486, + 3003 = 13489. The automatic VC depth
# follows the faster rate (6270 flits on npu0's link, a credit round trip
# of 1001 cycles at 6.25 flits a cycle), or credits would hold it back.
faults fast "{link: [npu0, switch8], at: 0, bandwidth-factor: 2}" \
    "{link: [switch9, npu4], at: 0, bandwidth-factor: 2}"
expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/fast.yaml")" 13489 "NPU links at twice their bandwidth"

# ---- (b) a spine link down from tick 0: routed over the other spine --------
# switch8 routes the packet when it takes its VC on npu0's link (cycle 1),
# after the fault: npu0 -> switch8 -> switch11 -> switch9 -> npu4, as long
# as before: 23975.
faults down0 "{link: [switch8, switch10], at: 0, down: true}"
routed down0 23975 "spine link down from 0" \
    "npu0>switch8:1048576 switch11>switch9:1048576 switch8>switch11:1048576 switch9>npu4:1048576 " \
    "links with [switch8, switch10] down"

# ---- (c) a link down while the head waits for it -----------------------------
# The head takes its VC on switch8 -> switch10 at 502, when switch10's
# output (switch10 -> switch9) is chosen for it; it reaches switch10 at 502
# + 1001 = 1503 and takes that VC then. [switch10, switch9] down at 1000:
# the packet is waiting for that link (not holding a VC of it), so it
# chooses again at switch10: the shortest route left, back to switch8 and
# over switch11: npu0 -> 8 -> 10 -> 8 -> 11 -> 9 -> npu4, all links as fast
# as npu0's or faster: 20972 + 501 + 4 * 1001 + 500 = 25977. Its body,
# committed, follows the head.
faults mid "{link: [switch10, switch9], at: 1000, down: true}"
routed mid 25977 "link down while the head waits for it" \
    "npu0>switch8:1048576 switch10>switch8:1048576 switch11>switch9:1048576 switch8>switch10:1048576 switch8>switch11:1048576 switch9>npu4:1048576 " \
    "links of the packet routed again at switch10"
# At 1503 the fault still comes first (its event was queued before the
# run's cycles): 25977. At 1504 the head holds its VC on the link: the packet
# is committed and crosses it, as at 10000 (the tail left switch10 at
# 20972 + 501 + 1001 = 22474, long after): 23975 both.
for at in 1503:25977 1504:23975 10000:23975; do
    faults edge "{link: [switch10, switch9], at: ${at%:*}, down: true}"
    expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/edge.yaml" --report="$T/edge.csv")" "${at#*:}" \
        "[switch10, switch9] down at ${at%:*}"
done
expect_eq "$(links_of "$T/edge.links.csv")" "$ROUTE10" "a committed packet crosses the link that went down"

# Both ways on from switch10 down: [switch8, switch10] at 600 (the packet
# holds its VC on switch8 -> switch10 since 502: committed), then
# [switch10, switch9] at 1000, while the head is on its way to switch10
# for it. No NPU is cut off (switch10 alone is), so the faults are
# accepted, but the packet has no way on from switch10: the run stops.
faults stuck "{link: [switch8, switch10], at: 600, down: true}" "{link: [switch10, switch9], at: 1000, down: true}"
expect_error "vimana: error: network backend garnet failed: garnet: a packet for NPU 4 at switch10 has no route left: the links down cut it off from its destination (or the route cache is out of memory)" \
    run_on "$W" "$FT" --network-faults="$T/stuck.yaml"

# ---- (d) a partition is refused before the run --------------------------------
faults part "{link: [switch8, switch10], at: 100, down: true}" \
    "{link: [switch8, switch11], at: 200, down: true}"
expect_error "vimana: error: $T/part.yaml:2: link [switch8, switch11]: the links down from tick 200 cut NPUs 4, 5, 6, 7 off from NPU 0 (a partition: no route is left between them)" \
    run_on "$W" "$FT" --network-faults="$T/part.yaml"
# A link that comes back (bandwidth-factor 1) is no partition. The packet,
# routed at switch8 to switch10 in cycle 1, waits there for its head until
# 502: at 100 it chooses switch11, at 200 switch10 again (back up since
# 150), and takes it at 502 as without faults: 23975.
faults back "{link: [switch8, switch10], at: 100, down: true}" \
    "{link: [switch8, switch10], at: 150, bandwidth-factor: 1}" "{link: [switch8, switch11], at: 200, down: true}"
expect_eq "$(finish_of "$W" "$FT" --network-faults="$T/back.yaml")" 23975 "a link down and back up"

# ---- (e) a network of dimensions: factors yes, down links no ---------------------
# ring4.yml: 50 GB/s = 53.6870912 B/ns, 0.298023223876953125 cycles a flit
# (exact in 32.32 fixed point), 500 ns. NPU 0 -> NPU 1, one hop: the tail
# leaves at 1 + floor(65535 * 0.298023...) = 1 + floor(19530.95) = 19531 and
# is ejected at 19531 + 500 = 20031. At half the bandwidth (0.59604644775390625
# cycles a flit): 1 + floor(39061.90) = 39062, ejected at 39562.
"$VIMANA_ET" generate send-recv --npus 4 --src 0 --dst 1 --size 1MiB --out "$T/r/f" >/dev/null || fail "generate ring"
expect_eq "$(finish_of "$T/r/f" "$RING4")" 20031 "ring, no fault"
faults ring "{link: [npu0, npu1], at: 0, bandwidth-factor: 0.5}"
expect_eq "$(finish_of "$T/r/f" "$RING4" --network-faults="$T/ring.yaml")" 39562 "ring link at half its bandwidth"
faults ringdown "{link: [npu0, npu1], at: 0, down: true}"
expect_error "vimana: error: $T/ringdown.yaml:1: link [npu0, npu1]: garnet routes a network of dimensions in dimension order, with no other path for a link that is down: give the network as a topology file, or a bandwidth-factor" \
    run_on "$T/r/f" "$RING4" --network-faults="$T/ringdown.yaml"

finish
