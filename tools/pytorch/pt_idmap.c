#include "pytorch/pt_idmap.h"

#include <stdlib.h>

/* Node ids are small, dense-ish integers; a strong mixer (splitmix64's
 * finaliser) spreads them over the table so linear probing stays short. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static int alloc_slots(pt_idmap *m, size_t capacity)
{
    m->slots = malloc(capacity * sizeof *m->slots);
    if (!m->slots)
        return -1;
    for (size_t i = 0; i < capacity; i++)
        m->slots[i].value = PT_IDMAP_NONE;
    m->mask = capacity - 1;
    m->count = 0;
    return 0;
}

int pt_idmap_init(pt_idmap *m, size_t expected)
{
    size_t capacity = 16;
    while (capacity < expected * 2) {
        if (capacity > ((size_t)-1 / sizeof(pt_idmap_slot)) / 2)
            return -1;
        capacity *= 2;
    }
    return alloc_slots(m, capacity);
}

void pt_idmap_free(pt_idmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->mask = 0;
    m->count = 0;
}

static size_t find_slot(const pt_idmap *m, uint64_t key)
{
    size_t i = (size_t)mix(key) & m->mask;
    while (m->slots[i].value != PT_IDMAP_NONE && m->slots[i].key != key)
        i = (i + 1) & m->mask;
    return i;
}

/* Doubles the table, keeping the load factor at or below one half. */
static int grow(pt_idmap *m)
{
    pt_idmap old = *m;
    if (old.mask + 1 > ((size_t)-1 / sizeof(pt_idmap_slot)) / 2)
        return -1;
    if (alloc_slots(m, (old.mask + 1) * 2) != 0) {
        *m = old;
        return -1;
    }
    for (size_t i = 0; i <= old.mask; i++) {
        if (old.slots[i].value == PT_IDMAP_NONE)
            continue;
        m->slots[find_slot(m, old.slots[i].key)] = old.slots[i];
        m->count++;
    }
    free(old.slots);
    return 0;
}

int pt_idmap_put(pt_idmap *m, uint64_t key, uint32_t value, uint32_t *existing)
{
    size_t i = find_slot(m, key);
    if (m->slots[i].value != PT_IDMAP_NONE) {
        if (existing)
            *existing = m->slots[i].value;
        return 0;
    }
    if ((m->count + 1) * 2 > m->mask + 1) {
        if (grow(m) != 0)
            return -1;
        i = find_slot(m, key);
    }
    m->slots[i].key = key;
    m->slots[i].value = value;
    m->count++;
    return 1;
}

uint32_t pt_idmap_get(const pt_idmap *m, uint64_t key)
{
    if (!m->slots)
        return PT_IDMAP_NONE;
    return m->slots[find_slot(m, key)].value;
}
