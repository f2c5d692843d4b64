#!/bin/sh
# vimana-et generate transformer: a tiny GPT (L=2, h=64, A=4, F=256, s=16,
# V=100, b=1, B=4, bf16) on TP 2 x PP 2 x DP 2 (1F1B and GPipe), checked node by node against
# figures derived by hand (docs/transformer.md), the closed forms of every
# communicator's bytes and of the iteration's FLOPs, a run through vimana,
# the roofline durations, and one-line errors for bad flags.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
# The roofline (--compute-model roofline) and whole pipeline messages
# (--pp-scatter-gather off): these checks pin their closed forms;
# gen_transformer_kernels.sh checks the default kernel model.
MODEL="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off"


expect_ok "$ET" generate transformer $MODEL --global-batch 4 --tp 2 --pp 2 --dp 2 --out "$T/gen/gpt"
for r in 0 1 2 3 4 5 6 7; do
    [ -f "$T/gen/gpt.$r.et" ] || fail "rank $r: no ET written"
done
[ -f "$T/gen/gpt.8.et" ] && fail "an ET beyond the 8 ranks"

# Placement rank = t + 2*(d + 2*p): TP groups {0,1} {2,3} (stage 0), {4,5}
# {6,7} (stage 1); DP groups pair equal t on a stage: {0,2} {1,3} {4,6} {5,7}.
groups_json "0 1" "2 3" "4 5" "6 7" "0 2" "1 3" "4 6" "5 7" >"$T/groups.want"
cmp -s "$T/gen/gpt.groups.json" "$T/groups.want" || fail "groups file: $(cat "$T/gen/gpt.groups.json")"

# Hand-derived per-rank figures (T=2, so h/T=32, F/T=128, V/T=50, A/T=2):
#   attention fwd FLOPs (8bsh^2 + 4bs^2h)/T = (524288 + 65536)/2 = 294912,
#     bytes 2*(4h*h/T + 2bsh + 3bs*h/T + 2b*(A/T)*s^2) = 2*(8192+2048+1536+1024) = 25600
#   MLP fwd FLOPs 4bsh*F/T = 524288, bytes 2*(2h*F/T + 2bsh + 2bs*F/T) = 45056
#   LM head fwd FLOPs 2bsh*V/T = 102400, bytes 2*(h*V/T + bsh + bs*V/T) = 10048
#   backward = 2 x forward; activation message b*s*h*2 = 2048 bytes
#   parameters per rank: 1 layer * (4h*h/T + 2h*F/T) + h*V/T = 8192+16384+3200 = 27776,
#     DP all-reduce 2 * 27776 = 55552 bytes; Adam 10 FLOPs and 28 bytes per parameter
#   micro-batches B/(b*D) = 2; tags: forward m, backward 2+m.
# Every duration is 1 us: the largest, 1048576 FLOPs at 494.5 TFLOP/s, is ~2 ns.
cat >"$T/rank0.want" <<'L'
0 COMP fwd_mb0_layer0_attn ops=294912 bytes=25600 us=1 deps=
1 COLL tp_all_reduce_fwd_mb0_layer0_attn AR size=2048 pg=1 deps=0
2 COMP fwd_mb0_layer0_mlp ops=524288 bytes=45056 us=1 deps=1
3 COLL tp_all_reduce_fwd_mb0_layer0_mlp AR size=2048 pg=1 deps=2
4 SEND send_fwd_mb0 0->4 tag=0 size=2048 deps=3
5 COMP fwd_mb1_layer0_attn ops=294912 bytes=25600 us=1 deps=3
6 COLL tp_all_reduce_fwd_mb1_layer0_attn AR size=2048 pg=1 deps=5
7 COMP fwd_mb1_layer0_mlp ops=524288 bytes=45056 us=1 deps=6
8 COLL tp_all_reduce_fwd_mb1_layer0_mlp AR size=2048 pg=1 deps=7
9 SEND send_fwd_mb1 0->4 tag=1 size=2048 deps=8
10 RECV recv_bwd_mb0 4->0 tag=2 size=2048 deps=8
11 COMP bwd_mb0_layer0_mlp ops=1048576 bytes=90112 us=1 deps=10
12 COLL tp_all_reduce_bwd_mb0_layer0_mlp AR size=2048 pg=1 deps=11
13 COMP bwd_mb0_layer0_attn ops=589824 bytes=51200 us=1 deps=12
14 COLL tp_all_reduce_bwd_mb0_layer0_attn AR size=2048 pg=1 deps=13
15 RECV recv_bwd_mb1 4->0 tag=3 size=2048 deps=14
16 COMP bwd_mb1_layer0_mlp ops=1048576 bytes=90112 us=1 deps=15
17 COLL tp_all_reduce_bwd_mb1_layer0_mlp AR size=2048 pg=1 deps=16
18 COMP bwd_mb1_layer0_attn ops=589824 bytes=51200 us=1 deps=17
19 COLL tp_all_reduce_bwd_mb1_layer0_attn AR size=2048 pg=1 deps=18
20 COLL dp_all_reduce_grads AR size=55552 pg=5 deps=19
21 COMP optimizer_step ops=277760 bytes=777728 us=1 deps=19,20
L
tf_list "$T/gen/gpt.0.et" >"$T/rank0.got"
cmp -s "$T/rank0.got" "$T/rank0.want" || { fail "rank 0 nodes"; diff "$T/rank0.want" "$T/rank0.got" >&2; }

