/*
 * Unit tests of the utilities the vimana-et commands share (tools/common):
 * strict UTF-8 decoding, Python-style JSON string literals with each way
 * of reading the input, the id -> index hash map, the table of a
 * command's text options (cli_text_options), options that take one of a
 * few words (cli_word_option), the error for an argument a command does
 * not take (cli_unexpected), the growable list of owned strings
 * (str_list_append), synth's list of distribution values
 * (dist_values_push) and its test of a numeric group name
 * (pg_name_is_number). Expected strings
 * are what CPython 3.11's json.dumps() writes.
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

#include "common/cli.h"
#include "common/idmap.h"
#include "common/pyjson_string.h"
#include "common/str_list.h"
#include "synth/dist.h"
#include "synth/pg_payload.h"
#include "util/utf8.h"

/* ---- utf8 ---------------------------------------------------------------- */

static void test_utf8_valid(void **state)
{
    (void)state;
    assert_true(utf8_valid("plain", 5));
    assert_true(utf8_valid("\xc3\xa9\xf0\x9f\x98\x80", 6));
    assert_true(utf8_valid("\xf4\x8f\xbf\xbf", 4));         /* U+10FFFF */
    assert_false(utf8_valid("\xff", 1));
    assert_false(utf8_valid("\xc3", 1));                    /* cut short */
    assert_false(utf8_valid("\xc0\xaf", 2));                /* overlong */
    assert_false(utf8_valid("\xe0\x80\xaf", 3));            /* overlong */
    assert_false(utf8_valid("\xed\xa0\x80", 3));            /* surrogate */
    assert_false(utf8_valid("\xf4\x90\x80\x80", 4));        /* above U+10FFFF */
    assert_false(utf8_valid("\xf5\x80\x80\x80", 4));        /* above U+10FFFF */
    assert_false(utf8_valid("\xe2\x28\xa1", 3));            /* bad continuation */
}

