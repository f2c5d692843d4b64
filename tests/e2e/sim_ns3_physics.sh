#!/bin/sh
# ns3_shim's packet physics (backends/ns3_shim/README.md, "Physics"):
# an 8-flow incast against the fluid model, the same with PFC + DCQCN and
# with HPCC, a lossy fabric that completes by go-back-N, PFC on two flows,
# reproducibility, and bad options refused in one line. Exact numbers,
# derived in the comments. Skipped (77) without the shim.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
need_ns3
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"

# A Switch of 9 NPUs (device 9): every link 100 Gbit/s = 12.5 B/ns, 1 us.
{ printf '10 1 9\n9\n'; for k in 0 1 2 3 4 5 6 7 8; do echo "$k 9 100Gbps 0.001ms 0"; done; } >"$T/sw9.txt"
# NPUs 1..8 each send 1 MiB to NPU 0 at t = 0.
flows 9 "$T/in/in" 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 || fail "flows (incast)"

# incast OPTIONS [REPORT]: the run's output in $T/run.out (stdout and stderr).
incast() {
    "$VIMANA" --workload-configuration="$T/in/in" --system-configuration="$SYS" --network-configuration="$T/sw9.txt" \
        --network-backend=ns3_shim --backend-options="$1" ${2:+--report="$2"} >"$T/run.out" 2>&1 ||
        fail "incast run ($1): $(tail -n 3 "$T/run.out")"
}
finish_of() { sed -n "s/^sys\[$1\] finished, \([0-9]*\) cycles.*/\1/p" "$T/run.out"; }
# The senders' finishes (each one's message delivered), smallest first.
senders() { for k in 1 2 3 4 5 6 7 8; do finish_of $k; done | sort -n | tr '\n' ' '; }
# link FILE SRC DST FIELD: one field of a link record of a JSON report.
link() {
    grep "^{\"src_device\": $2, \"dst_device\": $3," "$1" | sed -n "s/.*\"$4\": \([0-9a-z]*\).*/\1/p"
}
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'; }
physics_line() { sed -n 's/^vimana: ns3: info: ns3: physics: //p' "$T/run.out"; }

# ---- the fluid model ------------------------------------------------------------
# 8 x 1 MiB through the switch's one port to NPU 0 at R = 12.5 B/ns: 2048
# packets of 4096 B, each with a 2-byte header: 8392704 B / 12.5 = 671416.32
# ns of serialisation, the port never idle, plus the first packet's way to
# it (4098 / 12.5 = 327.84 ns on the up-link, 1000 ns delay) and the last
# one's delay down (1000 ns): 673744.16, tick 673744 (receiver completion).
# With completion=ack the last ACK (62 + 2 B: 5.12 ns a hop) comes back
# over 2 links: + 2010.24: 675754.4, tick 675754.
FLUID=673744
FLUID_ACK=675754

# Default options: today's path, the fluid model exactly.
incast ""
expect_eq "$(finish_of 0)" $FLUID "incast, default options"
# buffer=inf, cc=none: the same options, named.
incast "buffer=inf,cc=none,pfc=off,completion=receiver"
expect_eq "$(finish_of 0)" $FLUID "incast, buffer=inf,cc=none"
# An ECN option alone takes the physics path (own FIFOs, no ACKs): the
# same times, with marks counted at the port to NPU 0.
incast "ecn_kmin=100000" "$T/ecn.json"
expect_eq "$(finish_of 0)" $FLUID "incast, physics path without CC"
expect_eq "$(senders)" "671449 671777 672104 672432 672760 673088 673416 673744 " "incast senders, physics path"
[ "$(link "$T/ecn.json" 9 0 ecn_marks)" -gt 0 ] || fail "no ECN marks at the incast port"
expect_eq "$(link "$T/ecn.json" 9 0 pause_ticks)" 0 "no pause without PFC"

