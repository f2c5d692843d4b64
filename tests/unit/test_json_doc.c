/*
 * Unit tests of the strict JSON reader (util/json_doc, util/json_check)
 * and of the one decoder of string escapes (util/json_escape): what json-c
 * alone lets through is refused with one positioned line (issue 29), a key
 * given twice is found wherever it hides and keys of different objects are
 * not confused, and "\uXXXX" and surrogate pairs decode to the characters
 * they stand for.
 */
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

#include "util/json_check.h"
#include "util/json_doc.h"
#include "util/json_escape.h"

/* ---- json_escape ------------------------------------------------------------- */

static void hex_digits_decode(void **state)
{
    (void)state;
    assert_int_equal(json_hex4("0041"), 0x41);
    assert_int_equal(json_hex4("fFfF"), 0xFFFF);
    assert_int_equal(json_hex4("12g4"), -1);
    assert_int_equal(json_simple_escape('n'), '\n');
    assert_int_equal(json_simple_escape('/'), '/');
    assert_int_equal(json_simple_escape('u'), -1);
    assert_int_equal(json_simple_escape('q'), -1);
}

/* The bytes taken and the code point of the escape at the start of p. */
static void expect_escape(const char *p, size_t taken, uint32_t cp)
{
    uint32_t got = 0;
    assert_int_equal(json_escape_decode(p, strlen(p), &got), taken);
    if (taken)
        assert_int_equal(got, cp);
}

static void escapes_decode(void **state)
{
    (void)state;
    expect_escape("\\t", 2, '\t');
    expect_escape("\\u00e9", 6, 0xE9);
    /* A pair is one character; a lone half is left to the caller. */
    expect_escape("\\ud83d\\ude00", 12, 0x1F600);
    expect_escape("\\ud83d", 6, 0xD83D);
    expect_escape("\\ud83dx\\ude00", 6, 0xD83D);
    expect_escape("\\ud83d\\u0041", 6, 0xD83D);
    expect_escape("\\udc80", 6, 0xDC80);
    expect_escape("\\u12", 0, 0);
    expect_escape("\\q", 0, 0);
    expect_escape("\\", 0, 0);
    assert_int_equal(json_surrogate_pair(0xDBFF, 0xDFFF), 0x10FFFF);
}

/* ---- json_check: repeated keys ------------------------------------------------- */

/* The offset of the repetition in text, or -1 when none is found. */
static void expect_dup(const char *text, long offset, const char *reason)
{
    json_check_result r;
    int found = json_check(text, strlen(text), &r);
    assert_int_equal(found, offset >= 0);
    if (found) {
        assert_int_equal(r.offset, offset);
        assert_string_equal(r.reason, reason);
    }
}

static void distinct_keys_pass(void **state)
{
    (void)state;
    expect_dup("{}", -1, NULL);
    expect_dup("{\"a\": 1, \"b\": \"a\", \"ab\": [\"a\", \"a\"]}", -1, NULL);
    /* The same key in sibling and nested objects is not a repetition. */
    expect_dup("[{\"a\": 1}, {\"a\": 2}, {\"a\": {\"a\": {\"a\": 3}}}]", -1, NULL);
    /* A string value equal to a key is a value. */
    expect_dup("{\"a\": \"a\", \"b\": {\"c\": \"a\"}}", -1, NULL);
    expect_dup("{\"\\u00e9\": 1, \"\xc3\xa8\": 2}", -1, NULL);
}

static void repeated_keys_found(void **state)
{
    (void)state;
    expect_dup("{\"a\": 1, \"a\": 2}", 9, "duplicate key 'a' (first given at line 1, column 2)");
    /* The repetition that comes first in the file, of three. */
    expect_dup("{\"b\": 1, \"a\": 2, \"a\": 3, \"b\": 4}", 17, "duplicate key 'a' (first given at line 1, column 10)");
    /* Escapes stand for their characters. */
    expect_dup("{\"a\": 1, \"\\u0061\": 2}", 9, "duplicate key 'a' (first given at line 1, column 2)");
    expect_dup("{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}", 20,
               "duplicate key '\xf0\x9f\x98\x80' (first given at line 1, column 2)");
    expect_dup("{\"x\\\"y\": 1, \"x\\u0022y\": 2}", 12, "duplicate key 'x\"y' (first given at line 1, column 2)");
    expect_dup("[1, {\"k\": [{}],\n \"k\": 0}]", 17, "duplicate key 'k' (first given at line 1, column 6)");
}

/* ---- json_doc_parse ------------------------------------------------------------- */

/* Parses text as m.json with flags; want NULL: accepted, else the message. */
static void expect_doc(const char *text, unsigned flags, const char *want)
{
    json_object *root = NULL;
    char msg[512];
    int rc = json_doc_parse("m.json", text, strlen(text), flags, &root, msg, sizeof msg);
    if (!want) {
        assert_int_equal(rc, 0);
        assert_non_null(root);
        json_object_put(root);
        return;
    }
    assert_int_equal(rc, -1);
    assert_null(root);
    assert_string_equal(msg, want);
}

static void documents_accepted(void **state)
{
    (void)state;
    expect_doc("{\"ranks\": 2, \"Ranks\": 3}", JSON_DOC_OBJECT, NULL);
    expect_doc("\xEF\xBB\xBF [1, -0, 2.5e-3, true, null, \"\\ud83d\\ude00\"]\n", 0, NULL);
    expect_doc("{\"max\": 18446744073709551615, \"min\": -9223372036854775808}", 0, NULL);
}

