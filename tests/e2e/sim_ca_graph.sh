#!/bin/sh
# congestion_aware on topology graphs read from a file (ns-3 topology .txt):
# shortest-path routes with the toolkit's ECMP choice, store-and-forward,
# one FIFO per directed link. Every time below is derived by hand.
#
# tests/data/topology/fat_tree_8.txt: NPUs 0-3 under leaf 8, NPUs 4-7 under
# leaf 9, both leaves up to spines 10 and 11. NPU-leaf links 400Gbps =
# 50 B/ns, 500 ns; leaf-spine links 800Gbps = 100 B/ns, 1000 ns.
# 1 MiB = 1048576 B: serialisation 20971.52 ns on an NPU link, 10485.76 ns
# on a leaf-spine link. A hop costs trunc(latency + serialisation) =
# 21471 (NPU link) or 11485 (leaf-spine) and holds its link 20971 or 10485.
# Devices in --report: NPUs 0-7, then the switches by node id (8-11).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
DATA="$VIMANA_SRCDIR/tests/data/topology"
FT="$DATA/fat_tree_8.txt"
NET="$VIMANA_SRCDIR/inputs/network"

# finished NPU CYCLES
finished() {
    expect_eq "$(grep -c "^sys\[$1\] finished, $2 cycles, exposed communication $2 cycles\.$" "$T/out")" 1 \
        "sys[$1] finished at $2"
}

# all_finished TICKS NPU...: each NPU finished at TICKS.
all_finished() {
    ticks=$1
    shift
    for npu in "$@"; do
        finished "$npu" "$ticks"
    done
}

run_ca() { # WORKLOAD NETWORK [OPTIONS]
    w=$1 n=$2
    shift 2
    sim_run "$w" "$SYS" "$n" --network-backend=congestion_aware "$@"
}

# link CSV SRC DST: the "bytes,messages,busy_ticks" of one link record.
link() {
    awk -F, -v s="$2" -v d="$3" '$1 == s && $2 == d { print $3 "," $4 "," $5 }' "$1"
}
# queued CSV SRC DST: its "src,dst,max_queue_ticks,queue_ticks".
queued() {
    awk -F, -v s="$2" -v d="$3" '$1 == s && $2 == d { print $7 "," $8 "," $9 "," $10 }' "$1"
}

# ---- (a) a 4-hop path through the fat-tree -----------------------------------
# NPU 0 -> NPU 4: 0 -> leaf 8 -> a spine -> leaf 9 -> 4. At leaf 8 two spines
# are equally short; the ECMP hash of (0, 4) is even, so the first one in
# link order, spine 10. 21471 + 11485 + 11485 + 21471 = 65912.
# Utilisation = busy / 65912: 20971 -> 0.318167, 10485 -> 0.159076.
flows 8 "$T/a/a" 0:4 || fail "flows (a)"
expect_ok run_ca "$T/a/a" "$FT" --report="$T/a.json"
all_finished 65912 0 4
expect_tail "$T/a.json" "4-hop links (JSON)" <<'JSON'
"network": {"dimensions": [{"dim": 0, "npus": 8, "bandwidth_gbps": 46.566128730773926}], "num_links": 24},
"links": [
{"src_device": 0, "dst_device": 8, "bytes": 1048576, "messages": 1, "busy_ticks": 20971, "utilisation": 0.318167, "src": "npu0", "dst": "switch8", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 9, "dst_device": 4, "bytes": 1048576, "messages": 1, "busy_ticks": 20971, "utilisation": 0.318167, "src": "switch9", "dst": "npu4", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 8, "dst_device": 10, "bytes": 1048576, "messages": 1, "busy_ticks": 10485, "utilisation": 0.159076, "src": "switch8", "dst": "switch10", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 10, "dst_device": 9, "bytes": 1048576, "messages": 1, "busy_ticks": 10485, "utilisation": 0.159076, "src": "switch10", "dst": "switch9", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0}
]
}
JSON
# The dimension's bandwidth in --report is the slowest link from NPU 0 to
# NPU 1 (400Gbps = 50e9 / 2^30 GB/s); 12 link lines = 24 directed links.

