/*
 * Collective -> chunks -> phases (the reference's behaviour, docs/simulator.md). Chunks are generated
 * one at a time: each chunk's
 * phases take their queues from the NPU's allocators, then its stream is
 * created and queued (and started when its queue has room) before the next
 * chunk is built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/algorithms/algorithm.h"
#include "system/algorithms/registry.h"
#include "system/custom.h"
#include "system/frontend.h"
#include "system/system.h"

/* One logical dimension of a collective's topology. */
typedef struct logical_dim {
    uint8_t ring;           /* enum ring_kind */
    uint32_t n, index, base, stride;
    const uint32_t *members;
    algo_spec algo;
    bool local_group;
} logical_dim;

typedef struct plan {
    logical_dim dims[SIM_MAX_DIMS + 1];
    uint32_t n_dims;
    bool involved[SIM_MAX_DIMS + 1];
} plan;

static const char *kind_label(enum coll_kind k)
{
    static const char *const names[] = {"ALL_REDUCE", "REDUCE_SCATTER", "ALL_GATHER", "ALL_TO_ALL"};
    return names[k];
}

static int node_fail(sim *s, const coll_request *req, const char *what)
{
    sim_fail(s, "%s: node %llu (%s): %s", req->trace, (unsigned long long)req->node_id, req->node_name, what);
    return -1;
}

/* Logical dimensions from the implementation list: one per entry, except
 * that a one* algorithm adds a single ring over every NPU and ends the list. */
static int plan_native(sim *s, const coll_request *req, plan *p)
{
    const sys_config *cfg = &s->cfg;
    uint32_t n_impl = cfg->n_impl[req->kind];
    char msg[300];
    if (n_impl == 0) {
        snprintf(msg, sizeof msg, "No collective implementation found for %s: the system configuration has no "
                 "'%s-implementation' list", kind_label(req->kind), coll_kind_name(req->kind));
        return node_fail(s, req, msg);
    }
    uint32_t stride = 1;
    p->n_dims = 0;
    for (uint32_t k = 0; k < n_impl; k++) {
        const algo_spec *a = &cfg->impl[req->kind][k];
        logical_dim *d = &p->dims[p->n_dims++];
        memset(d, 0, sizeof *d);
        d->algo = *a;
        if (a->one) {
            *d = (logical_dim){.ring = RING_ALL, .n = s->n_npus, .index = req->npu, .base = 0, .stride = 1, .algo = *a};
            break;
        }
        if (k >= s->n_dims) {
            snprintf(msg, sizeof msg, "'%s-implementation' lists %u algorithms but the network has %u "
                     "dimension%s", coll_kind_name(req->kind), n_impl, s->n_dims, s->n_dims == 1 ? "" : "s");
            return node_fail(s, req, msg);
        }
        uint32_t n = s->dim_size[k];
        uint32_t index = (req->npu % (stride * n)) / stride;
        *d = (logical_dim){.ring = RING_DIMENSION, .n = n, .index = index, .base = req->npu - index * stride,
                           .stride = stride, .algo = *a};
        stride *= n;
    }
    for (uint32_t d = 0; d < p->n_dims; d++) {
        if (req->group || !req->involved) {
            p->involved[d] = true;
        } else if (d < req->n_involved) {
            p->involved[d] = req->involved[d];
        } else if (p->dims[d].n > 1) {
            snprintf(msg, sizeof msg, "involved_dim has %u entries but the collective uses %u dimensions",
                     req->n_involved, p->n_dims);
            return node_fail(s, req, msg);
        } else {
            p->involved[d] = false;
        }
    }
    return 0;
}

/* A group smaller than the system runs on one local ring in JSON order. */
static void plan_group(sim *s, const coll_request *req, plan *p)
{
    const npu_group *g = req->group;
    const sys_config *cfg = &s->cfg;
    algo_spec ring = {.id = ALGO_RING};
    const algo_spec *a = cfg->n_impl[req->kind] == 1 ? &cfg->impl[req->kind][0] : &ring;
    p->n_dims = 1;
    p->dims[0] = (logical_dim){.ring = RING_GROUP, .n = g->n_members, .index = g->my_index,
                               .members = g->members, .algo = *a, .local_group = true};
    p->dims[0].algo.one = false;
    p->involved[0] = true;
}

