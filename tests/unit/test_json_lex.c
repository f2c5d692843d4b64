/*
 * Unit tests of the JSON lexical layer the trace-JSON readers share
 * (tools/common/json_lex): token boundaries, each error with the offsets a
 * reader points its message at, the three string modes' surrogate rules,
 * the number grammar with and without Python's words, and line:column.
 * Inputs are C string literals: their terminating NUL is the sentinel the
 * lexer relies on at buf[len].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "common/json_lex.h"

/* Scans the string content at the start of `text` (the opening quote is
 * not part of it). */
static enum json_lex_error scan(const char *text, enum json_lex_mode mode, json_lex_str *r)
{
    memset(r, 0xa5, sizeof *r);
    return json_lex_string(text, strlen(text), 0, mode, r);
}

/* ---- strings --------------------------------------------------------------------- */

static void test_string_window(void **state)
{
    (void)state;
    json_lex_str r;
    /* Its end ends the string even where the buffer goes on... */
    assert_int_equal(json_lex_string("ab\0c\"", 2, 0, JSON_LEX_PYTHON, &r), JSON_LEX_UNTERMINATED);
    assert_int_equal(r.at, 2);
    assert_int_equal(r.stop, 2);
    /* ...and a NUL inside it is a control byte, not the end. */
    assert_int_equal(json_lex_string("a\0b\"", 4, 0, JSON_LEX_UNITS, &r), JSON_LEX_CONTROL);
    assert_int_equal(r.at, 1);
    /* A scan may start inside it: pos is the first content byte. */
    assert_int_equal(json_lex_string("[\"ab\"]", 6, 2, JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 4);
}

/* One string scan and what it must give: the error, `at` (the end for
 * JSON_LEX_OK, where `escaped` must say whether the text has a '\'),
 * `stop`, and the refused surrogate. */
typedef struct str_case {
    const char *text;
    enum json_lex_mode mode;
    enum json_lex_error error;
    size_t at, stop;
    uint32_t unit;
} str_case;

#define U JSON_LEX_UNITS
#define B JSON_LEX_BYTES
#define P JSON_LEX_PYTHON
static const str_case str_cases[] = {
    /* plain text, valid UTF-8 passed over whole in every mode */
    {"abc\" rest", U, JSON_LEX_OK, 3, 0, 0},
    {"\"", P, JSON_LEX_OK, 0, 0, 0},
    {"\xc3\xa9\xf0\x9f\x98\x80\"x", U, JSON_LEX_OK, 6, 0, 0},
    {"\xc3\xa9\xf0\x9f\x98\x80\"x", B, JSON_LEX_OK, 6, 0, 0},
    {"\xc3\xa9\xf0\x9f\x98\x80\"x", P, JSON_LEX_OK, 6, 0, 0},
    /* an escaped quote does not end the string; an escaped backslash does
     * not escape the quote after it */
    {"a\\\"b\"", U, JSON_LEX_OK, 4, 0, 0},
    {"a\\\\\"b", B, JSON_LEX_OK, 3, 0, 0},
    {"\\/\\b\\f\\n\\r\\t\\u00e9\"", P, JSON_LEX_OK, 18, 0, 0},
    /* the window's end before the quote; raw control bytes (not 0x7f) */
    {"abc", U, JSON_LEX_UNTERMINATED, 3, 3, 0},
    {"ab\ncd\"", B, JSON_LEX_CONTROL, 2, 2, 0},
    {"\x1f\"", U, JSON_LEX_CONTROL, 0, 0, 0},
    {"\x7f\"", P, JSON_LEX_OK, 1, 0, 0},
    /* bad escapes; a '\' at the end of the window has no letter */
    {"ab\\x\"", U, JSON_LEX_BAD_ESCAPE, 2, 3, 0},
    {"\\'\"", P, JSON_LEX_BAD_ESCAPE, 0, 1, 0},
    {"ab\\", B, JSON_LEX_BAD_ESCAPE, 2, 3, 0},
    /* "\u" needs four hexadecimal digits in every mode */
    {"x\\u12G4\"", U, JSON_LEX_BAD_HEX, 1, 5, 0},
    {"x\\u12G4\"", B, JSON_LEX_BAD_HEX, 1, 5, 0},
    {"x\\u12G4\"", P, JSON_LEX_BAD_HEX, 1, 5, 0},
    {"\\u12", B, JSON_LEX_BAD_HEX, 0, 4, 0}, /* stop: the window's end */
    {"\\uABcd\"", P, JSON_LEX_OK, 6, 0, 0},
    /* UTF-8: strict where Python decodes, raw bytes for from-json */
    {"ab\xff\"", U, JSON_LEX_BAD_UTF8, 2, 2, 0},
    {"\xc0\xaf\"", P, JSON_LEX_BAD_UTF8, 0, 0, 0},         /* overlong */
    {"\xed\xa0\x80\"", P, JSON_LEX_BAD_UTF8, 0, 0, 0},     /* surrogate */
    {"a\xe2\x28\xa1\"", U, JSON_LEX_BAD_UTF8, 1, 1, 0},
    {"a\xe2\x82", U, JSON_LEX_BAD_UTF8, 1, 3, 0},          /* cut by the window */
    {"ab\xff\xc0\"", B, JSON_LEX_OK, 4, 0, 0},
    /* trace_link compares code units: any value goes */
    {"\\ud800\"", U, JSON_LEX_OK, 6, 0, 0},
    {"\\udc00x\"", U, JSON_LEX_OK, 7, 0, 0},
    {"\\u0000\"", U, JSON_LEX_OK, 6, 0, 0},
    {"\\ud800\\u12G4\"", U, JSON_LEX_BAD_HEX, 6, 10, 0},
    /* from-json: pairs, \udc80..\udcff raw bytes, other lone ones refused;
     * stop is the first byte that is not the low half */
    {"\\ud83d\\ude00\"", B, JSON_LEX_OK, 12, 0, 0},
    {"\\udc80\\udcff\"", B, JSON_LEX_OK, 12, 0, 0},
    {"\\u0000\"", B, JSON_LEX_OK, 6, 0, 0},
    {"a\\udc7f\"", B, JSON_LEX_LONE_SURROGATE, 1, 6, 0xdc7f},
    {"\\ud800x\"", B, JSON_LEX_LONE_SURROGATE, 0, 6, 0xd800},
    {"\\udbff\\n\"", B, JSON_LEX_LONE_SURROGATE, 0, 7, 0xdbff},
    {"\\ud800\\u0041\"", B, JSON_LEX_LONE_SURROGATE, 0, 11, 0xd800},
    {"\\ud800\\ud800\"", B, JSON_LEX_LONE_SURROGATE, 0, 11, 0xd800},
    {"\\ud800", B, JSON_LEX_LONE_SURROGATE, 0, 6, 0xd800},
    {"\\ud800\\u12G4\"", B, JSON_LEX_BAD_HEX, 6, 10, 0}, /* that escape's fault */
    /* Python: pairs only; "\u0000" refused; a high surrogate before a
     * malformed "\u" is the lone one, reported first */
    {"\\ud83d\\ude00\"", P, JSON_LEX_OK, 12, 0, 0},
    {"ab\\u0000\"", P, JSON_LEX_NUL_ESCAPE, 2, 7, 0},
    {"\\udc80\"", P, JSON_LEX_LONE_SURROGATE, 0, 5, 0xdc80},
    {"x\\ud800\\u0041\"", P, JSON_LEX_LONE_SURROGATE, 1, 12, 0xd800},
    {"\\ud800\\u12G4\"", P, JSON_LEX_LONE_SURROGATE, 0, 10, 0xd800},
    {"\\u0001\"", P, JSON_LEX_OK, 6, 0, 0},
};
#undef U
#undef B
#undef P

static void test_string_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof str_cases / sizeof str_cases[0]; i++) {
        const str_case *c = &str_cases[i];
        json_lex_str r;
        print_message("case %zu: %s\n", i, c->text);
        assert_int_equal(scan(c->text, c->mode, &r), c->error);
        if (c->error == JSON_LEX_OK) {
            assert_int_equal(r.end, c->at);
            assert_int_equal(r.escaped, strchr(c->text, '\\') != NULL);
            continue;
        }
        assert_int_equal(r.at, c->at);
        assert_int_equal(r.stop, c->stop);
        if (c->error == JSON_LEX_LONE_SURROGATE)
            assert_int_equal(r.unit, c->unit);
    }
}

