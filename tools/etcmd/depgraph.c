#include "etcmd/depgraph.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void depgraph_init(depgraph *g)
{
    memset(g, 0, sizeof *g); /* ids_map too: a zeroed idmap is empty */
}

void depgraph_free(depgraph *g)
{
    free(g->ids);
    free(g->dep_start);
    free(g->n_data);
    free(g->deps);
    idmap_free(&g->ids_map);
    depgraph_init(g);
}

static int grow_nodes(depgraph *g)
{
    size_t cap = g->cap ? g->cap * 2 : 4096;
    uint64_t *ids = realloc(g->ids, cap * sizeof *ids);
    if (ids)
        g->ids = ids;
    uint64_t *start = realloc(g->dep_start, (cap + 1) * sizeof *start);
    if (start)
        g->dep_start = start;
    uint32_t *nd = realloc(g->n_data, cap * sizeof *nd);
    if (nd)
        g->n_data = nd;
    if (!ids || !start || !nd)
        return -1;
    g->cap = cap;
    return 0;
}

int depgraph_add(depgraph *g, uint64_t id, const uint64_t *data, size_t n_data,
                 const uint64_t *ctrl, size_t n_ctrl, uint32_t *first)
{
    if (g->n >= UINT32_MAX - 1 || n_data > UINT32_MAX)
        return -1;
    if ((g->n == g->cap && grow_nodes(g) != 0) ||
        grow_array((void **)&g->deps, &g->cap_deps, g->n_deps + n_data + n_ctrl, sizeof *g->deps, 4096) != 0)
        return -1;
    size_t i = g->n++;
    g->ids[i] = id;
    g->dep_start[i] = g->n_deps;
    g->n_data[i] = (uint32_t)n_data;
    if (n_data)
        memcpy(g->deps + g->n_deps, data, n_data * sizeof *data);
    if (n_ctrl)
        memcpy(g->deps + g->n_deps + n_data, ctrl, n_ctrl * sizeof *ctrl);
    g->n_deps += n_data + n_ctrl;
    g->dep_start[g->n] = g->n_deps;
    int rc = idmap_put(&g->ids_map, id, (uint32_t)i, first);
    return rc;
}

void depgraph_resolve(depgraph *g, depgraph_missing_fn missing, void *ctx)
{
    for (size_t i = 0; i < g->n; i++) {
        for (uint64_t k = g->dep_start[i]; k < g->dep_start[i + 1]; k++) {
            uint32_t parent;
            if (idmap_get(&g->ids_map, g->deps[k], &parent)) {
                g->deps[k] = parent;
            } else {
                int is_ctrl = k - g->dep_start[i] >= g->n_data[i];
                missing(ctx, (uint32_t)i, is_ctrl, g->deps[k]);
                g->deps[k] = DEPGRAPH_MISSING;
            }
        }
    }
    g->resolved = 1;
}

enum { WHITE, GRAY, BLACK };

typedef struct frame {
    uint32_t node;
    uint64_t next;   /* next position in deps to follow */
} frame;

/* The cycle closed by the edge stack[top] -> stack[from]: the stack holds
 * children before parents, so execution order is the reverse. */
static void report_cycle(const depgraph *g, const frame *stack, size_t from, size_t top, uint32_t *buf,
                         depgraph_cycle_fn report, void *ctx)
{
    size_t len = top - from + 1, start = 0;
    for (size_t i = 0; i < len; i++)
        buf[i] = stack[top - i].node;
    for (size_t i = 1; i < len; i++)
        if (g->ids[buf[i]] < g->ids[buf[start]])
            start = i;
    /* Rotate in place through the spare half of buf. */
    for (size_t i = 0; i < len; i++)
        buf[len + i] = buf[(start + i) % len];
    buf[2 * len] = buf[len];
    report(ctx, buf + len, len + 1);
}

long depgraph_find_cycles(depgraph *g, size_t max_report, depgraph_cycle_fn report, void *ctx)
{
    unsigned char *color = calloc(g->n ? g->n : 1, 1);
    frame *stack = malloc((g->n ? g->n : 1) * sizeof *stack);
    uint32_t *buf = malloc((2 * g->n + 1) * sizeof *buf);
    if (!color || !stack || !buf) {
        free(color);
        free(stack);
        free(buf);
        return -1;
    }
    long found = 0;
    for (size_t root = 0; root < g->n; root++) {
        if (color[root] != WHITE)
            continue;
        size_t top = 0;
        stack[0].node = (uint32_t)root;
        stack[0].next = g->dep_start[root];
        color[root] = GRAY;
        for (;;) {
            frame *f = &stack[top];
            if (f->next == g->dep_start[f->node + 1]) {
                color[f->node] = BLACK;
                if (top == 0)
                    break;
                top--;
                continue;
            }
            uint64_t parent = g->deps[f->next++];
            if (parent == DEPGRAPH_MISSING || color[parent] == BLACK)
                continue;
            if (color[parent] == GRAY) {
                if ((size_t)found < max_report) {
                    size_t from = top;
                    while (stack[from].node != parent)
                        from--;
                    report_cycle(g, stack, from, top, buf, report, ctx);
                }
                found++;
                continue;
            }
            color[parent] = GRAY;
            stack[++top] = (frame){(uint32_t)parent, g->dep_start[parent]};
        }
    }
    free(color);
    free(stack);
    free(buf);
    return found;
}
