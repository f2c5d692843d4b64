#!/bin/sh
# The ns3_shim backend (real ns-3): a point-to-point message within 2 % of
# size/bandwidth + latency, ring all-reduces within 5 % of the analytical
# backend, an incast slower than analytical, congestion_aware's routes on a
# topology graph, backend-check, and bad inputs refused in one line.
# Skipped (77) when configure did not build the shim (no ns-3).
# 50 GB/s = 50 * 2^30 / 1e9 = 53.6870912 B/ns. A message travels as packets
# of 4096 B (the default), each with a 2-byte PPP header on the wire.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
need_ns3
NET="$VIMANA_SRCDIR/inputs/network"
SYS="$VIMANA_SRCDIR/inputs/system"

run() { # BACKEND WORKLOAD SYSTEM NETWORK [OPTIONS]: NPU 0's finish on stdout
    be=$1 w=$2 s=$3 n=$4; shift 4
    "$VIMANA" --workload-configuration="$w" --system-configuration="$s" --network-configuration="$n" \
        --network-backend="$be" "$@" 2>"$T/run.err" | sed -n 's/^sys\[0\] finished, \([0-9]*\) cycles.*/\1/p'
}

# within A B PERCENT: |A - B| <= PERCENT % of B
within() {
    awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

# ---- one large point-to-point message -----------------------------------------
# 1 MiB from NPU 0 to NPU 1 on ring8 (50 GB/s, 500 ns): 256 packets,
# 1048576 + 256 x 2 bytes on the wire = 19540.78 ns, + 500 ns delay:
# the last byte arrives at 20040.78 ns, tick 20040. Bound: 500 + 19531.25.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --size 1MiB --out "$T/p2p/p" >/dev/null || fail "generate p2p"
"$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim --report="$T/p2p.json" >"$T/out" 2>&1 ||
    fail "p2p run: $(cat "$T/out")"
got=$(sed -n 's/^sys\[1\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out")
expect_eq "$got" 20040 "p2p finish"
within "$got" 20031.25 2 || fail "p2p $got not within 2 % of 20031.25"
# Link record: the message's bytes, busy = the 256 packets' serialisation
# (19540.78 ns, ticks rounded down), no wait.
grep -qF '{"src_device": 0, "dst_device": 1, "bytes": 1048576, "messages": 1, "busy_ticks": 19540, "utilisation": 0.97505, "src": "npu0", "dst": "npu1", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0}' \
    "$T/p2p.json" || fail "p2p link record: $(grep src_device "$T/p2p.json")"

# The packet size option: 65000-byte packets, 17 of them: 1048610 B on the
# wire = 19531.88 ns + 500: tick 20031.
got=$("$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim --backend-options=packet=65000 2>&1 |
    sed -n 's/^sys\[1\] finished, \([0-9]*\) cycles.*/\1/p')
expect_eq "$got" 20031 "p2p finish with packet=65000"

# ---- 1-D ring all-reduce, 1 MiB, 8 NPUs: within 5 % of analytical -----------------
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/ar/ar" >/dev/null || fail "generate all-reduce"
# Ring8: 32 KiB messages to a neighbour; 16 bytes of headers add 0.3 ns a
# step, which the whole-tick steps of the system layer absorb: equal.
ana=$(run analytical "$T/ar/ar" "$SYS/ring.json" "$NET/ring8.yml")
got=$(run ns3_shim "$T/ar/ar" "$SYS/ring.json" "$NET/ring8.yml")
expect_eq "$ana" 117780 "analytical ring8 all-reduce"
expect_eq "$got" 117780 "ns3 ring8 all-reduce"
within "$got" "$ana" 5 || fail "ring8 all-reduce $got not within 5 % of $ana"
# endpoint-delay 0: deliveries land inside a nanosecond (headers) and the
# host asks for events at the current tick; those ran at the tick's start,
# in ns-3's past (448 of 10,984 events, up to -979 ps), and ns-3 without
# asserts ran its clock backwards. Now they run at once; the shim fails a
# run whose host events go back in time, so this run proves none does.
sed 's/"endpoint-delay": 10/"endpoint-delay": 0/' "$SYS/ring.json" >"$T/ed0.json"
"$VIMANA" --workload-configuration="$T/ar/ar" --system-configuration="$T/ed0.json" \
    --network-configuration="$NET/switch8.yml" --network-backend=ns3_shim >"$T/out" 2>&1 ||
    fail "endpoint-delay 0: $(cat "$T/out")"
expect_eq "$(grep -c 'finished' "$T/out")" 8 "endpoint-delay 0: every NPU finishes"
# Switch8, ring algorithm: two hops a message (packets pipelined through
# the switch: one extra packet time and delay per step), 2.9 % slower.
ana=$(run analytical "$T/ar/ar" "$SYS/ring.json" "$NET/switch8.yml")
got=$(run ns3_shim "$T/ar/ar" "$SYS/ring.json" "$NET/switch8.yml")
expect_eq "$ana" 145780 "analytical switch8 all-reduce"
expect_eq "$got" 150036 "ns3 switch8 all-reduce"
within "$got" "$ana" 5 || fail "switch8 all-reduce $got not within 5 % of $ana"

# ---- incast: all-to-all on a Switch is slower than analytical ----------------------
# Direct all-to-all: 7 senders share each switch down-link.
"$VIMANA_ET" generate all-to-all --npus 8 --size 1MiB --out "$T/a2a/a" >/dev/null || fail "generate all-to-all"
ana=$(run analytical "$T/a2a/a" "$SYS/direct.json" "$NET/switch8.yml")
got=$(run ns3_shim "$T/a2a/a" "$SYS/direct.json" "$NET/switch8.yml")
expect_eq "$ana" 6520 "analytical switch8 all-to-all"
expect_eq "$got" 21480 "ns3 switch8 all-to-all"
[ "$got" -gt "$ana" ] || fail "incast: ns3 $got not slower than analytical $ana"
# NPU 0's up-link: 7 destinations x 4 chunks of 32 KiB = 28 messages,
# 917504 bytes, 224 packets of 4098 B on the wire = 17098.3 ns busy. The
# messages start together, so the first packets of most of them wait:
# 0 < max_queue_ticks <= queue_ticks.
"$VIMANA" --workload-configuration="$T/a2a/a" --system-configuration="$SYS/direct.json" \
    --network-configuration="$NET/switch8.yml" --network-backend=ns3_shim --report="$T/a2a.json" >/dev/null 2>&1 ||
    fail "a2a report run"
up=$(grep '^{"src_device": 0, "dst_device": 8,' "$T/a2a.json")
case "$up" in
*'"bytes": 917504, "messages": 28, "busy_ticks": 17098,'*) ;;
*) fail "a2a up-link record: $up" ;;
esac
maxq=$(echo "$up" | sed -n 's/.*"max_queue_ticks": \([0-9]*\), "queue_ticks": \([0-9]*\),.*/\1/p')
sumq=$(echo "$up" | sed -n 's/.*"max_queue_ticks": \([0-9]*\), "queue_ticks": \([0-9]*\),.*/\2/p')
[ "${maxq:-0}" -gt 0 ] && [ "$maxq" -le "${sumq:-0}" ] || fail "a2a up-link waits: max $maxq, total $sumq"

