#!/bin/sh
# GPT training steps on DGX H100 clusters: what Vimana predicts against what
# NVIDIA published (docs/validation.md, "GPT iteration times on DGX H100
# clusters"). A held-out check: nothing here was fitted to these times.
#
# Measured: NVIDIA NeMo's performance summary, tokens / sec / GPU, turned into
# the time of one global step, GBS * seq / (tokens/sec/GPU * GPUs):
#   NeMo 24.07 (DGX-H100, FP8): NVIDIA/NeMo
#     docs/source/performance/performance_summary.md at commit 8e3d65dc
#     ("24.07 perf numbers", 2024-09-09);
#   NeMo 25.02 (DGX-H100, FP8): docs.nvidia.com/nemo-framework/user-guide/
#     latest/performance/performance_summary.html (the 25.02 table).
# Models as NeMo configures them (GPT-3 5B, 20B: NeMo-Megatron-Launcher
# conf/training/gpt3/{5b,20b}.yaml; 175B: nemo/collections/llm/recipes/
# gpt3_175b.py, pretrain_recipe_performance): sequence 2048, FFN 4h, the GPT-2
# vocabulary of 50257 padded to a multiple of 128 * TP (Megatron's rule), the
# distributed optimizer, no activation recomputation, FP8 GEMMs; SP with TP > 1;
# the 175B with interleaving (VP 6) and TP communication overlap. DP buckets:
# the launcher's bucket_cap_mb (5B 400 MB, 20B 220 MB) and Megatron-Core's
# default of 40M parameters (80 MB of bf16 gradients) for the 175B.
#
#   examples/validation/dgx-h100.sh [OUT-DIR]
# BIN (default: the build folder, .) holds vimana and vimana-et. Prints one
# line a row: measured and predicted step time and the error; about 4 s of
# CPU and 150 MB on a 2-core machine (compact workloads, --single-file).
set -eu
BIN=${BIN:-.}
OUT=${1:-validation-out/dgx-h100}
HERE=$(dirname "$0")
PRESET=$HERE/../../inputs/presets/dgx-h100
mkdir -p "$OUT"

# row NAME GPUS GBS SEQ TOKENS_PER_SEC_PER_GPU -- generator flags...
row() {
    name=$1 gpus=$2 gbs=$3 seq=$4 tps=$5
    shift 6
    if [ "$gpus" -eq 8 ]; then
        # one node: the first dimension alone
        printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 450.0 ]\nlatency: [ 250.0 ]\n' \
            >"$OUT/$name.network.yml"
    else
        sed "s/npus_count: \[ 8, 2 \]/npus_count: [ 8, $((gpus / 8)) ]/" "$PRESET/network.yml" \
            >"$OUT/$name.network.yml"
    fi
    "$BIN/vimana-et" generate transformer "$@" --seq "$seq" --global-batch "$gbs" --device h100 \
        --single-file --out "$OUT/$name" >"$OUT/$name.gen.txt"
    "$BIN/vimana" --workload-configuration="$OUT/$name" \
        --comm-group-configuration="$OUT/$name.groups.json" \
        --system-configuration="$PRESET/system.json" \
        --network-configuration="$OUT/$name.network.yml" --breakdown >"$OUT/$name.sim.txt" 2>&1
    # the iteration ends with the last NPU's finish (1 cycle = 1 ns)
    cycles=$(sed -n 's/^breakdown of NPU [0-9]* (finished last, at \([0-9]*\) cycles).*/\1/p' \
        "$OUT/$name.sim.txt")
    awk -v n="$name" -v g="$gpus" -v b="$gbs" -v s="$seq" -v t="$tps" -v c="$cycles" 'BEGIN {
        m = b * s / (t * g); p = c / 1e9
        printf "%-22s measured %7.3f s  Vimana %7.3f s  error %+6.1f %%\n", n, m, p, 100 * (p - m) / m
    }'
}

G5="--layers 24 --hidden 4096 --heads 32 --ffn 16384 --vocab 50304"
G20="--layers 44 --hidden 6144 --heads 48 --ffn 24576 --vocab 50432"
G175="--layers 96 --hidden 12288 --heads 96 --ffn 49152 --vocab 50688"
# shellcheck disable=SC2086 # the model flags are split on purpose
{
row gpt3-5b-64 64 2048 2048 23406 -- $G5 --micro-batch 4 --tp 1 --pp 1 --dp 64 \
    --dist-optimizer --dp-bucket-bytes 400MB --precision fp8
row gpt3-20b-64 64 256 2048 5851 -- $G20 --micro-batch 2 --tp 2 --pp 1 --dp 32 --sp \
    --dist-optimizer --dp-bucket-bytes 220MB --precision fp8
row gpt3-175b-128 128 256 2048 716 -- $G175 --micro-batch 1 --tp 4 --pp 8 --dp 4 \
    --virtual-stages 6 --sp --tp-comm-overlap --dist-optimizer --dp-bucket-bytes 80MB --precision fp8
row gpt3-175b-512 512 2048 2048 825 -- $G175 --micro-batch 2 --tp 4 --pp 8 --dp 16 \
    --virtual-stages 6 --sp --tp-comm-overlap --dist-optimizer --dp-bucket-bytes 80MB --precision fp8
# the same run as NeMo 25.02 measured it
row gpt3-175b-512-25.02 512 2048 2048 866 -- $G175 --micro-batch 2 --tp 4 --pp 8 --dp 16 \
    --virtual-stages 6 --sp --tp-comm-overlap --dist-optimizer --dp-bucket-bytes 80MB --precision fp8
}
