#include "common/pyjson_string.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/json_escape.h"
#include "util/utf8.h"

void pyjson_write_to_file(void *out, const char *bytes, size_t len)
{
    fwrite(bytes, 1, len, (FILE *)out);
}

/* The literal is gathered in a small buffer, so that a short string, the
 * usual case, reaches `write` in one piece; long plain runs go straight
 * through. */
typedef struct emitter {
    pyjson_write_fn *write;
    void *out;
    size_t n;
    char buf[256];
} emitter;

static void flush(emitter *e)
{
    if (e->n > 0)
        e->write(e->out, e->buf, e->n);
    e->n = 0;
}

static void put(emitter *e, const char *p, size_t n)
{
    if (n > sizeof e->buf - e->n) {
        flush(e);
        if (n > sizeof e->buf) {
            e->write(e->out, p, n);
            return;
        }
    }
    memcpy(e->buf + e->n, p, n);
    e->n += n;
}

/* Printable ASCII other than '"' and '\\' is written as it is. */
static bool is_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* One UTF-16 code unit (a BMP character or half a surrogate pair). */
static void put_unit(emitter *e, uint32_t unit)
{
    static const char hex[] = "0123456789abcdef";
    char esc[6] = {'\\', 'u', hex[(unit >> 12) & 15], hex[(unit >> 8) & 15], hex[(unit >> 4) & 15], hex[unit & 15]};
    switch (unit) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\n': esc[1] = 'n'; break;
    case '\r': esc[1] = 'r'; break;
    case '\t': esc[1] = 't'; break;
    case '\b': esc[1] = 'b'; break;
    case '\f': esc[1] = 'f'; break;
    default:
        if (unit < 0x80 && is_plain((unsigned char)unit)) {
            char c = (char)unit;
            put(e, &c, 1);
        } else {
            put(e, esc, 6);
        }
        return;
    }
    put(e, esc, 2);
}

static void put_code_point(emitter *e, uint32_t cp)
{
    if (cp < 0x10000) {
        put_unit(e, cp);
        return;
    }
    cp -= 0x10000;
    put_unit(e, 0xd800u | (cp >> 10));
    put_unit(e, 0xdc00u | (cp & 0x3ffu));
}

/* The (validated) escape sequence at p; returns its length. Each \uXXXX
 * is one UTF-16 unit, written again as it is: half of a pair stays half. */
static size_t put_escape(emitter *e, const char *p)
{
    if (p[1] == 'u') {
        put_unit(e, (uint32_t)json_hex4(p + 2));
        return 6;
    }
    put_unit(e, (uint32_t)json_simple_escape(p[1]));
    return 2;
}

void pyjson_write_string(pyjson_write_fn *write, void *out, const char *text, size_t len, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)text;
    emitter e = {.write = write, .out = out};
    put(&e, "\"", 1);
    for (size_t i = 0; i < len;) {
        size_t run = i;
        while (run < len && is_plain(u[run]))
            run++;
        put(&e, text + i, run - i);
        if (run == len)
            break;
        i = run;
        if (u[i] == '\\' && (flags & PYJSON_ESCAPED_INPUT)) {
            i += put_escape(&e, text + i);
            continue;
        }
        uint32_t cp;
        size_t n = utf8_decode(u + i, len - i, &cp);
        if (n == 0) {
            put_unit(&e, flags & PYJSON_SURROGATEESCAPE ? 0xdc00u | u[i] : 0xfffdu);
            n = 1;
        } else {
            put_code_point(&e, cp);
        }
        i += n;
    }
    put(&e, "\"", 1);
    flush(&e);
}
