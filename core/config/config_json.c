/*
 * config_json.c - see config_json.h.
 *
 * The scanner follows RFC 8259 and stops at the first problem. Positions
 * are counted from the start of the file (line and column both from 1, a
 * column counts characters, not bytes), so the message points where an
 * editor shows it.
 */
#include "config/config_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "util/msg_escape.h"
#include "util/utf8.h"

typedef struct {
    const char *text;
    size_t len, pos;
    const char *path;
    char *err;
    size_t err_len;
    /* The member whose value is being scanned, and the index inside its
     * array (-1 for the value itself), so value errors can name the key. */
    const char *key;
    size_t key_len;
    long index;
    unsigned depth;
} scanner;

/* One key of the object being scanned. `text` points into the file unless
 * the key holds escapes, in which case it is the decoded copy. */
typedef struct {
    const char *text;
    size_t len;
    size_t offset;
    bool owned;
} key_rec;

typedef struct {
    key_rec *items;
    size_t n, cap;
} key_list;

/* ---- positions and messages ------------------------------------------------ */

static bool is_utf8_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

static void line_column(const char *text, size_t offset, size_t *line, size_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else if (!is_utf8_continuation((unsigned char)text[i])) {
            (*column)++;
        }
    }
}

static int fail_at(scanner *s, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(scanner *s, size_t offset, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t line, column;
    line_column(s->text, offset, &line, &column);
    snprintf(s->err, s->err_len, "%s: line %zu, column %zu: %s", s->path, line, column, msg);
    return -1;
}

/* "key 'NAME': " or "key 'NAME'[i]: " for the value being scanned, or "". */
static const char *value_owner(const scanner *s, char *buf, size_t len)
{
    if (!s->key) {
        buf[0] = '\0';
        return buf;
    }
    char name[96];
    msg_escape_n(s->key, s->key_len, name, sizeof name);
    if (s->index >= 0)
        snprintf(buf, len, "key '%s'[%ld]: ", name, s->index);
    else
        snprintf(buf, len, "key '%s': ", name);
    return buf;
}

/* Length of the UTF-8 character at p (1 for a stray byte), within n bytes. */
static size_t utf8_char_len(const char *p, size_t n)
{
    size_t k = 1;
    while (k < n && k < 4 && is_utf8_continuation((unsigned char)p[k]))
        k++;
    return k;
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* What the scanner found at pos, for "expected X, got Y": a word when a
 * word starts there, else one character; "the end of the file" at the end. */
static const char *found_text(const scanner *s, char *buf, size_t len)
{
    if (s->pos >= s->len) {
        snprintf(buf, len, "the end of the file");
        return buf;
    }
    const char *p = s->text + s->pos;
    size_t rest = s->len - s->pos, n = 0;
    while (n < rest && n < 24 && is_word_char(p[n]))
        n++;
    if (n == 0)
        n = utf8_char_len(p, rest);
    char shown[80];
    msg_escape_n(p, n, shown, sizeof shown);
    snprintf(buf, len, "'%s'", shown);
    return buf;
}

/* ---- lexical pieces ------------------------------------------------------ */

static void skip_space(scanner *s)
{
    while (s->pos < s->len) {
        char c = s->text[s->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        s->pos++;
    }
}

static bool at(const scanner *s, char c)
{
    return s->pos < s->len && s->text[s->pos] == c;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The four hex digits after "\u" at p, or -1. */
static long hex4(const char *p, size_t avail)
{
    if (avail < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Decodes the escapes of an already validated string body, so that keys
 * written differently ("a" and "\u0061") compare equal. NULL when out of
 * memory. */
static char *decode_string(const char *p, size_t n, size_t *out_len)
{
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\\') {
            out[o++] = p[i];
            continue;
        }
        char e = p[++i];
        static const char plain_from[] = "\"\\/bfnrt", plain_to[] = "\"\\/\b\f\n\r\t";
        const char *hit = strchr(plain_from, e);
        if (e != 'u' && hit) {
            out[o++] = plain_to[hit - plain_from];
            continue;
        }
        unsigned long cp = (unsigned long)hex4(p + i + 1, n - i - 1);
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < n && p[i + 1] == '\\' && p[i + 2] == 'u') {
            long low = hex4(p + i + 3, n - i - 3);
            if (low >= 0xDC00 && low < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)low - 0xDC00);
                i += 6;
            }
        }
        o += utf8_encode((uint32_t)cp, out + o);
    }
    out[o] = '\0';
    *out_len = o;
    return out;
}

/* A string at pos (which holds '"'). When `key` is given, it receives the
 * string's text for duplicate checks. */
static int scan_string(scanner *s, key_rec *key)
{
    size_t start = s->pos++;
    bool escaped = false;
    for (;;) {
        if (s->pos >= s->len)
            return fail_at(s, start, "unterminated string (no closing '\"')");
        unsigned char c = (unsigned char)s->text[s->pos];
        if (c == '"')
            break;
        if (c < 0x20) {
            char shown[8];
            msg_escape_n((const char *)&s->text[s->pos], 1, shown, sizeof shown);
            return fail_at(s, s->pos, "control character %s inside a string (write it as an escape)", shown);
        }
        if (c != '\\') {
            s->pos++;
            continue;
        }
        escaped = true;
        char e = s->pos + 1 < s->len ? s->text[s->pos + 1] : '\0';
        if (e == 'u') {
            long cp = hex4(s->text + s->pos + 2, s->len - s->pos - 2);
            if (cp < 0)
                return fail_at(s, s->pos, "'\\u' must be followed by four hexadecimal digits");
            if (cp == 0)
                return fail_at(s, s->pos, "'\\u0000' (a NUL character) is not allowed in a string");
            s->pos += 6;
        } else if (e && strchr("\"\\/bfnrt", e)) {
            s->pos += 2;
        } else {
            char shown[16];
            msg_escape_n(&e, e ? 1 : 0, shown, sizeof shown);
            return fail_at(s, s->pos, "invalid escape '\\%s' in a string", shown);
        }
    }
    s->pos++;
    if (!key)
        return 0;
    const char *body = s->text + start + 1;
    size_t body_len = s->pos - start - 2;
    *key = (key_rec){.text = body, .len = body_len, .offset = start};
    if (escaped) {
        char *decoded = decode_string(body, body_len, &key->len);
        if (!decoded)
            return fail_at(s, start, "out of memory");
        key->text = decoded;
        key->owned = true;
    }
    return 0;
}

static size_t skip_digits(scanner *s)
{
    size_t n = 0;
    while (s->pos < s->len && s->text[s->pos] >= '0' && s->text[s->pos] <= '9') {
        s->pos++;
        n++;
    }
    return n;
}

/* Checks that the number text[start, end) fits what json-c will store:
 * integers in 64 bits (json-c would clamp them), other numbers as finite
 * doubles that are not rounded to zero. */
static int check_number_range(scanner *s, size_t start, bool integer)
{
    size_t n = s->pos - start;
    char small[64];
    char *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy)
        return fail_at(s, start, "out of memory");
    memcpy(copy, s->text + start, n);
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
    int rc = 0;
    if (bad) {
        char owner[160], shown[80];
        msg_escape(copy, shown, sizeof shown);
        rc = fail_at(s, start, "%s%s is out of range for %s", value_owner(s, owner, sizeof owner), shown,
                     integer ? "a 64-bit integer" : "a double");
    }
    if (copy != small)
        free(copy);
    return rc;
}

