/*
 * idmap.h - a hash map from 64-bit ids to 32-bit array indices. Traces
 * name their records by sparse ids (node ids, record-function ids,
 * correlation ids, streams) and the tools look them up millions of times:
 * open addressing with linear probing over one flat array keeps a lookup
 * to one or two cache misses and a map to one allocation, with no
 * allocation per entry.
 */
#ifndef VIMANA_TOOLS_IDMAP_H
#define VIMANA_TOOLS_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct idmap_slot {
    uint64_t key;
    uint32_t value;
    uint32_t used;
} idmap_slot;

/* A zeroed idmap is an empty map. */
typedef struct idmap {
    idmap_slot *slots;
    size_t cap;     /* 0, or a power of two */
    size_t count;
} idmap;

/* An empty map with room for about `expected` keys before it first grows
 * (expected 0: nothing is allocated until the first insert). Returns 0,
 * or -1 when out of memory. */
int idmap_init(idmap *m, size_t expected);
void idmap_free(idmap *m);

/* The value of `key`, inserting the key with value 0 (and *inserted set)
 * when absent. NULL when out of memory. The pointer is valid until the
 * next insert. */
uint32_t *idmap_upsert(idmap *m, uint64_t key, bool *inserted);
/* Maps key -> value unless the key is present. Returns 1 when inserted, 0
 * when present (*existing, if not NULL, gets its value), -1 when out of
 * memory. */
int idmap_put(idmap *m, uint64_t key, uint32_t value, uint32_t *existing);
/* Maps key -> value, replacing an earlier value. Returns 0, or -1 when out
 * of memory. */
int idmap_set(idmap *m, uint64_t key, uint32_t value);
/* Whether the key is present; if so, *value gets its value. */
bool idmap_get(const idmap *m, uint64_t key, uint32_t *value);

#endif
