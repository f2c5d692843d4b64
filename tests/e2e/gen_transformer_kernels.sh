#!/bin/sh
# vimana-et generate transformer's default compute model (the kernel model,
# docs/transformer.md "Compute model"), --compute-model, --precision fp8,
# --recompute selective, and a run on the multi-node DGX preset.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
BIG="--layers 1 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1 --tp 1 --pp 1 --dp 1"

# h = 4096, F = 16384, s = 2048 on an H100. GEMM efficiency: 792.1 TFLOP/s
# (the best GEMM benchmark, 6144 x 17920 x 2816) x 0.849 (sustained over
# burst) / 989 TFLOP/s / that shape's utilisation (26 waves of 132 SMs for
# 3360 tiles of 128 x 256 = 0.979, times 2816 / 2880) = 0.7103.
# MLP forward: LayerNorm 2*2048*4096*2 B over 0.85 x 3.35 TB/s = 11.8 us;
# fc1 2048 x 16384 x 4096 (tiles of 256 x 128: 8 x 128 = 1024 -> 8 waves
# of 132, utilisation 0.970 x 4096/4160 = 0.955) = 409.8 us; bias+GeLU
# 2*2048*16384*2 B = 47.1 us; fc2 2048 x 4096 x 16384 (0.966) = 405.1 us;
# bias+dropout+residual 20.6 us: in all 894.4 -> 895 us
# (tests/unit/test_transformer.c checks each formula; this pins the sum,
# computed independently in python). Attention forward: LN 11.8, QKV
# 2048 x 12288 x 4096 = 307.4, causal FlashAttention 2*s^2*h FLOPs at
# 0.50 x 0.849 of peak = 81.8, output projection 2048 x 4096 x 4096 = 102.5,
# bias+dropout+residual 20.6: 524.1 -> 525 us.
expect_ok "$ET" generate transformer $BIG --out "$T/k/h"
tf_list "$T/k/h.0.et" >"$T/k.0"
expect_eq "$(sed -n 1,2p "$T/k.0" | cut -d' ' -f3,6)" "fwd_mb0_layer0_attn us=525
fwd_mb0_layer0_mlp us=895" "h100 kernel model"
# the default is --compute-model kernels; --efficiency means the roofline
expect_ok "$ET" generate transformer $BIG --compute-model kernels --out "$T/k/k"
cmp -s "$T/k/h.0.et" "$T/k/k.0.et" || fail "default != --compute-model kernels"
expect_ok "$ET" generate transformer $BIG --efficiency 0.5 --out "$T/k/e"
expect_ok "$ET" generate transformer $BIG --compute-model roofline --out "$T/k/r"
cmp -s "$T/k/e.0.et" "$T/k/r.0.et" || fail "--efficiency 0.5 != --compute-model roofline"
expect_eq "$(tf_list "$T/k/r.0.et" | sed -n 1p | cut -d' ' -f6)" "us=695" "roofline attention"
# FP8: the GEMMs at 1979 TFLOP/s on 1-byte operands (204.8 + 202.4 us),
# the memory-bound kernels unchanged (11.8 + 47.1 + 20.6 us), and
# Transformer Engine's quantisation: fc1's input, written in FP8 by the
# LayerNorm, transposed (1 byte net a 2048 x 4096 element: 2.9 us), fc2's
# cast-transposed (4 bytes a 2048 x 16384 element: 47.1 us), at 0.85 of
# 3.35 TB/s: 536.9 -> 537 us. The LM head is not a Transformer Engine
# module in Megatron-Core: 16-bit under FP8, as without it.
expect_ok "$ET" generate transformer $BIG --precision fp8 --out "$T/k/f"
tf_list "$T/k/f.0.et" >"$T/f.0"
expect_eq "$(sed -n 2p "$T/f.0" | cut -d' ' -f6)" "us=537" "fp8 MLP"
expect_eq "$(grep lm_head "$T/f.0" | cut -d' ' -f3,6)" "$(grep lm_head "$T/k.0" | cut -d' ' -f3,6)" "fp8: LM head in bf16"

