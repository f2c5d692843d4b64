#include "trace_link/link_plan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "util/grow.h"
#include "util/sorted.h"

/* Host nodes that have no Kineto counterpart (the observer's process and
 * thread roots, ProfilerStep which the reference drops from Kineto, the
 * process-group metadata recorded before profiling starts); left out of the
 * --exact-match check and of the unlinked count. */
static bool annotation_node(const host_trace *h, const host_node *n)
{
    static const char *const names[] = {
        "[pytorch|profiler|execution_trace|process]", "[pytorch|profiler|execution_trace|thread]",
        "[pytorch|profiler|execution_graph|process]", "[pytorch|profiler|execution_graph|thread]", NULL,
    };
    tl_span name = {n->name_off, n->name_len};
    for (size_t i = 0; names[i]; i++)
        if (js_span_equals(h->text.data, name, names[i]))
            return true;
    static const char *const parts[] = {"ProfilerStep", "process_group:init", NULL};
    const char *p = h->text.data + n->name_off;
    for (size_t k = 0; parts[k]; k++) {
        size_t len = strlen(parts[k]);
        for (size_t i = 0; i + len <= n->name_len; i++)
            if (memcmp(p + i, parts[k], len) == 0)
                return true;
    }
    return false;
}

static int alloc_arrays(link_plan *p, const host_trace *h, const kineto_trace *k, tl_diag *d)
{
    size_t n = h->n_nodes ? h->n_nodes : 1;
    p->new_id = malloc(n * sizeof *p->new_id);
    p->new_ctrl_deps = malloc(n * sizeof *p->new_ctrl_deps);
    p->kop = malloc(n * sizeof *p->kop);
    p->inter_dep = malloc(n * sizeof *p->inter_dep);
    p->gpu_begin = calloc(k->n_cpu + 1, sizeof *p->gpu_begin);
    p->gpu_ops = malloc((k->n_gpu ? k->n_gpu : 1) * sizeof *p->gpu_ops);
    if (!p->new_id || !p->new_ctrl_deps || !p->kop || !p->inter_dep || !p->gpu_begin || !p->gpu_ops)
        return tl_fail(d, "out of memory");
    for (size_t i = 0; i < h->n_nodes; i++) {
        p->kop[i] = K_NONE;
        p->inter_dep[i] = LINK_NO_ID;
    }
    return 0;
}

/* Step 8: rf_id matching in host id order, with inter-thread dependencies
 * resolved to the host node linked so far (inter_dep holds a host index
 * here; ids are assigned later). */
static int match_ops(link_plan *p, const host_trace *h, kineto_trace *k, tl_diag *d)
{
    idmap by_rf;
    if (idmap_init(&by_rf, k->n_cpu_with_rf) != 0)
        return tl_fail(d, "out of memory");
    for (size_t i = 0; i < k->n_cpu; i++)
        if ((k->cpu[i].flags & K_HAS_RF) && idmap_set(&by_rf, k->cpu[i].rf_id, (uint32_t)i) != 0) {
            idmap_free(&by_rf);
            return tl_fail(d, "out of memory");
        }
    for (size_t i = 0; i < h->n_nodes; i++) {
        const host_node *n = &h->nodes[i];
        if (!(n->flags & HOST_IN_TREE))
            continue;
        p->stats.tree_nodes++;
        if (!(n->flags & HOST_HAS_RF))
            continue;
        p->stats.rf_nodes++;
        uint32_t op;
        if (!idmap_get(&by_rf, n->rf_id, &op)) {
            if (!annotation_node(h, n))
                p->stats.unlinked_ops++;
            continue;
        }
        p->stats.linked++;
        tl_span hn = {n->name_off, n->name_len}, kn = {k->cpu[op].name_off, k->cpu[op].name_len};
        if (!js_spans_equal(h->text.data, hn, k->text.data, kn) && p->stats.renamed++ == 0)
            p->first_renamed = (uint32_t)i;
        p->kop[i] = op;
        k->cpu[op].host = (uint32_t)i;
        uint32_t dep;
        if ((k->cpu[op].flags & K_HAS_INTER) && idmap_get(&by_rf, k->cpu[op].inter_rf, &dep) &&
            k->cpu[dep].host != K_NONE)
            p->inter_dep[i] = k->cpu[dep].host;
    }
    idmap_free(&by_rf);
    return 0;
}

