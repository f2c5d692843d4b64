#include "synth/synth_sample.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/sink.h"
#include "synth/comm_groups.h"
#include "synth/jitter.h"
#include "synth/step_fill.h"
#include "util/grow.h"
#include "util/sorted.h"
#include "vimana/et.h"

static void shuffle_u64(uint64_t *v, uint64_t n, sample_rng *r)
{
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = (uint64_t)(sample_rng_next(r) * (double)i);
        uint64_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* ---- checks before anything is written ---------------------------------- */

static const sm_role *role_of(const synth_model *m, uint64_t rank)
{
    return &m->roles[m->role_of[rank % m->ranks]];
}

static bool same_seq(const sm_seq *a, const sm_seq *b)
{
    if (a->n_runs != b->n_runs)
        return false;
    for (size_t i = 0; i < a->n_runs; i++) {
        const sm_run *x = &a->runs[i], *y = &b->runs[i];
        if (x->coll != y->coll || x->size != y->size || x->repeat != y->repeat || x->dims != y->dims ||
            x->n_dims != y->n_dims)
            return false;
    }
    return true;
}

/* The first member of rank r's group on communicator c. */
static uint64_t group_leader(const sm_comm *c, uint64_t r)
{
    return c->size ? comm_layout_member(comm_layout_index(r, c->size, c->stride), 0, c->size, c->stride) : 0;
}

static int check_comms(const char *prog, const char *file, const synth_model *m, uint64_t npus)
{
    /* Several roles: the sample is whole replicas of the source's ranks
     * (rank r plays the role of rank r mod `ranks`); a new rank in a
     * partial replica would play a role without its peers. */
    if (m->n_roles > 1 && npus % m->ranks != 0) {
        cli_error(prog, "--npus %" PRIu64 ": the model's %" PRIu64 " ranks play %zu roles (their events differ), so "
                        "--npus must be a multiple of %" PRIu64, npus, m->ranks, m->n_roles, m->ranks);
        return -1;
    }
    for (size_t c = 0; c < m->n_comms; c++) {
        const sm_comm *k = &m->comms[c];
        if (!k->known || (k->size && !k->stride)) {
            cli_error(prog, "error: %s: communicators[%zu]: %s", file, c,
                      k->known ? "its members are not a regular layout (size and stride); it cannot be sampled"
                               : "its size is unknown (fit with --groups FILE)");
            return -1;
        }
        if (k->size && npus % (k->size * k->stride) != 0) {
            cli_error(prog, "--npus %" PRIu64 ": communicator %zu (size %" PRIu64 ", stride %" PRIu64
                            ") needs a multiple of %" PRIu64 " ranks", npus, c, k->size, k->stride,
                      k->size * k->stride);
            return -1;
        }
    }
    /* Every member of a group must issue the same collectives on it, or
     * the simulation waits for ever. */
    for (size_t c = 0; c < m->n_comms; c++)
        for (uint64_t r = 0; r < npus; r++) {
            uint64_t lead = group_leader(&m->comms[c], r);
            if (role_of(m, r) != role_of(m, lead) && !same_seq(&role_of(m, r)->seq[c], &role_of(m, lead)->seq[c])) {
                cli_error(prog, "error: %s: communicators[%zu]: ranks %" PRIu64 " and %" PRIu64
                                " of one group issue different collectives", file, c, lead, r);
                return -1;
            }
        }
    return 0;
}

/* A message: who sends it to whom, and its size. */
typedef struct p2p_msg {
    uint64_t src, dst, size;
} p2p_msg;

static int cmp_msg(const void *a, const void *b)
{
    const p2p_msg *x = a, *y = b;
    uint64_t kx[] = {x->src, x->dst, x->size}, ky[] = {y->src, y->dst, y->size};
    return keys_order(kx, ky, 3);
}

/* (a + offset) mod n, in [0, n). */
static uint64_t wrap(uint64_t a, int64_t offset, uint64_t n)
{
    int64_t k = (int64_t)n;
    return (uint64_t)((((int64_t)a + offset) % k + k) % k);
}

/* How many ranks a peer offset wraps around: one role, the N ranks (an
 * SPMD ring shift stays a ring over all of them); several roles, the
 * source's ranks, so that a send stays inside its replica and every
 * pipeline keeps its shape. */
static uint64_t p2p_span(const synth_model *m, uint64_t npus)
{
    return m->n_roles > 1 ? m->ranks : npus;
}

/* The rank at peer offset `offset` from `rank`: (rank + offset) mod N with
 * one role; base + (rank - base + offset) mod ranks with several, base the
 * first rank of rank's replica. */
static uint64_t peer_of(const synth_model *m, uint64_t rank, int64_t offset, uint64_t npus)
{
    uint64_t span = p2p_span(m, npus), base = rank - rank % span;
    return base + wrap(rank - base, offset, span);
}

/* Every send needs its receive: the messages the ranks send and those
 * they receive must be the same multiset. */
static int check_p2p(const char *prog, const char *file, const synth_model *m, uint64_t npus)
{
    size_t n = 0;
    for (uint64_t r = 0; r < npus; r++) {
        const sm_role *role = role_of(m, r);
        for (size_t i = 0; i < role->n_steps; i++) {
            const sm_step *st = &role->steps[i];
            if (st->type != SM_SEND && st->type != SM_RECV)
                continue;
            if (st->offset % (int64_t)p2p_span(m, npus) == 0) {
                cli_error(prog, "--npus %" PRIu64 ": a %s at peer offset %" PRId64 " would be the rank itself", npus,
                          st->type == SM_SEND ? "send" : "receive", st->offset);
                return -1;
            }
            n++;
        }
    }
    if (n == 0)
        return 0;
    p2p_msg *sends = malloc(n * sizeof *sends), *recvs = malloc(n * sizeof *recvs);
    size_t ns = 0, nr = 0;
    for (uint64_t r = 0; sends && recvs && r < npus; r++) {
        const sm_role *role = role_of(m, r);
        for (size_t i = 0; i < role->n_steps; i++) {
            const sm_step *st = &role->steps[i];
            uint64_t peer = peer_of(m, r, st->offset, npus);
            if (st->type == SM_SEND)
                sends[ns++] = (p2p_msg){r, peer, st->size};
            else if (st->type == SM_RECV)
                recvs[nr++] = (p2p_msg){peer, r, st->size};
        }
    }
    int rc = 0;
    if (!sends || !recvs) {
        cli_error(prog, "out of memory");
        rc = -1;
    } else {
        qsort(sends, ns, sizeof *sends, cmp_msg);
        qsort(recvs, nr, sizeof *recvs, cmp_msg);
        size_t i = 0;
        while (i < ns && i < nr && cmp_msg(&sends[i], &recvs[i]) == 0)
            i++;
        if (i < ns || i < nr) {
            const p2p_msg *x = i < ns && (i >= nr || cmp_msg(&sends[i], &recvs[i]) < 0) ? &sends[i] : &recvs[i];
            cli_error(prog, "error: %s: on %" PRIu64 " ranks the message of %" PRIu64 " bytes from rank %" PRIu64
                            " to rank %" PRIu64 " has no matching %s", file, npus, x->size, x->src, x->dst,
                      x == &sends[i] ? "receive" : "send");
            rc = -1;
        }
    }
    free(sends);
    free(recvs);
    return rc;
}

/* ---- the plan of each role ---------------------------------------------- */

typedef struct plan {
    uint64_t *count;            /* n_steps * SK_LOCAL_KINDS rounded mean counts */
    uint64_t *first;            /* index of each (step, kind)'s first node in its kind's list */
    uint64_t total[SK_LOCAL_KINDS];
    uint64_t events[FIT_KINDS]; /* events of each kind per rank */
} plan;

static void plans_free(plan *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++) {
        free(p[i].count);
        free(p[i].first);
    }
    free(p);
}

