/* Nodes the conversion loses to broken ctrl_deps. Only nodes whose parent
 * chain reaches a thread root take part in the dependency walk; the others
 * end up without dependencies and are removed as dangling. That is right
 * for the process root, but a parent id naming no node, a node naming
 * itself or a cycle silently loses whole subtrees, so they are counted. */
#include <stdlib.h>
#include <string.h>

#include "common/ctrl_chain.h"
#include "pytorch/pt_graph.h"

static bool is_process_root(const pt_node *n)
{
    return strcmp(n->name, "[pytorch|profiler|execution_trace|process]") == 0 ||
           strcmp(n->name, "[pytorch|profiler|execution_graph|process]") == 0;
}

/* Where each chain may end: a thread root, a null ctrl_deps, and the
 * process root, which names itself by convention. */
static uint32_t chain_parent(const pt_trace *t, uint32_t i)
{
    const pt_node *n = &t->nodes[i];
    if (n->is_thread_root || n->field[PT_F_PARENT]->type == PJ_NULL)
        return CHAIN_ROOT;
    if (n->parent_missing)
        return CHAIN_MISSING;
    if (n->parent == i && is_process_root(n))
        return CHAIN_ROOT;
    return n->parent;
}

int pt_find_orphans(const pt_graph *g, pt_orphans *o, pt_error *err)
{
    const pt_trace *t = g->trace;
    uint32_t n = t->n_nodes;
    uint32_t *parent = calloc((size_t)n + 1, sizeof *parent);
    uint32_t *culprit = malloc(((size_t)n + 1) * sizeof *culprit);
    uint8_t *fault = malloc((size_t)n + 1);
    int rc = 0;
    memset(o, 0, sizeof *o);
    if (!parent || !culprit || !fault) {
        rc = pt_fail(err, "%s: out of memory", t->path);
        goto out;
    }
    for (uint32_t i = 0; i < n; i++)
        parent[i] = chain_parent(t, i);
    if (ctrl_chain_check(parent, n, fault, culprit) != 0) {
        rc = pt_fail(err, "%s: out of memory", t->path);
        goto out;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = t->by_id[k];
        if (fault[i] == CHAIN_OK || pt_graph_kept(g, i))
            continue;
        if (o->count++ == 0) {
            o->culprit = culprit[i];
            o->fault = fault[i];
        }
    }
out:
    free(parent);
    free(culprit);
    free(fault);
    return rc;
}
