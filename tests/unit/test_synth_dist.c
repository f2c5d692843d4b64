/* Distributions of the synth model (tools/synth/dist.h): the summary
 * (exact pairs or 1 % quantiles), the inverse CDF, stratified draws, the
 * two-sample Kolmogorov-Smirnov distance; the communicator layouts
 * (tools/synth/comm_groups.h); the hand-out of durations to steps
 * (tools/synth/step_fill.h). Every expected figure is worked out by hand
 * in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include "unit_main.h"

#include "synth/comm_groups.h"
#include "synth/dist.h"
#include "synth/step_fill.h"

/* A = {1, 2, 3, 4}, B = {3, 4, 5, 6}: after 2, F_A = 0.5 and F_B = 0, the
 * largest gap (after 1: 0.25; after 3: 0.75 - 0.25; after 4: 1 - 0.5). */
static void ks_shifted(void **state)
{
    (void)state;
    const uint64_t a[] = {1, 2, 3, 4}, b[] = {3, 4, 5, 6};
    assert_float_equal(dist_ks(a, 4, b, 4), 0.5, 1e-12);
    assert_float_equal(dist_ks(b, 4, a, 4), 0.5, 1e-12);
}

/* Same values: 0. Disjoint: 1. Ties across the samples are compared after
 * the whole run of equal values: A = {1, 1, 2}, B = {1, 2, 2}: after 1,
 * 2/3 against 1/3; after 2, 1 against 1: 1/3. */
static void ks_ties_and_extremes(void **state)
{
    (void)state;
    const uint64_t a[] = {1, 1, 2}, b[] = {1, 2, 2}, c[] = {7, 8};
    assert_float_equal(dist_ks(a, 3, a, 3), 0.0, 1e-12);
    assert_float_equal(dist_ks(a, 3, c, 2), 1.0, 1e-12);
    assert_float_equal(dist_ks(a, 3, b, 3), 1.0 / 3, 1e-12);
    assert_float_equal(dist_ks(a, 3, b, 0), 0.0, 1e-12);
}

/* Different sizes: A = {10, 20}, B = {10, 20, 30, 40}: after 20, 1 against
 * 0.5. */
static void ks_sizes_differ(void **state)
{
    (void)state;
    const uint64_t a[] = {10, 20}, b[] = {10, 20, 30, 40};
    assert_float_equal(dist_ks(a, 2, b, 4), 0.5, 1e-12);
}

/* {5, 5, 5, 9}: pairs (5, 3) (9, 1). The inverse CDF gives 5 below u = 3/4
 * and 9 from there on. */
static void pairs_and_inverse(void **state)
{
    (void)state;
    const uint64_t v[] = {5, 5, 5, 9};
    dist d;
    dist_from_sorted(&d, v, 4);
    assert_int_equal(d.n_pairs, 2);
    assert_int_equal(d.value[0], 5);
    assert_int_equal(d.count[0], 3);
    assert_int_equal(d.value[1], 9);
    assert_int_equal(d.count[1], 1);
    assert_int_equal(d.total, 4);
    assert_int_equal(dist_inverse(&d, 0.0), 5);
    assert_int_equal(dist_inverse(&d, 0.7499), 5);
    assert_int_equal(dist_inverse(&d, 0.75), 9);
    assert_int_equal(dist_inverse(&d, 0.9999), 9);
}

/* 64 distinct values stay pairs; 65 become quantiles. Values 0, 10, ...,
 * 640 (65 of them): quantile q is value round(q * 64 / 100) * 10, so
 * q = 50 gives 320, q = 1 gives round(0.64) = 1 -> 10, q = 100 gives 640.
 * The inverse interpolates: u = 0.505 is halfway between q50 = 320 and
 * q51 = round(32.64) = 33 -> 330: 325. */
static void quantiles_and_interpolation(void **state)
{
    (void)state;
    uint64_t v[65];
    dist d;
    for (int i = 0; i < 65; i++)
        v[i] = (uint64_t)i * 10;
    dist_from_sorted(&d, v, 64);
    assert_int_equal(d.n_pairs, 64);
    dist_from_sorted(&d, v, 65);
    assert_int_equal(d.n_pairs, 0);
    static const size_t q[] = {0, 1, 50, 51, 100};
    static const uint64_t value[] = {0, 10, 320, 330, 640};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        assert_int_equal(d.quantile[q[i]], value[i]);
    assert_int_equal(dist_inverse(&d, 0.0), 0);
    assert_int_equal(dist_inverse(&d, 0.505), 325);
    assert_int_equal(dist_inverse(&d, 0.99999999), 640);
}

