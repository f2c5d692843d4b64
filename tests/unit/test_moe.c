/*
 * Unit tests of the mixture-of-experts arithmetic of `generate transformer`
 * (tools/transformer/tf_moe.c and the MoE parts of tf_model.c, tf_memory.c):
 * every figure derived by hand in the comments (docs/transformer.md,
 * "Mixture of experts").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "gen_models.h"

#include "transformer/tf_memory.h"
#include "transformer/tf_model.h"
#include "transformer/tf_moe.h"

/* L=4, h=96, F=288, s=32, b=2 (N = 64 tokens), V=120 on T x 1 x D with
 * E experts, top-K, EP. */
static struct tf_config config(uint64_t tp, uint64_t dp, uint64_t experts, uint64_t top_k, uint64_t ep)
{
    struct tf_config c = tf_small(tp, 1, dp, 2 * dp);
    c.moe = (struct tf_moe){.experts = experts, .top_k = top_k, .ep = ep, .ffn = 192, .seed = 1, .every = 1};
    return c;
}

/* The loads of one layer, sorted from the busiest down. */
static int descending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void loads_of(const struct tf_config *c, uint64_t layer, uint64_t *loads, int sorted)
{
    void *scratch = malloc(tf_moe_scratch_bytes(c));
    assert_non_null(scratch);
    tf_moe_loads(c, layer, loads, scratch);
    free(scratch);
    if (sorted)
        qsort(loads, c->moe.experts, sizeof *loads, descending);
}

/* S = 0: each of the EP = 2 senders gives each of the 4 experts N*K/E =
 * 64*2/4 = 32 tokens, so every expert gets 64. */
static void uniform_loads(void **state)
{
    (void)state;
    struct tf_config c = config(1, 2, 4, 2, 2);
    uint64_t loads[4];
    loads_of(&c, 0, loads, 0);
    for (int e = 0; e < 4; e++)
        assert_int_equal(loads[e], 64);
    /* N*K = 64*1 over 3 experts: 21 each and one left over, to the most
     * popular expert (the seed decides which); times EP = 2 */
    c.moe.experts = 3;
    c.moe.top_k = 1;
    c.moe.ep = 1;
    c.dp = 3;
    c.global_batch = 6;
    c.moe.ep = 3;
    uint64_t three[3];
    loads_of(&c, 0, three, 1);
    assert_int_equal(three[0], 22 * 3);
    assert_int_equal(three[1], 21 * 3);
    assert_int_equal(three[2], 21 * 3);
}

/* S = 1 over E = 4, N*K = 64*2 = 128 per sender: shares proportional to
 * 1, 1/2, 1/3, 1/4 (sum 25/12): 61.44, 30.72, 20.48, 15.36, floors 61 +
 * 30 + 20 + 15 = 126, the 2 left to the largest remainders (.72, .48):
 * 61, 31, 21, 15; times EP = 2. */
static void zipf_loads(void **state)
{
    (void)state;
    struct tf_config c = config(1, 2, 4, 2, 2);
    c.moe.skew = 1;
    uint64_t loads[4], want[4] = {122, 62, 42, 30};
    loads_of(&c, 0, loads, 1);
    assert_memory_equal(loads, want, sizeof want);
    /* the same seed gives the same order; the layers draw their own */
    uint64_t a[4], b[4];
    loads_of(&c, 2, a, 0);
    loads_of(&c, 2, b, 0);
    assert_memory_equal(a, b, sizeof a);
    int differ = 0;
    for (uint64_t l = 1; l < 4 && !differ; l++) {
        loads_of(&c, l, b, 0);
        loads_of(&c, 0, a, 0);
        differ = memcmp(a, b, sizeof a) != 0;
    }
    assert_true(differ);
}

/* C = 1: a sender gives an expert at most ceil(1 * 128 / 4) = 32 tokens:
 * 61, 31, 21, 15 become 32, 31, 21, 15 (29 dropped); the all-to-all is
 * the padded buffer E * 32 * h * 2 = 4 * 32 * 96 * 2 = 24576 bytes,
 * dropless it is N*K*h*2 = 128 * 96 * 2 = 24576 too, and with C = 1.5
 * 4 * 48 * 96 * 2 = 36864. */
