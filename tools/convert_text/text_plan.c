/* The per-NPU node plan and the primitives the mode graphs emit with. */
#include "text_plan.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void text_plan_init(struct plan *p, const struct text_workload *w, bool omit_none)
{
    memset(p, 0, sizeof *p);
    p->w = w;
    p->omit_none = omit_none;
    p->ig_comm_infix = w->mode == TEXT_MODE_HYBRID_DATA_MODEL ? "_IG_COMM_" : "";
}

void text_plan_free(struct plan *p)
{
    free(p->nodes);
    free(p->deps);
    p->nodes = NULL;
    p->deps = NULL;
    p->n_nodes = p->cap_nodes = p->n_deps = p->cap_deps = 0;
}

void text_plan_deps_add(struct plan_deps *d, const struct plan_ref *r)
{
    if (!r || !r->set)
        return;
    for (uint8_t k = 0; k < r->n; k++) {
        bool seen = false;
        for (uint8_t j = 0; j < d->n; j++)
            seen = seen || d->idx[j] == r->idx[k];
        if (seen)
            continue;
        if (d->n == PLAN_DEPS_MAX) {
            d->overflow = true;
            return;
        }
        d->idx[d->n++] = r->idx[k];
    }
}

struct plan_deps text_plan_deps_of(const struct plan_ref *a, const struct plan_ref *b, const struct plan_ref *c)
{
    struct plan_deps d = {0};
    text_plan_deps_add(&d, a);
    text_plan_deps_add(&d, b);
    text_plan_deps_add(&d, c);
    return d;
}

/* Appends a node and returns the reference to it (unset on failure). */
static struct plan_ref emit(struct plan *p, size_t layer, enum text_phase phase, bool comm,
                            const struct plan_deps *d)
{
    struct plan_ref r = {0};
    /* Plan indices are 32-bit to keep the dependency list compact. */
    if (p->failed || d->overflow || p->n_nodes >= UINT32_MAX ||
        grow_array((void **)&p->nodes, &p->cap_nodes, p->n_nodes + 1, sizeof *p->nodes, 1024) != 0 ||
        grow_array((void **)&p->deps, &p->cap_deps, p->n_deps + d->n, sizeof *p->deps, 1024) != 0) {
        p->failed = true;
        return r;
    }
    struct plan_node *n = &p->nodes[p->n_nodes];
    n->layer = (uint32_t)layer;
    n->phase = (uint8_t)phase;
    n->comm = comm;
    n->n_deps = d->n;
    n->deps_at = p->n_deps;
    if (d->n > 0) /* p->deps is still NULL before the first dependency */
        memcpy(p->deps + p->n_deps, d->idx, d->n * sizeof *d->idx);
    p->n_deps += d->n;
    r.set = true;
    r.n = 1;
    r.idx[0] = (uint32_t)p->n_nodes++;
    return r;
}

struct plan_ref text_plan_comp(struct plan *p, size_t layer, enum text_phase phase, const struct plan_deps *d)
{
    return emit(p, layer, phase, false, d);
}

struct plan_ref text_plan_comm(struct plan *p, size_t layer, enum text_phase phase, bool needed,
                          const struct plan_deps *d)
{
    bool none = p->w->layers[layer].comm[phase].kind == TEXT_COMM_NONE;
    if (needed && !(p->omit_none && none))
        return emit(p, layer, phase, true, d);
    /* Left out: its dependants inherit its dependencies. */
    struct plan_ref r = {.set = true, .n = d->n};
    memcpy(r.idx, d->idx, d->n * sizeof *d->idx);
    if (d->overflow)
        p->failed = true;
    return r;
}