# Rank 7 = (t 1, d 1, p 1): last stage, TP group 4, DP group 8, peer 3.
# 1F1B on the last stage has no warm-up: F0 B0 F1 B1 (stage 0 warms up with
# one forward: F0 F1 B0 B1, the same as GPipe at M = 2).
cat >"$T/rank7.want" <<'L'
0 RECV recv_fwd_mb0 3->7 tag=0 size=2048 deps=
1 COMP fwd_mb0_layer1_attn ops=294912 bytes=25600 us=1 deps=0
2 COLL tp_all_reduce_fwd_mb0_layer1_attn AR size=2048 pg=4 deps=1
3 COMP fwd_mb0_layer1_mlp ops=524288 bytes=45056 us=1 deps=2
4 COLL tp_all_reduce_fwd_mb0_layer1_mlp AR size=2048 pg=4 deps=3
5 COMP fwd_mb0_lm_head ops=102400 bytes=10048 us=1 deps=4
6 COMP bwd_mb0_lm_head ops=204800 bytes=20096 us=1 deps=5
7 COMP bwd_mb0_layer1_mlp ops=1048576 bytes=90112 us=1 deps=6
8 COLL tp_all_reduce_bwd_mb0_layer1_mlp AR size=2048 pg=4 deps=7
9 COMP bwd_mb0_layer1_attn ops=589824 bytes=51200 us=1 deps=8
10 COLL tp_all_reduce_bwd_mb0_layer1_attn AR size=2048 pg=4 deps=9
11 SEND send_bwd_mb0 7->3 tag=2 size=2048 deps=10
12 RECV recv_fwd_mb1 3->7 tag=1 size=2048 deps=10
13 COMP fwd_mb1_layer1_attn ops=294912 bytes=25600 us=1 deps=12
14 COLL tp_all_reduce_fwd_mb1_layer1_attn AR size=2048 pg=4 deps=13
15 COMP fwd_mb1_layer1_mlp ops=524288 bytes=45056 us=1 deps=14
16 COLL tp_all_reduce_fwd_mb1_layer1_mlp AR size=2048 pg=4 deps=15
17 COMP fwd_mb1_lm_head ops=102400 bytes=10048 us=1 deps=16
18 COMP bwd_mb1_lm_head ops=204800 bytes=20096 us=1 deps=17
19 COMP bwd_mb1_layer1_mlp ops=1048576 bytes=90112 us=1 deps=18
20 COLL tp_all_reduce_bwd_mb1_layer1_mlp AR size=2048 pg=4 deps=19
21 COMP bwd_mb1_layer1_attn ops=589824 bytes=51200 us=1 deps=20
22 COLL tp_all_reduce_bwd_mb1_layer1_attn AR size=2048 pg=4 deps=21
23 SEND send_bwd_mb1 7->3 tag=3 size=2048 deps=22
24 COLL dp_all_reduce_grads AR size=55552 pg=8 deps=22
25 COMP optimizer_step ops=277760 bytes=777728 us=1 deps=22,24
L
tf_list "$T/gen/gpt.7.et" >"$T/rank7.got"
cmp -s "$T/rank7.got" "$T/rank7.want" || { fail "rank 7 nodes"; diff "$T/rank7.want" "$T/rank7.got" >&2; }