static void test_utf8_decode(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(utf8_decode((const unsigned char *)"A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(utf8_decode((const unsigned char *)"\xc3\xa9x", 3, &cp), 2);
    assert_int_equal(cp, 0xe9);
    assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
    assert_int_equal(cp, 0x20ac);
    assert_int_equal(utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1f600);
    /* Only `avail` bytes count, whatever follows them. */
    assert_int_equal(utf8_decode((const unsigned char *)"\xe2\x82\xac", 2, &cp), 0);
}

/* ---- pyjson_string --------------------------------------------------------- */

/* What pyjson_write_string writes for `text` (len bytes), through a
 * stdio stream, so pyjson_write_to_file is covered too. */
static char *json_string(const char *text, size_t len, unsigned flags)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    pyjson_write_string(pyjson_write_to_file, f, text, len, flags);
    fclose(f);
    return buf;
}

static void assert_json_string(const char *text, size_t len, unsigned flags, const char *want)
{
    char *got = json_string(text, len, flags);
    assert_string_equal(got, want);
    free(got);
}

#define assert_text(text, flags, want) assert_json_string((text), strlen(text), (flags), (want))

static void test_json_string(void **state)
{
    (void)state;
    assert_text("", 0, "\"\"");
    assert_text("COMP_NODE_x", 0, "\"COMP_NODE_x\"");
    assert_text("a\"b\\c/d", 0, "\"a\\\"b\\\\c/d\"");
    assert_text("\n\r\t\b\f", 0, "\"\\n\\r\\t\\b\\f\"");
    assert_text("\x01\x1f\x7f", 0, "\"\\u0001\\u001f\\u007f\"");
    assert_json_string("\0x", 2, 0, "\"\\u0000x\"");
    assert_text("a\"b\\c\n\t\x01\x7f/<>", 0, "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f/<>\"");
    /* é, €, U+1F600 as Python's ensure_ascii writes them */
    assert_text("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 0, "\"\\u00e9\\u20ac\\ud83d\\ude00\"");
    assert_text("caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80", 0, "\"caf\\u00e9 \\u20ac\\ud83d\\ude00\"");
}

/* Longer than the writer's buffer, in plain runs and escapes. */
static void test_json_string_long(void **state)
{
    (void)state;
    char text[2000], want[4000];
    size_t n = 0, w = 0;
    want[w++] = '"';
    for (int i = 0; i < 600; i++) {
        char c = (char)(i % 7 == 0 ? '\n' : 'a' + i % 26);
        text[n++] = c;
        if (c == '\n') {
            want[w++] = '\\';
            want[w++] = 'n';
        } else {
            want[w++] = c;
        }
    }
    memcpy(want + w, "\"", 2);
    assert_json_string(text, n, 0, want);
}

/* Bytes that are not UTF-8: each one \ufffd by default, \udcXX with
 * surrogateescape (a stray continuation byte, a truncated sequence, an
 * encoded surrogate, an overlong slash). */
static void test_json_string_invalid_utf8(void **state)
{
    (void)state;
    assert_text("a\xff", 0, "\"a\\ufffd\"");
    assert_text("a\xe2\x82", 0, "\"a\\ufffd\\ufffd\"");
    assert_text("\x80", PYJSON_SURROGATEESCAPE, "\"\\udc80\"");
    assert_text("a\xe2\x82", PYJSON_SURROGATEESCAPE, "\"a\\udce2\\udc82\"");
    assert_text("\xed\xa0\x80", PYJSON_SURROGATEESCAPE, "\"\\udced\\udca0\\udc80\"");
    assert_text("\xc0\xaf", PYJSON_SURROGATEESCAPE, "\"\\udcc0\\udcaf\"");
    assert_text("\b\f\r", PYJSON_SURROGATEESCAPE, "\"\\b\\f\\r\"");
}

/* Raw string content of a JSON document: escapes are decoded, "\/"
 * becomes "/", \u escapes keep their unit (a lone surrogate included). */
static void test_json_string_escaped_input(void **state)
{
    (void)state;
    assert_text("plain", PYJSON_ESCAPED_INPUT, "\"plain\"");
    assert_text("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", PYJSON_ESCAPED_INPUT,
                "\"caf\\u00e9 \\u2192 \\ud83d\\ude00\"");
    assert_text("a\\/b \\u00E9 \\uD83D\\uDE00 \\ud800", PYJSON_ESCAPED_INPUT,
                "\"a/b \\u00e9 \\ud83d\\ude00 \\ud800\"");
    assert_text("q\\\" s\\\\ \\b\\f\\n\\r\\t \\u0001 \x7f \\u0041 \\u0022\\u005C", PYJSON_ESCAPED_INPUT,
                "\"q\\\" s\\\\ \\b\\f\\n\\r\\t \\u0001 \\u007f A \\\"\\\\\"");
}

/* ---- idmap --------------------------------------------------------------- */

static uint64_t spread_key(uint32_t k)
{
    return (uint64_t)k * 7919 + (k % 3 ? 0 : UINT64_MAX / 2);
}

static void test_idmap_put_get(void **state)
{
    (void)state;
    idmap m;
    assert_int_equal(idmap_init(&m, 4), 0);
    for (uint32_t k = 0; k < 10000; k++)
        assert_int_equal(idmap_put(&m, spread_key(k), k, NULL), 1);
    assert_int_equal(m.count, 10000);
    uint32_t v;
    for (uint32_t k = 0; k < 10000; k++) {
        assert_true(idmap_get(&m, spread_key(k), &v));
        assert_int_equal(v, k);
    }
    /* put keeps the first value, set replaces it */
    uint32_t first = 0;
    assert_int_equal(idmap_put(&m, 7919, 99, &first), 0);
    assert_int_equal(first, 1);
    assert_true(idmap_get(&m, 7919, &v));
    assert_int_equal(v, 1);
    assert_int_equal(idmap_set(&m, 7919, 42), 0);
    assert_true(idmap_get(&m, 7919, &v));
    assert_int_equal(v, 42);
    assert_false(idmap_get(&m, 3, &v));
    assert_int_equal(m.count, 10000);
    idmap_free(&m);
}

/* Negative ids (Kineto's) are keys like any other; a zeroed map is empty
 * and allocates on the first insert. */
static void test_idmap_signed_keys_and_lazy_start(void **state)
{
    (void)state;
    idmap m = {0};
    uint32_t v;
    assert_false(idmap_get(&m, 0, &v));
    for (int64_t k = -5000; k < 5000; k++)
        assert_int_equal(idmap_set(&m, (uint64_t)(k * 7919), (uint32_t)(k + 5000)), 0);
    assert_int_equal(m.count, 10000);
    assert_true(idmap_get(&m, (uint64_t)(-5000 * 7919), &v));
    assert_int_equal(v, 0);
    assert_true(idmap_get(&m, (uint64_t)(4999 * 7919), &v));
    assert_int_equal(v, 9999);
    assert_false(idmap_get(&m, 1, &v));
    bool inserted;
    uint32_t *slot = idmap_upsert(&m, 1, &inserted);
    assert_non_null(slot);
    assert_true(inserted);
    assert_int_equal(*slot, 0);
    *slot = 7;
    slot = idmap_upsert(&m, 1, &inserted);
    assert_false(inserted);
    assert_int_equal(*slot, 7);
    idmap_free(&m);
    assert_int_equal(idmap_init(&m, 0), 0);
    assert_null(m.slots);
    idmap_free(&m);
}

/* ---- cli ----------------------------------------------------------------- */

/* Every spelling, "--x=value" and "--x value", stores into its own slot and
 * advances past the value; another option is left alone; a missing value
 * is -1 with the slot untouched. */
static void test_cli_text_options(void **state)
{
    (void)state;
    const char *out = NULL, *name = NULL;
    const cli_text_option texts[] = {{"-o|--output", &out}, {"--name", &name}, {NULL, NULL}};
    char *argv[] = {"prog", "--name=a b", "-o", "x.dot", "--format", "svg", "--output", NULL};
    int argc = 7, i = 1;
    assert_int_equal(cli_text_options("prog", argc, argv, &i, texts), 1);
    assert_string_equal(name, "a b");
    assert_int_equal(i, 1);
    i = 2;
    assert_int_equal(cli_text_options("prog", argc, argv, &i, texts), 1);
    assert_string_equal(out, "x.dot");
    assert_int_equal(i, 3);
    i = 4;
    assert_int_equal(cli_text_options("prog", argc, argv, &i, texts), 0);
    assert_int_equal(i, 4);
    i = 6;
    assert_int_equal(cli_text_options("prog", argc, argv, &i, texts), -1);
    assert_string_equal(out, "x.dot");
}

/* Each spelling of a word option gives the word's position and advances
 * past a separate value; another option is 0 with *word untouched; a word
 * not on the list, or a missing value, is -1 after one line of error. */
static void test_cli_word_option(void **state)
{
    (void)state;
    char *argv[] = {"prog", "--schedule=gpipe", "--schedule", "1f1b", "--sp", "--schedule=zb", "--schedule", NULL};
    int argc = 7, i = 1, word = 7;
    assert_int_equal(cli_word_option("prog", argc, argv, &i, "--schedule", "1f1b|gpipe", &word), 1);
    assert_int_equal(word, 1);
    assert_int_equal(i, 1);
    i = 2;
    assert_int_equal(cli_word_option("prog", argc, argv, &i, "--schedule", "1f1b|gpipe", &word), 1);
    assert_int_equal(word, 0);
    assert_int_equal(i, 3);
    i = 4;
    word = 7;
    assert_int_equal(cli_word_option("prog", argc, argv, &i, "--schedule", "1f1b|gpipe", &word), 0);
    assert_int_equal(word, 7);
    assert_int_equal(i, 4);
    i = 5;
    assert_int_equal(cli_word_option("prog", argc, argv, &i, "--schedule", "1f1b|gpipe", &word), -1);
    i = 6;
    assert_int_equal(cli_word_option("prog", argc, argv, &i, "--schedule", "1f1b|gpipe", &word), -1);
}

/* What cli_unexpected prints to stderr for `arg`, read back through a
 * temporary file put in place of stderr. */
static void expect_unexpected(const char *arg, const char *want)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
    cli_unexpected("prog", arg, "generate transformer --help");
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    char got[256];
    rewind(tmp);
    size_t n = fread(got, 1, sizeof got - 1, tmp);
    got[n] = '\0';
    fclose(tmp);
    assert_string_equal(got, want);
}

