#include "pytorch/pt_sim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "pytorch/pyset.h"
#include "util/sorted.h"

typedef struct sim_node {
    uint64_t id;
    uint64_t hold;       /* µs the node occupies its slot: max(duration, 1) */
    uint64_t seq;        /* position in the reference's ready GPU list */
    uint32_t pending;    /* data deps not yet released */
    uint32_t stream;     /* stream index; PT_NONE for CPU nodes */
    uint32_t next_ready; /* next node in its stream's ready queue */
} sim_node;

typedef struct stream_state {
    uint32_t head, tail; /* ready queue, in ready-list order */
    bool busy;
    bool candidate;      /* free with a non-empty queue: issues next step */
} stream_state;

typedef struct running {
    uint64_t end;
    uint32_t stream;
} running;

typedef struct sim {
    sim_node *nodes;
    uint32_t n;
    uint32_t *child_off, *child;
    uint32_t *cpu_ready; /* FIFO */
    uint32_t cpu_head, cpu_tail;
    bool cpu_busy;
    uint64_t cpu_end;
    stream_state *streams;
    uint32_t n_streams;
    uint32_t *candidates;
    uint32_t n_candidates;
    running *heap;       /* busy streams, min-heap by end */
    uint32_t n_heap;
    uint64_t next_seq;
    uint64_t *order;     /* scratch: (front seq, stream) pairs of candidates */
    uint32_t *issued;    /* nodes issued in the current step, in issue order */
    uint64_t *issued_ids;
    uint32_t n_issued;
} sim;

static void sim_free(sim *s)
{
    free(s->nodes);
    free(s->child_off);
    free(s->child);
    free(s->cpu_ready);
    free(s->streams);
    free(s->candidates);
    free(s->heap);
    free(s->order);
    free(s->issued);
    free(s->issued_ids);
}

/* ---- setup --------------------------------------------------------------- */

/* Dense stream indices; a null stream is a stream of its own. */
static int map_streams(sim *s, const pt_graph *g, const uint32_t *kept)
{
    idmap ids;
    uint32_t null_stream = PT_NONE;
    if (idmap_init(&ids, 16) != 0)
        return -1;
    for (uint32_t k = 0; k < s->n; k++) {
        const pt_chakra *c = &g->out[kept[k]];
        s->nodes[k].stream = PT_NONE;
        if (!g->trace->nodes[kept[k]].is_gpu)
            continue;
        uint32_t idx;
        if (!c->has_stream) {
            if (null_stream == PT_NONE)
                null_stream = s->n_streams++;
            idx = null_stream;
        } else {
            int put = idmap_put(&ids, (uint64_t)c->stream, s->n_streams, &idx);
            if (put < 0) {
                idmap_free(&ids);
                return -1;
            }
            if (put == 1)
                idx = s->n_streams++;
        }
        s->nodes[k].stream = idx;
    }
    idmap_free(&ids);
    return 0;
}

/* Children per node in the order the reference's parent_to_children_map
 * lists them: kept nodes in conversion order. */
static int link_children(sim *s, const pt_graph *g, const uint32_t *kept, const uint32_t *sim_index)
{
    const pt_trace *t = g->trace;
    s->child_off = calloc((size_t)s->n + 1, sizeof *s->child_off);
    uint32_t *fill = calloc((size_t)s->n + 1, sizeof *fill);
    if (!s->child_off || !fill) {
        free(fill);
        return -1;
    }
    for (uint32_t k = 0; k < s->n; k++)
        for (uint32_t e = g->out[kept[k]].dep_head; e != PT_NONE; e = g->edges[e].next)
            s->child_off[sim_index[pt_trace_find(t, g->edges[e].id)] + 1]++;
    for (uint32_t k = 0; k < s->n; k++)
        s->child_off[k + 1] += s->child_off[k];
    s->child = malloc(((size_t)s->child_off[s->n] + 1) * sizeof *s->child);
    if (!s->child) {
        free(fill);
        return -1;
    }
    for (uint32_t k = 0; k < s->n; k++)
        for (uint32_t e = g->out[kept[k]].dep_head; e != PT_NONE; e = g->edges[e].next) {
            uint32_t p = sim_index[pt_trace_find(t, g->edges[e].id)];
            s->child[s->child_off[p] + fill[p]++] = k;
            s->nodes[k].pending++;
        }
    free(fill);
    return 0;
}

