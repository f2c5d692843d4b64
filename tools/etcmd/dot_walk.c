/* See dot_walk.h. */
#include "etcmd/dot_walk.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "etcmd/cmd_io.h"
#include "util/grow.h"

typedef struct refs {
    uint64_t *ids;
    size_t n, cap;
} refs;

static int remember(refs *r, const uint64_t *ids, size_t n)
{
    if (grow_array((void **)&r->ids, &r->cap, r->n + n, sizeof *r->ids, 1024) != 0)
        return -1;
    if (n)
        memcpy(r->ids + r->n, ids, n * sizeof *ids);
    r->n += n;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Returns how many missing parents it wrote. */
static size_t missing_nodes(const graph_writer *w, const graph_out *o, refs *r, const idmap *defined)
{
    size_t written = 0;
    if (r->n == 0)
        return 0;
    qsort(r->ids, r->n, sizeof *r->ids, cmp_u64);
    for (size_t i = 0; i < r->n; i++) {
        uint32_t index;
        if ((i > 0 && r->ids[i] == r->ids[i - 1]) || idmap_get(defined, r->ids[i], &index))
            continue;
        w->missing(o, r->ids[i]);
        written++;
    }
    return written;
}

/* What the drawing walk needs besides the writer: the ids seen, the
 * parents to check for missing ones, the kinds drawn, and the plan. */
typedef struct walk {
    const graph_writer *w;
    const graph_out *o;
    idmap defined;
    refs parents;
    unsigned kinds;
    size_t drawn;
    dot_plan *plan;     /* NULL: every node, every edge */
} walk;

static int all_edges(walk *k, const vet_node *n)
{
    for (size_t i = 0; i < n->n_data_deps; i++)
        k->w->edge(k->o, n->data_deps[i], n->id, false);
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        k->w->edge(k->o, n->ctrl_deps[i], n->id, true);
    return remember(&k->parents, n->data_deps, n->n_data_deps) || remember(&k->parents, n->ctrl_deps, n->n_ctrl_deps);
}

/* The edges into node `index` that the plan draws; only the parents
 * absent from the file are remembered (as missing nodes to add). */
static int planned_edges(walk *k, size_t index, const uint64_t *deps, size_t n_deps, bool ctrl)
{
    for (size_t i = 0; i < n_deps; i++) {
        uint64_t from, to;
        bool absent;
        if (!dot_plan_edge_of(k->plan, index, deps[i], ctrl, &from, &to, &absent))
            continue;
        k->w->edge(k->o, from, to, ctrl);
        if (absent && remember(&k->parents, &from, 1) != 0)
            return -1;
    }
    return 0;
}

static int one_node(walk *k, const vet_node *n, uint32_t index)
{
    uint32_t first;
    if (idmap_put(&k->defined, n->id, index, &first) < 0)
        return -1;
    if (!k->plan || dot_plan_draws(k->plan, index)) {
        k->w->node(k->o, n, k->plan ? k->plan->times[index] : 1);
        k->kinds |= 1u << graph_kind_of(n->type);
        k->drawn++;
    }
    if (!k->plan)
        return all_edges(k, n);
    return planned_edges(k, index, n->data_deps, n->n_data_deps, false) ||
           planned_edges(k, index, n->ctrl_deps, n->n_ctrl_deps, true);
}

int dot_walk(const graph_writer *w, const graph_out *o, const char *prog, const char *input, dot_plan *plan,
             size_t *drawn, unsigned *kinds)
{
    vet_reader *r;
    if (cmd_io_open_reader(prog, input, &r) != 0)
        return -1;
    walk k = {.w = w, .o = o, .plan = plan};
    vet_error err;
    const vet_node *n;
    int rc;
    uint32_t index = 0;
    while ((rc = vet_reader_next(r, &n, &err)) == 1)
        if (one_node(&k, n, index++) != 0) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
            rc = -1;
            break;
        }
    if (rc == 0) {
        *drawn += k.drawn + missing_nodes(w, o, &k.parents, &k.defined);
        *kinds |= k.kinds;
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    vet_reader_close(r);
    idmap_free(&k.defined);
    free(k.parents.ids);
    return rc;
}
