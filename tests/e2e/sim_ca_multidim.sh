#!/bin/sh
# congestion_aware on multi-dimensional networks: dimension-order routing
# (lowest differing dimension first), store-and-forward, one FIFO per
# directed link. Every number below is derived by hand in the comments.
# 50 GB/s = 50 * 2^30 / 1e9 = 53.6870912 B/ns; 100 GB/s = 107.3741824 B/ns.
# 1 MiB = 1048576 B: serialisation 19531.25 ns at 50 GB/s, 9765.625 ns at
# 100 GB/s. A hop costs trunc(latency + serialisation) and holds its link
# trunc(serialisation).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"

# finished NPU CYCLES
finished() {
    expect_eq "$(grep -c "^sys\[$1\] finished, $2 cycles, exposed communication $2 cycles\.$" "$T/out")" 1 \
        "sys[$1] finished at $2"
}

# Two send nodes (or two receive nodes) in one rank's trace: the nodes of
# two generated send-recv workloads, with ids 0 and 1.
merge_two() { # ET_A ET_B OUT
    "$VIMANA_ET" json "$1" >"$T/a.json" && "$VIMANA_ET" json "$2" >"$T/b.json" &&
    python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
x = a["nodes"][0]; y = b["nodes"][0]; x["id"] = 0; y["id"] = 1; a["nodes"] = [x, y]
json.dump(a, open(sys.argv[3], "w"))' "$T/a.json" "$T/b.json" "$T/m.json" &&
    "$VIMANA_ET" from-json "$T/m.json" -o "$3" >/dev/null
}

run_ca() { # WORKLOAD NETWORK [OPTIONS]
    w=$1 n=$2; shift 2
    sim_run "$w" "$SYS" "$n" --network-backend=congestion_aware "$@" 2>/dev/null
}

# ---- point-to-point across Ring 4 x Switch 2 --------------------------------
# NPU 0 = (0, 0) sends 1 MiB to NPU 7 = (3, 1). Dimension 0 first: on the
# ring of 4, 0 -> 3 is 3 hops clockwise or 1 anticlockwise: one hop 0 -> 3
# at 50 GB/s, 500 ns: trunc(500 + 19531.25) = 20031. Then dimension 1, a
# Switch at 100 GB/s, 1000 ns: NPU 3 -> its switch -> NPU 7, two hops of
# trunc(1000 + 9765.625) = 10765. Total 20031 + 2 x 10765 = 41561.
# Switch devices are numbered after the 8 NPUs; dimension 1 has one switch
# per dimension-0 coordinate, NPU 3's is 8 + 3 = 11. Links: 0->3 busy 19531,
# 3->11 and 11->7 busy trunc(9765.625) = 9765; 32 directed links in all.
# Utilisation = busy / 41561 (the last finish), 6 decimals rounded half up:
# 19531/41561 = 0.469936, 9765/41561 = 0.234956.
# (2 per NPU in the ring, an up- and a down-link per NPU at the switches).
RS="$T/ring4_switch2.yml"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 100 ]\nlatency: [ 500, 1000 ]\n' >"$RS"
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 7 --size 1MiB --out "$T/p2p/p" >/dev/null ||
    fail "generate p2p"
expect_ok run_ca "$T/p2p/p" "$RS" --report="$T/p2p.json"
finished 0 41561
finished 7 41561
expect_tail "$T/p2p.json" "2-D links (JSON)" <<'JSON'
"network": {"dimensions": [{"dim": 0, "npus": 4, "bandwidth_gbps": 50}, {"dim": 1, "npus": 2, "bandwidth_gbps": 100}], "num_links": 32},
"links": [
{"src_device": 0, "dst_device": 3, "bytes": 1048576, "messages": 1, "busy_ticks": 19531, "utilisation": 0.469936, "src": "npu0", "dst": "npu3", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 3, "dst_device": 11, "bytes": 1048576, "messages": 1, "busy_ticks": 9765, "utilisation": 0.234956, "src": "npu3", "dst": "switch3", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 11, "dst_device": 7, "bytes": 1048576, "messages": 1, "busy_ticks": 9765, "utilisation": 0.234956, "src": "switch3", "dst": "npu7", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0}
]
}
JSON

# The analytical (congestion-unaware) backend costs only the lowest
# differing dimension: one ring hop, trunc(500 + 19531.25) = 20031 <= 41561.
"$VIMANA" --workload-configuration="$T/p2p/p" --system-configuration="$SYS" --network-configuration="$RS" \
    --network-backend=analytical >"$T/out" 2>/dev/null || fail "analytical p2p"
finished 7 20031