static int sim_init(sim *s, const pt_graph *g)
{
    const pt_trace *t = g->trace;
    memset(s, 0, sizeof *s);
    uint32_t *kept = malloc(((size_t)g->n_order + 1) * sizeof *kept);
    uint32_t *sim_index = malloc(((size_t)t->n_nodes + 1) * sizeof *sim_index);
    int rc = kept && sim_index ? 0 : -1;
    for (uint32_t k = 0; rc == 0 && k < g->n_order; k++)
        if (pt_graph_kept(g, g->order[k])) {
            sim_index[g->order[k]] = s->n;
            kept[s->n++] = g->order[k];
        }
    size_t n1 = (size_t)s->n + 1;
    if (rc == 0) {
        s->nodes = calloc(n1, sizeof *s->nodes);
        s->cpu_ready = malloc(n1 * sizeof *s->cpu_ready);
        rc = s->nodes && s->cpu_ready ? 0 : -1;
    }
    for (uint32_t k = 0; rc == 0 && k < s->n; k++) {
        uint64_t d = g->out[kept[k]].duration;
        s->nodes[k].id = t->nodes[kept[k]].id;
        s->nodes[k].hold = d ? d : 1;
        s->nodes[k].next_ready = PT_NONE;
    }
    if (rc == 0)
        rc = map_streams(s, g, kept);
    if (rc == 0)
        rc = link_children(s, g, kept, sim_index);
    if (rc == 0) {
        size_t ns = (size_t)s->n_streams + 1;
        s->streams = calloc(ns, sizeof *s->streams);
        s->candidates = malloc(ns * sizeof *s->candidates);
        s->heap = malloc(ns * sizeof *s->heap);
        s->order = malloc(ns * 2 * sizeof *s->order);
        s->issued = malloc((ns + 1) * sizeof *s->issued);
        s->issued_ids = malloc((ns + 1) * sizeof *s->issued_ids);
        rc = s->streams && s->candidates && s->heap && s->order && s->issued && s->issued_ids ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < s->n_streams; k++)
            s->streams[k].head = s->streams[k].tail = PT_NONE;
    }
    free(kept);
    free(sim_index);
    return rc;
}

/* ---- ready lists ---------------------------------------------------------- */

