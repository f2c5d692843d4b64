/*
 * json_text.c - Python-compatible (ensure_ascii) JSON string literals.
 */
#include "timeline/json_text.h"

#include <stdint.h>

/* Decodes the UTF-8 sequence at p; returns its length (1-4) and the code
 * point, or 0 when the bytes there are not well-formed UTF-8. */
static size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xe0) == 0xc0) {
        n = 2, min = 0x80, *cp = c & 0x1fu;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, min = 0x800, *cp = c & 0x0fu;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, *cp = c & 0x07u;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (p[i] & 0x3fu);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n;
}

bool json_text_utf8_valid(const char *p, size_t len)
{
    const unsigned char *u = (const unsigned char *)p;
    uint32_t cp;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_decode(u + i, len - i, &cp);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

static void put_unit(FILE *f, uint32_t unit)
{
    fprintf(f, "\\u%04x", (unsigned)unit);
}

static void put_code_point(FILE *f, uint32_t cp)
{
    switch (cp) {
    case '"':
        fputs("\\\"", f);
        return;
    case '\\':
        fputs("\\\\", f);
        return;
    case '\n':
        fputs("\\n", f);
        return;
    case '\r':
        fputs("\\r", f);
        return;
    case '\t':
        fputs("\\t", f);
        return;
    case '\b':
        fputs("\\b", f);
        return;
    case '\f':
        fputs("\\f", f);
        return;
    default:
        break;
    }
    if (cp >= 0x20 && cp < 0x7f) {
        fputc((int)cp, f);
    } else if (cp < 0x10000) {
        put_unit(f, cp);
    } else {
        cp -= 0x10000;
        put_unit(f, 0xd800 | (cp >> 10));
        put_unit(f, 0xdc00 | (cp & 0x3ff));
    }
}

/* Printable ASCII other than '"' and '\\' is written as it is. */
static bool is_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void json_text_write_string(FILE *f, const char *p, size_t len)
{
    const unsigned char *u = (const unsigned char *)p;
    fputc('"', f);
    for (size_t i = 0; i < len;) {
        size_t run = i;
        while (run < len && is_plain(u[run]))
            run++;
        fwrite(p + i, 1, run - i, f);
        if (run == len)
            break;
        i = run;
        uint32_t cp;
        size_t n = utf8_decode(u + i, len - i, &cp);
        if (n == 0) {
            cp = 0xfffd;
            n = 1;
        }
        put_code_point(f, cp);
        i += n;
    }
    fputc('"', f);
}
