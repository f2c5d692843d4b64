/*
 * pyfloat.c - Python's repr() of a double.
 *
 * Python prints the shortest digit string that reads back as the same
 * double and, among strings of that length, the nearest one. For a length
 * p, the only candidates worth testing are the two p-digit decimals that
 * bracket v: any other lies farther out on the same side, and the set of
 * decimals that read back as v is an interval around v. glibc's "%.*e" is
 * correctly rounded, so it gives the nearer of the two; when that one does
 * not read back (possible where the interval is lopsided, just above a
 * power of two), the other one still may. strtod decides "reads back",
 * with the round-half-even rule Python's reader uses too. A division-based
 * fast path settles the short decimals, the common case, without any
 * string conversion (see shortest_fast).
 */
#include "common/pyfloat.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A positive decimal d1.d2...dn x 10^exp10, its digits in ASCII. */
typedef struct {
    char digits[24];
    int n;
    int exp10;
} decimal;

/* Reads the "d.ddde+XX" text that "%.*e" writes. */
static void decimal_from_e(const char *text, decimal *d)
{
    const char *p = text;
    d->n = 0;
    for (; *p != 'e'; p++)
        if (*p != '.')
            d->digits[d->n++] = *p;
    d->exp10 = atoi(p + 1);
}

/* Reads d back as a double, the way Python would read its repr. */
static double decimal_value(const decimal *d)
{
    /* "ddddde-XXX": the digits as an integer, then the exponent. */
    char text[48];
    memcpy(text, d->digits, (size_t)d->n);
    snprintf(text + d->n, sizeof text - (size_t)d->n, "e%d", d->exp10 - (d->n - 1));
    return strtod(text, NULL);
}

/* The next n-digit decimal above d (9.99 -> 1.00e+1). */
static void decimal_step_up(decimal *d)
{
    int i = d->n - 1;
    while (i >= 0 && d->digits[i] == '9')
        d->digits[i--] = '0';
    if (i >= 0) {
        d->digits[i]++;
        return;
    }
    d->digits[0] = '1';
    d->exp10++;
}

/* The next n-digit decimal below d (1.00 -> 9.99e-1: below a power of ten
 * the n-digit decimals are ten times denser). */
static void decimal_step_down(decimal *d)
{
    int i = d->n - 1;
    while (d->digits[i] == '0')
        d->digits[i--] = '9';
    d->digits[i]--;
    if (d->digits[0] == '0') {
        memset(d->digits, '9', (size_t)d->n);
        d->exp10--;
    }
}

/* Whether some p-digit decimal reads back as v; if so, *d is the nearest
 * such one. */
static bool digits_read_back(double v, int p, decimal *d)
{
    char text[48];
    snprintf(text, sizeof text, "%.*e", p - 1, v);
    decimal_from_e(text, d);
    double back = strtod(text, NULL);
    if (back == v)
        return true;
    decimal other = *d;
    if (back < v)
        decimal_step_up(&other);
    else
        decimal_step_down(&other);
    if (decimal_value(&other) != v)
        return false;
    *d = other;
    return true;
}

/* 10^0 .. 10^22: the powers of ten that doubles hold exactly. */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

typedef enum {
    FAST_FOUND,    /* *d holds the answer */
    FAST_NEEDS_16, /* no decimal of 15 digits or fewer reads back */
    FAST_UNDECIDED /* v too large or too small for the fast path */
} fast_result;

static void decimal_from_integer(uint64_t n, int fraction_digits, decimal *d)
{
    char text[24];
    d->n = snprintf(text, sizeof text, "%llu", (unsigned long long)n);
    memcpy(d->digits, text, (size_t)d->n);
    d->exp10 = d->n - 1 - fraction_digits;
}

/* Between 10^15 and 2^53 doubles are at most 1 apart and every integer is
 * one: an integral v needs exactly its own digits (a shorter decimal is a
 * multiple of 10, at least 1 away), any other v more than 16 digits (no
 * integer is within half a spacing of it). Microsecond timestamps since
 * the epoch (1.7e15) fall here. */
static fast_result shortest_fast_large(double v, decimal *d)
{
    if (v >= 9007199254740992.0)
        return FAST_UNDECIDED;
    if (v != floor(v))
        return FAST_NEEDS_16;
    decimal_from_integer((uint64_t)v, 0, d);
    return FAST_FOUND;
}

/* Most numbers the tools print are short decimals (0.11778). N / 10^k, with N
 * below 10^15 and k <= 22, is an exact quotient of exact doubles, so one
 * correctly rounded division tells whether "N e-k" reads back as v, with
 * no string conversion. Below 10^15 a decimal is too coarse for two of
 * them to read back as the same double, and v * 10^k is within 0.11 of N,
 * so rounding it finds the only candidate. Trying k = 0, 1, … finds the
 * fewest digits first. */
