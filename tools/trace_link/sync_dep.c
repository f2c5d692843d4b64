#include "trace_link/sync_dep.h"

#include <stdlib.h>
#include <string.h>

#include "trace_link/span_intern.h"
#include "trace_link/ts_sort.h"
#include "util/grow.h"

/* GPU ops grouped by stream, each group ordered by end time. */
typedef struct stream_index {
    size_t n_streams;
    size_t *begin;     /* n_streams + 1 offsets into keys */
    ts_key *keys;      /* primary = end time, index = GPU op */
    span_intern names;
} stream_index;

static void stream_index_free(stream_index *x)
{
    free(x->begin);
    free(x->keys);
    span_intern_free(&x->names);
}

static int build_streams(const kineto_trace *k, stream_index *x, uint32_t *stream_of, tl_diag *d)
{
    bool overflow = false;
    for (size_t i = 0; i < k->n_gpu; i++) {
        const k_gpu_op *g = &k->gpu[i];
        int64_t s = span_intern_get(&x->names, g->stream.off, g->stream.len);
        if (s < 0)
            return tl_fail(d, "%s: out of memory", k->path);
        stream_of[i] = (uint32_t)s;
    }
    x->n_streams = x->names.count;
    x->begin = calloc(x->n_streams + 1, sizeof *x->begin);
    x->keys = malloc((k->n_gpu ? k->n_gpu : 1) * sizeof *x->keys);
    size_t *fill = calloc(x->n_streams + 1, sizeof *fill);
    if (!x->begin || !x->keys || !fill) {
        free(fill);
        return tl_fail(d, "%s: out of memory", k->path);
    }
    for (size_t i = 0; i < k->n_gpu; i++)
        x->begin[stream_of[i] + 1]++;
    for (size_t s = 0; s < x->n_streams; s++) {
        x->begin[s + 1] += x->begin[s];
        fill[s] = x->begin[s];
    }
    for (size_t i = 0; i < k->n_gpu; i++) {
        const k_gpu_op *g = &k->gpu[i];
        pynum end = pynum_add(g->ts, g->dur, &overflow);
        x->keys[fill[stream_of[i]]++] = (ts_key){end, pynum_int(0), (uint32_t)i, (uint32_t)i};
    }
    free(fill);
    for (size_t s = 0; s < x->n_streams; s++)
        ts_keys_sort(x->keys + x->begin[s], x->begin[s + 1] - x->begin[s]);
    if (overflow)
        return tl_fail(d, "%s: ts + dur overflows a 64-bit integer", k->path);
    return 0;
}

/* The last GPU op of stream s ending within [from, to], or NULL. */
static const ts_key *last_ending_within(const stream_index *x, size_t s, pynum from, pynum to)
{
    const ts_key *keys = x->keys + x->begin[s];
    size_t lo = 0, hi = x->begin[s + 1] - x->begin[s];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pynum_cmp(keys[mid].primary, to) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pynum_cmp(keys[lo - 1].primary, from) < 0)
        return NULL;
    return &keys[lo - 1];
}

/* First CPU op of thread tid starting at or after t, or K_NONE. */
static uint32_t first_cpu_op_from(const kineto_trace *k, uint32_t tid, pynum t)
{
    size_t n;
    const uint32_t *ops = kineto_thread_ops(k, tid, &n);
    size_t lo = kineto_ops_lower_bound(k, ops, n, t);
    return lo < n ? ops[lo] : K_NONE;
}

typedef struct edge_list {
    sync_edge *items;
    size_t n, cap;
} edge_list;

static int add_edge(edge_list *e, const kineto_trace *k, uint32_t waiter, uint32_t gpu)
{
    /* Earlier -> later only (by start time). */
    if (pynum_cmp(k->gpu[gpu].ts, k->cpu[waiter].ts) >= 0)
        return 0;
    if (grow_array((void **)&e->items, &e->cap, e->n + 1, sizeof *e->items, 64) != 0)
        return -1;
    e->items[e->n++] = (sync_edge){waiter, gpu};
    return 0;
}

static int compare_edges(const void *a, const void *b)
{
    const sync_edge *x = a, *y = b;
    if (x->waiter != y->waiter)
        return x->waiter < y->waiter ? -1 : 1;
    return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

static int edges_of_sync(const kineto_trace *k, const stream_index *x, const k_sync *s, edge_list *e)
{
    bool overflow = false;
    pynum end = pynum_add(s->ts, s->dur, &overflow);
    uint32_t waiter = first_cpu_op_from(k, s->tid, end);
    if (waiter == K_NONE || overflow)
        return 0;
    const ts_key *pick = NULL;
    for (size_t st = 0; st < x->n_streams; st++) {
        if (s->stream.len) {
            /* Stream named by the event: compare the raw value texts. */
            const ts_key *any = x->begin[st] < x->begin[st + 1] ? &x->keys[x->begin[st]] : NULL;
            if (!any)
                continue;
            tl_span name = k->gpu[any->index].stream;
            if (name.len != s->stream.len ||
                memcmp(k->text.data + name.off, k->text.data + s->stream.off, name.len) != 0)
                continue;
        }
        const ts_key *c = last_ending_within(x, st, s->ts, end);
        if (!c)
            continue;
        if (s->device_wide) {
            if (add_edge(e, k, waiter, c->index) != 0)
                return -1;
        } else if (!pick || pynum_cmp(c->primary, pick->primary) > 0 ||
                   (pynum_cmp(c->primary, pick->primary) == 0 && c->index > pick->index)) {
            pick = c;
        }
    }
    if (pick && add_edge(e, k, waiter, pick->index) != 0)
        return -1;
    return 0;
}

int find_sync_edges(const kineto_trace *k, sync_edges *out, tl_diag *d)
{
    out->items = NULL;
    out->n = 0;
    if (k->n_sync == 0 || k->n_gpu == 0)
        return 0;
    stream_index x = {0};
    edge_list e = {0};
    uint32_t *stream_of = malloc(k->n_gpu * sizeof *stream_of);
    int rc = 0;
    if (!stream_of || span_intern_init(&x.names, k->text.data) != 0)
        rc = tl_fail(d, "%s: out of memory", k->path);
    if (rc == 0)
        rc = build_streams(k, &x, stream_of, d);
    for (size_t i = 0; rc == 0 && i < k->n_sync; i++)
        if (edges_of_sync(k, &x, &k->sync[i], &e) != 0)
            rc = tl_fail(d, "%s: out of memory", k->path);
    free(stream_of);
    stream_index_free(&x);
    if (rc != 0) {
        free(e.items);
        return -1;
    }
    if (e.n > 1)
        qsort(e.items, e.n, sizeof *e.items, compare_edges);
    size_t w = 0;
    for (size_t i = 0; i < e.n; i++)
        if (w == 0 || compare_edges(&e.items[w - 1], &e.items[i]) != 0)
            e.items[w++] = e.items[i];
    out->items = e.items;
    out->n = w;
    return 0;
}

void sync_edges_free(sync_edges *e)
{
    free(e->items);
    e->items = NULL;
    e->n = 0;
}
