/*
 * Unit tests of the JSON layer of `vimana-et link`: Python number semantics,
 * the validating scanner and its error positions, the json.dump(indent=4)
 * writer, and the thread-id interning. (repr() of floats and the id map
 * are tested with tools/common: test_pyfloat.c, test_tools_common.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "trace_link/json_scan.h"
#include "trace_link/py_json_out.h"
#include "trace_link/pynum.h"
#include "trace_link/span_intern.h"

static pynum num(const char *text)
{
    pynum n;
    assert_int_equal(pynum_parse(text, strlen(text), &n), 0);
    return n;
}

static void test_pynum_semantics(void **state)
{
    (void)state;
    pynum i = num("9007199254740993"), f = num("9007199254740992.0");
    assert_false(i.is_float);
    assert_true(f.is_float);
    /* Python compares an int with a float exactly: 2**53 + 1 > 2.0**53. */
    assert_int_equal(pynum_cmp(i, f), 1);
    assert_int_equal(pynum_cmp(num("5"), num("5.0")), 0);
    assert_int_equal(pynum_cmp(num("-3"), num("-2.5")), -1);
    bool overflow = false;
    pynum s = pynum_sub(num("60"), num("5"), &overflow);
    assert_false(s.is_float);
    assert_int_equal(s.v.i, 55);
    /* int - float is a float: 60 - (120.25 - 115.25) prints 55.0. */
    s = pynum_sub(num("60"), pynum_sub(num("120.25"), num("115.25"), &overflow), &overflow);
    char text[PYNUM_TEXT_MAX];
    pynum_format(s, text);
    assert_string_equal(text, "55.0");
    assert_false(overflow);
    pynum_add(num("9223372036854775807"), num("1"), &overflow);
    assert_true(overflow);
    pynum out;
    assert_int_equal(pynum_parse("9223372036854775808", 19, &out), -1);
    assert_int_equal(pynum_parse("-9223372036854775808", 20, &out), 0);
    assert_int_equal(pynum_parse("1E400", 5, &out), 0);
    assert_false(pynum_is_finite(out));
}

/* Scans `text` as one JSON value; the error message ("" when it is valid)
 * is left in d->msg, which is returned. */
static const char *scan_error_in(tl_diag *d, const char *text)
{
    tl_diag_init(d, "test", TL_ERROR);
    json_scan s;
    js_init(&s, text, strlen(text), "f.json", d);
    if (js_skip_value(&s, NULL) == 0 && js_finish(&s) == 0)
        d->msg[0] = '\0';
    return d->msg;
}

#define scan_error(text) scan_error_in(&d, (text))

static void test_scanner_errors(void **state)
{
    (void)state;
    tl_diag d;
    assert_string_equal(scan_error("{\"a\": [1, 2.5e3, -0, true, null, \"x\\u00e9\\n\"], \"b\": {}}"), "");
    assert_string_equal(scan_error("[NaN, Infinity, -Infinity]"), "");
    assert_string_equal(scan_error("{\n  \"a\": 1\n  \"b\": 2\n}"),
                        "f.json: malformed JSON at line 3, column 3: expected ',' or '}' after an object member");
    assert_string_equal(scan_error("[1, 2,]"), "f.json: malformed JSON at line 1, column 7: expected a value");
    assert_string_equal(scan_error("{\"a\" 1}"), "f.json: malformed JSON at line 1, column 6: expected ':' after an object key");
    assert_string_equal(scan_error("[01]"), "f.json: malformed JSON at line 1, column 2: invalid number");
    assert_string_equal(scan_error("\"abc"), "f.json: malformed JSON at line 1, column 1: unterminated string");
    assert_string_equal(scan_error("\"a\\q\""), "f.json: malformed JSON at line 1, column 3: invalid escape in string");
    assert_string_equal(scan_error("\"a\tb\""), "f.json: malformed JSON at line 1, column 3: control character in string");
    assert_string_equal(scan_error("\"\xc3\x28\""), "f.json: malformed JSON at line 1, column 2: invalid UTF-8 in string");
    assert_string_equal(scan_error("{} x"), "f.json: malformed JSON at line 1, column 4: unexpected data after the JSON value");
    assert_string_equal(scan_error("[1"),
                        "f.json: malformed JSON at line 1, column 3: unexpected end of input, expected ',' or ']' after an "
                        "array element");
    assert_string_equal(scan_error(""), "f.json: malformed JSON at line 1, column 1: unexpected end of input, expected a value");
}