static int event_kind(const sm_role *role, const sm_step *st, const size_t *cursor_run)
{
    if (st->type == SM_SEND)
        return FIT_SEND;
    if (st->type == SM_RECV)
        return FIT_RECV;
    return FIT_COLL_FIRST + role->seq[st->comm].runs[cursor_run[st->comm]].coll;
}

/* Advances communicator c's cursor past one collective. */
static void next_coll(const sm_role *role, size_t c, size_t *run, uint64_t *used)
{
    if (++used[c] == role->seq[c].runs[run[c]].repeat) {
        run[c]++;
        used[c] = 0;
    }
}

static int make_plan(const char *prog, const synth_model *m, const sm_role *role, plan *p)
{
    size_t n = role->n_steps * SK_LOCAL_KINDS;
    p->count = calloc(n, sizeof *p->count);
    p->first = calloc(n, sizeof *p->first);
    size_t *run = calloc(m->n_comms + 1, sizeof *run);
    uint64_t *used = calloc(m->n_comms + 1, sizeof *used);
    if (!p->count || !p->first || !run || !used) {
        free(run);
        free(used);
        cli_error(prog, "out of memory");
        return -1;
    }
    uint64_t nodes = 0;
    for (size_t i = 0; i < role->n_steps; i++) {
        const sm_step *st = &role->steps[i];
        for (int l = 0; l < SK_LOCAL_KINDS; l++) {
            uint64_t c = (uint64_t)floor(st->count[l] + 0.5);
            p->count[i * SK_LOCAL_KINDS + l] = c;
            p->first[i * SK_LOCAL_KINDS + l] = p->total[l];
            p->total[l] += c;
            nodes += c;
        }
        if (st->type == SM_NONE)
            continue;
        p->events[event_kind(role, st, run)]++;
        nodes++;
        if (st->type == SM_COLL)
            next_coll(role, st->comm, run, used);
    }
    free(run);
    free(used);
    if (nodes > SAMPLE_MAX_RANK_NODES) {
        cli_error(prog, "the model asks for %" PRIu64 " nodes per rank (at most %d)", nodes, SAMPLE_MAX_RANK_NODES);
        return -1;
    }
    return 0;
}

