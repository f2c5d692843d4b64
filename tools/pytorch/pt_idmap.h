/*
 * pt_idmap.h - an open-addressing hash map from 64-bit node ids to 32-bit
 * array indices. Host traces name nodes by sparse ids (tensors share the id
 * counter), so every "node with id X" lookup goes through one of these to
 * keep the converter linear in the trace size.
 */
#ifndef VIMANA_PYTORCH_IDMAP_H
#define VIMANA_PYTORCH_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#define PT_IDMAP_NONE UINT32_MAX

typedef struct pt_idmap_slot {
    uint64_t key;
    uint32_t value; /* PT_IDMAP_NONE marks an empty slot */
} pt_idmap_slot;

typedef struct pt_idmap {
    pt_idmap_slot *slots;
    size_t mask; /* capacity - 1; capacity is a power of two */
    size_t count;
} pt_idmap;

/* Sizes the table for about `expected` keys; returns 0 or -1 (no memory). */
int pt_idmap_init(pt_idmap *m, size_t expected);
void pt_idmap_free(pt_idmap *m);
/* Inserts key -> value unless the key is present. Returns 1 when inserted,
 * 0 when the key was already there (*existing, if given, gets its value),
 * -1 when out of memory. `value` must not be PT_IDMAP_NONE. */
int pt_idmap_put(pt_idmap *m, uint64_t key, uint32_t value, uint32_t *existing);
/* The value stored for `key`, or PT_IDMAP_NONE. */
uint32_t pt_idmap_get(const pt_idmap *m, uint64_t key);

#endif