# --device PATH: a device file, or a folder holding device.json. The H100's
# own figures in a file give the h100 preset's ETs byte for byte; an H200
# (the same compute, 4.8 TB/s) only speeds up the memory-bound kernels.
mkdir -p "$T/dev/h200"
dev() { # NAME HBM-TBPS
    printf '{"name": "%s", "peak-tflops": 989, "fp8-peak-tflops": 1979, "hbm-tbps": %s, "sms": 132,
 "gemm-tile": [128, 256], "gemm-k-fixed": 64, "best-gemm": {"tflops": 792.1, "m": 6144, "n": 17920, "k": 2816},
 "sustained-ratio": 0.849, "attention-efficiency": {"forward": 0.5, "backward": 0.4}, "memory-efficiency": 0.85}\n' "$1" "$2"
}
dev h100 3.35 >"$T/dev/h100.json"
dev h200 4.8 >"$T/dev/h200/device.json"
expect_ok "$ET" generate transformer $BIG --device "$T/dev/h100.json" --out "$T/dev/a"
cmp -s "$T/dev/a.0.et" "$T/k/h.0.et" || fail "the h100 device file differs from the h100 preset"
expect_ok "$ET" generate transformer $BIG --device "$T/dev/h200" --out "$T/dev/b"
# MLP forward on 4.8 TB/s: the GEMMs as before (409.8 + 405.1 us), LayerNorm,
# bias+GeLU and bias+dropout+residual 79.5 us x 3.35/4.8 = 55.5: 870.4 -> 871
expect_eq "$(tf_list "$T/dev/b.0.et" | sed -n 2p | cut -d' ' -f6)" "us=871" "h200 MLP"
# one-line errors naming the file and the key
D="$ET generate transformer $BIG --out $T/e/x --device"
dev h100 0 >"$T/dev/zero.json"
expect_error "$P: --device: $T/dev/zero.json: \"hbm-tbps\": expected a number above 0 to 1000, got 0" $D "$T/dev/zero.json"
sed 's/"tflops": 792.1/"tflops": 989/; s/"sustained-ratio": 0.849/"sustained-ratio": 1/' "$T/dev/h100.json" >"$T/dev/fast.json"
expect_error "$P: --device: $T/dev/fast.json: \"best-gemm\": 989 TFLOP/s at 6144 x 17920 x 2816 is more than the 989 peak allows with that shape's tiles, waves and K" \
    $D "$T/dev/fast.json"
sed 's/"sms": 132,//' "$T/dev/h100.json" >"$T/dev/nosms.json"
expect_error "$P: --device: $T/dev/nosms.json: missing \"sms\"" $D "$T/dev/nosms.json"
sed 's/"gemm-tile": \[128, 256\]/"gemm-tile": [128]/' "$T/dev/h100.json" >"$T/dev/tile.json"
expect_error "$P: --device: $T/dev/tile.json: \"gemm-tile\": expected [rows, columns], each a whole number from 8 to 1024" \
    $D "$T/dev/tile.json"
sed 's/"forward": 0.5/"forward": "half"/' "$T/dev/h100.json" >"$T/dev/attn.json"
expect_error "$P: --device: $T/dev/attn.json: \"attention-efficiency.forward\": expected a number" $D "$T/dev/attn.json"
expect_error "$P: --device: $T/dev/none/: cannot open: No such file or directory" $D "$T/dev/none/"
printf '[1]' >"$T/dev/list.json"
expect_error "$P: --device: $T/dev/list.json: expected a JSON object describing a device (docs/transformer.md, \"Device files\")" \
    $D "$T/dev/list.json"

# --recompute selective: before each layer's backward the attention core
# alone runs again (FlashAttention's forward on T = 2: 2*s^2*h/2 FLOPs at
# 0.50 x 0.849 of 989 TFLOP/s = 40.9 -> 41 us), without TP communication;
# bare --recompute stays full.
TP2="--layers 2 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1 --tp 2 --pp 1 --dp 1"
expect_ok "$ET" generate transformer $TP2 --recompute selective --out "$T/sel/g"
tf_list "$T/sel/g.0.et" >"$T/sel.0"
expect_eq "$(grep -c '^[0-9]* COMP rec_' "$T/sel.0")" 2 "selective: one recomputation per layer"
expect_eq "$(grep -c 'COLL tp_all_reduce_rec' "$T/sel.0")" 0 "selective: no TP collective"
expect_eq "$(grep 'rec_mb0_layer1_attn_core' "$T/sel.0" | cut -d' ' -f4,5,6)" \
    "ops=34359738368 bytes=33554432 us=41" "selective: the core's FLOPs 4bs^2h/T; Q, K, V and context, 2bsh/T each"
