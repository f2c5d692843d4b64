/*
 * input_file.h - refuse paths a reader cannot consume before opening them,
 * and read the whole of those it can.
 *
 * Readers loop until end of file, so a character device such as /dev/zero
 * would be read for ever, and a directory gives confusing errors from
 * fopen/gzopen/libyaml. Every reader of a user-supplied path calls
 * input_file_check() first.
 */
#ifndef VIMANA_UTIL_INPUT_FILE_H
#define VIMANA_UTIL_INPUT_FILE_H

#include "util/exported_names.h"

#include <stddef.h>
#include <stdio.h>

/* Returns 0 when `path` is a regular file, or when it cannot be examined at
 * all (the caller's own open then reports the system's reason, e.g. "No such
 * file or directory"). Returns -1 for a directory ("is a directory, expected
 * a file") or any other kind of file ("not a regular file (character
 * device)"), with that reason, without the path, in `why`. */
int input_file_check(const char *path, char *why, size_t why_len);

/* input_file_check, then fopen(path, mode). Returns the stream, or NULL with
 * "SHOWN: why" or "SHOWN: cannot open: <system reason>" in msg. */
FILE *input_file_open(const char *path, const char *shown, const char *mode, char *msg, size_t msg_len);

/* All of f up to `limit` bytes (SIZE_MAX for no limit), not NUL-terminated,
 * in a buffer grown as the text comes: a limit of 1 GiB must not cost 1 GiB
 * for a file of 1 KiB (under the sanitizers that allocation alone took a
 * second). A reader that accepts at most N bytes passes N + 1: a longer
 * file reads as N + 1. NULL when out of memory; a read error ends the text
 * early, and ferror(f) tells. */
char *input_file_read(FILE *f, size_t limit, size_t *len);

#endif