static void make_ready(sim *s, uint32_t k)
{
    sim_node *n = &s->nodes[k];
    if (n->stream == PT_NONE) {
        s->cpu_ready[s->cpu_tail++] = k;
        return;
    }
    stream_state *st = &s->streams[n->stream];
    n->seq = s->next_seq++;
    n->next_ready = PT_NONE;
    if (st->tail == PT_NONE)
        st->head = k;
    else
        s->nodes[st->tail].next_ready = k;
    st->tail = k;
    if (!st->busy && !st->candidate) {
        st->candidate = true;
        s->candidates[s->n_candidates++] = n->stream;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The initial ready lists: dependency-free nodes sorted by id. */
static int seed_ready(sim *s)
{
    uint64_t *pairs = malloc(((size_t)s->n + 1) * 2 * sizeof *pairs);
    if (!pairs)
        return -1;
    uint32_t m = 0;
    for (uint32_t k = 0; k < s->n; k++)
        if (s->nodes[k].pending == 0) {
            pairs[2 * m] = s->nodes[k].id;
            pairs[2 * m + 1] = k;
            m++;
        }
    qsort(pairs, m, 2 * sizeof *pairs, cmp_u64);
    for (uint32_t k = 0; k < m; k++)
        make_ready(s, (uint32_t)pairs[2 * k + 1]);
    free(pairs);
    return 0;
}

/* ---- busy streams heap ---------------------------------------------------- */

static void heap_push(sim *s, running r)
{
    s->n_heap = (uint32_t)min_heap_push(s->heap, s->n_heap, sizeof r, offsetof(running, end), &r);
}

static running heap_pop(sim *s)
{
    running top;
    s->n_heap = (uint32_t)min_heap_pop(s->heap, s->n_heap, sizeof top, offsetof(running, end), &top);
    return top;
}

/* ---- one step ------------------------------------------------------------- */

static uint64_t end_of(uint64_t now, uint64_t hold)
{
    return hold > UINT64_MAX - now ? UINT64_MAX : now + hold;
}

static int cmp_front_seq(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void issue(sim *s, uint64_t now, pt_sim_result *res)
{
    s->n_issued = 0;
    if (!s->cpu_busy && s->cpu_head < s->cpu_tail) {
        uint32_t k = s->cpu_ready[s->cpu_head++];
        s->cpu_busy = true;
        s->cpu_end = end_of(now, s->nodes[k].hold);
        s->issued[s->n_issued++] = k;
        res->cpu_nodes++;
    }
    if (s->n_candidates == 0)
        return;
    /* free streams issue their first ready node, in ready-list order */
    uint64_t *order = s->order;
    for (uint32_t c = 0; c < s->n_candidates; c++) {
        order[2 * c] = s->nodes[s->streams[s->candidates[c]].head].seq;
        order[2 * c + 1] = s->candidates[c];
    }
    if (s->n_candidates > 1)
        qsort(order, s->n_candidates, 2 * sizeof *order, cmp_front_seq);
    for (uint32_t c = 0; c < s->n_candidates; c++) {
        stream_state *st = &s->streams[order[2 * c + 1]];
        uint32_t k = st->head;
        st->head = s->nodes[k].next_ready;
        if (st->head == PT_NONE)
            st->tail = PT_NONE;
        st->candidate = false;
        st->busy = true;
        heap_push(s, (running){end_of(now, s->nodes[k].hold), (uint32_t)order[2 * c + 1]});
        s->issued[s->n_issued++] = k;
        res->gpu_nodes++;
    }
    s->n_candidates = 0;
}

static void complete(sim *s, uint64_t now)
{
    if (s->cpu_busy && s->cpu_end <= now)
        s->cpu_busy = false;
    while (s->n_heap > 0 && s->heap[0].end <= now) {
        stream_state *st = &s->streams[heap_pop(s).stream];
        st->busy = false;
        if (st->head != PT_NONE && !st->candidate) {
            st->candidate = true;
            s->candidates[s->n_candidates++] = (uint32_t)(st - s->streams);
        }
    }
}

/* Children of this step's issued nodes, in CPython set order of their ids. */
static int release(sim *s)
{
    if (s->n_issued > 1) {
        for (uint32_t k = 0; k < s->n_issued; k++)
            s->issued_ids[k] = s->nodes[s->issued[k]].id;
        if (pt_pyset_order(s->issued_ids, s->n_issued) != 0)
            return -1;
    }
    for (uint32_t k = 0; k < s->n_issued; k++) {
        uint32_t p = s->issued[k];
        if (s->n_issued > 1)
            for (uint32_t j = 0; j < s->n_issued; j++)
                if (s->nodes[s->issued[j]].id == s->issued_ids[k])
                    p = s->issued[j];
        for (uint32_t c = s->child_off[p]; c < s->child_off[p + 1]; c++)
            if (--s->nodes[s->child[c]].pending == 0)
                make_ready(s, s->child[c]);
    }
    return 0;
}

static bool work_left(const sim *s)
{
    return s->cpu_busy || s->cpu_head < s->cpu_tail || s->n_heap > 0 || s->n_candidates > 0;
}

int pt_simulate(const pt_graph *g, pt_sim_result *res, pt_error *err)
{
    sim s;
    memset(res, 0, sizeof *res);
    if (sim_init(&s, g) != 0 || seed_ready(&s) != 0) {
        sim_free(&s);
        return pt_fail(err, "%s: out of memory", g->trace->path);
    }
    res->streams = s.n_streams;
    uint64_t now = 0;
    int rc = 0;
    while (rc == 0 && work_left(&s)) {
        issue(&s, now, res);
        if (s.n_issued == 0) {
            /* nothing changes until the next completion: jump there */
            uint64_t next = UINT64_MAX;
            if (s.cpu_busy)
                next = s.cpu_end;
            if (s.n_heap > 0 && s.heap[0].end < next)
                next = s.heap[0].end;
            now = next;
            complete(&s, now);
            continue;
        }
        now++;
        complete(&s, now);
        rc = release(&s);
    }
    sim_free(&s);
    if (rc != 0)
        return pt_fail(err, "%s: out of memory", g->trace->path);
    res->end_us = now;
    return 0;
}
