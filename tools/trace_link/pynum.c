#include "trace_link/pynum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_float_literal(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (text[i] == '.' || text[i] == 'e' || text[i] == 'E' || text[i] == 'N' || text[i] == 'I')
            return true;
    return false;
}

static int parse_int(const char *text, size_t len, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && text[i] == '-') {
        neg = true;
        i++;
    }
    /* Accumulate as a negative number so INT64_MIN fits. */
    int64_t v = 0;
    for (; i < len; i++) {
        int digit = text[i] - '0';
        if (v < (INT64_MIN + digit) / 10)
            return -1;
        v = v * 10 - digit;
    }
    if (!neg) {
        if (v == INT64_MIN)
            return -1;
        v = -v;
    }
    *out = v;
    return 0;
}

static double parse_double(const char *text, size_t len)
{
    char local[64];
    /* The literal is followed by a delimiter in the source buffer, but copy
     * it so strtod never sees more than the token. */
    if (len < sizeof local) {
        memcpy(local, text, len);
        local[len] = '\0';
        return strtod(local, NULL);
    }
    char *heap = malloc(len + 1);
    if (!heap)
        return NAN;
    memcpy(heap, text, len);
    heap[len] = '\0';
    double v = strtod(heap, NULL);
    free(heap);
    return v;
}

int pynum_parse(const char *text, size_t len, pynum *out)
{
    if (is_float_literal(text, len)) {
        out->is_float = true;
        out->v.f = parse_double(text, len);
        return 0;
    }
    out->is_float = false;
    return parse_int(text, len, &out->v.i);
}

static double as_double(pynum a)
{
    return a.is_float ? a.v.f : (double)a.v.i;
}

pynum pynum_add(pynum a, pynum b, bool *overflow)
{
    if (!a.is_float && !b.is_float) {
        int64_t r;
        if (__builtin_add_overflow(a.v.i, b.v.i, &r))
            *overflow = true;
        return pynum_int(r);
    }
    pynum r = {.v.f = as_double(a) + as_double(b), .is_float = true};
    return r;
}

pynum pynum_sub(pynum a, pynum b, bool *overflow)
{
    if (!a.is_float && !b.is_float) {
        int64_t r;
        if (__builtin_sub_overflow(a.v.i, b.v.i, &r))
            *overflow = true;
        return pynum_int(r);
    }
    pynum r = {.v.f = as_double(a) - as_double(b), .is_float = true};
    return r;
}

/* Compares an int64 with a double exactly, as Python does (no rounding of
 * the integer to double). */
static int cmp_int_double(int64_t i, double f)
{
    if (f >= 9223372036854775808.0)
        return -1;
    if (f < -9223372036854775808.0)
        return 1;
    double fl = floor(f);
    int64_t fi = (int64_t)fl;
    if (i < fi)
        return -1;
    if (i > fi)
        return 1;
    return fl < f ? -1 : 0;
}

int pynum_cmp(pynum a, pynum b)
{
    if (!a.is_float && !b.is_float)
        return (a.v.i > b.v.i) - (a.v.i < b.v.i);
    if (a.is_float && b.is_float)
        return (a.v.f > b.v.f) - (a.v.f < b.v.f);
    if (!a.is_float)
        return cmp_int_double(a.v.i, b.v.f);
    return -cmp_int_double(b.v.i, a.v.f);
}

bool pynum_is_finite(pynum a)
{
    return !a.is_float || isfinite(a.v.f);
}

/* Splits "%e" text (d[.ddd]e±XX) into significant digits (trailing zeros
 * dropped) and the exponent. */
static int split_digits(const char *text, char *digits, int *exp10)
{
    int n = 0;
    const char *p = text;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    *exp10 = atoi(p + 1);
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    return n;
}

/* Rewrites "%e" text to the next decimal with as many digits (9.99e4 ->
 * 1.00e5). Returns false when the text is not in that form. */
