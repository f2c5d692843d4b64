#!/bin/sh
# vimana-et generate transformer: --dist-optimizer, --dp-bucket-bytes,
# --recompute and --tp-cross-entropy on the tiny GPT of gen_transformer.sh
# (L=2 or 4, h=64, A=4, F=256, s=16, V=100, b=1, B=4, TP 2 x PP 2 x DP 2):
# nodes checked one by one, the bytes of every communicator and the FLOPs
# against their closed forms (docs/transformer.md), exact simulated cycles,
# and one-line errors.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
TINY="--hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --tp 2 --pp 2 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off"
L2="--layers 2 $TINY --global-batch 4 --dp 2"
L4="--layers 4 $TINY --global-batch 4 --dp 2"

sum_size() { # REGEX FILES...: the comm_size of the collectives whose name matches
    re=$1
    shift
    cat "$@" | awk -v re="$re" '$2 == "COLL" && $3 ~ re { split($5, s, "="); t += s[2] } END { printf "%d", t }'
}
SIMARGS="--system-configuration=$S/inputs/system/ring.json --network-configuration=$S/inputs/network/switch8.yml"
sim_cycles() { # PREFIX STAGE0-TAIL STAGE1-TAIL
    expect_ok "$VIMANA" --workload-configuration="$1" $SIMARGS --comm-group-configuration="$1.groups.json"
    for r in 0 1 2 3 4 5 6 7; do
        [ $r -lt 4 ] && want=$2 || want=$3
        grep -qxF "sys[$r] finished, $want." "$T/out" || fail "sim $1 rank $r: $(grep "sys\[$r\] finished" "$T/out")"
    done
}
gen() { # NAME ARGS...: generate into $T/NAME/g, validate, list every rank
    name=$1
    shift
    expect_ok "$ET" generate transformer "$@" --out "$T/$name/g"
    expect_ok "$ET" validate "$T/$name/g"
    for r in 0 1 2 3 4 5 6 7; do
        [ -f "$T/$name/g.$r.et" ] && tf_list "$T/$name/g.$r.et" >"$T/$name/l.$r"
    done
}

# --- --dist-optimizer (ZeRO-1) ---------------------------------------------
# The DP all-reduce becomes a reduce-scatter of the same buffer (27776
# params x 2 bytes on every rank here), Adam updates the rank's shard
# ceil(27776 / 2) = 13888 params (10 FLOPs, 28 bytes each), then an
# all-gather whose input is that shard, 13888 x 2 bytes (its output is the
# rank's 27776 params again).
gen zero $L2 --dist-optimizer
expect_eq "$(grep -E 'dp_|optimizer' "$T/zero/l.0")" \
"20 COLL dp_reduce_scatter_grads RS size=55552 pg=5 deps=19
21 COMP optimizer_step ops=138880 bytes=388864 us=1 deps=19,20
22 COLL dp_all_gather_params AG size=27776 pg=5 deps=21" "rank 0 ZeRO-1 step"
# Closed forms: a replica's ranks (0, 1, 4, 5) reduce-scatter every
# parameter once: L(4h^2 + 2hF) + 2Vh = 111104 params x 2 bytes; each gives
# the all-gather its 1/D shard of them.
expect_eq "$(sum_size '^dp_reduce_scatter' "$T/zero/l.0" "$T/zero/l.1" "$T/zero/l.4" "$T/zero/l.5")" \
    $((111104 * 2)) "replica RS bytes"
expect_eq "$(sum_size '^dp_all_gather' "$T/zero/l.0" "$T/zero/l.1" "$T/zero/l.4" "$T/zero/l.5")" \
    $((111104 * 2 / 2)) "replica AG bytes"
expect_eq "$(sum_size '^dp_all_reduce' "$T"/zero/l.?)" 0 "no DP all-reduce"
sim_cycles "$T/zero/g" "128506 cycles, exposed communication 119506 cycles" \
    "110082 cycles, exposed communication 97082 cycles"
# D = 3 (B = 6): the shard is ceil(27776 / 3) = 9259 params, padded as
# Megatron-LM pads its buffer: 92590 FLOPs, 259252 bytes.
expect_ok "$ET" generate transformer --layers 2 $TINY --global-batch 6 --dp 3 --dist-optimizer --out "$T/zero3/g"
expect_eq "$(tf_list "$T/zero3/g.0.et" | grep optimizer_step | cut -d' ' -f4,5)" "ops=92590 bytes=259252" "D = 3 shard"
expect_eq "$(tf_list "$T/zero3/g.0.et" | grep dp_all_gather_params | cut -d' ' -f5)" "size=18518" "D = 3 all-gather: 9259 x 2"
# With buckets: one reduce-scatter per bucket, named like the all-reduces.
gen zerok $L4 --dist-optimizer --dp-buckets 2
expect_eq "$(grep -c 'dp_reduce_scatter_grads_bucket[01] RS' "$T/zerok/l.4")" 2 "ZeRO-1 buckets"

