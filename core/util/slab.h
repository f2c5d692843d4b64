/*
 * slab.h - fixed-size object pool with stable addresses.
 *
 * Objects live in blocks that never move, so pointers to them stay valid;
 * freed objects are recycled LIFO. Simulation objects (streams, phases,
 * bundles, messages) come from slabs, so the hot path does no malloc once
 * the pools have grown to the number of objects in flight.
 */
#ifndef VIMANA_UTIL_SLAB_H
#define VIMANA_UTIL_SLAB_H

#include "util/exported_names.h"

#include <stddef.h>

typedef struct slab {
    size_t obj_size;
    size_t per_block;
    void **blocks;
    size_t n_blocks, cap_blocks;
    size_t used_in_last;   /* objects handed out from the last block */
    void *free_list;
    size_t live;           /* objects currently allocated */
} slab;

void slab_init(slab *s, size_t obj_size, size_t per_block);
/* Returns uninitialised memory, or NULL when out of memory. */
void *slab_alloc(slab *s);
void slab_free(slab *s, void *obj);
void slab_destroy(slab *s);

#endif
