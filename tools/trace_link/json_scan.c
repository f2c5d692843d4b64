#include "trace_link/json_scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void js_init(json_scan *s, const char *buf, size_t len, const char *path, tl_diag *d)
{
    s->buf = buf;
    s->len = len;
    s->pos = 0;
    s->path = path;
    s->diag = d;
}

int js_fail_at(json_scan *s, size_t at, const char *what)
{
    size_t line, col;
    json_lex_line_col(s->buf, s->len, at, &line, &col);
    /* A truncated file is the most common cause: say so. */
    const char *eof = at >= s->len && strncmp(what, "unexpected end", 14) != 0 ? "unexpected end of input, " : "";
    return tl_fail(s->diag, "%s: malformed JSON at line %zu, column %zu: %s%s", s->path, line, col, eof, what);
}

/* The message for a string the lexer refused: at the opening quote when it
 * never ends, else at the offending byte or escape. */
static int string_error(json_scan *s, enum json_lex_error e, const json_lex_str *r)
{
    switch (e) {
    case JSON_LEX_UNTERMINATED: return js_fail_at(s, s->pos, "unterminated string");
    case JSON_LEX_CONTROL: return js_fail_at(s, r->at, "control character in string");
    case JSON_LEX_BAD_HEX: return js_fail_at(s, r->at, "invalid \\u escape in string");
    case JSON_LEX_BAD_UTF8: return js_fail_at(s, r->at, "invalid UTF-8 in string");
    default: return js_fail_at(s, r->at, "invalid escape in string");
    }
}

int js_string(json_scan *s, tl_span *content)
{
    if (js_peek(s) != '"')
        return js_fail_at(s, s->pos, "expected a string");
    size_t start = s->pos + 1;
    json_lex_str r;
    /* Code units: keys are compared escape by escape (js_span_equals), and
     * the reference decodes its input as strict UTF-8. */
    enum json_lex_error e = json_lex_string(s->buf, s->len, start, JSON_LEX_UNITS, &r);
    if (e != JSON_LEX_OK)
        return string_error(s, e, &r);
    content->off = start;
    content->len = r.end - start;
    s->pos = r.end + 1;
    return 0;
}

static bool literal_at(const json_scan *s, const char *word)
{
    return json_lex_word(s->buf, s->len, s->pos, word) == strlen(word);
}

int js_number(json_scan *s, tl_span *literal)
{
    js_peek(s);
    json_lex_num n;
    enum json_lex_error e = json_lex_number(s->buf, s->len, s->pos, true, &n);
    /* A digit after a finite literal is a leading zero ("01"): json.load
     * refuses it too. */
    if (e != JSON_LEX_OK || (n.special == JSON_LEX_FINITE && s->buf[n.end] >= '0' && s->buf[n.end] <= '9'))
        return js_fail_at(s, s->pos, "invalid number");
    literal->off = s->pos;
    literal->len = n.end - s->pos;
    s->pos = n.end;
    return 0;
}

