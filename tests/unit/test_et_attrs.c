/* Every attribute kind (the 30 members of AttributeProto's value oneof)
 * through writer -> reader, at ordinary values, extremes and defaults:
 * a set oneof member is written even at 0/false/"" (proto3 would drop a
 * plain field), and the coercing getters follow chakra-et-format.md 4.3. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "et_test_util.h"
#include "vimana/et.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const double doubles[] = {1.2345, -0.0, 1e300, -INFINITY, 5e-324};
static const float floats[] = {1.2345f, -2.5f, 3.4028235e38f, 1e-45f};
static const int32_t i32s[] = {12345, -23456, INT32_MIN, INT32_MAX, 0};
static const uint32_t u32s[] = {0, 1, 127, 128, UINT32_MAX};
static const int64_t i64s[] = {9876543210, -1234567890, INT64_MIN, INT64_MAX, 0};
static const uint64_t u64s[] = {0, 9876543210, UINT64_MAX};
static const int bools[] = {1, 0, 1, 1, 0};
static const char *const strings[] = {"12345", "", "caf\xc3\xa9", "line\nbreak"};
static const vet_bytes bytes_items[] = {{5, (const uint8_t *)"12345"}, {0, NULL}, {3, (const uint8_t *)"\x00\xff\x80"}};
static const tu_lists lists = {
    {COUNT(doubles), doubles}, {COUNT(floats), floats}, {COUNT(i32s), i32s},
    {COUNT(u32s), u32s}, {COUNT(i64s), i64s}, {COUNT(u64s), u64s},
    {COUNT(bools), bools}, {COUNT(strings), strings}, {COUNT(bytes_items), bytes_items},
};

/* The values of the attributes "<kind>": typical ones, SINT32 and SINT64
 * at their lowest. */
static const tu_scalars scalars = {
    .d = -1.5e-7, .f = 1.2345f, .i32 = -12345, .sint32 = INT32_MIN, .i64 = -9876543210, .sint64 = INT64_MIN,
    .u32 = UINT32_MAX, .u64 = UINT64_MAX, .b = true, .s = "12345 \xe2\x82\xac",
    .bytes = {4, (const uint8_t *)"\x00\x01\xfe\xff"},
};

static void test_all_kinds_round_trip(void **state)
{
    (void)state;
    vet_attr attrs[64];
    char names[64][40];
    size_t n = tu_all_kinds(attrs, names, "doc", &scalars, &lists);
    assert_int_equal(n, 60);
    vet_node node = {.id = 42, .name = "all kinds", .type = VET_METADATA_NODE, .n_attrs = n, .attrs = attrs};
    vet_metadata md = {.version = "1.0.0", .n_attrs = n, .attrs = attrs};
    char *path = tu_temp_path(".et");
    vet_error err;
    vet_writer *w = vet_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(vet_writer_put_metadata(w, &md, &err), 0);
    assert_int_equal(vet_writer_put_node(w, &node, &err), 0);
    assert_int_equal(vet_writer_close(w, &err), 0);

    vet_reader *r = vet_reader_open(path, &err);
    assert_non_null(r);
    char why[300] = "";
    if (!tu_metadata_equal(vet_reader_metadata(r), &md, why, sizeof why))
        fail_msg("metadata: %s", why);
    const vet_node *back;
    assert_int_equal(vet_reader_next(r, &back, &err), 1);
    if (!tu_node_equal(back, &node, why, sizeof why))
        fail_msg("node: %s", why);
    assert_int_equal(vet_reader_next(r, &back, &err), 0);
    vet_reader_close(r);
    unlink(path);
    free(path);
}

/* Encodes one attribute alone on an otherwise empty node and checks the
 * bytes of its AttributeProto. */
static void expect_attr_bytes(const vet_attr *a, const uint8_t *want, size_t want_len)
{
    vet_node n = {.name = "", .n_attrs = 1, .attrs = a};
    uint8_t *out;
    size_t len;
    assert_int_equal(vet_encode_node(&n, &out, &len), 0);
    /* 52 <len> then the attribute */
    assert_int_equal(len, want_len + 2);
    assert_int_equal(out[0], 0x52);
    assert_int_equal(out[1], want_len);
    assert_memory_equal(out + 2, want, want_len);
    free(out);
}

