#!/bin/sh
# A DeepSeek-V3-like training step on 1024 H100s (128 DGX H100 nodes;
# DeepSeek trained on 2048 H800s): 64 layers (the model has 61), hidden
# 7168, 128 heads (multi-head latent attention is not modelled: full
# multi-head), 256 routed experts
# a layer with a SwiGLU FFN of 2048 (written as 1.5 x 2048 = 3072, the
# same parameters and FLOPs), top-8 routing, vocabulary 129280, sequences
# of 4096 tokens. As DeepSeek trained it: no TP, PP 16, DP 64 with EP 64
# (each rank holds 4 experts of each of its stage's 4 layers; the
# all-to-alls cross the nodes), the distributed optimizer; full
# recomputation so that the first stage fits 80 GB. Global batch 1024
# (16 micro-batches a replica: about half the step is pipeline bubble;
# DeepSeek's 15360 takes 15 times the nodes), the load skewed as real
# routers are (--expert-skew, default 0.5). About 5 s of CPU and 140 MB.
#   examples/moe/deepseek-v3.sh [OUT-PREFIX] [SKEW]
# Not modelled (docs/transformer.md): the first 3 dense layers, the
# shared expert, node-limited routing, the auxiliary-loss-free balancing,
# multi-token prediction, FP8 training (use --precision fp8 for its GEMMs).
set -eu
BIN=${BIN:-.}
OUT=${1:-moe-out/deepseek}
SKEW=${2:-0.5}
HERE=$(dirname "$0")
PRESET=$HERE/../../inputs/presets/dgx-h100
mkdir -p "$(dirname "$OUT")"
"$BIN/vimana-et" generate transformer --layers 64 --hidden 7168 --heads 128 --ffn 18432 --seq 4096 \
    --vocab 129280 --micro-batch 1 --global-batch 1024 --tp 1 --pp 16 --dp 64 --dist-optimizer \
    --recompute full --experts 256 --top-k 8 --ep 64 --moe-ffn 3072 --expert-skew "$SKEW" \
    --device h100 --out "$OUT"
sed 's/npus_count: \[ 8, 2 \]/npus_count: [ 8, 128 ]/' "$PRESET/network.yml" >"$OUT.network.yml"
"$BIN/vimana" --workload-configuration="$OUT" --comm-group-configuration="$OUT.groups.json" \
    --system-configuration="$PRESET/system.json" --network-configuration="$OUT.network.yml" --breakdown
