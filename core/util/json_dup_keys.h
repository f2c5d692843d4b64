/*
 * json_dup_keys.h - the first key given twice in one JSON object.
 *
 * json-c keeps the last of two equal keys and says nothing, so a file that
 * sets a value twice would run with one of them silently dropped. This
 * scan finds such a key in text json-c has already accepted (json_doc.h
 * calls it): strings in double or single quotes and comments, as json-c's
 * lenient mode reads them; keys are compared by the characters they
 * stand for, so "a" and "\u0061" are the same key.
 */
#ifndef VIMANA_UTIL_JSON_DUP_KEYS_H
#define VIMANA_UTIL_JSON_DUP_KEYS_H

#include "util/exported_names.h"

#include <stddef.h>

/* A repeated key: byte offsets of the opening quote of its repetition and
 * of its first occurrence in the same object. */
struct json_dup_key {
    size_t offset;
    size_t first_offset;
};

/* Scans text[0, len), a JSON document json-c parsed. Returns 1 with *dup
 * filled when some object holds a key twice (the first such object to
 * close), 0 when none does, -1 when out of memory. */
int json_dup_keys_find(const char *text, size_t len, struct json_dup_key *dup);

/* Writes the key whose opening quote is at text[offset] into out[0, size),
 * escaped for a one-line message (msg_escape.h). Returns out. */
char *json_dup_key_text(const char *text, size_t len, size_t offset, char *out, size_t size);

#endif