# Every rank: node kinds and the bytes of each communicator. Stage 0:
# 9 COMP (2 layers-passes x 2 micro-batches x 2 + optimizer), stage 1: 13 (+4 LM head).
for r in 0 1 2 3 4 5 6 7; do
    tf_list "$T/gen/gpt.$r.et" >"$T/l.$r"
    stage=$((r / 4))
    kinds=$(awk '{ n[$2]++ } END { printf "%d %d %d %d", n["COMP"], n["COLL"], n["SEND"], n["RECV"] }' "$T/l.$r")
    [ $stage -eq 0 ] && want_kinds="9 9 2 2" || want_kinds="13 9 2 2"
    expect_eq "$kinds" "$want_kinds" "rank $r COMP COLL SEND RECV"
    # TP: 1 layer x 2 passes x 2 all-reduces x 2 micro-batches x b*s*h*2.
    expect_eq "$(awk '/tp_all_reduce/ { split($5, s, "="); t += s[2] } END { print t }' "$T/l.$r")" \
        $((8 * 2048)) "rank $r TP bytes"
    # PP: one message of b*s*h*2 per micro-batch and direction.
    expect_eq "$(awk '$2 == "SEND" { split($6, s, "="); print s[2] }' "$T/l.$r" | sort -u)" 2048 "rank $r PP bytes"
done
# DP: a replica's ranks (d = 0: 0, 1, 4, 5) together all-reduce every
# parameter once, 2 bytes each: params = L(4h^2 + 2hF) + 2Vh = 98304 + 12800 = 111104;
# per rank params/(T*P)*2 = 55552.
dp_sum=$(cat "$T/l.0" "$T/l.1" "$T/l.4" "$T/l.5" | awk '/dp_all_reduce/ { split($5, s, "="); t += s[2] } END { print t }')
expect_eq "$dp_sum" $((111104 * 2)) "DP bytes of replica 0"
# FLOPs of the iteration over all ranks: 72*B*s*L*h^2*(1 + s/(6h) + V/(12Lh))
# = 37748736 + 1572864 + 2457600 = 41779200 (F = 4h, no recomputation).
flops=$(cat "$T"/l.? | awk '$3 ~ /^(fwd|bwd)_/ { split($4, s, "="); t += s[2] } END { printf "%d", t }')
expect_eq "$flops" 41779200 "iteration FLOPs"

expect_ok "$ET" validate "$T/gen/gpt"
expect_eq "$(cat "$T/out")" "$T/gen/gpt: valid (8 files, 192 nodes, 16 send/recv pairs matched)" "validate"

# The simulator runs it on the groups: stage 0 computes 9 us, stage 1 13 us.
SIMARGS="--system-configuration=$S/inputs/system/ring.json --network-configuration=$S/inputs/network/switch8.yml"
sim_cycles() { # PREFIX STAGE0-LINE-TAIL STAGE1-LINE-TAIL
    expect_ok "$VIMANA" --workload-configuration="$1" $SIMARGS --comm-group-configuration="$1.groups.json"
    for r in 0 1 2 3 4 5 6 7; do
        [ $r -lt 4 ] && want=$2 || want=$3
        grep -qxF "sys[$r] finished, $want." "$T/out" ||
            fail "sim $1 rank $r: $(grep "sys\[$r\] finished" "$T/out")"
    done
}
sim_cycles "$T/gen/gpt" "128466 cycles, exposed communication 119466 cycles" \
    "110042 cycles, exposed communication 97042 cycles"

