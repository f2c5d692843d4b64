#include "util/dep_links.h"

#include <stdio.h>
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
    if (n_links > 1) /* links may be NULL when there are none */
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

/* Kahn's walk: afterwards left[i] > 0 exactly for the nodes it could not
 * reach, i.e. those on a cycle or behind one. */
static uint32_t kahn_blocked(const uint32_t *children, const uint32_t *first, const uint32_t *count,
                             uint32_t n_nodes, uint32_t *left, uint32_t *queue)
{
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < n_nodes; i++)
        if (left[i] == 0)
            queue[tail++] = i;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t k = 0; k < count[v]; k++) {
            uint32_t c = children[first[v] + k];
            if (--left[c] == 0)
                queue[tail++] = c;
        }
    }
    return n_nodes - tail;
}

int64_t dep_links_find_cycle(const uint32_t *children, const uint32_t *first, const uint32_t *count,
                             const uint32_t *parents, uint32_t n_nodes, uint32_t *cycle)
{
    uint32_t *left = malloc((n_nodes ? n_nodes : 1) * sizeof *left);
    uint32_t *work = malloc((n_nodes ? n_nodes : 1) * sizeof *work);
    if (!left || !work) {
        free(left), free(work);
        return -1;
    }
    memcpy(left, parents, n_nodes * sizeof *left);
    int64_t k = 0;
    if (kahn_blocked(children, first, count, n_nodes, left, work) > 0) {
        /* A blocked node has a blocked parent, but it may have no blocked
         * child (it sits behind a cycle), so the walk goes backwards, over
         * a parent list of the blocked nodes: pred[v] = one blocked parent. */
        uint32_t *pred = work;
        for (uint32_t v = 0; v < n_nodes; v++)
            for (uint32_t j = 0; left[v] > 0 && j < count[v]; j++)
                if (left[children[first[v] + j]] > 0)
                    pred[children[first[v] + j]] = v;
        uint32_t v = 0;
        while (left[v] == 0)
            v++;
        /* steps[v] = 1 + position on the walk; 0 = not visited */
        uint32_t *steps = left;
        for (uint32_t i = 0; i < n_nodes; i++)
            steps[i] = steps[i] > 0 ? 0 : UINT32_MAX;
        uint32_t step = 0;
        while (steps[v] == 0) {
            steps[v] = ++step;
            v = pred[v];
        }
        /* v repeats: the cycle is the walk from v on, reversed */
        k = step - steps[v] + 1;
        uint32_t low = 0;
        for (int64_t i = k - 1; i >= 0; i--, v = pred[v]) {
            cycle[i] = v;
            if (i == k - 1 || v < cycle[low])
                low = (uint32_t)i;
        }
        for (uint32_t i = 0; i < k; i++)
            work[i] = cycle[(low + i) % k];
        memcpy(cycle, work, (size_t)k * sizeof *cycle);
    }
    free(left), free(work);
    return k;
}

void dep_links_cycle_text(const uint32_t *cycle, uint32_t k, uint64_t (*id_of)(const void *ctx, uint32_t index),
                          const void *ctx, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (uint32_t i = 0; i <= k && used < len; i++) {
        if (i > 0 && i < k && used + 64 > len) {
            snprintf(text + used, len - used, " -> ...");
            used += strlen(text + used);
            i = k;  /* close the cycle on its first node */
        }
        used += (size_t)snprintf(text + used, len - used, "%s%llu", i ? " -> " : "",
                                 (unsigned long long)id_of(ctx, cycle[i % k]));
    }
}