/* One refused document: the text, the flags and the whole message. */
typedef struct {
    const char *text;
    unsigned flags;
    const char *want;
} refusal;

/* What json-c in its strict mode lets through, and its syntax errors. */
static void documents_refused(void **state)
{
    (void)state;
    static const refusal cases[] = {
        {"{\"ranks\": 2,\n  \"steps\": [], \"ranks\": 3}", 0,
         "m.json: line 2, column 16: duplicate key 'ranks' (first given at line 1, column 2)"},
        {"{\"a\": NaN}", 0, "m.json: line 1, column 7: key 'a': NaN is not a finite number"},
        {"{\"a\": [1, -Infinity]}", 0, "m.json: line 1, column 11: key 'a'[1]: -Infinity is not a finite number"},
        {"{\"a\": 18446744073709551616}", 0,
         "m.json: line 1, column 7: key 'a': 18446744073709551616 is out of range for a 64-bit integer"},
        {"{\"a\": 1e-400}", 0, "m.json: line 1, column 7: key 'a': 1e-400 is out of range for a double"},
        {"{\"a\": 1.}", 0, "m.json: line 1, column 7: key 'a': invalid number '1.'"},
        {"{'a': 1}", 0, "m.json: line 1, column 2: a string in single quotes (JSON strings use double quotes)"},
        {"{\"a\": \"x\ty\"}", 0, "m.json: line 1, column 9: control character \\t inside a string (write it as an escape)"},
        {"{\"a\": \"\\u0000\"}", 0, "m.json: line 1, column 8: '\\u0000' (a NUL character) is not allowed in a string"},
        {"[1] x", 0, "m.json: line 1, column 5: unexpected text after the end of the JSON document: 'x'"},
        /* json-c's syntax errors, said with what was expected and where. */
        {"", 0, "m.json: line 1, column 1: expected a value, got the end of the file"},
        {"  [2]", JSON_DOC_OBJECT, "m.json: line 1, column 3: expected a JSON object ('{'), got '['"},
        {"{\"a\": 1,\n \"b\" 2}", 0, "m.json: line 2, column 6: expected ':' after key 'b', got '2'"},
        {"{\"a\": {\"b\": 1 ]}", 0, "m.json: line 1, column 15: expected ',' or '}' after the value of key 'b', got ']'"},
        {"{\"a\": [1 2]}", 0, "m.json: line 1, column 10: expected ',' or ']' after an element of a list, got '2'"},
        {"{\"a\": [1, nul]}", 0, "m.json: line 1, column 11: key 'a'[1]: expected a value, got 'nul'"},
        {"{\"a\": -}", 0, "m.json: line 1, column 7: key 'a': invalid number '-'"},
        {"{a: 1}", 0, "m.json: line 1, column 2: expected a key in double quotes, got 'a'"},
        {"{\"a\": \"\\x\"}", 0, "m.json: line 1, column 8: invalid escape '\\x' in a string"},
        {"{\"a\": \"\\u12\"}", 0, "m.json: line 1, column 8: '\\u' must be followed by four hexadecimal digits"},
        {"{\"a\": \"xy", 0, "m.json: line 1, column 7: unterminated string (no closing '\"')"},
        {"{\"a\": [", 0, "m.json: line 1, column 8: key 'a'[0]: expected a value, got the end of the file"},
        /* An earlier problem is reported before json-c's error. */
        {"{\"a\": NaN, \"b\" 1}", 0, "m.json: line 1, column 7: key 'a': NaN is not a finite number"},
        {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 0, "m.json: line 1, column 33: nested deeper than 32 levels"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_doc(cases[i].text, cases[i].flags, cases[i].want);
}

/* ---- json_doc_load ------------------------------------------------------------ */

/* A document of `bytes` bytes in a file: {"a": "xxx...x"}. */
static void write_doc(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("{\"a\": \"", f);
    for (size_t i = 0; i < bytes - 9; i++)
        fputc('x', f);
    fputs("\"}", f);
    assert_int_equal(ftell(f), (long)bytes);
    fclose(f);
}

/* The file is read whole across the reader's growing buffer (64 KiB,
 * then doubled), and one byte over the limit is refused with the
 * caller's words. */
static void files_loaded(void **state)
{
    (void)state;
    char path[64], msg[256];
    snprintf(path, sizeof path, "/tmp/vimana-test-json-doc-%d.json", (int)getpid());
    json_object *root = NULL;
    write_doc(path, 300000);
    assert_int_equal(json_doc_load(path, "big.json", 300000, "300000 B", JSON_DOC_OBJECT, &root, msg, sizeof msg), 0);
    json_object *a = NULL;
    assert_true(json_object_object_get_ex(root, "a", &a));
    assert_int_equal(json_object_get_string_len(a), 300000 - 9);
    json_object_put(root);
    assert_int_equal(json_doc_load(path, "big.json", 299999, "299999 B", 0, &root, msg, sizeof msg), -1);
    assert_string_equal(msg, "big.json: larger than 299999 B");
    assert_null(root);
    write_doc(path, 65536);
    assert_int_equal(json_doc_load(path, "edge.json", 65536, "64 KiB", 0, &root, msg, sizeof msg), 0);
    json_object_put(root);
    unlink(path);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(hex_digits_decode),
    cmocka_unit_test(escapes_decode),
    cmocka_unit_test(distinct_keys_pass),
    cmocka_unit_test(repeated_keys_found),
    cmocka_unit_test(documents_accepted),
    cmocka_unit_test(documents_refused),
    cmocka_unit_test(files_loaded)
)
