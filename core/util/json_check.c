/*
 * json_check.c - see json_check.h.
 *
 * The text is read as tokens without validating its structure (json-c has
 * done that): brackets open and close levels, a string is a key when an
 * object expects one, and each number, word and string is held to the
 * rules json-c lets through.
 */
#include "util/json_check.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/json_escape.h"
#include "util/msg_escape.h"
#include "util/utf8.h"

/* One key: its text between the quotes, text[start, end). */
typedef struct {
    size_t start, end;
} span;

/* One open object or list; an object's keys are keys[first_key, n_keys). */
typedef struct {
    bool object;
    size_t first_key;
    bool has_key; /* an object: `key` names the member being read */
    span key;
    long index; /* a list: the element being read */
} level;

typedef struct {
    const char *text;
    size_t len, pos;
    enum json_check_want want;
    level *levels;
    size_t depth, cap_levels;
    span *keys;
    size_t n_keys, cap_keys;
    json_check_result *r;
} checker;

/* ---- positions and names ---------------------------------------------------- */

void json_text_position(const char *text, size_t offset, size_t *line, size_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n')
            ++*line, *column = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80)
            ++*column;
    }
}

/* The character at text[*i] (end bounds the string) as a code point, and
 * *i moved past it: an escape stands for its character, so "a" and
 * "\u0061" are the same key; a byte of bad UTF-8 stands for itself, above
 * every code point. */
static uint32_t next_char(const char *text, size_t end, size_t *i)
{
    const char *p = text + *i;
    uint32_t cp;
    size_t n = p[0] == '\\' ? json_escape_decode(p, end - *i, &cp)
                            : utf8_decode((const unsigned char *)p, end - *i, &cp);
    if (n == 0) {
        n = 1;
        cp = 0x110000u + (unsigned char)p[0];
    }
    *i += n;
    return cp;
}

/* The key's characters, escaped for a one-line message, into out. */
static const char *key_text(const checker *c, span k, char *out, size_t size)
{
    char decoded[96];
    size_t n = 0;
    for (size_t i = k.start; i < k.end && n + 4 <= sizeof decoded;) {
        size_t at = i;
        uint32_t cp = next_char(c->text, k.end, &i);
        if (cp > 0x10FFFF)
            decoded[n++] = c->text[at];
        else
            n += utf8_encode(cp, decoded + n);
    }
    return msg_escape_n(decoded, n, out, size);
}

/* "key 'K': " or "key 'K'[i]: " for the value being read, and the key. */
static void describe_owner(const checker *c, char *owner, size_t owner_len, char *key, size_t key_len)
{
    owner[0] = key[0] = '\0';
    const level *top = c->depth ? &c->levels[c->depth - 1] : NULL;
    const level *obj = top;
    while (obj && !(obj->object && obj->has_key))
        obj = obj > c->levels ? obj - 1 : NULL;
    if (!obj)
        return;
    key_text(c, obj->key, key, key_len);
    if (top->object)
        snprintf(owner, owner_len, "key '%s': ", key);
    else
        snprintf(owner, owner_len, "key '%s'[%ld]: ", key, top->index);
}