expect_eq "$(grep -A1 'rec_mb0_layer1_attn_core' "$T/sel.0" | sed -n 2p | cut -d' ' -f3)" "bwd_mb0_layer1_mlp" \
    "selective: then the layer's backward"
expect_ok "$ET" generate transformer $TP2 --recompute --out "$T/full/g"
expect_ok "$ET" generate transformer $TP2 --recompute full --out "$T/full2/g"
cmp -s "$T/full/g.0.et" "$T/full2/g.0.et" || fail "--recompute != --recompute full"
expect_eq "$(tf_list "$T/full/g.0.et" | grep -c 'COLL tp_all_reduce_rec')" 4 "full: the forward's TP all-reduces again"
# --durations attn_core replaces the core's time
printf '{"attn_core": 7}\n' >"$T/core.json"
expect_ok "$ET" generate transformer $TP2 --recompute=selective --durations "$T/core.json" --out "$T/selc/g"
expect_eq "$(tf_list "$T/selc/g.0.et" | grep 'rec_mb0_layer0_attn_core' | cut -d' ' -f6)" "us=7" "attn_core duration"

# Pipeline messages (Megatron-LM's scatter-gather, the default without
# --sp): each TP rank sends 1/T of the b*s*h*2 = 2^24-byte activation, the
# receiver all-gathers the slices over its TP group; off: all of it.
PP2="--layers 2 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 2 --tp 2 --pp 2 --dp 1"
expect_ok "$ET" generate transformer $PP2 --out "$T/sg/g"
tf_list "$T/sg/g.2.et" >"$T/sg.2"
expect_eq "$(grep -A1 ' RECV recv_fwd_mb0 ' "$T/sg.2" | cut -d' ' -f2-5)" "RECV recv_fwd_mb0 0->2 tag=0
COLL tp_all_gather_recv_fwd_mb0 AG size=8388608" "scatter-gather: a half, then the TP all-gather"
expect_eq "$(grep -c ' SEND send_bwd_mb[01] 2->0 tag=[23] size=8388608 ' "$T/sg.2")" 2 "scatter-gather: backward sends"
expect_ok "$ET" generate transformer $PP2 --pp-scatter-gather off --out "$T/nsg/g"
expect_eq "$(tf_list "$T/nsg/g.2.et" | grep -c 'size=16777216 deps')" 4 "no scatter-gather: whole messages"
expect_eq "$(tf_list "$T/nsg/g.2.et" | grep -c 'tp_all_gather_recv')" 0 "no scatter-gather: no all-gather"
expect_error "vimana-et generate: --pp-scatter-gather: expected on or off, got 'yes'" \
    "$ET" generate transformer $PP2 --pp-scatter-gather yes --out "$T/e/g"

# --tp-comm-overlap: a layer's TP collectives start with its compute node,
# off the chain, and the next node waits for all of them
expect_ok "$ET" generate transformer --layers 1 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 \
    --global-batch 1 --tp 2 --pp 1 --dp 1 --sp --tp-comm-overlap --out "$T/ov/g"
expect_eq "$(tf_list "$T/ov/g.0.et" | sed -n 1,7p | cut -d' ' -f1-3,7)" "0 COMP fwd_mb0_layer0_attn deps=
1 COLL tp_reduce_scatter_fwd_mb0_layer0_attn deps=
2 COLL tp_all_gather_fwd_mb0_layer0_attn deps=
3 COMP fwd_mb0_layer0_mlp deps=0,1,2
4 COLL tp_reduce_scatter_fwd_mb0_layer0_mlp deps=0
5 COLL tp_all_gather_fwd_mb0_layer0_mlp deps=0
6 COMP fwd_mb0_lm_head deps=3,4,5" "TP overlap: side collectives"