static fast_result shortest_fast(double v, decimal *d)
{
    for (int k = 0; k < (int)(sizeof exact_pow10 / sizeof exact_pow10[0]); k++) {
        double scaled = v * exact_pow10[k];
        if (scaled >= 1e15) /* at k = 0 (v >= 1e15) nothing was tried */
            return k > 0 ? FAST_NEEDS_16 : shortest_fast_large(v, d);
        uint64_t n = (uint64_t)(scaled + 0.5);
        if (n != 0 && (double)n / exact_pow10[k] == v) {
            decimal_from_integer(n, k, d);
            return FAST_FOUND;
        }
    }
    return FAST_UNDECIDED;
}

/* The digits Python's repr() chooses for a finite v > 0. If a p-digit
 * decimal reads back, so does a (p+1)-digit one (append a zero), so the
 * shortest length can be found by bisection; 17 significant digits always
 * read back. */
static void shortest_decimal(double v, decimal *d)
{
    /* Extended-precision evaluation (FLT_EVAL_METHOD != 0, x87) would round
     * the fast path's division twice; only the string route is exact then. */
    fast_result fast = FLT_EVAL_METHOD == 0 ? shortest_fast(v, d) : FAST_UNDECIDED;
    if (fast == FAST_FOUND)
        return;
    int lo = fast == FAST_NEEDS_16 ? 16 : 1, hi = 17, found_p = 0;
    decimal found, probe;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (digits_read_back(v, mid, &probe)) {
            hi = mid;
            found = probe;
            found_p = mid;
        } else {
            lo = mid + 1;
        }
    }
    if (found_p == lo) {
        *d = found;
        return;
    }
    char text[48];
    snprintf(text, sizeof text, "%.*e", lo - 1, v);
    decimal_from_e(text, d);
}

static size_t put_zeros(char *out, size_t at, int count)
{
    for (int i = 0; i < count; i++)
        out[at++] = '0';
    return at;
}

/* Python's layout: fixed notation while the decimal point falls within
 * -4 < point <= 16 digits of the first digit, else d.ddde+XX. */
static size_t layout(const decimal *d, int negative, char *out)
{
    size_t at = 0;
    int point = d->exp10 + 1; /* digits before the decimal point */
    if (negative)
        out[at++] = '-';
    if (point > -4 && point <= 16) {
        if (point <= 0) {
            memcpy(out + at, "0.", 2);
            at = put_zeros(out, at + 2, -point);
            memcpy(out + at, d->digits, (size_t)d->n);
            at += (size_t)d->n;
        } else if (point >= d->n) {
            memcpy(out + at, d->digits, (size_t)d->n);
            at = put_zeros(out, at + (size_t)d->n, point - d->n);
            memcpy(out + at, ".0", 2);
            at += 2;
        } else {
            memcpy(out + at, d->digits, (size_t)point);
            at += (size_t)point;
            out[at++] = '.';
            memcpy(out + at, d->digits + point, (size_t)(d->n - point));
            at += (size_t)(d->n - point);
        }
        out[at] = '\0';
        return at;
    }
    out[at++] = d->digits[0];
    if (d->n > 1) {
        out[at++] = '.';
        memcpy(out + at, d->digits + 1, (size_t)(d->n - 1));
        at += (size_t)(d->n - 1);
    }
    int len = snprintf(out + at, PYFLOAT_MAX - at, "e%c%02d", d->exp10 < 0 ? '-' : '+', abs(d->exp10));
    return at + (size_t)len;
}

/* NaN and the infinities are spelled by the caller; -0.0 keeps its sign. */
static size_t repr(double v, const char *nan, const char *inf, const char *minus_inf, char out[PYFLOAT_MAX])
{
    const char *special = NULL;
    if (isnan(v))
        special = nan;
    else if (isinf(v))
        special = v < 0 ? minus_inf : inf;
    else if (v == 0)
        special = signbit(v) ? "-0.0" : "0.0";
    if (special) {
        strcpy(out, special);
        return strlen(special);
    }
    decimal d;
    shortest_decimal(fabs(v), &d);
    while (d.n > 1 && d.digits[d.n - 1] == '0')
        d.n--;
    return layout(&d, signbit(v) != 0, out);
}

size_t pyfloat_repr(double v, char out[PYFLOAT_MAX])
{
    return repr(v, "nan", "inf", "-inf", out);
}

size_t pyfloat_json(double v, char out[PYFLOAT_MAX])
{
    return repr(v, "NaN", "Infinity", "-Infinity", out);
}
