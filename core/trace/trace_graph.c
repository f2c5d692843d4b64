/*
 * Loading one ET file into a dependency graph (see trace_graph.h). Node
 * records belong to the caller and are opaque here: they are grown, and
 * permuted into id order, as blocks of record_size bytes.
 */
#include "trace/trace_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/dep_links.h"
#include "util/grow.h"
#include "util/sorted.h"

void trace_graph_init(trace_graph *g, size_t record_size)
{
    memset(g, 0, sizeof *g);
    g->record_size = record_size;
}

static int fail(trace_error *err, enum trace_status status)
{
    err->status = status;
    return -1;
}

static void *record_at(const trace_graph *g, size_t i)
{
    return (char *)g->records + i * g->record_size;
}

/* ---- reading ------------------------------------------------------------- */

static int grow_nodes(trace_graph *g)
{
    if (g->n_nodes < g->cap_nodes)
        return 0;
    size_t cap = g->cap_nodes ? g->cap_nodes * 2 : 64;
    void *records = realloc(g->records, cap * g->record_size);
    if (!records)
        return -1;
    g->records = records;
    uint64_t *ids = realloc(g->ids, cap * sizeof *ids);
    if (!ids)
        return -1;
    g->ids = ids;
    g->cap_nodes = cap;
    return 0;
}

static int add_deps(trace_graph *g, const vet_node *n)
{
    size_t need = g->n_deps + n->n_data_deps + n->n_ctrl_deps;
    if (grow_array((void **)&g->deps, &g->cap_deps, need, sizeof *g->deps, 64) != 0)
        return -1;
    for (size_t i = 0; i < n->n_data_deps; i++)
        g->deps[g->n_deps++] = (trace_dep){n->data_deps[i], n->id};
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        g->deps[g->n_deps++] = (trace_dep){n->ctrl_deps[i], n->id};
    return 0;
}

/* One node: room for it, the caller's record, its id and dependencies. */
static int add_node(trace_graph *g, const vet_node *n, trace_read_node_fn read_node, void *ctx, trace_error *err)
{
    if (g->n_nodes == UINT32_MAX - 1)
        return fail(err, TRACE_TOO_MANY_NODES);
    if (grow_nodes(g) != 0)
        return fail(err, TRACE_NO_MEMORY);
    if (read_node(ctx, n, record_at(g, g->n_nodes)) != 0)
        return fail(err, TRACE_NODE_REFUSED);
    g->ids[g->n_nodes++] = n->id;
    return add_deps(g, n) == 0 ? 0 : fail(err, TRACE_NO_MEMORY);
}

int trace_graph_read(trace_graph *g, const char *path, trace_read_node_fn read_node, void *ctx, trace_error *err)
{
    err->status = TRACE_OK;
    vet_error verr;
    vet_reader *r = vet_reader_open(path, &verr);
    if (!r) {
        snprintf(err->text, sizeof err->text, "%s", verr.msg);
        return fail(err, TRACE_OPEN_FAILED);
    }
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &verr)) == 1)
        if (add_node(g, n, read_node, ctx, err) != 0)
            break;
    if (rc == -1) {
        snprintf(err->text, sizeof err->text, "%s", verr.msg);
        err->status = TRACE_READ_FAILED;
    }
    g->empty_records = vet_reader_empty_records(r);
    vet_reader_close(r);
    return err->status == TRACE_OK ? 0 : -1;
}

/* ---- sorting ------------------------------------------------------------- */


static bool ids_ascending(const trace_graph *g)
{
    for (uint32_t i = 1; i < g->n_nodes; i++)
        if (g->ids[i] < g->ids[i - 1])
            return false;
    return true;
}

/* Moves the records so that record k is the one read at order[k].index
 * (the index in file order; SIZE_MAX once moved), following each cycle of
 * the permutation with one spare record. */
static void permute_records(trace_graph *g, key_order *order, void *spare)
{
    size_t size = g->record_size;
    for (uint32_t k = 0; k < g->n_nodes; k++) {
        if (order[k].index == SIZE_MAX)
            continue;
        memcpy(spare, record_at(g, k), size);
        uint32_t j = k;
        for (;;) {
            uint32_t from = (uint32_t)order[j].index;
            order[j].index = SIZE_MAX;
            if (from == k) {
                memcpy(record_at(g, j), spare, size);
                break;
            }
            memcpy(record_at(g, j), record_at(g, from), size);
            j = from;
        }
    }
}

