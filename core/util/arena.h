/*
 * arena.h - bump allocator for short-lived, per-record allocations.
 *
 * Decoding a trace allocates many small objects per node; an arena makes
 * each allocation a pointer bump and frees them all at once on reset, so the
 * hot read path does no malloc per node once the arena has grown to fit the
 * largest record.
 */
#ifndef VIMANA_UTIL_ARENA_H
#define VIMANA_UTIL_ARENA_H

#include "util/exported_names.h"

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
    arena_chunk *head;   /* chunk being filled */
    size_t used;         /* bytes used in head */
    size_t chunk_size;   /* default size of new chunks */
} arena;

void arena_init(arena *a, size_t chunk_size);
/* Returns 16-byte aligned memory, or NULL when out of memory. */
void *arena_alloc(arena *a, size_t size);
/* Forgets every allocation, keeping the largest chunk for reuse. */
void arena_reset(arena *a);
void arena_free(arena *a);

#endif