static int problem(checker *c, size_t offset, bool about_value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int problem(checker *c, size_t offset, bool about_value, const char *fmt, ...)
{
    char owner[160] = "", key[112], what[256];
    if (about_value)
        describe_owner(c, owner, sizeof owner, key, sizeof key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    c->r->offset = offset;
    snprintf(c->r->reason, sizeof c->r->reason, "%s%s", owner, what);
    return 1;
}

/* ---- keys ----------------------------------------------------------------------- */

static int cmp_chars(const char *text, span x, span y)
{
    size_t i = x.start, j = y.start;
    while (i < x.end && j < y.end) {
        uint32_t cx = next_char(text, x.end, &i), cy = next_char(text, y.end, &j);
        if (cx != cy)
            return cx < cy ? -1 : 1;
    }
    if ((i < x.end) != (j < y.end))
        return i < x.end ? 1 : -1;
    return 0;
}

/* qsort has no context argument: the text travels in a key-sized wrapper. */
typedef struct {
    span s;
    const char *text;
} sort_key;

static int cmp_keys(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    int c = cmp_chars(x->text, x->s, y->s);
    return c ? c : x->s.start < y->s.start ? -1 : x->s.start > y->s.start;
}

/* The closing object's keys sorted, so equal keys sit together with their
 * first occurrence first (linear-logarithmic for an object of many keys);
 * reports the repetition that comes first in the file. */
static int check_duplicates(checker *c, size_t first)
{
    size_t n = c->n_keys - first;
    if (n < 2)
        return 0; /* and c->keys may still be NULL: no pointer into it */
    sort_key *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return -1;
    for (size_t i = 0; i < n; i++)
        sorted[i] = (sort_key){c->keys[first + i], c->text};
    qsort(sorted, n, sizeof *sorted, cmp_keys);
    const span *dup = NULL, *orig = NULL;
    for (size_t group = 0, i = 1; i < n; i++) {
        if (cmp_chars(c->text, sorted[group].s, sorted[i].s) != 0)
            group = i;
        else if (!dup || sorted[i].s.start < dup->start)
            dup = &sorted[i].s, orig = &sorted[group].s;
    }
    int rc = 0;
    if (dup) {
        char name[112];
        size_t line, column;
        json_text_position(c->text, orig->start - 1, &line, &column);
        rc = problem(c, dup->start - 1, false, "duplicate key '%s' (first given at line %zu, column %zu)",
                     key_text(c, *dup, name, sizeof name), line, column);
    }
    free(sorted);
    return rc;
}

/* ---- tokens ---------------------------------------------------------------------- */

static bool is_word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* The string opened at pos: no raw control character, no "\u0000". Its
 * text goes to *body; c->pos stops after the closing quote, or at the end
 * with want JSON_WANT_STRING_END when the text ends first. */
static int check_string(checker *c, span *body)
{
    size_t i = c->pos + 1;
    for (; i < c->len && c->text[i] != '"'; i++) {
        unsigned char b = (unsigned char)c->text[i];
        uint32_t cp;
        if (b < 0x20) {
            char shown[8];
            return problem(c, i, false, "control character %s inside a string (write it as an escape)",
                           msg_escape_n(c->text + i, 1, shown, sizeof shown));
        }
        if (b != '\\')
            continue;
        if (json_unicode_escape(c->text + i, c->len - i, &cp) == 6 && cp == 0)
            return problem(c, i, false, "'\\u0000' (a NUL character) is not allowed in a string");
        i++; /* the escaped byte: a quote there does not close the string */
    }
    *body = (span){c->pos + 1, i < c->len ? i : c->len};
    if (i >= c->len) {
        c->want = JSON_WANT_STRING_END;
        return 0;
    }
    c->pos = i + 1;
    return 0;
}

static size_t skip_digits(checker *c)
{
    size_t n = 0;
    while (c->pos < c->len && c->text[c->pos] >= '0' && c->text[c->pos] <= '9')
        c->pos++, n++;
    return n;
}

static bool at(const checker *c, char ch)
{
    return c->pos < c->len && c->text[c->pos] == ch;
}

/* Whether the number text[start, pos) fits what json-c stores: integers in
 * 64 bits (json-c would clamp them), other numbers as finite doubles not
 * rounded to zero. */
static int check_number_range(checker *c, size_t start, bool integer)
{
    char small[64];
    size_t n = c->pos - start;
    char *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy)
        return -1;
    memcpy(copy, c->text + start, n);
    copy[n] = '\0';
    errno = 0;
    bool bad;
    if (integer) {
        if (copy[0] == '-')
            (void)strtoll(copy, NULL, 10);
        else
            (void)strtoull(copy, NULL, 10);
        bad = errno == ERANGE;
    } else {
        double d = strtod(copy, NULL);
        bad = !isfinite(d) || (d == 0 && errno == ERANGE);
    }
    if (copy != small)
        free(copy);
    if (!bad)
        return 0;
    char shown[80];
    return problem(c, start, true, "%s is out of range for %s",
                   msg_escape_n(c->text + start, c->pos - start, shown, sizeof shown),
                   integer ? "a 64-bit integer" : "a double");
}

/* A number at pos, by RFC 8259's grammar (json-c also takes "1."). */
static int check_number(checker *c)
{
    size_t start = c->pos;
    if (at(c, '-'))
        c->pos++;
    bool integer = true;
    size_t int_digits = skip_digits(c);
    bool ok = int_digits > 0 && !(int_digits > 1 && c->text[c->pos - int_digits] == '0');
    if (ok && at(c, '.')) {
        integer = false;
        c->pos++;
        ok = skip_digits(c) > 0;
    }
    if (ok && (at(c, 'e') || at(c, 'E'))) {
        integer = false;
        c->pos++;
        if (at(c, '+') || at(c, '-'))
            c->pos++;
        ok = skip_digits(c) > 0;
    }
    while (c->pos < c->len && (is_word_char(c->text[c->pos]) || c->text[c->pos] == '.'))
        c->pos++, ok = false;
    if (!ok) {
        char shown[80];
        return problem(c, start, true, "invalid number '%s'",
                       msg_escape_n(c->text + start, c->pos - start, shown, sizeof shown));
    }
    return check_number_range(c, start, integer);
}

/* A word at pos: true, false and null pass; json-c also reads NaN and
 * Infinity, which no value here can use. */
static int check_word(checker *c)
{
    static const char *const non_finite[] = {"NaN", "Infinity", "-Infinity", "-NaN"};
    size_t start = c->pos;
    if (at(c, '-'))
        c->pos++;
    while (c->pos < c->len && is_word_char(c->text[c->pos]))
        c->pos++;
    size_t n = c->pos - start;
    for (size_t i = 0; i < sizeof non_finite / sizeof non_finite[0]; i++)
        if (strlen(non_finite[i]) == n && memcmp(non_finite[i], c->text + start, n) == 0)
            return problem(c, start, true, "%.*s is not a finite number", (int)n, c->text + start);
    return 0;
}

/* ---- structure -------------------------------------------------------------------- */

static int open_level(checker *c, bool object)
{
    if (grow_array((void **)&c->levels, &c->cap_levels, c->depth + 1, sizeof *c->levels, 16) != 0)
        return -1;
    c->levels[c->depth++] = (level){.object = object, .first_key = c->n_keys};
    c->want = object ? JSON_WANT_KEY : JSON_WANT_VALUE;
    return 0;
}

static int close_level(checker *c)
{
    if (c->depth == 0)
        return 0;
    level *top = &c->levels[c->depth - 1];
    int rc = top->object ? check_duplicates(c, top->first_key) : 0;
    c->n_keys = top->first_key;
    c->depth--;
    c->want = JSON_WANT_SEPARATOR;
    return rc;
}

static void next_member(checker *c)
{
    level *top = c->depth ? &c->levels[c->depth - 1] : NULL;
    if (top && top->object)
        top->has_key = false, c->want = JSON_WANT_KEY;
    else if (top)
        top->index++, c->want = JSON_WANT_VALUE;
}

/* A string: a key where the open object expects one, else a value. */
static int take_string(checker *c)
{
    span body;
    int rc = check_string(c, &body);
    if (rc != 0 || c->want == JSON_WANT_STRING_END)
        return rc;
    level *top = c->depth ? &c->levels[c->depth - 1] : NULL;
    if (!top || !top->object || c->want != JSON_WANT_KEY) {
        c->want = JSON_WANT_SEPARATOR;
        return 0;
    }
    if (grow_array((void **)&c->keys, &c->cap_keys, c->n_keys + 1, sizeof *c->keys, 64) != 0)
        return -1;
    c->keys[c->n_keys++] = body;
    top->has_key = true;
    top->key = body;
    c->want = JSON_WANT_COLON;
    return 0;
}

/* One token at pos; returns 0 with pos past it, 1 for a problem, -1 when
 * out of memory. */
static int step(checker *c)
{
    char ch = c->text[c->pos];
    switch (ch) {
    case '{':
    case '[':
        c->pos++;
        return open_level(c, ch == '{');
    case '}':
    case ']':
        c->pos++;
        return close_level(c);
    case ',':
        c->pos++;
        next_member(c);
        return 0;
    case ':':
        c->pos++;
        c->want = JSON_WANT_VALUE;
        return 0;
    case '"':
        return take_string(c);
    case '\'':
        return problem(c, c->pos, false, "a string in single quotes (JSON strings use double quotes)");
    default:
        break;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || !(ch == '-' || is_word_char(ch))) {
        c->pos++; /* a blank, or a byte json-c refuses on its own */
        return 0;
    }
    bool number = (ch >= '0' && ch <= '9') ||
                  (ch == '-' && c->pos + 1 < c->len && c->text[c->pos + 1] >= '0' && c->text[c->pos + 1] <= '9');
    int rc = number ? check_number(c) : check_word(c);
    c->want = JSON_WANT_SEPARATOR;
    return rc;
}

int json_check(const char *text, size_t len, json_check_result *r)
{
    checker c = {.text = text, .len = len, .want = JSON_WANT_VALUE, .r = r};
    int rc = 0;
    size_t string_start = 0;
    while (rc == 0 && c.pos < len && c.want != JSON_WANT_STRING_END) {
        string_start = c.pos;
        rc = step(&c);
    }
    if (rc == 0) {
        r->want = c.want;
        r->offset = c.want == JSON_WANT_STRING_END ? string_start : len;
        r->in_object = c.depth && c.levels[c.depth - 1].object;
        describe_owner(&c, r->owner, sizeof r->owner, r->key, sizeof r->key);
    }
    free(c.keys);
    free(c.levels);
    return rc;
}