# One step on two DGX A100 nodes (inputs/presets/dgx-a100): 4 layers of the
# 22B model, TP 8 in a node, DP 2 across the NICs, SP, selective
# recomputation, the distributed optimizer.
expect_ok "$ET" generate transformer --layers 4 --hidden 6144 --heads 64 --ffn 24576 --seq 2048 --vocab 51200 \
    --global-batch 8 --micro-batch 1 --tp 8 --pp 1 --dp 2 --sp --recompute selective --dist-optimizer --device a100 \
    --out "$T/dgx/g"
P="$S/inputs/presets/dgx-a100"
expect_ok "$VIMANA" --workload-configuration="$T/dgx/g" --system-configuration="$P/system.json" \
    --network-configuration="$P/network.yml" --comm-group-configuration="$T/dgx/g.groups.json"
expect_eq "$(grep -c 'finished, 128794304 cycles, exposed communication 61681304 cycles' "$T/out")" 16 "DGX A100 step"
# --breakdown: where it went -- the TP group (8 NPUs, stride 1) and the DP
# group across the NICs (2 NPUs, stride 8) each with its exposed time, the
# FLOP/s against the preset's peak-perf; the rows add up to the finish
expect_ok "$VIMANA" --workload-configuration="$T/dgx/g" --system-configuration="$P/system.json" \
    --network-configuration="$P/network.yml" --comm-group-configuration="$T/dgx/g.groups.json" --breakdown
expect_eq "$(sed -n '/^breakdown/,$p' "$T/out")" "breakdown of NPU 0 (finished last, at 128794304 cycles):
  compute                                              67113000 cycles  52.11 %
  exposed, group 1 (8 NPUs, stride 1)                  23453824 cycles  18.21 %
  exposed, group 3 (2 NPUs, stride 8)                  38227480 cycles  29.68 %
  exposed, pipeline messages in flight                        0 cycles   0.00 %
  exposed, pipeline bubble                                    0 cycles   0.00 %
  exposed, other                                              0 cycles   0.00 %
  FLOPs 1.389e+13 (num_ops of the compute nodes): 107.9 TFLOP/s, 34.6 % of peak-perf 312 TFLOP/s
  model FLOPs 1.369e+13 (without recomputation): 106.3 TFLOP/s, 34.1 % of peak-perf 312 TFLOP/s" "breakdown"
# model FLOPs (the selective recomputation's attn_core nodes carry
# is_recomputation and are left out): per replica 72*B*s*L*h^2*(1 + s/6h +
# V/12Lh) with B = 4, L = 4 = 1.0947e14, over its 8 ranks 1.368e13
expect_eq "$(tf_list "$T/dgx/g.0.et" | grep -c ' COMP rec_')" 16 "selective: 4 layers x 4 micro-batches"
expect_eq "$("$ET" json "$T/dgx/g.0.et" | grep -c '"is_recomputation"')" 16 "recomputation marked"
expect_eq $((67113000 + 23453824 + 38227480)) 128794304 "breakdown adds up"
# --overlap-param-gather (the default with --dist-optimizer): the updated
# parameters are all-gathered at the iteration's start, bucket by bucket in
# forward order -- bucket 1 (layers 0-1 and the embedding), then bucket 0
# (layers 2-3 and the LM head), each 2 x 4(h^2 + 2hF)/T + hV/T = 152567808
# params, the rank's shard half of it x 2 bytes -- and a bucket's first
# layer waits for its all-gather; off: one all-gather after the optimizer.
DGX="--layers 4 --hidden 6144 --heads 64 --ffn 24576 --seq 2048 --vocab 51200 --global-batch 8 --micro-batch 1 --tp 8
    --pp 1 --dp 2 --sp --recompute selective --dist-optimizer --dp-buckets 2 --device a100"
