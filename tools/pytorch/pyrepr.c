#include "pytorch/pyrepr.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/pyfloat.h"
#include "util/utf8.h"
#include "pytorch/unicode_printable.h"

static const char hexdigits[] = "0123456789abcdef";

/* ---- strings ------------------------------------------------------------ */

/* Decodes one UTF-8 sequence at s[*i] and advances *i. Input is validated
 * when the file is loaded; a stray invalid byte decodes as itself with
 * *invalid set, so the caller can still write something deterministic. */
static uint32_t next_code_point(const unsigned char *s, size_t len, size_t *i, bool *invalid)
{
    uint32_t cp;
    size_t n = utf8_decode(s + *i, len - *i, &cp);
    *invalid = n == 0;
    if (*invalid) {
        cp = s[*i];
        n = 1;
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

void pt_pyrepr_double(pt_strbuf *sb, double d)
{
    char text[PYFLOAT_MAX];
    pt_sb_put(sb, text, pyfloat_repr(d, text));
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