# same_route NAME NETWORK WHAT SED: NPU 0 sends 1 MiB to NPU 63 on NETWORK
# under congestion_aware and under ns3_shim; the link records of the two
# reports, as the sed script SED prints them, are the same. Leaves
# $T/NAME_ns3_shim.links and $T/NAME_ns3_shim.out.
same_route() {
    "$VIMANA_ET" generate send-recv --npus 64 --src 0 --dst 63 --size 1MiB --out "$T/$1/p" >/dev/null ||
        fail "generate $3 p2p"
    for be in congestion_aware ns3_shim; do
        "$VIMANA" --workload-configuration="$T/$1/p" --system-configuration="$SYS/ring.json" \
            --network-configuration="$2" --network-backend=$be --report="$T/$1_$be.json" \
            >"$T/$1_$be.out" 2>&1 || fail "$3 run on $be"
        sed -n "$4" "$T/$1_$be.json" >"$T/$1_$be.links"
    done
    cmp -s "$T/$1_congestion_aware.links" "$T/$1_ns3_shim.links" ||
        fail "$3 route differs from congestion_aware's: $(cat "$T/$1_ns3_shim.links")"
}

# ---- a topology graph: congestion_aware's route (ECMP choice) -----------------
# NPU 0 -> NPU 63 on the fat tree: leaf 64, a spine, leaf 71; the same links
# as congestion_aware. 4 hops of 400 Gbps (46.5661 GB/s = 50 B/ns) and 500
# ns, pipelined packets: 4 x 500 + (1048576 + 512) / 50 + 3 x 4098 / 50
# = 2000 + 20981.76 + 245.88 = 23227.64: tick 23227.
same_route ft "$NET/fat_tree_64.txt" fat-tree \
    's/^{"src_device": \([0-9]*\), "dst_device": \([0-9]*\), "bytes": \([0-9]*\).*/\1 \2 \3/p'
