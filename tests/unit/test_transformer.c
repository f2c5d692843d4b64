/*
 * Unit tests of the transformer generator's model (tools/transformer/
 * tf_model.c): placement, group ids, the closed forms for an FFN that is not
 * 4h, the 64-bit overflow guard and the roofline's rounding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "gen_models.h"

#include "transformer/tf_kernels.h"
#include "transformer/tf_memory.h"
#include "transformer/tf_model.h"

/* The small model with a global batch of 12. */
static struct tf_config config(uint64_t tp, uint64_t pp, uint64_t dp)
{
    return tf_small(tp, pp, dp, 12);
}

/* rank = t + T(d + Dp): every rank maps to coordinates and back. */
static void placement_round_trips(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    assert_int_equal(tf_config_check(&c, (char[128]){0}, 128), 0);
    assert_int_equal(tf_ranks(&c), 12);
    struct tf_coords at = tf_coords_of(&c, 11);
    assert_int_equal(at.t, 2);
    assert_int_equal(at.d, 1);
    assert_int_equal(at.p, 1);
    for (uint64_t r = 0; r < tf_ranks(&c); r++)
        assert_int_equal(tf_rank_of(&c, tf_coords_of(&c, r)), r);
}

/* TP groups 1..D*P, then DP groups; none for a dimension of size 1. */
static void group_ids(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    assert_int_equal(tf_tp_group(&c, 0, 0), 1);
    assert_int_equal(tf_tp_group(&c, 1, 1), 4);
    assert_int_equal(tf_dp_group(&c, 0, 0), 5);
    assert_int_equal(tf_dp_group(&c, 2, 1), 10);
    struct tf_config no_tp = config(1, 2, 2);
    assert_int_equal(tf_tp_group(&no_tp, 1, 1), 0);
    assert_int_equal(tf_dp_group(&no_tp, 0, 0), 1);
    assert_int_equal(tf_dp_group(&no_tp, 0, 1), 2);
    struct tf_config no_dp = config(3, 2, 1);
    assert_int_equal(tf_dp_group(&no_dp, 1, 1), 0);
}

/* h = 96, F = 288 (3h), s = 32, b = 2, T = 3, V = 120, A = 6:
 * attention (8bsh^2 + 4bs^2h)/T = (4718592 + 786432)/3 = 1835008;
 * MLP 4bshF/T = 2359296; head 2bshV/T = 491520. */
static void closed_forms(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    assert_int_equal(tf_attn_fwd(&c).flops, 1835008);
    /* 2 * (4*96*32 + 2*6144 + 3*64*32 + 2*2*2*1024) = 2 * 38912 */
    assert_int_equal(tf_attn_fwd(&c).bytes, 77824);
    assert_int_equal(tf_mlp_fwd(&c).flops, 2359296);
    assert_int_equal(tf_head_fwd(&c).flops, 491520);
    assert_int_equal(tf_activation_bytes(&c), 12288);
    assert_int_equal(tf_micro_batches(&c), 3);
    /* per layer 4h^2 + 2hF = 36864 + 55296 = 92160; model 4 layers + 2Vh */
    assert_int_equal(tf_model_params(&c), 4 * 92160 + 2 * 96 * 120);
    /* stage 0: 2 layers * 92160/3 + 96*120/3 */
    assert_int_equal(tf_rank_params(&c, 0), 61440 + 3840);
    assert_int_equal(tf_rank_params(&c, 1), 61440 + 3840);
    /* a replica's T*P ranks hold every parameter exactly once */
    assert_int_equal(3 * (tf_rank_params(&c, 0) + tf_rank_params(&c, 1)), tf_model_params(&c));
    struct tf_config one = config(1, 1, 1);
    assert_int_equal(tf_rank_params(&one, 0), tf_model_params(&one));
}

/* Two buckets of one layer each (92160/3 = 30720 params); the LM head
 * (3840) joins the first bucket of the last stage, the embedding the last
 * bucket of the first; one stage holding both gets both. */