static int check_linkable(const link_plan *p, const host_trace *h, const kineto_trace *k, const link_options *o,
                          tl_diag *d)
{
    if (k->n_cpu_with_rf == 0) {
        if (!o->allow_unlinked)
            return tl_fail(d,
                           "%s: no 'Record function id' in any cpu_op event: this Kineto trace cannot be linked "
                           "(PyTorch too old?)",
                           k->path);
        tl_warn(d, "%s: no 'Record function id' in any cpu_op event: nothing is linked (--allow-unlinked)",
                k->path);
        return 0;
    }
    if (p->stats.linked == 0) {
        if (!o->allow_unlinked)
            return tl_fail(d,
                           "%s and %s: none of the %zu Kineto 'Record function id' values matches a host rf_id: "
                           "the traces come from different runs",
                           h->path, k->path, k->n_cpu_with_rf);
        tl_warn(d, "%s and %s: no Kineto 'Record function id' matches a host rf_id: nothing is linked "
                   "(--allow-unlinked)",
                h->path, k->path);
        return 0;
    }
    if (p->stats.renamed == 0)
        return 0;
    /* Record-function ids restart with every process, so traces of two runs
     * share ids; the names then disagree. */
    const host_node *n = &h->nodes[p->first_renamed];
    const k_cpu_op *op = &k->cpu[p->kop[p->first_renamed]];
    int hw = kineto_name_width(n->name_len, 60), kw = kineto_name_width(op->name_len, 60);
    const char *hn = h->text.data + n->name_off, *kn = k->text.data + op->name_off;
    if (p->stats.renamed == p->stats.linked && !o->allow_unlinked)
        return tl_fail(d,
                       "%s and %s: every host op whose rf_id is a Kineto 'Record function id' has another name there "
                       "(e.g. node id %lld '%.*s' vs '%.*s'): the traces come from different runs",
                       h->path, k->path, (long long)n->id, hw, hn, kw, kn);
    tl_warn(d, "%s and %s: %zu of %zu linked host ops have another name in the Kineto trace (e.g. node id %lld "
               "'%.*s' vs '%.*s')",
            h->path, k->path, p->stats.renamed, p->stats.linked, (long long)n->id, hw, hn, kw, kn);
    return 0;
}

/* --exact-match: every host op with an rf_id (annotations aside) links to a
 * Kineto op of the same name. */
static int check_exact(const link_plan *p, const host_trace *h, const kineto_trace *k, tl_diag *d)
{
    for (size_t i = 0; i < h->n_nodes; i++) {
        const host_node *n = &h->nodes[i];
        if (!(n->flags & HOST_IN_TREE) || !(n->flags & HOST_HAS_RF) || annotation_node(h, n))
            continue;
        int w = kineto_name_width(n->name_len, 80);
        const char *name = h->text.data + n->name_off;
        if (p->kop[i] == K_NONE)
            return tl_fail(d, "%s: node id %lld '%.*s' (rf_id %lld) has no Kineto CPU op with that record-function "
                              "id in %s (--exact-match)",
                           h->path, (long long)n->id, w, name, (long long)n->rf_id, k->path);
        const k_cpu_op *op = &k->cpu[p->kop[i]];
        tl_span hn = {n->name_off, n->name_len}, kn = {op->name_off, op->name_len};
        if (!js_spans_equal(h->text.data, hn, k->text.data, kn))
            return tl_fail(d, "%s: node id %lld '%.*s' (rf_id %lld) links to Kineto CPU op '%.*s' in %s: names differ "
                              "(--exact-match)",
                           h->path, (long long)n->id, w, name, (long long)n->rf_id,
                           kineto_name_width(op->name_len, 80), k->text.data + op->name_off, k->path);
    }
    return 0;
}

