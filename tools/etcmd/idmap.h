/*
 * idmap.h - node id -> node index, an open-addressing hash table over two
 * flat arrays (no per-entry allocation), for graphs of millions of nodes.
 */
#ifndef VIMANA_ETCMD_IDMAP_H
#define VIMANA_ETCMD_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct idmap {
    uint64_t *keys;
    uint32_t *slots;   /* index + 1; 0 marks an empty slot */
    size_t cap, n;     /* cap is a power of two */
} idmap;

void idmap_init(idmap *m);
/* Maps key -> index unless key is present already. Returns 1 when
 * inserted, 0 when present (*existing = its index), -1 out of memory. */
int idmap_put(idmap *m, uint64_t key, uint32_t index, uint32_t *existing);
bool idmap_get(const idmap *m, uint64_t key, uint32_t *index);
void idmap_free(idmap *m);

#endif