/* ---- decoding ----------------------------------------------------------------------- */

static void test_decode(void **state)
{
    (void)state;
    static const char src[] = "a\\n\\u00e9\\ud83d\\ude00\\udcff\\/\\\\\\\"z";
    char out[64];
    size_t n = json_lex_decode(src, sizeof src - 1, out, JSON_LEX_BYTES);
    assert_int_equal(n, 13);
    assert_memory_equal(out, "a\n\xc3\xa9\xf0\x9f\x98\x80\xff/\\\"z", 13);
    /* Without the raw-byte rule a low surrogate is a character (never
     * reached through json_lex_string in Python's mode, which refuses it). */
    n = json_lex_decode("\\udcff", 6, out, JSON_LEX_UNITS);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "\xed\xb3\xbf", 3);
    /* In place, as the PyTorch reader decodes. */
    char text[] = "x\\u0041\\t\\ud83d\\ude00y";
    n = json_lex_decode(text, strlen(text), text, JSON_LEX_PYTHON);
    assert_int_equal(n, 8);
    assert_memory_equal(text, "xA\t\xf0\x9f\x98\x80y", 8);
    /* No escape: a copy. */
    n = json_lex_decode("plain", 5, out, JSON_LEX_PYTHON);
    assert_int_equal(n, 5);
    assert_memory_equal(out, "plain", 5);
    assert_int_equal(json_lex_decode("", 0, out, JSON_LEX_BYTES), 0);
}

