/*
 * json_doc.c - see json_doc.h.
 *
 * json-c parses first, once. Only a document it accepted is held to the
 * rules it lacks (json_check over the text). When json-c stops on an
 * error, json_check reads the text up to that point: it reports a problem
 * that comes earlier in the file, or tells what was expected there and in
 * which key, which json-c's own texts ("unexpected character") do not.
 */
#include "util/json_doc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "util/json_check.h"
#include "util/msg_escape.h"

/* The text being parsed and where messages go. */
typedef struct {
    const char *path;
    const char *text;
    size_t len;
    char *msg;
    size_t msg_len;
} doc;

static int fail(char *msg, size_t msg_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t msg_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_at(const doc *d, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(const doc *d, size_t offset, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    size_t line, column;
    json_text_position(d->text, offset, &line, &column);
    return fail(d->msg, d->msg_len, "%s: line %zu, column %zu: %s", d->path, line, column, reason);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_blanks(const doc *d, size_t at)
{
    while (at < d->len && is_blank(d->text[at]))
        at++;
    return at;
}

static bool is_token_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '+' || c == '-';
}

/* What stands at `at`, for "got X": a word or number when one starts
 * there, else one character; "the end of the file" at the end. */
static const char *found_text(const doc *d, size_t at, char *buf, size_t len)
{
    if (at >= d->len)
        return snprintf(buf, len, "the end of the file"), buf;
    size_t rest = d->len - at, n = 0;
    while (n < rest && n < 24 && is_token_char(d->text[at + n]))
        n++;
    while (n == 0 || (n < rest && n < 4 && ((unsigned char)d->text[at + n] & 0xC0) == 0x80))
        n++; /* one character: a UTF-8 lead byte and its continuations */
    char shown[80];
    msg_escape_n(d->text + at, n, shown, sizeof shown);
    snprintf(buf, len, "'%s'", shown);
    return buf;
}

/* ---- json-c's errors ---------------------------------------------------------------- */

/* A bad escape inside a string: json-c stops just after the backslash, or
 * after the digits of a short "\u". */
static int bad_escape(const doc *d, size_t end)
{
    size_t at = end;
    while (at > 0 && end - at < 6 && d->text[at] != '\\')
        at--;
    if (d->text[at] == '\\' && at + 1 < d->len && d->text[at + 1] == 'u')
        return fail_at(d, at, "'\\u' must be followed by four hexadecimal digits");
    char shown[16];
    msg_escape_n(d->text + at + 1, at + 1 < d->len ? 1 : 0, shown, sizeof shown);
    return fail_at(d, at, "invalid escape '\\%s' in a string", shown);
}

/* json-c stopped at `at` where json_check says `r` was expected. */
static int unexpected(const doc *d, size_t at, bool bad_number, const json_check_result *r)
{
    char got[96];
    found_text(d, at, got, sizeof got);
    switch (r->want) {
    case JSON_WANT_STRING_END:
        return fail_at(d, r->offset, "unterminated string (no closing '\"')");
    case JSON_WANT_KEY:
        return fail_at(d, at, "expected a key in double quotes, got %s", got);
    case JSON_WANT_COLON:
        return fail_at(d, at, "expected ':' after key '%s', got %s", r->key, got);
    case JSON_WANT_SEPARATOR:
        if (r->in_object)
            return fail_at(d, at, "expected ',' or '}' after the value of key '%s', got %s", r->key, got);
        return fail_at(d, at, "expected ',' or ']' after an element of a list, got %s", got);
    case JSON_WANT_VALUE:
    default:
        if (bad_number)
            return fail_at(d, at, "%sinvalid number %s", r->owner, got);
        return fail_at(d, at, "%sexpected a value, got %s", r->owner, got);
    }
}

/* The message for json-c's error `e` at byte `end`. */
static int syntax_error(const doc *d, enum json_tokener_error e, size_t end)
{
    if (e == json_tokener_error_depth)
        return fail_at(d, end, "nested deeper than %d levels", JSON_DOC_MAX_DEPTH);
    if (e == json_tokener_error_parse_string)
        return bad_escape(d, end);
    /* A misspelt word or number is shown whole, from its start. */
    bool in_word = e == json_tokener_error_parse_null || e == json_tokener_error_parse_boolean ||
                   e == json_tokener_error_parse_number;
    size_t at = end < d->len ? end : d->len;
    while (in_word && at > 0 && is_token_char(d->text[at - 1]))
        at--;
    json_check_result r;
    int rc = json_check(d->text, at, &r);
    if (rc < 0)
        return fail(d->msg, d->msg_len, "%s: out of memory", d->path);
    if (rc > 0)
        return fail_at(d, r.offset, "%s", r.reason);
    return unexpected(d, at, e == json_tokener_error_parse_number, &r);
}

/* ---- one document ----------------------------------------------------------------- */

/* json-c's tree of text[start, len), or NULL with the message written. */
static json_object *parse_tree(const doc *d, size_t start, size_t *end)
{
    json_tokener *tok = json_tokener_new_ex(JSON_DOC_MAX_DEPTH);
    if (!tok) {
        fail(d->msg, d->msg_len, "%s: out of memory", d->path);
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
    json_object *root = json_tokener_parse_ex(tok, d->text + start, (int)(d->len - start));
    enum json_tokener_error e = json_tokener_get_error(tok);
    *end = start + json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (root && e == json_tokener_success)
        return root;
    json_object_put(root);
    syntax_error(d, e, *end);
    return NULL;
}

/* Nothing but blanks after the document, and json_check's rules. */
static int check_accepted(const doc *d, json_object *root, size_t end)
{
    size_t after = skip_blanks(d, end);
    if (after < d->len) {
        char shown[64];
        size_t n = d->len - after < 24 ? d->len - after : 24;
        msg_escape_n(d->text + after, n, shown, sizeof shown);
        return fail_at(d, after, "unexpected text after the end of the JSON %s: '%s%s'",
                       json_object_is_type(root, json_type_object) ? "object" : "document", shown,
                       d->len - after > n ? "..." : "");
    }
    json_check_result r;
    int rc = json_check(d->text, end, &r);
    if (rc < 0)
        return fail(d->msg, d->msg_len, "%s: out of memory", d->path);
    return rc > 0 ? fail_at(d, r.offset, "%s", r.reason) : 0;
}

int json_doc_parse(const char *path, const char *text, size_t len, unsigned flags, json_object **root, char *msg,
                   size_t msg_len)
{
    *root = NULL;
    if (len > INT32_MAX)
        return fail(msg, msg_len, "%s: larger than 2 GiB, not a JSON document this tool reads", path);
    doc d = {.path = path, .text = text, .len = len, .msg = msg, .msg_len = msg_len};
    /* A UTF-8 byte-order mark, as some editors write, is not content. */
    size_t start = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    size_t first = skip_blanks(&d, start);
    if ((flags & JSON_DOC_OBJECT) && (first >= len || text[first] != '{')) {
        char got[96];
        return fail_at(&d, first, "expected a JSON object ('{'), got %s", found_text(&d, first, got, sizeof got));
    }
    size_t end;
    json_object *doc_root = parse_tree(&d, start, &end);
    if (!doc_root)
        return -1;
    if (check_accepted(&d, doc_root, end) != 0) {
        json_object_put(doc_root);
        return -1;
    }
    *root = doc_root;
    return 0;
}

int json_doc_load(const char *path, const char *shown, size_t max_bytes, const char *too_big, unsigned flags,
                  json_object **root, char *msg, size_t msg_len)
{
    *root = NULL;
    FILE *f = input_file_open(path, shown, "rb", msg, msg_len);
    if (!f)
        return -1;
    size_t n = 0;
    /* one byte past the limit tells a file that is larger */
    char *text = input_file_read(f, max_bytes + 1, &n);
    if (!text) {
        fclose(f);
        return fail(msg, msg_len, "%s: out of memory", shown);
    }
    int bad = ferror(f);
    fclose(f);
    int rc = bad ? fail(msg, msg_len, "%s: read failed", shown)
             : n > max_bytes ? fail(msg, msg_len, "%s: larger than %s", shown, too_big)
                             : json_doc_parse(shown, text, n, flags, root, msg, msg_len);
    free(text);
    return rc;
}