static bool active(const plan *p, uint32_t d)
{
    return p->dims[d].n > 1 && p->involved[d];
}

static int add_phase(sim *s, const coll_request *req, const plan *p, uint32_t dim, enum coll_kind type,
                     uint32_t queue, bool anticlockwise, uint64_t *in, phase_desc *out)
{
    const logical_dim *d = &p->dims[dim];
    const algorithm *alg = algo_registry_get(&s->algorithms, d->algo.id);
    if (!alg) {
        sim_fail(s, "internal error: no collective algorithm with id %u", d->algo.id);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->alg = alg;
    out->coll = (uint8_t)type;
    out->anticlockwise = anticlockwise;
    out->ring = d->ring;
    out->local_group = d->local_group;
    out->queue = queue;
    out->dim = dim;
    out->n = d->n;
    out->index = d->index;
    out->base = d->base;
    out->stride = d->stride;
    out->members = d->members;
    out->param = d->algo.param;
    out->in_size = *in;
    char msg[300];
    if (alg->check && alg->check(out, msg, sizeof msg) != 0)
        return node_fail(s, req, msg);
    if (alg->plan)
        alg->plan(s, req->npu, req->kind, out);
    *in = phase_out_size(out);
    return 0;
}

/* The phases of one chunk. Returns how many, or -1 after sim_fail(). */
static int build_phases(sim *s, const coll_request *req, const plan *p, uint64_t chunk, phase_desc *out)
{
    uint32_t npu = req->npu, n = 0;
    uint64_t in = chunk;
    bool ccw;
    if (req->kind == COLL_ALL_REDUCE && !s->cfg.has_collective_optimization) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: key 'collective-optimization' is missing; it decides how this all-reduce "
                 "is laid out over the dimensions (expected baseline or localBWAware)", s->cfg.path);
        return node_fail(s, req, msg);
    }
    if (req->kind != COLL_ALL_REDUCE || s->cfg.collective_optimization == COLL_OPT_BASELINE) {
        for (uint32_t i = 0; i < p->n_dims; i++) {
            uint32_t d = req->kind == COLL_ALL_GATHER ? p->n_dims - 1 - i : i;
            if (!active(p, d))
                continue;
            uint32_t q = scheduler_next_queue(s, npu, d, &ccw);
            if (add_phase(s, req, p, d, req->kind, q, ccw, &in, &out[n++]) != 0)
                return -1;
        }
        return (int)n;
    }
    /* localBWAware all-reduce: reduce-scatter up the dimensions, all-reduce
     * on the last active one, all-gather back down on the "last" queues. */
    int last = 0;
    for (uint32_t d = 0; d < p->n_dims; d++)
        if (active(p, d))
            last = (int)d;
    int d;
    for (d = 0; d < last; d++) {
        if (!active(p, (uint32_t)d))
            continue;
        uint32_t q = scheduler_first_queue(s, npu, (uint32_t)d);
        if (add_phase(s, req, p, (uint32_t)d, COLL_REDUCE_SCATTER, q, false, &in, &out[n++]) != 0)
            return -1;
    }
    while (d > 0 && !active(p, (uint32_t)d))
        d--;
    if (active(p, (uint32_t)d)) {
        uint32_t q = scheduler_first_queue(s, npu, (uint32_t)d);
        if (add_phase(s, req, p, (uint32_t)d, COLL_ALL_REDUCE, q, false, &in, &out[n++]) != 0)
            return -1;
    }
    for (d--; d >= 0; d--) {
        if (!active(p, (uint32_t)d))
            continue;
        uint32_t q = scheduler_last_queue(s, npu, (uint32_t)d);
        if (add_phase(s, req, p, (uint32_t)d, COLL_ALL_GATHER, q, true, &in, &out[n++]) != 0)
            return -1;
    }
    return (int)n;
}

static int64_t next_priority(sim *s, uint32_t npu, int64_t explicit_priority)
{
    npu_sys *sys = &s->sys[npu];
    if (!s->cfg.has_scheduling_policy) {
        sim_fail(s, "%s: key 'scheduling-policy' is missing; it orders the collectives of NPU %u (expected "
                    "LIFO, FIFO or EXPLICIT)", s->cfg.path, npu);
        return 0;
    }
    switch (s->cfg.scheduling_policy) {
    case SCHED_LIFO: return sys->priority_counter++;
    case SCHED_FIFO: return sys->priority_counter--;
    default: return explicit_priority;
    }
}

