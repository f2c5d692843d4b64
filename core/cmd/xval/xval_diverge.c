/*
 * xval_diverge.c - the comparison behind xval's divergence report. The
 * collectives are matched by node id (the runs replay the same trace, but a
 * backend may finish independent collectives in another order); the links
 * by their (src_device, dst_device) pair, which backends reading the same
 * network file share.
 */
#include "cmd/xval/xval_diverge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sorted.h"

bool xval_diverge_ratio(uint64_t duration, uint64_t baseline, double *ratio)
{
    if (baseline == 0) {
        *ratio = 1.0;
        return duration == 0;
    }
    *ratio = (double)duration / (double)baseline;
    return true;
}

/* ---- collectives ------------------------------------------------------------ */

/* One backend's records sorted by key (then by position), so that a
 * record is found by binary search: the runs of a large workload hold
 * thousands of collectives and links, and every one is looked up in every
 * backend. */
typedef struct index_entry {
    uint64_t k1, k2;        /* node id and 0, or src_device and dst_device */
    size_t pos;             /* in the backend's list */
} index_entry;

typedef struct key_index {
    index_entry *e;
    size_t n;
} key_index;

static int by_key(const void *pa, const void *pb)
{
    const index_entry *a = pa, *b = pb;
    uint64_t ka[] = {a->k1, a->k2, a->pos}, kb[] = {b->k1, b->k2, b->pos};
    return keys_order(ka, kb, 3);
}

static int index_build(key_index *x, size_t n)
{
    x->n = n;
    x->e = calloc(n ? n : 1, sizeof *x->e);
    return x->e ? 0 : -1;
}

/* The position of the first record with key (k1, k2), or -1. */
static long index_find(const key_index *x, uint64_t k1, uint64_t k2)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const index_entry *m = &x->e[mid];
        if (m->k1 < k1 || (m->k1 == k1 && m->k2 < k2))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->n && x->e[lo].k1 == k1 && x->e[lo].k2 == k2 ? (long)x->e[lo].pos : -1;
}

/* Per backend, its collectives by node id and its links by (src, dst);
 * empty for a backend that did not run (or has no link statistics). */
typedef struct indexes {
    key_index *colls, *links;
    size_t n;
} indexes;

static void indexes_free(indexes *ix)
{
    for (size_t b = 0; b < ix->n; b++) {
        free(ix->colls ? ix->colls[b].e : NULL);
        free(ix->links ? ix->links[b].e : NULL);
    }
    free(ix->colls);
    free(ix->links);
}

static int indexes_build(const xval_detail *d, size_t n, indexes *ix)
{
    ix->n = n;
    ix->colls = calloc(n ? n : 1, sizeof *ix->colls);
    ix->links = calloc(n ? n : 1, sizeof *ix->links);
    if (!ix->colls || !ix->links)
        return -1;
    for (size_t b = 0; b < n; b++) {
        size_t nc = d[b].ran ? d[b].n_colls : 0, nl = d[b].ran && d[b].has_links ? d[b].n_links : 0;
        if (index_build(&ix->colls[b], nc) != 0 || index_build(&ix->links[b], nl) != 0)
            return -1;
        for (size_t i = 0; i < nc; i++)
            ix->colls[b].e[i] = (index_entry){d[b].colls[i].node, 0, i};
        for (size_t i = 0; i < nl; i++)
            ix->links[b].e[i] = (index_entry){d[b].links[i].src_device, d[b].links[i].dst_device, i};
        qsort(ix->colls[b].e, nc, sizeof *ix->colls[b].e, by_key);
        qsort(ix->links[b].e, nl, sizeof *ix->links[b].e, by_key);
    }
    return 0;
}

static long find_node(const indexes *ix, size_t b, uint64_t node)
{
    return index_find(&ix->colls[b], node, 0);
}

/* Whether an earlier backend already listed the node (its row exists). */
static bool listed_before(const indexes *ix, size_t b, uint64_t node)
{
    for (size_t k = 0; k < b; k++)
        if (find_node(ix, k, node) >= 0)
            return true;
    return false;
}

typedef struct order_key {
    size_t backend;         /* the first backend that has the node */
    uint64_t start;         /* its start there */
    uint64_t node;
    const xval_coll *what;
} order_key;

static int by_order(const void *pa, const void *pb)
{
    const order_key *a = pa, *b = pb;
    uint64_t ka[] = {a->backend, a->start, a->node}, kb[] = {b->backend, b->start, b->node};
    return keys_order(ka, kb, 3);
}