static bool next_decimal_up(char *text, size_t size)
{
    char *e = strchr(text, 'e');
    if (!e)
        return false;
    char *q = e - 1;
    for (; q >= text; q--) {
        if (*q == '.')
            continue;
        if (*q != '9') {
            (*q)++;
            return true;
        }
        *q = '0';
    }
    /* All nines: 9.99e4 became 0.00e4; make it 1.00e5. */
    text[0] = '1';
    int exponent = atoi(e + 1) + 1;
    snprintf(e, size - (size_t)(e - text), "e%+d", exponent);
    return true;
}

static bool round_trips(double x, int prec, char *text, size_t size)
{
    snprintf(text, size, "%.*e", prec - 1, x);
    return strtod(text, NULL) == x;
}

/* Shortest digit string that reads back as x (positive, finite): the
 * correctly rounded p-significant-digit form for the smallest p that
 * round-trips, which is what Python's repr() prints. Returns the digits (no
 * dot) and the decimal exponent of the first digit. */
static int shortest_digits(double x, char *digits, int *exp10)
{
    char text[40];
    if (x < 9007199254740992.0 && x == floor(x)) {
        /* Below 2**53 an integral value needs exactly its integer digits. */
        snprintf(text, sizeof text, "%.0f", x);
        int n = (int)strlen(text);
        *exp10 = n - 1;
        while (n > 1 && text[n - 1] == '0')
            n--;
        memcpy(digits, text, (size_t)n);
        digits[n] = '\0';
        return n;
    }
    /* Round-tripping is monotonic in the precision, except at a power of
     * two, whose rounding interval is narrower below than above: there the
     * correctly rounded digits may miss while the next decimal up fits, so
     * both are tried, shortest first. Elsewhere a bisection suffices
     * (timestamps need 16-17 digits). */
    int exponent;
    int lo = 1, hi = 17;
    if (frexp(x, &exponent) == 0.5) {
        for (; lo < 17; lo++) {
            if (round_trips(x, lo, text, sizeof text))
                break;
            if (strtod(text, NULL) < x && next_decimal_up(text, sizeof text) && strtod(text, NULL) == x)
                return split_digits(text, digits, exp10);
        }
    } else {
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (round_trips(x, mid, text, sizeof text))
                hi = mid;
            else
                lo = mid + 1;
        }
    }
    snprintf(text, sizeof text, "%.*e", lo - 1, x);
    return split_digits(text, digits, exp10);
}

size_t py_float_repr(double x, char *buf)
{
    if (isnan(x))
        return (size_t)snprintf(buf, PYNUM_TEXT_MAX, "NaN");
    if (isinf(x))
        return (size_t)snprintf(buf, PYNUM_TEXT_MAX, x > 0 ? "Infinity" : "-Infinity");
    char *out = buf;
    if (signbit(x)) {
        *out++ = '-';
        x = -x;
    }
    if (x == 0) {
        memcpy(out, "0.0", 4);
        return (size_t)(out - buf) + 3;
    }
    char digits[24];
    int e;
    int n = shortest_digits(x, digits, &e);
    if (e < -4 || e >= 16) {
        /* Scientific: d[.ddd]e±XX with at least two exponent digits. */
        *out++ = digits[0];
        if (n > 1) {
            *out++ = '.';
            memcpy(out, digits + 1, (size_t)n - 1);
            out += n - 1;
        }
        out += sprintf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (e < 0) {
        *out++ = '0';
        *out++ = '.';
        for (int z = 0; z < -e - 1; z++)
            *out++ = '0';
        memcpy(out, digits, (size_t)n);
        out += n;
    } else if (e + 1 < n) {
        memcpy(out, digits, (size_t)e + 1);
        out += e + 1;
        *out++ = '.';
        memcpy(out, digits + e + 1, (size_t)(n - e - 1));
        out += n - e - 1;
    } else {
        memcpy(out, digits, (size_t)n);
        out += n;
        for (int z = n; z < e + 1; z++)
            *out++ = '0';
        *out++ = '.';
        *out++ = '0';
    }
    *out = '\0';
    return (size_t)(out - buf);
}

size_t pynum_format(pynum a, char *buf)
{
    if (a.is_float)
        return py_float_repr(a.v.f, buf);
    return (size_t)snprintf(buf, PYNUM_TEXT_MAX, "%lld", (long long)a.v.i);
}
