/*
 * Running custom collectives (loaded by custom_load.c). A running instance
 * keeps only its dependency counters and its ready set; free nodes are
 * issued in ascending id order.
 */
#include "system/custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/custom_graph.h"
#include "system/frontend.h"
#include "trace/ready_set.h"
#include "util/ticks.h"
#include "vimana/et.h"

typedef struct custom_run {
    const custom_graph *g;
    uint32_t *parents_left;
    ready_set ready;       /* free nodes, sized for all of them at the start */
    uint32_t running;
    uint32_t npu;
    const uint32_t *members; /* communicator group ranks (JSON order), or NULL */
    uint32_t n_ranks;
} custom_run;

/* ---- running ------------------------------------------------------------- */

static uint32_t algo_rank_to_npu(const custom_run *cr, int32_t rank)
{
    return cr->members ? cr->members[rank] : (uint32_t)rank;
}

static void node_done(sim *s, void *obj, uint64_t data);

static uint64_t pack(const stream *st, uint32_t node)
{
    return (st->epoch << 32) | node;
}

static void issue_node(sim *s, stream *st, uint32_t i)
{
    custom_run *cr = st->run.custom;
    const custom_node *n = &cr->g->nodes[i];
    uint64_t id = cr->g->graph.ids[i];
    cr->running++;
    msg_cb done = {node_done, st, pack(st, i)};
    switch (n->type) {
    case VET_COMM_SEND_NODE: {
        if (n->dst < 0 || (uint32_t)n->dst >= cr->n_ranks) {
            sim_fail(s, "custom collective %s: node %llu sends to rank %d, outside the %s", st->custom_prefix,
                     (unsigned long long)id, n->dst, cr->members ? "communicator group" : "system");
            return;
        }
        fe_send(s, cr->npu, algo_rank_to_npu(cr, n->dst), n->size, fe_native_tag((uint32_t)n->tag), done, NULL);
        break;
    }
    case VET_COMM_RECV_NODE: {
        if (n->src < 0 || (uint32_t)n->src >= cr->n_ranks) {
            sim_fail(s, "custom collective %s: node %llu receives from rank %d, outside the %s",
                     st->custom_prefix, (unsigned long long)id, n->src,
                     cr->members ? "communicator group" : "system");
            return;
        }
        fe_recv(s, cr->npu, algo_rank_to_npu(cr, n->src), n->size, fe_native_tag((uint32_t)n->tag), done, NULL);
        break;
    }
    default: {
        /* the loader refused durations whose nanoseconds pass 2^64 */
        vimana_tick runtime = n->duration_us ? n->duration_us * TICKS_PER_US : 1;
        npu_register_event(s, cr->npu, runtime, node_done, st, pack(st, i));
        break;
    }
    }
}

/* Issues every free node, lowest id first (node indices are id order). A
 * node that completes inside issue_node() frees its children into the same
 * set, so they are issued by this loop in id order too. */
static void issue_free(sim *s, stream *st)
{
    custom_run *cr = st->run.custom;
    while (!ready_set_empty(&cr->ready) && !s->failed)
        issue_node(s, st, ready_set_pop(&cr->ready));
}

static void node_done(sim *s, void *obj, uint64_t data)
{
    stream *st = obj;
    if (s->failed)
        return;
    if ((st->epoch & 0xffffffffu) != (data >> 32)) {
        sim_fail(s, "internal error: custom collective event for a finished stream");
        return;
    }
    custom_run *cr = st->run.custom;
    uint32_t i = (uint32_t)data;
    const trace_graph *g = &cr->g->graph;
    cr->running--;
    for (uint32_t k = 0; k < g->n_children[i]; k++) {
        uint32_t c = g->children[g->child_start[i] + k];
        /* cannot fail: the set has room for every node */
        if (--cr->parents_left[c] == 0)
            ready_set_push(&cr->ready, c);
    }
    issue_free(s, st);
    if (cr->running == 0 && ready_set_empty(&cr->ready))
        scheduler_phase_done(s, st);
}

void custom_phase_start(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    /* The file position is the NPU's index in the group's sorted member
     * list; peers map through the JSON order (members). */
    uint32_t position = p->custom_position;
    const custom_graph *g = custom_graph_find(s, st->custom_prefix, position);
    custom_run *cr = calloc(1, sizeof *cr);
    if (!g || !cr) {
        free(cr);
        sim_fail(s, "internal error: custom collective %s.%u.et was not loaded", st->custom_prefix, position);
        return;
    }
    cr->g = g;
    cr->npu = st->npu;
    cr->members = p->ring == RING_GROUP ? p->members : NULL;
    cr->n_ranks = p->ring == RING_GROUP ? p->n : s->n_npus;
    uint32_t n = g->graph.n_nodes;
    cr->parents_left = malloc((n ? n : 1) * sizeof *cr->parents_left);
    if (!cr->parents_left || !ready_set_reserve(&cr->ready, n ? n : 1)) {
        free(cr->parents_left), ready_set_free(&cr->ready), free(cr);
        sim_fail(s, "out of memory");
        return;
    }
    memcpy(cr->parents_left, g->graph.n_parents, n * sizeof *cr->parents_left);
    /* in id order, so the heap is built without a single sift */
    for (uint32_t i = 0; i < n; i++)
        if (cr->parents_left[i] == 0)
            ready_set_push(&cr->ready, i);
    st->run.custom = cr;
    if (ready_set_empty(&cr->ready)) {
        /* nothing to run: the collective is complete as soon as it starts */
        scheduler_phase_done(s, st);
        return;
    }
    issue_free(s, st);
}

void custom_phase_release(sim *s, stream *st)
{
    (void)s;
    custom_run *cr = st->run.custom;
    if (!cr)
        return;
    free(cr->parents_left);
    ready_set_free(&cr->ready);
    free(cr);
    st->run.custom = NULL;
}
