/*
 * file_digest.h - tell byte-identical files apart cheaply: a 64-bit
 * FNV-1a hash of a file's bytes, and a byte-by-byte comparison of two
 * files to rule out the (rare) collision of two different files.
 *
 * The simulator uses them to parse a trace once when many ranks' trace
 * files hold the same bytes. Both stream the files in blocks, so neither
 * holds a whole file in memory.
 */
#ifndef VIMANA_UTIL_FILE_DIGEST_H
#define VIMANA_UTIL_FILE_DIGEST_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct file_digest {
    uint64_t hash;   /* FNV-1a of every byte (util/hash.h) */
    uint64_t size;   /* bytes read */
} file_digest;

/* Digests the regular file `path`. Returns 0, or -1 when it is not a
 * regular file or cannot be read (the caller's own reader then says why). */
int file_digest_of(const char *path, file_digest *out);

/* As file_digest_of, and when the file has at most keep_max bytes also
 * hands them back in *kept (malloc'd, the caller frees it; NULL for a
 * larger file), so that a later comparison needs no second read. */
int file_digest_keep(const char *path, uint64_t keep_max, file_digest *out, unsigned char **kept);

/* Whether the two files hold exactly the same bytes; false when either
 * cannot be read. */
bool file_same_bytes(const char *a, const char *b);

#endif
