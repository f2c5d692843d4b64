/* The tools' JSON lexical layer (json_lex.h). */
#include "common/json_lex.h"

#include <string.h>

#include "util/json_escape.h"
#include "util/utf8.h"

static enum json_lex_error str_fail(json_lex_str *r, enum json_lex_error e, size_t at, size_t stop)
{
    r->at = at;
    r->stop = stop;
    return e;
}

/* The offset of the first of the four bytes at p that is not a hexadecimal
 * digit, p + 4 when all are. The sentinel stops it at the window's end. */
static size_t hex_end(const char *buf, size_t p)
{
    size_t i = 0;
    while (i < 4 && json_hex_digit(buf[p + i]) >= 0)
        i++;
    return p + i;
}

/* What follows a high surrogate escape that ends at q. */
enum low_follow { LOW_FOLLOWS, LOW_MISSING, LOW_BAD_HEX };

/* Whether "\u" and a low surrogate follow at q (its value in *low); if not,
 * *stop is the byte that says so. A "\u" without its digits is told apart:
 * from-json reports it as a bad escape, Python as a lone surrogate. */
static enum low_follow low_follows(const char *buf, size_t q, uint32_t *low, size_t *stop)
{
    if (buf[q] != '\\') {
        *stop = q;
        return LOW_MISSING;
    }
    if (buf[q + 1] != 'u') {
        *stop = q + 1;
        return LOW_MISSING;
    }
    size_t h = hex_end(buf, q + 2);
    if (h < q + 6) {
        *stop = h;
        return LOW_BAD_HEX;
    }
    *low = (uint32_t)json_hex4(buf + q + 2);
    if (!json_is_low_surrogate(*low)) {
        *stop = q + 5;
        return LOW_MISSING;
    }
    return LOW_FOLLOWS;
}

/* The mode's judgement of the escape "\uXXXX" at p (digits checked), value
 * u; *used is its length, 12 for a surrogate pair. */
static enum json_lex_error judge_unicode(const char *buf, size_t p, uint32_t u, enum json_lex_mode mode,
                                        json_lex_str *r, size_t *used)
{
    *used = 6;
    if (mode == JSON_LEX_UNITS)
        return JSON_LEX_OK;
    r->unit = u;
    if (json_is_high_surrogate(u)) {
        uint32_t low;
        size_t stop;
        enum low_follow f = low_follows(buf, p + 6, &low, &stop);
        if (f == LOW_FOLLOWS) {
            *used = 12;
            return JSON_LEX_OK;
        }
        if (f == LOW_BAD_HEX && mode == JSON_LEX_BYTES)
            return str_fail(r, JSON_LEX_BAD_HEX, p + 6, stop);
        return str_fail(r, JSON_LEX_LONE_SURROGATE, p, stop);
    }
    if (json_is_low_surrogate(u) && !(mode == JSON_LEX_BYTES && u >= 0xdc80 && u <= 0xdcff))
        return str_fail(r, JSON_LEX_LONE_SURROGATE, p, p + 5);
    if (u == 0 && mode == JSON_LEX_PYTHON)
        return str_fail(r, JSON_LEX_NUL_ESCAPE, p, p + 5);
    return JSON_LEX_OK;
}

/* The escape at p (buf[p] is '\\'); *used is its length. A '\' at the end
 * meets the sentinel, which is no escape letter. */
static enum json_lex_error escape(const char *buf, size_t p, enum json_lex_mode mode, json_lex_str *r, size_t *used)
{
    if (buf[p + 1] != 'u') {
        if (json_simple_escape(buf[p + 1]) < 0)
            return str_fail(r, JSON_LEX_BAD_ESCAPE, p, p + 1);
        *used = 2;
        return JSON_LEX_OK;
    }
    size_t h = hex_end(buf, p + 2);
    if (h < p + 6)
        return str_fail(r, JSON_LEX_BAD_HEX, p, h);
    return judge_unicode(buf, p, (uint32_t)json_hex4(buf + p + 2), mode, r, used);
}

/* Where a malformed UTF-8 sequence at p stops being one: the window's end
 * when the sequence is cut there (the rest may be in the input), else p. */
static size_t utf8_stop(const unsigned char *b, size_t len, size_t p)
{
    size_t n = b[p] >= 0xf0 ? 4 : b[p] >= 0xe0 ? 3 : b[p] >= 0xc0 ? 2 : 1;
    for (size_t i = 1; i < n; i++) {
        if (p + i >= len)
            return len;
        if ((b[p + i] & 0xc0) != 0x80)
            break;
    }
    return p;
}

