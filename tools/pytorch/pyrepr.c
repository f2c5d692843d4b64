#include "pytorch/pyrepr.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pytorch/unicode_printable.h"

static const char hexdigits[] = "0123456789abcdef";

/* ---- strings ------------------------------------------------------------ */

/* Decodes one UTF-8 sequence at s[*i] and advances *i. Input is validated
 * when the file is loaded; a stray invalid byte decodes as itself with
 * *invalid set, so the caller can still write something deterministic. */
static uint32_t next_code_point(const unsigned char *s, size_t len, size_t *i, bool *invalid)
{
    unsigned char c = s[*i];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    *invalid = false;
    if (n == 0 || *i + n > len) {
        *invalid = true;
        (*i)++;
        return c;
    }
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; k < n; k++) {
        if ((s[*i + k] & 0xC0) != 0x80) {
            *invalid = true;
            (*i)++;
            return c;
        }
        cp = (cp << 6) | (s[*i + k] & 0x3Fu);
    }
    *i += n;
    return cp;
}

static void put_hex_escape(pt_strbuf *sb, char kind, uint32_t cp, int digits)
{
    char buf[12];
    buf[0] = '\\';
    buf[1] = kind;
    for (int k = 0; k < digits; k++)
        buf[2 + k] = hexdigits[(cp >> (4 * (digits - 1 - k))) & 0xF];
    pt_sb_put(sb, buf, (size_t)digits + 2);
}

/* Python picks single quotes unless the text holds a single quote and no
 * double quote. */
static char choose_quote(const char *s, size_t len)
{
    bool single = memchr(s, '\'', len) != NULL;
    bool dbl = memchr(s, '"', len) != NULL;
    return single && !dbl ? '"' : '\'';
}

void pt_pyrepr_string(pt_strbuf *sb, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    char quote = choose_quote(s, len);
    pt_sb_putc(sb, quote);
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        bool invalid;
        uint32_t cp = next_code_point(u, len, &i, &invalid);
        if (invalid) {
            put_hex_escape(sb, 'x', cp, 2);
        } else if (cp == (uint32_t)quote || cp == '\\') {
            pt_sb_putc(sb, '\\');
            pt_sb_putc(sb, (char)cp);
        } else if (cp == '\t') {
            pt_sb_put(sb, "\\t", 2);
        } else if (cp == '\n') {
            pt_sb_put(sb, "\\n", 2);
        } else if (cp == '\r') {
            pt_sb_put(sb, "\\r", 2);
        } else if (pt_unicode_isprintable(cp)) {
            pt_sb_put(sb, s + start, i - start);
        } else if (cp <= 0xFF) {
            put_hex_escape(sb, 'x', cp, 2);
        } else if (cp <= 0xFFFF) {
            put_hex_escape(sb, 'u', cp, 4);
        } else {
            put_hex_escape(sb, 'U', cp, 8);
        }
    }
    pt_sb_putc(sb, quote);
}

/* ---- floats ------------------------------------------------------------- */

/* A decimal candidate mantissa * 10^exp10. */
typedef struct decimal {
    uint64_t mantissa;
    int exp10;
} decimal;

static bool round_trips(decimal d, double x)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)d.mantissa, d.exp10);
    return strtod(buf, NULL) == x;
}

/* The `digits`-digit decimal nearest to x (x > 0, finite), from printf's
 * correctly rounded "%.*e". */
static decimal nearest_decimal(double x, int digits)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    decimal d = {0, 0};
    const char *p = buf;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            d.mantissa = d.mantissa * 10 + (uint64_t)(*p - '0');
    int e = *p == 'e' ? atoi(p + 1) : 0;
    d.exp10 = e - (digits - 1);
    return d;
}

/* Shortest decimal that reads back as x, nearest to x among the shortest:
 * what CPython's repr() gets from dtoa mode 0. For each length, only the
 * correctly rounded candidate or its neighbour on the other side of x can
 * lie in x's rounding interval (the interval is narrower than two units in
 * the last place), so trying both is exact. */
