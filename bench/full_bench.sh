#!/bin/sh
# Issue 26, part 3: the full simulation, before/after in one run. Run from
# a build tree after `make`:
#
#   ../bench/full_bench.sh snapshot DIR           copy this build's simulator to DIR
#   ../bench/full_bench.sh compare DIR [small|all] [REPS]
#                                                 run DIR's copy and this build in turn,
#                                                 REPS times each (default 3)
#
# Cases, every one with --no-symmetry (each NPU simulated):
#   resnet50-cu, resnet50-ca  the ResNet-50 data-parallel text workload
#                             (tests/data/text/resnet50_data_parallel.txt)
#                             converted for 64 NPUs and 10 passes, on a Ring of
#                             64 (50 GB/s, 500 ns), ring.json; analytical and
#                             congestion_aware
#   ring1k, ring2k            1 MiB ring all-reduce on a Switch of 1024 and 2048
#                             NPUs (ring.json, analytical)
#   ring3d-4k                 64 MiB all-reduce on Switch 8x8x64, ring per dimension
# `all` adds ring4k (1-D, 4096 NPUs, 335 M messages) and ring3d-16k
# (8x8x256): ns per message+event from 1K to 16K NPUs. One line more runs
# the ResNet-50 case reduced (without --no-symmetry) on this build (the
# reduction needs the build's own backend): against the full simulation.
#
# Each run prints CPU time (user + sys), peak RSS, messages + events and CPU
# ns per message+event; before and after alternate so that both see the
# same load (printed first: compare CPU time, not wall time), their outputs
# must be equal, and each case ends with the least CPU time of each side
# (the run the machine's other load disturbed least). Workloads go to $BENCH_DIR/full (default
# /tmp/vimana-bench/full) and are reused.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
dir=${BENCH_DIR:-/tmp/vimana-bench}/full
mode=${1:-}
[ -x "$build/.libs/vimana" ] || { echo "run from a built tree (no .libs/vimana here)" >&2; exit 2; }
. "$src/bench/snapshot.sh"

[ "$mode" = snapshot ] && { bench_snapshot "${2:?usage: full_bench.sh snapshot DIR}"; exit 0; }
[ "$mode" = compare ] || { echo "usage: full_bench.sh snapshot DIR | compare DIR [small|all] [REPS]" >&2; exit 2; }
before=${2:?usage: full_bench.sh compare DIR [small|all] [REPS]}
[ -x "$before/vimana" ] || { echo "$before: not a snapshot (run 'full_bench.sh snapshot $before' first)" >&2; exit 2; }
which=${3:-small}
reps=${4:-3}
current=$(mktemp -d "${TMPDIR:-/tmp}/full_bench.XXXXXX")
trap 'rm -rf "$current"' EXIT
bench_snapshot "$current"
mkdir -p "$dir"

network() { # NAME TOPOLOGY COUNTS BANDWIDTHS LATENCIES
    printf 'topology: [ %s ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]\nlatency: [ %s ]\n' "$2" "$3" "$4" "$5" \
        >"$dir/$1.yml"
}

allreduce() { # NPUS SIZE NAME
    [ -f "$dir/$3.et" ] ||
        "$build/vimana-et" generate all-reduce --npus "$1" --size "$2" --single-file --out "$dir/$3" >/dev/null
}

[ -f "$dir/rn50/r.63.et" ] ||
    "$build/vimana-et" convert text --input "$src/tests/data/text/resnet50_data_parallel.txt" --output "$dir/rn50/r" \
        --num-npus 64 --num-passes 10 >/dev/null
network ring64 Ring 64 50 500
allreduce 1024 1MiB ar1m_1k
network sw1k Switch 1024 50 500
allreduce 2048 1MiB ar1m_2k
network sw2k Switch 2048 50 500
allreduce 4096 64MiB ar64m_4k
network sw3d_4k 'Switch, Switch, Switch' '8, 8, 64' '200, 100, 50' '100, 500, 1000'
if [ "$which" = all ]; then
    allreduce 4096 1MiB ar1m_4k
    network sw4k Switch 4096 50 500
    allreduce 16384 64MiB ar64m_16k
    network sw3d_16k 'Switch, Switch, Switch' '8, 8, 256' '200, 100, 50' '100, 500, 1000'
fi

out="$current/out"
err="$current/err"

run() { # SIDE SNAPSHOT|build LABEL WORKLOAD SYSTEM NETWORK BACKEND [FLAGS...]
    side=$1 snap=$2 label=$3 wl=$4 sys=$5 net=$6 be=$7
    shift 7
    flags=$*   # --no-symmetry or nothing
    if [ "$snap" = build ]; then
        set -- /usr/bin/time -f 'TIME %U %S %M' "$build/vimana"
    else
        set -- bench_sim "$snap" /usr/bin/time -f 'TIME %U %S %M' "$snap/vimana"
    fi
    # shellcheck disable=SC2086
    "$@" --workload-configuration="$dir/$wl" --system-configuration="$src/inputs/system/$sys" \
        --network-configuration="$dir/$net.yml" --network-backend="$be" --run-stats $flags >"$out" 2>"$err" ||
        { echo "full_bench: $label ($side) failed:" >&2; cat "$err" >&2; exit 1; }
    grep -v '^TIME\|messages+events' "$err" >>"$out" || true
    awk -v side="$side" -v label="$label" '
        /messages\+events/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "messages,") m = $i; if ($(i+1) == "system") e = $i } }
        /^TIME/ { cpu = $2 + $3; rss = $4 }
        END { printf "%-11s %-7s CPU %6.2f s, peak RSS %6.1f MiB, %10d messages + %10d events, %5.1f ns per message+event\n",
                     label, side, cpu, rss / 1024, m, e, cpu * 1e9 / (m + e) }' "$err" | tee -a "$current/rows"
}

case_pair() { # LABEL WORKLOAD SYSTEM NETWORK BACKEND
    : >"$current/rows"
    i=0
    while [ "$i" -lt "$reps" ]; do
        run before "$before" "$@" --no-symmetry
        cp "$out" "$current/before.out"
        run after "$current" "$@" --no-symmetry
        cmp -s "$current/before.out" "$out" || { echo "full_bench: $1: outputs differ" >&2; exit 1; }
        i=$((i + 1))
    done
    awk '{ cpu = $4; if (!($2 in best) || cpu < best[$2]) { best[$2] = cpu; row[$2] = $0 } }
         END { for (side in row) if (side == "before") print "least:", row[side];
               for (side in row) if (side == "after") print "least:", row[side] }' "$current/rows"
}

echo "load: $(uptime)"
case_pair resnet50-cu rn50/r ring.json ring64 analytical
case_pair resnet50-ca rn50/r ring.json ring64 congestion_aware
run reduced build resnet50-cu rn50/r ring.json ring64 analytical
case_pair ring1k ar1m_1k ring.json sw1k analytical
case_pair ring2k ar1m_2k ring.json sw2k analytical
case_pair ring3d-4k ar64m_4k ring-ring-ring.json sw3d_4k analytical
if [ "$which" = all ]; then
    case_pair ring4k ar1m_4k ring.json sw4k analytical
    case_pair ring3d-16k ar64m_16k ring-ring-ring.json sw3d_16k analytical
fi
echo "outputs equal; load: $(uptime)"
