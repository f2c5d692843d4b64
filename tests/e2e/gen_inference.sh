#!/bin/sh
# vimana-et generate inference (docs/inference.md): a tiny model whose node
# durations are derived by hand and whose simulated finish cycles are
# pinned, the markers, a Llama-2-7B-like model on TP 2 through the
# simulator (TTFT at prompt 1024 >= 1.8 x at 512, decode steps not getting
# cheaper), the 70B-class decode step, --memory-capacity, --help against
# the man page, and the one-line errors.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"

# Tiny: 4 layers, h 256, 4 heads of 64, 2 KV heads, F 512, V 1024, TP 2,
# PP 2, one sequence, prompt 8 in chunks of 4, 2 decode iterations.
# Each GEMM fits one 128 x 256 tile: one CTA, one wave of 132 SMs, so it
# takes 2 x 132 x 128 x 256 x (k + 64) / (989 TFLOP/s x 0.7103) whatever
# m and n: k = 256 (QKV: 128 query + 2 x 64 KV columns; fc1; fc2 on F/T =
# 256; the LM head's 512 logits) 3.9405 us, k = 128 (the output
# projection on h/T) 2.3643 us. The memory-bound kernels and the
# attention core take nanoseconds here. Attention: 3.9405 + 2.3643 + 0.005
# = 6.31 -> 7 us; MLP: 2 x 3.9405 + 0.005 = 7.886 -> 8 us; LM head
# 3.9405 + 0.0014 -> 4 us; prefill and decode alike (the tile, not the
# tokens, decides).
A="--layers 4 --hidden 256 --heads 4 --kv-heads 2 --ffn 512 --vocab 1024 --tp 2 --pp 2 --batch 1 --prompt-len 8 --prefill-chunk 4 --output-len 2"
expect_ok "$ET" generate inference $A --out "$T/tiny/w"
expect_eq "$(sed -n 3p "$T/out")" "steps: 2 prefill chunks, 2 decode iterations; rank 0 computes the prefill in 60 us, decode 1 in 30 us, decode 2 in 30 us (layers only)" "steps line"
for r in 0 1 2 3; do tf_list "$T/tiny/w.$r.et" >"$T/l.$r"; done
expect_eq "$(awk '$2 == "COMP" { sub(/^(prefill_c|decode_t)[0-9]+_/, "", $3); sub(/layer[0-9]+_/, "", $3); print $3, $6 }' "$T/l.2" | LC_ALL=C sort | uniq -c | tr -s ' ')" \
" 8 attn us=7
 1 lm_head_first_token us=4
 1 lm_head_output_token1 us=4
 1 lm_head_output_token2 us=4
 8 mlp us=8" "tiny durations (stage 1)"
# FLOPs: prefill chunk 1 (4 tokens over 4 cached) attention: QKV 2x4x256x256
# + core 4 x 128 x (4x4 + 10) + output 2x4x128x256 = 524288 + 13312 + 262144
expect_eq "$(grep -c . "$T/l.0") $(grep -c . "$T/l.2")" "38 41" "node counts"
expect_eq "$(awk '$3 == "prefill_c1_layer0_attn" { print $4 }' "$T/l.0")" "ops=799744" "chunk 1 attention FLOPs"
# TP all-reduces of b x tokens x h x 2 bytes; the pipeline's activations
# (tags 2k) and the sampled token ids back to stage 0 (tags 2k + 1)
expect_eq "$(awk '$2 == "COLL" { print $5 }' "$T/l.0" | LC_ALL=C sort | uniq -c | tr -s ' ')" \
" 8 size=2048
 8 size=512" "TP all-reduce sizes"
