#!/bin/sh
# vimana-et generate transformer --virtual-stages V (interleaved 1F1B,
# Megatron-LM): L=4, h=64, A=4, F=256, s=16, V=100, b=1, B=8 on TP 2 x PP 2 x
# DP 2 with 2 model chunks per rank, so M = 4 micro-batches, one layer per
# chunk, chunk v of stage p = virtual stage 2v + p = layer 2v + p. Checked:
# the pass order of both stages, rank 0's pipeline messages and DP buckets
# node by node, node kinds and the bytes of every communicator against the
# closed forms, the iteration's FLOPs, exact simulated cycles, and the
# one-line errors of the flag.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
MODEL="--layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --global-batch 8 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off"

# F<m>c<v> / B<m>c<v> per pass in node order; the chunk of layer l is l / 2.
order() {
    tf_list "$1" | awk '$2 == "COMP" && $3 ~ /_layer[0-9]+_attn$/ {
        split($3, n, "_"); m = substr(n[2], 3); v = int(substr(n[3], 6) / 2)
        printf "%s%s%sc%s", (out++ ? " " : ""), (n[1] == "fwd" ? "F" : "B"), m, v } END { print "" }'
}

expect_ok "$ET" generate transformer $MODEL --tp 2 --pp 2 --dp 2 --virtual-stages 2 --out "$T/v/gpt"
expect_ok "$ET" validate "$T/v/gpt"
# 3 virtual-stage boundaries x 4 micro-batches x 2 directions per pipeline, 4 pipelines.
expect_eq "$(cat "$T/out")" "$T/v/gpt: valid (8 files, 760 nodes, 96 send/recv pairs matched)" "validate"

# Megatron-LM's order: virtual micro-batch k is micro-batch (k / 4) * 2 + k % 2
# of chunk (k % 4) / 2 (backward: 1 - that); stage p warms up with
# (P-1-p)*2 + (V-1)*P forwards (stage 0: 4, stage 1: 2), then one forward
# and one backward in turn, then the rest of the backwards.
expect_eq "$(order "$T/v/gpt.0.et")" \
    "F0c0 F1c0 F0c1 F1c1 F2c0 B0c1 F3c0 B1c1 F2c1 B0c0 F3c1 B1c0 B2c1 B3c1 B2c0 B3c0" "stage 0 order"
expect_eq "$(order "$T/v/gpt.4.et")" \
    "F0c0 F1c0 F0c1 B0c1 F1c1 B1c1 F2c0 B0c0 F3c0 B1c0 F2c1 B2c1 F3c1 B3c1 B2c0 B3c0" "stage 1 order"

