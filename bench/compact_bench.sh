#!/bin/sh
# Issue 26: full-scale training steps in the compact form (one trace per
# pipeline stage, PREFIX.roles.json) and the reduced simulation over roles.
# For each case: generate (files, bytes, CPU, peak RSS) and simulate reduced
# (CPU = user + sys, peak RSS, messages, the symmetry line); with `all`, the
# 1024-rank case is also simulated in full (--no-symmetry) and both runs'
# per-NPU lines compared. Run from a build tree after `make bench`:
#   sh ../bench/compact_bench.sh [small|all]
# small: a 1024-rank GPT-3 175B step; default adds the Llama-3-405B-sized
# step on 16,384 H100s, Megatron's 1T on 3,072 A100s and a 100,352-GPU step.
set -eu
build=$(pwd)
[ -x "$build/bench/bench_run" ] || { echo "run 'make bench' in the build tree first" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-default}
dir=${BENCH_DIR:-/tmp/vimana-bench}/compact
mkdir -p "$dir"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# LABEL NODES_PER_NODE NODES SYSTEM -- GENERATOR FLAGS...
bench_case() {
    label=$1 n0=$2 n1=$3 sys=$4
    shift 5
    p="$dir/$label/w"
    rm -rf "$dir/$label"
    mkdir -p "$dir/$label"
    "$build/bench/bench_run" "$label: generate" "$build/vimana-et" generate transformer "$@" --single-file \
        --out "$p" 2>"$dir/gen.err" || { cat "$dir/gen.err" >&2; exit 1; }
    cat "$dir/gen.err"
    echo "$label: $(ls "$dir/$label" | wc -l) files, $(du -sk "$dir/$label" | cut -f1) KiB"
    printf 'topology: [ Switch, Switch ]\nnpus_count: [ %s, %s ]\nbandwidth: [ %s ]\nlatency: [ 250, 1000 ]\n' \
        "$n0" "$n1" "$BW" >"$dir/$label/net.yml"
    for run in reduced ${FULL:-}; do
        flag=
        [ "$run" = full ] && flag=--no-symmetry
        # shellcheck disable=SC2086
        BENCH_SHOW_OUTPUT=1 "$build/bench/bench_run" "$label: simulate $run" "$build/vimana" \
            --workload-configuration="$p" --comm-group-configuration="$p.groups.json" \
            --system-configuration="$sys" --network-configuration="$dir/$label/net.yml" --run-stats $flag \
            >"$dir/$label/$run.out" 2>"$dir/$label/$run.err" || { cat "$dir/$label/$run.err" >&2; exit 1; }
        grep "simulate $run\|NPUs loaded" "$dir/$label/$run.err" | sed "s/^/$label: /"
        grep '^vimana: symmetry' "$dir/$label/$run.err" | cut -c1-160 | sed "s/^/$label: /"
        echo "$label: last NPU finished at $(sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' \
            "$dir/$label/$run.out" | sort -n | tail -n 1) ns; $(grep -c '^sys\[[0-9]*\] finished' "$dir/$label/$run.out") NPUs reported"
    done
    if [ -n "${FULL:-}" ]; then
        sort "$dir/$label/reduced.out" >"$dir/a"
        sort "$dir/$label/full.out" >"$dir/b"
        cmp -s "$dir/a" "$dir/b" && echo "$label: reduced and full reports equal" ||
            { echo "$label: reduced and full reports DIFFER" >&2; exit 1; }
    fi
}

A100="$src/inputs/presets/dgx-a100/system.json"
H100="$src/inputs/presets/dgx-h100/system.json"

BW="300, 25" FULL=$([ "$mode" = all ] && echo full || true) bench_case gpt175b-1024 8 128 "$A100" -- \
    --layers 96 --hidden 12288 --heads 96 --ffn 49152 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1536 \
    --tp 8 --pp 8 --dp 16 --sp --recompute selective --device a100
[ "$mode" = small ] && exit 0
BW="450, 50" bench_case llama405b-16384 8 2048 "$H100" -- \
    --layers 128 --hidden 16384 --heads 128 --ffn 53248 --seq 8192 --vocab 128256 --micro-batch 1 \
    --global-batch 2048 --tp 8 --pp 16 --dp 128 --sp --dist-optimizer --recompute selective --device h100
BW="300, 25" bench_case megatron1t-3072 8 384 "$A100" -- \
    --layers 128 --hidden 25600 --heads 160 --ffn 102400 --seq 2048 --vocab 51200 --micro-batch 1 \
    --global-batch 3072 --tp 8 --pp 64 --dp 6 --recompute full --device a100
BW="450, 50" bench_case llama405b-100352 8 12544 "$H100" -- \
    --layers 128 --hidden 16384 --heads 128 --ffn 53248 --seq 8192 --vocab 128256 --micro-batch 1 \
    --global-batch 12544 --tp 8 --pp 16 --dp 784 --sp --dist-optimizer --recompute selective --device h100
