#include "synth/synth_sample.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/sink.h"
#include "synth/comm_groups.h"
#include "synth/jitter.h"
#include "synth/step_fill.h"
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

static int check_layouts(const char *prog, const char *file, const synth_model *m, uint64_t npus)
{
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
    /* After the communicators: groups of unknown members also make ranks
     * differ, and "fit with --groups" is then the useful answer. */
    if (!m->symmetric) {
        cli_error(prog, "error: %s: symmetric: the source ranks do not share one communication skeleton "
                        "(sampling needs traces whose ranks issue the same events)", file);
        return -1;
    }
    for (size_t i = 0; i < m->n_steps; i++) {
        const sm_step *st = &m->steps[i];
        if ((st->type == SM_SEND || st->type == SM_RECV) && st->offset % (int64_t)npus == 0) {
            cli_error(prog, "--npus %" PRIu64 ": a %s at peer offset %" PRId64 " would be the rank itself", npus,
                      st->type == SM_SEND ? "send" : "receive", st->offset);
            return -1;
        }
    }
    return 0;
}

/* ---- the plan shared by all ranks --------------------------------------- */

typedef struct plan {
    uint64_t *count;              /* n_steps * SK_LOCAL_KINDS rounded mean counts */
    uint64_t *first;              /* index of each (step, kind)'s first node in its kind's list */
    uint64_t total[SK_LOCAL_KINDS];
    uint64_t events[FIT_KINDS];   /* events of each kind per rank */
    uint64_t *group_base;         /* per communicator: its first group number */
    int32_t *tag;                 /* per step: the comm_tag of its send or receive */
} plan;

static void plan_free(plan *p)
{
    free(p->count);
    free(p->first);
    free(p->group_base);
    free(p->tag);
}

/* A send or receive step keyed by the send it is: (offset, size). */
typedef struct p2p_at {
    int64_t offset;
    uint64_t size;
    size_t step;
} p2p_at;

static int cmp_p2p_at(const void *a, const void *b)
{
    const p2p_at *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return (x->step > y->step) - (x->step < y->step);
}

/* Tags: the k-th send of a kind (offset d, size) pairs with the k-th
 * receive from offset -d of that size, in step order, and the pair gets
 * its own tag, the same on every rank (the model checked the pairs). */
static int plan_tags(const synth_model *m, plan *p)
{
    p2p_at *sends = calloc(m->n_steps + 1, sizeof *sends), *recvs = calloc(m->n_steps + 1, sizeof *recvs);
    if (!sends || !recvs || !(p->tag = calloc(m->n_steps + 1, sizeof *p->tag))) {
        free(sends);
        free(recvs);
        return -1;
    }
    size_t ns = 0, nr = 0;
    for (size_t i = 0; i < m->n_steps; i++) {
        const sm_step *st = &m->steps[i];
        if (st->type == SM_SEND)
            sends[ns++] = (p2p_at){st->offset, st->size, i};
        else if (st->type == SM_RECV)
            recvs[nr++] = (p2p_at){-st->offset, st->size, i};
    }
    qsort(sends, ns, sizeof *sends, cmp_p2p_at);
    qsort(recvs, nr, sizeof *recvs, cmp_p2p_at);
    for (size_t i = 0; i < ns && i < nr; i++)
        p->tag[sends[i].step] = p->tag[recvs[i].step] = (int32_t)i;
    free(sends);
    free(recvs);
    return 0;
}

static int event_kind(const synth_model *m, const sm_step *st, const size_t *cursor_run)
{
    if (st->type == SM_SEND)
        return FIT_SEND;
    if (st->type == SM_RECV)
        return FIT_RECV;
    return FIT_COLL_FIRST + m->comms[st->comm].runs[cursor_run[st->comm]].coll;
}

