#include "etcmd/idmap.h"

#include <stdlib.h>

void idmap_init(idmap *m)
{
    m->keys = NULL;
    m->slots = NULL;
    m->cap = m->n = 0;
}

static size_t hash(uint64_t key, size_t cap)
{
    /* Fibonacci hashing: ids are often dense runs, which this spreads. */
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static int grow(idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!keys || !slots) {
        free(keys);
        free(slots);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i])
            continue;
        size_t h = hash(m->keys[i], cap);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        keys[h] = m->keys[i];
        slots[h] = m->slots[i];
    }
    free(m->keys);
    free(m->slots);
    m->keys = keys;
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int idmap_put(idmap *m, uint64_t key, uint32_t index, uint32_t *existing)
{
    if ((m->n + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    size_t h = hash(key, m->cap);
    while (m->slots[h]) {
        if (m->keys[h] == key) {
            *existing = m->slots[h] - 1;
            return 0;
        }
        h = (h + 1) & (m->cap - 1);
    }
    m->keys[h] = key;
    m->slots[h] = index + 1;
    m->n++;
    return 1;
}

bool idmap_get(const idmap *m, uint64_t key, uint32_t *index)
{
    if (m->cap == 0)
        return false;
    size_t h = hash(key, m->cap);
    while (m->slots[h]) {
        if (m->keys[h] == key) {
            *index = m->slots[h] - 1;
            return true;
        }
        h = (h + 1) & (m->cap - 1);
    }
    return false;
}

void idmap_free(idmap *m)
{
    free(m->keys);
    free(m->slots);
    idmap_init(m);
}
