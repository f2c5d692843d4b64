/*
 * The node graph of one pass, per mode. Each emitter walks the layers
 * forward and then backward, creating nodes in the reference converter's
 * order (which fixes the ids) with dependencies in its append order (which
 * fixes the bytes). A layer's references survive from pass to pass, which is
 * how a pass depends on the previous one.
 */
#include "text_graphs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "text_groups.h"

/* The latest node of each kind for one layer. */
struct layer_refs {
    struct plan_ref fwd_comp, fwd_comm;
    struct plan_ref ig_comp, ig_comm;
    struct plan_ref wg_comp, wg_comm;
};

struct graph {
    struct plan *p;
    const struct text_workload *w;
    struct layer_refs *r;
    size_t n;             /* layers, at least 1 */
    int64_t skip_ig_pos;  /* backward position without an IG collective, or -1 */
};

typedef void (*pass_fn)(struct graph *g);

/* Whether layer i's collective in `phase` crosses any network dimension:
 * always, except under a HYBRID_CUSTOMIZED policy that gives it none, or
 * on a HYBRID_TRANSFORMER communicator group of one NPU. */
static bool has_dims(const struct graph *g, size_t i, enum text_phase phase)
{
    if (text_groups_used(g->w))
        return text_group_size(g->w, phase) > 1;
    if (g->w->mode != TEXT_MODE_HYBRID_CUSTOMIZED)
        return true;
    return text_mode_get(g->w->layers[i].policy)->phase_has_dims[phase];
}

static struct plan_deps on(const struct plan_ref *a)
{
    return text_plan_deps_of(a, NULL, NULL);
}

/* MICRO: the weight-gradient collective of every layer, independent. */
static void micro_pass(struct graph *g)
{
    struct plan_deps none = {0};
    for (size_t i = 0; i < g->n; i++)
        text_plan_comm(g->p, i, TEXT_WG, true, &none);
}

/* DATA-like forward: a chain of compute nodes; each layer also waits for its
 * weight-gradient collective of the previous pass. */
static void data_forward(struct graph *g)
{
    struct layer_refs *r = g->r;
    for (size_t i = 0; i < g->n; i++) {
        struct plan_deps d = text_plan_deps_of(i ? &r[i - 1].fwd_comp : NULL, &r[i].wg_comm, NULL);
        r[i].fwd_comp = text_plan_comp(g->p, i, TEXT_FWD, &d);
    }
}

/* DATA: per layer from the last, WG compute, its collective, then IG
 * compute (none for the first layer), chained. */
static void data_pass(struct graph *g)
{
    struct layer_refs *r = g->r;
    data_forward(g);
    for (size_t i = g->n; i-- > 0;) {
        struct plan_deps d = on(i == g->n - 1 ? &r[i].fwd_comp : &r[i + 1].ig_comp);
        struct plan_ref wg = text_plan_comp(g->p, i, TEXT_WG, &d);
        d = on(&wg);
        r[i].wg_comm = text_plan_comm(g->p, i, TEXT_WG, true, &d);
        if (i != 0)
            r[i].ig_comp = text_plan_comp(g->p, i, TEXT_IG, &d);
    }
}

/* DATA_REORDER (ASTRA-sim 1.0 order): per layer from the last, IG compute
 * first, then WG compute and its collective; the first layer has no IG step
 * unless it is the only layer. */
static void data_reorder_pass(struct graph *g)
{
    struct layer_refs *r = g->r;
    data_forward(g);
    struct plan_ref prev = r[g->n - 1].fwd_comp;
    for (size_t i = g->n; i-- > 0;) {
        struct plan_deps d = on(&prev);
        if (i > 0 || g->n == 1) {
            prev = text_plan_comp(g->p, i, TEXT_IG, &d);
            d = on(&prev);
        }
        prev = text_plan_comp(g->p, i, TEXT_WG, &d);
        d = on(&prev);
        r[i].wg_comm = text_plan_comm(g->p, i, TEXT_WG, true, &d);
    }
}

/* Forward with blocking collectives: compute(i) waits for collective(i-1)
 * and for what layer i left in the previous pass: MODEL lists the chain
 * first, then the WG compute; the hybrid modes list the WG collective first,
 * then the chain. HYBRID_TRANSFORMER gives the first layer an IG collective,
 * which ASTRA-sim 1.0 lets finish before the next pass starts. */