static void test_scanner_deep_nesting(void **state)
{
    (void)state;
    tl_diag d;
    size_t depth = 50000;
    char *text = malloc(2 * depth + 1);
    assert_non_null(text);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = '\0';
    assert_string_equal(scan_error(text), "");
    free(text);
}

static void test_span_helpers(void **state)
{
    (void)state;
    const char *buf = "\"cpu\\u005fop\" \"abc\"";
    tl_span escaped = {1, 11}, plain = {15, 3};
    assert_true(js_span_equals(buf, escaped, "cpu_op"));
    assert_false(js_span_equals(buf, escaped, "cpu_o"));
    assert_true(js_span_equals(buf, plain, "abc"));
    assert_false(js_spans_equal(buf, escaped, buf, plain));
    assert_true(js_spans_equal(buf, plain, "abc", (tl_span){0, 3}));
}

/* Writes through tl_out into a temporary file and returns its content. */
typedef void (*write_fn)(tl_out *o, const char *arg);

#define written(fn, arg) written_into(content, (fn), (arg))

/* The text written by fn(arg), in `content` (4 KiB). */
static const char *written_into(char *content, write_fn fn, const char *arg)
{
    char path[] = "/tmp/test_trace_link_json.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    tl_diag d;
    tl_diag_init(&d, "test", TL_ERROR);
    tl_out o;
    assert_int_equal(tl_out_open(&o, path, &d), 0);
    fn(&o, arg);
    assert_int_equal(tl_out_close(&o, &d), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(content, 1, 4095, f);
    content[n] = '\0';
    fclose(f);
    remove(path);
    return content;
}

static void put_value(tl_out *o, const char *raw)
{
    tl_out_py_value(o, raw, strlen(raw), 1);
}

static void put_string(tl_out *o, const char *raw)
{
    tl_out_py_string(o, raw, strlen(raw));
}

static void test_python_dump_format(void **state)
{
    (void)state;
    char content[4096];
    assert_string_equal(written(put_value, "{\"a\":[1,2],\"b\":{},\"c\":[],\"d\":{\"e\":null}}"),
                        "{\n"
                        "        \"a\": [\n"
                        "            1,\n"
                        "            2\n"
                        "        ],\n"
                        "        \"b\": {},\n"
                        "        \"c\": [],\n"
                        "        \"d\": {\n"
                        "            \"e\": null\n"
                        "        }\n"
                        "    }");
    assert_string_equal(written(put_value, "[ 0.10000000000000001 , 1E-5,2.50, -0, 12345678901234567890, true ]"),
                        "[\n        0.1,\n        1e-05,\n        2.5,\n        0,\n        12345678901234567890,\n"
                        "        true\n    ]");
    assert_string_equal(written(put_value, "[ ]"), "[]");
}

static void test_python_string_escapes(void **state)
{
    (void)state;
    char content[4096];
    /* ensure_ascii: non-ASCII as lowercase \u escapes, astral characters as
     * surrogate pairs, "\/" decoded to "/", DEL escaped. */
    assert_string_equal(written(put_string, "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"),
                        "\"caf\\u00e9 \\u2192 \\ud83d\\ude00\"");
    assert_string_equal(written(put_string, "a\\/b \\u00E9 \\uD83D\\uDE00 \\ud800"),
                        "\"a/b \\u00e9 \\ud83d\\ude00 \\ud800\"");
    assert_string_equal(written(put_string, "q\\\" s\\\\ \\b\\f\\n\\r\\t \\u0001 \x7f \\u0041"),
                        "\"q\\\" s\\\\ \\b\\f\\n\\r\\t \\u0001 \\u007f A\"");
}

static void test_span_intern(void **state)
{
    (void)state;
    span_intern t;
    const char *buf = "12 \"main\" 12 13";
    assert_int_equal(span_intern_init(&t, buf), 0);
    assert_int_equal(span_intern_get(&t, 0, 2), 0);
    assert_int_equal(span_intern_get(&t, 3, 6), 1);
    assert_int_equal(span_intern_get(&t, 10, 2), 0);
    assert_int_equal(span_intern_get(&t, 13, 2), 2);
    span_intern_free(&t);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_pynum_semantics),
    cmocka_unit_test(test_scanner_errors),      cmocka_unit_test(test_scanner_deep_nesting),
    cmocka_unit_test(test_span_helpers),        cmocka_unit_test(test_python_dump_format),
    cmocka_unit_test(test_python_string_escapes), cmocka_unit_test(test_span_intern)
)