static int scan_number(scanner *s)
{
    size_t start = s->pos;
    if (at(s, '-'))
        s->pos++;
    bool integer = true;
    size_t int_digits = skip_digits(s);
    bool ok = int_digits > 0 && !(int_digits > 1 && s->text[s->pos - int_digits] == '0');
    if (ok && at(s, '.')) {
        integer = false;
        s->pos++;
        ok = skip_digits(s) > 0;
    }
    if (ok && (at(s, 'e') || at(s, 'E'))) {
        integer = false;
        s->pos++;
        if (at(s, '+') || at(s, '-'))
            s->pos++;
        ok = skip_digits(s) > 0;
    }
    while (s->pos < s->len && (is_word_char(s->text[s->pos]) || s->text[s->pos] == '.')) {
        ok = false;
        s->pos++;
    }
    if (!ok) {
        char owner[160], shown[80];
        msg_escape_n(s->text + start, s->pos - start, shown, sizeof shown);
        return fail_at(s, start, "%sinvalid number '%s'", value_owner(s, owner, sizeof owner), shown);
    }
    return check_number_range(s, start, integer);
}

/* true, false, null; and NaN / Infinity, which json-c would accept but a
 * configuration value can never use. */
static int scan_word(scanner *s)
{
    static const char *const literals[] = {"true", "false", "null"};
    static const char *const non_finite[] = {"NaN", "Infinity", "-Infinity", "nan", "inf", "-inf",
                                             "infinity", "-infinity"};
    size_t start = s->pos, n = 0;
    if (s->text[start] == '-')
        n++;
    while (start + n < s->len && is_word_char(s->text[start + n]))
        n++;
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        if (strlen(literals[i]) == n && memcmp(literals[i], s->text + start, n) == 0) {
            s->pos += n;
            return 0;
        }
    }
    char owner[160], shown[40], found[96];
    for (size_t i = 0; i < sizeof non_finite / sizeof non_finite[0]; i++) {
        if (strlen(non_finite[i]) == n && memcmp(non_finite[i], s->text + start, n) == 0) {
            msg_escape_n(s->text + start, n, shown, sizeof shown);
            return fail_at(s, start, "%s%s is not a finite number", value_owner(s, owner, sizeof owner), shown);
        }
    }
    return fail_at(s, start, "%sexpected a value, got %s", value_owner(s, owner, sizeof owner),
                   found_text(s, found, sizeof found));
}

