#!/bin/sh
# Simulator benchmarks (issues 3 and 4). Run from a build tree after
# `make bench`:   ../bench/sim_bench.sh [small|all]
#   1 MiB ring all-reduce on a Switch of 1024 and 4096 NPUs (tutorial system);
#   64 MiB all-reduce on a 3-D Switch hierarchy 8x8xN for N = 16, 64, 256
#   (1024, 4096, 16384 NPUs), ring per dimension, congestion-unaware;
#   16 MiB direct all-to-all on a Switch of 1024 NPUs, congestion_aware
#   (issue 11); 1 GiB all-reduce and all-to-all on the 64-NPU fat-tree and
#   the 32-NPU rail cluster (inputs/network/*.txt), congestion_aware.
# Workloads go to $BENCH_DIR (default /tmp/vimana-bench) and are reused.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
dir=${BENCH_DIR:-/tmp/vimana-bench}
which=${1:-all}
mkdir -p "$dir"
[ -x "$build/bench/bench_run" ] || { echo "run 'make bench' in the build tree first" >&2; exit 2; }

workload() { # NPUS SIZE NAME [KIND]
    [ -f "$dir/$3.$(($1 - 1)).et" ] ||
        "$build/vimana-et" generate "${4:-all-reduce}" --npus "$1" --size "$2" --out "$dir/$3" >/dev/null
}

network() { # NAME TOPOLOGY COUNTS
    printf 'topology: [ %s ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]\nlatency: [ %s ]\n' "$2" "$3" "$4" "$5" \
        >"$dir/$1.yml"
}

run() { # LABEL PREFIX SYSTEM NETWORK [BACKEND]
    "$build/bench/bench_run" "$1" "$build/vimana" --workload-configuration="$dir/$2" \
        --system-configuration="$3" --network-configuration="$dir/$4.yml" --run-stats \
        --network-backend="${5:-analytical}"
}

ring="$src/inputs/system/ring.json"
ring3="$src/inputs/system/ring-ring-ring.json"
workload 1024 1MiB ar1m_1024
network sw1024 Switch 1024 50 500
run "1 MiB ring all-reduce, Switch 1024" ar1m_1024 "$ring" sw1024
workload 1024 64MiB ar64m_1024
network sw3d_1024 "Switch, Switch, Switch" "8, 8, 16" "50, 50, 50" "500, 500, 500"
run "64 MiB all-reduce, Switch 8x8x16" ar64m_1024 "$ring3" sw3d_1024
workload 1024 16MiB a2a16m_1024 all-to-all
run "16 MiB direct all-to-all, Switch 1024, congestion_aware" a2a16m_1024 "$src/inputs/system/direct.json" \
    sw1024 congestion_aware
# Issue 11: the shipped cluster graphs on congestion_aware (shortest paths,
# ECMP): a 1 GiB all-reduce (ring per logical dimension) and a 1 GiB direct
# all-to-all, on the 64-NPU fat-tree (8 x 8) and the 32-NPU rail cluster
# (8 x 4).
sed 's/\["ring"\]/["ring", "ring"]/' "$ring" >"$dir/ring2d.json"
sed 's/\["direct"\]/["direct", "direct"]/' "$src/inputs/system/direct.json" >"$dir/direct2d.json"
run_graph() { # LABEL PREFIX SYSTEM TOPOLOGY
    "$build/bench/bench_run" "$1" "$build/vimana" --workload-configuration="$dir/$2" \
        --system-configuration="$3" --network-configuration="$src/inputs/network/$4" --run-stats \
        --network-backend=congestion_aware
}
for t in fat_tree_64:64 rail_32:32; do
    topo=${t%:*} n=${t#*:}
    workload "$n" 1GiB "ar1g_$n"
    run_graph "1 GiB all-reduce, $topo, congestion_aware" "ar1g_$n" "$dir/ring2d.json" "$topo.txt"
    workload "$n" 1GiB "a2a1g_$n" all-to-all
    run_graph "1 GiB direct all-to-all, $topo, congestion_aware" "a2a1g_$n" "$dir/direct2d.json" "$topo.txt"
done
[ "$which" = small ] && exit 0
workload 4096 1MiB ar1m_4096
network sw4096 Switch 4096 50 500
run "1 MiB ring all-reduce, Switch 4096" ar1m_4096 "$ring" sw4096
workload 4096 64MiB ar64m_4096
network sw3d_4096 "Switch, Switch, Switch" "8, 8, 64" "50, 50, 50" "500, 500, 500"
run "64 MiB all-reduce, Switch 8x8x64" ar64m_4096 "$ring3" sw3d_4096
workload 16384 64MiB ar64m_16384
network sw3d_16384 "Switch, Switch, Switch" "8, 8, 256" "50, 50, 50" "500, 500, 500"
run "64 MiB all-reduce, Switch 8x8x256" ar64m_16384 "$ring3" sw3d_16384