static plan *make_plans(const char *prog, const synth_model *m)
{
    plan *p = calloc(m->n_roles, sizeof *p);
    if (!p) {
        cli_error(prog, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < m->n_roles; i++)
        if (make_plan(prog, m, &m->roles[i], &p[i]) != 0) {
            plans_free(p, m->n_roles);
            return NULL;
        }
    return p;
}

/* Tags: on each rank, the k-th send to a peer of a size gets tag k, and so
 * does the k-th receive from a peer of a size; check_p2p made sure the
 * counts agree, so the k-th send meets the k-th receive. */
typedef struct p2p_at {
    int dir;
    uint64_t peer, size;
    size_t step;
} p2p_at;

static int cmp_p2p_at(const void *a, const void *b)
{
    const p2p_at *x = a, *y = b;
    uint64_t kx[] = {sorted_i64_key(x->dir), x->peer, x->size, x->step};
    uint64_t ky[] = {sorted_i64_key(y->dir), y->peer, y->size, y->step};
    return keys_order(kx, ky, 4);
}

static int32_t *rank_tags(const synth_model *m, const sm_role *role, uint64_t rank, uint64_t npus)
{
    int32_t *tag = calloc(role->n_steps + 1, sizeof *tag);
    p2p_at *at = malloc((role->n_steps + 1) * sizeof *at);
    if (!tag || !at) {
        free(tag);
        free(at);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < role->n_steps; i++) {
        const sm_step *st = &role->steps[i];
        if (st->type == SM_SEND || st->type == SM_RECV)
            at[n++] = (p2p_at){st->type == SM_SEND, peer_of(m, rank, st->offset, npus), st->size, i};
    }
    qsort(at, n, sizeof *at, cmp_p2p_at);
    int32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        k = i > 0 && at[i].dir == at[i - 1].dir && at[i].peer == at[i - 1].peer && at[i].size == at[i - 1].size
                ? k + 1
                : 0;
        tag[at[i].step] = k;
    }
    free(at);
    return tag;
}

/* ---- per-rank durations ------------------------------------------------- */

static bool is_compute(int l)
{
    return l <= 1; /* comp_gpu, comp_cpu: scaled by the rank's compute ratio */
}

/* The durations of local kind l for one rank, in (step, position) order:
 * a stratified pool from the kind's distribution (times f), handed out by
 * step_fill so that each step's sum comes near its mean summed duration
 * (times f), then shuffled within the step. */
