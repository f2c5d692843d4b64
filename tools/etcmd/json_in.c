#include "etcmd/json_in.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/json_escape.h"
#include "util/utf8.h"
#include "util/grow.h"

#define IN_BUF (64u * 1024u)
/* Deeper nesting than any ET needs; the limit keeps the recursive value
 * parser's stack use bounded on hostile input. */
#define MAX_DEPTH 64

struct json_in {
    gzFile gz;
    unsigned char buf[IN_BUF];
    size_t pos, end;
    bool eof;
    unsigned long line, col;
    char err[400];
    bool failed;
    /* Scratch space reused by every parse: decoded string bytes, and the
     * items/members of the containers being built (a stack shared by all
     * nesting levels; each level copies its slice into the arena when it
     * closes). */
    char *sbuf;
    size_t slen, scap;
    jv *items;
    size_t nitems, citems;
    jmember *members;
    size_t nmembers, cmembers;
};

json_in *json_in_open(const char *path, char *err, size_t errlen)
{
    json_in *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    errno = 0;
    in->gz = strcmp(path, "-") == 0 ? gzdopen(0, "rb") : gzopen(path, "rb");
    if (!in->gz) {
        snprintf(err, errlen, "cannot open: %s", errno ? strerror(errno) : "out of memory");
        free(in);
        return NULL;
    }
    in->line = 1;
    in->col = 1;
    return in;
}

void json_in_close(json_in *in)
{
    if (!in)
        return;
    gzclose(in->gz);
    free(in->sbuf);
    free(in->items);
    free(in->members);
    free(in);
}

void json_in_fail(json_in *in, const char *fmt, ...)
{
    if (in->failed)
        return;
    in->failed = true;
    int n = snprintf(in->err, sizeof in->err, "line %lu, column %lu: ", in->line, in->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->err + n, sizeof in->err - (size_t)n, fmt, ap);
    va_end(ap);
}

bool json_in_failed(const json_in *in)
{
    return in->failed;
}

const char *json_in_error(const json_in *in)
{
    return in->err;
}

/* Next byte without consuming it; -1 at end of input or after a failure. */
static int peekc(json_in *in)
{
    if (in->pos == in->end) {
        if (in->eof || in->failed)
            return -1;
        int got = gzread(in->gz, in->buf, IN_BUF);
        if (got < 0) {
            int zerr;
            json_in_fail(in, "read error: %s", gzerror(in->gz, &zerr));
            return -1;
        }
        if (got == 0) {
            in->eof = true;
            return -1;
        }
        in->pos = 0;
        in->end = (size_t)got;
    }
    return in->buf[in->pos];
}

static int getc_(json_in *in)
{
    int c = peekc(in);
    if (c < 0)
        return c;
    in->pos++;
    if (c == '\n') {
        in->line++;
        in->col = 1;
    } else {
        in->col++;
    }
    return c;
}

static void skip_ws(json_in *in)
{
    for (;;) {
        int c = peekc(in);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        getc_(in);
    }
}

char json_in_peek(json_in *in)
{
    skip_ws(in);
    int c = peekc(in);
    return c < 0 ? '\0' : (char)c;
}

bool json_in_at_end(json_in *in)
{
    skip_ws(in);
    return peekc(in) < 0 && !in->failed;
}

static void describe(int c, char *buf, size_t cap)
{
    if (c < 0)
        snprintf(buf, cap, "end of input");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(buf, cap, "'%c'", c);
    else
        snprintf(buf, cap, "byte 0x%02x", (unsigned)c);
}

bool json_in_expect(json_in *in, char c, const char *what)
{
    skip_ws(in);
    int got = peekc(in);
    if (got != (unsigned char)c) {
        char d[32];
        describe(got, d, sizeof d);
        json_in_fail(in, "expected %s, found %s", what, d);
        return false;
    }
    getc_(in);
    return true;
}

/* ---- strings ------------------------------------------------------------ */

static bool sbuf_put(json_in *in, const char *p, size_t n)
{
    if (grow_array((void **)&in->sbuf, &in->scap, in->slen + n + 1, 1, 256) != 0) {
        json_in_fail(in, "out of memory");
        return false;
    }
    memcpy(in->sbuf + in->slen, p, n);
    in->slen += n;
    return true;
}

static bool put_utf8(json_in *in, uint32_t cp)
{
    char b[4];
    return sbuf_put(in, b, utf8_encode(cp, b));
}