static void dp_buckets(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    c.dp_buckets = 2;
    assert_int_equal(tf_bucket_params(&c, 0, 0, 0), 30720);
    assert_int_equal(tf_bucket_params(&c, 0, 0, 1), 30720 + 3840);
    assert_int_equal(tf_bucket_params(&c, 1, 0, 0), 30720 + 3840);
    assert_int_equal(tf_bucket_params(&c, 1, 0, 1), 30720);
    struct tf_config one = config(1, 1, 1);
    one.dp_buckets = 4;
    uint64_t sum = 0;
    for (uint64_t k = 0; k < 4; k++)
        sum += tf_bucket_params(&one, 0, 0, k);
    assert_int_equal(sum, tf_rank_params(&one, 0));
    assert_int_equal(tf_bucket_params(&one, 0, 0, 0), 92160 + 11520);
    assert_int_equal(tf_bucket_params(&one, 0, 0, 3), 92160 + 11520);
    assert_int_equal(tf_bucket_params(&one, 0, 0, 1), 92160);
    one.dp_buckets = 3;
    char msg[128];
    assert_int_equal(tf_config_check(&one, msg, sizeof msg), -1);
    assert_string_equal(msg, "--dp-buckets: 3 does not divide the 4 layers of a stage (--layers / --pp)");
}

/* V = 2 chunks of one layer on 2 stages (L = 4): chunk v of stage p is
 * virtual stage 2v + p; the LM head joins the last chunk of the last stage,
 * the embedding the first chunk of the first; a rank's buckets sum to its
 * parameters. */
static void virtual_stages(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    c.virtual_stages = 2;
    assert_int_equal(tf_layers_per_chunk(&c), 1);
    assert_int_equal(tf_chunk_first_layer(&c, 0, 0), 0);
    assert_int_equal(tf_chunk_first_layer(&c, 1, 0), 1);
    assert_int_equal(tf_chunk_first_layer(&c, 0, 1), 2);
    assert_int_equal(tf_chunk_first_layer(&c, 1, 1), 3);
    assert_int_equal(tf_bucket_params(&c, 0, 0, 0), 30720 + 3840);
    assert_int_equal(tf_bucket_params(&c, 0, 1, 0), 30720);
    assert_int_equal(tf_bucket_params(&c, 1, 0, 0), 30720);
    assert_int_equal(tf_bucket_params(&c, 1, 1, 0), 30720 + 3840);
    for (uint64_t p = 0; p < 2; p++)
        assert_int_equal(tf_bucket_params(&c, p, 0, 0) + tf_bucket_params(&c, p, 1, 0), tf_rank_params(&c, p));
    /* M = 12 / (2 * 2) = 3 micro-batches: not a multiple of P = 2. */
    char msg[256];
    assert_int_equal(tf_config_check(&c, msg, sizeof msg), -1);
    assert_string_equal(msg, "--virtual-stages: the 3 micro-batches (--global-batch / (--micro-batch x --dp))"
                             " are not a multiple of --pp 2");
    c.global_batch = 16;
    assert_int_equal(tf_config_check(&c, msg, sizeof msg), 0);
}

/* The distributed optimizer's shard is ceil(params / D); without it the
 * optimizer takes all of the rank's parameters. The cross-entropy moves an
 * fp32 per token. */
static void optimizer_shard(void **state)
{
    (void)state;
    struct tf_config c = config(3, 2, 2);
    assert_int_equal(tf_optimizer_params(&c, 0), 65280);
    c.dist_optimizer = true;
    assert_int_equal(tf_optimizer_params(&c, 0), 32640);
    c.dp = 7;
    assert_int_equal(tf_optimizer_params(&c, 1), (65280 + 6) / 7);
    assert_int_equal(tf_optimizer_params(&c, 1), 9326);
    assert_int_equal(tf_layer_params(&c), 30720);
    assert_int_equal(tf_vocab_params(&c), 3840);
    assert_int_equal(tf_cross_entropy_bytes(&c), 2 * 32 * 4);
}

/* A user duration replaces the roofline for its kind only. */
static void user_durations(void **state)
{
    (void)state;
    struct tf_config c = config(1, 1, 1);
    c.device = (struct tf_device){.name = "test", .peak_flops = 1e12, .mem_bw = 1e9};
    c.compute_model = TF_COMPUTE_ROOFLINE;
    c.efficiency = 1;
    struct tf_cost cost = {3000000, 0};
    assert_int_equal(tf_op_micros(&c, TF_MLP_BWD, cost), 3);
    c.durations.set[TF_MLP_BWD] = true;
    c.durations.micros[TF_MLP_BWD] = 17;
    assert_int_equal(tf_op_micros(&c, TF_MLP_BWD, cost), 17);
    assert_int_equal(tf_op_micros(&c, TF_MLP_FWD, cost), 3);
    assert_string_equal(tf_op_kind_name(TF_ATTN_FWD), "attn_fwd");
    assert_string_equal(tf_op_kind_name(TF_OPTIMIZER), "optimizer");
    assert_string_equal(tf_op_kind_name(TF_ATTN_CORE), "attn_core");
    assert_null(tf_op_kind_name(TF_OP_KINDS));
}