static int assign_kind(const sm_role *role, const plan *p, int l, double f, sample_rng *rng, uint64_t *out)
{
    uint64_t n = p->total[l];
    uint64_t *v = malloc(n * sizeof *v);
    step_fill_step *steps = malloc(role->n_steps * sizeof *steps);
    int rc = v && steps ? 0 : -1;
    if (rc == 0) {
        dist_stratified(&role->duration[l], rng, v, n);
        for (uint64_t i = 0; i < n; i++) {
            double x = floor((double)v[i] * f + 0.5); /* f >= 0: still ascending */
            v[i] = x >= (double)SM_MAX_DURATION ? SM_MAX_DURATION : (uint64_t)x;
        }
        for (size_t i = 0; i < role->n_steps; i++)
            steps[i] = (step_fill_step){p->count[i * SK_LOCAL_KINDS + l], role->steps[i].duration[l] * f,
                                        p->first[i * SK_LOCAL_KINDS + l]};
        rc = step_fill(v, n, steps, role->n_steps, out);
    }
    for (size_t i = 0; rc == 0 && i < role->n_steps; i++)
        shuffle_u64(out + steps[i].first, steps[i].count, rng);
    free(v);
    free(steps);
    return rc;
}

/* ---- writing one rank --------------------------------------------------- */

/* An event a later local node waits for: that node's local index. */
typedef struct join {
    uint64_t at, id;
} join;

typedef struct joins {
    join *v;
    size_t n, cap;
} joins;

/* Min-heap on `at`. */
static int joins_push(joins *h, join j)
{
    if (grow_array((void **)&h->v, &h->cap, h->n + 1, sizeof *h->v, 16) != 0)
        return -1;
    h->n = min_heap_push(h->v, h->n, sizeof j, offsetof(join, at), &j);
    return 0;
}

static join joins_pop(joins *h)
{
    join top;
    h->n = min_heap_pop(h->v, h->n, sizeof top, offsetof(join, at), &top);
    return top;
}

typedef struct rank_gen {
    const synth_model *m;
    const sm_role *role;
    const plan *p;
    const uint64_t *group_base; /* per communicator: its first group number */
    int32_t *tag;               /* per step: the comm_tag of its send or receive */
    uint64_t rank, npus;
    sample_rng rng;
    uint64_t *dur[SK_LOCAL_KINDS], *size[SK_LOCAL_KINDS];
    uint64_t *ev_dur[FIT_KINDS];
    uint64_t ev_used[FIT_KINDS];
    size_t *run;
    uint64_t *used;
    uint64_t *order; /* the current step's local nodes: kind << 40 | index */
    vet_builder *b;
    vet_writer *w;
    vet_error err;
    uint64_t next_id, locals, last_local;
    bool have_local;
    int prev_kind; /* the fit_kind of the last node written; -1 before the first */
    uint64_t *event_ids; /* ids of the events written so far */
    size_t n_events;
    joins waiting;
} rank_gen;

static void rank_gen_free(rank_gen *g)
{
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        free(g->dur[l]);
        free(g->size[l]);
    }
    for (int k = 0; k < FIT_KINDS; k++)
        free(g->ev_dur[k]);
    free(g->run);
    free(g->used);
    free(g->order);
    free(g->event_ids);
    free(g->tag);
    free(g->waiting.v);
    vet_builder_free(g->b);
}

/* A stratified, shuffled list of n draws (all 0 when the kind has no
 * distribution). */
static uint64_t *draw_shuffled(const dist *d, uint64_t n, sample_rng *rng)
{
    uint64_t *v = calloc(n + 1, sizeof *v);
    if (v && d) {
        dist_stratified(d, rng, v, n);
        shuffle_u64(v, n, rng);
    }
    return v;
}