expect_eq "$(awk '$2 == "SEND" || $2 == "RECV" { print $2, $4, $5, $6 }' "$T/l.2")" "RECV 0->2 tag=0 size=2048
RECV 0->2 tag=2 size=2048
SEND 2->0 tag=3 size=4
RECV 0->2 tag=4 size=512
SEND 2->0 tag=5 size=4
RECV 0->2 tag=6 size=512" "stage 1 messages"
# the markers: output_token = k on the LM head that samples token k
"$ET" json "$T/tiny/w.3.et" >"$T/j.3"
expect_eq "$(python3 -c '
import json, sys
for n in json.load(open(sys.argv[1]))["nodes"]:
    for a in n.get("attr", []):
        if a["name"] == "output_token":
            print(n["name"], [v for k, v in a.items() if k != "name"][0])' "$T/j.3")" \
"prefill_c1_lm_head_first_token 0
decode_t1_lm_head_output_token1 1
decode_t2_lm_head_output_token2 2" "markers"
expect_ok "$ET" validate "$T/tiny/w"
expect_eq "$(cat "$T/out")" "$T/tiny/w: valid (4 files, 158 nodes, 12 send/recv pairs matched)" "validate tiny"
# Simulated on HGX H100 (4 GPUs): stage 0 computes 4 steps x 2 layers x
# 15 us = 120 us, stage 1 the same and 3 LM heads of 4 us, 132 us; the rest
# is exposed communication.
expect_ok "$VIMANA" --workload-configuration="$T/tiny/w" --system-configuration="$S/inputs/presets/hgx-h100/4gpu/system.json" \
    --network-configuration="$S/inputs/presets/hgx-h100/4gpu/network.yml" --comm-group-configuration="$T/tiny/w.groups.json"
expect_eq "$(grep 'finished' "$T/out")" "sys[0] finished, 369810 cycles, exposed communication 249810 cycles.
sys[1] finished, 369810 cycles, exposed communication 249810 cycles.
sys[2] finished, 433546 cycles, exposed communication 301546 cycles.
sys[3] finished, 433546 cycles, exposed communication 301546 cycles." "tiny simulated cycles"

# --mlp swiglu: gate and up (h x F/T each, one GEMM of 2 x 256 columns:
# 2 tiles, still one wave) and down: 3 matrices, 2 x 3 x 4 tokens x 256 x
# 256 = 1572864 FLOPs in chunk 0 (GeLU: 1048576), still 8 us here.
expect_ok "$ET" generate inference $A --mlp swiglu --out "$T/sw/w"
tf_list "$T/sw/w.2.et" >"$T/l.sw"
expect_eq "$(awk '$3 == "prefill_c0_layer2_mlp" { print $4, $6 }' "$T/l.sw")" "ops=1572864 us=8" "SwiGLU MLP node"
expect_eq "$(awk '$3 == "prefill_c0_layer2_mlp" { print $4, $6 }' "$T/l.2")" "ops=1048576 us=8" "GeLU MLP node"
# the markers carry batch = B
"$ET" json "$T/sw/w.3.et" | grep -c '"name": "batch"' >"$T/nb"
expect_eq "$(cat "$T/nb")" 3 "batch on the 3 markers"

# Llama-2-7B-like on TP 2, batch 8, 16 output tokens, at prompt 512 and
# 1024: each simulated on HGX H100 (2 GPUs) with a timeline, whose LM head
# nodes give the time of each token on NPU 0.
L7="--layers 32 --hidden 4096 --heads 32 --ffn 11008 --vocab 32000 --tp 2 --pp 1 --batch 8 --output-len 16"
tokens() { # PROMPT-LEN: the end of each LM head on NPU 0, in us
    expect_ok "$ET" generate inference $L7 --prompt-len "$1" --out "$T/l7_$1/w"
    expect_ok "$ET" validate "$T/l7_$1/w"
    expect_ok "$VIMANA" --workload-configuration="$T/l7_$1/w" --system-configuration="$S/inputs/presets/hgx-h100/2gpu/system.json" \
        --network-configuration="$S/inputs/presets/hgx-h100/2gpu/network.yml" \
        --comm-group-configuration="$T/l7_$1/w.groups.json" --timeline="$T/l7_$1/tl.json"
    grep '^inference' "$T/out" >"$T/l7_$1/report"
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
for e in sorted((e for e in ev if "lm_head" in e.get("name", "") and e.get("pid") == 0), key=lambda e: e["ts"]):
    print("%.3f" % (e["ts"] + e["dur"]))' "$T/l7_$1/tl.json"
}
tokens 512 >"$T/t512"
tokens 1024 >"$T/t1024"
expect_eq "$(grep -c . "$T/t512")" 17 "first token and 16 decode tokens"
expect_eq "$(sed -n 1p "$T/t512") $(sed -n 1p "$T/t1024")" "44553.112 88995.992" "TTFT at 512 and 1024"
awk -v a="$(sed -n 1p "$T/t512")" -v b="$(sed -n 1p "$T/t1024")" 'BEGIN { exit !(b >= 1.8 * a) }' ||
    fail "TTFT at 1024 < 1.8 x at 512"
