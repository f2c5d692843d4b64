/* Steps 5-7 of the reference converter (the reference's behaviour, docs/vimana-et.md):
 * control -> data dependencies, dangling-node removal, cycle check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pytorch/pt_graph.h"
#include "pytorch/pyvalue.h"
#include "pytorch/pt_strbuf.h"

static int oom(const pt_graph *g, pt_error *err)
{
    return pt_fail(err, "%s: out of memory", g->trace->path);
}

static int dep_fail(const pt_graph *g, uint32_t i, const char *what, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    return pt_fail(err, "%s: node %llu (%s): %s", g->trace->path, (unsigned long long)n->id, n->name, what);
}

static int add_unique(pt_graph *g, uint32_t i, uint64_t dep, pt_error *err)
{
    if (pt_graph_has_dep(g, i, dep))
        return 0;
    return pt_graph_add_dep(g, i, dep) == 0 ? 0 : oom(g, err);
}

/* inter_thread_dep: a truthy value is a node id to depend on. */
static int add_inter_thread_dep(pt_graph *g, uint32_t i, pt_error *err)
{
    const pj_value *v = g->trace->nodes[i].field[PT_F_INTER_THREAD_DEP];
    uint64_t dep;
    if (!pt_pyvalue_truthy(v))
        return 0;
    if (pt_pyvalue_uint64(v, &dep) != 0)
        return dep_fail(g, i, "'inter_thread_dep' must be a node id (a non-negative integer) or null", err);
    return add_unique(g, i, dep, err);
}

/* Start time of a node for sync_dep ordering: its JSON `ts`. */
static bool node_ts(const pt_graph *g, uint32_t i, double *ts)
{
    return pt_pyvalue_number(g->trace->nodes[i].field[PT_F_TS], ts) == 0;
}

/* sync_dep: the reference only adds an entry when the earlier node's
 * start_time_micros is smaller than this node's, which it never sets, so
 * none is ever added. Vimana (option sync_deps, the reference's behaviour, docs/vimana-et.md) adds
 * those whose node exists and started strictly earlier by `ts`. */
static int add_sync_deps(pt_graph *g, uint32_t i, pt_error *err)
{
    const pj_value *list = g->trace->nodes[i].field[PT_F_SYNC_DEP];
    if (!g->opt.sync_deps || !pt_pyvalue_truthy(list))
        return 0;
    if (list->type != PJ_ARRAY)
        return dep_fail(g, i, "'sync_dep' must be a list of node ids", err);
    for (size_t k = 0; k < list->n; k++) {
        uint64_t dep;
        if (pt_pyvalue_uint64(pj_at(list, k), &dep) != 0)
            return dep_fail(g, i, "'sync_dep' must be a list of node ids", err);
        if (pt_graph_has_dep(g, i, dep))
            continue;
        uint32_t prior = pt_trace_find(g->trace, dep);
        double t_prior, t_this;
        if (prior == PT_NONE || !g->out[prior].converted)
            continue;
        if (node_ts(g, prior, &t_prior) && node_ts(g, i, &t_this) && t_prior < t_this) {
            if (pt_graph_add_dep(g, i, dep) != 0)
                return oom(g, err);
            g->stats.sync_added++;
        } else {
            g->stats.sync_skipped++;
        }
    }
    return 0;
}

/* One thread root: an iterative pre-order walk over converted children in
 * ascending id order. CPU ops chain to the previous non-GPU op; a GPU op
 * depends on the op visited just before it but never becomes a link of the
 * chain itself. */
static int walk_thread(pt_graph *g, uint32_t root, uint32_t *visited, uint32_t stamp, uint32_t *stack,
                       pt_error *err)
{
    const pt_trace *t = g->trace;
    uint32_t top = 0, last_non_gpu = PT_NONE, last_any = PT_NONE;
    stack[top++] = root;
    while (top > 0) {
        uint32_t i = stack[--top];
        if (visited[i] == stamp)
            continue;
        visited[i] = stamp;
        if (t->nodes[i].kind == PT_GPU_OP) {
            if (last_any != PT_NONE && add_unique(g, i, t->nodes[last_any].id, err) != 0)
                return -1;
            last_any = last_non_gpu;
        } else {
            if (add_inter_thread_dep(g, i, err) != 0)
                return -1;
            if (last_non_gpu != PT_NONE && add_unique(g, i, t->nodes[last_non_gpu].id, err) != 0)
                return -1;
            last_non_gpu = last_any = i;
        }
        if (add_sync_deps(g, i, err) != 0)
            return -1;
        for (uint32_t k = t->child_off[i + 1]; k > t->child_off[i]; k--) {
            uint32_t c = t->child[k - 1];
            if (g->out[c].converted && visited[c] != stamp)
                stack[top++] = c;
        }
    }
    return 0;
}