static int rank_gen_init(rank_gen *g, const synth_model *m, const plan *plans, const uint64_t *group_base,
                         uint64_t rank, uint64_t npus, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->role = role_of(m, rank);
    const plan *p = g->p = &plans[m->role_of[rank % m->ranks]];
    g->group_base = group_base;
    g->rank = rank;
    g->npus = npus;
    g->prev_kind = -1;
    g->rng = (sample_rng){seed, rank + 1, 0};
    double f = m->ratio[rank % m->ranks];
    uint64_t most = 1;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        const sm_kind *k = &m->kinds[sk_local_kind(l)];
        if (!(g->dur[l] = calloc(p->total[l] + 1, sizeof *g->dur[l])) ||
            (p->total[l] && assign_kind(g->role, p, l, is_compute(l) ? f : 1.0, &g->rng, g->dur[l]) != 0))
            return -1;
        if (k->has_size && !(g->size[l] = draw_shuffled(&k->size, p->total[l], &g->rng)))
            return -1;
        most += p->total[l];
    }
    for (int k = 0; k < FIT_KINDS; k++)
        if (p->events[k] &&
            !(g->ev_dur[k] = draw_shuffled(m->kinds[k].present ? &m->kinds[k].duration : NULL, p->events[k],
                                           &g->rng)))
            return -1;
    g->run = calloc(m->n_comms + 1, sizeof *g->run);
    g->used = calloc(m->n_comms + 1, sizeof *g->used);
    g->order = malloc(most * sizeof *g->order);
    g->event_ids = malloc((g->role->n_steps + 1) * sizeof *g->event_ids);
    g->tag = rank_tags(m, g->role, rank, npus);
    g->b = vet_builder_new();
    return g->run && g->used && g->order && g->event_ids && g->tag && g->b ? 0 : -1;
}

static int put(rank_gen *g)
{
    if (vet_builder_failed(g->b)) {
        snprintf(g->err.msg, sizeof g->err.msg, "out of memory");
        return -1;
    }
    return vet_writer_put_node(g->w, vet_builder_node(g->b), &g->err);
}

static const char *const local_prefix[SK_LOCAL_KINDS] = {"comp", "comp", "load", "store", "meta", "invalid"};
static const enum vet_node_type local_type[SK_LOCAL_KINDS] = {VET_COMP_NODE,       VET_COMP_NODE,
                                                             VET_MEM_LOAD_NODE,   VET_MEM_STORE_NODE,
                                                             VET_METADATA_NODE,   VET_INVALID_NODE};

static int emit_local(rank_gen *g, int l, uint64_t index)
{
    char name[48];
    uint64_t id = g->next_id++;
    snprintf(name, sizeof name, "%s_%" PRIu64, local_prefix[l], id);
    vet_builder_reset(g->b, id, name, local_type[l]);
    vet_builder_set_duration(g->b, g->dur[l][index]);
    if (g->have_local)
        vet_builder_add_data_dep(g->b, g->last_local);
    while (g->waiting.n && g->waiting.v[0].at <= g->locals)
        vet_builder_add_data_dep(g->b, joins_pop(&g->waiting).id);
    if (l <= 1)
        vet_builder_attr_bool(g->b, "is_cpu_op", l == 1);
    if (g->size[l])
        vet_builder_attr_uint64(g->b, "tensor_size", g->size[l][index]);
    g->locals++;
    g->have_local = true;
    g->last_local = id;
    g->prev_kind = sk_local_kind(l);
    return put(g);
}

static void coll_attrs(rank_gen *g, const sm_step *st)
{
    const sm_comm *c = &g->m->comms[st->comm];
    const sm_run *run = &g->role->seq[st->comm].runs[g->run[st->comm]];
    vet_builder_attr_bool(g->b, "is_cpu_op", false);
    vet_builder_attr_int64(g->b, "comm_type", run->coll);
    vet_builder_attr_uint64(g->b, "comm_size", run->size);
    if (run->n_dims) {
        bool dims[64];
        for (size_t d = 0; d < run->n_dims; d++)
            dims[d] = run->dims >> d & 1;
        vet_builder_attr_bool_list(g->b, "involved_dim", dims, run->n_dims);
    }
    if (c->size) {
        char pg[32];
        snprintf(pg, sizeof pg, "%" PRIu64, g->group_base[st->comm] + comm_layout_index(g->rank, c->size, c->stride));
        vet_builder_attr_string(g->b, "pg_name", pg);
    }
    next_coll(g->role, st->comm, g->run, g->used);
}

static void p2p_attrs(rank_gen *g, const sm_step *st)
{
    int64_t peer = (int64_t)peer_of(g->m, g->rank, st->offset, g->npus);
    bool send = st->type == SM_SEND;
    vet_builder_attr_bool(g->b, "is_cpu_op", false);
    vet_builder_attr_int64(g->b, "comm_src", send ? (int64_t)g->rank : peer);
    vet_builder_attr_int64(g->b, "comm_dst", send ? peer : (int64_t)g->rank);
    vet_builder_attr_int64(g->b, "comm_tag", g->tag[st - g->role->steps]);
    vet_builder_attr_uint64(g->b, "comm_size", st->size);
}