/* The union of the nodes, in the baseline's order (nodes only a later
 * backend reported come after, in that backend's order). */
static order_key *node_order(const xval_detail *d, const indexes *ix, size_t n, size_t *count)
{
    size_t total = 0;
    for (size_t b = 0; b < n; b++)
        total += d[b].ran ? d[b].n_colls : 0;
    order_key *keys = calloc(total ? total : 1, sizeof *keys);
    if (!keys)
        return NULL;
    size_t k = 0;
    for (size_t b = 0; b < n; b++)
        for (size_t i = 0; d[b].ran && i < d[b].n_colls; i++)
            if (find_node(ix, b, d[b].colls[i].node) == (long)i && !listed_before(ix, b, d[b].colls[i].node))
                keys[k++] = (order_key){b, d[b].colls[i].start, d[b].colls[i].node, &d[b].colls[i]};
    qsort(keys, k, sizeof *keys, by_order);
    *count = k;
    return keys;
}

/* |duration - baseline| > tolerance * baseline: the finish times' band. */
static bool leaves_band(uint64_t duration, uint64_t baseline, double tolerance)
{
    return fabs((double)duration - (double)baseline) > tolerance * (double)baseline;
}

static int fill_row(const xval_detail *d, const indexes *ix, size_t n, const order_key *key, double tolerance,
                    xval_coll_row *row)
{
    row->what = key->what;
    row->duration = calloc(n, sizeof *row->duration);
    row->has = calloc(n, sizeof *row->has);
    row->outside = calloc(n, sizeof *row->outside);
    if (!row->duration || !row->has || !row->outside)
        return -1;
    for (size_t b = 0; b < n; b++) {
        long i = find_node(ix, b, key->node);
        row->has[b] = i >= 0;
        row->duration[b] = i >= 0 ? d[b].colls[i].duration : 0;
    }
    for (size_t b = 1; b < n; b++)
        row->outside[b] = row->has[0] && row->has[b] && leaves_band(row->duration[b], row->duration[0], tolerance);
    return 0;
}

static int compare_collectives(const xval_detail *d, const indexes *ix, size_t n, double tolerance,
                               xval_divergence *v)
{
    size_t count = 0;
    order_key *keys = node_order(d, ix, n, &count);
    if (!keys)
        return -1;
    v->rows = calloc(count ? count : 1, sizeof *v->rows);
    int rc = v->rows ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < count; k++) {
        v->n_rows = k + 1;
        rc = fill_row(d, ix, n, &keys[k], tolerance, &v->rows[k]);
        for (size_t b = 1; rc == 0 && b < n && !v->has_first; b++)
            if (v->rows[k].outside[b]) {
                v->has_first = true;
                v->first = k;
            }
    }
    free(keys);
    return rc;
}

/* ---- links ---------------------------------------------------------------------- */

static long find_link(const indexes *ix, size_t b, uint64_t src, uint64_t dst)
{
    return index_find(&ix->links[b], src, dst);
}

static bool link_listed_before(const indexes *ix, size_t b, const xval_link *l)
{
    for (size_t k = 0; k < b; k++)
        if (find_link(ix, k, l->src_device, l->dst_device) >= 0)
            return true;
    return false;
}

/* The spread of busy ticks and the queue difference over the backends
 * with link statistics. */
static void link_spread(const xval_detail *d, size_t n, xval_link_row *row)
{
    uint64_t lo = UINT64_MAX, hi = 0, qlo = UINT64_MAX, qhi = 0;
    row->used_by_all = true;
    for (size_t b = 0; b < n; b++) {
        if (!d[b].ran || !d[b].has_links)
            continue;
        const xval_link *l = &row->per[b];
        row->used_by_all &= l->busy_ticks > 0 || l->bytes > 0;
        lo = l->busy_ticks < lo ? l->busy_ticks : lo;
        hi = l->busy_ticks > hi ? l->busy_ticks : hi;
        if (l->has_queue) {
            qlo = l->max_queue_ticks < qlo ? l->max_queue_ticks : qlo;
            qhi = l->max_queue_ticks > qhi ? l->max_queue_ticks : qhi;
        }
    }
    row->busy_spread = row->used_by_all && lo > 0 ? (double)hi / (double)lo : row->used_by_all ? 1.0 : 0.0;
    row->queue_diff = qhi >= qlo ? qhi - qlo : 0;
}

