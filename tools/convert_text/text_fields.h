/*
 * text_fields.h - the lexical layer of ASTRA-sim 1.0 text workloads: split a
 * line into whitespace-separated fields and read the integer fields.
 *
 * The reference converter splits with Python's str.split(), so any run of
 * spaces, tabs or other ASCII whitespace separates two fields, leading and
 * trailing whitespace is ignored, and a doubled tab does not make an empty
 * field.
 */
#ifndef VIMANA_CONVERT_TEXT_FIELDS_H
#define VIMANA_CONVERT_TEXT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One field: `len` bytes at `start`, inside the caller's line. */
struct text_field {
    const char *start;
    size_t len;
};

/* True for the bytes Python's str.split() treats as whitespace in ASCII:
 * space, \t, \n, \v, \f, \r and the separators \x1c-\x1f. */
bool text_is_space(char c);

/* Splits line[0, len) into fields, storing at most `max` of them in `out`.
 * Returns the number of fields in the line, which may exceed `max`. */
size_t text_split_fields(const char *line, size_t len, struct text_field *out, size_t max);

/* Outcome of reading an integer field. */
enum text_int_status {
    TEXT_INT_OK = 0,
    TEXT_INT_MALFORMED,    /* not an optionally signed run of decimal digits */
    TEXT_INT_NEGATIVE,     /* well formed, but negative where that is not allowed */
    TEXT_INT_OUT_OF_RANGE, /* well formed, but too large for the target type */
};

/* Reads "[+]digits" into a value no larger than `max`. */
enum text_int_status text_parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out);
/* Reads "[+-]digits" into an int64_t. */
enum text_int_status text_parse_i64(const char *s, size_t len, int64_t *out);

#endif