enum json_lex_error json_lex_string_rest(const char *buf, size_t len, size_t pos, enum json_lex_mode mode,
                                         json_lex_str *r)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t p = pos;
    bool escaped = false;
    for (;;) {
        while (!json_lex_string_special(b[p]))
            p++;
        unsigned char c = b[p];
        if (c == '"')
            break;
        if (p >= len)
            return str_fail(r, JSON_LEX_UNTERMINATED, len, len);
        if (c == '\\') {
            size_t used;
            enum json_lex_error e = escape(buf, p, mode, r, &used);
            if (e != JSON_LEX_OK)
                return e;
            escaped = true;
            p += used;
        } else if (c < 0x20) {
            return str_fail(r, JSON_LEX_CONTROL, p, p);
        } else if (mode == JSON_LEX_BYTES) {
            p++; /* json_out wrote bytes that are not UTF-8 as they are */
        } else {
            uint32_t cp;
            size_t n = utf8_decode(b + p, len - p, &cp);
            if (n == 0)
                return str_fail(r, JSON_LEX_BAD_UTF8, p, utf8_stop(b, len, p));
            p += n;
        }
    }
    r->end = p;
    r->escaped = escaped;
    return JSON_LEX_OK;
}

size_t json_lex_decode(const char *src, size_t n, char *dst, enum json_lex_mode mode)
{
    size_t r = 0, w = 0;
    for (;;) {
        /* Copy the plain run up to the next escape in one go. */
        const char *bs = memchr(src + r, '\\', n - r);
        size_t run = bs ? (size_t)(bs - src) - r : n - r;
        if (dst + w != src + r)
            memmove(dst + w, src + r, run);
        w += run;
        r += run;
        if (!bs)
            return w;
        if (src[r + 1] != 'u') {
            dst[w++] = (char)json_simple_escape(src[r + 1]);
            r += 2;
            continue;
        }
        uint32_t cp;
        r += json_unicode_escape(src + r, n - r, &cp);
        if (mode == JSON_LEX_BYTES && cp >= 0xdc80 && cp <= 0xdcff)
            dst[w++] = (char)(cp & 0xff);
        else
            w += utf8_encode(cp, dst + w); /* at most the escape's own length */
    }
}

unsigned json_lex_unit(const char *buf, size_t *pos)
{
    unsigned char c = (unsigned char)buf[*pos];
    if (c != '\\') {
        (*pos)++;
        return c;
    }
    char e = buf[*pos + 1];
    *pos += 2;
    if (e != 'u')
        return (unsigned)json_simple_escape(e);
    unsigned v = (unsigned)json_hex4(buf + *pos);
    *pos += 4;
    return v;
}

size_t json_lex_word(const char *buf, size_t len, size_t pos, const char *word)
{
    size_t i = 0;
    while (word[i] && pos + i < len && buf[pos + i] == word[i])
        i++;
    return i;
}

/* NaN, Infinity or -Infinity at pos: sets n and returns true. */
static bool python_word(const char *buf, size_t len, size_t pos, json_lex_num *n)
{
    static const struct {
        const char *word;
        size_t len;
        enum json_lex_special special;
    } words[] = {
        {"NaN", 3, JSON_LEX_NAN},
        {"Infinity", 8, JSON_LEX_INFINITY},
        {"-Infinity", 9, JSON_LEX_NEG_INFINITY},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (json_lex_word(buf, len, pos, words[i].word) == words[i].len) {
            n->end = n->int_end = pos + words[i].len;
            n->integer = false;
            n->special = words[i].special;
            return true;
        }
    return false;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Past the digits at p; the sentinel stops it. */
static size_t skip_digits(const char *buf, size_t p)
{
    while (is_digit(buf[p]))
        p++;
    return p;
}

enum json_lex_error json_lex_number(const char *buf, size_t len, size_t pos, bool python, json_lex_num *n)
{
    n->special = JSON_LEX_FINITE;
    if (python && python_word(buf, len, pos, n))
        return JSON_LEX_OK;
    size_t p = pos;
    if (buf[p] == '-')
        p++;
    if (buf[p] == '0') {
        p++; /* no leading zeros: a digit after it is not this literal's */
    } else if (is_digit(buf[p])) {
        p = skip_digits(buf, p);
    } else {
        n->at = p;
        return JSON_LEX_NO_DIGIT;
    }
    n->int_end = p;
    n->integer = true;
    if (buf[p] == '.') {
        if (!is_digit(buf[p + 1])) {
            n->at = p + 1;
            return JSON_LEX_NO_FRACTION_DIGIT;
        }
        p = skip_digits(buf, p + 1);
        n->integer = false;
    }
    if (buf[p] == 'e' || buf[p] == 'E') {
        p++;
        if (buf[p] == '+' || buf[p] == '-')
            p++;
        if (!is_digit(buf[p])) {
            n->at = p;
            return JSON_LEX_NO_EXPONENT_DIGIT;
        }
        p = skip_digits(buf, p);
        n->integer = false;
    }
    n->end = p;
    return JSON_LEX_OK;
}

void json_lex_advance(const char *p, size_t n, size_t *line, size_t *col)
{
    const char *end = p + n, *nl;
    while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        (*line)++;
        *col = 1;
        p = nl + 1;
    }
    *col += (size_t)(end - p);
}

void json_lex_line_col(const char *buf, size_t len, size_t off, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    json_lex_advance(buf, off < len ? off : len, line, col);
}