static void checks_name_the_flag(void **state)
{
    (void)state;
    struct tf_config c = config(1, 1, 1);
    c.seq = 1u << 24;
    c.hidden = 1u << 24;
    c.heads = 1;
    tf_rejects(c, "--hidden/--seq/--layers: a data-parallel replica's per-iteration FLOPs overflow 64 bits");
    c = config(1, 1, 1);
    c.micro_batch = 0;
    tf_rejects(c, "--micro-batch: expected 1 to 16777216, got 0");
    c = config(1, 3, 1);
    tf_rejects(c, "--layers: 4 is not divisible by --pp 3");
    c = config(2, 1, 1);
    c.vocab = 121;
    tf_rejects(c, "--vocab: 121 is not divisible by --tp 2");
    c = config(1, 1, 1);
    c.efficiency = 0;
    tf_rejects(c, "--efficiency: expected a number from 0.000001 to 1, got 0");
}

/* ceil to whole microseconds, at least 1. */
static void roofline_rounding(void **state)
{
    (void)state;
    struct tf_config c = config(1, 1, 1);
    c.device = (struct tf_device){.name = "test", .peak_flops = 1e12, .mem_bw = 1e9};
    c.efficiency = 1;
    assert_int_equal(tf_duration_micros(&c, (struct tf_cost){1000000, 0}), 1);
    assert_int_equal(tf_duration_micros(&c, (struct tf_cost){1000001, 0}), 2);
    assert_int_equal(tf_duration_micros(&c, (struct tf_cost){0, 0}), 1);
    assert_int_equal(tf_duration_micros(&c, (struct tf_cost){1, 5000}), 5);
    c.efficiency = 0.5;
    assert_int_equal(tf_duration_micros(&c, (struct tf_cost){3000000, 0}), 6);
}

/* A device small enough to count its tiles by hand: 4 SMs, 128 x 64
 * tiles, a CTA's fixed cost worth 64 steps of K, half of peak at full
 * utilisation, streaming at the full 1 TB/s. */
static struct tf_device tiny_device(void)
{
    return (struct tf_device){.name = "tiny", .peak_flops = 1e12, .mem_bw = 1e12, .sms = 4, .tile_m = 128,
                              .tile_n = 64, .k_fixed = 64, .gemm_efficiency = 0.5, .attn_fwd_efficiency = 0.25,
                              .attn_bwd_efficiency = 0.2, .mem_efficiency = 1};
}

/* Tile and wave quantization, split-K and the per-tile fixed cost. */
static void gemm_shapes(void **state)
{
    (void)state;
    struct tf_device d = tiny_device();
    /* 256 x 128: 2 x 2 tiles of 128 x 64 fill the 4 SMs once; K = 192 is too
     * short to split (96 < 256): 192 / (192 + 64) = 0.75 */
    assert_float_equal(tf_gemm_utilisation(&d, 256, 128, 192), 0.75, 1e-12);
    /* 200 x 64, K = 1024: 2 tiles (the second 72 rows of 128 used) leave 2
     * SMs idle; split-K by 2 fills them: 200*64*2 / (4 * 128*64) = 0.78125,
     * slices of 512: 512/576; by 4 (2 waves, slices of 256): 0.78125 * 0.8 */
    assert_float_equal(tf_gemm_utilisation(&d, 200, 64, 1024), 0.78125 * 512.0 / 576.0, 1e-12);
    /* its time: 2*200*64*1024 FLOPs at 1e12 * 0.5 * that utilisation */
    assert_float_equal(tf_gemm_seconds(&d, d.peak_flops, 200, 64, 1024, 2),
                       26214400.0 / (0.5e12 * 0.78125 * 512.0 / 576.0), 1e-15);
    /* K = 1 at 1 GB/s is memory-bound: 2 bytes x (128 + 64 + 128*64) over
     * 1 GB/s = 16.768 us, against 2*128*64 FLOPs at 0.5e12 * 1/65 = 2.1 us */
    d.mem_bw = 1e9;
    assert_float_equal(tf_gemm_seconds(&d, d.peak_flops, 128, 64, 1, 2), 2.0 * (128 + 64 + 8192) / 1e9, 1e-18);
}