# ---- two flows share one link: the second waits (FIFO) ----------------------
# Switch 4 (50 GB/s, 500 ns) x Ring 2 (100 GB/s, 1000 ns). NPU 0 = (0, 0) and
# NPU 2 = (2, 0) each send 1 MiB to NPU 5 = (1, 1) at time 0; NPU 5 posts
# both receives. Dimension 0 first: both go up to switch 8 (separate
# up-links) and arrive there at 20031; both need the down-link 8 -> 1.
# NPU 0's message came first: it holds 8 -> 1 from 20031 to 20031 + 19531 =
# 39562 and reaches NPU 1 at 20031 + 20031 = 40062; NPU 2's waits in the FIFO
# until 39562 and reaches NPU 1 at 39562 + 20031 = 59593. Dimension 1, ring
# of 2, link 1 -> 5: trunc(1000 + 9765.625) = 10765 per hop, busy 9765;
# NPU 0's: 40062 + 10765 = 50827 (link free at 49827); NPU 2's starts at
# 59593, arrives 59593 + 10765 = 70358. Utilisation = busy / 70358:
# 19531 -> 0.277595, 39062 -> 0.555189, 19530 -> 0.27758.
SR="$T/switch4_ring2.yml"
printf 'topology: [ Switch, Ring ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 100 ]\nlatency: [ 500, 1000 ]\n' >"$SR"
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 5 --size 1MiB --out "$T/c/c" >/dev/null &&
    "$VIMANA_ET" generate send-recv --npus 8 --src 2 --dst 5 --size 1MiB --out "$T/d/d" >/dev/null ||
    fail "generate flows"
mkdir -p "$T/fifo"
for i in 0 1 3 4 6 7; do cp "$T/c/c.$i.et" "$T/fifo/f.$i.et"; done
cp "$T/d/d.2.et" "$T/fifo/f.2.et"
merge_two "$T/c/c.5.et" "$T/d/d.5.et" "$T/fifo/f.5.et" || fail "merge receives"
expect_ok run_ca "$T/fifo/f" "$SR" --report="$T/fifo.csv"
finished 0 50827
finished 2 70358
finished 5 70358
# 8 -> 1 carried both (busy 2 x 19531), 1 -> 5 both (busy 2 x 9765).
# Devices by their default names (switch 8 is "switch0"). NPU 2's message
# waited 19531 ticks for 8 -> 1 (NPU 0's held it): worst and total 19531.
printf 'src_device,dst_device,bytes,messages,busy_ticks,utilisation,src,dst,max_queue_ticks,queue_ticks,ecn_marks,pause_ticks\n0,8,1048576,1,19531,0.277595,npu0,switch0,0,0,0,0\n2,8,1048576,1,19531,0.277595,npu2,switch0,0,0,0,0\n8,1,2097152,2,39062,0.555189,switch0,npu1,19531,19531,0,0\n1,5,2097152,2,19530,0.27758,npu1,npu5,0,0,0,0\n' \
    >"$T/want.csv"
cmp -s "$T/want.csv" "$T/fifo.links.csv" || fail "FIFO links (CSV): $(cat "$T/fifo.links.csv")"

# ---- a 2-D all-reduce the reference's congestion-aware model refuses -------
# 1 MiB ring all-reduce on Ring 4 (50 GB/s, 500 ns) x Switch 2 (10 GB/s,
# 1000 ns), a ring per dimension. Both backends give every NPU the same
# time; congestion_aware charges both Switch hops in full (serialisation
# twice), so it is slower than the congestion-unaware analytical backend.
RS10="$T/ring4_switch2_10.yml"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 10 ]\nlatency: [ 500, 1000 ]\n' >"$RS10"
sed 's/\["ring"\]/["ring", "ring"]/' "$SYS" >"$T/ring2d.json"
grep -q '"all-reduce-implementation": \["ring", "ring"\]' "$T/ring2d.json" || fail "2-D system file"
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/ar/ar" >/dev/null || fail "generate all-reduce"
for be in analytical congestion_aware; do
    expect_ok "$VIMANA" --workload-configuration="$T/ar/ar" --system-configuration="$T/ring2d.json" \
        --network-configuration="$RS10" --network-backend=$be
    grep -o 'finished, [0-9]* cycles' "$T/out" | sort -u >"$T/$be.fin"
done
expect_eq "$(cat "$T/analytical.fin")" "finished, 88760 cycles" "2-D all-reduce, analytical"
expect_eq "$(cat "$T/congestion_aware.fin")" "finished, 94986 cycles" "2-D all-reduce, congestion_aware"
cu=$(sed 's/[^0-9]//g' "$T/analytical.fin") ca=$(sed 's/[^0-9]//g' "$T/congestion_aware.fin")
[ "${ca:-0}" -ge "${cu:-1}" ] || fail "congestion_aware ($ca) faster than analytical ($cu)"
[ "$(grep -c 'finished, 94986 cycles' "$T/out")" = 8 ] || fail "not all 8 NPUs finish at 94986"

# ---- the backend check passes on a 2-D network -------------------------------
expect_ok "$VIMANA" backend-check congestion_aware --network-configuration="$RS"
expect_eq "$(cat "$T/out")" "vimana backend-check: congestion_aware 1.5: 14 checks passed" "backend-check summary"

# Too many links: FullyConnected 4096 x Ring 2 needs 8192 x 4096 + 2 x 8192
# directed links, more than 4096 x 4096 = 16777216; one line naming the key.
BIG="$T/fc4096_ring2.yml"
printf 'topology: [ FullyConnected, Ring ]\nnpus_count: [ 4096, 2 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >"$BIG"
expect_error "vimana backend-check: FAIL: init: init() returned status 1 for $BIG: $BIG: npus_count: this network needs more than 16777216 links, more than the congestion_aware backend supports" \
    "$VIMANA" backend-check congestion_aware --network-configuration="$BIG"
finish
