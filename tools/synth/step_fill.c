#include "synth/step_fill.h"

#include <stdlib.h>

#include "util/sorted.h"

/* The nearest unused value at or right of i is right-root(i) (n when
 * none); at or left of i - 1 is left-root(i) - 1 (-1 when none). */
typedef struct pool {
    const uint64_t *v;
    uint64_t n;
    uint64_t *right, *left;
} pool;

static uint64_t find(uint64_t *parent, uint64_t i)
{
    uint64_t root = i;
    while (parent[root] != root)
        root = parent[root];
    while (parent[i] != root) {
        uint64_t next = parent[i];
        parent[i] = root;
        i = next;
    }
    return root;
}

/* Takes the unused value nearest to t (the smaller one on a tie). */
static uint64_t pool_take(pool *p, double t)
{
    uint64_t lo = 0, hi = p->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((double)p->v[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t r = find(p->right, lo), l1 = find(p->left, lo), pick;
    if (r == p->n)
        pick = l1 - 1;
    else if (l1 == 0)
        pick = r;
    else
        pick = t - (double)p->v[l1 - 1] <= (double)p->v[r] - t ? l1 - 1 : r;
    p->right[pick] = pick + 1;
    p->left[pick + 1] = pick;
    return p->v[pick];
}


int step_fill(const uint64_t *sorted, uint64_t n, const step_fill_step *steps, size_t n_steps, uint64_t *out)
{
    pool p = {sorted, n, malloc((n + 1) * sizeof *p.right), malloc((n + 1) * sizeof *p.left)};
    key_order *ord = malloc((n_steps + 1) * sizeof *ord);
    int rc = p.right && p.left && ord ? 0 : -1;
    size_t k = 0;
    for (uint64_t i = 0; rc == 0 && i <= n; i++)
        p.right[i] = p.left[i] = i;
    for (size_t i = 0; rc == 0 && i < n_steps; i++)
        if (steps[i].count)
            ord[k++] = (key_order){steps[i].count, i};
    if (rc == 0)
        key_order_sort(ord, k);
    for (size_t j = 0; rc == 0 && j < k; j++) {
        const step_fill_step *st = &steps[ord[j].index];
        double left = st->target;
        for (uint64_t c = 0; c < st->count; c++) {
            uint64_t x = pool_take(&p, left / (double)(st->count - c));
            out[st->first + c] = x;
            left -= (double)x;
        }
    }
    free(p.right);
    free(p.left);
    free(ord);
    return rc;
}
