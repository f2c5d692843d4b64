/*
 * Unit tests of the inference generator's model (tools/inference/
 * inf_model.c): the steps of a chunked prefill and the decode iterations,
 * the KV-cache-bound attention of a decode step derived by hand, the
 * FLOPs, the memory of a Llama-2-7B-like rank, the checks' one-line
 * messages, and that the MLP is the training generator's (one model).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"
#include <math.h>

#include "gen_models.h"
#include "inference/inf_model.h"
#include "transformer/tf_kernels.h"
#include "transformer/tf_model.h"

/* 70B-class: 80 layers, h 8192, 64 heads, 8 KV heads, F 28672, TP 1. */
static struct inf_config llama70b(void)
{
    struct inf_config c = llama7b();
    c.layers = 80;
    c.hidden = 8192;
    c.heads = 64;
    c.kv_heads = 8;
    c.ffn = 28672;
    c.tp = 1;
    c.batch = 1;
    c.prompt_len = c.prefill_chunk = 511;
    return c;
}

/* S = 10 in chunks of 4: (4 tokens, context 0), (4, 4), (2, 8) -- the last
 * gives the first token -- then decode i has 1 token over S + i - 1. */
static void chunked_steps(void **state)
{
    (void)state;
    struct inf_config c = llama7b();
    c.prompt_len = 10;
    c.prefill_chunk = 4;
    c.output_len = 3;
    assert_int_equal(inf_prefill_steps(&c), 3);
    assert_int_equal(inf_steps(&c), 6);
    struct inf_step s = inf_step_of(&c, 1);
    assert_int_equal(s.tokens, 4);
    assert_int_equal(s.context, 4);
    assert_false(s.last_prefill);
    s = inf_step_of(&c, 2);
    assert_int_equal(s.tokens, 2);
    assert_int_equal(s.context, 8);
    assert_true(s.last_prefill);
    assert_false(s.decode);
    s = inf_step_of(&c, 3);
    assert_true(s.decode);
    assert_int_equal(s.index, 1);
    assert_int_equal(s.tokens, 1);
    assert_int_equal(s.context, 10);
    s = inf_step_of(&c, 5);
    assert_int_equal(s.index, 3);
    assert_int_equal(s.context, 12);
}

/* Decode 1 of the 70B-class model at S = 511: one query over 512 keys.
 * KV read: b (context + 1) 2 (G/T) d e = 512 x 2 x 8 x 128 x 2 = 2097152 B,
 * plus Q read and the context written, 2 x 8192 x 2 = 32768 B: 2129920 B
 * over 0.85 x 3.35 TB/s = 0.74799 us. Its FLOPs, 4 x 8192 x 512 =
 * 16777216 at 0.5 x 0.849 of 989 TFLOP/s, take 0.03996 us: memory-bound. */
static void decode_attention_reads_the_kv_cache(void **state)
{
    (void)state;
    struct inf_config c = llama70b();
    struct inf_step s = inf_step_of(&c, 1);
    assert_true(s.decode);
    assert_int_equal(s.context, 511);
    assert_true(fabs(inf_attn_core_seconds(&c, s) - 2129920.0 / (0.85 * 3.35e12)) < 1e-15);
    /* QKV 2 x 8192 x (8192 + 2048), the core, the output 2 x 8192 x 8192 */
    assert_int_equal(inf_attn_flops(&c, s), 167772160ull + 16777216ull + 134217728ull);
    assert_int_equal(inf_mlp_flops(&c, s), 4ull * 8192 * 28672);
    /* a later token reads a longer cache */
    assert_true(inf_attn_core_seconds(&c, inf_step_of(&c, 16)) > inf_attn_core_seconds(&c, s));
}