# --- --dp-bucket-bytes SIZE --------------------------------------------------
# L = 4: two layers per stage of 4h*h/T + 2h*F/T = 24576 params (49152
# bytes); the LM head and the embedding h*V/T = 3200 params (6400 bytes).
# 48KiB = 49152: stage 1's bucket closes after layer 3 (head + layer:
# 55552 bytes), stage 0's after layer 1 (49152); both are what --dp-buckets 2
# writes, byte for byte.
gen b48 $L4 --dp-bucket-bytes 48KiB
gen k2 $L4 --dp-buckets 2
for r in 0 1 2 3 4 5 6 7; do
    cmp -s "$T/b48/g.$r.et" "$T/k2/g.$r.et" || fail "rank $r: --dp-bucket-bytes 48KiB differs from --dp-buckets 2"
done
# 50000 bytes: stage 0 never reaches it before its last layer, so it sends
# one bucket (2 layers + embedding = 52352 params); stage 1 closes the first
# after layer 3 (55552 bytes >= 50000) and the rest goes at the end.
gen b50 $L4 --dp-bucket-bytes 50000
expect_eq "$(grep -E 'dp_' "$T/b50/l.0")" "36 COLL dp_all_reduce_grads_bucket0 AR size=104704 pg=5 deps=35" "stage 0, 50000"
expect_eq "$(grep -E 'dp_' "$T/b50/l.4")" \
"35 COLL dp_all_reduce_grads_bucket0 AR size=55552 pg=7 deps=34
41 COLL dp_all_reduce_grads_bucket1 AR size=49152 pg=7 deps=39,35" "stage 1, 50000"
# A replica still all-reduces the whole model once: L(4h^2 + 2hF) + 2Vh
# = 4 x 49152 + 2 x 6400 params, 2 bytes each.
expect_eq "$(sum_size '^dp_all_reduce' "$T/b50/l.0" "$T/b50/l.1" "$T/b50/l.4" "$T/b50/l.5")" \
    $(((4 * 49152 + 2 * 6400) * 2)) "replica DP bytes, 50000"
sim_cycles "$T/b50/g" "251206 cycles, exposed communication 234206 cycles" \
    "211658 cycles, exposed communication 190658 cycles"
# 1 byte: one bucket per layer.
gen b1 $L4 --dp-bucket-bytes 1
expect_eq "$(grep -c 'dp_all_reduce_grads_bucket' "$T/b1/l.0")" 2 "1-byte buckets"

# --- --recompute -------------------------------------------------------------
# Before each layer's backward, its forward again (attention, all-reduce,
# MLP, all-reduce: the forward's figures), named rec_*.
gen rc $L2 --recompute
expect_eq "$(sed -n 11,19p "$T/rc/l.0")" \
"10 RECV recv_bwd_mb0 4->0 tag=2 size=2048 deps=8
11 COMP rec_mb0_layer0_attn ops=294912 bytes=25600 us=1 deps=10
12 COLL tp_all_reduce_rec_mb0_layer0_attn AR size=2048 pg=1 deps=11
13 COMP rec_mb0_layer0_mlp ops=524288 bytes=45056 us=1 deps=12
14 COLL tp_all_reduce_rec_mb0_layer0_mlp AR size=2048 pg=1 deps=13
15 COMP bwd_mb0_layer0_mlp ops=1048576 bytes=90112 us=1 deps=14
16 COLL tp_all_reduce_bwd_mb0_layer0_mlp AR size=2048 pg=1 deps=15
17 COMP bwd_mb0_layer0_attn ops=589824 bytes=51200 us=1 deps=16
18 COLL tp_all_reduce_bwd_mb0_layer0_attn AR size=2048 pg=1 deps=17" "rank 0 recompute"
# TP: 1 layer x 2 micro-batches x (2 forward + 2 recomputed + 2 backward).
for r in 0 4; do
    expect_eq "$(sum_size '^tp_all_reduce' "$T/rc/l.$r")" $((12 * 2048)) "rank $r TP bytes, recompute"
done
# FLOPs with full recomputation: 96*B*s*L*h^2*(1 + s/(6h) + V/(16Lh))
# = 50331648 + 2097152 + 2457600 (Narayanan et al., SC'21).
flops=$(cat "$T"/rc/l.? | awk '$2 == "COMP" && $3 ~ /^(fwd|bwd|rec)_/ { split($4, s, "="); t += s[2] } END { printf "%d", t }')
expect_eq "$flops" 54886400 "iteration FLOPs, recompute"
sim_cycles "$T/rc/g" "183738 cycles, exposed communication 170738 cycles" \
    "146890 cycles, exposed communication 129890 cycles"