# ---- DCQCN + PFC: pauses, marks, the fair share, the fluid time --------------------
# buffer 1 MB a port, shared by the switch's 9 ingress ports: 111111 B
# each; PFC headroom 2 x 12.5 x 1000 + 2 x 4098 = 33196: xoff 77915,
# xon 69719. dcqcn_timer=20: the 670 us run is 33 timer periods (the
# paper's 55 us recovers too slowly for it: README).
OPTS="cc=dcqcn,pfc=on,buffer=1000000,dcqcn_timer=20,completion=ack"
incast "$OPTS" "$T/dcqcn.json"
got=$(finish_of 0)
expect_eq "$got" 675754 "incast, DCQCN + PFC (completion=ack)"
within "$got" $FLUID_ACK 10 || fail "DCQCN incast $got not within 10 % of the fluid model $FLUID_ACK"
# The fair share: every flow ends within 3 % of the fluid model's end (an
# unfair run would deliver some flows far earlier).
for f in $(senders); do within "$f" $FLUID_ACK 3 || fail "DCQCN: a flow ended at $f, not near $FLUID_ACK"; done
expect_eq "$(link "$T/dcqcn.json" 9 0 ecn_marks)" 1937 "DCQCN: ECN marks at the incast port"
[ "$(link "$T/dcqcn.json" 1 9 pause_ticks)" -gt 0 ] || fail "DCQCN: NPU 1's link never paused"
[ "$(link "$T/dcqcn.json" 8 9 pause_ticks)" -gt 0 ] || fail "DCQCN: NPU 8's link never paused"
expect_eq "$(physics_line)" "1937 ECN marks, 94 CNPs, 159 pauses (3319318 ticks), 0 drops, 0 NACKs, 0 timeouts, 0 packets resent, 2048 ACKs" \
    "DCQCN physics counters"
# Bit for bit again.
cp "$T/dcqcn.json" "$T/dcqcn1.json"
incast "$OPTS" "$T/dcqcn.json"
cmp -s "$T/dcqcn.json" "$T/dcqcn1.json" || fail "DCQCN run not reproducible"
# Receiver completion: the data's last byte, the fluid model exactly.
incast "cc=dcqcn,pfc=on,buffer=1000000,dcqcn_timer=20"
expect_eq "$(finish_of 0)" $FLUID "incast, DCQCN + PFC (completion=receiver)"

# ---- HPCC -----------------------------------------------------------------------
# 1000-byte packets (HPCC's MTU; at 4096 the fair-share window, 1/8 of a
# 58.7 KB BDP, is under two packets): 8392 packets, 8405392 B on the wire
# = 672431.36 ns, + 2000 + 80.16 (first packet up) + 2010.24 (last ACK):
# 676521.76. HPCC aims at eta = 95 % of the port: 672431.36 / 0.95 +
# 4090.4 = 711912 is its own fluid time. Measured 735504: +8.7 % over
# the line-rate model, +3.3 % over the eta one.
incast "cc=hpcc,pfc=on,buffer=1000000,packet=1000,completion=ack" "$T/hpcc.json"
got=$(finish_of 0)
expect_eq "$got" 735504 "incast, HPCC"
within "$got" 676522 10 || fail "HPCC incast $got not within 10 % of the fluid model 676522"
[ "$(link "$T/hpcc.json" 9 0 busy_ticks)" -gt 0 ] || fail "HPCC: no traffic at the port"

# ---- lossy: pfc=off, a 100 KB buffer --------------------------------------------
# 8 line-rate senders overflow the port's 100000 B at once; go-back-N
# (NACK, and a 100 us timeout for a message's tail) resends until every
# flow completes. Each resent byte crosses the port again.
incast "cc=none,buffer=100000" "$T/lossy.json"
expect_eq "$(finish_of 0)" 835618 "lossy incast"
expect_eq "$(physics_line)" "0 ECN marks, 0 CNPs, 0 pauses (0 ticks), 6535 drops, 2 NACKs, 26 timeouts, 6542 packets resent, 2048 ACKs" \
    "lossy counters"
[ "$(link "$T/lossy.json" 9 0 bytes)" -gt 8388608 ] || fail "lossy: no bytes resent over the port"

