#include "util/dep_links.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int dep_links_build(uint64_t *links, size_t n_links, uint32_t n_nodes, uint32_t **children, uint32_t *first,
                    uint32_t *count, uint32_t *parents)
{
    qsort(links, n_links, sizeof *links, cmp_u64);
    size_t unique = 0;
    for (size_t i = 0; i < n_links; i++)
        if (i == 0 || links[i] != links[i - 1])
            links[unique++] = links[i];
    *children = malloc((unique ? unique : 1) * sizeof **children);
    if (!*children)
        return -1;
    memset(count, 0, n_nodes * sizeof *count);
    memset(parents, 0, n_nodes * sizeof *parents);
    for (size_t i = 0; i < unique; i++) {
        count[links[i] >> 32]++;
        parents[(uint32_t)links[i]]++;
    }
    uint32_t start = 0;
    for (uint32_t i = 0; i < n_nodes; i++) {
        first[i] = start;
        start += count[i];
    }
    /* sorted by parent, then child: each block fills in ascending order */
    for (size_t i = 0; i < unique; i++)
        (*children)[i] = (uint32_t)links[i];
    return 0;
}
