#!/bin/sh
# vimana calibrate's fit on published nccl-tests tables (tests/data/nccl-tests):
# a one-node fit (HGX B200, 8 GPUs, all-reduce: one dimension, the ring's
# steps summed at once) and a two-node one (2 x 8 A100, NCCL's flat ring
# over NVLink and the NIC: the closed form runs the ring's recurrence, the
# costly case). Each case: wall, user and system time and peak RSS
# (bench_run). With BEFORE_BUILD, that build runs each case too, alternately
# with this one, and the presets and reports the two write are compared.
# Run from a build tree after `make bench`:
#   sh ../bench/calibrate_bench.sh [BEFORE_BUILD]
set -eu
build=$(pwd)
[ -x "$build/bench/bench_run" ] || { echo "run 'make bench' in the build tree first" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
before=${1:-}
D="$src/tests/data/nccl-tests"
dir=${BENCH_DIR:-/tmp/vimana-bench}/calibrate
rm -rf "$dir"
mkdir -p "$dir"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 900.0 ]\nlatency: [ 250.0 ]\n' >"$dir/b200.yml"
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 2 ]\nbandwidth: [ 300.0, 25.0 ]\nlatency: [ 250.0, 1000.0 ]\n' \
    >"$dir/a100x2.yml"
printf '{"preferred-dataset-splits": 1, "all-reduce-implementation": ["nccl"], "nccl": {"nvls": 0}}\n' \
    >"$dir/no-nvls.json"

# run WHICH BUILD LABEL TABLE NETWORK [SYSTEM]
run() {
    which=$1 tree=$2 label=$3 table=$4 net=$5 sys=${6:-}
    out="$dir/$which-$label"
    rm -rf "$out"
    # shellcheck disable=SC2086
    "$build/bench/bench_run" "$label ($which)" "$tree/vimana" calibrate "$table" --topology "$net" \
        ${sys:+--system "$sys"} -o "$out" --max-error off
}

# compare LABEL: the two builds' presets and reports, byte for byte
compare() {
    for f in system.json network.yml fit-report.md; do
        cmp -s "$dir/before-$1/$f" "$dir/after-$1/$f" || { echo "$1: $f differs between the builds" >&2; exit 1; }
    done
    echo "$1: the same preset and report from both builds"
}

for c in "b200-ar8 $D/b200-8gpu_all_reduce_perf.txt $dir/b200.yml" \
    "a100-2node $D/a100-16gpu-2node_all_reduce_perf.txt $dir/a100x2.yml $dir/no-nvls.json"; do
    # shellcheck disable=SC2086
    set -- $c
    if [ -n "$before" ]; then
        run before "$before" "$@"
        run after "$build" "$@"
        run before "$before" "$@"
        run after "$build" "$@"
        compare "$1"
    else
        run after "$build" "$@"
    fi
done
