#include "etcmd/pyfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits "%.*e" output ("-1.2345e+06") into sign, digit string and the
 * decimal exponent of the first digit. */
static void split_exp(const char *e, int *neg, char *digits, size_t *ndigits, int *exp10)
{
    size_t n = 0;
    *neg = *e == '-';
    if (*e == '-')
        e++;
    for (; *e && *e != 'e'; e++)
        if (*e >= '0' && *e <= '9')
            digits[n++] = *e;
    *exp10 = *e == 'e' ? atoi(e + 1) : 0;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    *ndigits = n;
}

/* Lays digits out as Python's float_repr_style "short" does: decpt is the
 * position of the decimal point relative to the first digit. */
static void layout(int neg, const char *digits, size_t nd, int exp10, char *out)
{
    int decpt = exp10 + 1;
    char *p = out;
    if (neg)
        *p++ = '-';
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            *p++ = '0';
            *p++ = '.';
            for (int i = 0; i < -decpt; i++)
                *p++ = '0';
            memcpy(p, digits, nd);
            p += nd;
        } else if ((size_t)decpt >= nd) {
            memcpy(p, digits, nd);
            p += nd;
            for (size_t i = nd; i < (size_t)decpt; i++)
                *p++ = '0';
            *p++ = '.';
            *p++ = '0';
        } else {
            memcpy(p, digits, (size_t)decpt);
            p += decpt;
            *p++ = '.';
            memcpy(p, digits + decpt, nd - (size_t)decpt);
            p += nd - (size_t)decpt;
        }
        *p = '\0';
        return;
    }
    *p++ = digits[0];
    if (nd > 1) {
        *p++ = '.';
        memcpy(p, digits + 1, nd - 1);
        p += nd - 1;
    }
    sprintf(p, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
}

/* Moves a "%.*e" rendering one unit in its last digit up (dir > 0) or
 * down, keeping the digit count ("9.9e+01" -> "1.0e+02"). Returns 0, or
 * -1 when there is no such neighbour of the same length. */
static int step_last_digit(const char *e, int dir, char *out, size_t cap)
{
    int neg, exp10;
    char digits[24];
    size_t nd = 0;
    neg = *e == '-';
    const char *p = e + neg;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    exp10 = atoi(p + 1);
    int i = (int)nd - 1;
    if (dir > 0) {
        while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
        if (i < 0) {
            digits[0] = '1';
            exp10++;
        } else {
            digits[i]++;
        }
    } else {
        while (i >= 0 && digits[i] == '0')
            digits[i--] = '9';
        if (i < 0 || (i == 0 && digits[0] == '1' && nd == 1))
            return -1;
        digits[i]--;
        if (digits[0] == '0') {
            memmove(digits, digits + 1, nd - 1);
            digits[nd - 1] = '9';
            exp10--;
        }
    }
    digits[nd] = '\0';
    snprintf(out, cap, "%s%c%s%se%d", neg ? "-" : "", digits[0], nd > 1 ? "." : "", digits + 1, exp10);
    return 0;
}

/* The shortest rendering that reads back as v, the nearest one among
 * equals: Python's repr. The correctly rounded %.*e is the nearest at each
 * length, but where v is a power of two its rounding interval is narrower
 * below than above, so the next decimal up can read back when the nearest
 * does not. */
static void shortest_exp(double v, char *e, size_t cap)
{
    char alt[40];
    for (int prec = 0; prec <= 16; prec++) {
        snprintf(e, cap, "%.*e", prec, v);
        double back = strtod(e, NULL);
        if (back == v)
            return;
        if (step_last_digit(e, fabs(back) < fabs(v) ? 1 : -1, alt, sizeof alt) == 0 && strtod(alt, NULL) == v) {
            snprintf(e, cap, "%s", alt);
            return;
        }
    }
}

void pyfmt_double(double v, char out[PYFMT_NUM_MAX])
{
    if (isnan(v)) {
        strcpy(out, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(out, v < 0 ? "-inf" : "inf");
        return;
    }
    char e[40];
    shortest_exp(v, e, sizeof e);
    int neg, exp10;
    char digits[24];
    size_t nd;
    split_exp(e, &neg, digits, &nd, &exp10);
    layout(neg, digits, nd, exp10, out);
}

void pyfmt_float32(float v, char out[PYFMT_NUM_MAX])
{
    if (isnan(v) || isinf(v)) {
        pyfmt_double(v, out);
        return;
    }
    /* protobuf's ToShortestFloat: start at 6 significant digits and add
     * one until the text converts back to the same float32. */
    char g[40];
    double rounded = v;
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(g, sizeof g, "%.*g", prec, (double)v);
        rounded = strtod(g, NULL);
        if ((float)rounded == v)
            break;
    }
    pyfmt_double(rounded, out);
}

/* Length of the valid UTF-8 sequence at p (1-4), with its code point, or 0
 * when the bytes there are not valid UTF-8 (overlong forms, surrogates and
 * values above U+10FFFF included). */
static size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xe0) == 0xc0) {
        n = 2, min = 0x80, *cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, min = 0x800, *cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, *cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (p[i] & 0x3f);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n;
}

size_t pyfmt_utf8_seq(const unsigned char *p, size_t avail)
{
    uint32_t cp;
    return avail ? utf8_decode(p, avail, &cp) : 0;
}

static void put_u16(sink *s, uint32_t unit)
{
    static const char hex[] = "0123456789abcdef";
    char buf[6] = {'\\', 'u', hex[(unit >> 12) & 15], hex[(unit >> 8) & 15], hex[(unit >> 4) & 15], hex[unit & 15]};
    sink_write(s, buf, 6);
}

void pyfmt_json_string(sink *s, const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t i = 0, run = 0;
    sink_putc(s, '"');
    while (i < len) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            i++;
            run++;
            continue;
        }
        /* Copy the plain run in one piece, then the escape. */
        sink_write(s, (const char *)p + i - run, run);
        run = 0;
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default: break;
        }
        if (esc) {
            sink_write(s, esc, 2);
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0) {
            put_u16(s, 0xdc00u | c);
            i++;
        } else if (cp >= 0x10000) {
            cp -= 0x10000;
            put_u16(s, 0xd800u | (cp >> 10));
            put_u16(s, 0xdc00u | (cp & 0x3ff));
            i += n;
        } else {
            put_u16(s, cp);
            i += n;
        }
    }
    sink_write(s, (const char *)p + i - run, run);
    sink_putc(s, '"');
}

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void pyfmt_base64(sink *s, const uint8_t *p, size_t len)
{
    char quad[4];
    sink_putc(s, '"');
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < len)
            v |= p[i + 2];
        quad[0] = b64_alphabet[(v >> 18) & 63];
        quad[1] = b64_alphabet[(v >> 12) & 63];
        quad[2] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
        quad[3] = i + 2 < len ? b64_alphabet[v & 63] : '=';
        sink_write(s, quad, 4);
    }
    sink_putc(s, '"');
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

long pyfmt_base64_decode(const char *text, size_t len, uint8_t *out)
{
    while (len > 0 && text[len - 1] == '=')
        len--;
    if (len % 4 == 1)
        return -1;
    uint32_t acc = 0;
    int bits = 0;
    long n = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64_value(text[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    return n;
}
