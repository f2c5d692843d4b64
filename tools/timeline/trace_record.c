/*
 * trace_record.c - finding and parsing one issue/callback record.
 */
#include "timeline/trace_record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A slice of the line. */
typedef struct {
    const char *p;
    size_t len;
} span;

static const char *const kind_words[] = {[RECORD_ISSUE] = "issue", [RECORD_CALLBACK] = "callback"};

/* Longest field text quoted in a message; records can be arbitrary text. */
#define QUOTE_MAX 60

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static span trim(span s)
{
    while (s.len && is_blank(s.p[0]))
        s.p++, s.len--;
    while (s.len && is_blank(s.p[s.len - 1]))
        s.len--;
    return s;
}

/* Whether s starts with `word` followed by ','. */
static bool starts_with_field(span s, const char *word)
{
    size_t n = strlen(word);
    return s.len > n && memcmp(s.p, word, n) == 0 && s.p[n] == ',';
}

/* Where the record starts: the first "issue," or "callback," at the start
 * of the line or after a non-word character. Returns false when none. */
static bool find_record(span line, record_kind *kind, size_t *start)
{
    for (size_t i = 0; i < line.len; i++) {
        if ((line.p[i] != 'i' && line.p[i] != 'c') || (i > 0 && is_word_char(line.p[i - 1])))
            continue;
        span rest = {line.p + i, line.len - i};
        for (int k = RECORD_ISSUE; k <= RECORD_CALLBACK; k++) {
            if (starts_with_field(rest, kind_words[k])) {
                *kind = (record_kind)k;
                *start = i;
                return true;
            }
        }
    }
    return false;
}

/* How much of a field a message quotes. */
static int quoted_len(span s)
{
    return (int)(s.len < QUOTE_MAX ? s.len : QUOTE_MAX);
}

static record_status malformed(char err[TRACE_RECORD_ERR_MAX], record_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static record_status malformed(char err[TRACE_RECORD_ERR_MAX], record_kind kind, const char *fmt, ...)
{
    int n = snprintf(err, TRACE_RECORD_ERR_MAX, "malformed %s record: ", kind_words[kind]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, TRACE_RECORD_ERR_MAX - (size_t)n, fmt, ap);
    va_end(ap);
    return RECORD_MALFORMED;
}

/* Parses an unsigned decimal with optional blanks around it. */
static bool parse_u64(span text, uint64_t *out)
{
    span s = trim(text);
    if (s.len == 0)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return false;
        unsigned d = (unsigned)(s.p[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* The text after the first '=' of a field, or false when it has none. */
static bool field_value(span field, span *value)
{
    const char *eq = memchr(field.p, '=', field.len);
    if (!eq)
        return false;
    value->p = eq + 1;
    value->len = field.len - (size_t)(eq + 1 - field.p);
    return true;
}

/* Splits off the next comma-separated field of *rest; false at the end. */
static bool next_field(span *rest, span *field)
{
    if (!rest->p)
        return false;
    const char *comma = memchr(rest->p, ',', rest->len);
    field->p = rest->p;
    if (comma) {
        field->len = (size_t)(comma - rest->p);
        rest->len -= field->len + 1;
        rest->p = comma + 1;
    } else {
        field->len = rest->len;
        rest->p = NULL;
        rest->len = 0;
    }
    return true;
}

static const char *const number_roles[] = {"npu", "tick", "node id"};

static record_status too_few_fields(char err[TRACE_RECORD_ERR_MAX], record_kind kind, int fields)
{
    return malformed(err, kind, "it has %d field%s, expected at least 5 (%s, npu, tick, node id, node name)", fields,
                     fields == 1 ? "" : "s", kind_words[kind]);
}

/* Fields 1-3: the three numbers; field 4 must follow them. */
static record_status parse_numbers(span *rest, record_kind kind, uint64_t *values[3], char err[TRACE_RECORD_ERR_MAX])
{
    for (int f = 0; f < 3; f++) {
        span field, value;
        if (!next_field(rest, &field))
            return too_few_fields(err, kind, f + 1);
        if (!rest->p)
            return too_few_fields(err, kind, f + 2);
        if (!field_value(field, &value))
            return malformed(err, kind, "field %d (%s) '%.*s' has no '='", f + 1, number_roles[f], quoted_len(field),
                             field.p);
        if (!parse_u64(value, values[f]))
            return malformed(err, kind, "%s '%.*s' is not an unsigned integer", number_roles[f], quoted_len(value),
                             value.p);
    }
    return RECORD_OK;
}

/* Start of the last ",<blanks>node->type=" in s, or NULL. */
static const char *last_type_field(span s)
{
    static const char key[] = "node->type=";
    const size_t key_len = sizeof key - 1;
    for (size_t i = s.len; i-- > 0;) {
        if (s.p[i] != ',')
            continue;
        size_t k = i + 1;
        while (k < s.len && is_blank(s.p[k]))
            k++;
        if (s.len - k >= key_len && memcmp(s.p + k, key, key_len) == 0)
            return s.p + i;
    }
    return NULL;
}

/* Field 4 onwards: the name and the optional node->type. */
static record_status parse_name_and_type(span rest, record_kind kind, trace_record *out, char err[TRACE_RECORD_ERR_MAX])
{
    /* The '=' must lie in field 4 itself; the value may then run on. */
    span field4 = rest, after4 = rest, value;
    next_field(&after4, &field4);
    if (!field_value(field4, &value))
        return malformed(err, kind, "field 4 (node name) '%.*s' has no '='", quoted_len(field4), field4.p);
    value.len = rest.len - (size_t)(value.p - rest.p);
    out->has_type = false;
    const char *type_field = last_type_field(value);
    if (type_field) {
        out->name = value.p;
        out->name_len = (size_t)(type_field - value.p);
        span after = {type_field + 1, value.len - (size_t)(type_field + 1 - value.p)}, field, type;
        next_field(&after, &field);
        field_value(field, &type);
        if (!parse_u64(type, &out->type))
            return malformed(err, kind, "node->type '%.*s' is not an unsigned integer", quoted_len(type), type.p);
        out->has_type = true;
        return RECORD_OK;
    }
    const char *comma = memchr(value.p, ',', value.len);
    out->name = value.p;
    out->name_len = comma ? (size_t)(comma - value.p) : value.len;
    return RECORD_OK;
}

record_status trace_record_parse(const char *line, size_t len, trace_record *out, char err[TRACE_RECORD_ERR_MAX])
{
    span whole = {line, len};
    size_t start;
    if (!find_record(whole, &out->kind, &start))
        return RECORD_NONE;
    /* The reference strips the line; trailing blanks never belong to the
     * last field. */
    span rest = {line + start, len - start};
    while (rest.len && is_blank(rest.p[rest.len - 1]))
        rest.len--;
    span kind_field;
    next_field(&rest, &kind_field);
    uint64_t *numbers[3] = {&out->npu, &out->tick, &out->node};
    record_status st = parse_numbers(&rest, out->kind, numbers, err);
    if (st != RECORD_OK)
        return st;
    return parse_name_and_type(rest, out->kind, out, err);
}