static int make_plan(const char *prog, const synth_model *m, uint64_t npus, plan *p)
{
    memset(p, 0, sizeof *p);
    size_t n = m->n_steps * SK_LOCAL_KINDS;
    p->count = calloc(n, sizeof *p->count);
    p->first = calloc(n, sizeof *p->first);
    p->group_base = calloc(m->n_comms + 1, sizeof *p->group_base);
    size_t *run = calloc(m->n_comms + 1, sizeof *run);
    uint64_t *used = calloc(m->n_comms + 1, sizeof *used);
    if (!p->count || !p->first || !p->group_base || !run || !used || plan_tags(m, p) != 0) {
        free(run);
        free(used);
        cli_error(prog, "out of memory");
        return -1;
    }
    uint64_t nodes = 0;
    for (size_t i = 0; i < m->n_steps; i++) {
        for (int l = 0; l < SK_LOCAL_KINDS; l++) {
            uint64_t c = (uint64_t)floor(m->steps[i].count[l] + 0.5);
            p->count[i * SK_LOCAL_KINDS + l] = c;
            p->first[i * SK_LOCAL_KINDS + l] = p->total[l];
            p->total[l] += c;
            nodes += c;
        }
        const sm_step *st = &m->steps[i];
        if (st->type == SM_NONE)
            continue;
        p->events[event_kind(m, st, run)]++;
        nodes++;
        if (st->type == SM_COLL && ++used[st->comm] == m->comms[st->comm].runs[run[st->comm]].repeat) {
            run[st->comm]++;
            used[st->comm] = 0;
        }
    }
    free(run);
    free(used);
    if (nodes > SAMPLE_MAX_RANK_NODES) {
        cli_error(prog, "the model asks for %" PRIu64 " nodes per rank (at most %d)", nodes, SAMPLE_MAX_RANK_NODES);
        return -1;
    }
    uint64_t next = 1;
    for (size_t c = 0; c < m->n_comms; c++) {
        p->group_base[c] = next;
        if (m->comms[c].size)
            next += npus / m->comms[c].size;
    }
    return 0;
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
static int assign_kind(const synth_model *m, const plan *p, int l, double f, sample_rng *rng, uint64_t *out)
{
    uint64_t n = p->total[l];
    uint64_t *v = malloc(n * sizeof *v);
    step_fill_step *steps = malloc(m->n_steps * sizeof *steps);
    int rc = v && steps ? 0 : -1;
    if (rc == 0) {
        dist_stratified(&m->kinds[sk_local_kind(l)].duration, rng, v, n);
        for (uint64_t i = 0; i < n; i++) {
            double x = floor((double)v[i] * f + 0.5); /* f >= 0: still ascending */
            v[i] = x >= (double)SM_MAX_DURATION ? SM_MAX_DURATION : (uint64_t)x;
        }
        for (size_t i = 0; i < m->n_steps; i++)
            steps[i] = (step_fill_step){p->count[i * SK_LOCAL_KINDS + l], m->steps[i].duration[l] * f,
                                        p->first[i * SK_LOCAL_KINDS + l]};
        rc = step_fill(v, n, steps, m->n_steps, out);
    }
    for (size_t i = 0; rc == 0 && i < m->n_steps; i++)
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
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 16;
        join *v = realloc(h->v, cap * sizeof *v);
        if (!v)
            return -1;
        h->v = v;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2].at > j.at) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = j;
    return 0;
}

static join joins_pop(joins *h)
{
    join top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1].at < h->v[c].at)
            c++;
        if (h->v[c].at >= last.at)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

typedef struct rank_gen {
    const synth_model *m;
    const plan *p;
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

static int rank_gen_init(rank_gen *g, const synth_model *m, const plan *p, uint64_t rank, uint64_t npus,
                         uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->p = p;
    g->rank = rank;
    g->npus = npus;
    g->rng = (sample_rng){seed, rank + 1, 0};
    double f = m->ratio[rank % m->ranks];
    uint64_t most = 1;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        const sm_kind *k = &m->kinds[sk_local_kind(l)];
        if (!(g->dur[l] = calloc(p->total[l] + 1, sizeof *g->dur[l])) ||
            (p->total[l] && assign_kind(m, p, l, is_compute(l) ? f : 1.0, &g->rng, g->dur[l]) != 0))
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
    g->event_ids = malloc((m->n_steps + 1) * sizeof *g->event_ids);
    g->b = vet_builder_new();
    return g->run && g->used && g->order && g->event_ids && g->b ? 0 : -1;
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
    return put(g);
}

static void coll_attrs(rank_gen *g, const sm_step *st)
{
    const sm_comm *c = &g->m->comms[st->comm];
    const sm_run *run = &c->runs[g->run[st->comm]];
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
        snprintf(pg, sizeof pg, "%" PRIu64, g->p->group_base[st->comm] + comm_layout_index(g->rank, c->size, c->stride));
        vet_builder_attr_string(g->b, "pg_name", pg);
    }
    if (++g->used[st->comm] == run->repeat) {
        g->run[st->comm]++;
        g->used[st->comm] = 0;
    }
}

