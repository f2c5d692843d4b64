/*
 * Unit tests of core/util: the input-file check and read, and message escaping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "temp_text.h"
#include "unit_main.h"

#include "util/decimal.h"
#include "util/input_file.h"
#include "util/msg_escape.h"
#include "util/number_text.h"

static void regular_file_passes(void **state)
{
    (void)state;
    char *path = temp_text_write("vimana-util", "file", "");
    char why[128] = "";
    assert_int_equal(input_file_check(path, why, sizeof why), 0);
    assert_string_equal(why, "");
    temp_text_remove(path);
}

static void missing_file_left_to_the_caller(void **state)
{
    (void)state;
    char why[128] = "";
    assert_int_equal(input_file_check("/nonexistent/vimana/file", why, sizeof why), 0);
}

static void directory_refused(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(input_file_check("/tmp", why, sizeof why), -1);
    assert_string_equal(why, "is a directory, expected a file");
}

static void device_refused(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(input_file_check("/dev/zero", why, sizeof why), -1);
    assert_string_equal(why, "not a regular file (character device)");
}

/* input_file_read of a file of `size` bytes (a pattern, so that a byte
 * out of place shows) under `limit`: all of it, or limit bytes when the
 * file is longer. */
static void expect_read(size_t size, size_t limit)
{
    char *text = malloc(size + 1);
    assert_non_null(text);
    for (size_t i = 0; i < size; i++)
        text[i] = (char)('a' + i % 26);
    text[size] = '\0';
    char *path = temp_text_write("vimana-util", "file", text);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = 0;
    char *got = input_file_read(f, limit, &len);
    assert_non_null(got);
    assert_false(ferror(f));
    fclose(f);
    size_t want = size < limit ? size : limit;
    assert_int_equal(len, want);
    assert_memory_equal(got, text, want);
    free(got);
    free(text);
    temp_text_remove(path);
}

/* The buffer grows in steps from 64 KiB: files on either side of the
 * steps, and the limit that tells a file longer than the caller takes. */
static void whole_file_read(void **state)
{
    (void)state;
    expect_read(0, SIZE_MAX);
    expect_read(65535, SIZE_MAX);
    expect_read(65536, SIZE_MAX);
    expect_read(200000, SIZE_MAX);
    expect_read(200000, 100001);
    expect_read(100000, 100001);
    expect_read(100001, 100001);
}

/* msg_escape writes want for in into a buffer of size bytes. */
static void expect_escape(const char *in, size_t size, const char *want)
{
    char buf[64];
    assert_true(size <= sizeof buf);
    assert_string_equal(msg_escape(in, buf, size), want);
}

static void escapes_control_bytes(void **state)
{
    (void)state;
    char buf[64];
    expect_escape("Ring\nSwitch\t\x01\\", sizeof buf, "Ring\\nSwitch\\t\\x01\\\\");
    expect_escape("caf\xc3\xa9", sizeof buf, "caf\xc3\xa9");
    assert_string_equal(msg_escape_n("a\0b", 3, buf, sizeof buf), "a\\x00b");
}

/* A backend's message is one line already unless it holds a control byte:
 * its own escapes stay as they are (config_errors.sh: "Ri\n...ng"). */
static void one_line_keeps_escapes(void **state)
{
    (void)state;
    char buf[16];
    assert_string_equal(msg_one_line("Ri\\nng not", buf, sizeof buf), "Ri\\nng not");
    assert_string_equal(msg_one_line("a\nb\\", buf, sizeof buf), "a\\nb\\\\");
    assert_string_equal(msg_one_line("abcdefghijklmnopq", buf, sizeof buf), "abcdefghijkl...");
    assert_string_equal(msg_one_line("abcdefghijklmno", buf, sizeof buf), "abcdefghijklmno");
    char tiny[2];
    assert_string_equal(msg_one_line("xyz", tiny, sizeof tiny), "");
}

static void long_values_end_in_ellipsis(void **state)
{
    (void)state;
    expect_escape("abcdefghij", 8, "abcd...");
    expect_escape("abcdefg", 8, "abcdefg");
    expect_escape("abc\n\n\nx", 8, "abc...");
}

static void assert_ratio(uint64_t num, uint64_t den, unsigned places, const char *want)
{
    char got[DECIMAL_RATIO_MAX];
    decimal_ratio(got, num, den, places);
    assert_string_equal(got, want);
}

/* Exact decimals: rounding half up, trailing zeros dropped, a carry into
 * the whole part, 64-bit extremes without overflow. */