static int emit_event(rank_gen *g, const sm_step *st)
{
    static const char *const prefix[] = {"", "coll", "send", "recv"};
    static const enum vet_node_type type[] = {VET_INVALID_NODE, VET_COMM_COLL_NODE, VET_COMM_SEND_NODE,
                                              VET_COMM_RECV_NODE};
    char name[48];
    uint64_t id = g->next_id++;
    int kind = event_kind(g->role, st, g->run);
    snprintf(name, sizeof name, "%s_%" PRIu64, prefix[st->type], id);
    vet_builder_reset(g->b, id, name, type[st->type]);
    vet_builder_set_duration(g->b, g->ev_dur[kind][g->ev_used[kind]++]);
    if (st->after_local && g->have_local)
        vet_builder_add_data_dep(g->b, g->last_local);
    for (size_t j = 0; j < st->n_back; j++)
        vet_builder_add_data_dep(g->b, g->event_ids[g->n_events - st->back[j]]);
    if (st->type == SM_COLL)
        coll_attrs(g, st);
    else
        p2p_attrs(g, st);
    if (st->join >= 0 && joins_push(&g->waiting, (join){g->locals + (uint64_t)st->join, id}) != 0) {
        snprintf(g->err.msg, sizeof g->err.msg, "out of memory");
        return -1;
    }
    g->event_ids[g->n_events++] = id;
    g->prev_kind = kind;
    return put(g);
}

/* The local kind of the next node of a step, drawn with weight
 * next[prev][l] * left[l] / count[l]: the fitted kind transitions, damped
 * for a kind used up faster than the step's mix, so that the chain does
 * not leave a run of one kind at the step's end. Without a transition
 * from prev to any kind left (or before the first node), weight left[l]. */
static int draw_local_kind(rank_gen *g, int prev, const uint64_t *count, const uint64_t *left)
{
    double w[SK_LOCAL_KINDS], sum = 0;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        uint64_t t = prev >= 0 && left[l] ? g->m->kinds[prev].next[sk_local_kind(l)] : 0;
        w[l] = t ? (double)t * (double)left[l] / (double)count[l] : 0;
        sum += w[l];
    }
    if (sum == 0)
        for (int l = 0; l < SK_LOCAL_KINDS; l++)
            sum += w[l] = (double)left[l];
    double u = sample_rng_next(&g->rng) * sum;
    int last = 0;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        if (w[l] == 0)
            continue;
        last = l;
        if (u < w[l])
            return l;
        u -= w[l];
    }
    return last; /* rounding at the top end */
}

/* The step's local nodes (kind << 40 | index in the kind's list) in
 * order: one kind as it is, mixed kinds along the fitted transitions. */
static uint64_t order_step(rank_gen *g, size_t i)
{
    const uint64_t *count = &g->p->count[i * SK_LOCAL_KINDS], *at = &g->p->first[i * SK_LOCAL_KINDS];
    uint64_t left[SK_LOCAL_KINDS], n = 0;
    int kinds = 0;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        left[l] = count[l];
        n += count[l];
        kinds += count[l] > 0;
    }
    int prev = g->prev_kind;
    for (uint64_t j = 0; j < n; j++) {
        int l = 0;
        if (kinds > 1)
            l = draw_local_kind(g, prev, count, left);
        else
            while (!left[l])
                l++;
        g->order[j] = (uint64_t)l << 40 | (at[l] + count[l] - left[l]);
        left[l]--;
        prev = sk_local_kind(l);
    }
    return n;
}

static int emit_step(rank_gen *g, size_t i)
{
    uint64_t n = order_step(g, i);
    for (uint64_t j = 0; j < n; j++)
        if (emit_local(g, (int)(g->order[j] >> 40), g->order[j] & ((UINT64_C(1) << 40) - 1)) != 0)
            return -1;
    return g->role->steps[i].type == SM_NONE ? 0 : emit_event(g, &g->role->steps[i]);
}

