/* workload/families: communicator groups of one shape and the group of a
 * family that holds an NPU, on 8 NPUs laid out as TP 2 x DP 2 x PP 2
 * (rank = tp + 2 dp + 4 pp): TP groups 1-4, DP groups 5-8. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include <string.h>

#include "workload/families.h"

static uint32_t tp1[] = {0, 1}, tp2[] = {2, 3}, tp3[] = {4, 5}, tp4[] = {6, 7};
static uint32_t dp5[] = {0, 2}, dp6[] = {1, 3}, dp7[] = {4, 6}, dp8[] = {5, 7};

static comm_group_config megatron(comm_group_def *defs)
{
    comm_group_def g[] = {{1, tp1, 2}, {2, tp2, 2}, {3, tp3, 2}, {4, tp4, 2},
                          {5, dp5, 2}, {6, dp6, 2}, {7, dp7, 2}, {8, dp8, 2}};
    memcpy(defs, g, sizeof g);
    return (comm_group_config){defs, 8};
}

static void translates_by_shape(void **state)
{
    (void)state;
    comm_group_def defs[8];
    comm_group_config cfg = megatron(defs);
    char err[300] = "";
    wl_families *f = families_build(&cfg, 8, err, sizeof err);
    assert_non_null(f);
    /* rank 0's TP group 1 is, for rank 7, its TP group 4; its DP group 5 is 8 */
    assert_int_equal(families_translate(f, 1, 7), 4);
    assert_int_equal(families_translate(f, 5, 7), 8);
    assert_int_equal(families_translate(f, 5, 3), 6);
    assert_int_equal(families_translate(f, 2, 0), 1);
    /* a group in no family is kept */
    assert_int_equal(families_translate(f, 42, 3), 42);
    assert_true(families_same_shape(&defs[0], &defs[3]));
    assert_false(families_same_shape(&defs[0], &defs[4]));
    families_free(f);
}

static void same_shape_overlap_is_refused(void **state)
{
    (void)state;
    static uint32_t a[] = {0, 1}, b[] = {1, 2};
    comm_group_def defs[] = {{1, a, 2}, {2, b, 2}};
    comm_group_config cfg = {defs, 2};
    char err[300] = "";
    assert_null(families_build(&cfg, 4, err, sizeof err));
    assert_string_equal(err, "communicator groups 1 and 2 have the same shape and both hold NPU 1: a compact workload "
                             "cannot tell which one another rank runs");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(translates_by_shape),
    cmocka_unit_test(same_shape_overlap_is_refused)
)