static stream *new_stream(sim *s, const coll_request *req, dataset *ds, int64_t priority, phase_desc *phases,
                          uint32_t n_phases)
{
    stream *st = slab_alloc(&s->streams);
    if (!st) {
        free(phases);
        sim_fail(s, "out of memory (streams)");
        return NULL;
    }
    memset(st, 0, sizeof *st);
    uint64_t id = req->group ? req->group->num_streams++ : s->sys[req->npu].num_streams++;
    st->epoch = ++s->stream_epoch;
    st->ds = ds;
    st->npu = req->npu;
    st->id = id;
    st->tag = fe_collective_tag(id);
    st->priority = priority;
    st->phases = phases;
    st->n_phases = n_phases;
    st->queue = -1;
    return st;
}

static dataset *new_dataset(sim *s, uint32_t npu, uint32_t node, uint32_t expected, uint8_t kind, sim_done done)
{
    dataset *ds = slab_alloc(&s->datasets);
    if (!ds) {
        sim_fail(s, "out of memory (collectives)");
        return NULL;
    }
    *ds = (dataset){.npu = npu, .node = node, .expected = expected, .kind = kind, .started = sim_now(s),
                    .done = done};
    return ds;
}

/* The custom ET prefix this collective uses, or NULL for a native one. A
 * group resolves it once per collective type and keeps the answer. */