# Rank 0 (t 0, d 0, stage 0) talks to rank 4 (stage 1) only. Forward
# messages of chunk v carry tag 2*M*v + m, backward 2*M*v + M + m, named
# after the chunk that sends or receives; chunk 0 is virtual stage 0 (no
# forward receive, no backward send), chunk 1 receives its forward input from
# stage 1's chunk 0 (tag m) and sends its output to stage 1's chunk 1 (tag
# 8 + m). The DP gradients go per chunk, each in the last micro-batch's
# backward of that chunk: chunk 1's (one layer, 4h*h/T + 2h*F/T = 24576
# params x 2 bytes) after its send, chunk 0's (one layer + the embedding's
# h*V/T = 3200 params) at the end, waiting for chunk 1's.
cat >"$T/rank0.want" <<'L'
4 SEND send_fwd_mb0_chunk0 0->4 tag=0 size=2048 deps=3
9 SEND send_fwd_mb1_chunk0 0->4 tag=1 size=2048 deps=8
10 RECV recv_fwd_mb0_chunk1 4->0 tag=0 size=2048 deps=8
15 SEND send_fwd_mb0_chunk1 0->4 tag=8 size=2048 deps=14
16 RECV recv_fwd_mb1_chunk1 4->0 tag=1 size=2048 deps=14
21 SEND send_fwd_mb1_chunk1 0->4 tag=9 size=2048 deps=20
26 SEND send_fwd_mb2_chunk0 0->4 tag=2 size=2048 deps=25
27 RECV recv_bwd_mb0_chunk1 4->0 tag=12 size=2048 deps=25
32 SEND send_bwd_mb0_chunk1 0->4 tag=12 size=2048 deps=31
37 SEND send_fwd_mb3_chunk0 0->4 tag=3 size=2048 deps=36
38 RECV recv_bwd_mb1_chunk1 4->0 tag=13 size=2048 deps=36
43 SEND send_bwd_mb1_chunk1 0->4 tag=13 size=2048 deps=42
44 RECV recv_fwd_mb2_chunk1 4->0 tag=2 size=2048 deps=42
49 SEND send_fwd_mb2_chunk1 0->4 tag=10 size=2048 deps=48
50 RECV recv_bwd_mb0_chunk0 4->0 tag=4 size=2048 deps=48
55 RECV recv_fwd_mb3_chunk1 4->0 tag=3 size=2048 deps=54
60 SEND send_fwd_mb3_chunk1 0->4 tag=11 size=2048 deps=59
61 RECV recv_bwd_mb1_chunk0 4->0 tag=5 size=2048 deps=59
66 RECV recv_bwd_mb2_chunk1 4->0 tag=14 size=2048 deps=65
71 SEND send_bwd_mb2_chunk1 0->4 tag=14 size=2048 deps=70
72 RECV recv_bwd_mb3_chunk1 4->0 tag=15 size=2048 deps=70
77 SEND send_bwd_mb3_chunk1 0->4 tag=15 size=2048 deps=76
78 COLL dp_all_reduce_grads_chunk1 AR size=49152 pg=5 deps=76
79 RECV recv_bwd_mb2_chunk0 4->0 tag=6 size=2048 deps=76
84 RECV recv_bwd_mb3_chunk0 4->0 tag=7 size=2048 deps=83
89 COLL dp_all_reduce_grads_chunk0 AR size=55552 pg=5 deps=88,78
90 COMP optimizer_step ops=523520 bytes=1465856 us=1 deps=88,89
L
tf_list "$T/v/gpt.0.et" | grep -E ' (SEND|RECV) |dp_all|optimizer' >"$T/rank0.got"
cmp -s "$T/rank0.got" "$T/rank0.want" || { fail "rank 0 nodes"; diff "$T/rank0.want" "$T/rank0.got" >&2; }

# Per rank: COMP = 4 mb x 2 chunks x 2 passes x 2 (+ optimizer, + 8 LM head
# on stage 1); COLL = as many TP all-reduces (T = 2) + 2 DP chunks; 12 SEND,
# 12 RECV. TP bytes: 32 x b*s*h*2; PP: b*s*h*2 per message.
for r in 0 1 2 3 4 5 6 7; do
    tf_list "$T/v/gpt.$r.et" >"$T/l.$r"
    kinds=$(awk '{ n[$2]++ } END { printf "%d %d %d %d", n["COMP"], n["COLL"], n["SEND"], n["RECV"] }' "$T/l.$r")
    [ $r -lt 4 ] && want="33 34 12 12" || want="41 34 12 12"
    expect_eq "$kinds" "$want" "rank $r COMP COLL SEND RECV"
    expect_eq "$(awk '/tp_all_reduce/ { split($5, s, "="); t += s[2] } END { print t }' "$T/l.$r")" \
        $((32 * 2048)) "rank $r TP bytes"
    expect_eq "$(awk '$2 == "SEND" || $2 == "RECV" { split($6, s, "="); print s[2] }' "$T/l.$r" | sort -u)" 2048 \
        "rank $r PP bytes"
