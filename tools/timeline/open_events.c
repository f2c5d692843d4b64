/*
 * open_events.c - open addressing with linear probing. Deletion shifts the
 * following entries back instead of leaving tombstones, so a long log of
 * issue/callback pairs never degrades the table.
 */
#include "timeline/open_events.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct open_events {
    open_event *slots; /* name == NULL marks an empty slot */
    size_t capacity;   /* a power of two */
    size_t count;
};

#define INITIAL_CAPACITY 64

static size_t hash_key(uint64_t npu, uint64_t node)
{
    uint64_t h = node * 0x9e3779b97f4a7c15ull ^ (npu + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    return (size_t)(h ^ (h >> 31));
}

static bool slot_used(const open_event *slot)
{
    return slot->name != NULL;
}

open_events *open_events_new(void)
{
    open_events *set = calloc(1, sizeof *set);
    if (!set)
        return NULL;
    set->slots = calloc(INITIAL_CAPACITY, sizeof *set->slots);
    if (!set->slots) {
        free(set);
        return NULL;
    }
    set->capacity = INITIAL_CAPACITY;
    return set;
}

void open_events_free(open_events *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->capacity; i++)
        free(set->slots[i].name);
    free(set->slots);
    free(set);
}

/* The slot holding (npu, node), or the empty slot where it would go. */
static open_event *probe(const open_events *set, uint64_t npu, uint64_t node)
{
    size_t mask = set->capacity - 1;
    for (size_t i = hash_key(npu, node) & mask;; i = (i + 1) & mask) {
        open_event *slot = &set->slots[i];
        if (!slot_used(slot) || (slot->npu == npu && slot->node == node))
            return slot;
    }
}

open_event *open_events_find(open_events *set, uint64_t npu, uint64_t node)
{
    open_event *slot = probe(set, npu, node);
    return slot_used(slot) ? slot : NULL;
}

/* Doubles the table, moving the entries (names move, not copied). */
static int grow(open_events *set)
{
    open_events bigger = {calloc(set->capacity * 2, sizeof *set->slots), set->capacity * 2, set->count};
    if (!bigger.slots)
        return -1;
    for (size_t i = 0; i < set->capacity; i++)
        if (slot_used(&set->slots[i]))
            *probe(&bigger, set->slots[i].npu, set->slots[i].node) = set->slots[i];
    free(set->slots);
    *set = bigger;
    return 0;
}

int open_events_add(open_events *set, const open_event *ev)
{
    /* Keep the load at most 1/2 so probes stay short. */
    if ((set->count + 1) * 2 > set->capacity && grow(set) != 0)
        return -1;
    char *name = malloc(ev->name_len + 1);
    if (!name)
        return -1;
    memcpy(name, ev->name, ev->name_len);
    name[ev->name_len] = '\0';
    open_event *slot = probe(set, ev->npu, ev->node);
    *slot = *ev;
    slot->name = name;
    set->count++;
    return 0;
}

void open_events_remove(open_events *set, open_event *ev)
{
    size_t mask = set->capacity - 1;
    size_t hole = (size_t)(ev - set->slots);
    free(ev->name);
    set->slots[hole].name = NULL;
    set->count--;
    /* Backward-shift: move later entries of the probe run into the hole
     * when their home slot does not lie between the hole and them. */
    for (size_t i = (hole + 1) & mask; slot_used(&set->slots[i]); i = (i + 1) & mask) {
        size_t home = hash_key(set->slots[i].npu, set->slots[i].node) & mask;
        bool stays = (i > hole) ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays)
            continue;
        set->slots[hole] = set->slots[i];
        set->slots[i].name = NULL;
        hole = i;
    }
}

size_t open_events_count(const open_events *set)
{
    return set->count;
}

const open_event *open_events_oldest(const open_events *set)
{
    const open_event *oldest = NULL;
    for (size_t i = 0; i < set->capacity; i++)
        if (slot_used(&set->slots[i]) && (!oldest || set->slots[i].line < oldest->line))
            oldest = &set->slots[i];
    return oldest;
}