# The schedules at M = 4 (B = 8): the order of the micro-batches' passes on
# each stage. 1F1B: stage 0 warms up with P-1-p = 1 forward; GPipe: all
# forwards first.
order() { # ET-FILE: F<m>/B<m> for each pass, in node order
    tf_list "$1" | awk '$3 ~ /_layer[0-9]+_attn$/ && $2 == "COMP" {
        split($3, n, "_"); m = substr(n[2], 3); k = (n[1] == "fwd") ? "F" m : "B" m
        if (k != last) printf "%s%s", (out++ ? " " : ""), k; last = k } END { print "" }'
}
for sched in 1f1b gpipe; do
    expect_ok "$ET" generate transformer $MODEL --global-batch 8 --tp 2 --pp 2 --dp 2 --schedule $sched \
        --out "$T/$sched/gpt"
    expect_ok "$ET" validate "$T/$sched/gpt"
done
expect_eq "$(order "$T/1f1b/gpt.0.et")" "F0 F1 B0 F2 B1 F3 B2 B3" "1F1B stage 0"
expect_eq "$(order "$T/1f1b/gpt.5.et")" "F0 B0 F1 B1 F2 B2 F3 B3" "1F1B stage 1"
expect_eq "$(order "$T/gpipe/gpt.0.et")" "F0 F1 F2 F3 B0 B1 B2 B3" "GPipe stage 0"
expect_eq "$(order "$T/gpipe/gpt.5.et")" "F0 F1 F2 F3 B0 B1 B2 B3" "GPipe stage 1"
sim_cycles "$T/1f1b/gpt" "206238 cycles, exposed communication 189238 cycles" \
    "187814 cycles, exposed communication 162814 cycles"
sim_cycles "$T/gpipe/gpt" "206124 cycles, exposed communication 189124 cycles" \
    "187700 cycles, exposed communication 162700 cycles"

# --dp-buckets 2 with 4 layers (2 per stage): in the last micro-batch's
# backward, bucket 0 (the stage's upper layer: 4h*h/T + 2h*F/T = 24576
# params; + the LM head's h*V/T = 3200 on the last stage) goes out as soon as
# that layer is done, off the chain; bucket 1 (the lower layer; + the
# embedding on the first stage) after the send, waiting for bucket 0; the
# optimizer waits for the chain and the last bucket. 52352 params per rank.
expect_ok "$ET" generate transformer --layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off \
    --micro-batch 1 --global-batch 4 --tp 2 --pp 2 --dp 2 --dp-buckets 2 --out "$T/bk/gpt"
expect_ok "$ET" validate "$T/bk/gpt"
expect_eq "$(tf_list "$T/bk/gpt.0.et" | grep -E 'dp_all|optimizer|^3[1-6] ')" \
"31 COLL tp_all_reduce_bwd_mb1_layer1_attn AR size=2048 pg=1 deps=30
32 COLL dp_all_reduce_grads_bucket0 AR size=49152 pg=5 deps=31
33 COMP bwd_mb1_layer0_mlp ops=1048576 bytes=90112 us=1 deps=31
34 COLL tp_all_reduce_bwd_mb1_layer0_mlp AR size=2048 pg=1 deps=33
35 COMP bwd_mb1_layer0_attn ops=589824 bytes=51200 us=1 deps=34
36 COLL tp_all_reduce_bwd_mb1_layer0_attn AR size=2048 pg=1 deps=35
37 COLL dp_all_reduce_grads_bucket1 AR size=55552 pg=5 deps=36,32
38 COMP optimizer_step ops=523520 bytes=1465856 us=1 deps=36,37" "buckets of stage 0"
expect_eq "$(tf_list "$T/bk/gpt.4.et" | grep -E 'dp_all|optimizer|SEND send_bwd_mb1')" \
"35 COLL dp_all_reduce_grads_bucket0 AR size=55552 pg=7 deps=34
40 SEND send_bwd_mb1 4->0 tag=3 size=2048 deps=39
41 COLL dp_all_reduce_grads_bucket1 AR size=49152 pg=7 deps=39,35
42 COMP optimizer_step ops=523520 bytes=1465856 us=1 deps=39,41" "buckets of stage 1"
sim_cycles "$T/bk/gpt" "258314 cycles, exposed communication 241314 cycles" \
    "211658 cycles, exposed communication 190658 cycles"