# decode steps: token 1 and token 16, each the time since the token before
expect_eq "$(awk 'NR > 1 { printf "%.3f\n", $1 - prev } { prev = $1 }' "$T/t512" | sed -n '1p;16p' | tr '\n' ' ')" \
    "2722.328 2722.328 " "decode steps 1 and 16"

# the simulator's own report: the same ends (TTFT, TPOT of 16 decode tokens)
expect_eq "$(cat "$T/l7_512/report")" "inference: NPU 0 (the LM head's markers), time to first token 44553112 cycles
inference: time per output token 2722328.000 cycles (mean of 16 decode tokens), the last (token 16) 2722328 cycles
inference: 1543.519 tokens/s (batch 8 x 17 tokens in 88110360 cycles)" "Llama-2-7B-like report at 512"
expect_eq "$(cat "$T/l7_1024/report")" "inference: NPU 0 (the LM head's markers), time to first token 88995992 cycles
inference: time per output token 3106328.000 cycles (mean of 16 decode tokens), the last (token 16) 3106328 cycles
inference: 980.553 tokens/s (batch 8 x 17 tokens in 138697240 cycles)" "Llama-2-7B-like report at 1024"

# --max-batch: (80 GiB - weights 5295308800) / (KV cache of a sequence:
# 4096 x 32 layers x 528 tokens x 2 bytes = 138412032) = 582.35
expect_ok "$ET" generate inference ${L7%--batch*}--output-len 16 --prompt-len 512 --memory-capacity 80GiB --max-batch
expect_eq "$(cat "$T/out")" "max batch: 582 (rank 0: 79.96 GiB of --memory-capacity 80.00 GiB: weights 4.93 GiB, KV cache 75.02 GiB of 528 tokens a sequence)" "--max-batch"
expect_error "$P: rank 0 needs 80.08 GiB, 0.08 GiB more than --memory-capacity 80.00 GiB (weights 4.93 GiB, KV cache 75.15 GiB); nothing written" \
    "$ET" generate inference ${L7%--batch*}--output-len 16 --prompt-len 512 --batch 583 --memory-capacity 80GiB --out "$T/mb/x"
[ ! -e "$T/mb" ] || fail "--max-batch: wrote something"

# 70B-class on one H100 (docs/inference.md, "Decode against the weights"):
# decode 1 is 80 layers x (107 + 331) us + the LM head 185 us = 35225 us.
B70="--layers 80 --hidden 8192 --heads 64 --kv-heads 8 --ffn 28672 --vocab 32000 --tp 1 --pp 1 --batch 1 --prompt-len 512 --output-len 1"
expect_ok "$ET" generate inference $B70 --out "$T/b70/w"
expect_eq "$(tf_list "$T/b70/w.0.et" | awk '$3 ~ /^decode_t1_/ { split($6, u, "="); t += u[2] } END { print t }')" 35225 "70B decode step"
expect_eq "$(sed -n 1p "$T/out")" "memory: rank 0: 93.63 GiB (weights 93.48 GiB, KV cache 0.16 GiB)" "70B memory"
# The same on an H200 (the H100's compute, 4.8 TB/s): 80 x (75 + 231) us +
# the LM head 129 us = 24609 us, the weights' bytes at 0.85 x 4.8 TB/s plus
# the attention core and the norms; measured on an H200, the step's GEMMs
# alone: 25137 us (docs/inference.md, "Decode against the weights").
expect_ok "$ET" generate inference $B70 --device h200 --out "$T/b70h/w"
expect_eq "$(tf_list "$T/b70h/w.0.et" | awk '$3 ~ /^decode_t1_/ { split($6, u, "="); t += u[2] } END { print t }')" 24609 "70B decode step, h200"
# SwiGLU: 80 x (2 x 8192^2 + 8192 x 2048 + 3 x 8192 x 28672) + 2 x 8192 x
# 32000 = 68975329280 parameters, 128.48 GiB at 2 bytes
expect_ok "$ET" generate inference $B70 --mlp swiglu --out "$T/b70s/w"
expect_eq "$(sed -n 1p "$T/out")" "memory: rank 0: 128.63 GiB (weights 128.48 GiB, KV cache 0.16 GiB)" "70B SwiGLU memory"
expect_error "$P: rank 0 needs 93.63 GiB, 13.63 GiB more than --memory-capacity 80.00 GiB (weights 93.48 GiB, KV cache 0.16 GiB); nothing written" \
    "$ET" generate inference $B70 --memory-capacity 80GiB --out "$T/b70/x"