static void p2p_attrs(rank_gen *g, const sm_step *st)
{
    int64_t n = (int64_t)g->npus;
    int64_t peer = (((int64_t)g->rank + st->offset) % n + n) % n;
    bool send = st->type == SM_SEND;
    vet_builder_attr_bool(g->b, "is_cpu_op", false);
    vet_builder_attr_int64(g->b, "comm_src", send ? (int64_t)g->rank : peer);
    vet_builder_attr_int64(g->b, "comm_dst", send ? peer : (int64_t)g->rank);
    vet_builder_attr_int64(g->b, "comm_tag", g->p->tag[st - g->m->steps]);
    vet_builder_attr_uint64(g->b, "comm_size", st->size);
}

static int emit_event(rank_gen *g, const sm_step *st)
{
    static const char *const prefix[] = {"", "coll", "send", "recv"};
    static const enum vet_node_type type[] = {VET_INVALID_NODE, VET_COMM_COLL_NODE, VET_COMM_SEND_NODE,
                                              VET_COMM_RECV_NODE};
    char name[48];
    uint64_t id = g->next_id++;
    int kind = event_kind(g->m, st, g->run);
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
    return put(g);
}

static int emit_step(rank_gen *g, size_t i)
{
    uint64_t n = 0;
    for (int l = 0; l < SK_LOCAL_KINDS; l++) {
        uint64_t c = g->p->count[i * SK_LOCAL_KINDS + l], at = g->p->first[i * SK_LOCAL_KINDS + l];
        for (uint64_t j = 0; j < c; j++)
            g->order[n++] = (uint64_t)l << 40 | (at + j);
    }
    /* Kinds mixed in a step: their order in the source is not modelled. */
    if (n > 1 && g->p->count[i * SK_LOCAL_KINDS] != n)
        shuffle_u64(g->order, n, &g->rng);
    for (uint64_t j = 0; j < n; j++)
        if (emit_local(g, (int)(g->order[j] >> 40), g->order[j] & ((UINT64_C(1) << 40) - 1)) != 0)
            return -1;
    return g->m->steps[i].type == SM_NONE ? 0 : emit_event(g, &g->m->steps[i]);
}

static int write_rank(const char *prog, const synth_model *m, const plan *p, uint64_t rank, uint64_t npus,
                      uint64_t seed, const char *path)
{
    rank_gen g;
    if (rank_gen_init(&g, m, p, rank, npus, seed) != 0) {
        rank_gen_free(&g);
        cli_error(prog, "out of memory");
        return -1;
    }
    int rc = -1;
    if ((g.w = vet_writer_open(path, &g.err)) != NULL) {
        vet_builder_reset(g.b, 0, "0.0.4", 0);
        rc = vet_writer_put_metadata(g.w, vet_builder_metadata(g.b), &g.err);
        for (size_t i = 0; rc == 0 && i < m->n_steps; i++)
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

/* PREFIX.groups.json: every group of every sized communicator. */
static int write_groups(const char *prog, const synth_model *m, const plan *p, uint64_t npus, const char *prefix)
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
            sink_printf(s, "%s\n  \"%" PRIu64 "\": [", first ? "" : ",", p->group_base[c] + gi);
            for (uint64_t j = 0; j < k->size; j++)
                sink_printf(s, "%s%" PRIu64, j ? ", " : "", comm_layout_member(gi, j, k->size, k->stride));
            sink_puts(s, "]");
            first = false;
        }
    }
    sink_puts(s, "\n}\n");
    return sink_close(s);
}

int synth_sample_write(const char *prog, const char *model_path, const synth_model *m, uint64_t npus,
                       uint64_t seed, const char *prefix)
{
    plan p;
    if (check_layouts(prog, model_path, m, npus) != 0)
        return -1;
    if (make_plan(prog, m, npus, &p) != 0 || cli_make_parent_dirs(prog, prefix) != 0) {
        plan_free(&p);
        return -1;
    }
    int rc = 0;
    bool grouped = false;
    for (size_t c = 0; c < m->n_comms; c++)
        grouped = grouped || m->comms[c].size;
    if (grouped)
        rc = write_groups(prog, m, &p, npus, prefix);
    size_t len = strlen(prefix) + 32;
    char *path = malloc(len);
    if (!path) {
        cli_error(prog, "out of memory");
        rc = -1;
    }
    for (uint64_t r = 0; rc == 0 && r < npus; r++) {
        snprintf(path, len, "%s.%" PRIu64 ".et", prefix, r);
        rc = write_rank(prog, m, &p, r, npus, seed, path);
    }
    free(path);
    plan_free(&p);
    return rc;
}
