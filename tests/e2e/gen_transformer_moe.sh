#!/bin/sh
# vimana-et generate transformer --experts (docs/transformer.md, "Mixture
# of experts"): the routed tokens' all-to-alls on the EP groups, the local
# experts' load under Zipf skew and capacity, the experts' gradients on the
# expert-data-parallel groups, the simulated cost of a busy expert to the
# cycle, the memory of --tensors to the byte, a 64-rank Mixtral-like step,
# and one-line errors. Every figure is derived by hand in the comments.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/gen_lib.sh"
finish_max() { # the latest "sys[N] finished, C cycles" of $T/out
    sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" | sort -n | tail -1
}

# --- 1. Two ranks, two experts, top-1, EP 2, roofline at E = 0.5 (494.5
# TFLOP/s). L=1, h=1024, F=4096, s=2048, b=1: each rank routes N = 2048
# tokens. Dispatch and combine carry N*K*h*2 = 4194304 bytes.
# S = 0: each sender gives each expert 1024 tokens, so each expert gets
#   2048: FLOPs 4*2048*1024*4096 = 34359738368, 69.48 us -> 70 (backward
#   twice: 138.97 -> 139).
# S = 1: shares 2/3 and 1/3 of 2048 = 1365.33, 682.67: floors 1365 + 682,
#   the token left to the larger remainder: 1365 and 683 per sender; the
#   popular expert (expert 1, on rank 1, for seed 1) gets 2730 tokens:
#   45801799680 FLOPs, 92.62 -> 93 us (backward 185.24 -> 186); expert 0
#   gets 1366: 22917677056 FLOPs, 47 us (93).
MOE1="--layers 1 --hidden 1024 --heads 8 --ffn 4096 --seq 2048 --vocab 1024 --micro-batch 1 --global-batch 2
 --tp 1 --pp 1 --dp 2 --experts 2 --top-k 1 --ep 2 --compute-model roofline"
