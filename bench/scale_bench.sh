#!/bin/sh
# Scale benchmarks of issue 14. Run from a build tree after `make`:
#   ../bench/scale_bench.sh [BEFORE_BUILD_DIR] [small|all]
# Cases (congestion-unaware analytical backend, ring per dimension):
#   1 MiB all-reduce on a 1-D Switch of 1024 and 4096 NPUs (ring.json);
#   64 MiB all-reduce on 3-D Switch hierarchies 8x8x16, 8x8x64, 8x8x256
#   (1024, 4096, 16384 NPUs; ring-ring-ring.json); `small` skips the
#   4096-NPU 1-D and the 16384-NPU cases.
#   and 64 MiB all-reduce on 8x8x16384 (1,048,576 NPUs), single file and
#   reduced simulation only (with BEFORE_BUILD_DIR, that build too).
# Each case runs with this build on the single-file workload (PREFIX.et,
# written by `vimana-et generate --single-file`) with symmetry (the reduced
# simulation) and with --no-symmetry, and on per-rank copies of that file
# (identical PREFIX.i.et, shared by content hash); with BEFORE_BUILD_DIR
# (e.g. a build of the previous commit) also that build on the same
# per-rank copies. Every run's per-NPU report lines must be identical (the
# reduced run prints the NPUs in NPU order, the full run as they finish
# within the last tick, so the lines are compared sorted by NPU). Prints one
# row per run: wall time, CPU time (user + sys), peak RSS, load time (from
# --run-stats), messages + events and CPU ns per message+event, and the
# machine's load average. Workloads go to $BENCH_DIR/scale (default
# /tmp/vimana-bench/scale) and are reused.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
before=${1:-}
which=${2:-all}
dir=${BENCH_DIR:-/tmp/vimana-bench}/scale
mkdir -p "$dir"
[ -x "$build/vimana" ] || { echo "run from a build tree (no ./vimana here)" >&2; exit 2; }
[ -z "$before" ] || [ -x "$before/vimana" ] || { echo "$before: no vimana there" >&2; exit 2; }

workload() { # NPUS SIZE NAME: NAME/one.et and NAME/rank.0.et ... copies of it
    [ -f "$dir/$3/one.et" ] ||
        "$build/vimana-et" generate all-reduce --npus "$1" --size "$2" --single-file --out "$dir/$3/one" >/dev/null
    i=0
    while [ "$i" -lt "$1" ]; do
        [ -f "$dir/$3/rank.$i.et" ] || cp "$dir/$3/one.et" "$dir/$3/rank.$i.et"
        i=$((i + 1))
    done
}

network() { # NAME TOPOLOGY COUNTS BANDWIDTHS LATENCIES
    printf 'topology: [ %s ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]\nlatency: [ %s ]\n' "$2" "$3" "$4" "$5" \
        >"$dir/$1.yml"
}

run() { # LABEL BUILD WORKLOAD SYSTEM NETWORK [FLAGS...]
    label=$1 bin=$2 wl=$3 sys=$4 net=$5
    shift 5
    out="$dir/out.$$" err="$dir/err.$$"
    /usr/bin/time -f 'TIME %e %U %S %M' "$bin/vimana" --workload-configuration="$wl" --system-configuration="$sys" \
        --network-configuration="$dir/$net.yml" --network-backend=analytical --run-stats "$@" >"$out.raw" 2>"$err" ||
        { echo "scale_bench: $label failed:" >&2; cat "$err" >&2; exit 1; }
    sed 's/^sys\[\([0-9]*\)\]/\1 &/' "$out.raw" | sort -s -n -k1,1 >"$out"
    rm -f "$out.raw"
    if [ -f "$dir/expected.out" ]; then
        cmp -s "$out" "$dir/expected.out" || { echo "scale_bench: $label: output differs" >&2; exit 1; }
    else
        cp "$out" "$dir/expected.out"
    fi
    awk -v label="$label" '
        /messages\+events/ {
            for (i = 1; i <= NF; i++) {
                if ($(i + 1) == "messages,") m = $i
                if ($(i + 1) == "system") e = $i
                if ($i == "loaded" && $(i + 1) == "in") load = $(i + 2)
            }
        }
        /^TIME/ { wall = $2; cpu = $3 + $4; rss = $5 }
        END { printf "%-44s wall %6.2f s  CPU %6.2f s  RSS %7.1f MiB  load %6.3f s  %11d msg+ev  %6.1f ns/msg+ev\n",
                     label, wall, cpu, rss / 1024, load, m + e, cpu * 1e9 / (m + e) }' "$err"
    grep '^vimana: symmetry' "$err" | sed 's/(.*)/(...)/; s/^/    /' | cut -c1-120
    rm -f "$out" "$err"
}

