#include "common/idmap.h"

#include <stdlib.h>

#include "util/hash.h"

#define MIN_CAP 16

static int allocate(idmap *m, size_t cap)
{
    if (cap > SIZE_MAX / sizeof *m->slots)
        return -1;
    m->slots = calloc(cap, sizeof *m->slots);
    if (!m->slots)
        return -1;
    m->cap = cap;
    m->count = 0;
    return 0;
}

int idmap_init(idmap *m, size_t expected)
{
    m->slots = NULL;
    m->cap = m->count = 0;
    if (expected == 0)
        return 0;
    size_t cap = MIN_CAP;
    while (cap < expected * 2) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    return allocate(m, cap);
}

void idmap_free(idmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

static idmap_slot *find_slot(const idmap *m, uint64_t key)
{
    /* splitmix64's finaliser: ids are often dense or strided runs, which
     * linear probing on the raw value would turn into long clusters. */
    size_t mask = m->cap - 1, i = (size_t)hash_mix64(key) & mask;
    while (m->slots[i].used && m->slots[i].key != key)
        i = (i + 1) & mask;
    return &m->slots[i];
}

/* Doubles the table (or makes the first one). */
static int grow(idmap *m)
{
    idmap old = *m;
    if (old.cap > SIZE_MAX / 2 || allocate(m, old.cap ? old.cap * 2 : MIN_CAP) != 0) {
        *m = old;
        return -1;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].used) {
            *find_slot(m, old.slots[i].key) = old.slots[i];
            m->count++;
        }
    free(old.slots);
    return 0;
}

uint32_t *idmap_upsert(idmap *m, uint64_t key, bool *inserted)
{
    /* Keep the load factor at or below 1/2. */
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return NULL;
    idmap_slot *s = find_slot(m, key);
    *inserted = !s->used;
    if (!s->used) {
        s->used = 1;
        s->key = key;
        s->value = 0;
        m->count++;
    }
    return &s->value;
}

int idmap_put(idmap *m, uint64_t key, uint32_t value, uint32_t *existing)
{
    bool inserted;
    uint32_t *v = idmap_upsert(m, key, &inserted);
    if (!v)
        return -1;
    if (!inserted) {
        if (existing)
            *existing = *v;
        return 0;
    }
    *v = value;
    return 1;
}

int idmap_set(idmap *m, uint64_t key, uint32_t value)
{
    bool inserted;
    uint32_t *v = idmap_upsert(m, key, &inserted);
    if (!v)
        return -1;
    *v = value;
    return 0;
}

bool idmap_get(const idmap *m, uint64_t key, uint32_t *value)
{
    if (m->cap == 0)
        return false;
    const idmap_slot *s = find_slot(m, key);
    if (!s->used)
        return false;
    *value = s->value;
    return true;
}