# ---- (b) two flows share one link: the second waits (FIFO) -------------------
# 0 -> 5 and 2 -> 6: both hashes are even, both take spine 10. Both reach
# leaf 8 at 21471 (separate NPU links); NPU 0's arrival was scheduled first,
# so it takes 8 -> 10 first: free at 21471 + 10485 = 31956, at the spine at
# 21471 + 11485 = 32956, leaf 9 at 44441, NPU 5 at 44441 + 21471 = 65912.
# NPU 2's waits in the FIFO until 31956: spine at 43441; 10 -> 9 is free at
# 32956 + 10485 = 43441, the same tick: it crosses at once, leaf 9 at 54926,
# NPU 6 at 54926 + 21471 = 76397 = 65912 + 10485 (the wait). The queueing
# columns say so: 8 -> 10 worst and total wait 10485, 10 -> 9 none.
flows 8 "$T/b/b" 0:5 2:6 || fail "flows (b)"
expect_ok run_ca "$T/b/b" "$FT" --report="$T/b.csv"
all_finished 65912 0 5
all_finished 76397 2 6
expect_eq "$(link "$T/b.links.csv" 8 10)" "2097152,2,20970" "(b) 8 -> 10 carried both"
expect_eq "$(link "$T/b.links.csv" 10 9)" "2097152,2,20970" "(b) 10 -> 9 carried both"
expect_eq "$(link "$T/b.links.csv" 8 11)" "" "(b) spine 11 unused"
expect_eq "$(queued "$T/b.links.csv" 8 10)" "switch8,switch10,10485,10485" "(b) the wait on 8 -> 10"
expect_eq "$(queued "$T/b.links.csv" 10 9)" "switch10,switch9,0,0" "(b) no wait on 10 -> 9"

# ---- (c) ECMP: two flows between the same leaves over two spines -----------
# 0 -> 5 hashes even (spine 10), 1 -> 4 odd (spine 11): no link in common,
# so neither waits: both take 65912 as the lone flow of (a).
flows 8 "$T/c/c" 0:5 1:4 || fail "flows (c)"
expect_ok run_ca "$T/c/c" "$FT" --report="$T/c.csv"
all_finished 65912 0 1 4 5
expect_eq "$(link "$T/c.links.csv" 8 10)" "1048576,1,10485" "(c) spine 10 carried one"
expect_eq "$(link "$T/c.links.csv" 8 11)" "1048576,1,10485" "(c) spine 11 carried one"
expect_eq "$(link "$T/c.links.csv" 10 9)" "1048576,1,10485" "(c) 10 -> 9"
expect_eq "$(link "$T/c.links.csv" 11 9)" "1048576,1,10485" "(c) 11 -> 9"

# ---- (d) incast on one switch port -------------------------------------------
# NPUs 1, 2, 3 each send 1 MiB to NPU 0 (all under leaf 8). All reach the
# leaf at 21471, in NPU order; the down-port 8 -> 0 takes them one by one:
# 1: 21471 -> arrives 42942, port free at 42442;
# 2: 42442 -> arrives 63913, free at 63413;
# 3: 63413 -> arrives 84884. NPU 0 has all three at 84884.
# Waits on the port: 0, 42442 - 21471 = 20971 and 63413 - 21471 = 41942:
# worst 41942, total 62913.
flows 8 "$T/d/d" 1:0 2:0 3:0 || fail "flows (d)"
expect_ok run_ca "$T/d/d" "$FT" --report="$T/d.csv"
finished 1 42942
finished 2 63913
all_finished 84884 3 0
expect_eq "$(link "$T/d.links.csv" 8 0)" "3145728,3,62913" "(d) the down-port to NPU 0"
expect_eq "$(queued "$T/d.links.csv" 8 0)" "switch8,npu0,41942,62913" "(d) the waits on the down-port"
expect_eq "$(queued "$T/d.links.csv" 1 8)" "npu1,switch8,0,0" "(d) no wait on an up-link"