# --- --tp-cross-entropy --------------------------------------------------------
# After each forward LM head (last stage), three all-reduces of b*s*4 = 64
# bytes over TP: the logits' maximum, the target's logit, the exp sum.
gen xe $L2 --tp-cross-entropy
expect_eq "$(sed -n 6,10p "$T/xe/l.4")" \
"5 COMP fwd_mb0_lm_head ops=102400 bytes=10048 us=1 deps=4
6 COLL tp_all_reduce_fwd_mb0_xent_max AR size=64 pg=3 deps=5
7 COLL tp_all_reduce_fwd_mb0_xent_target AR size=64 pg=3 deps=6
8 COLL tp_all_reduce_fwd_mb0_xent_sum AR size=64 pg=3 deps=7
9 COMP bwd_mb0_lm_head ops=204800 bytes=20096 us=1 deps=8" "rank 4 cross-entropy"
expect_eq "$(sum_size '_xent_' "$T/xe/l.4")" $((2 * 3 * 64)) "last stage cross-entropy bytes"
expect_eq "$(sum_size '_xent_' "$T/xe/l.0")" 0 "first stage: no cross-entropy"
sim_cycles "$T/xe/g" "177186 cycles, exposed communication 168186 cycles" \
    "158762 cycles, exposed communication 145762 cycles"
# No TP, no all-reduce.
expect_ok "$ET" generate transformer --layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off \
    --micro-batch 1 --global-batch 4 --tp 1 --pp 1 --dp 1 --tp-cross-entropy --out "$T/xe1/g"
expect_eq "$(tf_list "$T/xe1/g.0.et" | grep -c xent)" 0 "T = 1: no cross-entropy all-reduce"

# --- errors ----------------------------------------------------------------------
G="$ET generate transformer"
E="$L4 --out $T/e/x"
expect_error "$P: --dp-bucket-bytes: cannot be combined with --dp-buckets" $G $E --dp-buckets 2 --dp-bucket-bytes 1MiB
expect_error "$P: --dp-bucket-bytes: expected at least 1 byte, got '0'" $G $E --dp-bucket-bytes 0
expect_error "$P: --dp-bucket-bytes: expected a size such as 1048576, 64KiB, 1MiB or 1MB, got '1XB'" \
    $G $E --dp-bucket-bytes 1XB
[ -e "$T/e" ] && fail "an error left output behind"
expect_error "$P: --memory-capacity: expected a size above 0 (e.g. 80GiB), got '0'" $G $E --memory-capacity 0

# --- memory (docs/transformer.md, "Memory") ----------------------------------------
# GPT-3 175B (L 96, h 12288, 96 heads, F 49152, s 2048, V 51200, b 1). On 8 GPUs (TP 8) without
# recomputation a rank holds 21.9 G parameters (18 bytes each in bf16 mixed precision) and
# 96 layers x 327 MB of activations (Korthikanti: 10sbh + 24sbh/8, FlashAttention's log-sum-exp
# 4as/8 instead of the unfused attention's 5as^2/8): refused, nothing
# written. On 64 (TP 8 x PP 8) with full recomputation (2sbh a layer, 8 micro-batches in flight
# on stage 0) every rank fits.
GPT3="--layers 96 --hidden 12288 --heads 96 --ffn 49152 --seq 2048 --vocab 51200 --micro-batch 1"
expect_error "$P: rank 0 needs 396.47 GiB, 316.47 GiB more than --memory-capacity 80.00 GiB (parameters 40.79 GiB, \
gradients 81.59 GiB, optimizer 244.76 GiB, activations 29.33 GiB); nothing written" \
    $G $GPT3 --global-batch 8 --tp 8 --pp 1 --dp 1 --memory-capacity 80GiB --out "$T/m8/g"
[ -e "$T/m8" ] && fail "a rank beyond --memory-capacity left output behind"
$G $GPT3 --global-batch 64 --tp 8 --pp 8 --dp 1 --recompute full --memory-capacity 80GiB --single-file \
    --out "$T/m64/g" >"$T/mem" || fail "175B on TP 8 x PP 8 with full recomputation does not fit"
expect_eq "$(head -n 2 "$T/mem")" "memory: rank 0: 51.57 GiB (parameters 5.21 GiB, gradients 10.42 GiB, optimizer \
31.25 GiB, activations 4.69 GiB)
memory: rank 8: 49.50 GiB (parameters 5.06 GiB, gradients 10.12 GiB, optimizer 30.38 GiB, activations 3.94 GiB)" \
    "memory lines"
expect_eq "$(wc -l <"$T/mem")" 8 "one memory line per pipeline stage"

# An output that cannot be created (a directory in the way of rank 3).
mkdir -p "$T/wf/g.3.et"
expect_error "$P: $T/wf/g.3.et: cannot create: Is a directory" $G $L2 --out "$T/wf/g"
finish
