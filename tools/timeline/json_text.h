/*
 * json_text.h - JSON string literals as Python's json.dump writes them
 * (ensure_ascii): the reference timeline's node names are spelled this way.
 */
#ifndef VIMANA_TIMELINE_JSON_TEXT_H
#define VIMANA_TIMELINE_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether p[0..len) is well-formed UTF-8 (no overlong forms, surrogates or
 * code points above U+10FFFF). */
bool json_text_utf8_valid(const char *p, size_t len);

/* Writes p[0..len) as a quoted JSON string: \" \\ \n \r \t \b \f, other
 * control characters and DEL as \u00XX, every non-ASCII character as
 * \uXXXX (lowercase hex, surrogate pairs above U+FFFF). Bytes that are not
 * UTF-8 become \ufffd, so the output is always valid JSON. */
void json_text_write_string(FILE *f, const char *p, size_t len);

#endif