printf 'topology: [ Switch ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$T/n2.yml"
# shellcheck disable=SC2086 # word lists
expect_ok "$ET" generate transformer $MOE1 --out "$T/u/m"
expect_eq "$(sed -n 2p "$T/out")" "moe: 2 experts, top-1, EP 2: all-to-all 4194304 bytes a dispatch or combine; tokens an expert gets per micro-batch: mean 2048.0, busiest 2048 (layer 0, expert 0)" "moe line, S = 0"
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE1 --expert-skew 1 --out "$T/s/m"
expect_eq "$(sed -n 2p "$T/out")" "moe: 2 experts, top-1, EP 2: all-to-all 4194304 bytes a dispatch or combine; tokens an expert gets per micro-batch: mean 2048.0, busiest 2730 (layer 0, expert 1)" "moe line, S = 1"
# Rank 1 by hand: attention (8bsh^2 + 4bs^2h = 34359738368 FLOPs, 70 us),
# router (2NhE = 8388608 FLOPs; bytes 2(Nh + hE) + 4NE = 4214784), dispatch,
# experts, combine, LM head, then the backward in reverse; the dense
# gradients (attention 4h^2 + router hE + embedding and head 2hV =
# 6293504 parameters, 12587008 bytes) on the DP group 1; EP group 2.
cat >"$T/rank1.want" <<'L'
0 COMP fwd_mb0_layer0_attn ops=34359738368 bytes=163577856 us=70 deps=
1 COMP fwd_mb0_layer0_router ops=8388608 bytes=4214784 us=2 deps=0
2 COLL ep_all_to_all_fwd_mb0_layer0_dispatch A2A size=4194304 pg=2 deps=1
3 COMP fwd_mb0_layer0_experts ops=45801799680 bytes=72687616 us=93 deps=2
4 COLL ep_all_to_all_fwd_mb0_layer0_combine A2A size=4194304 pg=2 deps=3
5 COMP fwd_mb0_lm_head ops=4294967296 bytes=10485760 us=9 deps=4
6 COMP bwd_mb0_lm_head ops=8589934592 bytes=20971520 us=18 deps=5
7 COLL ep_all_to_all_bwd_mb0_layer0_combine A2A size=4194304 pg=2 deps=6
8 COMP bwd_mb0_layer0_experts ops=91603599360 bytes=145375232 us=186 deps=7
9 COLL ep_all_to_all_bwd_mb0_layer0_dispatch A2A size=4194304 pg=2 deps=8
10 COMP bwd_mb0_layer0_router ops=16777216 bytes=8429568 us=3 deps=9
11 COMP bwd_mb0_layer0_attn ops=68719476736 bytes=327155712 us=139 deps=10
12 COLL dp_all_reduce_grads AR size=12587008 pg=1 deps=11
13 COMP optimizer_step ops=146821120 bytes=411099136 us=123 deps=11,12
L
tf_list "$T/s/m.1.et" >"$T/rank1.got"
cmp -s "$T/rank1.got" "$T/rank1.want" || fail "rank 1 (busy expert): $(diff "$T/rank1.want" "$T/rank1.got")"
expect_eq "$(tf_list "$T/s/m.0.et" | grep '_experts ')" "3 COMP fwd_mb0_layer0_experts ops=22917677056 bytes=44752896 us=47 deps=2
8 COMP bwd_mb0_layer0_experts ops=45835354112 bytes=89505792 us=93 deps=7" "rank 0's expert"
expect_eq "$(tf_list "$T/u/m.0.et" | grep '_experts ' | cut -d' ' -f4,6)" "ops=34359738368 us=70
ops=68719476736 us=139" "S = 0 experts"
# The busy expert sets the step: both ranks wait for it at the combine (and
# at the backward's dispatch), so the last rank finishes exactly
# (93 - 70) + (186 - 139) = 70 us = 70000 cycles later than with S = 0.
SIM2="--system-configuration=$S/inputs/system/ring.json --network-configuration=$T/n2.yml"
# shellcheck disable=SC2086
expect_ok "$VIMANA" --workload-configuration="$T/u/m" $SIM2 --comm-group-configuration="$T/u/m.groups.json"
uniform=$(finish_max)
# shellcheck disable=SC2086
expect_ok "$VIMANA" --workload-configuration="$T/s/m" $SIM2 --comm-group-configuration="$T/s/m.groups.json"
skewed=$(finish_max)
[ -n "$uniform" ] || fail "no finish time"
expect_eq "$((skewed - uniform))" 70000 "cycles a busy expert costs"

# --- 2. TP 2 x DP 4, EP 2: 4 experts, top-2, F' = 128; L=2, h=64, A=4,
# s=16, V=128, b=1, B=4 (one micro-batch).
# Groups: TP 1-4, DP 5-6, EP groups per (t, d/2): 7 = {0,2}, 8 = {1,3},
# 9 = {4,6}, 10 = {5,7}; expert-DP groups per (t, d%2): 11 = {0,4},
# 12 = {1,5}, 13 = {2,6}, 14 = {3,7}.
MOE2="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 --global-batch 4
 --tp 2 --pp 1 --dp 4 --experts 4 --top-k 2 --ep 2 --moe-ffn 128"
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE2 --out "$T/g/m"
groups_json "0 1" "2 3" "4 5" "6 7" "0 2 4 6" "1 3 5 7" "0 2" "1 3" "4 6" "5 7" "0 4" "1 5" "2 6" "3 7" \
    >"$T/groups.want"