static void capacity(void **state)
{
    (void)state;
    struct tf_config c = config(1, 2, 4, 2, 2);
    c.moe.skew = 1;
    assert_int_equal(tf_moe_a2a_bytes(&c), 24576);
    c.moe.capacity_factor = 1;
    assert_int_equal(tf_moe_capacity(&c), 32);
    uint64_t loads[4], want[4] = {64, 62, 42, 30};
    loads_of(&c, 0, loads, 1);
    assert_memory_equal(loads, want, sizeof want);
    assert_int_equal(tf_moe_a2a_bytes(&c), 24576);
    c.moe.capacity_factor = 1.5;
    assert_int_equal(tf_moe_a2a_bytes(&c), 36864);
    assert_int_equal(tf_moe_memory_tokens(&c), 4 * 48);
}

/* The experts' FLOPs on EP index 1 of 2 (experts 2 and 3) over T = 2:
 * 4 * m * h * F'/T summed, F'/T = 96; bytes 2 * (2h*F'/T + 2mh + 2m*F'/T)
 * per expert. Router: 2NhE = 2*64*96*4 = 49152 FLOPs. */
static void expert_costs(void **state)
{
    (void)state;
    struct tf_config c = config(2, 2, 4, 2, 2);
    uint64_t loads[4] = {10, 20, 30, 0};
    struct tf_cost cost = tf_experts_fwd(&c, loads, 1);
    assert_int_equal(cost.flops, 4 * 30 * 96 * 96);
    assert_int_equal(cost.bytes, 2 * (2 * 96 * 96 + 2 * 30 * 96 + 2 * 30 * 96) + 2 * (2 * 96 * 96));
    assert_int_equal(tf_router_fwd(&c).flops, 49152);
    assert_int_equal(tf_router_fwd(&c).bytes, 2 * (64 * 96 + 96 * 4) + 4 * 64 * 4);
}

/* Parameters with MoE every 2nd layer (layers 0 and 2) on T = 2, EP = 2:
 * attention 4h*h/T = 18432, dense MLP 2hF/T = 27648, router hE = 384,
 * local experts (E/EP) * 2hF'/T = 2 * 18432 = 36864; vocabulary hV/T = 5760. */
static void parameters(void **state)
{
    (void)state;
    struct tf_config c = config(2, 4, 4, 2, 2);
    c.moe.every = 2;
    char msg[160];
    assert_int_equal(tf_config_check(&c, msg, sizeof msg), 0);
    assert_true(tf_is_moe_layer(&c, 0));
    assert_false(tf_is_moe_layer(&c, 1));
    assert_int_equal(tf_layer_dp_params(&c, 0), 18432 + 384);
    assert_int_equal(tf_layer_dp_params(&c, 1), 18432 + 27648);
    assert_int_equal(tf_layer_expert_params(&c, 0), 36864);
    assert_int_equal(tf_layer_expert_params(&c, 1), 0);
    assert_int_equal(tf_rank_expert_params(&c, 0), 2 * 36864);
    uint64_t dense = 2 * (18432 + 384) + 2 * (18432 + 27648) + 2 * 5760;
    assert_int_equal(tf_rank_params(&c, 0), dense + 2 * 36864);
    /* the distributed optimizer: dense over D = 4, experts over D/EP = 2 */
    c.dist_optimizer = true;
    assert_int_equal(tf_optimizer_params(&c, 0), (dense + 3) / 4 + 36864);
    /* the whole model: 2 MoE layers of 4h^2 + hE + E*2hF', 2 dense of
     * 4h^2 + 2hF, and 2hV */
    assert_int_equal(tf_model_params(&c), 2 * (36864 + 384 + 4 * 36864) + 2 * (36864 + 55296) + 23040);
}

/* D = 4, EP = 2, T = 2: TP groups 1-4, DP groups 5-6, then EP groups one
 * per (t, d/EP): 7 + t + 2*(d/2), then expert-DP groups per (t, d%EP):
 * 11 + t + 2*(d%2). */
