/*
 * ready_set.h - the nodes of a trace that are ready to issue: a binary
 * min-heap of node indices, so the lowest index (= lowest id, trace_graph
 * nodes being sorted by id) comes out first, in O(log n) per node.
 *
 * Used by the workload (one set per hardware slot) and by custom
 * collectives. The array only grows (doubling), so pushing costs no
 * allocation once the set has held that many nodes; ready_set_reserve()
 * sizes it up front. Push, pop and min are inline: they run once per
 * issued node.
 */
#ifndef VIMANA_TRACE_READY_SET_H
#define VIMANA_TRACE_READY_SET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ready_set {
    uint32_t *items;            /* heap order: items[0] is the minimum */
    uint32_t len, cap;
} ready_set;

/* Room for at least `cap` nodes. Returns false when out of memory. */
bool ready_set_reserve(ready_set *r, uint32_t cap);
/* Doubles the room of a full set. Returns false when out of memory. */
bool ready_set_grow(ready_set *r);
void ready_set_free(ready_set *r);

static inline bool ready_set_empty(const ready_set *r)
{
    return r->len == 0;
}

/* The lowest node index in a non-empty set. */
static inline uint32_t ready_set_min(const ready_set *r)
{
    return r->items[0];
}

/* Adds a node. Returns false when out of memory (the set is unchanged). */
static inline bool ready_set_push(ready_set *r, uint32_t node)
{
    if (r->len == r->cap && !ready_set_grow(r))
        return false;
    uint32_t i = r->len++;
    while (i > 0 && r->items[(i - 1) / 2] > node) {
        r->items[i] = r->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->items[i] = node;
    return true;
}

/* Removes and returns the lowest node index of a non-empty set. */
static inline uint32_t ready_set_pop(ready_set *r)
{
    uint32_t top = r->items[0], last = r->items[--r->len], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= r->len)
            break;
        if (c + 1 < r->len && r->items[c + 1] < r->items[c])
            c++;
        if (r->items[c] >= last)
            break;
        r->items[i] = r->items[c];
        i = c;
    }
    if (r->len)
        r->items[i] = last;
    return top;
}

#endif