static int write_rank(const char *prog, const synth_model *m, const plan *plans, const uint64_t *group_base,
                      uint64_t rank, uint64_t npus, uint64_t seed, const char *path)
{
    rank_gen g;
    if (rank_gen_init(&g, m, plans, group_base, rank, npus, seed) != 0) {
        rank_gen_free(&g);
        cli_error(prog, "out of memory");
        return -1;
    }
    int rc = -1;
    if ((g.w = vet_writer_open(path, &g.err)) != NULL) {
        vet_builder_reset(g.b, 0, "0.0.4", 0);
        rc = vet_writer_put_metadata(g.w, vet_builder_metadata(g.b), &g.err);
        for (size_t i = 0; rc == 0 && i < g.role->n_steps; i++)
            rc = emit_step(&g, i);
        vet_error cerr;
        if (vet_writer_close(g.w, &cerr) != 0 && rc == 0) {
            g.err = cerr;
            rc = -1;
        }
        if (rc != 0)
            remove(path);
    }
    if (rc != 0)
        cli_error(prog, "error: %s", g.err.msg);
    rank_gen_free(&g);
    return rc;
}

/* Group numbers: 1, 2, ... communicator by communicator; base[c] is the
 * first of communicator c. */
static uint64_t *group_bases(const synth_model *m, uint64_t npus)
{
    uint64_t *base = calloc(m->n_comms + 1, sizeof *base), next = 1;
    for (size_t c = 0; base && c < m->n_comms; c++) {
        base[c] = next;
        if (m->comms[c].size)
            next += npus / m->comms[c].size;
    }
    return base;
}

/* PREFIX.groups.json: every group of every sized communicator. */
static int write_groups(const char *prog, const synth_model *m, const uint64_t *base, uint64_t npus,
                        const char *prefix)
{
    size_t len = strlen(prefix) + 16;
    char *path = malloc(len);
    if (!path) {
        cli_error(prog, "out of memory");
        return -1;
    }
    snprintf(path, len, "%s.groups.json", prefix);
    sink *s = sink_open(prog, path);
    free(path);
    if (!s)
        return -1;
    bool first = true;
    sink_puts(s, "{");
    for (size_t c = 0; c < m->n_comms; c++) {
        const sm_comm *k = &m->comms[c];
        for (uint64_t gi = 0; k->size && gi < npus / k->size; gi++) {
            sink_printf(s, "%s\n  \"%" PRIu64 "\": [", first ? "" : ",", base[c] + gi);
            for (uint64_t j = 0; j < k->size; j++)
                sink_printf(s, "%s%" PRIu64, j ? ", " : "", comm_layout_member(gi, j, k->size, k->stride));
            sink_puts(s, "]");
            first = false;
        }
    }
    sink_puts(s, "\n}\n");
    return sink_close(s);
}

static int write_all(const char *prog, const synth_model *m, const plan *plans, const uint64_t *base, uint64_t npus,
                     uint64_t seed, const char *prefix)
{
    bool grouped = false;
    for (size_t c = 0; c < m->n_comms; c++)
        grouped = grouped || m->comms[c].size;
    if (grouped && write_groups(prog, m, base, npus, prefix) != 0)
        return -1;
    size_t len = strlen(prefix) + 32;
    char *path = malloc(len);
    if (!path) {
        cli_error(prog, "out of memory");
        return -1;
    }
    int rc = 0;
    for (uint64_t r = 0; rc == 0 && r < npus; r++) {
        snprintf(path, len, "%s.%" PRIu64 ".et", prefix, r);
        rc = write_rank(prog, m, plans, base, r, npus, seed, path);
    }
    free(path);
    return rc;
}

int synth_sample_write(const char *prog, const char *model_path, const synth_model *m, uint64_t npus,
                       uint64_t seed, const char *prefix)
{
    if (check_comms(prog, model_path, m, npus) != 0 || check_p2p(prog, model_path, m, npus) != 0)
        return -1;
    plan *plans = make_plans(prog, m);
    uint64_t *base = plans ? group_bases(m, npus) : NULL;
    int rc = -1;
    if (plans && !base)
        cli_error(prog, "out of memory");
    else if (plans && cli_make_parent_dirs(prog, prefix) == 0)
        rc = write_all(prog, m, plans, base, npus, seed, prefix);
    plans_free(plans, m->n_roles);
    free(base);
    return rc;
}