[ ! -e "$T/b70/x.0.et" ] || fail "--memory-capacity: wrote a trace"

expect_error "$P: --max-batch: no batch fits: rank 0 needs 93.48 GiB for its weights alone, more than --memory-capacity 80.00 GiB" \
    "$ET" generate inference $B70 --memory-capacity 80GiB --max-batch
expect_error "$P: --max-batch: needs --memory-capacity SIZE, the memory the batch must fit" \
    "$ET" generate inference $B70 --max-batch

# --jobs: a 2-stage pipeline's inference lines for each job, from its own
# start: job b, starting at 7000 ticks beside job a on the analytical
# switch (nothing shared), prints job a's lines.
mkdir -p "$T/jobs"
expect_ok "$ET" generate inference --layers 2 --hidden 64 --heads 4 --ffn 256 --vocab 128 --tp 1 --pp 2 --batch 2 \
    --prompt-len 8 --output-len 3 --out "$T/jobs/w"
cp "$S/inputs/network/switch8.yml" "$S/inputs/presets/hgx-h100/2gpu/system.json" "$T/jobs/"
printf 'network: switch8.yml\nbackend: analytical\njobs:\n  - name: a\n    workload: w\n    system: system.json\n    dims: [2]\n    placement: contiguous\n  - name: b\n    workload: w\n    system: system.json\n    dims: [2]\n    start: 7000\n    placement: [4, 5]\n' \
    >"$T/jobs/j.yaml"
(cd "$T/jobs" && "$VIMANA" --jobs j.yaml) >"$T/jobs/out" 2>"$T/jobs/err" || fail "--jobs with inference traces: $(cat "$T/jobs/err")"
expect_eq "$(sed -n '/^job a: 2 NPUs/,/^job a: finished/p' "$T/jobs/out" | grep '^inference:')" "inference: NPU 1 (the LM head's markers), time to first token 23038 cycles
inference: time per output token 24004.000 cycles (mean of 3 decode tokens), the last (token 3) 24004 cycles
inference: 84166.228 tokens/s (batch 2 x 4 tokens in 95050 cycles)" "--jobs: job a's inference lines"
expect_eq "$(sed -n '/^job b: 2 NPUs/,/^job b: finished/p' "$T/jobs/out" | grep '^inference:')" \
    "$(sed -n '/^job a: 2 NPUs/,/^job a: finished/p' "$T/jobs/out" | grep '^inference:')" "--jobs: job b's inference lines (from its start)"

# --help lists every flag; the man page documents each
expect_ok "$ET" generate inference --help
inference_help_documented

# one-line errors
G="$ET generate inference $A --out $T/e/x"
expect_error "$P: --batch: expected 1 to 1048576, got 0" $G --batch 0
expect_error "$P: --prompt-len: expected a non-negative integer, got 'x'" $G --prompt-len x
expect_error "$P: --heads: 4 is not divisible by --kv-heads 3" $G --kv-heads 3
expect_error "$P: --kv-heads: 6 neither divides nor is divisible by --tp 4" $G --hidden 240 --heads 12 --kv-heads 6 --tp 4
expect_error "$P: --prefill-chunk: 9 is more than --prompt-len 8" $G --prefill-chunk 9
expect_error "$P: --layers: 4 is not divisible by --pp 3" $G --pp 3
expect_error "$P: --device: unknown device 'b200' (expected h100, h200 or a100)" $G --device b200
expect_error "$P: --precision: expected bf16, fp16 or fp8, got 'int4'" $G --precision int4
expect_error "$P: --precision: a100 has no FP8 tensor cores (fp8 needs --device h100)" $G --device a100 --precision fp8
expect_error "$P: --mlp: expected gelu or swiglu, got 'relu'" $G --mlp relu
expect_error "$P: --memory-capacity: expected a size above 0 (e.g. 80GiB), got '0'" $G --memory-capacity 0
expect_error "$P: --output-len: expected 1 to 1048576, got 2000000" $G --output-len 2000000
expect_error "$P: unknown option '--seq' (see generate inference --help)" $G --seq 8
expect_error "$P: inference: missing --batch" "$ET" generate inference --layers 4 --hidden 256 --heads 4 --ffn 512 --vocab 1024 --tp 2 --pp 2 --out "$T/e/x"
expect_error "$P: inference: missing --out PREFIX" "$ET" generate inference $A
finish