/* ---- containers ---------------------------------------------------------- */

static int scan_value(scanner *s);

static int enter(scanner *s)
{
    if (++s->depth > CONFIG_JSON_MAX_DEPTH)
        return fail_at(s, s->pos, "nested deeper than %d levels", CONFIG_JSON_MAX_DEPTH);
    s->pos++;
    return 0;
}

static int cmp_keys(const void *a, const void *b)
{
    const key_rec *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->text, y->text, n);
    if (c != 0)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Reports the first repeated key in file order. Sorting keeps a large
 * object (a communicator-group file of many groups) linear-logarithmic. */
static int check_duplicates(scanner *s, key_list *keys)
{
    /* An empty object has no key array at all: qsort may not see NULL. */
    if (keys->n < 2)
        return 0;
    qsort(keys->items, keys->n, sizeof *keys->items, cmp_keys);
    const key_rec *dup = NULL, *first = NULL;
    size_t group = 0;
    for (size_t i = 1; i < keys->n; i++) {
        const key_rec *a = &keys->items[group], *b = &keys->items[i];
        if (a->len != b->len || memcmp(a->text, b->text, a->len) != 0) {
            group = i;
            continue;
        }
        if (!dup || b->offset < dup->offset) {
            dup = b;
            first = a;
        }
    }
    if (!dup)
        return 0;
    char name[96];
    size_t line, column;
    msg_escape_n(dup->text, dup->len, name, sizeof name);
    line_column(s->text, first->offset, &line, &column);
    return fail_at(s, dup->offset, "duplicate key '%s' (first given at line %zu, column %zu)", name, line, column);
}

static void free_keys(key_list *keys)
{
    for (size_t i = 0; i < keys->n; i++)
        if (keys->items[i].owned)
            free((char *)keys->items[i].text);
    free(keys->items);
}

static int push_key(scanner *s, key_list *keys, const key_rec *k)
{
    if (keys->n == keys->cap) {
        size_t cap = keys->cap ? keys->cap * 2 : 16;
        key_rec *grown = realloc(keys->items, cap * sizeof *grown);
        if (!grown)
            return fail_at(s, k->offset, "out of memory");
        keys->items = grown;
        keys->cap = cap;
    }
    keys->items[keys->n++] = *k;
    return 0;
}

/* One "key": value member; the key is kept in `keys`. */
static int scan_member(scanner *s, key_list *keys)
{
    char found[96], name[96];
    skip_space(s);
    if (!at(s, '"'))
        return fail_at(s, s->pos, "expected a key in double quotes, got %s", found_text(s, found, sizeof found));
    key_rec k = {0};
    if (scan_string(s, &k) != 0)
        return -1;
    if (push_key(s, keys, &k) != 0) {
        if (k.owned)
            free((char *)k.text);
        return -1;
    }
    skip_space(s);
    if (!at(s, ':'))
        return fail_at(s, s->pos, "expected ':' after key '%s', got %s", msg_escape_n(k.text, k.len, name, sizeof name),
                       found_text(s, found, sizeof found));
    s->pos++;
    const char *outer_key = s->key;
    size_t outer_len = s->key_len;
    long outer_index = s->index;
    s->key = k.text;
    s->key_len = k.len;
    s->index = -1;
    int rc = scan_value(s);
    s->key = outer_key;
    s->key_len = outer_len;
    s->index = outer_index;
    return rc;
}

