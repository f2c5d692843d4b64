/* The JSON form of `vimana-et json` / `from-json` piece by piece:
 * protobuf's shortest float32, base64, and a lossless round trip of every
 * attribute kind (extremes, NaN, -0.0, non-UTF-8 bytes included) through
 * json_out -> json_in -> json_to_et. Expected strings were produced by
 * CPython 3.11's repr()/json.dumps(). The double and string spellings are
 * tested with tools/common (test_pyfloat.c, test_tools_common.c). */
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

#include "etcmd/json_in.h"
#include "etcmd/json_out.h"
#include "etcmd/json_to_et.h"
#include "etcmd/pyfmt.h"
#include "et_test_util.h"

static void expect_float(float v, const char *want)
{
    char buf[PYFLOAT_MAX];
    pyfmt_float32(v, buf);
    assert_string_equal(buf, want);
}

static void test_float32_shortest(void **state)
{
    (void)state;
    expect_float(1.2345f, "1.2345");
    expect_float(2.3456f, "2.3456");
    expect_float(0.1f, "0.1");
    expect_float(3.4028234663852886e38f, "3.4028235e+38");
    expect_float(1e-45f, "1.4013e-45");
    expect_float(16777217.0f, "16777216.0");
    expect_float(1.0f / 3.0f, "0.33333334");
    expect_float(1e10f, "10000000000.0");
    expect_float(1.0000001f, "1.0000001");
    expect_float(123456.79f, "123456.79");
}

/* Runs `emit` into a temporary file and returns what it wrote. */
static char *capture(void (*emit)(sink *, const void *), const void *arg)
{
    char *path = tu_temp_path(".json");
    sink *s = sink_open("test", path);
    assert_non_null(s);
    emit(s, arg);
    assert_int_equal(sink_close(s), 0);
    size_t len;
    uint8_t *bytes = tu_read_file(path, &len);
    char *text = malloc(len + 1);
    memcpy(text, bytes, len);
    text[len] = '\0';
    free(bytes);
    unlink(path);
    free(path);
    return text;
}

static void emit_base64(sink *s, const void *arg)
{
    pyfmt_base64(s, arg, strlen(arg));
}

static void test_base64(void **state)
{
    (void)state;
    static const char *const plain[] = {"", "1", "12", "123", "12345"};
    static const char *const coded[] = {"\"\"", "\"MQ==\"", "\"MTI=\"", "\"MTIz\"", "\"MTIzNDU=\""};
    for (size_t i = 0; i < 5; i++) {
        char *got = capture(emit_base64, plain[i]);
        assert_string_equal(got, coded[i]);
        uint8_t out[16];
        long n = pyfmt_base64_decode(coded[i] + 1, strlen(coded[i]) - 2, out);
        assert_int_equal(n, strlen(plain[i]));
        assert_memory_equal(out, plain[i], (size_t)n);
        free(got);
    }
    uint8_t out[16];
    assert_int_equal(pyfmt_base64_decode("M", 1, out), -1);
    assert_int_equal(pyfmt_base64_decode("!!!!", 4, out), -1);
    assert_int_equal(pyfmt_base64_decode("MTI", 3, out), 2); /* padding optional */
}

/* ---- round trip of every kind through the JSON form ----------------------- */