static void test_unit(void **state)
{
    (void)state;
    static const char s[] = "a\\u00E9\\n\\ud83d\xc3\xa9";
    size_t p = 0;
    assert_int_equal(json_lex_unit(s, &p), 'a');
    assert_int_equal(p, 1);
    assert_int_equal(json_lex_unit(s, &p), 0xe9);
    assert_int_equal(p, 7);
    assert_int_equal(json_lex_unit(s, &p), '\n');
    assert_int_equal(json_lex_unit(s, &p), 0xd83d);
    assert_int_equal(json_lex_unit(s, &p), 0xc3); /* raw bytes one by one */
    assert_int_equal(json_lex_unit(s, &p), 0xa9);
    assert_int_equal(p, sizeof s - 1);
}

/* One number scan: the error, `end` (where a digit was due for an
 * error), and for a literal its integer part, kind and word. */
typedef struct num_case {
    const char *text;
    bool python;
    enum json_lex_error error;
    size_t end, int_end;
    bool integer;
    enum json_lex_special special;
} num_case;

#define OK JSON_LEX_OK
#define FIN JSON_LEX_FINITE
static const num_case num_cases[] = {
    {"0", false, OK, 1, 1, true, FIN},
    {"-120,", false, OK, 4, 4, true, FIN},
    {"-12.50e+07]", true, OK, 10, 3, false, FIN},
    {"3E5", false, OK, 3, 1, false, FIN},
    {"0.5", false, OK, 3, 1, false, FIN},
    /* the longest literal, not a judgement of what follows */
    {"01", false, OK, 1, 1, true, FIN},
    {"-0.0.1", false, OK, 4, 2, false, FIN},
    {"1e5e", false, OK, 3, 1, false, FIN},
    /* a digit due and missing */
    {"-", false, JSON_LEX_NO_DIGIT, 1, 0, false, FIN},
    {"-x", true, JSON_LEX_NO_DIGIT, 1, 0, false, FIN},
    {"x", false, JSON_LEX_NO_DIGIT, 0, 0, false, FIN},
    {"+1", false, JSON_LEX_NO_DIGIT, 0, 0, false, FIN},
    {"1.", false, JSON_LEX_NO_FRACTION_DIGIT, 2, 0, false, FIN},
    {"1.e5", false, JSON_LEX_NO_FRACTION_DIGIT, 2, 0, false, FIN},
    {"1e", false, JSON_LEX_NO_EXPONENT_DIGIT, 2, 0, false, FIN},
    {"12E+", false, JSON_LEX_NO_EXPONENT_DIGIT, 4, 0, false, FIN},
    {"1e-x", false, JSON_LEX_NO_EXPONENT_DIGIT, 3, 0, false, FIN},
    /* Python's words; strict JSON has none, and a cut word is none */
    {"NaN,", true, OK, 3, 3, false, JSON_LEX_NAN},
    {"Infinity", true, OK, 8, 8, false, JSON_LEX_INFINITY},
    {"-Infinity]", true, OK, 9, 9, false, JSON_LEX_NEG_INFINITY},
    {"NaN", false, JSON_LEX_NO_DIGIT, 0, 0, false, FIN},
    {"-Infinity", false, JSON_LEX_NO_DIGIT, 1, 0, false, FIN},
    {"-Inf", true, JSON_LEX_NO_DIGIT, 1, 0, false, FIN},
    {"Na", true, JSON_LEX_NO_DIGIT, 0, 0, false, FIN},
};
#undef FIN
#undef OK