/* Stratified draws of n = total values from pairs give back the very
 * multiset: stratum i, (i + U) / 4, lies inside value i's share of the
 * cumulative counts. Whatever the seed. */
static void stratified_reproduces_pairs(void **state)
{
    (void)state;
    const uint64_t v[] = {5, 5, 5, 9};
    dist d;
    dist_from_sorted(&d, v, 4);
    for (uint64_t seed = 0; seed < 20; seed++) {
        sample_rng r = {seed, 1, 0};
        uint64_t out[4];
        dist_stratified(&d, &r, out, 4);
        assert_memory_equal(out, v, sizeof v);
    }
}

/* Nearest rank: round(q (n - 1) / steps). n = 201, steps 100: 2q. n = 4,
 * steps 20: q = 10 -> round(1.5) = 2. */
static void nearest_rank(void **state)
{
    (void)state;
    assert_int_equal(dist_rank(201, 37, 100), 74);
    assert_int_equal(dist_rank(4, 10, 20), 2);
    assert_int_equal(dist_rank(4, 3, 20), 0);
    assert_int_equal(dist_rank(1, 100, 100), 0);
}

/* Layouts: {0, 2, 4, 6} is size 4 stride 2; {1, 3, 5, 7} too (1 % 8 < 2);
 * {2, 4} is not ({2, 4} would be rank 2's group only if 2 % 4 < 2);
 * {0, 1, 3} has no constant stride. Members of layout (g 2, s 2) on 8
 * ranks: group index of rank 5 is 5 / 4 * 2 + 5 % 2 = 3: {5, 7}. */
static void layouts(void **state)
{
    (void)state;
    const int64_t even[] = {0, 2, 4, 6}, odd[] = {1, 3, 5, 7}, off[] = {2, 4}, ragged[] = {0, 1, 3}, one[] = {5};
    assert_int_equal(comm_groups_stride(even, 4), 2);
    assert_int_equal(comm_groups_stride(odd, 4), 2);
    assert_int_equal(comm_groups_stride(off, 2), 0);
    assert_int_equal(comm_groups_stride(ragged, 3), 0);
    assert_int_equal(comm_groups_stride(one, 1), 1);
    assert_int_equal(comm_layout_index(5, 2, 2), 3);
    assert_int_equal(comm_layout_member(3, 0, 2, 2), 5);
    assert_int_equal(comm_layout_member(3, 1, 2, 2), 7);
    assert_int_equal(comm_layout_index(6, 4, 1), 1);
    assert_int_equal(comm_layout_member(1, 3, 4, 1), 7);
}

/* Values {1, 2, 3, 10, 20} to three steps: A (1 node, target 10), B (2
 * nodes, target 4), C (2 nodes, target 22). One-node steps first: A takes
 * 10. B: 4/2 = 2 takes 2, then 2/1 = 2: 1 and 3 are as near, the smaller
 * wins: 1. C: 22/2 = 11: 3 (8 away) beats 20 (9 away), then 19: 20. */
static void fill_steps(void **state)
{
    (void)state;
    const uint64_t v[] = {1, 2, 3, 10, 20};
    const step_fill_step steps[] = {{2, 22.0, 3}, {1, 10.0, 0}, {2, 4.0, 1}, {0, 5.0, 5}};
    const uint64_t want[] = {10, 2, 1, 3, 20};
    uint64_t out[5] = {0};
    assert_int_equal(step_fill(v, 5, steps, 4, out), 0);
    assert_memory_equal(out, want, sizeof want);
}

/* Every value is used once, whatever the targets: a target far above all
 * values takes the largest unused ones. */
static void fill_uses_each_value_once(void **state)
{
    (void)state;
    const uint64_t v[] = {4, 4, 4, 9};
    const step_fill_step steps[] = {{3, 1e9, 0}, {1, 0.0, 3}};
    uint64_t out[4] = {0};
    assert_int_equal(step_fill(v, 4, steps, 2, out), 0);
    /* The one-node step first: 4 (nearest 0); then 9, 4, 4. */
    assert_int_equal(out[3], 4);
    assert_int_equal(out[0], 9);
    assert_int_equal(out[1], 4);
    assert_int_equal(out[2], 4);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(ks_shifted),
    cmocka_unit_test(ks_ties_and_extremes),
    cmocka_unit_test(ks_sizes_differ),
    cmocka_unit_test(pairs_and_inverse),
    cmocka_unit_test(quantiles_and_interpolation),
    cmocka_unit_test(stratified_reproduces_pairs),
    cmocka_unit_test(nearest_rank),
    cmocka_unit_test(layouts),
    cmocka_unit_test(fill_steps),
    cmocka_unit_test(fill_uses_each_value_once)
)