/* The attention block's kernels, counted by hand for b = 1, s = 16,
 * h = 64, T = 2 (config's shape is not needed: a fresh one). */
static void attention_kernels(void **state)
{
    (void)state;
    struct tf_config c = config(2, 1, 1);
    c.device = tiny_device();
    c.micro_batch = 1, c.seq = 16, c.hidden = 64, c.heads = 4, c.ffn = 256;
    const struct tf_device *d = &c.device;
    double ln = 2.0 * 16 * 64 * 2 / 1e12;              /* read x, write y */
    double core = 2.0 * 16 * 16 * 32 / (1e12 * 0.25);  /* causal: half of 4bs^2h/T */
    double bda = 16.0 * 64 * (3 * 2 + 1) / 1e12;       /* input, residual, output; 1-byte mask */
    double fwd = ln + tf_gemm_seconds(d, 1e12, 16, 96, 64, 2) + core + tf_gemm_seconds(d, 1e12, 16, 64, 32, 2) + bda;
    assert_float_equal(tf_kernels_attn(&c, 0), fwd, 1e-18);
    assert_float_equal(tf_kernels_attn_core(&c), core, 1e-18);
    /* backward: LN reads x and dy, writes dx; the GEMMs' data and weight
     * gradients; FlashAttention's backward at twice the FLOPs; dropout's
     * gradient reads dy and the mask, writes dx */
    double bwd = 3.0 * 16 * 64 * 2 / 1e12 + tf_gemm_seconds(d, 1e12, 16, 64, 96, 2) +
                 tf_gemm_seconds(d, 1e12, 64, 96, 16, 2) + 2 * 2.0 * 16 * 16 * 32 / (1e12 * 0.2) +
                 tf_gemm_seconds(d, 1e12, 16, 32, 64, 2) + tf_gemm_seconds(d, 1e12, 32, 64, 16, 2) +
                 16.0 * 64 * (2 * 2 + 1) / 1e12;
    assert_float_equal(tf_kernels_attn(&c, 1), bwd, 1e-18);
    /* with --sp LayerNorm and dropout see 1/T of the tokens */
    c.sp = true;
    assert_float_equal(tf_kernels_attn(&c, 0), fwd - (ln + bda) / 2, 1e-18);
    /* the node's duration: whole microseconds, rounded up, at least 1 */
    c.sp = false;
    assert_int_equal(tf_op_micros(&c, TF_ATTN_FWD, (struct tf_cost){0, 0}), tf_kernels_micros(fwd));
    assert_int_equal(tf_kernels_micros(0), 1);
    assert_int_equal(tf_kernels_micros(2.0000001e-6), 3);
}

/* A preset gives back the GEMM benchmark it was calibrated from, at its
 * shape, times the sustained-over-burst ratio. */
static void device_calibration(void **state)
{
    (void)state;
    struct tf_device h100, a100;
    assert_int_equal(tf_device_lookup("h100", &h100), 0);
    assert_int_equal(tf_device_lookup("a100", &a100), 0);
    assert_int_equal(tf_device_lookup("tpu", &a100) == -1, 1);
    double flops = 2.0 * 6144 * 17920 * 2816;
    assert_float_equal(flops / tf_gemm_seconds(&h100, h100.peak_flops, 6144, 17920, 2816, 2), 792.1e12 * 0.849, 1e3);
    flops = 2.0 * 6912 * 16384 * 2048;
    assert_float_equal(flops / tf_gemm_seconds(&a100, a100.peak_flops, 6912, 16384, 2048, 2), 267.9e12 * 0.849, 1e3);
    assert_float_equal(h100.attn_fwd_efficiency, 0.50 * 0.849, 1e-12);
}

/* Korthikanti et al.'s per-layer activations with F = 4h, where the paper's
 * closed forms hold: s = 48, b = 2, h = 96, a = 6, T = 3, so sbh = 9216
 * and 5as/(hT) = 5. The paper's attention is unfused (the roofline
 * model's); FlashAttention (the kernel model's) keeps only each row's fp32
 * log-sum-exp, 4asb = 2304 bytes, instead of 5as^2b. */