# ---- (e) the shipped topologies ----------------------------------------------
# Point-to-point first, by hand. fat_tree_64.txt: every link 400Gbps
# (50 B/ns), 500 ns; NPU 0 -> NPU 8 is npu -> leaf -> spine -> leaf -> npu,
# 4 x 21471 = 85884. rail_32.txt: NPU 0 -> NPU 8 (GPU 0 of boxes 0 and 1)
# is the rail: 0 -> leaf 36 -> 8, NICs at 400Gbps, 500 ns: 2 x 21471 =
# 42942; NPU 0 -> NPU 1 crosses the NVSwitch (3600Gbps = 450 B/ns, 250 ns):
# 2 x trunc(250 + 2330.168...) = 2 x 2580 = 5160.
p2p() { # NPUS SRC DST TOPOLOGY CYCLES
    "$VIMANA_ET" generate send-recv --npus "$1" --src "$2" --dst "$3" --size 1MiB --out "$T/p$1_$2_$3/p" \
        >/dev/null || fail "generate p2p"
    expect_ok run_ca "$T/p$1_$2_$3/p" "$4"
    finished "$2" "$5"
    finished "$3" "$5"
}
p2p 64 0 8 "$NET/fat_tree_64.txt" 85884
p2p 32 0 8 "$NET/rail_32.txt" 42942
p2p 32 0 1 "$NET/rail_32.txt" 5160

# The same graph as a network YAML: a star of 8 NPUs on one switch is the
# YAML's "Switch 8" (an up-link and a down-link per NPU, same bandwidth and
# latency), so a 1 MiB all-reduce and all-to-all take exactly as long on
# both: the graph path reproduces the dimension model hop for hop.
SW8="$T/switch8.yml"
printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 46.566128730773926 ]\nlatency: [ 500 ]\n' >"$SW8"
for coll in all-reduce all-to-all; do
    "$VIMANA_ET" generate $coll --npus 8 --size 1MiB --out "$T/$coll-8/c" >/dev/null || fail "generate $coll"
    expect_ok run_ca "$T/$coll-8/c" "$SW8"
    grep 'finished' "$T/out" | sort >"$T/yaml.fin"
    expect_ok run_ca "$T/$coll-8/c" "$DATA/star_8.txt"
    grep 'finished' "$T/out" | sort >"$T/graph.fin"
    cmp -s "$T/yaml.fin" "$T/graph.fin" || fail "$coll: star graph differs from Switch 8: $(head -1 "$T/graph.fin")"
done
expect_eq "$(sed 's/^sys\[[0-9]*\] //' "$T/graph.fin" | sort -u)" \
    "finished, 259880 cycles, exposed communication 259880 cycles." "all-to-all on the star"

# Collectives on the shipped graphs, 1 MiB, ring algorithms per logical
# dimension (both files declare 2: 8 x 8 and 8 x 4). Links are shared, so
# NPUs end at different ticks: the last finish and the sum of all finishes
# are asserted (regression values; the routes and hop times they are made
# of are the ones checked by hand above and by the star case).
sed 's/\["ring"\]/["ring", "ring"]/' "$SYS" >"$T/ring2d.json"
coll_on() { # COLL NPUS TOPOLOGY "LAST SUM"
    "$VIMANA_ET" generate "$1" --npus "$2" --size 1MiB --out "$T/$1-$2/c" >/dev/null || fail "generate $1 $2"
    expect_ok "$VIMANA" --workload-configuration="$T/$1-$2/c" --system-configuration="$T/ring2d.json" \
        --network-configuration="$3" --network-backend=congestion_aware
    expect_eq "$(sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" |
        awk '$1 > m { m = $1 } { s += $1; n++ } END { print n, m, s }')" "$2 $4" "$1 on $(basename "$3")"
}
coll_on all-reduce 64 "$NET/fat_tree_64.txt" "191229 12094776"
coll_on all-to-all 64 "$NET/fat_tree_64.txt" "594995 37795225"
coll_on all-reduce 32 "$NET/rail_32.txt" "91724 2935168"
coll_on all-to-all 32 "$NET/rail_32.txt" "105482 3375424"
# The rail cluster's logical rings are a YAML network in disguise: in
# dimension 0 (GPUs of a box) a ring neighbour is 2 hops through the box's
# NVSwitch (3600Gbps = 450e9 / 2^30 GB/s, 250 ns), in dimension 1 (boxes)
# 2 hops through the rail's leaf (400Gbps, 500 ns), and no shortest route
# between ring neighbours touches a spine. So congestion_aware on
# "Switch 8 x Switch 4" with those numbers gives every NPU the same time.
RAIL="$T/rail.yml"
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 4 ]\nbandwidth: [ 419.09515857696533, 46.566128730773926 ]\nlatency: [ 250, 500 ]\n' >"$RAIL"
for coll in all-reduce all-to-all; do
    expect_ok "$VIMANA" --workload-configuration="$T/$coll-32/c" --system-configuration="$T/ring2d.json" \
        --network-configuration="$RAIL" --network-backend=congestion_aware
    grep 'finished' "$T/out" | sort >"$T/yaml.fin"
    expect_ok "$VIMANA" --workload-configuration="$T/$coll-32/c" --system-configuration="$T/ring2d.json" \
        --network-configuration="$NET/rail_32.txt" --network-backend=congestion_aware --report="$T/rail.json"
    grep 'finished' "$T/out" | sort >"$T/graph.fin"
    cmp -s "$T/yaml.fin" "$T/graph.fin" || fail "$coll: rail_32.txt differs from Switch 8 x Switch 4"
