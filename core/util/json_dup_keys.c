/* Finding a key given twice in one JSON object (json_dup_keys.h). */
#include "util/json_dup_keys.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"
#include "util/msg_escape.h"
#include "util/utf8.h"

/* One key: the raw text between its quotes, text[start, end). */
typedef struct {
    const char *text;
    size_t start, end;
} key_span;

/* One open object or array; an object's keys are keys[first_key, n). */
typedef struct {
    bool object;
    bool expect_key;
    size_t first_key;
} level;

typedef struct {
    const char *text;
    size_t len;
    key_span *keys;
    size_t n_keys, cap_keys;
    level *levels;
    size_t depth, cap_levels;
} scan;

/* Index of the quote closing the string opened at text[i]; len when the
 * text ends first (json-c accepted the text, so it does not). */
static size_t string_end(const char *text, size_t len, size_t i)
{
    char quote = text[i];
    for (size_t j = i + 1; j < len; j++) {
        if (text[j] == '\\')
            j++;
        else if (text[j] == quote)
            return j;
    }
    return len;
}

static long hex4(const char *p, size_t avail)
{
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        char c = i < avail ? p[i] : '\0';
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The character at k->text[*i] (an escape or a UTF-8 sequence, a byte of
 * bad UTF-8 standing for itself) as a code point; advances *i past it. */
static uint32_t next_char(const key_span *k, size_t *i)
{
    const char *p = k->text + *i;
    size_t avail = k->end - *i;
    if (p[0] != '\\' || avail < 2) {
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)p, avail, &cp);
        *i += n ? n : 1;
        return n ? cp : (unsigned char)p[0];
    }
    *i += 2;
    switch (p[1]) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'u': break;
    default: return (unsigned char)p[1];
    }
    long cp = hex4(p + 2, avail - 2);
    if (cp < 0)
        return 'u';
    *i += 4;
    /* A surrogate pair is one character, as json-c decodes it. */
    if (cp >= 0xD800 && cp < 0xDC00 && avail >= 12 && p[6] == '\\' && p[7] == 'u') {
        long low = hex4(p + 8, avail - 8);
        if (low >= 0xDC00 && low < 0xE000) {
            *i += 6;
            return 0x10000 + (((uint32_t)cp - 0xD800) << 10) + ((uint32_t)low - 0xDC00);
        }
    }
    return (uint32_t)cp;
}

/* Compares two keys by the characters they stand for. */
static int cmp_chars(const key_span *x, const key_span *y)
{
    size_t i = x->start, j = y->start;
    while (i < x->end && j < y->end) {
        uint32_t cx = next_char(x, &i), cy = next_char(y, &j);
        if (cx != cy)
            return cx < cy ? -1 : 1;
    }
    if ((i < x->end) != (j < y->end))
        return i < x->end ? 1 : -1;
    return 0;
}

/* Orders keys by their characters, then by place in the file, so equal
 * keys sit together with their first occurrence first. */
static int cmp_keys(const void *a, const void *b)
{
    const key_span *x = a, *y = b;
    int c = cmp_chars(x, y);
    return c ? c : x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts the closing object's keys and reports the repetition that comes
 * first in the file. */
static int close_object(scan *s, struct json_dup_key *dup)
{
    size_t first = s->levels[s->depth - 1].first_key, n = s->n_keys - first;
    s->n_keys = first;
    if (n < 2)
        return 0; /* and s->keys may still be NULL: no pointer into it */
    key_span *keys = s->keys + first;
    qsort(keys, n, sizeof *keys, cmp_keys);
    bool found = false;
    for (size_t group = 0, i = 1; i < n; i++) {
        if (cmp_chars(&keys[group], &keys[i]) != 0) {
            group = i;
        } else if (!found || keys[i].start - 1 < dup->offset) {
            found = true;
            dup->offset = keys[i].start - 1;
            dup->first_offset = keys[group].start - 1;
        }
    }
    return found;
}

static int open_level(scan *s, bool object)
{
    if (grow_array((void **)&s->levels, &s->cap_levels, s->depth + 1, sizeof *s->levels, 16) != 0)
        return -1;
    s->levels[s->depth++] = (level){.object = object, .expect_key = object, .first_key = s->n_keys};
    return 0;
}

/* A string at text[i]: recorded when it is a key of the open object. */
static int take_string(scan *s, size_t i, size_t end)
{
    level *top = s->depth ? &s->levels[s->depth - 1] : NULL;
    if (!top || !top->object || !top->expect_key)
        return 0;
    top->expect_key = false;
    if (grow_array((void **)&s->keys, &s->cap_keys, s->n_keys + 1, sizeof *s->keys, 64) != 0)
        return -1;
    s->keys[s->n_keys++] = (key_span){.text = s->text, .start = i + 1, .end = end};
    return 0;
}

/* Index of the last byte of the comment starting at text[i] ('/'). */
static size_t comment_end(const char *text, size_t len, size_t i)
{
    bool block = i + 1 < len && text[i + 1] == '*';
    for (size_t j = i + 2; j < len; j++)
        if (block ? text[j] == '/' && text[j - 1] == '*' && j > i + 2 : text[j] == '\n')
            return j;
    return len;
}

/* One structural byte at text[i]; returns the index of the last byte it
 * took, or len + 1 after an error / a duplicate (rc set). */
static size_t step(scan *s, size_t i, struct json_dup_key *dup, int *rc)
{
    char c = s->text[i];
    level *top = s->depth ? &s->levels[s->depth - 1] : NULL;
    if (c == '"' || c == '\'') {
        size_t end = string_end(s->text, s->len, i);
        *rc = take_string(s, i, end);
        return *rc ? s->len + 1 : end;
    }
    if (c == '/' && i + 1 < s->len && (s->text[i + 1] == '/' || s->text[i + 1] == '*'))
        return comment_end(s->text, s->len, i);
    if (c == '{' || c == '[')
        *rc = open_level(s, c == '{');
    else if ((c == '}' || c == ']') && top) {
        *rc = top->object ? close_object(s, dup) : 0;
        s->depth--;
    } else if (c == ',' && top && top->object)
        top->expect_key = true;
    return *rc ? s->len + 1 : i;
}

int json_dup_keys_find(const char *text, size_t len, struct json_dup_key *dup)
{
    scan s = {.text = text, .len = len};
    int rc = 0;
    for (size_t i = 0; i < len; i++)
        i = step(&s, i, dup, &rc);
    free(s.keys);
    free(s.levels);
    return rc;
}

char *json_dup_key_text(const char *text, size_t len, size_t offset, char *out, size_t size)
{
    size_t end = string_end(text, len, offset);
    msg_escape_n(text + offset + 1, end - offset - 1, out, size);
    return out;
}
