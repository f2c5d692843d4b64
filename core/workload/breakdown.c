/* Where one NPU's step went (see the header). */
#include "workload/breakdown.h"

#include <stdlib.h>

#include "vimana/et.h"

#define NONE UINT32_MAX

/* A GPU compute node's interval. */
typedef struct span {
    vimana_tick start, end;
    uint32_t node;
} span;

/* Every node's parents (the trace lists children only). */
typedef struct parents {
    uint32_t *start; /* [n_nodes + 1] */
    uint32_t *list;
} parents;

static int parents_build(const workload *w, parents *p)
{
    uint64_t edges = 0;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        edges += w->nodes[i].n_children;
    p->start = calloc((size_t)w->n_nodes + 1, sizeof *p->start);
    p->list = malloc((edges ? edges : 1) * sizeof *p->list);
    if (!p->start || !p->list)
        return -1;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        for (uint32_t k = 0; k < w->nodes[i].n_children; k++)
            p->start[w->children[w->nodes[i].child_start + k] + 1]++;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        p->start[i + 1] += p->start[i];
    uint32_t *fill = calloc((size_t)w->n_nodes, sizeof *fill);
    if (!fill)
        return -1;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        for (uint32_t k = 0; k < w->nodes[i].n_children; k++) {
            uint32_t c = w->children[w->nodes[i].child_start + k];
            p->list[p->start[c] + fill[c]++] = i;
        }
    free(fill);
    return 0;
}

static bool is_gpu_compute(const workload *w, uint32_t i)
{
    return w->nodes[i].kind == KIND_GPU && w->nodes[i].type == VET_COMP_NODE;
}

/* The parent of node i that finished last: the one that let it start. */
static uint32_t last_parent(const workload *w, const parents *p, uint32_t i)
{
    uint32_t best = NONE;
    for (uint32_t k = p->start[i]; k < p->start[i + 1]; k++) {
        uint32_t q = p->list[k];
        if (w->live[q].state == WL_DONE && (best == NONE || w->live[q].end > w->live[best].end))
            best = q;
    }
    return best;
}

/* What a charge needs beyond the NPU's own nodes. */
typedef struct peers {
    wl_peer_fn fn;
    void *ctx;
} peers;

/* When the SEND that RECV node n waits for was issued on its sender (the
 * first SEND to this NPU with the tag), or 0 when unknown. */
static vimana_tick send_issued(const workload *w, const wl_node *n, const peers *pe)
{
    uint32_t me = w->npu;
    int64_t from = w->run ? workload_peer(w->run, w->npu, n->comm_src) : n->comm_src;
    const workload *src = pe->fn && from >= 0 && from <= UINT32_MAX ? pe->fn(pe->ctx, (uint32_t)from, w->npu, &me)
                                                                    : NULL;
    if (!src || !src->live)
        return 0;
    for (uint32_t i = 0; i < src->n_nodes; i++) {
        const wl_node *m = &src->nodes[i];
        int64_t to = src->run ? workload_peer(src->run, src->npu, m->comm_dst) : m->comm_dst;
        if (m->type == VET_COMM_SEND_NODE && to == me && m->comm_tag == n->comm_tag &&
            src->live[i].state == WL_DONE)
            return src->live[i].start;
    }
    return 0;
}

/* Charges [lo, hi) to node `node`: a RECV's part before its SEND was
 * issued is the bubble, the rest in flight. */
static void charge(const workload *w, uint32_t node, vimana_tick lo, vimana_tick hi, const peers *pe,
                   wl_breakdown *out)
{
    const wl_node *n = node == NONE ? NULL : &w->nodes[node];
    vimana_tick ticks = hi - lo;
    if (!n || (n->type != VET_COMM_COLL_NODE && n->type != VET_COMM_SEND_NODE && n->type != VET_COMM_RECV_NODE)) {
        out->exposed_other += ticks;
        return;
    }
    if (n->type != VET_COMM_COLL_NODE) {
        vimana_tick sent = n->type == VET_COMM_RECV_NODE ? send_issued(w, n, pe) : 0;
        vimana_tick bubble = sent <= lo ? 0 : sent >= hi ? ticks : sent - lo;
        out->exposed_bubble += bubble;
        out->exposed_p2p += ticks - bubble;
        return;
    }
    int64_t pg = w->run ? workload_group(w->run, w->npu, n->pg) : n->pg;
    for (uint32_t g = 0; g < out->n_groups; g++) {
        if (out->group[g] == pg) {
            out->exposed_group[g] += ticks;
            return;
        }
    }
    if (out->n_groups < WL_BREAKDOWN_GROUPS) {
        out->group[out->n_groups] = pg;
        out->exposed_group[out->n_groups++] = ticks;
        return;
    }
    out->exposed_other_groups += ticks;
}

