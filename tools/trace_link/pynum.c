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

size_t pynum_format(pynum a, char *buf)
{
    if (a.is_float)
        return pyfloat_json(a.v.f, buf);
    return (size_t)snprintf(buf, PYNUM_TEXT_MAX, "%lld", (long long)a.v.i);
}