static int scan_object(scanner *s)
{
    if (enter(s) != 0)
        return -1;
    key_list keys = {0};
    int rc = 0;
    skip_space(s);
    if (at(s, '}')) {
        s->pos++;
    } else {
        for (;;) {
            if ((rc = scan_member(s, &keys)) != 0)
                break;
            skip_space(s);
            if (at(s, ',') || at(s, '}')) {
                if (s->text[s->pos++] == '}')
                    break;
                continue;
            }
            char found[96], name[96];
            const key_rec *last = &keys.items[keys.n - 1];
            rc = fail_at(s, s->pos, "expected ',' or '}' after the value of key '%s', got %s",
                         msg_escape_n(last->text, last->len, name, sizeof name), found_text(s, found, sizeof found));
            break;
        }
    }
    if (rc == 0)
        rc = check_duplicates(s, &keys);
    free_keys(&keys);
    s->depth--;
    return rc;
}

static int scan_array(scanner *s)
{
    if (enter(s) != 0)
        return -1;
    long outer_index = s->index;
    int rc = 0;
    skip_space(s);
    if (at(s, ']')) {
        s->pos++;
    } else {
        for (long i = 0;; i++) {
            s->index = i;
            if ((rc = scan_value(s)) != 0)
                break;
            skip_space(s);
            if (at(s, ',') || at(s, ']')) {
                if (s->text[s->pos++] == ']')
                    break;
                continue;
            }
            char found[96];
            rc = fail_at(s, s->pos, "expected ',' or ']' after an element of a list, got %s",
                         found_text(s, found, sizeof found));
            break;
        }
    }
    s->index = outer_index;
    s->depth--;
    return rc;
}

static int scan_value(scanner *s)
{
    skip_space(s);
    if (s->pos >= s->len) {
        char owner[160];
        return fail_at(s, s->pos, "%sexpected a value, got the end of the file", value_owner(s, owner, sizeof owner));
    }
    char c = s->text[s->pos];
    if (c == '{')
        return scan_object(s);
    if (c == '[')
        return scan_array(s);
    if (c == '"')
        return scan_string(s, NULL);
    if (c == '-' && s->pos + 1 < s->len && (s->text[s->pos + 1] == 'I' || s->text[s->pos + 1] == 'i'))
        return scan_word(s);
    if (c == '-' || (c >= '0' && c <= '9'))
        return scan_number(s);
    return scan_word(s);
}

/* The whole document: one object and nothing after it. */
static int scan_document(scanner *s)
{
    char found[96];
    skip_space(s);
    if (!at(s, '{'))
        return fail_at(s, s->pos, "expected a JSON object ('{'), got %s", found_text(s, found, sizeof found));
    if (scan_object(s) != 0)
        return -1;
    skip_space(s);
    if (s->pos < s->len) {
        char shown[64];
        size_t n = s->len - s->pos < 24 ? s->len - s->pos : 24;
        msg_escape_n(s->text + s->pos, n, shown, sizeof shown);
        return fail_at(s, s->pos, "unexpected text after the end of the JSON object: '%s%s'", shown,
                       s->len - s->pos > n ? "..." : "");
    }
    return 0;
}

/* ---- the file ------------------------------------------------------------- */

/* Reads all of fp into a NUL-terminated buffer; NULL when out of memory or
 * (with *too_big set) beyond CONFIG_JSON_MAX_BYTES. */
static char *read_all(FILE *fp, size_t *len, bool *too_big)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - 1 - n, fp);
        n += got;
        if (n > CONFIG_JSON_MAX_BYTES) {
            *too_big = true;
            free(buf);
            return NULL;
        }
        if (got == 0)
            break;
        if (n + 1 == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                free(buf);
            buf = grown;
            cap *= 2;
        }
    }
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static char *read_file(const char *path, size_t *len, char *err, size_t err_len)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: %s", path, why);
        return NULL;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, err_len, "%s: Unable to open file: %s", path, strerror(errno));
        return NULL;
    }
    bool too_big = false;
    char *text = read_all(fp, len, &too_big);
    if (text && ferror(fp)) {
        snprintf(err, err_len, "%s: read error: %s", path, strerror(errno));
        free(text);
        text = NULL;
    } else if (!text && too_big) {
        snprintf(err, err_len, "%s: larger than %u MiB, too large for a configuration file", path,
                 CONFIG_JSON_MAX_BYTES >> 20);
    } else if (!text) {
        snprintf(err, err_len, "%s: out of memory reading the file", path);
    }
    fclose(fp);
    return text;
}

/* json-c builds the tree from text the scanner accepted; its own error is
 * only a safety net, reported with the position it stopped at. */