static decimal shortest_decimal(double x)
{
    for (int digits = 1; digits <= 17; digits++) {
        decimal c = nearest_decimal(x, digits);
        if (round_trips(c, x))
            return c;
        char buf[48];
        snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)c.mantissa, c.exp10);
        decimal other = c;
        if (strtod(buf, NULL) < x)
            other.mantissa++;
        else
            other.mantissa--;
        if (other.mantissa > 0 && round_trips(other, x))
            return other;
    }
    return nearest_decimal(x, 17); /* 17 digits always round-trip */
}

void pt_pyrepr_double(pt_strbuf *sb, double d)
{
    if (isnan(d)) {
        pt_sb_puts(sb, "nan");
        return;
    }
    if (signbit(d))
        pt_sb_putc(sb, '-');
    d = fabs(d);
    if (isinf(d)) {
        pt_sb_puts(sb, "inf");
        return;
    }
    if (d == 0) {
        pt_sb_puts(sb, "0.0");
        return;
    }
    decimal dec = shortest_decimal(d);
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)dec.mantissa);
    int decpt = n + dec.exp10; /* value = 0.DIGITS * 10^decpt */
    while (n > 1 && digits[n - 1] == '0')
        n--;
    if (decpt <= -4 || decpt > 16) {
        /* d.ddde+XX, at least two exponent digits, no ".0" */
        pt_sb_putc(sb, digits[0]);
        if (n > 1) {
            pt_sb_putc(sb, '.');
            pt_sb_put(sb, digits + 1, (size_t)n - 1);
        }
        pt_sb_printf(sb, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
    } else if (decpt <= 0) {
        pt_sb_puts(sb, "0.");
        for (int k = 0; k < -decpt; k++)
            pt_sb_putc(sb, '0');
        pt_sb_put(sb, digits, (size_t)n);
    } else if (decpt < n) {
        pt_sb_put(sb, digits, (size_t)decpt);
        pt_sb_putc(sb, '.');
        pt_sb_put(sb, digits + decpt, (size_t)(n - decpt));
    } else {
        pt_sb_put(sb, digits, (size_t)n);
        for (int k = n; k < decpt; k++)
            pt_sb_putc(sb, '0');
        pt_sb_puts(sb, ".0");
    }
}

/* ---- values ------------------------------------------------------------- */

void pt_pyrepr_value(pt_strbuf *sb, const pj_value *v)
{
    switch (v->type) {
    case PJ_NULL:
        pt_sb_puts(sb, "None");
        break;
    case PJ_BOOL:
        pt_sb_puts(sb, v->b ? "True" : "False");
        break;
    case PJ_FLOAT:
        pt_pyrepr_double(sb, v->v.d);
        break;
    case PJ_INT:
        if (v->negative)
            pt_sb_printf(sb, "%lld", (long long)v->v.i);
        else
            pt_sb_printf(sb, "%llu", (unsigned long long)v->v.u);
        break;
    case PJ_STRING:
        pt_pyrepr_string(sb, v->v.s, v->n);
        break;
    case PJ_ARRAY:
        pt_sb_putc(sb, '[');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                pt_sb_put(sb, ", ", 2);
            pt_pyrepr_value(sb, &v->v.items[i]);
        }
        pt_sb_putc(sb, ']');
        break;
    case PJ_OBJECT:
        pt_sb_putc(sb, '{');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                pt_sb_put(sb, ", ", 2);
            pt_pyrepr_string(sb, v->v.members[i].key, v->v.members[i].key_len);
            pt_sb_put(sb, ": ", 2);
            pt_pyrepr_value(sb, &v->v.members[i].value);
        }
        pt_sb_putc(sb, '}');
        break;
    }
}

void pt_pystr_value(pt_strbuf *sb, const pj_value *v)
{
    if (v->type == PJ_STRING)
        pt_sb_put(sb, v->v.s, v->n);
    else
        pt_pyrepr_value(sb, v);
}