done
# --report's dimension bandwidth on a graph: the slowest link from NPU 0 to
# its neighbour in the dimension: the NVSwitch for GPUs of a box, the NIC
# for boxes. 80 link lines = 160 directed links.
expect_eq "$(grep -o '"network": .*' "$T/rail.json")" \
    '"network": {"dimensions": [{"dim": 0, "npus": 8, "bandwidth_gbps": 419.09515857696533}, {"dim": 1, "npus": 4, "bandwidth_gbps": 46.566128730773926}], "num_links": 160},' \
    "rail_32.txt: dimensions in --report"

# ---- a 2-D all-reduce on a graph, never faster than congestion-unaware --------
# torus_4x4.txt: 800Gbps (100 B/ns = 1e11 / 2^30 GB/s exactly) and 500 ns per
# link, dims 4 x 4. The congestion-unaware analytical backend on the
# equivalent Ring 4 x Ring 4 YAML costs no queueing; congestion_aware on the
# graph cannot be faster. Here it is not slower either: a ring all-reduce
# per dimension only talks to torus neighbours (one hop, one message per
# link at a time), so both give 75200.
R44="$T/ring4_ring4.yml"
printf 'topology: [ Ring, Ring ]\nnpus_count: [ 4, 4 ]\nbandwidth: [ 93.1322574615478515625, 93.1322574615478515625 ]\nlatency: [ 500, 500 ]\n' >"$R44"
"$VIMANA_ET" generate all-reduce --npus 16 --size 1MiB --out "$T/ar16/c" >/dev/null || fail "generate ar16"
expect_ok "$VIMANA" --workload-configuration="$T/ar16/c" --system-configuration="$T/ring2d.json" \
    --network-configuration="$R44" --network-backend=analytical
cu=$(grep -o 'finished, [0-9]* cycles' "$T/out" | sort -u | sed 's/[^0-9]//g')
expect_ok "$VIMANA" --workload-configuration="$T/ar16/c" --system-configuration="$T/ring2d.json" \
    --network-configuration="$NET/torus_4x4.txt" --network-backend=congestion_aware
ca=$(grep -o 'finished, [0-9]* cycles' "$T/out" | sort -u | sed 's/[^0-9]//g')
expect_eq "$cu" 75200 "torus all-reduce, analytical on the YAML"
expect_eq "$ca" 75200 "torus all-reduce, congestion_aware on the graph"
[ "${ca:-0}" -ge "${cu:-1}" ] || fail "congestion_aware ($ca) faster than analytical ($cu)"