static void blocking_forward(struct graph *g, bool model)
{
    struct layer_refs *r = g->r;
    bool first_ig = g->w->mode == TEXT_MODE_HYBRID_TRANSFORMER || g->w->mode == TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD;
    for (size_t i = 0; i < g->n; i++) {
        const struct plan_ref *chain = i ? &r[i - 1].fwd_comm : NULL;
        const struct plan_ref *prev_ig = i == 0 && first_ig ? &r[0].ig_comm : NULL;
        struct plan_deps d = model ? text_plan_deps_of(chain, &r[i].wg_comp, NULL)
                                   : text_plan_deps_of(&r[i].wg_comm, chain, prev_ig);
        struct plan_ref comp = text_plan_comp(g->p, i, TEXT_FWD, &d);
        d = on(&comp);
        r[i].fwd_comm = text_plan_comm(g->p, i, TEXT_FWD, has_dims(g, i, TEXT_FWD), &d);
    }
}

/* HYBRID_TRANSFORMER_FWD_IN_BCKWD: before layer t's IG compute, the forward
 * pass re-runs from the checkpoint below t up to layer t - 1, compute and
 * blocking collective per layer, after what the IG compute would have
 * waited for (`d`); the IG compute then waits for the last re-run node. */
static struct plan_deps rerun_forward(struct graph *g, size_t t, struct plan_deps d)
{
    for (size_t i = text_checkpoint_below(g->w, t); i < t; i++) {
        struct plan_ref comp = text_plan_comp(g->p, i, TEXT_FWD, &d);
        d = on(&comp);
        struct plan_ref comm = text_plan_comm(g->p, i, TEXT_FWD, has_dims(g, i, TEXT_FWD), &d);
        d = on(&comm);
    }
    return d;
}

/* Backward of MODEL and the hybrid modes: per layer from the last, IG
 * compute (after the next layer's WG compute and IG collective), IG
 * collective (except at skip_ig_pos), WG compute, and, with `wg_comm`, the
 * WG collective. */
static void model_backward(struct graph *g, bool wg_comm)
{
    struct layer_refs *r = g->r;
    for (size_t pos = 0; pos < g->n; pos++) {
        size_t i = g->n - 1 - pos;
        struct plan_deps d = i == g->n - 1 ? on(&r[i].fwd_comm)
                                           : text_plan_deps_of(&r[i + 1].wg_comp, &r[i + 1].ig_comm, NULL);
        if (g->w->layers[i].initiates)
            d = rerun_forward(g, i, d);
        struct plan_ref ig = text_plan_comp(g->p, i, TEXT_IG, &d);
        d = on(&ig);
        if ((int64_t)pos != g->skip_ig_pos)
            r[i].ig_comm = text_plan_comm(g->p, i, TEXT_IG, has_dims(g, i, TEXT_IG), &d);
        r[i].wg_comp = text_plan_comp(g->p, i, TEXT_WG, &d);
        if (wg_comm) {
            d = on(&r[i].wg_comp);
            r[i].wg_comm = text_plan_comm(g->p, i, TEXT_WG, has_dims(g, i, TEXT_WG), &d);
        }
    }
}

/* MODEL: no WG collective; a pass waits for the previous WG compute. */
static void model_pass(struct graph *g)
{
    blocking_forward(g, true);
    model_backward(g, false);
}

/* HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_CUSTOMIZED, HYBRID_TRANSFORMER. */
static void hybrid_pass(struct graph *g)
{
    blocking_forward(g, false);
    model_backward(g, true);
}

/* HYBRID_DLRM(_ENHANCED), with b the last bottom-MLP layer: the forward is a
 * compute chain; only ALLTOALL forward collectives are written, and layer b
 * waits for the first layer's. Backward per layer from the last: WG compute,
 * its collective unless NONE, IG compute (not for the first layer); after
 * layer b+1's IG compute comes the first layer's IG collective, which the
 * first layer's WG compute waits for. */
