#include "etcmd/pyfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pyfmt_float32(float v, char out[PYFLOAT_MAX])
{
    if (isnan(v) || isinf(v)) {
        pyfloat_repr(v, out);
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
    pyfloat_repr(rounded, out);
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