case_() { # LABEL NPUS SIZE NAME SYSTEM NETWORK
    workload "$2" "$3" "$4"
    rm -f "$dir/expected.out"
    echo "== $1 ($2 NPUs); $(uptime | sed 's/.*load/load/')"
    run "  after, single file" "$build" "$dir/$4/one" "$5" "$6"
    run "  after, single file, --no-symmetry" "$build" "$dir/$4/one" "$5" "$6" --no-symmetry
    # the page and inode caches warm for both per-rank runs alike (the first
    # run after a long one otherwise pays for reading the directory again)
    cat "$dir/$4"/rank.*.et >/dev/null
    run "  after, $2 identical per-rank files" "$build" "$dir/$4/rank" "$5" "$6"
    cat "$dir/$4"/rank.*.et >/dev/null
    [ -z "$before" ] || run "  before, $2 identical per-rank files" "$before" "$dir/$4/rank" "$5" "$6"
}

ring="$src/inputs/system/ring.json"
ring3="$src/inputs/system/ring-ring-ring.json"
network sw1024 Switch 1024 50 500
network sw4096 Switch 4096 50 500
network sw3d_1024 "Switch, Switch, Switch" "8, 8, 16" "50, 50, 50" "500, 500, 500"
network sw3d_4096 "Switch, Switch, Switch" "8, 8, 64" "50, 50, 50" "500, 500, 500"
network sw3d_16384 "Switch, Switch, Switch" "8, 8, 256" "50, 50, 50" "500, 500, 500"
case_ "1 MiB ring all-reduce, Switch 1024" 1024 1MiB ar1m_1024 "$ring" sw1024
case_ "64 MiB all-reduce, Switch 8x8x16" 1024 64MiB ar64m_1024 "$ring3" sw3d_1024
case_ "64 MiB all-reduce, Switch 8x8x64" 4096 64MiB ar64m_4096 "$ring3" sw3d_4096
[ "$which" = small ] && exit 0
case_ "1 MiB ring all-reduce, Switch 4096" 4096 1MiB ar1m_4096 "$ring" sw4096
case_ "64 MiB all-reduce, Switch 8x8x256" 16384 64MiB ar64m_16384 "$ring3" sw3d_16384
# A million NPUs: one file, the reduced simulation only.
network sw3d_1m "Switch, Switch, Switch" "8, 8, 16384" "50, 50, 50" "500, 500, 500"
[ -f "$dir/ar64m_1m/one.et" ] ||
    "$build/vimana-et" generate all-reduce --npus 1048576 --size 64MiB --single-file --out "$dir/ar64m_1m/one" >/dev/null
rm -f "$dir/expected.out"
echo "== 64 MiB all-reduce, Switch 8x8x16384 (1048576 NPUs); $(uptime | sed 's/.*load/load/')"
run "  after, single file" "$build" "$dir/ar64m_1m/one" "$ring3" sw3d_1m
[ -z "$before" ] || run "  before, single file" "$before" "$dir/ar64m_1m/one" "$ring3" sw3d_1m