# ---- PFC on two flows -----------------------------------------------------------
# NPUs 1 and 2 send 1 MiB each to NPU 0 over a Switch of 3 (3 ingress
# ports), 100 Gbit/s and 1 us a link. buffer 161058 = 3 x (33196 headroom
# + 5 packets): xoff 20490 (5 packets of 4098), xon 12294 (3). Lossless and
# the port to NPU 0 never idle: 2 x 1049088 B / 12.5 = 167854.08 + 1327.84
# + 1000 = 170181.92, tick 170181, as without PFC. Each sender's link:
# its packets enter the switch no faster than the port serves it (6.25
# B/ns) plus what the switch holds for it (at most xoff + headroom =
# 53686): its last packet leaves no earlier than (1049088 - 53686) / 6.25
# = 159264 ns, of which it spends 83927 serialising: paused at least
# 75337 ns, at most the run.
{ printf '4 1 3\n3\n'; for k in 0 1 2; do echo "$k 3 100Gbps 0.001ms 0"; done; } >"$T/sw3.txt"
flows 3 "$T/two/two" 1:0 2:0 || fail "flows (two)"
two() {
    "$VIMANA" --workload-configuration="$T/two/two" --system-configuration="$SYS" --network-configuration="$T/sw3.txt" \
        --network-backend=ns3_shim --backend-options="$1" ${2:+--report="$2"} >"$T/run.out" 2>&1 ||
        fail "two-flow run ($1): $(tail -n 3 "$T/run.out")"
}
two ""
expect_eq "$(finish_of 0)" 170181 "two flows, no PFC"
two "pfc=on,buffer=161058" "$T/two.json"
expect_eq "$(finish_of 0)" 170181 "two flows, PFC"
expect_eq "$(physics_line)" "0 ECN marks, 0 CNPs, 28 pauses (172898 ticks), 0 drops, 0 NACKs, 0 timeouts, 0 packets resent, 0 ACKs" \
    "two flows, PFC counters"
for k in 1 2; do
    p=$(link "$T/two.json" $k 3 pause_ticks)
    [ "$p" -ge 75337 ] && [ "$p" -le 170181 ] || fail "two flows: NPU $k's link paused $p ticks, not in [75337, 170181]"
done
expect_eq "$(link "$T/two.json" 3 0 pause_ticks)" 0 "two flows: the switch's port is never paused"

# The pause/resume timeline, 17 packets a flow (69632 B), same network
# and buffer. P = 327.84 ns a packet, D = 1000 ns. Packet i of each flow
# leaves its NPU at i P and is in the switch at A_i = (i + 1) P + D, NPU
# 1's before NPU 2's (its receive event was scheduled first); the port to
# NPU 0 starts one packet at each A_j, in arrival order f1p0, f2p0, f1p1,
# ... (position j), arrivals of a tick before its dequeue. NPU 2's
# packets are the odd positions: at A_9 the switch holds positions 9..19,
# six of them NPU 2's (24588 B > xoff 20490): a pause, at NPU 2 from
# 10 P + 2 D = 5278.4 ns. NPU 1's (even positions) reach six at A_10
# (positions 10..20): paused from 11 P + 2 D = 5606.24. Both have sent
# their 17th packet (at 16 P = 5245.44) by then. xon is 3 packets: NPU 2
# is down to 3 (positions 29, 31, 33) once position 27 leaves, at A_27 =
# 28 P + D: resumed at 28 P + 2 D = 11179.52, paused 5901.12 ns; NPU 1
# once position 26 leaves: resumed at 27 P + 2 D = 10851.68, paused
# 5245.44. The port never idles: the 34th packet arrives at 35 P + 2 D =
# 13474.4, as without PFC.
FLOW_SIZE=69632 flows 3 "$T/t17/t" 1:0 2:0 || fail "flows (17 packets)"
"$VIMANA" --workload-configuration="$T/t17/t" --system-configuration="$SYS" --network-configuration="$T/sw3.txt" \
    --network-backend=ns3_shim --backend-options=pfc=on,buffer=161058 --report="$T/t17.json" >"$T/run.out" 2>&1 ||
    fail "17-packet PFC run: $(tail -n 3 "$T/run.out")"