/* An option (a lone "-" too) is unknown; anything else is unexpected. */
static void test_cli_unexpected(void **state)
{
    (void)state;
    expect_unexpected("--nope", "prog: unknown option '--nope' (see generate transformer --help)\n");
    expect_unexpected("-", "prog: unknown option '-' (see generate transformer --help)\n");
    expect_unexpected("extra", "prog: unexpected argument 'extra' (see generate transformer --help)\n");
}

/* Each string is copied (not kept) and counted, in order. */
static void test_str_list_append(void **state)
{
    (void)state;
    char **items = NULL;
    size_t n = 0;
    char name[] = "rank.0.et";
    assert_int_equal(str_list_append(&items, &n, name), 0);
    name[5] = '1';
    assert_int_equal(str_list_append(&items, &n, name), 0);
    assert_int_equal(str_list_append(&items, &n, ""), 0);
    assert_int_equal(n, 3);
    assert_string_equal(items[0], "rank.0.et");
    assert_string_equal(items[1], "rank.1.et");
    assert_string_equal(items[2], "");
    assert_ptr_not_equal(items[1], name);
    for (size_t k = 0; k < n; k++)
        free(items[k]);
    free(items);
}

/* Values stay in the order pushed, duplicates and 0 included, and the
 * list grows past its first capacity (64) keeping them all. */