expect_eq "$(wc -l <"$T/ft_ns3_shim.links")" 4 "fat-tree hops"
expect_eq "$(sed -n 's/^sys\[63\] finished, \([0-9]*\) cycles.*/\1/p' "$T/ft_ns3_shim.out")" 23227 "fat-tree p2p"

# ---- a 3-D network YAML: congestion_aware's dimension-order route ----------
# NPU 0 -> 63 on Ring 2 (200 GB/s, 50 ns) x FullyConnected 8 (100, 500) x
# Switch 4 (50, 2000): 0 -> 1 -> 15 -> switch 15 -> 63. Pipelined 4098-byte
# packets: delays 4550, the first packet's 19.08 + 38.17 ns on the faster
# hops, the 256 packets through the 50 GB/s up-link (19540.78 ns) and the
# last one down (76.33): 24224.36, tick 24224.
same_route md "$NET/ring-fc-switch_2x8x4.yml" 3-D \
    's/^{"src_device": \([0-9]*\), "dst_device": \([0-9]*\), "bytes": \([0-9]*\).*"src": \("[a-z0-9]*"\), "dst": \("[a-z0-9]*"\).*/\1 \2 \3 \4 \5/p'
expect_eq "$(tr '\n' ';' <"$T/md_ns3_shim.links")" \
    '0 1 1048576 "npu0" "npu1";1 15 1048576 "npu1" "npu15";15 79 1048576 "npu15" "switch15";79 63 1048576 "switch15" "npu63";' \
    "3-D route"
expect_eq "$(sed -n 's/^sys\[63\] finished, \([0-9]*\) cycles.*/\1/p' "$T/md_ns3_shim.out")" 24224 "3-D p2p"

# ---- backend-check ---------------------------------------------------------------
# 65000-byte packets: the check sends 1 GiB messages (16 times fewer
# packets than the default, the same checks).
expect_ok "$VIMANA" backend-check ns3_shim --backend-options=packet=65000
grep -qx 'vimana backend-check: ns3 1.5: 25 checks passed' "$T/out" || fail "backend-check: $(cat "$T/out")"
expect_ok "$VIMANA" backend-check ns3_shim --network-configuration="$NET/fat_tree_64.txt" \
    --backend-options=packet=65000
grep -qx 'vimana backend-check: ns3 1.5: 14 checks passed' "$T/out" || fail "backend-check graph: $(cat "$T/out")"

# ---- a message that can never complete ends the run, never a hang -----------------
# NPU 1 waits for tag 5, NPU 0 sends tag 0: ns-3 runs out of events after
# the send's last byte arrives (20040) and the host reports what is stuck.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --size 1MiB --tag 5 --out "$T/t5/p" >/dev/null ||
    fail "generate tag 5"
mkdir -p "$T/stuck" && cp "$T"/p2p/p.*.et "$T/stuck/" && cp "$T/t5/p.1.et" "$T/stuck/p.1.et"
expect_error "vimana: error: deadlock: 1 of 8 NPUs never finished at t = 20040 (2 messages unmatched or in flight: a RECV no SEND matches, a SEND nobody receives, or a collective some NPUs never join)" \
    timeout 60 "$VIMANA" --workload-configuration="$T/stuck/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim

# ---- two messages on one link: pacing and FIFO order --------------------------
# A (256 KiB, 64 packets of 4096 B) goes 0 -> 1 -> 2 and B (the same) 1 -> 2
# -> 3, both from t = 0: they share link 1 -> 2. A packet is 4098 bytes on
# the wire, Tx = 76.331 ns. B is paced into link 1 -> 2's FIFO at j x Tx; A's
# packets join it as they arrive at NPU 1, at (k + 1) x Tx + 500. The link
# is busy from 0 to 128 x Tx = 9770.37 ns and sends in arrival order. A's
# last packet arrives last (64 x Tx + 500 = 5385.2 > B's last, 63 x Tx =
# 4808.9): it ends at 9770.37 and reaches NPU 2 at 10270.37, tick 10270.
# B's last has 56 of A's packets before it ((k + 1) x Tx + 500 < 4808.9:
# k <= 55), so it is the link's 120th: it ends at 9159.74, reaches NPU 2
# at 9659.74 and crosses the idle link 2 -> 3: 9659.74 + 76.33 + 500 =
# 10236.07, tick 10236. (The shim lets a message alone on its first link
# skip the pacer's events, RiderQueue; here B's link gets a second
# sender, and B's packets must queue behind those already waiting: had B
# kept the link, it would reach NPU 3 at 64 x Tx + 1076.3 = 5961.)
mkdir -p "$T/two"
python3 - "$T/two/t" <<'PY' || fail "write the two-message workload"
import json, sys
out = sys.argv[1]
def comm(i, kind, src, dst, tag, deps=()):
    return {"id": i, "name": "%s_%d" % (kind.lower(), tag), "type": "COMM_%s_NODE" % kind, "data_deps": list(deps),
            "attr": [{"name": "is_cpu_op", "bool_val": False}, {"name": "comm_src", "int32_val": src},
                     {"name": "comm_dst", "int32_val": dst}, {"name": "comm_tag", "int32_val": tag},
                     {"name": "comm_size", "uint64_val": 262144}]}
