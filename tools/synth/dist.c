#include "synth/dist.h"

#include <math.h>
#include <stdlib.h>

#include "util/grow.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int dist_values_push(dist_values *s, uint64_t x)
{
    if (grow_array((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v, 64) != 0)
        return -1;
    s->v[s->n++] = x;
    return 0;
}

void dist_sort(uint64_t *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_u64);
}

size_t dist_rank(size_t n, size_t q, size_t steps)
{
    size_t whole = (n - 1) / steps, part = (n - 1) % steps;
    return whole * q + (part * q + steps / 2) / steps;
}

void dist_from_sorted(dist *d, const uint64_t *sorted, size_t n)
{
    d->n_pairs = 0;
    d->total = n;
    size_t distinct = 0;
    for (size_t i = 0; i < n && distinct <= DIST_MAX_PAIRS; i++)
        if (i == 0 || sorted[i] != sorted[i - 1])
            distinct++;
    if (distinct <= DIST_MAX_PAIRS) {
        for (size_t i = 0; i < n; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                d->value[d->n_pairs] = sorted[i];
                d->count[d->n_pairs++] = 0;
            }
            d->count[d->n_pairs - 1]++;
        }
        return;
    }
    for (size_t q = 0; q < DIST_QUANTILES; q++)
        d->quantile[q] = sorted[dist_rank(n, q, DIST_QUANTILES - 1)];
}

uint64_t dist_inverse(const dist *d, double u)
{
    if (d->n_pairs) {
        /* The first value whose cumulative count exceeds u * total. */
        double target = u * (double)d->total;
        uint64_t cum = 0;
        for (size_t i = 0; i < d->n_pairs; i++) {
            cum += d->count[i];
            if ((double)cum > target)
                return d->value[i];
        }
        return d->value[d->n_pairs - 1];
    }
    double x = u * (DIST_QUANTILES - 1);
    size_t i = (size_t)x;
    if (i >= DIST_QUANTILES - 1)
        return d->quantile[DIST_QUANTILES - 1];
    double lo = (double)d->quantile[i], hi = (double)d->quantile[i + 1];
    double v = floor(lo + (x - (double)i) * (hi - lo) + 0.5);
    /* Between two uint64 points, so within range; the cast guards the top. */
    return v >= 0x1.0p64 ? UINT64_MAX : (uint64_t)v;
}

void dist_stratified(const dist *d, sample_rng *r, uint64_t *out, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        out[i] = dist_inverse(d, ((double)i + sample_rng_next(r)) / (double)n);
}

double dist_ks(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    if (na == 0 || nb == 0)
        return 0.0;
    size_t i = 0, j = 0;
    double best = 0.0;
    /* Walk the merged order; compare the CDFs after each distinct value. */
    while (i < na || j < nb) {
        uint64_t x = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
        while (i < na && a[i] == x)
            i++;
        while (j < nb && b[j] == x)
            j++;
        double diff = fabs((double)i / (double)na - (double)j / (double)nb);
        if (diff > best)
            best = diff;
    }
    return best;
}