expect_ok "$ET" generate transformer $DGX --out "$T/pg/g"
tf_list "$T/pg/g.0.et" >"$T/pg.0"
expect_eq "$(grep -E 'all_gather_params|COMP fwd_mb0_layer[02]_attn ' "$T/pg.0" | cut -d' ' -f1-3,5,7)" \
"0 COLL dp_all_gather_params_bucket1 size=152567808 deps=
1 COLL dp_all_gather_params_bucket0 size=152567808 deps=0
2 COMP fwd_mb0_layer0_attn bytes=231735296 deps=0
14 COMP fwd_mb0_layer2_attn bytes=231735296 deps=13,1" "parameter all-gathers under the forward"
expect_eq "$(grep -c 'fwd_mb1_layer[0-3]_attn .*deps=[0-9]*,' "$T/pg.0")" 0 "only the first micro-batch waits"
expect_ok "$ET" generate transformer $DGX --overlap-param-gather off --out "$T/pg0/g"
expect_eq "$(tf_list "$T/pg0/g.0.et" | grep 'all_gather_params' | cut -d' ' -f3,5)" "dp_all_gather_params size=305135616" \
    "off: one all-gather of the shard after the optimizer"
sim_dgx() { # PREFIX: the breakdown's first three rows
    expect_ok "$VIMANA" --workload-configuration="$1" --system-configuration="$P/system.json" \
        --network-configuration="$P/network.yml" --comm-group-configuration="$1.groups.json" --breakdown
    sed -n '/^breakdown/,$p' "$T/out" | sed -n 1,4p
}
expect_eq "$(sim_dgx "$T/pg/g")" "breakdown of NPU 0 (finished last, at 126916128 cycles):
  compute                                              67113000 cycles  52.88 %
  exposed, group 1 (8 NPUs, stride 1)                  40672976 cycles  32.05 %
  exposed, group 3 (2 NPUs, stride 8)                  19130152 cycles  15.07 %" "overlapped parameter gather"
expect_eq "$(sim_dgx "$T/pg0/g")" "breakdown of NPU 0 (finished last, at 127304716 cycles):
  compute                                              67113000 cycles  52.72 %
  exposed, group 1 (8 NPUs, stride 1)                  31512900 cycles  24.75 %
  exposed, group 3 (2 NPUs, stride 8)                  28678816 cycles  22.53 %" "parameter gather at the end"
# --overlap-grad-reduce off: no bucket during the backward, all of the
# rank's gradients (2 x 113246208 + 2 x 39321600 params x 2 bytes) reduced
# after it, on the chain; then Adam on the rank's half, 28 bytes a parameter
expect_ok "$ET" generate transformer $DGX --overlap-grad-reduce off --out "$T/gr/g"
tf_list "$T/gr/g.0.et" >"$T/gr.0"
expect_eq "$(grep -E 'reduce_scatter_grads|optimizer_step' "$T/gr.0" | cut -d' ' -f3,5)" "dp_reduce_scatter_grads size=610271232
optimizer_step bytes=$((305135616 / 2 * 28))" "gradients reduced after the backward"
expect_error "vimana-et generate: --overlap-grad-reduce: expected on or off, got '1'" \
    "$ET" generate transformer $DGX --overlap-grad-reduce 1 --out "$T/e/g"

# a pipeline (TP 2 x PP 2 on one H100 switch): the stages wait for each other
printf 'topology: [ Switch ]\nnpus_count: [ 4 ]\nbandwidth: [ 450.0 ]\nlatency: [ 250.0 ]\n' >"$T/n4.yml"
expect_ok "$VIMANA" --workload-configuration="$T/sg/g" --system-configuration="$S/inputs/presets/hgx-h100/8gpu/system.json" \
    --network-configuration="$T/n4.yml" --comm-group-configuration="$T/sg/g.groups.json" --breakdown
# (2 micro-batches on 2 stages: NPU 0 mostly waits for stage 1 to send its
# gradients back -- the bubble -- and little for the messages in flight)
expect_eq "$(sed -n '/^breakdown/,$p' "$T/out" | sed -n '1,5p')" "breakdown of NPU 0 (finished last, at 13873256 cycles):
  compute                                               6391000 cycles  46.07 %
  exposed, group 1 (2 NPUs, stride 1)                    583782 cycles   4.21 %
  exposed, pipeline messages in flight                    35722 cycles   0.26 %
  exposed, pipeline bubble                              6862752 cycles  49.47 %" "pipeline breakdown"
finish