static void dlrm_pass(struct graph *g)
{
    struct layer_refs *r = g->r;
    const struct text_layer *layers = g->w->layers;
    int64_t b = g->w->last_bottom_layer;
    for (size_t i = 0; i < g->n; i++) {
        const struct plan_ref *prev_pass = r[i].wg_comm.set ? &r[i].wg_comm : &r[i].wg_comp;
        struct plan_deps d = text_plan_deps_of(prev_pass, i ? &r[i - 1].fwd_comp : NULL,
                                          (int64_t)i == b ? &r[0].fwd_comm : NULL);
        r[i].fwd_comp = text_plan_comp(g->p, i, TEXT_FWD, &d);
        if (layers[i].comm[TEXT_FWD].kind == TEXT_COMM_ALLTOALL) {
            d = on(&r[i].fwd_comp);
            r[i].fwd_comm = text_plan_comm(g->p, i, TEXT_FWD, true, &d);
        }
    }
    for (size_t i = g->n; i-- > 0;) {
        struct plan_deps d = i == g->n - 1 ? on(&r[i].fwd_comp)
                                           : text_plan_deps_of(&r[i + 1].ig_comp, &r[i].ig_comm, NULL);
        r[i].wg_comp = text_plan_comp(g->p, i, TEXT_WG, &d);
        d = on(&r[i].wg_comp);
        if (layers[i].comm[TEXT_WG].kind != TEXT_COMM_NONE)
            r[i].wg_comm = text_plan_comm(g->p, i, TEXT_WG, true, &d);
        if (i == 0)
            continue;
        r[i].ig_comp = text_plan_comp(g->p, i, TEXT_IG, &d);
        if ((int64_t)i - 1 == b) {
            d = on(&r[i].ig_comp);
            r[0].ig_comm = text_plan_comm(g->p, 0, TEXT_IG, true, &d);
        }
    }
}

/* DISTRIBUTED_INFERENCE: forward only, compute then a blocking collective
 * per layer; a pass starts after the previous pass's last collective. */
static void inference_pass(struct graph *g)
{
    struct layer_refs *r = g->r;
    for (size_t i = 0; i < g->n; i++) {
        struct plan_deps d = on(i ? &r[i - 1].fwd_comm : &r[g->n - 1].fwd_comm);
        struct plan_ref comp = text_plan_comp(g->p, i, TEXT_FWD, &d);
        d = on(&comp);
        r[i].fwd_comm = text_plan_comm(g->p, i, TEXT_FWD, true, &d);
    }
}

static pass_fn pass_of(enum text_mode mode)
{
    switch (mode) {
    case TEXT_MODE_MICRO: return micro_pass;
    case TEXT_MODE_DATA: return data_pass;
    case TEXT_MODE_DATA_REORDER: return data_reorder_pass;
    case TEXT_MODE_MODEL: return model_pass;
    case TEXT_MODE_HYBRID_DATA_MODEL:
    case TEXT_MODE_HYBRID_MODEL_DATA:
    case TEXT_MODE_HYBRID_CUSTOMIZED:
    case TEXT_MODE_HYBRID_TRANSFORMER:
    case TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD: return hybrid_pass;
    case TEXT_MODE_HYBRID_DLRM:
    case TEXT_MODE_HYBRID_DLRM_ENHANCED: return dlrm_pass;
    case TEXT_MODE_DISTRIBUTED_INFERENCE: return inference_pass;
    }
    return NULL;
}

int text_build_plan(const struct text_workload *w, uint64_t passes, bool omit_none, struct plan *p,
                    struct text_error *err)
{
    text_plan_init(p, w, omit_none);
    pass_fn pass = pass_of(w->mode);
    if (pass && text_groups_check(w, err) != 0)
        return -1;
    if (!pass) {
        snprintf(err->msg, sizeof err->msg, "%s: mode %s has no graph", w->path, text_mode_get(w->mode)->keyword);
        return -1;
    }
    if (w->n_layers == 0)
        return 0; /* like the reference: the files hold only the metadata */
    /* A pass has at most 6 nodes per layer, plus 2 for a forward re-run
     * (which covers each layer at most once); plan indices are 32-bit. Checked
     * up front so that an absurd --num-passes fails at once rather than
     * after filling memory. */
    uint64_t per_layer = w->mode == TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD ? 8 : 6;
    if (passes > UINT32_MAX / (per_layer * (uint64_t)w->n_layers)) {
        snprintf(err->msg, sizeof err->msg,
                 "%s: %" PRIu64 " passes over %zu layers would exceed %" PRIu32 " nodes per NPU", w->path, passes,
                 w->n_layers, UINT32_MAX);
        return -1;
    }
    struct graph g = {
        .p = p,
        .w = w,
        .r = calloc(w->n_layers, sizeof *g.r),
        .n = w->n_layers,
        .skip_ig_pos = text_skipped_ig_position(w),
    };
    p->failed = g.r == NULL;
    for (uint64_t k = 0; k < passes && !p->failed; k++)
        pass(&g);
    free(g.r);
    if (p->failed) {
        snprintf(err->msg, sizeof err->msg,
                 "%s: out of memory building the graph of %" PRIu64 " passes over %zu layers", w->path, passes,
                 w->n_layers);
        text_plan_free(p);
        return -1;
    }
    return 0;
}
