/*
 * input_file.h - load a whole input file into memory, gunzipping it when it
 * starts with the gzip magic (PyTorch traces are often shipped as .json.gz).
 *
 * The JSON readers work on one contiguous buffer so that values they do not
 * interpret can be kept as byte spans and re-emitted later without copying.
 * The buffer is NUL-terminated (one byte beyond `len`) so a scanner may peek
 * one byte past any token.
 *
 * Plain files are memory-mapped read-only and pre-faulted in one call, and
 * gunzipped data goes to a pre-faulted anonymous mapping: on virtual
 * machines where every page fault is expensive, touching a gigabyte one
 * page at a time (malloc + fread) costs several times more than parsing it.
 */
#ifndef VIMANA_TRACE_LINK_INPUT_FILE_H
#define VIMANA_TRACE_LINK_INPUT_FILE_H

#include <stddef.h>

#include "trace_link/diag.h"

typedef struct tl_buffer {
    char *data;
    size_t len;
    size_t mapped;   /* bytes mapped at data (0: data came from malloc) */
} tl_buffer;

/* Returns 0, or -1 with "PATH: reason" in the diagnostic. */
int tl_buffer_load(const char *path, tl_buffer *out, tl_diag *d);
void tl_buffer_free(tl_buffer *b);

#endif