static void test_dist_values_push(void **state)
{
    (void)state;
    dist_values s = {NULL, 0, 0};
    assert_int_equal(dist_values_push(&s, 7), 0);
    assert_int_equal(dist_values_push(&s, 7), 0);
    assert_int_equal(dist_values_push(&s, 0), 0);
    assert_int_equal(s.n, 3);
    assert_true(s.cap >= 3);
    for (uint64_t x = 0; x < 100; x++)
        assert_int_equal(dist_values_push(&s, UINT64_MAX - x), 0);
    assert_int_equal(s.n, 103);
    assert_true(s.cap >= 103);
    assert_int_equal(s.v[0], 7);
    assert_int_equal(s.v[1], 7);
    assert_int_equal(s.v[2], 0);
    for (size_t k = 3; k < s.n; k++)
        assert_true(s.v[k] == UINT64_MAX - (k - 3));
    free(s.v);
}

/* strtoll must read the whole non-empty string: a sign and leading
 * blanks pass, as does a number past 64 bits; anything after the digits,
 * or no digits, fails. */
static void test_pg_name_is_number(void **state)
{
    (void)state;
    assert_true(pg_name_is_number("0"));
    assert_true(pg_name_is_number("12"));
    assert_true(pg_name_is_number("-3"));
    assert_true(pg_name_is_number("+7"));
    assert_true(pg_name_is_number(" 5"));
    assert_true(pg_name_is_number("99999999999999999999"));
    assert_false(pg_name_is_number(""));
    assert_false(pg_name_is_number("5 "));
    assert_false(pg_name_is_number("1a"));
    assert_false(pg_name_is_number("tp"));
    assert_false(pg_name_is_number("-"));
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_utf8_valid),
    cmocka_unit_test(test_utf8_decode),
    cmocka_unit_test(test_json_string),
    cmocka_unit_test(test_json_string_long),
    cmocka_unit_test(test_json_string_invalid_utf8),
    cmocka_unit_test(test_json_string_escaped_input),
    cmocka_unit_test(test_idmap_put_get),
    cmocka_unit_test(test_idmap_signed_keys_and_lazy_start),
    cmocka_unit_test(test_cli_text_options),
    cmocka_unit_test(test_cli_word_option),
    cmocka_unit_test(test_cli_unexpected),
    cmocka_unit_test(test_str_list_append),
    cmocka_unit_test(test_dist_values_push),
    cmocka_unit_test(test_pg_name_is_number)
)