static void test_number_cases(void **state)
{
    (void)state;
    const num_case *end = num_cases + sizeof num_cases / sizeof num_cases[0];
    for (const num_case *c = num_cases; c < end; c++) {
        json_lex_num n;
        memset(&n, 0xa5, sizeof n); /* nothing left from the case before */
        print_message("%s\n", c->text);
        assert_int_equal(json_lex_number(c->text, strlen(c->text), 0, c->python, &n), c->error);
        if (c->error != JSON_LEX_OK) {
            assert_int_equal(n.at, c->end);
            continue;
        }
        assert_int_equal(n.end, c->end);
        assert_int_equal(n.int_end, c->int_end);
        assert_int_equal(n.integer, c->integer);
        assert_int_equal(n.special, c->special);
    }
}

/* ---- words, white space, positions ------------------------------------------------------ */

static void test_word(void **state)
{
    (void)state;
    assert_int_equal(json_lex_word("true,", 5, 0, "true"), 4);
    assert_int_equal(json_lex_word("trux", 4, 0, "true"), 3);
    assert_int_equal(json_lex_word("[null", 5, 1, "null"), 4);
    assert_int_equal(json_lex_word("nul", 3, 0, "null"), 3);
    assert_int_equal(json_lex_word("nullx", 2, 0, "null"), 2); /* the window ends it */
    assert_int_equal(json_lex_word("x", 1, 0, "false"), 0);
}

static void test_skip_ws(void **state)
{
    (void)state;
    assert_int_equal(json_lex_skip_ws(" \t\r\nx", 5, 0), 4);
    assert_int_equal(json_lex_skip_ws("x  ", 3, 1), 3);
    assert_int_equal(json_lex_skip_ws("x", 1, 0), 0);
    /* Form feed and vertical tab are not JSON white space. */
    assert_int_equal(json_lex_skip_ws("\f", 1, 0), 0);
    assert_int_equal(json_lex_skip_ws("\v", 1, 0), 0);
    assert_int_equal(json_lex_skip_ws("  x", 1, 0), 1);
}

static void test_line_col(void **state)
{
    (void)state;
    static const char t[] = "ab\ncd\n\n\xc3\xa9x";
    size_t len = sizeof t - 1, line, col;
    json_lex_line_col(t, len, 0, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    json_lex_line_col(t, len, 2, &line, &col); /* the newline is on its line */
    assert_int_equal(line, 1);
    assert_int_equal(col, 3);
    json_lex_line_col(t, len, 3, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 1);
    json_lex_line_col(t, len, 6, &line, &col);
    assert_int_equal(line, 3);
    assert_int_equal(col, 1);
    json_lex_line_col(t, len, 9, &line, &col); /* columns count bytes */
    assert_int_equal(line, 4);
    assert_int_equal(col, 3);
    json_lex_line_col(t, len, 100, &line, &col); /* clamped to the end */
    assert_int_equal(line, 4);
    assert_int_equal(col, 4);
    /* Step by step, as a streaming reader keeps it. */
    line = 3, col = 5;
    json_lex_advance("xy", 2, &line, &col);
    assert_int_equal(line, 3);
    assert_int_equal(col, 7);
    json_lex_advance("x\n\nyz", 5, &line, &col);
    assert_int_equal(line, 5);
    assert_int_equal(col, 3);
    json_lex_advance("", 0, &line, &col);
    assert_int_equal(col, 3);
}

UNIT_TEST_MAIN(cmocka_unit_test(test_string_window),
               cmocka_unit_test(test_string_cases), cmocka_unit_test(test_decode), cmocka_unit_test(test_unit),
               cmocka_unit_test(test_number_cases), cmocka_unit_test(test_word),
               cmocka_unit_test(test_skip_ws), cmocka_unit_test(test_line_col))