int pt_add_data_deps(pt_graph *g, pt_error *err)
{
    size_t n = g->trace->n_nodes;
    /* each node is pushed at most once per walk (only by its parent) */
    uint32_t *visited = calloc(n + 1, sizeof *visited);
    uint32_t *stack = malloc((n + 1) * sizeof *stack);
    int rc = 0;
    if (!visited || !stack)
        rc = oom(g, err);
    uint32_t stamp = 0;
    for (uint32_t k = 0; rc == 0 && k < g->n_order; k++) {
        uint32_t i = g->order[k];
        if (g->trace->nodes[i].is_thread_root)
            rc = walk_thread(g, i, visited, ++stamp, stack, err);
    }
    free(visited);
    free(stack);
    return rc;
}

/* ctrl_deps are not data dependencies, so removal does not see them: a
 * kept node may still name its removed parent (in every linked trace, the
 * thread root names the process root), which no simulator can resolve. */
static void drop_removed_ctrl_deps(pt_graph *g)
{
    g->stats.first_dropped = PT_NONE;
    for (uint32_t k = 0; k < g->n_order; k++) {
        uint32_t i = g->order[k];
        pt_chakra *c = &g->out[i];
        if (c->removed || !c->has_ctrl_dep || !g->out[g->trace->nodes[i].parent].removed)
            continue;
        c->has_ctrl_dep = false;
        if (g->stats.ctrl_deps_dropped++ == 0)
            g->stats.first_dropped = i;
    }
}

int pt_remove_dangling(pt_graph *g, pt_error *err)
{
    const pt_trace *t = g->trace;
    size_t n = t->n_nodes;
    bool *depended_on = calloc(n + 1, sizeof *depended_on);
    if (!depended_on)
        return oom(g, err);
    for (uint32_t k = 0; k < g->n_order; k++)
        for (uint32_t e = g->out[g->order[k]].dep_head; e != PT_NONE; e = g->edges[e].next) {
            uint32_t p = pt_trace_find(t, g->edges[e].id);
            if (p != PT_NONE)
                depended_on[p] = true;
        }
    for (uint32_t k = 0; k < g->n_order; k++) {
        uint32_t i = g->order[k];
        if (!depended_on[i] && g->out[i].n_deps == 0) {
            g->out[i].removed = true;
            g->stats.removed++;
        }
    }
    free(depended_on);
    if (g->opt.drop_removed_ctrl_deps)
        drop_removed_ctrl_deps(g);
    return 0;
}

/* ---- cycle check --------------------------------------------------------- */

enum { WHITE = 0, GRAY = 1, BLACK = 2 };

typedef struct frame {
    uint32_t node;
    uint32_t edge; /* next edge to follow */
} frame;

static int report_cycle(const pt_graph *g, const frame *path, uint32_t depth, uint32_t from, pt_error *err)
{
    const pt_trace *t = g->trace;
    pt_strbuf sb;
    pt_sb_init(&sb);
    for (uint32_t k = from; k < depth; k++) {
        const pt_node *n = &t->nodes[path[k].node];
        pt_sb_printf(&sb, "%llu (%s) -> ", (unsigned long long)n->id, n->name);
    }
    const pt_node *first = &t->nodes[path[from].node];
    pt_sb_printf(&sb, "%llu (%s)", (unsigned long long)first->id, first->name);
    pt_fail(err, "%s: cyclic data dependency: %s", t->path, sb.failed ? "(out of memory)" : pt_sb_cstr(&sb));
    pt_sb_free(&sb);
    return -1;
}

/* Iterative depth-first search over data_deps from every kept node in
 * conversion order, following deps in order: the same search the reference
 * runs recursively, so the same cycle is found. */
int pt_check_cycles(pt_graph *g, pt_error *err)
{
    const pt_trace *t = g->trace;
    size_t n = t->n_nodes;
    uint8_t *color = calloc(n + 1, 1);
    uint32_t *pos = malloc((n + 1) * sizeof *pos); /* depth of a gray node on the path */
    frame *path = malloc((n + 1) * sizeof *path);
    int rc = 0;
    if (!color || !pos || !path)
        rc = oom(g, err);
    for (uint32_t k = 0; rc == 0 && k < g->n_order; k++) {
        uint32_t start = g->order[k];
        if (!pt_graph_kept(g, start) || color[start] != WHITE)
            continue;
        uint32_t depth = 0;
        path[depth] = (frame){start, g->out[start].dep_head};
        pos[start] = depth++;
        color[start] = GRAY;
        while (rc == 0 && depth > 0) {
            frame *f = &path[depth - 1];
            if (f->edge == PT_NONE) {
                color[f->node] = BLACK;
                depth--;
                continue;
            }
            uint64_t dep_id = g->edges[f->edge].id;
            f->edge = g->edges[f->edge].next;
            uint32_t d = pt_trace_find(t, dep_id);
            if (d == PT_NONE || !pt_graph_kept(g, d)) {
                char what[160];
                snprintf(what, sizeof what, "depends on node %llu, which is not in the converted trace",
                         (unsigned long long)dep_id);
                rc = dep_fail(g, f->node, what, err);
            } else if (color[d] == GRAY) {
                rc = report_cycle(g, path, depth, pos[d], err);
            } else if (color[d] == WHITE) {
                color[d] = GRAY;
                pos[d] = depth;
                path[depth++] = (frame){d, g->out[d].dep_head};
            }
        }
    }
    free(color);
    free(pos);
    free(path);
    return rc;
}