static const double doubles[] = {1.2345, -0.0, 1e300, 5e-324, 0.1};
static const float floats[] = {1.2345f, -2.5f, 3.4028235e38f, 1e-45f};
static const int32_t i32s[] = {12345, -23456, INT32_MIN, INT32_MAX, 0};
static const uint32_t u32s[] = {0, UINT32_MAX};
static const int64_t i64s[] = {9876543210, INT64_MIN, INT64_MAX, 0};
static const uint64_t u64s[] = {0, UINT64_MAX};
static const int bools[] = {1, 0, 1};
static const char *const strings[] = {"12345", "", "caf\xc3\xa9 \xf0\x9f\x98\x80", "raw \xff\xfe", "\"quoted\"\n"};
static const vet_bytes bytes_items[] = {{5, (const uint8_t *)"12345"}, {0, NULL}, {3, (const uint8_t *)"\x00\xff\x80"}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
static const tu_lists lists = {
    {COUNT(doubles), doubles}, {COUNT(floats), floats}, {COUNT(i32s), i32s},
    {COUNT(u32s), u32s}, {COUNT(i64s), i64s}, {COUNT(u64s), u64s},
    {COUNT(bools), bools}, {COUNT(strings), strings}, {COUNT(bytes_items), bytes_items},
};

/* The values of the attributes "<kind>": NaN, an infinity, the ends of
 * the integer ranges, a string that is not UTF-8. */
static const tu_scalars scalars = {
    .d = NAN, .f = -INFINITY, .i32 = INT32_MIN, .sint32 = INT32_MIN, .i64 = INT64_MIN, .sint64 = INT64_MIN,
    .u32 = UINT32_MAX, .u64 = UINT64_MAX, .b = true, .s = "tab\there \xc3",
    .bytes = {4, (const uint8_t *)"\x00\x01\xfe\xff"},
};

typedef struct doc {
    const vet_metadata *md;
    const vet_node *nodes;
    size_t n;
} doc;

/* text in a temporary file (its path in *path, to unlink and free), opened
 * for reading. */
static json_in *open_text(const char *text, char **path)
{
    *path = tu_temp_file(text, strlen(text));
    char msg[300];
    json_in *in = json_in_open(*path, msg, sizeof msg);
    assert_non_null(in);
    return in;
}

static void emit_doc(sink *s, const void *arg)
{
    const doc *d = arg;
    json_out j;
    json_out_begin(&j, s, d->md);
    for (size_t i = 0; i < d->n; i++)
        json_out_node(&j, &d->nodes[i]);
    json_out_end(&j);
}

static void test_all_kinds_round_trip(void **state)
{
    (void)state;
    vet_attr attrs[64];
    char names[64][40];
    size_t n = tu_all_kinds(attrs, names, "doc \xe2\x82\xac", &scalars, &lists);
    static const uint64_t deps[] = {0, 1, UINT64_MAX};
    vet_io io = {"[[1, 'x']]", "", "caf\xc3\xa9"}, empty_io = {"", "", ""};
    vet_node nodes[] = {
        {.id = UINT64_MAX, .name = "all \"kinds\"", .type = VET_METADATA_NODE, .n_ctrl_deps = 3,
         .ctrl_deps = deps, .n_data_deps = 1, .data_deps = deps + 1, .start_time_micros = 1,
         .duration_micros = UINT64_MAX, .inputs = &io, .outputs = &empty_io, .n_attrs = n, .attrs = attrs},
        {.name = ""},                  /* an all-default node: {} */
        {.name = "t", .type = 12},     /* a type outside the enum stays a number */
    };
    vet_metadata md = {.version = "", .n_attrs = 2, .attrs = attrs};
    doc d = {&md, nodes, COUNT(nodes)};
    char *text = capture(emit_doc, &d);
    assert_non_null(strstr(text, "\n  {}"));
    assert_non_null(strstr(text, "\"type\": 12"));
    assert_non_null(strstr(text, "\"double_val\": \"NaN\""));
    assert_non_null(strstr(text, "\"float_val\": \"-Infinity\""));
    assert_non_null(strstr(text, "\"outputs\": {}"));

    /* Parse it back. */
    char *path;
    json_in *in = open_text(text, &path);
    arena a;
    arena_init(&a, 4096);
    jconv c = {.a = &a};
    char key[64], why[300];
    jv v;
    assert_true(json_in_expect(in, '{', "{"));
    assert_true(json_in_key(in, key, sizeof key));
    assert_string_equal(key, "global_metadata");
    assert_true(json_in_value(in, &v, &a));
    vet_metadata md_back;
    if (!jconv_metadata(&c, "global_metadata", &v, &md_back))
        fail_msg("%s", c.err);
    if (!tu_metadata_equal(&md_back, &md, why, sizeof why))
        fail_msg("metadata: %s", why);
    assert_true(json_in_expect(in, ',', ","));
    assert_true(json_in_key(in, key, sizeof key));
    assert_string_equal(key, "nodes");
    assert_true(json_in_expect(in, '[', "["));
    for (size_t i = 0; i < COUNT(nodes); i++) {
        vet_node back;
        vet_io in_io, out_io;
        if (i)
            assert_true(json_in_expect(in, ',', ","));
        assert_true(json_in_value(in, &v, &a));
        if (!jconv_node(&c, "nodes[i]", &v, &back, &in_io, &out_io))
            fail_msg("%s", c.err);
        if (!tu_node_equal(&back, &nodes[i], why, sizeof why))
            fail_msg("node %zu: %s", i, why);
    }
    assert_true(json_in_expect(in, ']', "]"));
    assert_true(json_in_expect(in, '}', "}"));
    assert_true(json_in_at_end(in));
    json_in_close(in);
    arena_free(&a);
    unlink(path);
    free(path);
    free(text);
}

/* Parses `text` as one value and converts it as node 3; returns the error. */
static void expect_node_error(const char *text, const char *want)
{
    char *path;
    json_in *in = open_text(text, &path);
    arena a;
    arena_init(&a, 4096);
    jconv c = {.a = &a};
    jv v;
    vet_node n;
    vet_io i1, i2;
    if (!json_in_value(in, &v, &a)) {
        assert_string_equal(json_in_error(in), want);
    } else {
        assert_false(jconv_node(&c, "nodes[3]", &v, &n, &i1, &i2));
        assert_string_equal(c.err, want);
    }
    json_in_close(in);
    arena_free(&a);
    unlink(path);
    free(path);
}

static void test_errors_name_the_path(void **state)
{
    (void)state;
    expect_node_error("{\"attr\": [{\"name\": \"a\"}, {\"name\": \"b\", \"int65_val\": 1}]}",
                      "nodes[3].attr[1]: unknown value kind \"int65_val\"");
    expect_node_error("{\"attr\": [{\"int32_val\": 2147483648}]}",
                      "nodes[3].attr[0].int32_val: 2147483648 is out of range for a signed 32-bit integer");
    expect_node_error("{\"data_deps\": [\"1\", \"-2\"]}",
                      "nodes[3].data_deps[1]: -2 is out of range for an unsigned 64-bit integer");
    expect_node_error("{\"id\": 1.5}", "nodes[3].id: expected an integer, got \"1.5\"");
    expect_node_error("{\"type\": \"GPU_NODE\"}", "nodes[3].type: unknown node type \"GPU_NODE\"");
    expect_node_error("{\"attr\": [{\"bool_list\": {\"values\": [true, 1]}}]}",
                      "nodes[3].attr[0].bool_list.values[1]: expected true or false, got a number");
    expect_node_error("{\"attr\": [{\"int64_val\": \"1\", \"bool_val\": true}]}",
                      "nodes[3].attr[0]: two values, \"int64_val\" and \"bool_val\" (an attribute holds one)");
    expect_node_error("{\"attr\": [{\"bytes_val\": \"@@\"}]}", "nodes[3].attr[0].bytes_val: not valid base64: \"@@\"");
    expect_node_error("{\"name\": \"a\\u0000b\"}",
                      "nodes[3].name: string contains a NUL character, which an ET string cannot hold");
    expect_node_error("{\"attr\": [{\"float_val\": 1e39}]}", "nodes[3].attr[0].float_val: 1e39 is out of range for a float");
    expect_node_error("{\"colour\": 1}", "nodes[3]: unknown key \"colour\"");
    expect_node_error("{\"id\": 1,}", "line 1, column 10: expected '\"' (an object key), found '}'");
    expect_node_error("{\"name\": \"x\\ud800\"}", "line 1, column 19: high surrogate \\ud800 not followed by a low surrogate");
    expect_node_error("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]",
                      "line 1, column 66: nesting deeper than 64 levels");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_float32_shortest),
    cmocka_unit_test(test_base64),
    cmocka_unit_test(test_all_kinds_round_trip),
    cmocka_unit_test(test_errors_name_the_path)
)
