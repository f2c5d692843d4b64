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

/* ---- strings: boundaries ---------------------------------------------------- */

static void test_string_plain(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("abc\" rest", JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 3);
    assert_false(r.escaped);
    assert_int_equal(scan("\"", JSON_LEX_PYTHON, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 0);
    /* Valid UTF-8 is passed over whole, in every mode. */
    for (int m = JSON_LEX_UNITS; m <= JSON_LEX_PYTHON; m++) {
        assert_int_equal(scan("\xc3\xa9\xf0\x9f\x98\x80\"x", (enum json_lex_mode)m, &r), JSON_LEX_OK);
        assert_int_equal(r.end, 6);
        assert_false(r.escaped);
    }
    /* A scan may start inside a window: pos is the first content byte. */
    assert_int_equal(json_lex_string("[\"ab\"]", 6, 2, JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 4);
}

static void test_string_escapes(void **state)
{
    (void)state;
    json_lex_str r;
    /* An escaped quote does not end the string; an escaped backslash does
     * not escape the quote after it. */
    assert_int_equal(scan("a\\\"b\"", JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 4);
    assert_true(r.escaped);
    assert_int_equal(scan("a\\\\\"b", JSON_LEX_BYTES, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 3);
    assert_int_equal(scan("\\/\\b\\f\\n\\r\\t\\u00e9\"", JSON_LEX_PYTHON, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 18);
    assert_true(r.escaped);
}

/* ---- strings: errors ---------------------------------------------------------- */

static void test_string_unterminated(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("abc", JSON_LEX_UNITS, &r), JSON_LEX_UNTERMINATED);
    assert_int_equal(r.at, 3);
    assert_int_equal(r.stop, 3);
    /* The window ends it even where the buffer goes on. */
    assert_int_equal(json_lex_string("ab\0c\"", 2, 0, JSON_LEX_PYTHON, &r), JSON_LEX_UNTERMINATED);
    assert_int_equal(r.stop, 2);
}

static void test_string_control(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("ab\ncd\"", JSON_LEX_BYTES, &r), JSON_LEX_CONTROL);
    assert_int_equal(r.at, 2);
    assert_int_equal(r.stop, 2);
    assert_int_equal(scan("\x1f\"", JSON_LEX_UNITS, &r), JSON_LEX_CONTROL);
    assert_int_equal(r.at, 0);
    /* A NUL inside the window is a control byte, not the end. */
    assert_int_equal(json_lex_string("a\0b\"", 4, 0, JSON_LEX_UNITS, &r), JSON_LEX_CONTROL);
    assert_int_equal(r.at, 1);
    /* 0x7f is no control character in JSON. */
    assert_int_equal(scan("\x7f\"", JSON_LEX_PYTHON, &r), JSON_LEX_OK);
}

static void test_string_bad_escape(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("ab\\x\"", JSON_LEX_UNITS, &r), JSON_LEX_BAD_ESCAPE);
    assert_int_equal(r.at, 2);
    assert_int_equal(r.stop, 3);
    assert_int_equal(scan("\\'\"", JSON_LEX_PYTHON, &r), JSON_LEX_BAD_ESCAPE);
    /* A '\' at the end of the window: the letter is missing. */
    assert_int_equal(scan("ab\\", JSON_LEX_BYTES, &r), JSON_LEX_BAD_ESCAPE);
    assert_int_equal(r.at, 2);
    assert_int_equal(r.stop, 3);
}

static void test_string_bad_hex(void **state)
{
    (void)state;
    json_lex_str r;
    for (int m = JSON_LEX_UNITS; m <= JSON_LEX_PYTHON; m++) {
        assert_int_equal(scan("x\\u12G4\"", (enum json_lex_mode)m, &r), JSON_LEX_BAD_HEX);
        assert_int_equal(r.at, 1);
        assert_int_equal(r.stop, 5);
        assert_int_equal(scan("\\u12", (enum json_lex_mode)m, &r), JSON_LEX_BAD_HEX);
        assert_int_equal(r.at, 0);
        assert_int_equal(r.stop, 4); /* the window's end */
        assert_int_equal(scan("\\uABcd\"", (enum json_lex_mode)m, &r), JSON_LEX_OK);
        assert_int_equal(r.end, 6);
    }
}

static void test_string_bad_utf8(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("ab\xff\"", JSON_LEX_UNITS, &r), JSON_LEX_BAD_UTF8);
    assert_int_equal(r.at, 2);
    assert_int_equal(r.stop, 2);
    assert_int_equal(scan("\xc0\xaf\"", JSON_LEX_PYTHON, &r), JSON_LEX_BAD_UTF8); /* overlong */
    assert_int_equal(scan("\xed\xa0\x80\"", JSON_LEX_PYTHON, &r), JSON_LEX_BAD_UTF8); /* surrogate */
    assert_int_equal(scan("a\xe2\x28\xa1\"", JSON_LEX_UNITS, &r), JSON_LEX_BAD_UTF8);
    assert_int_equal(r.at, 1);
    assert_int_equal(r.stop, 1);
    /* Cut by the window's end: the rest may still come. */
    assert_int_equal(scan("a\xe2\x82", JSON_LEX_UNITS, &r), JSON_LEX_BAD_UTF8);
    assert_int_equal(r.at, 1);
    assert_int_equal(r.stop, 3);
    /* from-json takes raw bytes as they are. */
    assert_int_equal(scan("ab\xff\xc0\"", JSON_LEX_BYTES, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 4);
}

/* ---- strings: surrogates by mode ------------------------------------------------ */

static void test_surrogates_units(void **state)
{
    (void)state;
    json_lex_str r;
    /* trace_link compares code units: any value goes. */
    assert_int_equal(scan("\\ud800\"", JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(scan("\\udc00x\"", JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(scan("\\u0000\"", JSON_LEX_UNITS, &r), JSON_LEX_OK);
    assert_int_equal(scan("\\ud800\\u12G4\"", JSON_LEX_UNITS, &r), JSON_LEX_BAD_HEX);
    assert_int_equal(r.at, 6);
}

static void test_surrogates_bytes(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("\\ud83d\\ude00\"", JSON_LEX_BYTES, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 12);
    assert_int_equal(scan("\\udc80\\udcff\"", JSON_LEX_BYTES, &r), JSON_LEX_OK);
    assert_int_equal(scan("\\u0000\"", JSON_LEX_BYTES, &r), JSON_LEX_OK);
    /* A lone low surrogate outside dc80..dcff: decided at its last digit. */
    assert_int_equal(scan("a\\udc7f\"", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.at, 1);
    assert_int_equal(r.stop, 6);
    assert_int_equal(r.unit, 0xdc7f);
    assert_int_equal(scan("\\ud00\\udd00\"", JSON_LEX_BYTES, &r), JSON_LEX_BAD_HEX);
    /* A high surrogate: stop is the first byte that is not its low half. */
    assert_int_equal(scan("\\ud800x\"", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.at, 0);
    assert_int_equal(r.stop, 6);
    assert_int_equal(r.unit, 0xd800);
    assert_int_equal(scan("\\udbff\\n\"", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.stop, 7);
    assert_int_equal(r.unit, 0xdbff);
    assert_int_equal(scan("\\ud800\\u0041\"", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.stop, 11);
    assert_int_equal(scan("\\ud800\\ud800\"", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.stop, 11);
    assert_int_equal(scan("\\ud800", JSON_LEX_BYTES, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.stop, 6); /* the window's end */
    /* "\u" with bad digits after a high surrogate is that escape's fault. */
    assert_int_equal(scan("\\ud800\\u12G4\"", JSON_LEX_BYTES, &r), JSON_LEX_BAD_HEX);
    assert_int_equal(r.at, 6);
    assert_int_equal(r.stop, 10);
}

static void test_surrogates_python(void **state)
{
    (void)state;
    json_lex_str r;
    assert_int_equal(scan("\\ud83d\\ude00\"", JSON_LEX_PYTHON, &r), JSON_LEX_OK);
    assert_int_equal(r.end, 12);
    assert_int_equal(scan("ab\\u0000\"", JSON_LEX_PYTHON, &r), JSON_LEX_NUL_ESCAPE);
    assert_int_equal(r.at, 2);
    assert_int_equal(scan("\\udc80\"", JSON_LEX_PYTHON, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.at, 0);
    assert_int_equal(r.unit, 0xdc80);
    assert_int_equal(scan("x\\ud800\\u0041\"", JSON_LEX_PYTHON, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.at, 1);
    assert_int_equal(r.unit, 0xd800);
    /* Python pairs only a well-formed low escape: else the high one is
     * alone, and reported first. */
    assert_int_equal(scan("\\ud800\\u12G4\"", JSON_LEX_PYTHON, &r), JSON_LEX_LONE_SURROGATE);
    assert_int_equal(r.at, 0);
    assert_int_equal(scan("\\u0001\"", JSON_LEX_PYTHON, &r), JSON_LEX_OK);
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

/* ---- numbers ------------------------------------------------------------------------- */

static enum json_lex_error number(const char *text, bool python, json_lex_num *n)
{
    memset(n, 0xa5, sizeof *n);
    return json_lex_number(text, strlen(text), 0, python, n);
}

static void test_number_valid(void **state)
{
    (void)state;
    json_lex_num n;
    assert_int_equal(number("0", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 1);
    assert_true(n.integer);
    assert_int_equal(n.special, JSON_LEX_FINITE);
    assert_int_equal(number("-120,", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 4);
    assert_int_equal(n.int_end, 4);
    assert_true(n.integer);
    assert_int_equal(number("-12.50e+07]", true, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 10);
    assert_int_equal(n.int_end, 3);
    assert_false(n.integer);
    assert_int_equal(number("3E5", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 3);
    assert_false(n.integer);
    assert_int_equal(number("0.5", false, &n), JSON_LEX_OK);
    assert_int_equal(n.int_end, 1);
    assert_false(n.integer);
    /* The longest literal, not a judgement of what follows. */
    assert_int_equal(number("01", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 1);
    assert_int_equal(number("-0.0.1", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 4);
    assert_int_equal(number("1e5e", false, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 3);
}

static void test_number_errors(void **state)
{
    (void)state;
    json_lex_num n;
    assert_int_equal(number("-", false, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 1);
    assert_int_equal(number("-x", true, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 1);
    assert_int_equal(number("x", false, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 0);
    assert_int_equal(number("+1", false, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(number("1.", false, &n), JSON_LEX_NO_FRACTION_DIGIT);
    assert_int_equal(n.at, 2);
    assert_int_equal(number("1.e5", false, &n), JSON_LEX_NO_FRACTION_DIGIT);
    assert_int_equal(n.at, 2);
    assert_int_equal(number("1e", false, &n), JSON_LEX_NO_EXPONENT_DIGIT);
    assert_int_equal(n.at, 2);
    assert_int_equal(number("12E+", false, &n), JSON_LEX_NO_EXPONENT_DIGIT);
    assert_int_equal(n.at, 4);
    assert_int_equal(number("1e-x", false, &n), JSON_LEX_NO_EXPONENT_DIGIT);
    assert_int_equal(n.at, 3);
}

static void test_number_python_words(void **state)
{
    (void)state;
    json_lex_num n;
    assert_int_equal(number("NaN,", true, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 3);
    assert_int_equal(n.special, JSON_LEX_NAN);
    assert_false(n.integer);
    assert_int_equal(number("Infinity", true, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 8);
    assert_int_equal(n.special, JSON_LEX_INFINITY);
    assert_int_equal(number("-Infinity]", true, &n), JSON_LEX_OK);
    assert_int_equal(n.end, 9);
    assert_int_equal(n.special, JSON_LEX_NEG_INFINITY);
    /* Strict JSON has no such words; a cut word is none either. */
    assert_int_equal(number("NaN", false, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 0);
    assert_int_equal(number("-Infinity", false, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 1);
    assert_int_equal(number("-Inf", true, &n), JSON_LEX_NO_DIGIT);
    assert_int_equal(n.at, 1);
    assert_int_equal(number("Na", true, &n), JSON_LEX_NO_DIGIT);
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

UNIT_TEST_MAIN(cmocka_unit_test(test_string_plain), cmocka_unit_test(test_string_escapes),
               cmocka_unit_test(test_string_unterminated), cmocka_unit_test(test_string_control),
               cmocka_unit_test(test_string_bad_escape), cmocka_unit_test(test_string_bad_hex),
               cmocka_unit_test(test_string_bad_utf8), cmocka_unit_test(test_surrogates_units),
               cmocka_unit_test(test_surrogates_bytes), cmocka_unit_test(test_surrogates_python),
               cmocka_unit_test(test_decode), cmocka_unit_test(test_unit),
               cmocka_unit_test(test_number_valid), cmocka_unit_test(test_number_errors),
               cmocka_unit_test(test_number_python_words), cmocka_unit_test(test_word),
               cmocka_unit_test(test_skip_ws), cmocka_unit_test(test_line_col))
