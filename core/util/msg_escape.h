/*
 * msg_escape.h - make a value from an input file safe to quote in a
 * one-line error message.
 *
 * Error messages are one line each; a configuration value holding a newline
 * or another control character would otherwise break that rule (and could
 * fake a second message). Control bytes become C escapes (\n, \t, \r,
 * \xNN); everything else, including UTF-8, is kept as it is.
 */
#ifndef VIMANA_UTIL_MSG_ESCAPE_H
#define VIMANA_UTIL_MSG_ESCAPE_H

#include "util/exported_names.h"

#include <stddef.h>

/* Writes the escaped form of the NUL-terminated `s` into buf (buf_len > 0
 * bytes; a value too long ends in "...") and returns buf. */
const char *msg_escape(const char *s, char *buf, size_t buf_len);

/* The same for `len` bytes that may hold NUL bytes (shown as \x00). */
const char *msg_escape_n(const char *s, size_t len, char *buf, size_t buf_len);
/* A message another program wrote (a backend's error text) made one line:
 * as it is when it holds no control byte (its own escapes, such as a
 * backend's "\n" for a newline in a value, are kept, not escaped again),
 * else msg_escape's form. Returns buf. */
const char *msg_one_line(const char *s, char *buf, size_t buf_len);

#endif