# --sp: each TP all-reduce becomes a reduce-scatter of b*s*h*2 = 2048 bytes
# (its input: the whole activation) and an all-gather of 2048 / T = 1024
# bytes (its input: the rank's slice of the sequence); nothing else changes.
# The simulator, like Chakra, reads an all-gather's comm_size as each rank's
# input: the all-gather then moves what the reduce-scatter did.
expect_ok "$ET" generate transformer $MODEL --global-batch 4 --tp 2 --pp 2 --dp 2 --sp --out "$T/sp/gpt"
tf_list "$T/sp/gpt.0.et" >"$T/sp.0"
expect_eq "$(grep -c ' RS size=2048 pg=1 ' "$T/sp.0")" 8 "sp reduce-scatters"
expect_eq "$(grep -c ' AG size=1024 pg=1 ' "$T/sp.0")" 8 "sp all-gathers"
expect_eq "$(grep -c 'tp_all_reduce' "$T/sp.0")" 0 "sp all-reduces"
# and a pipeline message is the rank's slice of the sequence too
expect_eq "$(grep -c ' SEND send_fwd_mb[0-9]* 0->4 tag=[0-9]* size=1024 ' "$T/sp.0")" 2 "sp pipeline messages"
expect_eq "$(sed -n 2,3p "$T/sp.0" | cut -d' ' -f3)" "tp_reduce_scatter_fwd_mb0_layer0_attn
tp_all_gather_fwd_mb0_layer0_attn" "sp order"
expect_ok "$ET" validate "$T/sp/gpt"
expect_ok "$VIMANA" --workload-configuration="$T/sp/gpt" $SIMARGS --comm-group-configuration="$T/sp/gpt.groups.json"
expect_eq "$(grep -c 'finished' "$T/out")" 8 "sp run"

# Degenerate sizes: no group of one rank, no collective on it.
expect_ok "$ET" generate transformer $MODEL --global-batch 4 --tp 1 --pp 1 --dp 1 --out "$T/one/gpt"
expect_eq "$(cat "$T/one/gpt.groups.json")" "{}" "no groups"
tf_list "$T/one/gpt.0.et" >"$T/one.0"
expect_eq "$(awk '$2 != "COMP"' "$T/one.0" | wc -l)" 0 "single rank: compute only"
expect_eq "$(wc -l <"$T/one.0")" 41 "single rank: 4 mb x (2 layers x 2 + head) x 2 passes + optimizer"

# Roofline: h=4096, s=2048, T=1. Attention fwd FLOPs 8sh^2 + 4s^2h =
# 343597383680 / (989e12 * 0.5) = 694.84 us -> 695 (compute-bound); the
# optimizer moves 28 B x 620756992 params = 17381195776 B / 3.35e12 = 5188.42 us
# -> 5189 (memory-bound). a100 at 0.25: 343597383680 / 78e12 = 4405.1 -> 4406.
BIG="--layers 1 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1 --tp 1 --pp 1 --dp 1 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off"
expect_ok "$ET" generate transformer $BIG --out "$T/big/h"
tf_list "$T/big/h.0.et" >"$T/big.0"
expect_eq "$(sed -n 1p "$T/big.0")" "0 COMP fwd_mb0_layer0_attn ops=343597383680 bytes=754974720 us=695 deps=" "h100 attention"
expect_eq "$(sed -n 7p "$T/big.0")" "6 COMP optimizer_step ops=6207569920 bytes=17381195776 us=5189 deps=5" "h100 optimizer"
expect_ok "$ET" generate transformer $BIG --device a100 --efficiency 0.25 --precision fp16 --out "$T/big/a"
expect_eq "$(tf_list "$T/big/a.0.et" | sed -n 1p)" "0 COMP fwd_mb0_layer0_attn ops=343597383680 bytes=754974720 us=4406 deps=" "a100 attention"