expect_eq "$(finish_of 0)" 13474 "17 packets: finish"
expect_eq "$(link "$T/t17.json" 1 3 pause_ticks)" 5245 "17 packets: NPU 1 paused"
expect_eq "$(link "$T/t17.json" 2 3 pause_ticks)" 5901 "17 packets: NPU 2 paused"
expect_eq "$(physics_line)" "0 ECN marks, 0 CNPs, 2 pauses (11146 ticks), 0 drops, 0 NACKs, 0 timeouts, 0 packets resent, 0 ACKs" \
    "17 packets: one pause each"

# ---- completion=ack on one message ------------------------------------------------
# 1 MiB from NPU 0 to NPU 1 on ring8 (50 GB/s = 53.6870912 B/ns, 500 ns):
# the last byte arrives at 20040.78 (sim_ns3.sh); its ACK (64 B on the
# wire, 1.19 ns) on the idle way back arrives 501.19 later: 20541.97.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --size 1MiB --out "$T/p2p/p" >/dev/null || fail "generate p2p"
for o in completion=ack cc=dcqcn,completion=ack; do
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS" \
        --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" --network-backend=ns3_shim \
        --backend-options=$o >"$T/run.out" 2>&1 || fail "p2p $o: $(tail -n 3 "$T/run.out")"
    expect_eq "$(finish_of 1)" 20541 "p2p, $o"
done

# ---- bad options: one line each --------------------------------------------------
bad() { # OPTIONS MESSAGE
    expect_error "vimana: error: $2" "$VIMANA" --workload-configuration="$T/two/two" --system-configuration="$SYS" \
        --network-configuration="$T/sw3.txt" --network-backend=ns3_shim --backend-options="$1"
    expect_eq "$(wc -l <"$T/err")" 1 "$1: lines on stderr"
}
bad "cc=foo" "ns3: backend option 'cc=foo': cc must be none, dcqcn or hpcc"
bad "buffer=-1" "ns3: backend option 'buffer=-1': buffer must be inf or a whole number of bytes from 1 to 2^50"
bad "ecn_kmin=500,ecn_kmax=400" "ns3: backend options: ecn_kmin (500) is above ecn_kmax (400)"
bad "pfc=on" "ns3: backend option pfc=on needs a finite buffer=BYTES (PFC pauses as a switch buffer fills; an infinite one never does)"
bad "pfc=maybe" "ns3: backend option 'pfc=maybe': pfc must be on or off"
bad "ecn_pmax=1.5" "ns3: backend option 'ecn_pmax=1.5': ecn_pmax must be a number from 0 to 1"
bad "completion=sender" "ns3: backend option 'completion=sender': completion must be receiver or ack"
bad "dcqcn_g=0" "ns3: backend option 'dcqcn_g=0': dcqcn_g must be a number above 0 and at most 1"
bad "buffer=1000" "ns3: backend option buffer=1000 holds no packet of 4098 bytes (packet + a 2-byte header)"
bad "pfc=on,buffer=100000" "ns3: backend option buffer=100000: with pfc=on, switch 3's 3 ingress ports need at least 45490 bytes each (PFC headroom 33196 for link 0's rate and delay, and 3 packets)"
bad "hpcc=on" "ns3: unknown backend option 'hpcc=on' (known: packet=BYTES, buffer=BYTES|inf, pfc=on|off, cc=none|dcqcn|hpcc, ecn_kmin=BYTES, ecn_kmax=BYTES, ecn_pmax=0..1, completion=receiver|ack, dcqcn_rate_ai=Mbit/s, dcqcn_rate_hai=Mbit/s, dcqcn_min_rate=Mbit/s, dcqcn_g=0..1, dcqcn_timer=us, hpcc_eta=0..1, hpcc_max_stage=N, hpcc_rate_ai=Mbit/s)"
finish