static const char *custom_prefix(sim *s, const coll_request *req)
{
    npu_group *g = req->group;
    if (!g)
        return sys_config_custom_for(&s->cfg, req->kind, req->node_id);
    if (!g->plan_cached[req->kind]) {
        g->plan_custom[req->kind] = sys_config_custom_for(&s->cfg, req->kind, req->node_id);
        g->plan_cached[req->kind] = true;
    }
    return g->plan_custom[req->kind];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* For a group smaller than the system, the file position of each member
 * is its index in the sorted member list, while the ranks its nodes name
 * are indices in the JSON list: fills rank_of[position] and returns this
 * NPU's position. `pairs` has room for the members. */
static uint32_t group_positions(const npu_group *g, uint32_t npu, uint64_t *pairs, uint32_t *rank_of)
{
    uint32_t mine = 0;
    for (uint32_t r = 0; r < g->n_members; r++)
        pairs[r] = (uint64_t)g->members[r] << 32 | r;
    qsort(pairs, g->n_members, sizeof *pairs, cmp_u64);
    for (uint32_t p = 0; p < g->n_members; p++) {
        rank_of[p] = (uint32_t)pairs[p];
        if (pairs[p] >> 32 == npu)
            mine = p;
    }
    return mine;
}

static int start_custom(sim *s, const coll_request *req, const char *prefix, int64_t priority)
{
    phase_desc *ph = calloc(1, sizeof *ph);
    if (!ph) {
        sim_fail(s, "out of memory");
        return -1;
    }
    ph->alg = &algorithm_custom;
    ph->queue = 0;
    ph->in_size = req->size;
    ph->ring = RING_ALL;
    ph->n = s->n_npus;
    ph->index = req->npu;
    ph->custom_position = req->npu;
    uint64_t *pairs = NULL;
    uint32_t *rank_of = NULL;
    int64_t group = INT64_MIN;  /* the whole system */
    if (req->group && req->group->n_members < s->n_npus) {
        const npu_group *g = req->group;
        pairs = malloc(g->n_members * sizeof *pairs);
        rank_of = malloc(g->n_members * sizeof *rank_of);
        if (!pairs || !rank_of) {
            free(ph), free(pairs), free(rank_of);
            sim_fail(s, "out of memory");
            return -1;
        }
        ph->custom_position = group_positions(g, req->npu, pairs, rank_of);
        ph->ring = RING_GROUP;
        ph->n = g->n_members;
        ph->index = g->my_index;
        ph->members = g->members;
        group = g->internal_id;
    }
    int rc = custom_prepare_all(s, prefix, ph->n, rank_of, group);
    free(pairs), free(rank_of);
    if (rc != 0) {
        free(ph);
        return -1;
    }
    dataset *ds = new_dataset(s, req->npu, req->node, 1, DATASET_COLLECTIVE, req->done);
    if (!ds) {
        free(ph);
        return -1;
    }
    stream *st = new_stream(s, req, ds, priority, ph, 1);
    if (!st)
        return -1;
    st->custom = true;
    st->custom_prefix = prefix;
    scheduler_enter_first_phase(s, st);
    return 0;
}

/* The largest collective accepted, the bound `vimana-et validate` applies
 * to comm_size too: it keeps the chunk arithmetic below from wrapping. */
#define MAX_COLLECTIVE_BYTES ((uint64_t)INT64_MAX)

int collective_start(sim *s, const coll_request *req)
{
    uint64_t splits = s->cfg.preferred_dataset_splits;
    uint64_t size = req->size;
    char msg[200];
    if (size > MAX_COLLECTIVE_BYTES) {
        snprintf(msg, sizeof msg, "comm_size %llu is out of range (at most %llu bytes)", (unsigned long long)size,
                 (unsigned long long)MAX_COLLECTIVE_BYTES);
        return node_fail(s, req, msg);
    }
    uint64_t chunk = size / splits;
    if (req->kind != COLL_ALL_GATHER && s->n_npus > chunk) {
        /* chunks are never smaller than the number of NPUs */
        chunk = s->n_npus;
        if (splits > MAX_COLLECTIVE_BYTES / chunk) {
            snprintf(msg, sizeof msg, "preferred-dataset-splits (%llu) chunks of %llu bytes are out of range (at "
                     "most %llu bytes in all)", (unsigned long long)splits, (unsigned long long)chunk,
                     (unsigned long long)MAX_COLLECTIVE_BYTES);
            return node_fail(s, req, msg);
        }
        size = splits * chunk;
    }
    int64_t priority = next_priority(s, req->npu, req->priority);
    if (s->failed)
        return -1;
    const char *prefix = custom_prefix(s, req);
    if (prefix)
        return start_custom(s, req, prefix, priority);
    if (chunk == 0) {
        snprintf(msg, sizeof msg, "ALL_GATHER of %llu bytes is smaller than preferred-dataset-splits (%llu): "
                 "its chunks would be empty", (unsigned long long)req->size, (unsigned long long)splits);
        return node_fail(s, req, msg);
    }
    plan p;
    if (req->group && req->group->n_members < s->n_npus)
        plan_group(s, req, &p);
    else if (plan_native(s, req, &p) != 0)
        return -1;
    uint64_t streams = (size + chunk - 1) / chunk;
    if (streams > UINT32_MAX)
        return node_fail(s, req, "too many chunks");
    dataset *ds = new_dataset(s, req->npu, req->node, (uint32_t)streams, DATASET_COLLECTIVE, req->done);
    if (!ds)
        return -1;
    while (size > 0 && !s->failed) {
        size = chunk > size ? 0 : size - chunk;
        phase_desc *phases = malloc((2 * p.n_dims + 1) * sizeof *phases);
        if (!phases) {
            sim_fail(s, "out of memory");
            return -1;
        }
        int n = build_phases(s, req, &p, chunk, phases);
        if (n <= 0) {
            free(phases);
            if (n == 0)
                node_fail(s, req, "the collective has no active dimension (every dimension it would use has "
                                  "one NPU or is excluded by involved_dim)");
            return -1;
        }
        stream *st = new_stream(s, req, ds, priority, phases, (uint32_t)n);
        if (!st)
            return -1;
        scheduler_enter_first_phase(s, st);
    }
    return s->failed ? -1 : 0;
}

/* BROADCAST is not simulated by the reference either: it only takes time. */
static void timed_done(sim *s, void *obj, uint64_t data)
{
    (void)data;
    dataset *ds = obj;
    sim_done done = ds->done;
    slab_free(&s->datasets, ds);
    sim_done_run(s, done);
}

int collective_start_timed(sim *s, uint32_t npu, uint32_t node, vimana_tick delay, sim_done done)
{
    dataset *ds = new_dataset(s, npu, node, 1, DATASET_BROADCAST, done);
    if (!ds)
        return -1;
    npu_register_event(s, npu, delay, timed_done, ds, 0);
    return 0;
}