static void groups(void **state)
{
    (void)state;
    struct tf_config c = config(2, 4, 4, 2, 2);
    assert_int_equal(tf_ep_group(&c, (struct tf_coords){0, 0, 0}), 7);
    assert_int_equal(tf_ep_group(&c, (struct tf_coords){1, 1, 0}), 8);
    assert_int_equal(tf_ep_group(&c, (struct tf_coords){0, 2, 0}), 9);
    assert_int_equal(tf_ep_group(&c, (struct tf_coords){1, 3, 0}), 10);
    assert_int_equal(tf_edp_group(&c, (struct tf_coords){0, 0, 0}), 11);
    assert_int_equal(tf_edp_group(&c, (struct tf_coords){0, 2, 0}), 11);
    assert_int_equal(tf_edp_group(&c, (struct tf_coords){1, 3, 0}), 14);
    /* EP = D: no expert-DP group; EP = 1: the DP group, no EP group */
    c.moe.ep = 4;
    assert_int_equal(tf_edp_group(&c, (struct tf_coords){0, 0, 0}), 0);
    c.moe.ep = 1;
    assert_int_equal(tf_ep_group(&c, (struct tf_coords){0, 0, 0}), 0);
    assert_int_equal(tf_edp_group(&c, (struct tf_coords){1, 0, 0}), tf_dp_group(&c, 1, 0));
}

/* A MoE layer's activations, no recomputation, T = 2: 10sbh + (8sbh +
 * 4asb)/T with sbh = 6144 (4asb: FlashAttention's log-sum-exp) (the dense MLP's 4sbF/T left out), plus 4NE
 * = 1024 router scores, 2mh = 24576 expert inputs (m = NK = 128) and
 * 4mF'/T = 49152; full recomputation keeps 2sbh. */
static void activations(void **state)
{
    (void)state;
    struct tf_config c = config(2, 2, 4, 2, 2);
    uint64_t sbh = 6144, core = 4 * 6 * 32 * 2;
    assert_int_equal(tf_layer_activations_of(&c, 0), 10 * sbh + (8 * sbh + core) / 2 + 1024 + 24576 + 49152);
    assert_int_equal(tf_layer_activations_of(&c, 1), tf_layer_activations_of(&c, 0));
    c.moe.every = 2;
    assert_int_equal(tf_layer_activations_of(&c, 1), tf_layer_activations(&c));
    c.recompute = TF_RECOMPUTE_FULL;
    assert_int_equal(tf_layer_activations_of(&c, 0), 2 * sbh);
}

static void checks_name_the_flag(void **state)
{
    (void)state;
    struct tf_config c = config(2, 4, 4, 2, 2);
    c.moe.ep = 3;
    tf_rejects(c, "--dp: 4 is not divisible by --ep 3");
    c = config(2, 4, 6, 2, 4);
    tf_rejects(c, "--experts: 6 is not divisible by --ep 4");
    c = config(2, 4, 4, 5, 2);
    tf_rejects(c, "--top-k: expected 1 to --experts 4, got 5");
    c = config(2, 4, 4, 2, 2);
    c.moe.ffn = 191;
    tf_rejects(c, "--moe-ffn: 191 is not divisible by --tp 2");
    c.moe.ffn = 192;
    c.moe.skew = -1;
    tf_rejects(c, "--expert-skew: expected a number in [0, 16], got -1");
    c.moe.skew = 0;
    c.moe.capacity_factor = -0.5;
    tf_rejects(c, "--capacity-factor: expected 0 (dropless) or a number in (0, 1024], got -0.5");
    c.moe.capacity_factor = 0;
    c.moe.every = 3;
    tf_rejects(c, "--moe-every: 3 does not divide the 4 layers of a model chunk");
    c.moe.every = 1;
    c.single_file = true;
    tf_rejects(c, "--single-file: not with --experts (the ranks of a stage differ in their experts' load)");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(uniform_loads),
    cmocka_unit_test(zipf_loads),
    cmocka_unit_test(capacity),
    cmocka_unit_test(expert_costs),
    cmocka_unit_test(parameters),
    cmocka_unit_test(groups),
    cmocka_unit_test(activations),
    cmocka_unit_test(checks_name_the_flag)
)
