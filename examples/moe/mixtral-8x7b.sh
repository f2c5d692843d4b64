#!/bin/sh
# A Mixtral-8x7B-like training step on 64 H100s (8 DGX H100 nodes):
# 32 layers, hidden 4096, 32 heads (grouped-query attention is not
# modelled: full multi-head), 8 experts a layer whose SwiGLU FFN of 14336
# (three matrices) is written as a two-matrix FFN of 1.5 x 14336 = 21504
# (the same parameters and FLOPs), top-2 routing, vocabulary 32000,
# sequences of 4096 tokens, global batch 256. TP 2 (inside a node) x PP 4 x DP 8 with EP 8 across the DP ranks
# (so each expert lives on one rank of every EP group and is reduced over
# no expert-DP group), sequence parallelism, the distributed optimizer.
#   examples/moe/mixtral-8x7b.sh [OUT-PREFIX] [SKEW]
# BIN (default: the build folder, .) holds vimana and vimana-et; SKEW is
# --expert-skew (default 0: balanced routing).
set -eu
BIN=${BIN:-.}
OUT=${1:-moe-out/mixtral}
SKEW=${2:-0}
HERE=$(dirname "$0")
PRESET=$HERE/../../inputs/presets/dgx-h100
mkdir -p "$(dirname "$OUT")"
"$BIN/vimana-et" generate transformer --layers 32 --hidden 4096 --heads 32 --ffn 14336 --seq 4096 \
    --vocab 32000 --micro-batch 1 --global-batch 256 --tp 2 --pp 4 --dp 8 --sp --dist-optimizer \
    --experts 8 --top-k 2 --ep 8 --moe-ffn 21504 --expert-skew "$SKEW" --device h100 --out "$OUT"
# the preset's two-level network sized for 8 nodes
sed 's/npus_count: \[ 8, 2 \]/npus_count: [ 8, 8 ]/' "$PRESET/network.yml" >"$OUT.network.yml"
"$BIN/vimana" --workload-configuration="$OUT" --comm-group-configuration="$OUT.groups.json" \
    --system-configuration="$PRESET/system.json" --network-configuration="$OUT.network.yml" --breakdown