cmp -s "$T/g/m.groups.json" "$T/groups.want" || fail "groups: $(cat "$T/g/m.groups.json")"
# Per rank: dense parameters 2 x (attention 4h*h/T = 8192 + router hE =
# 256) + embedding and head 2 x hV/T = 8192: 25088 (50176 bytes, DP);
# local experts 2 layers x 2 experts x 2hF'/T = 32768 (65536 bytes, on the
# expert-DP group); the all-to-alls N*K*h*2 = 16*2*64*2 = 4096 bytes.
tf_list "$T/g/m.3.et" >"$T/g3"
# a MoE block's forward: the TP all-reduce of the experts' output comes
# before the combine (Megatron-Core's all-to-all dispatcher)
expect_eq "$(sed -n 3,7p "$T/g3" | cut -d' ' -f3)" "fwd_mb0_layer0_router
ep_all_to_all_fwd_mb0_layer0_dispatch
fwd_mb0_layer0_experts
tp_all_reduce_fwd_mb0_layer0_experts
ep_all_to_all_fwd_mb0_layer0_combine" "MoE forward order"
expect_eq "$(grep -c ' A2A size=4096 pg=8 ' "$T/g3")" 8 "rank 3: 2 layers x (dispatch, combine) x (fwd, bwd)"
expect_eq "$(grep 'grads' "$T/g3" | cut -d' ' -f3-6)" "dp_all_reduce_grads AR size=50176 pg=6
edp_all_reduce_expert_grads AR size=65536 pg=14" "rank 3 gradients"
# The distributed optimizer: reduce-scatters, then the all-gathers of the
# shards: dense ceil(25088/4) = 6272 (12544 bytes), experts 32768/2 = 16384
# (32768 bytes); --overlap-param-gather gathers the dense ones first.
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE2 --dist-optimizer --overlap-param-gather off --out "$T/z/m"
expect_eq "$(tf_list "$T/z/m.3.et" | grep -E 'grads|params' | cut -d' ' -f3-6)" "dp_reduce_scatter_grads RS size=50176 pg=6
edp_reduce_scatter_expert_grads RS size=65536 pg=14
dp_all_gather_params AG size=12544 pg=6
edp_all_gather_expert_params AG size=32768 pg=14" "distributed optimizer"
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE2 --overlap-grad-reduce off --out "$T/o/m"
expect_eq "$(tf_list "$T/o/m.0.et" | grep 'grads' | cut -d' ' -f3-6)" "dp_all_reduce_grads AR size=50176 pg=5
edp_all_reduce_expert_grads AR size=65536 pg=11" "gradients after the backward"
expect_ok "$ET" validate "$T/g/m"

# --tensors: the simulated peak is the memory: line's figure to the byte.
# A MoE layer's kept activations (sbh = 1024, T = 2, no recomputation):
# 10sbh + (8sbh + 4asb)/T = 10240 + (8192 + 256)/2 = 14464 (4asb:
# FlashAttention's log-sum-exp, a = 4, s = 16), plus the router's fp32
# scores 4NE = 256, the experts' inputs 2mh = 4096 and 4mF'/T = 8192
# (m = NK = 32): 27008; two layers, the embedding's mask sbh = 1024, the
# logits 4sbV/T = 4096: 59136.
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE2 --tensors --out "$T/t/m"
state=$("$ET" json "$T/t/m.0.et" | grep -A1 '"model_state"' | sed -n 's/^ *"\([0-9]*\)"$/\1/p')
# parameters 2 + gradients 4 + Adam 12 bytes each of 25088 + 32768 = 57856
expect_eq "$state" $((57856 * 18)) "model state"
expect_ok "$VIMANA" --workload-configuration="$T/t/m" --system-configuration="$S/inputs/system/ring.json" \
    --network-configuration="$S/inputs/network/switch8.yml" --comm-group-configuration="$T/t/m.groups.json" \
    --report="$T/r.json"
expect_eq "$(sed -n 's/^{"npu": \([0-9]*\),.*"peak_tensor_bytes": \([0-9]*\)}.*/\2/p' "$T/r.json" | sort -u)" \
    $((57856 * 18 + 59136)) "simulated peak of every rank"