static void test_defaults_are_written(void **state)
{
    (void)state;
    vet_attr a = {.name = "x", .doc_string = "", .kind = VET_INT64};
    const uint8_t int64_0[] = {0x0a, 0x01, 'x', 0x48, 0x00};
    expect_attr_bytes(&a, int64_0, sizeof int64_0);
    a.kind = VET_BOOL;
    const uint8_t bool_false[] = {0x0a, 0x01, 'x', 0xd8, 0x01, 0x00};
    expect_attr_bytes(&a, bool_false, sizeof bool_false);
    a.kind = VET_STRING;
    a.v.s = "";
    const uint8_t string_empty[] = {0x0a, 0x01, 'x', 0xea, 0x01, 0x00};
    expect_attr_bytes(&a, string_empty, sizeof string_empty);
    a.kind = VET_DOUBLE;
    a.v.d = 0;
    const uint8_t double_0[] = {0x0a, 0x01, 'x', 0x19, 0, 0, 0, 0, 0, 0, 0, 0};
    expect_attr_bytes(&a, double_0, sizeof double_0);
    a.kind = VET_BOOL_LIST;
    a.v.list = (vet_list){0, NULL};
    const uint8_t empty_list[] = {0x0a, 0x01, 'x', 0xe2, 0x01, 0x00};
    expect_attr_bytes(&a, empty_list, sizeof empty_list);
    /* Lists are packed: bool_list [true, false] = e2 01 04 0a 02 01 00. */
    static const int tf[] = {1, 0};
    a.v.list = (vet_list){2, tf};
    const uint8_t packed[] = {0x0a, 0x01, 'x', 0xe2, 0x01, 0x04, 0x0a, 0x02, 0x01, 0x00};
    expect_attr_bytes(&a, packed, sizeof packed);
    /* sint32 is zigzag: -1 -> 01. */
    a.kind = VET_SINT32;
    a.v.i32 = -1;
    const uint8_t zigzag[] = {0x0a, 0x01, 'x', 0x78, 0x01};
    expect_attr_bytes(&a, zigzag, sizeof zigzag);
    /* int32 -1 is a 10-byte sign-extended varint. */
    a.kind = VET_INT32;
    const uint8_t minus1[] = {0x0a, 0x01, 'x', 0x38, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    expect_attr_bytes(&a, minus1, sizeof minus1);
}

static void test_coercion(void **state)
{
    (void)state;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    const char *s;
    vet_attr a = {.name = "n", .doc_string = "", .kind = VET_UINT64, .v.u64 = 1048576};
    assert_int_equal(vet_attr_int64(&a, &i), VET_ATTR_OK);
    assert_int_equal(i, 1048576);
    assert_int_equal(vet_attr_double(&a, &d), VET_ATTR_OK);
    assert_true(d == 1048576.0);
    a.v.u64 = UINT64_MAX; /* does not fit int64 */
    assert_int_equal(vet_attr_int64(&a, &i), VET_ATTR_BADTYPE);
    a.kind = VET_INT32;
    a.v.i32 = -3; /* negative as unsigned */
    assert_int_equal(vet_attr_uint64(&a, &u), VET_ATTR_BADTYPE);
    assert_int_equal(vet_attr_bool(&a, &b), VET_ATTR_OK);
    assert_true(b);
    a.kind = VET_DOUBLE;
    a.v.d = 2.0; /* floating point never reads as an integer */
    assert_int_equal(vet_attr_int64(&a, &i), VET_ATTR_BADTYPE);
    a.kind = VET_FLOAT;
    a.v.f = 0.5f;
    assert_int_equal(vet_attr_double(&a, &d), VET_ATTR_OK);
    assert_true(d == 0.5);
    a.kind = VET_STRING;
    a.v.s = "7"; /* strings are not numbers */
    assert_int_equal(vet_attr_int64(&a, &i), VET_ATTR_BADTYPE);
    assert_int_equal(vet_attr_string(&a, &s), VET_ATTR_OK);
    assert_string_equal(s, "7");
    vet_node n = {.name = "", .n_attrs = 1, .attrs = &a};
    assert_int_equal(vet_node_int64(&n, "absent", -9, &i), VET_ATTR_ABSENT);
    assert_int_equal(i, -9);
}

/* The element size tools use to build a vet_list (vet_list_item_size, the
 * public form of the library's private table). */
static void test_list_item_size(void **state)
{
    (void)state;
    assert_int_equal(vet_list_item_size(VET_DOUBLE_LIST), sizeof(double));
    assert_int_equal(vet_list_item_size(VET_FLOAT_LIST), sizeof(float));
    assert_int_equal(vet_list_item_size(VET_INT64_LIST), sizeof(int64_t));
    assert_int_equal(vet_list_item_size(VET_UINT32_LIST), sizeof(uint32_t));
    assert_int_equal(vet_list_item_size(VET_BOOL_LIST), sizeof(int));
    assert_int_equal(vet_list_item_size(VET_STRING_LIST), sizeof(const char *));
    assert_int_equal(vet_list_item_size(VET_BYTES_LIST), sizeof(vet_bytes));
    assert_int_equal(vet_list_item_size(VET_INT64), 0);
    assert_int_equal(vet_list_item_size(VET_VALUE_NONE), 0);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_all_kinds_round_trip),
    cmocka_unit_test(test_defaults_are_written),
    cmocka_unit_test(test_coercion),
    cmocka_unit_test(test_list_item_size)
)