/* Charges the GPU-idle stretch [a, b) going back from node `cur` (the one
 * the next compute waited for, or the step's last): each communication
 * node on the way takes the part of the stretch it was running (or
 * waiting to run) in, until a compute node or the stretch's start; what
 * is left goes to the first node met. */
static void charge_gap(const workload *w, const parents *p, const peers *pe, uint32_t cur, vimana_tick a,
                       vimana_tick b, wl_breakdown *out)
{
    vimana_tick hi = b;
    uint32_t first = NONE;
    while (cur != NONE && hi > a && !is_gpu_compute(w, cur)) {
        vimana_tick lo = w->live[cur].start > a ? w->live[cur].start : a;
        if (lo < hi) {
            charge(w, cur, lo, hi, pe, out);
            hi = lo;
        }
        if (first == NONE)
            first = cur;
        cur = last_parent(w, p, cur);
    }
    if (hi > a)
        charge(w, first, a, hi, pe, out);
}

static int by_start(const void *x, const void *y)
{
    const span *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start ? 1 : (a->node > b->node) - (a->node < b->node);
}

/* The node that ended last (the step's end). */
static uint32_t last_done(const workload *w)
{
    uint32_t best = NONE;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        if (w->live[i].state == WL_DONE && (best == NONE || w->live[i].end >= w->live[best].end))
            best = i;
    return best;
}

/* Groups by id, so that the rows come in the same order on every NPU. */
static void sort_groups(wl_breakdown *out)
{
    for (uint32_t i = 1; i < out->n_groups; i++) {
        int64_t g = out->group[i];
        vimana_tick t = out->exposed_group[i];
        uint32_t j = i;
        for (; j > 0 && out->group[j - 1] > g; j--) {
            out->group[j] = out->group[j - 1];
            out->exposed_group[j] = out->exposed_group[j - 1];
        }
        out->group[j] = g;
        out->exposed_group[j] = t;
    }
}

int workload_breakdown(const workload *w, wl_peer_fn peer, void *peer_ctx, wl_breakdown *out)
{
    *out = (wl_breakdown){.finish = w->finish_tick};
    peers pe = {peer, peer_ctx};
    parents p = {0};
    size_t n = 0;
    span *spans = malloc((w->n_nodes ? w->n_nodes : 1) * sizeof *spans);
    int rc = spans && parents_build(w, &p) == 0 ? 0 : -1;
    for (uint32_t i = 0; rc == 0 && i < w->n_nodes; i++) {
        if (w->live[i].state != WL_DONE || !is_gpu_compute(w, i))
            continue;
        spans[n++] = (span){w->live[i].start, w->live[i].end, i};
        out->flops += w->nodes[i].num_ops;
        if (!w->nodes[i].recompute)
            out->model_flops += w->nodes[i].num_ops;
    }
    if (rc == 0) {
        qsort(spans, n, sizeof *spans, by_start);
        vimana_tick busy_end = 0;
        for (size_t k = 0; k < n; k++) {
            if (spans[k].start > busy_end)
                charge_gap(w, &p, &pe, last_parent(w, &p, spans[k].node), busy_end, spans[k].start, out);
            if (spans[k].end > busy_end) {
                out->compute += spans[k].end - (spans[k].start > busy_end ? spans[k].start : busy_end);
                busy_end = spans[k].end;
            }
        }
        if (out->finish > busy_end)
            charge_gap(w, &p, &pe, last_done(w), busy_end, out->finish, out);
    }
    sort_groups(out);
    free(spans);
    free(p.start);
    free(p.list);
    return rc;
}
