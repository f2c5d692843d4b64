/*
 * json_input.h - a tool's JSON input file read whole (json_doc: a key
 * given twice is refused, a parse error says where), with the tools' error
 * line when it cannot be.
 */
#ifndef VIMANA_TOOLS_JSON_INPUT_H
#define VIMANA_TOOLS_JSON_INPUT_H

#include <stddef.h>

#include <json-c/json.h>

/* Parses the file at `path` (at most max_bytes; `too_big` names the limit
 * in the message, e.g. "1 GiB, not a synth model") into *root. Returns 0,
 * or -1 after printing "PROG: error: WHY" (json_doc_load's line). */
int json_input_load(const char *prog, const char *path, size_t max_bytes, const char *too_big, json_object **root);

#endif
