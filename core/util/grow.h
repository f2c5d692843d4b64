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

/* Makes *items (an array of `*cap` items of `size` bytes, or NULL with
 * *cap 0) hold at least `need` items: the capacity becomes `first_cap`,
 * or the old one, doubled until it is enough. Returns 0, or -1 (the array
 * untouched) when out of memory. */
static inline int grow_array(void **items, size_t *cap, size_t need, size_t size, size_t first_cap)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : first_cap;
    while (n < need) {
        if (n > SIZE_MAX / 2)
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

#endif
