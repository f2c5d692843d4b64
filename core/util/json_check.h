/*
 * json_check.h - the rules of strict JSON that json-c does not keep, checked
 * over the text json-c parsed (json_doc.h runs it).
 *
 * json-c's strict mode still accepts a key given twice (the last one wins
 * without a word), NaN and Infinity, integers beyond 64 bits (clamped),
 * numbers such as "1.", strings in single quotes, raw control characters
 * and "\u0000" inside strings. This one pass over the text refuses them, and
 * where json-c stopped on a syntax error it tells what the text was
 * expecting there and inside which key, so the message can say so.
 */
#ifndef VIMANA_UTIL_JSON_CHECK_H
#define VIMANA_UTIL_JSON_CHECK_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stddef.h>

/* What the text expects at the point the check stopped. */
enum json_check_want {
    JSON_WANT_VALUE,     /* a value: at the start, after ':', '[' or ',' in a list */
    JSON_WANT_KEY,       /* a key: after '{' or ',' in an object */
    JSON_WANT_COLON,     /* ':' after a key */
    JSON_WANT_SEPARATOR, /* ',' or the closing bracket after a value */
    JSON_WANT_STRING_END /* the closing quote of the string opened at `offset` */
};

typedef struct {
    /* A problem (json_check returned 1): its byte offset and the reason,
     * e.g. "key 'x': NaN is not a finite number". */
    size_t offset;
    char reason[384];
    /* Where the check stopped without a problem: what comes next, whether
     * in an object, and "key 'K': " or "key 'K'[i]: " for the value being
     * read there ("" at the top); `key` is that key alone. */
    enum json_check_want want;
    bool in_object;
    char owner[160];
    char key[112];
} json_check_result;

/* Checks text[0, len): a document json-c accepted, or the part of one that
 * json-c read before an error. Returns 1 with offset and reason for the
 * first problem in file order (a repeated key is reported when its object
 * closes), 0 with want, in_object, owner and key filled, -1 when out of
 * memory. */
int json_check(const char *text, size_t len, json_check_result *r);

/* Line and column (both from 1; a column counts UTF-8 characters, as an
 * editor shows them) of byte `offset` of text. */
void json_text_position(const char *text, size_t offset, size_t *line, size_t *column);

#endif