/* GQA: G/T KV heads per rank, one each when T > G. */
static void kv_heads_per_rank(void **state)
{
    (void)state;
    struct inf_config c = llama70b();
    assert_int_equal(inf_kv_heads_per_rank(&c), 8);
    c.tp = 2;
    assert_int_equal(inf_kv_heads_per_rank(&c), 4);
    c.tp = 16;
    assert_int_equal(inf_kv_heads_per_rank(&c), 1);
}

/* Llama-2-7B-like on TP 2, b 8, S 512, N 16. Parameters of a rank: a
 * layer's 2 x 4096 x 2048 (Q, output) + 4096 x 4096 (K and V of 16 heads
 * of 128) + 2 x 4096 x 5504 (MLP) = 78643200, x 32 = 2516582400, plus the
 * embedding and LM head, 2 x 4096 x 16000: 2647654400, 2 bytes each. KV
 * cache: 4096 values a token a layer x 32 layers x 8 sequences x 528 tokens
 * x 2 bytes = 1107296256. */
static void llama7b_memory(void **state)
{
    (void)state;
    struct inf_config c = llama7b();
    struct inf_memory m;
    assert_int_equal(inf_rank_params(&c, 0), 2647654400ull);
    inf_memory_of(&c, 0, &m);
    assert_int_equal(m.weights, 5295308800ull);
    assert_int_equal(m.kv_cache, 1107296256ull);
    /* with P = 2 the first stage has the embedding, the last the head */
    c.pp = 2;
    assert_int_equal(inf_rank_params(&c, 0), 78643200ull * 16 + 4096ull * 16000);
    assert_int_equal(inf_rank_params(&c, 1), 78643200ull * 16 + 4096ull * 16000);
}

/* The MLP block is the training generator's forward on the step's tokens. */
static void mlp_is_the_training_model(void **state)
{
    (void)state;
    struct inf_config c = llama7b();
    struct tf_config t = {
        .layers = 32, .hidden = 4096, .heads = 32, .ffn = 11008, .seq = 512, .vocab = 32000,
        .micro_batch = 8, .global_batch = 8, .tp = 2, .pp = 1, .dp = 1, .elem_bytes = 2, .device = c.device,
        .dp_buckets = 1, .virtual_stages = 1,
    };
    assert_true(inf_mlp_seconds(&c, inf_step_of(&c, 0)) == tf_kernels_mlp(&t, 0));
    t.seq = 1;
    assert_true(inf_mlp_seconds(&c, inf_step_of(&c, 1)) == tf_kernels_mlp(&t, 0));
}

/* SwiGLU (--mlp swiglu): gate, up and down, h x F/T each on a TP rank:
 * 3/2 GeLU's MLP FLOPs and weights; its node costs more than GeLU's. */
static void swiglu_mlp(void **state)
{
    (void)state;
    struct inf_config g = llama7b(), c = llama7b();
    c.swiglu = 1;
    struct inf_step s = inf_step_of(&c, 0);
    /* 2 FLOPs x 3 matrices x 8 x 512 tokens x 4096 x 11008/2 */
    assert_int_equal(inf_mlp_flops(&c, s), 2ull * 3 * 8 * 512 * 4096 * 5504);
    assert_int_equal(inf_mlp_flops(&c, s), inf_mlp_flops(&g, s) / 2 * 3);
    /* a layer: Q and output 2 x 4096 x 2048, K and V 4096 x 4096, MLP
     * 3 x 4096 x 5504 = 101187584; 32 layers, embedding and LM head
     * 4096 x 16000 each */
    assert_int_equal(inf_rank_params(&c, 0), 101187584ull * 32 + 2 * 4096ull * 16000);
    struct inf_memory m;
    inf_memory_of(&c, 0, &m);
    assert_int_equal(m.weights, 2 * (101187584ull * 32 + 2 * 4096ull * 16000));
    assert_true(inf_mlp_seconds(&c, s) > inf_mlp_seconds(&g, s));
    assert_true(inf_mlp_seconds(&c, inf_step_of(&c, 1)) > inf_mlp_seconds(&g, inf_step_of(&g, 1)));
}