/* Traces are usually written in id order: only others pay for sorting. */
static int sort_by_id(trace_graph *g)
{
    if (ids_ascending(g))
        return 0;
    key_order *order = malloc(g->n_nodes * sizeof *order);
    void *spare = malloc(g->record_size ? g->record_size : 1);
    if (!order || !spare) {
        free(order), free(spare);
        return -1;
    }
    for (uint32_t i = 0; i < g->n_nodes; i++)
        order[i] = (key_order){g->ids[i], i};
    key_order_sort(order, g->n_nodes);
    for (uint32_t i = 0; i < g->n_nodes; i++)
        g->ids[i] = order[i].key;
    permute_records(g, order, spare);
    free(order), free(spare);
    return 0;
}

/* ---- linking ------------------------------------------------------------- */

int64_t trace_graph_find(const trace_graph *g, uint64_t id)
{
    if (g->n_nodes == 0)
        return -1;
    /* ids 0..n-1 (or any dense run) need no search */
    uint64_t offset = id - g->ids[0];
    if (id >= g->ids[0] && offset < g->n_nodes && g->ids[offset] == id)
        return (int64_t)offset;
    size_t lo = 0, hi = g->n_nodes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n_nodes && g->ids[lo] == id ? (int64_t)lo : -1;
}

/* The dependencies as (parent index, child index) links; the first one on
 * an absent id (in file order) fails unless dropped. */
static int64_t make_links(trace_graph *g, bool drop_missing_parents, uint64_t *links, trace_error *err)
{
    size_t n_links = 0;
    for (size_t e = 0; e < g->n_deps; e++) {
        int64_t child = trace_graph_find(g, g->deps[e].child_id);
        int64_t parent = trace_graph_find(g, g->deps[e].parent_id);
        if (parent < 0 && drop_missing_parents) {
            g->dropped_deps++;
            continue;
        }
        if (parent < 0) {
            err->id = g->deps[e].child_id;
            err->parent_id = g->deps[e].parent_id;
            err->node = (uint32_t)child;
            return fail(err, TRACE_MISSING_PARENT);
        }
        links[n_links++] = dep_link((uint32_t)parent, (uint32_t)child);
    }
    return (int64_t)n_links;
}

static uint64_t id_at_index(const void *ctx, uint32_t index)
{
    return ((const trace_graph *)ctx)->ids[index];
}

static int check_acyclic(trace_graph *g, trace_error *err)
{
    uint32_t *cycle = malloc(g->n_nodes * sizeof *cycle);
    int64_t k = cycle ? dep_links_find_cycle(g->children, g->child_start, g->n_children, g->n_parents, g->n_nodes,
                                             cycle)
                      : -1;
    if (k > 0)
        dep_links_cycle_text(cycle, (uint32_t)k, id_at_index, g, err->text, sizeof err->text);
    free(cycle);
    return k == 0 ? 0 : fail(err, k > 0 ? TRACE_CYCLE : TRACE_NO_MEMORY);
}

static int build_children(trace_graph *g, bool drop_missing_parents, trace_error *err)
{
    uint32_t n = g->n_nodes;
    uint64_t *links = malloc((g->n_deps ? g->n_deps : 1) * sizeof *links);
    g->child_start = malloc(3 * (size_t)n * sizeof *g->child_start);
    if (!links || !g->child_start) {
        free(links);
        return fail(err, TRACE_NO_MEMORY);
    }
    g->n_children = g->child_start + n;
    g->n_parents = g->child_start + 2 * (size_t)n;
    int64_t n_links = make_links(g, drop_missing_parents, links, err);
    free(g->deps);
    g->deps = NULL;
    g->n_deps = g->cap_deps = 0;
    int rc = n_links < 0 ? -1 : 0;
    if (rc == 0 && dep_links_build(links, (size_t)n_links, n, &g->children, g->child_start, g->n_children,
                                   g->n_parents) != 0)
        rc = fail(err, TRACE_NO_MEMORY);
    free(links);
    return rc;
}

int trace_graph_link(trace_graph *g, bool drop_missing_parents, trace_error *err)
{
    err->status = TRACE_OK;
    if (g->n_nodes == 0)
        return fail(err, TRACE_EMPTY);
    if (sort_by_id(g) != 0)
        return fail(err, TRACE_NO_MEMORY);
    for (uint32_t i = 1; i < g->n_nodes; i++) {
        if (g->ids[i] == g->ids[i - 1]) {
            err->id = g->ids[i];
            return fail(err, TRACE_DUPLICATE_ID);
        }
    }
    if (build_children(g, drop_missing_parents, err) != 0)
        return -1;
    return check_acyclic(g, err);
}

void trace_graph_free(trace_graph *g)
{
    free(g->records);
    free(g->ids);
    free(g->children);
    free(g->child_start);
    free(g->deps);
    size_t record_size = g->record_size;
    trace_graph_init(g, record_size);
}