done
# DP: replica 0's ranks (0, 1, 4, 5) all-reduce every parameter once:
# L(4h^2 + 2hF) + 2Vh = 196608 + 12800 = 209408 params x 2 bytes.
dp_sum=$(cat "$T/l.0" "$T/l.1" "$T/l.4" "$T/l.5" | awk '/dp_all_reduce/ { split($5, s, "="); t += s[2] } END { print t }')
expect_eq "$dp_sum" $((209408 * 2)) "DP bytes of replica 0"
# Interleaving moves work around, it adds none: 72*B*s*L*h^2*(1 + s/(6h) + V/(12Lh))
# = 150994944 + 6291456 + 4915200.
flops=$(cat "$T"/l.? | awk '$3 ~ /^(fwd|bwd)_/ { split($4, s, "="); t += s[2] } END { printf "%d", t }')
expect_eq "$flops" 162201600 "iteration FLOPs"

SIMARGS="--system-configuration=$S/inputs/system/ring.json --network-configuration=$S/inputs/network/switch8.yml"
expect_ok "$VIMANA" --workload-configuration="$T/v/gpt" $SIMARGS --comm-group-configuration="$T/v/gpt.groups.json"
for r in 0 1 2 3 4 5 6 7; do
    [ $r -lt 4 ] && want="366742 cycles, exposed communication 333742 cycles" ||
        want="348006 cycles, exposed communication 307006 cycles"
    grep -qxF "sys[$r] finished, $want." "$T/out" || fail "sim rank $r: $(grep "sys\[$r\] finished" "$T/out")"
done

# M = P: every pass of stage 0 is a warm-up forward (Megatron-LM), P = 4 and
# V = 3 with buckets per chunk; both validate and run.
expect_ok "$ET" generate transformer $MODEL --global-batch 4 --tp 1 --pp 2 --dp 2 --virtual-stages 2 --out "$T/m/gpt"
expect_eq "$(order "$T/m/gpt.0.et")" "F0c0 F1c0 F0c1 F1c1 B0c1 B1c1 B0c0 B1c0" "M = P, stage 0"
expect_ok "$ET" generate transformer --layers 24 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off \
    --micro-batch 1 --global-batch 8 --tp 1 --pp 4 --dp 2 --virtual-stages 3 --dp-buckets 2 --out "$T/p4/gpt"
expect_ok "$ET" validate "$T/p4/gpt"
expect_eq "$(tf_list "$T/p4/gpt.0.et" | grep -c 'dp_all_reduce_grads_chunk[0-2]_bucket[01] ')" 6 "buckets per chunk"
expect_ok "$VIMANA" --workload-configuration="$T/p4/gpt" $SIMARGS --comm-group-configuration="$T/p4/gpt.groups.json"
expect_eq "$(grep -c 'finished' "$T/out")" 8 "P = 4, V = 3 run"

# One-line errors.
G="$ET generate transformer"
ALL="$MODEL --tp 1 --dp 1 --out $T/e/x"
expect_error "$P: --virtual-stages: expected 1 to 16777216, got 0" $G $ALL --pp 2 --virtual-stages 0
expect_error "$P: --virtual-stages: 2 needs --pp 2 or more" $G $ALL --pp 1 --virtual-stages 2
expect_error "$P: --virtual-stages: interleaving needs --schedule 1f1b, not gpipe" \
    $G $ALL --pp 2 --virtual-stages 2 --schedule gpipe
expect_error "$P: --layers: 4 is not divisible by --pp 2 x --virtual-stages 3" $G $ALL --pp 2 --virtual-stages 3
expect_error "$P: --virtual-stages: the 6 micro-batches (--global-batch / (--micro-batch x --dp)) are not a multiple of --pp 4" \
    $G $MODEL --layers 8 --global-batch 6 --tp 1 --dp 1 --pp 4 --virtual-stages 2 --out "$T/e/x"
expect_error "$P: --dp-buckets: 2 does not divide the 1 layers of a model chunk (--layers / (--pp x --virtual-stages))" \
    $G $ALL --pp 2 --virtual-stages 2 --dp-buckets 2
expect_error "$P: --virtual-stages: 64 x 16777216 micro-batches exceed the 32-bit pipeline tags" \
    $G $MODEL --layers 128 --global-batch 16777216 --tp 1 --dp 1 --pp 2 --virtual-stages 64 --out "$T/e/x"
[ -e "$T/e" ] && fail "an error left output behind"
finish