static int fill_link(const xval_detail *d, const indexes *ix, size_t n, const xval_link *what, xval_link_row *row)
{
    row->what = what;
    row->per = calloc(n, sizeof *row->per);
    if (!row->per)
        return -1;
    for (size_t b = 0; b < n; b++) {
        long i = find_link(ix, b, what->src_device, what->dst_device);
        if (i >= 0)
            row->per[b] = d[b].links[i];
        else
            row->per[b] = (xval_link){.src_device = what->src_device, .dst_device = what->dst_device,
                                      .has_queue = d[b].n_links > 0 && d[b].links[0].has_queue};
    }
    link_spread(d, n, row);
    return 0;
}

/* Links used by some backends and not others first (the routes differ),
 * then the widest busy-ticks spread, then the widest worst-queue
 * difference; ties in link order. */
static int by_rank(const void *pa, const void *pb)
{
    const xval_link_row *a = pa, *b = pb;
    if (a->used_by_all != b->used_by_all)
        return a->used_by_all ? 1 : -1;
    if (a->busy_spread != b->busy_spread)
        return a->busy_spread > b->busy_spread ? -1 : 1;
    if (a->queue_diff != b->queue_diff)
        return a->queue_diff > b->queue_diff ? -1 : 1;
    if (a->what->src_device != b->what->src_device)
        return a->what->src_device < b->what->src_device ? -1 : 1;
    return a->what->dst_device < b->what->dst_device ? -1 : a->what->dst_device > b->what->dst_device;
}

static void link_totals(const xval_detail *d, size_t n, xval_link_total *t)
{
    for (size_t b = 0; b < n; b++) {
        for (size_t i = 0; d[b].ran && d[b].has_links && i < d[b].n_links; i++) {
            const xval_link *l = &d[b].links[i];
            t[b].links++;
            t[b].bytes += l->bytes;
            t[b].busy_ticks += l->busy_ticks;
            t[b].has_queue = l->has_queue;
            if (l->has_queue && l->max_queue_ticks > t[b].max_queue_ticks)
                t[b].max_queue_ticks = l->max_queue_ticks;
        }
    }
}

static int compare_links(const xval_detail *d, const indexes *ix, size_t n, xval_divergence *v)
{
    size_t total = 0;
    v->stats = calloc(n ? n : 1, sizeof *v->stats);
    if (!v->stats)
        return -1;
    for (size_t b = 0; b < n; b++) {
        v->stats[b] = d[b].ran && d[b].has_links;
        v->n_link_backends += v->stats[b];
        total += v->stats[b] ? d[b].n_links : 0;
    }
    v->totals = calloc(n ? n : 1, sizeof *v->totals);
    v->links = calloc(total ? total : 1, sizeof *v->links);
    if (!v->totals || !v->links)
        return -1;
    link_totals(d, n, v->totals);
    for (size_t b = 0; b < n; b++)
        for (size_t i = 0; d[b].ran && d[b].has_links && i < d[b].n_links; i++)
            if (!link_listed_before(ix, b, &d[b].links[i]) &&
                find_link(ix, b, d[b].links[i].src_device, d[b].links[i].dst_device) == (long)i &&
                fill_link(d, ix, n, &d[b].links[i], &v->links[v->n_links++]) != 0)
                return -1;
    qsort(v->links, v->n_links, sizeof *v->links, by_rank);
    return 0;
}

int xval_diverge(const xval_detail *d, size_t n, uint32_t npu, double tolerance, xval_divergence *out)
{
    memset(out, 0, sizeof *out);
    out->n_backends = n;
    out->npu = npu;
    out->tolerance = tolerance;
    out->has_baseline = n > 0 && d[0].ran;
    indexes ix = {0};
    int rc = indexes_build(d, n, &ix) == 0 && compare_collectives(d, &ix, n, tolerance, out) == 0 &&
                     compare_links(d, &ix, n, out) == 0
                 ? 0
                 : -1;
    indexes_free(&ix);
    if (rc != 0)
        xval_divergence_free(out);
    return rc;
}

void xval_divergence_free(xval_divergence *v)
{
    for (size_t k = 0; k < v->n_rows; k++) {
        free(v->rows[k].duration);
        free(v->rows[k].has);
        free(v->rows[k].outside);
    }
    for (size_t k = 0; k < v->n_links; k++)
        free(v->links[k].per);
    free(v->rows);
    free(v->links);
    free(v->totals);
    free(v->stats);
    memset(v, 0, sizeof *v);
}

void xval_detail_free(xval_detail *d)
{
    free(d->colls);
    free(d->links);
    memset(d, 0, sizeof *d);
}