# The oversubscribed fat-tree against the congestion-unaware backend on
# "Switch 8 x Switch 8" with its link bandwidth and latency (no spines, no
# queueing): the graph is slower for both collectives (all-reduce 191229
# against 148340, all-to-all 594995 against 233150).
SW88="$T/switch8x8.yml"
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 8 ]\nbandwidth: [ 46.566128730773926, 46.566128730773926 ]\nlatency: [ 500, 500 ]\n' >"$SW88"
for c in all-reduce:191229 all-to-all:594995; do
    expect_ok "$VIMANA" --workload-configuration="$T/${c%:*}-64/c" --system-configuration="$T/ring2d.json" \
        --network-configuration="$SW88" --network-backend=analytical
    cu=$(sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" | sort -n | tail -n 1)
    [ "${c#*:}" -ge "${cu:-999999999}" ] || fail "${c%:*}: fat-tree graph (${c#*:}) faster than analytical ($cu)"
done
expect_eq "$cu" 233150 "all-to-all, analytical on Switch 8 x Switch 8"

# ---- (f) bad topology files: one line naming file and line -------------------
bad() { # FILE MESSAGE
    expect_error "vimana: error: $DATA/$1:$2" run_ca "$T/a/a" "$DATA/$1"
    expect_eq "$(wc -l <"$T/err")" 1 "$1: one line on stderr"
}
bad unknown_node.txt "6: link 2 -> 7: unknown node 7 (the topology has 4 nodes)"
bad disconnected.txt "5: NPU 2 (node 2) cannot reach NPU 0 (node 0): the network is disconnected"
bad zero_bandwidth.txt "3: link 0 -> 2: rate '0Gbps' must be above zero"
bad duplicate.txt "5: link 2 -> 0 is listed twice (first on line 3); a link line is both directions"
# A route that would end after 2^64-1 ns is refused when sent, naming the
# hop: 4 GiB over 1 bit/s is 2^32 x 8e9 ns > 2^64 (2 GiB, 1.7e19 ns, fits).
"$VIMANA_ET" generate send-recv --npus 2 --src 0 --dst 1 --size 4GiB --out "$T/big/p" >/dev/null ||
    fail "generate 4 GiB"
expect_error "vimana: congestion_aware: error: $DATA/slow_link.txt: a message of 4294967296 bytes from NPU 0 to NPU 1 would arrive after 2^64-1 ns, the longest time Vimana can simulate (bandwidth 1.16415e-10 GB/s, latency 0 ns)" \
    run_ca "$T/big/p" "$DATA/slow_link.txt"
expect_eq "$(wc -l <"$T/err")" 1 "late arrival: one line on stderr"
# 2 GiB is past the quick bound (4 x below the limit) but fits when walked:
# 2^31 B / 1.25e-10 B/ns = 1.7179869184e19 ns, as a double quotient
# 17179869183999997952.
"$VIMANA_ET" generate send-recv --npus 2 --src 0 --dst 1 --size 2GiB --out "$T/big2/p" >/dev/null ||
    fail "generate 2 GiB"
expect_ok run_ca "$T/big2/p" "$DATA/slow_link.txt"
finished 1 17179869183999997952

# The Custom network YAML form: the shipped fat-tree with dims 16 x 4
# instead of its own 8 x 8; --report shows the YAML's dimensions.
"$VIMANA_ET" generate all-reduce --npus 64 --size 1MiB --out "$T/ar64/c" >/dev/null || fail "generate ar64"
expect_ok "$VIMANA" --workload-configuration="$T/ar64/c" --system-configuration="$T/ring2d.json" \
    --network-configuration="$DATA/custom.yml" --network-backend=congestion_aware --report="$T/custom.json"
expect_eq "$(grep -c 'finished, ' "$T/out")" 64 "Custom YAML: 64 NPUs finish"
expect_eq "$(grep -o '"dimensions": [^]]*]' "$T/custom.json")" \
    '"dimensions": [{"dim": 0, "npus": 16, "bandwidth_gbps": 46.566128730773926}, {"dim": 1, "npus": 4, "bandwidth_gbps": 46.566128730773926}]' \
    "Custom YAML: dimensions in --report"
# The backend check passes on a graph.
expect_ok "$VIMANA" backend-check congestion_aware --network-configuration="$NET/rail_32.txt"
expect_eq "$(cat "$T/out")" "vimana backend-check: congestion_aware 1.5: 14 checks passed" "backend-check on a graph"

# NPU count against the traces: the host names the topology file and both
# counts, in one line. Fewer traces (4) than the topology's 8 NPUs is an
# error; more (16) a warning, and the extra ranks are not run (as for a
# network YAML: the reference ignores them).
"$VIMANA_ET" generate all-reduce --npus 4 --size 1MiB --out "$T/ar4/c" >/dev/null || fail "generate ar4"
expect_error "vimana: error: workload file: $T/ar4/c.4.et does not exist (fewer traces than NPUs: the network $FT has 8 NPUs, the workload 4 traces; it needs $T/ar4/c.0.et to $T/ar4/c.7.et)" \
    run_ca "$T/ar4/c" "$FT"
expect_eq "$(wc -l <"$T/err")" 1 "fewer traces: one line on stderr"
expect_ok run_ca "$T/ar16/c" "$FT"
expect_eq "$(cat "$T/err")" "vimana: warning: $T/ar16/c.8.et: 8 trace files from NPU 8 up ignored: the network $FT has only 8 NPUs" \
    "more traces: one warning"
finish
