/*
 * Unit tests of tools/common/pyfloat: Python's repr() of a double, as the
 * reference tools print their floats (the timeline's ts/dur, the linker's
 * times, the ET JSON's doubles, the converter's IOInfo values). Expected
 * strings are CPython 3.11's repr() of the same values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"
#include <float.h>
#include <math.h>

#include "common/pyfloat.h"
#include "pyfloat_cases.h"

static void assert_repr(double v, const char *want)
{
    char got[PYFLOAT_MAX];
    size_t len = pyfloat_repr(v, got);
    assert_string_equal(got, want);
    assert_int_equal(len, strlen(want));
}

static void assert_json(double v, const char *want)
{
    char got[PYFLOAT_MAX];
    size_t len = pyfloat_json(v, got);
    assert_string_equal(got, want);
    assert_int_equal(len, strlen(want));
}

static void test_brief_values(void **state)
{
    (void)state;
    assert_repr(0.1, "0.1");
    assert_repr(1e-05, "1e-05");
    assert_repr(1e+16, "1e+16");
    assert_repr(117.78, "117.78");
    assert_repr(195350.188, "195350.188");
}

/* The numbers the reference computes: (tick / MHz) / 1000 and
 * cycles / (MHz * 1000). */
static void test_reference_arithmetic(void **state)
{
    (void)state;
    assert_repr((117780.0 / 1000) / 1000, "0.11778");
    assert_repr(287740.0 / (1000 * 1000), "0.28774");
    assert_repr(32291000.0 / (1000 * 1000), "32.291");
    assert_repr(19220.0 / (1000 * 1000), "0.01922");
    assert_repr((195350188.0 / 1000) / 1000, "195.350188");
    assert_repr((1.0 / 1000) / 1000, "1e-06");
    assert_repr(1.0 / 3, "0.3333333333333333");
    assert_repr(2.0 / 3, "0.6666666666666666");
    assert_repr(0.1 + 0.2, "0.30000000000000004");
    assert_repr(0.10000000000000001, "0.1");
    assert_repr(0.9, "0.9");
    assert_repr(-0.01, "-0.01");
    assert_repr(2.5, "2.5");
    assert_repr(1.2345, "1.2345");
}

/* Fixed notation for 1e-4 <= |v| < 1e16, integral values with ".0", and
 * the other cases of pyfloat_cases.h. */
static void test_layout(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pyfloat_cases / sizeof pyfloat_cases[0]; i++)
        assert_repr(pyfloat_cases[i].v, pyfloat_cases[i].repr);
}

static void test_extremes(void **state)
{
    (void)state;
    assert_repr(5e-324, "5e-324");
    assert_repr(DBL_MAX, "1.7976931348623157e+308");
    assert_repr(DBL_MIN, "2.2250738585072014e-308");
    assert_repr(-DBL_MIN, "-2.2250738585072014e-308");
}

/* repr() and json.dump spell NaN and the infinities differently; every
 * finite value the same. */
static void test_specials(void **state)
{
    (void)state;
    assert_repr(NAN, "nan");
    assert_repr(-NAN, "nan");
    assert_repr(INFINITY, "inf");
    assert_repr(-INFINITY, "-inf");
    assert_json(NAN, "NaN");
    assert_json(-NAN, "NaN");
    assert_json(INFINITY, "Infinity");
    assert_json(1e300 * 1e10, "Infinity");
    assert_json(-INFINITY, "-Infinity");
    assert_json(-0.0, "-0.0");
    assert_json(0.1, "0.1");
    assert_json(1e-05, "1e-05");
    assert_json(DBL_MAX, "1.7976931348623157e+308");
}

/* Powers of two whose nearest 16-digit decimal does not read back (the
 * gap below a power of two is half the gap above) while the other
 * 16-digit neighbour does: a "nearest digits at each length" formatter
 * prints 17 digits here, Python 16. */
static void test_lopsided_powers_of_two(void **state)
{
    (void)state;
    assert_repr(ldexp(1, -24), "5.960464477539063e-08");
    assert_repr(ldexp(1, -44), "5.684341886080802e-14");
    assert_repr(ldexp(1, 89), "6.189700196426902e+26");
    assert_repr(ldexp(1, 122), "5.316911983139664e+36");
    assert_repr(ldexp(1, -1017), "7.120236347223045e-307");
    assert_repr(-ldexp(1, -1007), "-7.291122019556398e-304");
    assert_repr(ldexp(1, -957), "8.209073602596753e-289");
}

/* Digits of the mantissa without the zeros that only place the point. */
static int significant_digits(const char *text)
{
    char digits[PYFLOAT_MAX];
    int n = 0;
    for (const char *p = text; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && (n > 0 || *p != '0'))
            digits[n++] = *p;
    while (n > 0 && digits[n - 1] == '0')
        n--;
    return n;
}

/* Around the limits of the division fast path (at most 15 digits,
 * 10^k exact up to k = 22) and next to short decimals. */
static void test_fast_path_edges(void **state)
{
    (void)state;
    assert_repr(1e15, "1000000000000000.0");
    assert_repr(1.2e15, "1200000000000000.0");
    assert_repr(999999999999999.9, "999999999999999.9");
    assert_repr(123456789012345.6, "123456789012345.6");
    assert_repr(4503599627370497.0, "4503599627370497.0");
    assert_repr(9007199254740994.0, "9007199254740994.0");
    assert_repr(ldexp(1, 754), "9.47581843445257e+226");
    assert_repr(1e-22, "1e-22");
    assert_repr(3e-23, "3e-23");
    assert_repr(1.2345e-20, "1.2345e-20");
    assert_repr(nextafter(0.1, 1), "0.10000000000000002");
    assert_repr(nextafter(117.78, 0), "117.77999999999999");
}

/* Any finite double: the text reads back exactly and has at most 17
 * significant digits. */
static void test_round_trip(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v))
            continue;
        char text[PYFLOAT_MAX];
        pyfloat_repr(v, text);
        assert_true(strtod(text, NULL) == v);
        assert_true(significant_digits(text) <= 17);
    }
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_brief_values),
    cmocka_unit_test(test_reference_arithmetic),
    cmocka_unit_test(test_layout),
    cmocka_unit_test(test_extremes),
    cmocka_unit_test(test_specials),
    cmocka_unit_test(test_lopsided_powers_of_two),
    cmocka_unit_test(test_fast_path_edges),
    cmocka_unit_test(test_round_trip)
)