static void ratio_is_exact(void **state)
{
    (void)state;
    assert_ratio(19531, 60093, 6, "0.325013"); /* 0.3250128966... */
    assert_ratio(19531, 40062, 6, "0.487519"); /* 0.4875193450... */
    assert_ratio(1, 2, 6, "0.5");
    assert_ratio(3, 3, 6, "1");
    assert_ratio(0, 7, 6, "0");
    assert_ratio(2, 3, 6, "0.666667");
    assert_ratio(1, 3, 6, "0.333333");
    assert_ratio(1, 2000000, 6, "0.000001"); /* exactly half of the last place: up */
    assert_ratio(1, 2000001, 6, "0");        /* just under half: down */
    assert_ratio(1999999, 2000000, 6, "1");  /* 0.9999995: carries into the whole */
    assert_ratio(3, 2, 6, "1.5");            /* above 1 is written as it is */
    assert_ratio(5, 0, 6, "0");              /* a run of 0 ticks */
    assert_ratio(UINT64_MAX - 1, UINT64_MAX, 6, "1");
    assert_ratio(UINT64_MAX / 3, UINT64_MAX, 6, "0.333333");
    assert_ratio(UINT64_MAX, 1, 6, "18446744073709551615");
    assert_ratio(UINT64_MAX, 2, 9, "9223372036854775807.5");
    assert_ratio(1, 3, 1, "0.3");
    assert_ratio(2, 3, 9, "0.666666667");
}

/* Digits only, at most the limit, without overflow even at UINT64_MAX. */
static void whole_number_bounds(void **state)
{
    (void)state;
    uint64_t v = 42;
    assert_true(whole_number_parse("0", 10, &v));
    assert_true(v == 0);
    assert_true(whole_number_parse("007", 10, &v));
    assert_true(v == 7);
    assert_true(whole_number_parse("10", 10, &v));
    assert_true(v == 10);
    v = 42;
    assert_false(whole_number_parse("11", 10, &v));
    assert_false(whole_number_parse("100", 10, &v));
    assert_false(whole_number_parse("", 10, &v));
    assert_false(whole_number_parse("-1", 10, &v));
    assert_false(whole_number_parse("+1", 10, &v));
    assert_false(whole_number_parse(" 1", 10, &v));
    assert_false(whole_number_parse("1 ", 10, &v));
    assert_false(whole_number_parse("1x", 10, &v));
    assert_false(whole_number_parse("5", 4, &v));
    assert_false(whole_number_parse("1", 0, &v));
    assert_true(v == 42); /* left alone on failure */
    assert_true(whole_number_parse("0", 0, &v));
    assert_true(v == 0);
    /* the largest limits: exact at the edge, no wrap past it */
    assert_true(whole_number_parse("18446744073709551615", UINT64_MAX, &v));
    assert_true(v == UINT64_MAX);
    assert_false(whole_number_parse("18446744073709551616", UINT64_MAX, &v));
    assert_false(whole_number_parse("99999999999999999999999", UINT64_MAX, &v));
    assert_true(whole_number_parse("1125899906842624", 1ull << 50, &v));
    assert_true(v == 1ull << 50);
    assert_false(whole_number_parse("1125899906842625", 1ull << 50, &v));
    assert_true(whole_number_parse("4294967295", UINT32_MAX, &v));
    assert_false(whole_number_parse("4294967296", UINT32_MAX, &v));
}

/* All of the text, and finite: what strtod takes, nothing after it, no
 * range error. */
static void finite_number_strict(void **state)
{
    (void)state;
    double v = 42;
    assert_true(finite_number_parse("0", &v));
    assert_true(v == 0);
    assert_true(finite_number_parse("2.5", &v));
    assert_true(v == 2.5);
    assert_true(finite_number_parse("-3", &v));
    assert_true(v == -3);
    assert_true(finite_number_parse("1e3", &v));
    assert_true(v == 1000);
    assert_true(finite_number_parse(" 7", &v)); /* strtod skips leading spaces */
    assert_true(v == 7);
    assert_true(finite_number_parse("0x10", &v));
    assert_true(v == 16);
    v = 42;
    assert_false(finite_number_parse("", &v));
    assert_false(finite_number_parse(" ", &v));
    assert_false(finite_number_parse("abc", &v));
    assert_false(finite_number_parse("7 ", &v));
    assert_false(finite_number_parse("1.5x", &v));
    assert_false(finite_number_parse("inf", &v));
    assert_false(finite_number_parse("nan", &v));
    assert_false(finite_number_parse("1e400", &v));  /* overflow: ERANGE */
    assert_false(finite_number_parse("1e-400", &v)); /* underflow: ERANGE */
    assert_true(v == 42); /* left alone on failure */
}

UNIT_TEST_MAIN(
    cmocka_unit_test(regular_file_passes),
    cmocka_unit_test(missing_file_left_to_the_caller),
    cmocka_unit_test(directory_refused),
    cmocka_unit_test(device_refused),
    cmocka_unit_test(one_line_keeps_escapes),
    cmocka_unit_test(whole_file_read),
    cmocka_unit_test(escapes_control_bytes),
    cmocka_unit_test(long_values_end_in_ellipsis),
    cmocka_unit_test(ratio_is_exact),
    cmocka_unit_test(whole_number_bounds),
    cmocka_unit_test(finite_number_strict)
)