ranks = {0: [comm(0, "SEND", 0, 2, 1)], 1: [comm(0, "SEND", 1, 3, 2)],
         2: [comm(0, "RECV", 0, 2, 1)], 3: [comm(0, "RECV", 1, 3, 2)]}
idle = [{"id": 0, "name": "idle", "type": "COMP_NODE", "duration_micros": 0,
         "attr": [{"name": "is_cpu_op", "bool_val": False}]}]
for r in range(8):
    json.dump({"global_metadata": {"version": "0.0.4"}, "nodes": ranks.get(r, idle)}, open("%s.%d.json" % (out, r), "w"))
PY
r=0
while [ "$r" -lt 8 ]; do
    "$VIMANA_ET" from-json "$T/two/t.$r.json" -o "$T/two/t.$r.et" || fail "from-json rank $r"
    r=$((r + 1))
done
"$VIMANA" --workload-configuration="$T/two/t" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim >"$T/out" 2>&1 || fail "two messages: $(cat "$T/out")"
expect_eq "$(sed -n 's/^sys\[2\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out")" 10270 "two messages: A at NPU 2"
expect_eq "$(sed -n 's/^sys\[3\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out")" 10236 "two messages: B at NPU 3"

# ---- bad inputs: one line each -----------------------------------------------------
printf 'topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 0 ]\nlatency: [ 500 ]\n' >"$T/zero.yml"
expect_error "vimana: error: $T/zero.yml: bandwidth (0) should be larger than 0" \
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$T/zero.yml" --network-backend=ns3_shim
expect_eq "$(wc -l <"$T/err")" 1 "zero bandwidth: lines on stderr"
{ printf '9 1 8\n8\n0 8 0Gbps 0.0005ms 0\n'; for k in 1 2 3 4 5 6 7; do echo "$k 8 400Gbps 0.0005ms 0"; done; } \
    >"$T/zero.txt"
expect_error "vimana: error: $T/zero.txt:3: link 0 -> 8: rate '0Gbps' must be above zero" \
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$T/zero.txt" --network-backend=ns3_shim
expect_eq "$(wc -l <"$T/err")" 1 "zero rate: lines on stderr"
# A FullyConnected 1024 needs 2^20 directed links, each an ns-3 channel
# with two devices: more than the shim's 2^18.
printf 'topology: [ FullyConnected ]\nnpus_count: [ 1024 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/fc1024.yml"
"$VIMANA_ET" generate send-recv --npus 1024 --src 0 --dst 1 --size 1KiB --out "$T/fc/p" >/dev/null || fail "generate fc"
expect_error "vimana: error: $T/fc1024.yml: npus_count: this network needs more than 262144 links, more than the ns3 backend supports" \
    "$VIMANA" --workload-configuration="$T/fc/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$T/fc1024.yml" --network-backend=ns3_shim
expect_error "vimana: error: ns3: unknown backend option 'mtu=9000' (known: packet=BYTES, buffer=BYTES|inf, pfc=on|off, cc=none|dcqcn|hpcc, ecn_kmin=BYTES, ecn_kmax=BYTES, ecn_pmax=0..1, completion=receiver|ack, dcqcn_rate_ai=Mbit/s, dcqcn_rate_hai=Mbit/s, dcqcn_min_rate=Mbit/s, dcqcn_g=0..1, dcqcn_timer=us, hpcc_eta=0..1, hpcc_max_stage=N, hpcc_rate_ai=Mbit/s)" \
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim --backend-options=mtu=9000
expect_error "vimana: error: ns3: backend option 'packet=12': packet must be a whole number of bytes from 64 to 65000" \
    "$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS/ring.json" \
    --network-configuration="$NET/ring8.yml" --network-backend=ns3_shim --backend-options=packet=12
finish
