/* Python str()/repr() of JSON values (tools/pytorch/pyrepr.c). Expected
 * strings are what CPython 3.11 prints for the same values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "pytorch/pyjson.h"
#include "pytorch/pyrepr.h"
#include "pytorch/unicode_printable.h"
#include "pyfloat_cases.h"

static void check_double(double d, const char *want)
{
    pt_strbuf sb;
    pt_sb_init(&sb);
    pt_pyrepr_double(&sb, d);
    assert_false(sb.failed);
    assert_string_equal(pt_sb_cstr(&sb), want);
    pt_sb_free(&sb);
}

/* pt_pyrepr_double writes Python's repr(): every case of pyfloat_cases.h. */
static void floats_use_shortest_round_trip_repr(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pyfloat_cases / sizeof pyfloat_cases[0]; i++)
        check_double(pyfloat_cases[i].v, pyfloat_cases[i].repr);
}

static void check_string(const char *utf8, const char *want)
{
    pt_strbuf sb;
    pt_sb_init(&sb);
    pt_pyrepr_string(&sb, utf8, strlen(utf8));
    assert_string_equal(pt_sb_cstr(&sb), want);
    pt_sb_free(&sb);
}

static void strings_pick_quotes_and_escape_like_python(void **state)
{
    (void)state;
    check_string("", "''");
    check_string("cuda:0", "'cuda:0'");
    check_string("it's", "\"it's\"");
    check_string("say \"hi\"", "'say \"hi\"'");
    check_string("it's \"q\"", "'it\\'s \"q\"'");
    check_string("back\\slash", "'back\\\\slash'");
    check_string("tab\tnl\ncr\r", "'tab\\tnl\\ncr\\r'");
    check_string("\x01\x1f\x7f", "'\\x01\\x1f\\x7f'");
    /* non-ASCII: printable characters are kept, the others escaped */
    check_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "'caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80'");
    check_string("\xc2\xa0", "'\\xa0'");                 /* U+00A0 no-break space */
    check_string("\xc2\xad", "'\\xad'");                 /* U+00AD soft hyphen */
    check_string("\xe2\x80\xa8", "'\\u2028'");           /* line separator */
    check_string("\xef\xbb\xbf", "'\\ufeff'");           /* BOM */
    check_string("\xcd\xb8", "'\\u0378'");               /* unassigned */
    check_string("\xee\x80\x80", "'\\ue000'");           /* private use */
    check_string("\xf3\xa0\x80\x81", "'\\U000e0001'");   /* language tag */
}

static void printable_table_matches_unicode_14(void **state)
{
    (void)state;
    assert_true(pt_unicode_isprintable(' '));
    assert_false(pt_unicode_isprintable('\n'));
    assert_false(pt_unicode_isprintable(0x7F));
    assert_false(pt_unicode_isprintable(0x85));
    assert_true(pt_unicode_isprintable(0xE9));
    assert_false(pt_unicode_isprintable(0x3000)); /* ideographic space (Zs) */
    assert_true(pt_unicode_isprintable(0x4E00));
    assert_true(pt_unicode_isprintable(0x1FAE0));  /* melting face, new in Unicode 14 */
    assert_false(pt_unicode_isprintable(0x1FAE8)); /* assigned only in Unicode 15 */
    assert_false(pt_unicode_isprintable(0x110000));
}

/* repr() of a whole JSON document; `want` is Python's str(json.loads(text)). */
static void check_value(const char *json, const char *want)
{
    pj_doc doc;
    pt_error err;
    pt_strbuf sb;
    assert_int_equal(pj_parse(&doc, "test", json, strlen(json), &err), 0);
    pt_sb_init(&sb);
    pt_pystr_value(&sb, &doc.root);
    assert_string_equal(pt_sb_cstr(&sb), want);
    pt_sb_free(&sb);
    pj_free(&doc);
}

static void values_render_as_python_objects(void **state)
{
    (void)state;
    check_value("[]", "[]");
    check_value("[[430, 431, 0, 53120, 4, \"cuda:0\"]]", "[[430, 431, 0, 53120, 4, 'cuda:0']]");
    check_value("[true, false, null]", "[True, False, None]");
    check_value("[1.0, 1e-5, 1E16, -0, -0.0, 100]", "[1.0, 1e-05, 1e+16, 0, -0.0, 100]");
    check_value("[18446744073709551615, -9223372036854775808]", "[18446744073709551615, -9223372036854775808]");
    check_value("[NaN, Infinity, -Infinity]", "[nan, inf, -inf]");
    check_value("{\"a\": 1, \"b\": [\"x\"]}", "{'a': 1, 'b': ['x']}");
    check_value("{}", "{}");
    check_value("{\"k\": 1, \"j\": 2, \"k\": 3}", "{'k': 3, 'j': 2}"); /* dict: first position, last value */
    check_value("[\"[{\\\"pg_name\\\": \\\"0\\\"}]\"]", "['[{\"pg_name\": \"0\"}]']");
    check_value("[\"\\u00e9\\ud83d\\ude00\\n\"]", "['\xc3\xa9\xf0\x9f\x98\x80\\n']");
    /* str() of a top-level string is the string itself; of a number, its repr */
    check_value("\"plain 'text'\"", "plain 'text'");
    check_value("12.50", "12.5");
    check_value("null", "None");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(floats_use_shortest_round_trip_repr),
    cmocka_unit_test(strings_pick_quotes_and_escape_like_python),
    cmocka_unit_test(printable_table_matches_unicode_14),
    cmocka_unit_test(values_render_as_python_objects)
)
