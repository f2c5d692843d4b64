#include "trace_link/int_map.h"

#include <stdlib.h>

/* splitmix64's finaliser: ids are often dense or strided, which linear
 * probing on the raw value would turn into long clusters. */
static inline uint64_t mix(int64_t key)
{
    uint64_t x = (uint64_t)key;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static int allocate(int_map *m, size_t cap)
{
    m->slots = calloc(cap, sizeof *m->slots);
    if (!m->slots)
        return -1;
    m->cap = cap;
    m->count = 0;
    return 0;
}

int int_map_init(int_map *m, size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2)
        cap *= 2;
    return allocate(m, cap);
}

void int_map_free(int_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

static int_map_slot *find_slot(const int_map *m, int64_t key)
{
    size_t mask = m->cap - 1, i = (size_t)mix(key) & mask;
    while (m->slots[i].used && m->slots[i].key != key)
        i = (i + 1) & mask;
    return &m->slots[i];
}

static int grow(int_map *m)
{
    int_map old = *m;
    if (allocate(m, old.cap * 2) != 0) {
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

uint32_t *int_map_upsert(int_map *m, int64_t key, bool *inserted)
{
    /* Keep the load factor at or below 1/2. */
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return NULL;
    int_map_slot *s = find_slot(m, key);
    *inserted = !s->used;
    if (!s->used) {
        s->used = 1;
        s->key = key;
        s->value = 0;
        m->count++;
    }
    return &s->value;
}

int int_map_put(int_map *m, int64_t key, uint32_t value)
{
    bool inserted;
    uint32_t *v = int_map_upsert(m, key, &inserted);
    if (!v)
        return -1;
    *v = value;
    return 0;
}

bool int_map_get(const int_map *m, int64_t key, uint32_t *value)
{
    if (m->cap == 0)
        return false;
    const int_map_slot *s = find_slot(m, key);
    if (!s->used)
        return false;
    *value = s->value;
    return true;
}