# Help, and one-line errors naming the flag.
expect_ok "$ET" generate transformer --help
grep -q '^Usage: vimana-et generate transformer --layers L' "$T/out" || fail "help text"
G="$ET generate transformer"
ALL="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --global-batch 4 --out $T/e/x"
expect_error "$P: --layers: expected 1 to 16777216, got 0" $G $ALL --tp 2 --pp 2 --dp 2 --layers 0
expect_error "$P: --dp: expected 1 to 16777216, got 0" $G $ALL --tp 2 --pp 2 --dp 0
expect_error "$P: --layers: 2 is not divisible by --pp 3" $G $ALL --tp 2 --pp 3 --dp 2
expect_error "$P: --heads: 4 is not divisible by --tp 8" $G $ALL --tp 8 --pp 1 --dp 1
expect_error "$P: --hidden: 64 is not divisible by --heads 5" $G $ALL --tp 1 --pp 1 --dp 1 --heads 5
expect_error "$P: --ffn: 255 is not divisible by --tp 2" $G $ALL --tp 2 --pp 1 --dp 1 --ffn 255
expect_error "$P: --vocab: 101 is not divisible by --tp 2" $G $ALL --tp 2 --pp 1 --dp 1 --vocab 101
expect_error "$P: --seq: 16 is not divisible by --tp (with --sp) 3" $G $ALL --tp 3 --pp 1 --dp 1 --heads 3 --hidden 48 --ffn 48 --vocab 96 --sp
expect_error "$P: --global-batch: 4 is not divisible by --micro-batch 1 x --dp 3" $G $ALL --tp 1 --pp 1 --dp 3
expect_error "$P: --tp 1000 x --pp 1000 x --dp 2: more than 1000000 ranks" $G $ALL --tp 1000 --pp 1000 --dp 2
expect_error "$P: --efficiency: expected a number from 0.000001 to 1, got 1.5" $G $ALL --tp 1 --pp 1 --dp 1 --efficiency 1.5
# 1e-300 crashed (UBSan) on a duration cast out of uint64's range
expect_error "$P: --efficiency: expected a number from 0.000001 to 1, got 1e-300" $G $ALL --tp 1 --pp 1 --dp 1 \
    --efficiency 1e-300
expect_error "$P: --device: unknown device 'tpu' (expected h100, h200, a100, or a device file: a path, see docs/transformer.md)" \
    $G $ALL --tp 1 --pp 1 --dp 1 --device tpu
expect_error "$P: --precision: expected bf16, fp16 or fp8, got 'fp4'" $G $ALL --tp 1 --pp 1 --dp 1 --precision fp4
expect_error "$P: --precision: a100 has no FP8 tensor cores (fp8 needs --device h100)" \
    $G $ALL --tp 1 --pp 1 --dp 1 --precision fp8 --device a100
expect_error "$P: --compute-model: expected kernels or roofline, got 'fast'" $G $ALL --tp 1 --pp 1 --dp 1 --compute-model fast
expect_error "$P: --efficiency: the roofline's; cannot be combined with --compute-model kernels" \
    $G $ALL --tp 1 --pp 1 --dp 1 --compute-model kernels --efficiency 0.4
expect_error "$P: --recompute: expected full or selective, got 'partial'" $G $ALL --tp 1 --pp 1 --dp 1 --recompute=partial
expect_error "$P: --dp-buckets: 3 does not divide the 1 layers of a stage (--layers / --pp)" \
    $G $ALL --tp 1 --pp 2 --dp 1 --dp-buckets 3
expect_error "$P: transformer: the kind must come first (vimana-et generate transformer --help)" \
    "$ET" generate --npus 2 transformer
expect_error "$P: --schedule: expected 1f1b or gpipe, got 'zb'" $G $ALL --tp 1 --pp 1 --dp 1 --schedule zb
expect_error "$P: transformer: missing --tp" $G $ALL --pp 1 --dp 1
expect_error "$P: unknown option '--npus' (see generate transformer --help)" $G $ALL --tp 1 --pp 1 --dp 1 --npus 2
expect_error "$P: --hidden/--seq/--layers: a data-parallel replica's per-iteration FLOPs overflow 64 bits" \
    $G $ALL --tp 1 --pp 1 --dp 1 --hidden 16777216 --heads 1 --seq 16777216
[ -e "$T/e" ] && fail "an error left output behind"

finish
