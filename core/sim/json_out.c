#include "sim/json_out.h"

#include <stdbool.h>
#include <stddef.h>

/* Length (2-4) of the well-formed UTF-8 sequence starting with the byte
 * at p (not ASCII), or 0: no overlong forms, no encoded surrogates,
 * nothing above U+10FFFF, no truncated sequence. */
static size_t utf8_sequence(const unsigned char *p)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t cp, min;
    if ((c & 0xe0) == 0xc0)
        n = 2, min = 0x80, cp = c & 0x1fu;
    else if ((c & 0xf0) == 0xe0)
        n = 3, min = 0x800, cp = c & 0x0fu;
    else if ((c & 0xf8) == 0xf0)
        n = 4, min = 0x10000, cp = c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        /* a NUL ends the string here, and fails this test */
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    bool valid = cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    return valid ? n : 0;
}

void json_out_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p++);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(f, "\\u%04x", *p++);
        } else if (*p < 0x80) {
            fputc(*p++, f);
        } else {
            size_t n = utf8_sequence(p);
            if (n == 0) {
                fprintf(f, "\\udc%02x", *p++);
                continue;
            }
            fwrite(p, 1, n, f);
            p += n;
        }
    }
    fputc('"', f);
}

void json_out_micros(FILE *f, uint64_t ticks)
{
    unsigned long long whole = ticks / 1000, frac = ticks % 1000;
    if (frac == 0)
        fprintf(f, "%llu", whole);
    else if (frac % 100 == 0)
        fprintf(f, "%llu.%llu", whole, frac / 100);
    else if (frac % 10 == 0)
        fprintf(f, "%llu.%02llu", whole, frac / 10);
    else
        fprintf(f, "%llu.%03llu", whole, frac);
}