static int read_hex4(json_in *in, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        /* One byte at a time: the message points at the first bad one. */
        int c = getc_(in);
        int d = c < 0 ? -1 : json_hex_digit((char)c);
        if (d < 0) {
            json_in_fail(in, "bad \\u escape: expected 4 hex digits");
            return -1;
        }
        v = (v << 4) | (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* After "\u": one code unit, a surrogate pair, or a lone low surrogate
 * DC80..DCFF standing for a raw byte. */
static bool unicode_escape(json_in *in)
{
    uint32_t u;
    if (read_hex4(in, &u) != 0)
        return false;
    if (json_is_high_surrogate(u)) {
        uint32_t lo;
        if (getc_(in) != '\\' || getc_(in) != 'u' || read_hex4(in, &lo) != 0 || !json_is_low_surrogate(lo)) {
            json_in_fail(in, "high surrogate \\u%04x not followed by a low surrogate", (unsigned)u);
            return false;
        }
        return put_utf8(in, json_surrogate_pair(u, lo));
    }
    if (u >= 0xdc80 && u <= 0xdcff) {
        char raw = (char)(u & 0xff);
        return sbuf_put(in, &raw, 1);
    }
    if (json_is_low_surrogate(u)) {
        json_in_fail(in, "lone low surrogate \\u%04x", (unsigned)u);
        return false;
    }
    return put_utf8(in, u);
}

/* Decodes a string (after its opening quote) into in->sbuf. */
static bool string_body(json_in *in)
{
    in->slen = 0;
    for (;;) {
        int c = getc_(in);
        if (c < 0) {
            json_in_fail(in, "unterminated string");
            return false;
        }
        if (c == '"')
            break;
        if (c < 0x20) {
            json_in_fail(in, "control character 0x%02x inside a string", (unsigned)c);
            return false;
        }
        if (c != '\\') {
            char ch = (char)c;
            if (!sbuf_put(in, &ch, 1))
                return false;
            continue;
        }
        int e = getc_(in);
        if (e == 'u') {
            if (!unicode_escape(in))
                return false;
            continue;
        }
        int simple = e < 0 ? -1 : json_simple_escape((char)e);
        if (simple < 0) {
            char d[32];
            describe(e, d, sizeof d);
            json_in_fail(in, "bad escape \\%s in a string", d);
            return false;
        }
        char ch = (char)simple;
        if (!sbuf_put(in, &ch, 1))
            return false;
    }
    char nul = '\0';
    if (!sbuf_put(in, &nul, 1))
        return false;
    in->slen--;
    return true;
}

bool json_in_key(json_in *in, char *buf, size_t cap)
{
    if (!json_in_expect(in, '"', "'\"' (an object key)"))
        return false;
    if (!string_body(in))
        return false;
    size_t n = in->slen < cap - 1 ? in->slen : cap - 1;
    memcpy(buf, in->sbuf, n);
    buf[n] = '\0';
    return json_in_expect(in, ':', "':' after an object key");
}

static char *arena_copy(json_in *in, arena *a, const char *p, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    if (!d) {
        json_in_fail(in, "out of memory");
        return NULL;
    }
    memcpy(d, p, n);
    d[n] = '\0';
    return d;
}

/* ---- numbers and literals ---------------------------------------------- */

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Reads a number in strict JSON syntax, keeping its text. */
static bool number(json_in *in, jv *out, arena *a)
{
    char text[64];
    size_t n = 0;
    int c;
#define TAKE()                                                      \
    do {                                                            \
        if (n == sizeof text - 1) {                                 \
            json_in_fail(in, "number longer than 63 characters");   \
            return false;                                           \
        }                                                           \
        text[n++] = (char)getc_(in);                                \
    } while (0)
    if (peekc(in) == '-')
        TAKE();
    c = peekc(in);
    if (c == '0') {
        TAKE();
    } else if (is_digit(c)) {
        while (is_digit(peekc(in)))
            TAKE();
    } else {
        json_in_fail(in, "expected a digit");
        return false;
    }
    if (peekc(in) == '.') {
        TAKE();
        if (!is_digit(peekc(in))) {
            json_in_fail(in, "expected a digit after '.'");
            return false;
        }
        while (is_digit(peekc(in)))
            TAKE();
    }
    c = peekc(in);
    if (c == 'e' || c == 'E') {
        TAKE();
        c = peekc(in);
        if (c == '+' || c == '-')
            TAKE();
        if (!is_digit(peekc(in))) {
            json_in_fail(in, "expected a digit in the exponent");
            return false;
        }
        while (is_digit(peekc(in)))
            TAKE();
    }
#undef TAKE
    out->kind = JV_NUMBER;
    out->len = n;
    out->u.text = arena_copy(in, a, text, n);
    return out->u.text != NULL;
}

static bool literal(json_in *in, const char *word)
{
    for (const char *p = word; *p; p++) {
        if (getc_(in) != *p) {
            json_in_fail(in, "invalid literal (expected %s)", word);
            return false;
        }
    }
    return true;
}

/* ---- containers --------------------------------------------------------- */

static bool push_item(json_in *in, const jv *v)
{
    if (grow_array((void **)&in->items, &in->citems, in->nitems + 1, sizeof *in->items, 64) != 0) {
        json_in_fail(in, "out of memory");
        return false;
    }
    in->items[in->nitems++] = *v;
    return true;
}

static bool push_member(json_in *in, const char *key, size_t key_len, const jv *v)
{
    if (grow_array((void **)&in->members, &in->cmembers, in->nmembers + 1, sizeof *in->members, 64) != 0) {
        json_in_fail(in, "out of memory");
        return false;
    }
    jmember *m = &in->members[in->nmembers++];
    m->key = key;
    m->key_len = key_len;
    m->value = *v;
    return true;
}

static bool value(json_in *in, jv *out, arena *a, int depth);

static bool array(json_in *in, jv *out, arena *a, int depth)
{
    size_t base = in->nitems;
    getc_(in); /* '[' */
    if (json_in_peek(in) == ']') {
        getc_(in);
    } else {
        for (;;) {
            jv item;
            if (!value(in, &item, a, depth + 1) || !push_item(in, &item))
                return false;
            if (json_in_peek(in) == ',') {
                getc_(in);
                continue;
            }
            if (!json_in_expect(in, ']', "',' or ']' in an array"))
                return false;
            break;
        }
    }
    size_t n = in->nitems - base;
    jv *items = NULL;
    if (n > 0 && !(items = arena_alloc(a, n * sizeof *items))) {
        json_in_fail(in, "out of memory");
        return false;
    }
    if (n > 0)
        memcpy(items, in->items + base, n * sizeof *items);
    in->nitems = base;
    out->kind = JV_ARRAY;
    out->len = n;
    out->u.items = items;
    return true;
}

static bool object(json_in *in, jv *out, arena *a, int depth)
{
    size_t base = in->nmembers;
    getc_(in); /* '{' */
    if (json_in_peek(in) == '}') {
        getc_(in);
    } else {
        for (;;) {
            if (!json_in_expect(in, '"', "'\"' (an object key)") || !string_body(in))
                return false;
            size_t key_len = in->slen;
            char *key = arena_copy(in, a, in->sbuf, key_len);
            jv v;
            if (!key || !json_in_expect(in, ':', "':' after an object key") ||
                !value(in, &v, a, depth + 1) || !push_member(in, key, key_len, &v))
                return false;
            if (json_in_peek(in) == ',') {
                getc_(in);
                continue;
            }
            if (!json_in_expect(in, '}', "',' or '}' in an object"))
                return false;
            break;
        }
    }
    size_t n = in->nmembers - base;
    jmember *members = NULL;
    if (n > 0 && !(members = arena_alloc(a, n * sizeof *members))) {
        json_in_fail(in, "out of memory");
        return false;
    }
    if (n > 0)
        memcpy(members, in->members + base, n * sizeof *members);
    in->nmembers = base;
    out->kind = JV_OBJECT;
    out->len = n;
    out->u.members = members;
    return true;
}

static bool value(json_in *in, jv *out, arena *a, int depth)
{
    memset(out, 0, sizeof *out);
    if (depth > MAX_DEPTH) {
        json_in_fail(in, "nesting deeper than %d levels", MAX_DEPTH);
        return false;
    }
    int c = (unsigned char)json_in_peek(in);
    switch (c) {
    case '{': return object(in, out, a, depth);
    case '[': return array(in, out, a, depth);
    case '"':
        getc_(in);
        if (!string_body(in))
            return false;
        out->kind = JV_STRING;
        out->len = in->slen;
        out->u.text = arena_copy(in, a, in->sbuf, in->slen);
        return out->u.text != NULL;
    case 't': out->kind = JV_BOOL; out->b = true; return literal(in, "true");
    case 'f': out->kind = JV_BOOL; out->b = false; return literal(in, "false");
    case 'n': out->kind = JV_NULL; return literal(in, "null");
    default:
        if (c == '-' || is_digit(c))
            return number(in, out, a);
        {
            char d[32];
            describe(in->failed ? -1 : peekc(in), d, sizeof d);
            json_in_fail(in, "expected a value, found %s", d);
        }
        return false;
    }
}

bool json_in_value(json_in *in, jv *out, arena *a)
{
    return value(in, out, a, 0);
}

const jv *jv_get(const jv *obj, const char *key)
{
    if (obj->kind != JV_OBJECT)
        return NULL;
    size_t len = strlen(key);
    for (size_t i = 0; i < obj->len; i++)
        if (obj->u.members[i].key_len == len && memcmp(obj->u.members[i].key, key, len) == 0)
            return &obj->u.members[i].value;
    return NULL;
}

const char *jv_kind_name(enum jv_kind kind)
{
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[kind];
}
