#!/bin/sh
# vimana-et generate transformer --tensors (docs/transformer.md, "Simulated"):
# nodes name the tensors they write and read, and vimana --report's peak
# per rank equals the memory: figure by hand, to the byte, in 1F1B and GPipe.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/gen_lib.sh"

# L=4, h=64, A=4, F=256, s=16, V=128, b=1, B=8 on TP 2 x PP 2 (M = 8
# micro-batches, 2 layers a stage). A layer's kept activations, no
# recomputation: 10sbh + (8sbh + 4sbF + 4Asb)/T = 10240 + (8192 + 16384 +
# 256)/2 = 22656 B (4Asb: FlashAttention's log-sum-exp, the kernel model's
# attention); the embedding's dropout mask sbh = 1024 B (stage 0);
# the logits 4sbV/T = 4096 B (stage 1).
MODEL="--layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 --global-batch 8
 --tp 2 --pp 2 --dp 1"
printf 'topology: [ Switch ]\nnpus_count: [ 4 ]\nbandwidth: [ 450.0 ]\nlatency: [ 250.0 ]\n' >"$T/n4.yml"
sim() { # PREFIX: the ranks' peaks, "R=BYTES ..."
    expect_ok "$VIMANA" --workload-configuration="$1" --system-configuration="$VIMANA_SRCDIR/inputs/presets/hgx-h100/system.json" \
        --network-configuration="$T/n4.yml" --comm-group-configuration="$1.groups.json" --report="$T/r.json"
    sed -n 's/^{"npu": \([0-9]*\),.*"peak_tensor_bytes": \([0-9]*\)}.*/\1=\2/p' "$T/r.json" | tr '\n' ' '
}
# the model state a rank's optimizer step reads (parameters, gradients, Adam)
state() { # ET
    "$ET" json "$1" | grep -A1 '"model_state"' | sed -n 's/^ *"\([0-9]*\)"$/\1/p'
}

# shellcheck disable=SC2086 # MODEL is a word list
expect_ok "$ET" generate transformer $MODEL --tensors --out "$T/g/g"
s0=$(state "$T/g/g.0.et")
s1=$(state "$T/g/g.2.et")
[ -n "$s0" ] && [ -n "$s1" ] || fail "no model_state"
# the memory: lines' figure, derived: 1F1B keeps P - p micro-batches in flight:
# stage 0 two of 2 x 22656 + 1024 = 92672; stage 1 one, 2 x 22656 + 4096 = 49408
expect_eq "$(sim "$T/g/g")" "0=$((s0 + 92672)) 1=$((s0 + 92672)) 2=$((s1 + 49408)) 3=$((s1 + 49408)) " \
    "1F1B peaks"
# the nodes: layer 0's first forward writes its activations and the mask
"$ET" json "$T/g/g.0.et" >"$T/g0.json"
expect_eq "$(grep -c '"act_mb[0-9]*_layer[0-9]*"' "$T/g0.json")" 32 "act tensors named (8 mbs x 2 layers, written and read)"
expect_eq "$(grep -c '"embed_mask_mb' "$T/g0.json")" 16 "embedding masks named"
expect_eq "$(grep -c '"logits_mb' "$T/g0.json")" 0 "no logits on stage 0"

# GPipe keeps all 8 micro-batches: stage 0 8 x 46336 = 370688, stage 1
# 8 x (2 x 22656 + 4096) = 395264 (the logits of every forward wait for
# its backward)
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MODEL --tensors --schedule gpipe --out "$T/p/g"
expect_eq "$(sim "$T/p/g")" "0=$((s0 + 370688)) 1=$((s0 + 370688)) 2=$((s1 + 395264)) 3=$((s1 + 395264)) " \
    "GPipe peaks"

# Without --tensors no tensor is named and the report has no peak.
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MODEL --out "$T/n/g"
"$ET" json "$T/n/g.0.et" | grep -q '"inputs"\|"outputs"' && fail "tensors named without --tensors"
expect_eq "$(sim "$T/n/g")" "" "no peaks without --tensors"
finish