# --- 3. Capacity factor 1.5: a sender gives an expert at most
# ceil(1.5 * 32 / 4) = 12 tokens; the all-to-all is the padded buffer
# E * 12 * h * 2 = 6144 bytes.
# shellcheck disable=SC2086
expect_ok "$ET" generate transformer $MOE2 --capacity-factor 1.5 --out "$T/c/m"
expect_eq "$(tf_list "$T/c/m.0.et" | grep -c ' A2A size=6144 ')" 8 "padded all-to-alls"

# --- 4. A Mixtral-8x7B-like step on 64 ranks (h 4096, F 14336, 8 experts,
# top-2, two of its 32 layers, s 1024): TP 2 x DP 32 with EP 8 (expert DP
# 4). Every all-to-all carries N*K*h*2 = 1024*2*4096*2 = 16777216 bytes;
# skew 1.2 makes the step slower than uniform routing. A rank's 33 nodes:
# per layer forward attention, TP all-reduce, router, dispatch, experts,
# combine, TP all-reduce (7) and as many backward, the LM head's two, the
# DP and expert-DP gradient all-reduces and the optimizer.
MIX="--layers 2 --hidden 4096 --heads 32 --ffn 14336 --seq 1024 --vocab 32000 --micro-batch 1 --global-batch 32
 --tp 2 --pp 1 --dp 32 --experts 8 --top-k 2 --ep 8"
SIM64="--system-configuration=$S/inputs/system/ring-ring-ring.json --network-configuration=$S/inputs/network/ring-fc-switch_2x8x4.yml"
for sk in 0 1.2; do
    # shellcheck disable=SC2086
    expect_ok "$ET" generate transformer $MIX --expert-skew $sk --out "$T/x$sk/m"
    expect_ok "$ET" validate "$T/x$sk/m"
    expect_eq "$(cat "$T/out")" "$T/x$sk/m: valid (64 files, 2112 nodes)" "validate, skew $sk"
    # shellcheck disable=SC2086
    expect_ok "$VIMANA" --workload-configuration="$T/x$sk/m" $SIM64 --comm-group-configuration="$T/x$sk/m.groups.json"
    eval "finish_$(echo $sk | tr . _)=$(finish_max)"
done
# shellcheck disable=SC2154 # set by eval
[ "${finish_1_2:-0}" -gt "${finish_0:-0}" ] || fail "skew 1.2 ($finish_1_2 cycles) not slower than 0 ($finish_0)"
expect_eq "$(for r in 0 17 63; do tf_list "$T/x0/m.$r.et"; done | grep ' A2A ' | cut -d' ' -f5 | sort | uniq -c | tr -s ' ')" \
    " 24 size=16777216" "Mixtral all-to-alls"

# --- 5. One-line errors.
D="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 --global-batch 4 --tp 1 --pp 1 --dp 4 --out $T/e/m"
# shellcheck disable=SC2086
{
    expect_error "$P: --top-k: needs --experts" "$ET" generate transformer $D --top-k 2
    expect_error "$P: --capacity-factor/--expert-skew: need --experts" "$ET" generate transformer $D --expert-skew 1
    expect_error "$P: --dp: 4 is not divisible by --ep 3" "$ET" generate transformer $D --experts 6 --ep 3
    expect_error "$P: --experts: 6 is not divisible by --ep 4" "$ET" generate transformer $D --experts 6 --ep 4
    expect_error "$P: --top-k: expected 1 to --experts 4, got 5" "$ET" generate transformer $D --experts 4 --top-k 5
    expect_error "$P: --expert-skew: expected a number, got 'x'" "$ET" generate transformer $D --experts 4 --expert-skew x
    expect_error "$P: --expert-skew: expected a number in [0, 16], got 17" "$ET" generate transformer $D --experts 4 --expert-skew 17
    expect_error "$P: --experts: expected 1 to 65536, got 0" "$ET" generate transformer $D --experts 0
    expect_error "$P: --single-file: not with --experts (the ranks of a stage differ in their experts' load)" \
        "$ET" generate transformer $D --experts 4 --single-file
}
[ -e "$T/e/m.0.et" ] && fail "an error wrote traces"
finish
