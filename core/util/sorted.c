/*
 * sorted.c - see sorted.h.
 */
#include "util/sorted.h"

#include <stdlib.h>

static int by_key_then_index(const void *pa, const void *pb)
{
    const key_order *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

void key_order_sort(key_order *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, by_key_then_index);
}
