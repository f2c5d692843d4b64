/*
 * json_scan.h - a small validating JSON reader over an in-memory buffer.
 *
 * It never builds a document: callers walk objects and arrays member by
 * member, read the few scalars they need and skip (while validating) the
 * rest, keeping byte spans of the values they will re-emit unchanged. This
 * keeps memory at the size of the input plus a few words per record, where a
 * DOM (json-c) would need several times the input size for a 1 GB trace.
 * Skipping is iterative, so deeply nested input cannot overflow the stack.
 *
 * Errors read "PATH: malformed JSON at line L, column C: what" (column in
 * bytes, both 1-based), matching what a user sees in an editor.
 */
#ifndef VIMANA_TRACE_LINK_JSON_SCAN_H
#define VIMANA_TRACE_LINK_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/json_lex.h"
#include "trace_link/diag.h"
#include "trace_link/pynum.h"

/* A range of bytes in the scanned buffer. For strings it covers the
 * content between the quotes, escapes still encoded. */
typedef struct tl_span {
    size_t off;
    size_t len;
} tl_span;

typedef struct json_scan {
    const char *buf;    /* NUL-terminated at buf[len] */
    size_t len;
    size_t pos;
    const char *path;   /* named in error messages */
    tl_diag *diag;
} json_scan;

/* Deepest nesting accepted (json.load itself stops near its recursion
 * limit); deeper input is reported as malformed. */
#define JSON_MAX_DEPTH 100000

typedef struct js_iter {
    bool first;
} js_iter;

void js_init(json_scan *s, const char *buf, size_t len, const char *path, tl_diag *d);

/* Stores the malformed-JSON error for byte offset `at`; returns -1. */
int js_fail_at(json_scan *s, size_t at, const char *what);

/* Skips whitespace and returns the next byte, or -1 at the end. Inline:
 * it runs before every token. */
static inline int js_peek(json_scan *s)
{
    size_t p = json_lex_skip_ws(s->buf, s->len, s->pos);
    s->pos = p;
    return p < s->len ? (unsigned char)s->buf[p] : -1;
}

/* Reads (and validates) one value of any kind; its span includes quotes
 * and brackets. */
int js_skip_value(json_scan *s, tl_span *span);
/* Reads a string; `content` excludes the quotes. Fails on a non-string. */
int js_string(json_scan *s, tl_span *content);
/* Reads a number literal (or NaN/Infinity/-Infinity). */
int js_number(json_scan *s, tl_span *literal);

/* Object walk: after js_object_begin, each js_object_next returns 1 with
 * the key's content span and the position at the value (which the caller
 * must consume), 0 after the closing brace, -1 on error. */
int js_object_begin(json_scan *s, js_iter *it);
int js_object_next(json_scan *s, js_iter *it, tl_span *key);
/* Array walk: js_array_next returns 1 when an element follows. */
int js_array_begin(json_scan *s, js_iter *it);
int js_array_next(json_scan *s, js_iter *it);
/* For a member that is read only when it is an object (an array): begins
 * it as js_object_begin (js_array_begin) does and returns 1, or skips a
 * value of any other kind and returns 0; -1 on error. */
int js_object_or_skip(json_scan *s, js_iter *it);
int js_array_or_skip(json_scan *s, js_iter *it);

/* Only whitespace may follow the top-level value. */
int js_finish(json_scan *s);

/* Begins the array or object that the schema requires next (`open` '['
 * or '{'), as js_array_begin or js_object_begin does. When the next value
 * is of another kind, reads past it (so a syntax error inside is the one
 * reported) and fails with "PATH: WHAT is not an array" (or "an object"),
 * WHAT formatted from `what` and the arguments. */
int js_enter(json_scan *s, js_iter *it, char open, const char *what, ...) __attribute__((format(printf, 4, 5)));

/* Slow path of js_span_equals: the content has escapes. */
bool js_span_equals_escaped(const char *buf, tl_span span, const char *text);

/* Does the string content `span` (escapes allowed) equal `text`? Inline so
 * that comparisons with literals (the hot path of key matching) reduce to a
 * length test and a memcmp. */
static inline bool js_span_equals(const char *buf, tl_span span, const char *text)
{
    size_t n = strlen(text);
    if (span.len == n && memcmp(buf + span.off, text, n) == 0)
        return true;
    return span.len > n && memchr(buf + span.off, '\\', span.len) && js_span_equals_escaped(buf, span, text);
}
/* Do two string contents (in possibly different buffers) decode to the same
 * text? */
bool js_spans_equal(const char *a, tl_span sa, const char *b, tl_span sb);
/* Is the value at `span` the literal null? */
bool js_span_is_null(const char *buf, tl_span span);

/* Number reads: JS_NUM_OK, or why the value is unusable. On
 * JS_NUM_MALFORMED the diagnostic holds the JSON error; otherwise the value
 * has been consumed and the caller names the field in its own message. */
enum { JS_NUM_OK = 0, JS_NUM_MALFORMED = -1, JS_NUM_NOT_NUMBER = -2, JS_NUM_RANGE = -3, JS_NUM_NOT_INT = -4 };
int js_read_pynum(json_scan *s, pynum *out);
/* An integer (no fraction or exponent) within int64. */
int js_read_int64(json_scan *s, int64_t *out);
/* "is not a number", "is not an integer", ... for a status above. */
const char *js_num_problem(int status);


#endif
