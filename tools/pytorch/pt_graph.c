/* Bookkeeping shared by the conversion stages: the per-node records and
 * the pool of data-dependency edges. */
#include "pytorch/pt_graph.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int pt_graph_init(pt_graph *g, const pt_trace *t, pt_options opt, pt_error *err)
{
    memset(g, 0, sizeof *g);
    g->trace = t;
    g->opt = opt;
    g->out = calloc((size_t)t->n_nodes + 1, sizeof *g->out);
    g->order = malloc(((size_t)t->n_nodes + 1) * sizeof *g->order);
    if (!g->out || !g->order) {
        pt_graph_free(g);
        return pt_fail(err, "%s: out of memory", t->path);
    }
    for (uint32_t i = 0; i < t->n_nodes; i++)
        g->out[i].dep_head = g->out[i].dep_tail = PT_NONE;
    return 0;
}

void pt_graph_free(pt_graph *g)
{
    free(g->out);
    free(g->order);
    free(g->edges);
    memset(g, 0, sizeof *g);
}

int pt_graph_add_dep(pt_graph *g, uint32_t node, uint64_t dep_id)
{
    if (grow_array_u32((void **)&g->edges, &g->cap_edges, g->n_edges + 1, sizeof *g->edges, 1024, PT_NONE - 1) != 0)
        return -1;
    uint32_t k = g->n_edges++;
    g->edges[k].id = dep_id;
    g->edges[k].next = PT_NONE;
    pt_chakra *c = &g->out[node];
    if (c->dep_tail == PT_NONE)
        c->dep_head = k;
    else
        g->edges[c->dep_tail].next = k;
    c->dep_tail = k;
    c->n_deps++;
    return 0;
}

bool pt_graph_has_dep(const pt_graph *g, uint32_t node, uint64_t dep_id)
{
    for (uint32_t k = g->out[node].dep_head; k != PT_NONE; k = g->edges[k].next)
        if (g->edges[k].id == dep_id)
            return true;
    return false;
}
