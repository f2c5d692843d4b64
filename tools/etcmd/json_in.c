#include "etcmd/json_in.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/json_lex.h"
#include "util/grow.h"

#define IN_BUF (64u * 1024u)
/* Deeper nesting than any ET needs; the limit keeps the recursive value
 * parser's stack use bounded on hostile input. */
#define MAX_DEPTH 64
/* Numbers keep their text in a buffer of this size (NUL included). */
#define NUMBER_TEXT 64

struct json_in {
    gzFile gz;
    /* The window of input held: buf[pos, end) is still to read and
     * buf[end] is '\0', json_lex's sentinel. It holds IN_BUF bytes, more
     * only while a longer string is read (a token is lexed whole), so
     * memory stays bounded by the largest value. */
    char *buf;
    size_t cap, pos, end;
    bool eof;
    size_t line, col; /* of buf[pos] */
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
    char *buf = malloc(IN_BUF + 1);
    if (!in || !buf) {
        free(in);
        free(buf);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    errno = 0;
    in->gz = strcmp(path, "-") == 0 ? gzdopen(0, "rb") : gzopen(path, "rb");
    if (!in->gz) {
        snprintf(err, errlen, "cannot open: %s", errno ? strerror(errno) : "out of memory");
        free(buf);
        free(in);
        return NULL;
    }
    in->buf = buf;
    in->buf[0] = '\0';
    in->cap = IN_BUF;
    in->line = 1;
    in->col = 1;
    return in;
}

void json_in_close(json_in *in)
{
    if (!in)
        return;
    gzclose(in->gz);
    free(in->buf);
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
    int n = snprintf(in->err, sizeof in->err, "line %zu, column %zu: ", in->line, in->col);
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

/* Consumes n bytes of the window, keeping line and column. */
static void consume(json_in *in, size_t n)
{
    json_lex_advance(in->buf + in->pos, n, &in->line, &in->col);
    in->pos += n;
}

/* Reads until the window holds `need` bytes, the input ends or fails. */
static void fill(json_in *in, size_t need)
{
    while (in->end - in->pos < need && !in->eof && !in->failed) {
        memmove(in->buf, in->buf + in->pos, in->end - in->pos);
        in->end -= in->pos;
        in->pos = 0;
        if (in->end == in->cap) {
            char *nb = in->cap < SIZE_MAX / 4 ? realloc(in->buf, in->cap * 2 + 1) : NULL;
            if (!nb) {
                json_in_fail(in, "out of memory");
                return;
            }
            in->buf = nb;
            in->cap *= 2;
        }
        size_t room = in->cap - in->end;
        int got = gzread(in->gz, in->buf + in->end, room < INT_MAX ? (unsigned)room : INT_MAX);
        if (got < 0) {
            int zerr;
            /* Reported where the good bytes end, as one byte at a time would. */
            consume(in, in->end - in->pos);
            json_in_fail(in, "read error: %s", gzerror(in->gz, &zerr));
            return;
        }
        in->eof = got == 0;
        in->end += (size_t)got;
        in->buf[in->end] = '\0';
    }
}

/* Next byte without consuming it; -1 at end of input or after a failure. */
static int peekc(json_in *in)
{
    if (in->pos == in->end)
        fill(in, 1);
    return in->pos < in->end ? (unsigned char)in->buf[in->pos] : -1;
}

static void skip_ws(json_in *in)
{
    while (peekc(in) >= 0) {
        size_t p = json_lex_skip_ws(in->buf, in->end, in->pos);
        consume(in, p - in->pos);
        if (p < in->end)
            return;
    }
}

/* Whether a token lexed in the window that the window's end cut short
 * (it stopped at `stop` == end) may go on in the input: then the window
 * grows by half again its content and the token is lexed anew, which
 * keeps the rescans linear in the token's length. */
static bool read_more(json_in *in, size_t stop)
{
    if (stop < in->end || in->eof || in->failed)
        return false;
    size_t have = in->end - in->pos;
    fill(in, have + have / 2 + 1);
    return !in->failed;
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
    consume(in, 1);
    return true;
}

/* ---- strings ------------------------------------------------------------ */

/* Fails for a string the lexer refused, with the position after the bytes
 * that decided it: the message reads as if they were read one by one. */
static bool string_error(json_in *in, enum json_lex_error e, const json_lex_str *r)
{
    size_t upto = r->stop < in->end ? r->stop + 1 : in->end;
    int stop_byte = r->stop < in->end ? (unsigned char)in->buf[r->stop] : -1;
    unsigned char at_byte = (unsigned char)in->buf[r->at];
    consume(in, upto - in->pos);
    char d[32];
    switch (e) {
    case JSON_LEX_CONTROL:
        json_in_fail(in, "control character 0x%02x inside a string", (unsigned)at_byte);
        break;
    case JSON_LEX_BAD_ESCAPE:
        describe(stop_byte, d, sizeof d);
        json_in_fail(in, "bad escape \\%s in a string", d);
        break;
    case JSON_LEX_BAD_HEX: json_in_fail(in, "bad \\u escape: expected 4 hex digits"); break;
    case JSON_LEX_LONE_SURROGATE:
        if (r->unit < 0xdc00)
            json_in_fail(in, "high surrogate \\u%04x not followed by a low surrogate", (unsigned)r->unit);
        else
            json_in_fail(in, "lone low surrogate \\u%04x", (unsigned)r->unit);
        break;
    default: json_in_fail(in, "unterminated string"); break;
    }
    return false;
}

/* Decodes a string (after its opening quote) into in->sbuf, in json_out's
 * form: raw bytes as they are, \udc80..\udcff for the bytes 0x80..0xff. */
static bool string_body(json_in *in)
{
    json_lex_str r;
    enum json_lex_error e;
    do
        e = json_lex_string(in->buf, in->end, in->pos, JSON_LEX_BYTES, &r);
    while (e != JSON_LEX_OK && read_more(in, r.stop));
    if (in->failed)
        return false;
    if (e != JSON_LEX_OK)
        return string_error(in, e, &r);
    size_t n = r.end - in->pos;
    if (grow_array((void **)&in->sbuf, &in->scap, n + 1, 1, 256) != 0) {
        json_in_fail(in, "out of memory");
        return false;
    }
    const char *content = in->buf + in->pos;
    if (r.escaped) {
        in->slen = json_lex_decode(content, n, in->sbuf, JSON_LEX_BYTES);
    } else {
        memcpy(in->sbuf, content, n);
        in->slen = n;
    }
    in->sbuf[in->slen] = '\0';
    consume(in, n + 1);
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

/* Reads a number in strict JSON syntax, keeping its text. */
static bool number(json_in *in, jv *out, arena *a)
{
    json_lex_num n;
    enum json_lex_error e;
    size_t reach;
    do {
        e = json_lex_number(in->buf, in->end, in->pos, false, &n);
        reach = e == JSON_LEX_OK ? n.end : n.at;
    } while (reach - in->pos < NUMBER_TEXT && read_more(in, reach));
    if (in->failed)
        return false;
    /* One byte at a time, the text buffer ran out before the grammar did. */
    if (reach - in->pos >= NUMBER_TEXT) {
        consume(in, NUMBER_TEXT - 1);
        json_in_fail(in, "number longer than 63 characters");
        return false;
    }
    if (e != JSON_LEX_OK) {
        consume(in, n.at - in->pos);
        json_in_fail(in, e == JSON_LEX_NO_FRACTION_DIGIT   ? "expected a digit after '.'"
                         : e == JSON_LEX_NO_EXPONENT_DIGIT ? "expected a digit in the exponent"
                                                           : "expected a digit");
        return false;
    }
    out->kind = JV_NUMBER;
    out->len = n.end - in->pos;
    out->u.text = arena_copy(in, a, in->buf + in->pos, out->len);
    consume(in, out->len);
    return out->u.text != NULL;
}

static bool literal(json_in *in, const char *word)
{
    size_t len = strlen(word), m;
    while ((m = json_lex_word(in->buf, in->end, in->pos, word)) < len && read_more(in, in->pos + m))
        ;
    if (in->failed)
        return false;
    if (m == len) {
        consume(in, len);
        return true;
    }
    /* The wrong byte was read too (none at the end of the input). */
    consume(in, in->pos + m < in->end ? m + 1 : m);
    json_in_fail(in, "invalid literal (expected %s)", word);
    return false;
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

/* A finished array's or object's elements: the n of `size` bytes stacked
 * from index `first` of `stack`, copied into the arena where the value
 * keeps them (*out NULL for none). False, the run failed, when out of
 * memory. */
static bool arena_keep(json_in *in, arena *a, const void *stack, size_t first, size_t n, size_t size, void **out)
{
    *out = NULL;
    if (n == 0)
        return true;
    if (!(*out = arena_alloc(a, n * size))) {
        json_in_fail(in, "out of memory");
        return false;
    }
    memcpy(*out, (const char *)stack + first * size, n * size);
    return true;
}

/* The elements of an array or an object after its opening bracket, up to
 * and with `close`: none, or one() for each, with commas between. */
static bool elements(json_in *in, arena *a, int depth, char close, const char *expected,
                     bool (*one)(json_in *in, arena *a, int depth))
{
    if (json_in_peek(in) == close) {
        consume(in, 1);
        return true;
    }
    for (;;) {
        if (!one(in, a, depth))
            return false;
        if (json_in_peek(in) != ',')
            return json_in_expect(in, close, expected);
        consume(in, 1);
    }
}

static bool array_item(json_in *in, arena *a, int depth)
{
    jv item;
    return value(in, &item, a, depth + 1) && push_item(in, &item);
}

static bool object_member(json_in *in, arena *a, int depth)
{
    if (!json_in_expect(in, '"', "'\"' (an object key)") || !string_body(in))
        return false;
    size_t key_len = in->slen;
    char *key = arena_copy(in, a, in->sbuf, key_len);
    jv v;
    return key && json_in_expect(in, ':', "':' after an object key") && value(in, &v, a, depth + 1) &&
           push_member(in, key, key_len, &v);
}

static bool array(json_in *in, jv *out, arena *a, int depth)
{
    size_t base = in->nitems;
    consume(in, 1); /* '[' */
    if (!elements(in, a, depth, ']', "',' or ']' in an array", array_item))
        return false;
    size_t n = in->nitems - base;
    void *items;
    if (!arena_keep(in, a, in->items, base, n, sizeof *in->items, &items))
        return false;
    in->nitems = base;
    out->kind = JV_ARRAY;
    out->len = n;
    out->u.items = items;
    return true;
}

static bool object(json_in *in, jv *out, arena *a, int depth)
{
    size_t base = in->nmembers;
    consume(in, 1); /* '{' */
    if (!elements(in, a, depth, '}', "',' or '}' in an object", object_member))
        return false;
    size_t n = in->nmembers - base;
    void *members;
    if (!arena_keep(in, a, in->members, base, n, sizeof *in->members, &members))
        return false;
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
        consume(in, 1);
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
        if (c == '-' || (c >= '0' && c <= '9'))
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
