/* system/relabel: classes, representatives and relabellings of NPUs under
 * commuting generators, worked by hand on 8 NPUs laid out as Megatron
 * lays out TP 2 x DP 2 x PP 2: rank = tp + 2 dp + 4 pp. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "system/relabel.h"

/* TP groups {0,1} {2,3} {4,5} {6,7}: rotate each pair */
static const uint32_t tp[8] = {1, 0, 3, 2, 5, 4, 7, 6};
/* DP groups {0,2} {1,3} {4,6} {5,7} */
static const uint32_t dp[8] = {2, 3, 0, 1, 6, 7, 4, 5};
/* the whole ring 0 -> 1 -> ... -> 7 -> 0 */
static const uint32_t ring[8] = {1, 2, 3, 4, 5, 6, 7, 0};

static void one_class_per_stage(void **state)
{
    (void)state;
    npu_relabel r;
    assert_int_equal(relabel_init(&r, 8), 0);
    assert_int_equal(r.n_classes, 8);
    assert_int_equal(relabel_add(&r, tp), RELABEL_ADDED);
    assert_int_equal(relabel_add(&r, dp), RELABEL_ADDED);
    assert_int_equal(r.n_classes, 2);
    assert_int_equal(r.class_size, 4);
    /* the stages' lowest ranks represent them */
    for (uint32_t x = 0; x < 8; x++)
        assert_int_equal(r.rep[x], x < 4 ? 0 : 4);
    assert_true(relabel_is_rep(&r, 4));
    assert_false(relabel_is_rep(&r, 5));
    /* 7 = tp dp (4): its relabelling to 4 swaps both pairs, so 3 -> 0, 6 -> 5 */
    assert_int_equal(relabel_to_rep(&r, 7, 7), 4);
    assert_int_equal(relabel_to_rep(&r, 7, 3), 0);
    assert_int_equal(relabel_to_rep(&r, 7, 6), 5);
    /* 2 = dp (0): only the DP pairs swap */
    assert_int_equal(relabel_to_rep(&r, 2, 2), 0);
    assert_int_equal(relabel_to_rep(&r, 2, 1), 3);
    assert_int_equal(relabel_to_rep(&r, 2, 5), 7);
    /* each class's NPUs in NPU order */
    assert_int_equal(r.first[0], 0);
    assert_int_equal(r.first[4], 4);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(r.members_of[k], k);
    relabel_free(&r);
}

static void powers_wrap_around(void **state)
{
    (void)state;
    npu_relabel r;
    assert_int_equal(relabel_init(&r, 8), 0);
    assert_int_equal(relabel_add(&r, ring), RELABEL_ADDED);
    assert_int_equal(r.n_classes, 1);
    assert_int_equal(r.gens[0].order, 8);
    assert_int_equal(relabel_apply(&r, 0, 6, 3), 1);
    assert_int_equal(relabel_apply(&r, 0, 1, -3), 6);
    assert_int_equal(relabel_apply(&r, 0, 1, 8 * 5 + 2), 3);
    /* 5 is 5 steps from 0: its relabelling moves everything 5 back */
    assert_int_equal(relabel_to_rep(&r, 5, 5), 0);
    assert_int_equal(relabel_to_rep(&r, 5, 2), 5);
    relabel_free(&r);
}

static void refusals_change_nothing(void **state)
{
    (void)state;
    npu_relabel r;
    static const uint32_t identity[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    /* swaps 0 and 1 only: 0 and 1 form a class of 2, the others of 1 */
    static const uint32_t partial[8] = {1, 0, 2, 3, 4, 5, 6, 7};
    assert_int_equal(relabel_init(&r, 8), 0);
    assert_int_equal(relabel_add(&r, identity), RELABEL_IDENTITY);
    assert_int_equal(relabel_add(&r, partial), RELABEL_NOT_FREE);
    assert_int_equal(r.n_gens, 0);
    assert_int_equal(r.n_classes, 8);
    assert_int_equal(relabel_add(&r, tp), RELABEL_ADDED);
    /* the ring does not commute with the TP pairs: ring(tp(0)) = 2, tp(ring(0)) = 0 */
    assert_int_equal(relabel_add(&r, ring), RELABEL_NOT_COMMUTING);
    /* the TP pairs again: commutes, but the classes would have 2 of 4 elements */
    assert_int_equal(relabel_add(&r, tp), RELABEL_NOT_FREE);
    assert_int_equal(r.n_gens, 1);
    assert_int_equal(r.n_classes, 4);
    assert_int_equal(r.class_size, 2);
    assert_int_equal(r.rep[7], 6);
    relabel_free(&r);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(one_class_per_stage),
    cmocka_unit_test(powers_wrap_around),
    cmocka_unit_test(refusals_change_nothing)
)
