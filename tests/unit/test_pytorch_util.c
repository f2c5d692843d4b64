/* Small helpers of the PyTorch converter: CPython set order, Python value
 * coercions, string buffer. (The id map is tested with tools/common, in
 * test_tools_common.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "pytorch/pt_strbuf.h"
#include "pytorch/pyset.h"
#include "pytorch/pyvalue.h"

static void check_order(const uint64_t *in, size_t n, const uint64_t *want)
{
    uint64_t keys[16];
    memcpy(keys, in, n * sizeof *keys);
    assert_int_equal(pt_pyset_order(keys, n), 0);
    for (size_t k = 0; k < n; k++)
        assert_true(keys[k] == want[k]);
}

/* Expected orders are what `list(s)` prints in CPython 3.11 after adding
 * the keys one by one. */
static void pyset_order_matches_cpython(void **state)
{
    (void)state;
    check_order((const uint64_t[]){9, 1, 17, 25, 2}, 5, (const uint64_t[]){1, 2, 9, 17, 25});
    check_order((const uint64_t[]){100, 3, 8, 16, 7, 1000000}, 6, (const uint64_t[]){1000000, 3, 100, 7, 8, 16});
    const uint64_t big = (1ULL << 61) - 1;
    check_order((const uint64_t[]){big + 5, 5, big + 3, 13}, 4, (const uint64_t[]){13, 5, big + 3, big + 5});
    assert_true(pt_pyset_hash(big + 5) == 5);
}

static void python_value_rules(void **state)
{
    (void)state;
    pj_value v = {.type = PJ_BOOL, .b = true};
    int64_t i;
    uint64_t u;
    double d;
    assert_int_equal(pt_pyvalue_int64(&v, &i), 0);
    assert_true(i == 1);
    v = (pj_value){.type = PJ_INT, .v.u = (uint64_t)INT64_MAX + 1};
    assert_int_equal(pt_pyvalue_int64(&v, &i), -1);
    assert_int_equal(pt_pyvalue_uint64(&v, &u), 0);
    v = (pj_value){.type = PJ_INT, .negative = true, .v.i = -3};
    assert_int_equal(pt_pyvalue_uint64(&v, &u), -1);
    assert_int_equal(pt_pyvalue_number(&v, &d), 0);
    assert_true(d == -3.0);
    v = (pj_value){.type = PJ_FLOAT, .v.d = 2.0};
    assert_int_equal(pt_pyvalue_int64(&v, &i), -1);
    assert_int_equal(pt_pyvalue_int64(NULL, &i), -1);
    assert_false(pt_pyvalue_truthy(NULL));
    assert_false(pt_pyvalue_truthy(&(pj_value){.type = PJ_NULL}));
    assert_false(pt_pyvalue_truthy(&(pj_value){.type = PJ_INT}));
    assert_false(pt_pyvalue_truthy(&(pj_value){.type = PJ_STRING, .n = 0, .v.s = ""}));
    assert_true(pt_pyvalue_truthy(&(pj_value){.type = PJ_ARRAY, .n = 1}));
    assert_false(pt_pyvalue_truthy(&(pj_value){.type = PJ_FLOAT, .v.d = 0.0}));
}

static void strbuf_appends_and_formats(void **state)
{
    (void)state;
    pt_strbuf sb;
    pt_sb_init(&sb);
    assert_string_equal(pt_sb_cstr(&sb), "");
    for (int k = 0; k < 1000; k++)
        pt_sb_printf(&sb, "%d,", k);
    assert_int_equal(sb.len, 3890);
    pt_sb_reset(&sb);
    pt_sb_puts(&sb, "ab");
    pt_sb_putc(&sb, 'c');
    pt_sb_put(&sb, "def", 2);
    assert_string_equal(pt_sb_cstr(&sb), "abcde");
    pt_sb_free(&sb);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(pyset_order_matches_cpython),
    cmocka_unit_test(python_value_rules),
    cmocka_unit_test(strbuf_appends_and_formats)
)
