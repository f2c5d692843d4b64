#include "trace_link/ts_sort.h"

#include <stdlib.h>

static int compare_keys(const void *a, const void *b)
{
    const ts_key *x = a, *y = b;
    int c = pynum_cmp(x->primary, y->primary);
    if (c == 0)
        c = pynum_cmp(x->secondary, y->secondary);
    if (c == 0)
        c = (x->order > y->order) - (x->order < y->order);
    return c;
}

void ts_keys_sort(ts_key *keys, size_t n)
{
    if (n > 1)
        qsort(keys, n, sizeof *keys, compare_keys);
}
