/* Field splitting and integer reading for ASTRA-sim 1.0 text workloads. */
#include "text_fields.h"

bool text_is_space(char c)
{
    switch (c) {
    case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
    case '\x1c': case '\x1d': case '\x1e': case '\x1f':
        return true;
    default:
        return false;
    }
}

size_t text_split_fields(const char *line, size_t len, struct text_field *out, size_t max)
{
    size_t count = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && text_is_space(line[i]))
            i++;
        if (i == len)
            return count;
        size_t start = i;
        while (i < len && !text_is_space(line[i]))
            i++;
        if (count < max) {
            out[count].start = line + start;
            out[count].len = i - start;
        }
        count++;
    }
}

/* Accumulates the digits s[0, len) into *out, failing past `max`. */
static enum text_int_status read_digits(const char *s, size_t len, uint64_t max, uint64_t *out)
{
    if (len == 0)
        return TEXT_INT_MALFORMED;
    bool too_large = false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return TEXT_INT_MALFORMED;
        unsigned digit = (unsigned)(s[i] - '0');
        if (digit > max || v > (max - digit) / 10)
            too_large = true; /* keep scanning: a later non-digit makes it malformed */
        else
            v = v * 10 + digit;
    }
    if (too_large)
        return TEXT_INT_OUT_OF_RANGE;
    *out = v;
    return TEXT_INT_OK;
}

enum text_int_status text_parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out)
{
    bool negative = false;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s++;
        len--;
    }
    uint64_t v;
    enum text_int_status st = read_digits(s, len, max, &v);
    if (st == TEXT_INT_MALFORMED)
        return st;
    if (negative && (st != TEXT_INT_OK || v != 0))
        return TEXT_INT_NEGATIVE;
    if (st == TEXT_INT_OK)
        *out = v;
    return st;
}

enum text_int_status text_parse_i64(const char *s, size_t len, int64_t *out)
{
    bool negative = false;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s++;
        len--;
    }
    /* The magnitude of INT64_MIN is one more than INT64_MAX. */
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v;
    enum text_int_status st = read_digits(s, len, limit, &v);
    if (st != TEXT_INT_OK)
        return st;
    if (negative)
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return TEXT_INT_OK;
}
