/* JSON as Python's json.load() reads it (tools/pytorch/pyjson.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "pytorch/pyjson.h"

static void parse_ok(pj_doc *doc, const char *text)
{
    pt_error err;
    if (pj_parse(doc, "t.json", text, strlen(text), &err) != 0)
        fail_msg("unexpected error: %s", err.msg);
}

static void check_error(const char *text, const char *want)
{
    pj_doc doc;
    pt_error err;
    assert_int_equal(pj_parse(&doc, "t.json", text, strlen(text), &err), -1);
    assert_string_equal(err.msg, want);
    assert_null(doc.text);
}

static void reads_every_kind_of_value(void **state)
{
    (void)state;
    pj_doc doc;
    parse_ok(&doc, " {\"i\": -42, \"u\": 18446744073709551615, \"f\": 2.5e-3, \"s\": \"a\\\"b\\u00e9\",\n"
                   "  \"l\": [true, false, null], \"o\": {}, \"z\": -0} ");
    const pj_value *root = &doc.root;
    assert_int_equal(root->type, PJ_OBJECT);
    assert_int_equal(root->n, 7);
    const pj_value *i = pj_get(root, "i");
    assert_int_equal(i->type, PJ_INT);
    assert_true(i->negative);
    assert_true(i->v.i == -42);
    const pj_value *u = pj_get(root, "u");
    assert_false(u->negative);
    assert_true(u->v.u == UINT64_MAX);
    assert_int_equal(pj_get(root, "f")->type, PJ_FLOAT);
    assert_true(pj_get(root, "f")->v.d == 2.5e-3);
    assert_string_equal(pj_str(pj_get(root, "s")), "a\"b\xc3\xa9");
    assert_int_equal(pj_get(root, "s")->n, 5);
    assert_int_equal(pj_len(pj_get(root, "l")), 3);
    assert_true(pj_at(pj_get(root, "l"), 0)->b);
    assert_int_equal(pj_at(pj_get(root, "l"), 2)->type, PJ_NULL);
    assert_null(pj_at(pj_get(root, "l"), 3));
    assert_int_equal(pj_get(root, "o")->type, PJ_OBJECT);
    assert_false(pj_get(root, "z")->negative);
    assert_null(pj_get(root, "missing"));
    assert_string_equal(pj_type_name(pj_get(root, "o")), "dict");
    pj_free(&doc);
}

static void repeated_keys_keep_first_position_and_last_value(void **state)
{
    (void)state;
    pj_doc doc;
    parse_ok(&doc, "{\"a\": 1, \"b\": 2, \"a\": 3}");
    assert_int_equal(doc.root.n, 2);
    assert_string_equal(doc.root.v.members[0].key, "a");
    assert_true(doc.root.v.members[0].value.v.u == 3);
    pj_free(&doc);
    /* big objects go through the hashed path */
    char text[4096] = "{";
    for (int k = 0; k < 100; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "\"k%d\": %d, ", k % 60, k);
    strcat(text, "\"end\": 0}");
    parse_ok(&doc, text);
    assert_int_equal(doc.root.n, 61);
    assert_true(pj_get(&doc.root, "k5")->v.u == 65);
    assert_string_equal(doc.root.v.members[5].key, "k5");
    pj_free(&doc);
}

static void accepts_python_extras(void **state)
{
    (void)state;
    pj_doc doc;
    parse_ok(&doc, "[NaN, Infinity, -Infinity, 1E400, \"\\ud83d\\ude00\"]");
    assert_true(pj_at(&doc.root, 0)->v.d != pj_at(&doc.root, 0)->v.d);
    assert_true(pj_at(&doc.root, 1)->v.d > 1e308);
    assert_true(pj_at(&doc.root, 2)->v.d < -1e308);
    assert_true(pj_at(&doc.root, 3)->v.d > 1e308);
    assert_string_equal(pj_str(pj_at(&doc.root, 4)), "\xf0\x9f\x98\x80");
    pj_free(&doc);
}

static void errors_name_line_and_column(void **state)
{
    (void)state;
    check_error("", "t.json: line 1, column 1: invalid JSON: expecting a value");
    check_error("{\"a\": 1,\n \"b\": }", "t.json: line 2, column 7: invalid JSON: expecting a value");
    check_error("[1, 2,]", "t.json: line 1, column 7: invalid JSON: expecting a value");
    check_error("[1 2]", "t.json: line 1, column 4: invalid JSON: expecting ',' or ']'");
    check_error("{\"a\" 1}", "t.json: line 1, column 6: invalid JSON: expecting ':'");
    check_error("{'a': 1}", "t.json: line 1, column 2: invalid JSON: expecting a property name in double quotes");
    check_error("[1] x", "t.json: line 1, column 5: invalid JSON: extra data after the JSON document");
    check_error("[1.]", "t.json: line 1, column 2: invalid JSON: malformed number");
    check_error("[01]", "t.json: line 1, column 2: invalid JSON: malformed number");
    check_error("[18446744073709551616]", "t.json: line 1, column 2: invalid JSON: integer outside the 64-bit range");
    check_error("[-9223372036854775809]", "t.json: line 1, column 2: invalid JSON: integer outside the 64-bit range");
    check_error("[\"a\tb\"]", "t.json: line 1, column 4: invalid JSON: control character inside a string");
    check_error("[\"\\x\"]", "t.json: line 1, column 3: invalid JSON: invalid escape");
    check_error("[\"\\u0000\"]", "t.json: line 1, column 3: invalid JSON: \\u0000 (a NUL character) is not supported");
    check_error("[\"\\ud800x\"]", "t.json: line 1, column 3: invalid JSON: unpaired surrogate escape is not supported");
    check_error("[\"\xff\"]", "t.json: line 1, column 3: invalid JSON: invalid UTF-8");
    check_error("[\"\xed\xa0\x80\"]", "t.json: line 1, column 3: invalid JSON: invalid UTF-8");
    check_error("[\"abc", "t.json: line 1, column 2: invalid JSON: unterminated string");
    check_error("[nan]", "t.json: line 1, column 2: invalid JSON: expecting a value");
    check_error("[True]", "t.json: line 1, column 2: invalid JSON: expecting a value");
    check_error("\n\n  {\"a\": [1, 2", "t.json: line 3, column 14: invalid JSON: expecting ',' or ']'");
}

static void deep_nesting_is_refused(void **state)
{
    (void)state;
    static char text[2100];
    memset(text, '[', 1001);
    memset(text + 1001, ']', 1001);
    text[2002] = '\0';
    check_error(text, "t.json: line 1, column 1001: invalid JSON: nested deeper than 1000 levels");
    text[0] = ' ';
    text[2001] = '\0';
    pj_doc doc;
    parse_ok(&doc, text);
    pj_free(&doc);
}

static void load_reads_missing_files_with_a_clear_error(void **state)
{
    (void)state;
    pj_doc doc;
    pt_error err;
    assert_int_equal(pj_load(&doc, "/nonexistent/trace.json", &err), -1);
    assert_string_equal(err.msg, "/nonexistent/trace.json: cannot open: No such file or directory");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(reads_every_kind_of_value),
    cmocka_unit_test(repeated_keys_keep_first_position_and_last_value),
    cmocka_unit_test(accepts_python_extras),
    cmocka_unit_test(errors_name_line_and_column),
    cmocka_unit_test(deep_nesting_is_refused),
    cmocka_unit_test(load_reads_missing_files_with_a_clear_error)
)