/* Reads one scalar (string, number, literal) starting at the current byte. */
static int scalar(json_scan *s, int c)
{
    tl_span ignored;
    if (c == '"')
        return js_string(s, &ignored);
    if (c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I')
        return js_number(s, &ignored);
    static const char *const words[] = {"true", "false", "null"};
    for (size_t i = 0; i < 3; i++)
        if (literal_at(s, words[i])) {
            s->pos += strlen(words[i]);
            return 0;
        }
    if (c < 0)
        return js_fail_at(s, s->pos, "unexpected end of input, expected a value");
    return js_fail_at(s, s->pos, "expected a value");
}

/* The container stack of js_skip_value: a small inline array, spilling to
 * the heap for deep values. */
typedef struct nest_stack {
    char local[256];
    char *items;
    size_t depth, cap;
} nest_stack;

static int nest_push(json_scan *s, nest_stack *st, char close)
{
    if (st->depth == st->cap) {
        if (st->depth >= JSON_MAX_DEPTH)
            return js_fail_at(s, s->pos, "nesting deeper than 100000 levels");
        size_t ncap = st->cap * 2;
        char *n = st->items == st->local ? malloc(ncap) : realloc(st->items, ncap);
        if (!n)
            return tl_fail(s->diag, "%s: out of memory", s->path);
        if (st->items == st->local)
            memcpy(n, st->local, st->depth);
        st->items = n;
        st->cap = ncap;
    }
    st->items[st->depth++] = close;
    return 0;
}

/* After '{' (and whitespace): reads `"key" :`. */
static int member_key(json_scan *s)
{
    tl_span key;
    if (js_peek(s) != '"')
        return js_fail_at(s, s->pos, "expected a string key");
    if (js_string(s, &key) != 0)
        return -1;
    if (js_peek(s) != ':')
        return js_fail_at(s, s->pos, "expected ':' after an object key");
    s->pos++;
    return 0;
}

static int skip_loop(json_scan *s, nest_stack *st)
{
    for (;;) {
        /* Expecting a value. */
        int c = js_peek(s);
        if (c == '{' || c == '[') {
            char close = c == '{' ? '}' : ']';
            s->pos++;
            if (js_peek(s) == close) {
                s->pos++;
            } else {
                if (nest_push(s, st, close) != 0)
                    return -1;
                if (close == '}' && member_key(s) != 0)
                    return -1;
                continue;
            }
        } else if (scalar(s, c) != 0) {
            return -1;
        }
        /* After a value: close containers or move to the next member. */
        for (;;) {
            if (st->depth == 0)
                return 0;
            char close = st->items[st->depth - 1];
            c = js_peek(s);
            if (c == close) {
                s->pos++;
                st->depth--;
                continue;
            }
            if (c != ',')
                return js_fail_at(s, s->pos, close == '}' ? "expected ',' or '}' after an object member"
                                                          : "expected ',' or ']' after an array element");
            s->pos++;
            if (close == '}' && member_key(s) != 0)
                return -1;
            break;
        }
    }
}

int js_skip_value(json_scan *s, tl_span *span)
{
    nest_stack st;
    st.items = st.local;
    st.depth = 0;
    st.cap = sizeof st.local;
    js_peek(s);
    size_t start = s->pos;
    int rc = skip_loop(s, &st);
    if (st.items != st.local)
        free(st.items);
    if (rc == 0 && span) {
        span->off = start;
        span->len = s->pos - start;
    }
    return rc;
}

/* Past the opening bracket `open` of an array or object (`expected` says
 * what it should have been otherwise). */
static int container_begin(json_scan *s, js_iter *it, char open, const char *expected)
{
    if (js_peek(s) != open)
        return js_fail_at(s, s->pos, expected);
    s->pos++;
    it->first = true;
    return 0;
}

/* Before the next element of an array or object: 0 past its closing
 * bracket `close`, 1 when an element follows (past the comma before it,
 * if any), -1 on anything else (`expected` says what should have come). */
static int container_next(json_scan *s, js_iter *it, char close, const char *expected)
{
    int c = js_peek(s);
    if (c == close) {
        s->pos++;
        return 0;
    }
    if (!it->first) {
        if (c != ',')
            return js_fail_at(s, s->pos, expected);
        s->pos++;
        js_peek(s);
    }
    it->first = false;
    return 1;
}

int js_object_begin(json_scan *s, js_iter *it)
{
    return container_begin(s, it, '{', "expected an object");
}

int js_object_next(json_scan *s, js_iter *it, tl_span *key)
{
    int r = container_next(s, it, '}', "expected ',' or '}' after an object member");
    if (r != 1)
        return r;
    if (js_peek(s) != '"')
        return js_fail_at(s, s->pos, "expected a string key");
    if (js_string(s, key) != 0)
        return -1;
    if (js_peek(s) != ':')
        return js_fail_at(s, s->pos, "expected ':' after an object key");
    s->pos++;
    js_peek(s);
    return 1;
}

int js_array_begin(json_scan *s, js_iter *it)
{
    return container_begin(s, it, '[', "expected an array");
}

int js_object_or_skip(json_scan *s, js_iter *it)
{
    if (js_peek(s) != '{')
        return js_skip_value(s, NULL);
    return js_object_begin(s, it) == 0 ? 1 : -1;
}

int js_array_or_skip(json_scan *s, js_iter *it)
{
    if (js_peek(s) != '[')
        return js_skip_value(s, NULL);
    return js_array_begin(s, it) == 0 ? 1 : -1;
}

int js_enter(json_scan *s, js_iter *it, char open, const char *what, ...)
{
    if (js_peek(s) == open)
        return open == '[' ? js_array_begin(s, it) : js_object_begin(s, it);
    if (js_skip_value(s, NULL) != 0)
        return -1;
    char text[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(text, sizeof text, what, ap);
    va_end(ap);
    return tl_fail(s->diag, "%s: %s is not %s", s->path, text, open == '[' ? "an array" : "an object");
}

int js_array_next(json_scan *s, js_iter *it)
{
    return container_next(s, it, ']', "expected ',' or ']' after an array element");
}

int js_finish(json_scan *s)
{
    if (js_peek(s) != -1)
        return js_fail_at(s, s->pos, "unexpected data after the JSON value");
    return 0;
}

bool js_span_equals_escaped(const char *buf, tl_span span, const char *text)
{
    size_t n = strlen(text), p = span.off, end = span.off + span.len, i = 0;
    while (p < end) {
        if (i == n || json_lex_unit(buf, &p) != (unsigned char)text[i])
            return false;
        i++;
    }
    return i == n;
}

bool js_spans_equal(const char *a, tl_span sa, const char *b, tl_span sb)
{
    if (sa.len == sb.len && memcmp(a + sa.off, b + sb.off, sa.len) == 0)
        return true;
    if (!memchr(a + sa.off, '\\', sa.len) && !memchr(b + sb.off, '\\', sb.len))
        return false;
    size_t p = sa.off, q = sb.off, pend = sa.off + sa.len, qend = sb.off + sb.len;
    while (p < pend && q < qend)
        if (json_lex_unit(a, &p) != json_lex_unit(b, &q))
            return false;
    return p == pend && q == qend;
}

bool js_span_is_null(const char *buf, tl_span span)
{
    return span.len == 4 && memcmp(buf + span.off, "null", 4) == 0;
}

int js_read_pynum(json_scan *s, pynum *out)
{
    int c = js_peek(s);
    if (!(c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I'))
        return js_skip_value(s, NULL) != 0 ? JS_NUM_MALFORMED : JS_NUM_NOT_NUMBER;
    tl_span lit;
    if (js_number(s, &lit) != 0)
        return JS_NUM_MALFORMED;
    if (pynum_parse(s->buf + lit.off, lit.len, out) != 0)
        return JS_NUM_RANGE;
    return JS_NUM_OK;
}

int js_read_int64(json_scan *s, int64_t *out)
{
    pynum n;
    int st = js_read_pynum(s, &n);
    if (st != JS_NUM_OK)
        return st;
    if (n.is_float)
        return JS_NUM_NOT_INT;
    *out = n.v.i;
    return JS_NUM_OK;
}

const char *js_num_problem(int status)
{
    switch (status) {
    case JS_NUM_NOT_NUMBER: return "is not a number";
    case JS_NUM_RANGE: return "is an integer outside the 64-bit range";
    case JS_NUM_NOT_INT: return "is not an integer";
    default: return "is malformed";
    }
}