static json_object *build_tree(scanner *s)
{
    json_tokener *tok = json_tokener_new_ex(CONFIG_JSON_MAX_DEPTH + 1);
    if (!tok) {
        snprintf(s->err, s->err_len, "%s: out of memory", s->path);
        return NULL;
    }
    json_object *root = json_tokener_parse_ex(tok, s->text + s->pos, (int)(s->len - s->pos));
    if (!root) {
        enum json_tokener_error e = json_tokener_get_error(tok);
        fail_at(s, s->pos + json_tokener_get_parse_end(tok), "%s", json_tokener_error_desc(e));
    }
    json_tokener_free(tok);
    return root;
}

json_object *config_json_load(const char *path, char *err, size_t err_len)
{
    size_t len = 0;
    char *text = read_file(path, &len, err, err_len);
    if (!text)
        return NULL;
    scanner s = {.text = text, .len = len, .path = path, .err = err, .err_len = err_len, .index = -1};
    /* A UTF-8 byte-order mark, as some editors write, is not content. */
    size_t bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    s.pos = bom;
    json_object *root = NULL;
    if (scan_document(&s) == 0) {
        s.pos = bom;
        root = build_tree(&s);
    }
    free(text);
    return root;
}

/* ---- typed values --------------------------------------------------------- */

const char *config_json_format_double(double d, char *buf, size_t len)
{
    char raw[40], out[40];
    snprintf(raw, sizeof raw, "%.15g", d);
    /* C's exponent has a sign and two digits: "1e+09" -> "1e9", "1e-06" -> "1e-6". */
    size_t o = 0;
    for (const char *p = raw; *p; p++) {
        out[o++] = *p;
        if (*p != 'e')
            continue;
        if (*++p == '-')
            out[o++] = '-';
        while (p[1] == '0' && p[2])
            p++;
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

const char *config_json_value_text(json_object *v, char *buf, size_t len)
{
    /* json-c writes every control character of a string as an escape, so
     * the text is already one line; it is only cut to fit. */
    const char *text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!text)
        text = "?";
    if ((size_t)snprintf(buf, len, "%s", text) >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    return buf;
}

int config_json_number(const char *path, const char *key, json_object *v, double min, double max,
                       double *out, char *err, size_t err_len)
{
    char shown[128];
    double d;
    if (json_object_is_type(v, json_type_boolean))
        d = json_object_get_boolean(v) ? 1.0 : 0.0;
    else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
        d = json_object_get_double(v);
    else {
        snprintf(err, err_len, "%s: key '%s': expected a number, got %s", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (!isfinite(d)) {
        snprintf(err, err_len, "%s: key '%s': %s is not a finite number", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (d < min || d > max) {
        char lo[32], hi[32];
        snprintf(err, err_len, "%s: key '%s': %s is out of range (%s to %s)", path, key,
                 config_json_value_text(v, shown, sizeof shown), config_json_format_double(min, lo, sizeof lo),
                 config_json_format_double(max, hi, sizeof hi));
        return -1;
    }
    *out = d;
    return 0;
}

int config_json_uint(const char *path, const char *key, json_object *v, uint64_t max, uint64_t *out,
                     char *err, size_t err_len)
{
    char shown[128];
    uint64_t u = 0;
    bool integer = true;
    if (json_object_is_type(v, json_type_boolean)) {
        u = json_object_get_boolean(v) ? 1 : 0;
    } else if (json_object_is_type(v, json_type_int)) {
        integer = json_object_get_int64(v) >= 0;
        u = integer ? json_object_get_uint64(v) : 0;
    } else if (json_object_is_type(v, json_type_double)) {
        /* 2.0 is an integer; above 2^64 the conversion would be undefined. */
        double d = json_object_get_double(v);
        integer = d >= 0 && d == floor(d);
        if (integer && d >= 18446744073709551616.0)
            u = UINT64_MAX;
        else if (integer)
            u = (uint64_t)d;
    } else {
        integer = false;
    }
    if (!integer) {
        snprintf(err, err_len, "%s: key '%s': expected a non-negative integer, got %s", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (u > max) {
        snprintf(err, err_len, "%s: key '%s': %s is out of range (0 to %llu)", path, key,
                 config_json_value_text(v, shown, sizeof shown), (unsigned long long)max);
        return -1;
    }
    *out = u;
    return 0;
}

int config_json_fail(const char *path, char *err, size_t err_len, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, err_len, "%s: %s", path, msg);
    return -1;
}
