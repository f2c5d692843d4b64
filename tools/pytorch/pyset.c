#include "pytorch/pyset.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* CPython's Objects/setobject.c constants. */
#define PYSET_MINSIZE 8
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

/* hash(int) reduces modulo the Mersenne prime 2^61 - 1. */
uint64_t pt_pyset_hash(uint64_t key)
{
    const uint64_t modulus = (1ULL << 61) - 1;
    return key % modulus;
}

typedef struct slot {
    uint64_t key;
    uint64_t hash;
    bool used;
} slot;

/* Probe sequence shared by set_add_entry and set_insert_clean for a table
 * without deleted entries: a run of up to LINEAR_PROBES + 1 slots, then a
 * perturbed jump. */
static size_t free_slot(const slot *table, size_t mask, uint64_t hash)
{
    size_t perturb = (size_t)hash;
    size_t i = (size_t)hash & mask;
    for (;;) {
        size_t run = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        for (size_t j = 0; j <= run; j++)
            if (!table[i + j].used)
                return i + j;
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* set_table_resize: the smallest power of two above minused, refilled in
 * the old table's slot order. */
static slot *resize(slot *old, size_t old_size, size_t minused, size_t *new_size)
{
    size_t size = PYSET_MINSIZE;
    while (size <= minused)
        size <<= 1;
    slot *table = calloc(size, sizeof *table);
    if (!table)
        return NULL;
    for (size_t k = 0; k < old_size; k++)
        if (old[k].used)
            table[free_slot(table, size - 1, old[k].hash)] = old[k];
    *new_size = size;
    return table;
}

int pt_pyset_order(uint64_t *keys, size_t n)
{
    /* CPython starts every set in an embedded 8-slot table; so do we, and
     * allocate only when the set grows past four keys */
    slot small[PYSET_MINSIZE];
    memset(small, 0, sizeof small);
    slot *table = small;
    size_t size = PYSET_MINSIZE, fill = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t hash = pt_pyset_hash(keys[k]);
        table[free_slot(table, size - 1, hash)] = (slot){keys[k], hash, true};
        fill++;
        if (fill * 5 >= (size - 1) * 3) {
            size_t new_size;
            slot *bigger = resize(table, size, fill > 50000 ? fill * 2 : fill * 4, &new_size);
            if (table != small)
                free(table);
            if (!bigger)
                return -1;
            table = bigger;
            size = new_size;
        }
    }
    size_t out = 0;
    for (size_t k = 0; k < size; k++)
        if (table[k].used)
            keys[out++] = table[k].key;
    if (table != small)
        free(table);
    return 0;
}
