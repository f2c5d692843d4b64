/*
 * grow.h - room for more items in a heap array that doubles its capacity
 * as it fills, so appending n items costs O(n) copies in all.
 *
 * Header-only: the ET library and the tools both use it, and the library
 * exports only its vet_ API.
 */
#ifndef VIMANA_UTIL_GROW_H
#define VIMANA_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* grow_array with a largest capacity: -1 (the array untouched) where the
 * doubling would pass `max`. */
static inline int grow_array_max(void **items, size_t *cap, size_t need, size_t size, size_t first_cap, size_t max)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : first_cap;
    if (n > max)
        return -1;
    while (n < need) {
        if (n > max / 2)
            return -1;
        n *= 2;
    }
    if (n > SIZE_MAX / size)
        return -1;
    void *p = realloc(*items, n * size);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}

/* Makes *items (an array of `*cap` items of `size` bytes, or NULL with
 * *cap 0) hold at least `need` items: the capacity becomes `first_cap`,
 * or the old one, doubled until it is enough. Returns 0, or -1 (the array
 * untouched) when out of memory. */
static inline int grow_array(void **items, size_t *cap, size_t need, size_t size, size_t first_cap)
{
    return grow_array_max(items, cap, need, size, first_cap, SIZE_MAX);
}

/* grow_array for the pools whose indices are uint32_t (the simulator's
 * per-NPU tables, the event queue, the graphs of the tools): -1 (the
 * array untouched) where the capacity would pass `max`, so that every
 * index fits the pool's type and a "none" value above `max` stays free. */
static inline int grow_array_u32(void **items, uint32_t *cap, uint32_t need, size_t size, uint32_t first_cap,
                                 uint32_t max)
{
    size_t n = *cap;
    if (grow_array_max(items, &n, need, size, first_cap, max) != 0)
        return -1;
    *cap = (uint32_t)n;
    return 0;
}

#endif
