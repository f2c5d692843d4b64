/*
 * json_doc.h - the one reader of JSON documents held in memory: the
 * configuration files (system, remote memory, communicator groups, ...)
 * and the small files people or Vimana write (reports, --durations files,
 * synth models, role maps). Traces, which can be gigabytes, are streamed by
 * the tools' own readers instead.
 *
 * json-c builds the tree, in its strict mode; json_check.h holds the text
 * to what json-c lets through. A document is refused with one line "PATH:
 * line L, column C: reason" (columns count characters): a syntax error
 * ("expected ',' or '}' after the value of key 'x', got '\"'"), a key given
 * twice, text after the document, NaN or Infinity, an integer beyond 64
 * bits, a number that overflows a double, a raw control character or
 * "\u0000" in a string, or nesting deeper than JSON_DOC_MAX_DEPTH. A UTF-8
 * byte-order mark before the document is skipped.
 */
#ifndef VIMANA_UTIL_JSON_DOC_H
#define VIMANA_UTIL_JSON_DOC_H

#include "util/exported_names.h"

#include <stddef.h>

#include <json-c/json.h>

/* Far deeper than any file Vimana reads; low enough that a hostile file
 * cannot exhaust the stack of the code that walks the tree. */
#define JSON_DOC_MAX_DEPTH 32

/* Flags: the document must be a JSON object ("expected a JSON object
 * ('{'), got '['" otherwise). */
#define JSON_DOC_OBJECT 1u

/* Parses text[0, len) (named `path` in messages) into *root. Returns 0, or
 * -1 with *root NULL and one line in msg[0, msg_len). */
int json_doc_parse(const char *path, const char *text, size_t len, unsigned flags, json_object **root, char *msg,
                   size_t msg_len);

/* Reads the file at `path` (named `shown` in messages) and parses it into
 * *root: at most max_bytes, beyond which the message is "SHOWN: larger
 * than TOO_BIG" (e.g. "1 MiB, not a durations file"). Returns 0, or -1
 * with *root NULL and one line in msg: the file's problem
 * (input_file_check), "cannot open: ...", "read failed", or the parser's. */
int json_doc_load(const char *path, const char *shown, size_t max_bytes, const char *too_big, unsigned flags,
                  json_object **root, char *msg, size_t msg_len);

#endif
