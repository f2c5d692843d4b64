/*
 * json_doc.h - the tools' JSON documents: the parser of the base utilities
 * (util/json_doc.h) and a check of the file before json-c reads it.
 */
#ifndef VIMANA_TOOLS_JSON_DOC_H
#define VIMANA_TOOLS_JSON_DOC_H

#include "util/json_doc.h"

/* Checks that `path` is a regular file that can be opened, before
 * json-c reads it (json_object_from_file cannot tell a missing file from
 * bad JSON). Returns 0, or -1 after printing one line
 * "PROG: error: PATH: why" (`is a directory, expected a file`,
 * `cannot open: No such file or directory`, ...). */
int json_doc_check_file(const char *prog, const char *path);

#endif
