/*
 * The ready set's allocation (the heap operations are inline in
 * ready_set.h).
 */
#include "trace/ready_set.h"

#include <stdlib.h>

bool ready_set_reserve(ready_set *r, uint32_t cap)
{
    if (cap <= r->cap)
        return true;
    uint32_t *items = realloc(r->items, (size_t)cap * sizeof *items);
    if (!items)
        return false;
    r->items = items;
    r->cap = cap;
    return true;
}

bool ready_set_grow(ready_set *r)
{
    if (r->cap == UINT32_MAX)
        return false;
    return ready_set_reserve(r, r->cap == 0 ? 16 : r->cap < UINT32_MAX / 2 ? r->cap * 2 : UINT32_MAX);
}

void ready_set_free(ready_set *r)
{
    free(r->items);
    r->items = NULL;
    r->len = r->cap = 0;
}
