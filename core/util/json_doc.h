/*
 * json_doc.h - one JSON document held in memory, parsed with json-c into a
 * tree, or refused with one line that says where: "PATH: malformed JSON at
 * line L, column C: WHAT" (json-c's own description), "PATH: malformed
 * JSON: unexpected end of input", or "... text after the document" when
 * anything but blanks follows it. For small JSON files written by people or
 * by Vimana (reports, --durations files, role maps).
 */
#ifndef VIMANA_UTIL_JSON_DOC_H
#define VIMANA_UTIL_JSON_DOC_H

#include "util/exported_names.h"

#include <stddef.h>

#include <json-c/json.h>

/* Parses text[0, len) (named `path` in messages) into *root. Returns 0, or
 * -1 with *root NULL and one line in msg[0, msg_len). */
int json_doc_parse(const char *path, const char *text, size_t len, json_object **root, char *msg, size_t msg_len);

/* Reads the small file at `path` (named `shown` in messages) and parses it
 * into *root: at most max_bytes, beyond which the message is "SHOWN:
 * larger than TOO_BIG" (e.g. "1 MiB, not a durations file"). Returns 0, or
 * -1 with *root NULL and one line in msg: the file's problem
 * (input_file_check), "cannot open: ...", "read failed", or the parser's. */
int json_doc_load(const char *path, const char *shown, size_t max_bytes, const char *too_big, json_object **root,
                  char *msg, size_t msg_len);

#endif