/* GPU ops grouped by launching CPU op (already in GPU ts order). */
static void group_gpu_ops(link_plan *p, const kineto_trace *k)
{
    for (size_t g = 0; g < k->n_gpu; g++)
        if (k->gpu[g].launcher != K_NONE)
            p->gpu_begin[k->gpu[g].launcher + 1]++;
    for (size_t c = 0; c < k->n_cpu; c++)
        p->gpu_begin[c + 1] += p->gpu_begin[c];
    /* Fill with a moving cursor per op, then shift the offsets back. */
    for (size_t g = 0; g < k->n_gpu; g++)
        if (k->gpu[g].launcher != K_NONE)
            p->gpu_ops[p->gpu_begin[k->gpu[g].launcher]++] = (uint32_t)g;
    for (size_t c = k->n_cpu; c > 0; c--)
        p->gpu_begin[c] = p->gpu_begin[c - 1];
    p->gpu_begin[0] = 0;
}

static uint32_t gpu_count(const link_plan *p, uint32_t op)
{
    return p->gpu_begin[op + 1] - p->gpu_begin[op];
}

/* Step 9 numbering. `first_node[c]` receives the new id of the first host
 * node linked to CPU op c (where its GPU ops are first written). */
static int number_nodes(link_plan *p, const host_trace *h, const kineto_trace *k, int64_t *first_node,
                        tl_diag *d)
{
    idmap by_old;
    if (idmap_init(&by_old, h->n_nodes) != 0)
        return tl_fail(d, "out of memory");
    int64_t next = 0;
    for (size_t c = 0; c < k->n_cpu; c++)
        first_node[c] = LINK_NO_ID;
    for (size_t i = 0; i < h->n_nodes; i++) {
        p->new_id[i] = next;
        if (idmap_set(&by_old, h->nodes[i].id, (uint32_t)i) != 0) {
            idmap_free(&by_old);
            return tl_fail(d, "out of memory");
        }
        next++;
        uint32_t op = p->kop[i];
        if (op != K_NONE) {
            if (first_node[op] == LINK_NO_ID)
                first_node[op] = p->new_id[i];
            next += gpu_count(p, op);
            p->stats.gpu_nodes += gpu_count(p, op);
        }
    }
    /* ctrl_deps naming no node: fresh ids after every written node, in
     * output order, one per distinct value. */
    p->stats.out_nodes = (size_t)next;
    const int64_t fresh_base = next;
    idmap fresh;
    if (idmap_init(&fresh, 16) != 0) {
        idmap_free(&by_old);
        return tl_fail(d, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < h->n_nodes; i++) {
        if (!(h->nodes[i].flags & HOST_HAS_CTRL_DEPS))
            continue;
        uint32_t target;
        if (idmap_get(&by_old, h->nodes[i].ctrl_deps, &target)) {
            p->new_ctrl_deps[i] = p->new_id[target];
            continue;
        }
        bool inserted;
        uint32_t *slot = idmap_upsert(&fresh, h->nodes[i].ctrl_deps, &inserted);
        if (!slot) {
            rc = tl_fail(d, "out of memory");
            break;
        }
        if (inserted)
            *slot = (uint32_t)(next++ - fresh_base);
        p->new_ctrl_deps[i] = fresh_base + (int64_t)*slot;
    }
    for (size_t i = 0; i < h->n_nodes; i++)
        if (p->inter_dep[i] != LINK_NO_ID)
            p->inter_dep[i] = p->new_id[p->inter_dep[i]];
    idmap_free(&fresh);
    idmap_free(&by_old);
    return rc;
}

static int compare_sync(const void *a, const void *b)
{
    const sync_ref *x = a, *y = b;
    if (x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

/* Turns (waiting CPU op, GPU op) edges into sync_dep entries of host nodes:
 * both ends must be written. */
static int resolve_sync(link_plan *p, const host_trace *h, const kineto_trace *k, const sync_edges *edges,
                        const int64_t *first_node, tl_diag *d)
{
    if (edges->n == 0)
        return 0;
    /* Position of each GPU op within its launcher's group. */
    uint32_t *pos = malloc(k->n_gpu * sizeof *pos);
    if (!pos)
        return tl_fail(d, "out of memory");
    for (size_t c = 0; c < k->n_cpu; c++)
        for (uint32_t j = p->gpu_begin[c]; j < p->gpu_begin[c + 1]; j++)
            pos[p->gpu_ops[j]] = j - p->gpu_begin[c];
    size_t cap = 0;
    for (size_t i = 0; i < h->n_nodes; i++) {
        uint32_t op = p->kop[i];
        if (op == K_NONE)
            continue;
        /* Edges are sorted by waiter: binary-search this op's run. */
        size_t lo = lower_bound_u32(edges->items, edges->n, sizeof *edges->items, offsetof(sync_edge, waiter), op);
        for (; lo < edges->n && edges->items[lo].waiter == op; lo++) {
            uint32_t g = edges->items[lo].gpu, launcher = k->gpu[g].launcher;
            if (launcher == K_NONE || first_node[launcher] == LINK_NO_ID) {
                p->stats.sync_dropped++;
                continue;
            }
            if (grow_array((void **)&p->sync, &cap, p->n_sync + 1, sizeof *p->sync, 64) != 0) {
                free(pos);
                return tl_fail(d, "out of memory");
            }
            p->sync[p->n_sync++] = (sync_ref){(uint32_t)i, first_node[launcher] + 1 + pos[g]};
        }
    }
    free(pos);
    if (p->n_sync > 1)
        qsort(p->sync, p->n_sync, sizeof *p->sync, compare_sync);
    size_t w = 0;
    for (size_t i = 0; i < p->n_sync; i++)
        if (w == 0 || compare_sync(&p->sync[w - 1], &p->sync[i]) != 0)
            p->sync[w++] = p->sync[i];
    p->n_sync = w;
    p->stats.sync_deps = w;
    return 0;
}

int link_plan_build(link_plan *p, const host_trace *h, kineto_trace *k, const sync_edges *edges,
                    const link_options *o, tl_diag *d)
{
    memset(p, 0, sizeof *p);
    if (h->root == SIZE_MAX)
        return tl_fail(d, "%s: no root node (id 1, [pytorch|profiler|execution_trace|process]): nothing to link",
                       h->path);
    if (alloc_arrays(p, h, k, d) != 0 || match_ops(p, h, k, d) != 0 || check_linkable(p, h, k, o, d) != 0)
        return -1;
    if (o->exact_match && check_exact(p, h, k, d) != 0)
        return -1;
    group_gpu_ops(p, k);
    int64_t *first_node = malloc((k->n_cpu ? k->n_cpu : 1) * sizeof *first_node);
    if (!first_node)
        return tl_fail(d, "out of memory");
    int rc = number_nodes(p, h, k, first_node, d);
    if (rc == 0)
        rc = resolve_sync(p, h, k, edges, first_node, d);
    free(first_node);
    if (rc != 0)
        return -1;
    size_t attached = 0;
    for (size_t g = 0; g < k->n_gpu; g++)
        if (k->gpu[g].launcher != K_NONE && k->cpu[k->gpu[g].launcher].host != K_NONE)
            attached++;
    p->stats.gpu_dropped = k->n_gpu - attached;
    return 0;
}

void link_plan_free(link_plan *p)
{
    free(p->new_id);
    free(p->new_ctrl_deps);
    free(p->kop);
    free(p->inter_dep);
    free(p->gpu_begin);
    free(p->gpu_ops);
    free(p->sync);
    memset(p, 0, sizeof *p);
}