/* --max-batch: weights 5295308800 bytes and 138412032 of KV cache a
 * sequence (4096 x 32 layers x 528 tokens x 2) in 80 GiB: 582.35. */
static void max_batch(void **state)
{
    (void)state;
    struct inf_config c = llama7b();
    uint64_t stage = 9;
    c.memory_capacity = 80ull << 30;
    assert_int_equal(inf_max_batch(&c, &stage), 582);
    assert_int_equal(stage, 0);
    c.memory_capacity = 5295308800ull + 138412032ull - 1;
    assert_int_equal(inf_max_batch(&c, &stage), 0);
    c.memory_capacity = 5295308800ull + 138412032ull;
    assert_int_equal(inf_max_batch(&c, &stage), 1);
    /* PP 2: stage 0 holds the embedding, stage 1 the LM head: alike */
    c.pp = 2;
    c.memory_capacity = 1ull << 50;
    assert_int_equal(inf_max_batch(&c, &stage), INF_BATCH_MAX);
}

/* A prompt twice as long costs at least 1.8 times the prefill. */
static void prefill_grows_with_the_prompt(void **state)
{
    (void)state;
    struct inf_config a = llama7b(), b = llama7b();
    b.prompt_len = b.prefill_chunk = 1024;
    struct inf_step sa = inf_step_of(&a, 0), sb = inf_step_of(&b, 0);
    double ta = inf_attn_seconds(&a, sa) + inf_mlp_seconds(&a, sa);
    double tb = inf_attn_seconds(&b, sb) + inf_mlp_seconds(&b, sb);
    assert_true(tb >= 1.8 * ta);
}

static void expect_error(const struct inf_config *c, const char *want)
{
    char msg[256] = "";
    assert_int_equal(inf_config_check(c, msg, sizeof msg), -1);
    assert_string_equal(msg, want);
}

/* llama7b() with one field set to value fails its check with want. */
#define EXPECT_LLAMA7B_ERROR(field, value, want)                                                                       \
    do {                                                                                                               \
        struct inf_config c_ = llama7b();                                                                              \
        c_.field = value;                                                                                              \
        expect_error(&c_, want);                                                                                       \
    } while (0)

static void checks(void **state)
{
    (void)state;
    struct inf_config c = llama7b();
    char msg[256];
    assert_int_equal(inf_config_check(&c, msg, sizeof msg), 0);
    EXPECT_LLAMA7B_ERROR(batch, 0, "--batch: expected 1 to 1048576, got 0");
    EXPECT_LLAMA7B_ERROR(kv_heads, 5, "--heads: 32 is not divisible by --kv-heads 5");
    c = llama70b();
    c.heads = 48;
    c.kv_heads = 6;
    c.tp = 4;
    c.hidden = 6144;
    expect_error(&c, "--kv-heads: 6 neither divides nor is divisible by --tp 4");
    EXPECT_LLAMA7B_ERROR(prefill_chunk, 513, "--prefill-chunk: 513 is more than --prompt-len 512");
    EXPECT_LLAMA7B_ERROR(tp, 3, "--heads: 32 is not divisible by --tp 3");
    c = llama7b();
    c.fp8 = 1;
    assert_int_equal(tf_device_lookup("a100", &c.device), 0);
    expect_error(&c, "--precision: a100 has no FP8 tensor cores (fp8 needs --device h100)");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(chunked_steps),
    cmocka_unit_test(decode_attention_reads_the_kv_cache),
    cmocka_unit_test(kv_heads_per_rank),
    cmocka_unit_test(llama7b_memory),
    cmocka_unit_test(mlp_is_the_training_model),
    cmocka_unit_test(prefill_grows_with_the_prompt),
    cmocka_unit_test(swiglu_mlp),
    cmocka_unit_test(max_batch),
    cmocka_unit_test(checks)
)