static void korthikanti_activations(void **state)
{
    (void)state;
    struct tf_config c = config(3, 1, 1);
    c.seq = 48;
    c.ffn = 384;
    uint64_t sbh = 48 * 2 * 96;
    assert_int_equal(tf_layer_activations(&c), sbh * (10 + 24 / 3) + 2304 / 3);
    c.sp = true;
    assert_int_equal(tf_layer_activations(&c), (sbh * 34 + 2304) / 3);
    c.sp = false;
    c.compute_model = TF_COMPUTE_ROOFLINE;
    assert_int_equal(tf_layer_activations(&c), sbh * (10 + 24 / 3 + 5));   /* sbh(10 + 24/T + 5as/(hT)) */
    c.sp = true;
    assert_int_equal(tf_layer_activations(&c), sbh * (34 + 15) / 3);       /* sbh(34 + 5as/h) / T */
    c.recompute = TF_RECOMPUTE_SELECTIVE;
    assert_int_equal(tf_layer_activations(&c), sbh * 34 / 3);
    c.sp = false;
    assert_int_equal(tf_layer_activations(&c), sbh * (10 + 24 / 3));
    c.recompute = TF_RECOMPUTE_FULL;
    assert_int_equal(tf_layer_activations(&c), 2 * sbh);
    c.sp = true;
    assert_int_equal(tf_layer_activations(&c), 2 * sbh / 3);
}

/* A rank's memory by hand: L = 4, h = 96, F = 288, V = 120, s = 32, b = 2,
 * a = 6, P = 2, D = 2, M = 3, 1F1B. A layer: 4h^2 + 2hF = 92160 parameters; stage
 * 0 holds 2 layers and the embedding (11520), stage 1 2 layers and the LM
 * head. A layer's activations per micro-batch: 18sbh + 4sbF + 4asb
 * (FlashAttention's log-sum-exp) = 110592 + 73728 + 1536 = 185856; stage 0 keeps min(P, M) = 2 micro-batches
 * in flight and the embedding's dropout mask (sbh = 6144) for each, stage
 * 1 one, and the logits in fp32 (4sbV = 30720). */
static void memory_by_hand(void **state)
{
    (void)state;
    struct tf_config c = config(1, 2, 2);
    struct tf_memory m;
    tf_memory_of(&c, 0, &m);
    assert_int_equal(m.params, 195840 * 2);
    assert_int_equal(m.grads, 195840 * 4);
    assert_int_equal(m.optimizer, 195840 * 12);
    assert_int_equal(m.activations, 185856 * 2 * 2 + 6144 * 2);
    tf_memory_of(&c, 1, &m);
    assert_int_equal(m.activations, 185856 * 2 + 30720);
    assert_int_equal(tf_memory_total(&m), 195840 * 18 + 185856 * 2 + 30720);
    /* the distributed optimizer shards the optimizer over D = 2; fp16
     * keeps 16-bit gradients and an fp32 copy in the optimizer */
    c.dist_optimizer = true;
    c.fp16 = true;
    tf_memory_of(&c, 1, &m);
    assert_int_equal(m.grads, 195840 * 2);
    assert_int_equal(m.optimizer, 97920 * 16);
    /* GPipe keeps all three micro-batches of stage 0, and stage 1 all three
     * micro-batches' logits (each waits for its backward) */
    c.gpipe = true;
    tf_memory_of(&c, 0, &m);
    assert_int_equal(m.activations, 185856 * 2 * 3 + 6144 * 3);
    tf_memory_of(&c, 1, &m);
    assert_int_equal(m.activations, 185856 * 2 * 3 + 30720 * 3);
    assert_int_equal(tf_logits_bytes(&c), 30720);
    assert_int_equal(tf_embed_mask_bytes(&c), 6144);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(placement_round_trips),
    cmocka_unit_test(group_ids),
    cmocka_unit_test(closed_forms),
    cmocka_unit_test(dp_buckets),
    cmocka_unit_test(virtual_stages),
    cmocka_unit_test(optimizer_shard),
    cmocka_unit_test(user_durations),
    cmocka_unit_test(checks_name_the_flag),
    cmocka_unit_test(roofline_rounding),
    cmocka_unit_test(gemm_shapes),
    cmocka_unit_test(attention_kernels),
    cmocka_unit_test(device_calibration),
    cmocka_unit_test(korthikanti_activations),
    cmocka_unit_test(memory_by_hand)
)
