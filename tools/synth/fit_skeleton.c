#include "synth/fit_skeleton.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "synth/fit_model.h"
#include "util/grow.h"

/* One communication node of a rank, in file order. */
typedef struct sk_event {
    uint64_t id, size, dims;
    int64_t pg;            /* group number, -1 for none ("all"), -2 unusable */
    int64_t peer;          /* send: comm_dst, recv: comm_src */
    uint64_t local_before; /* local nodes before it in its file */
    int64_t join;          /* local nodes after it before the first that depends on it; -1 none */
    uint32_t back[SK_MAX_BACK]; /* earlier events it depends on, as index distances */
    uint8_t kind, n_dims, after_local, n_back;
} sk_event;

/* The local nodes of one step, summed over the ranks. */
typedef struct sk_step {
    double count[SK_LOCAL_KINDS];
    double duration[SK_LOCAL_KINDS];
} sk_step;

typedef struct sk_events {
    sk_event *v;
    size_t n, cap;
} sk_events;

struct fit_skeleton {
    const comm_groups *groups; /* --groups */
    comm_groups meta;          /* groups of METADATA nodes (PyTorch process groups) */
    size_t sets;
    bool active; /* the first set is the one learned */
    bool symmetric;
    size_t rank, n_ranks;
    sk_events ev0, ev; /* rank 0's events, the current rank's */
    idmap ids;         /* event node id -> index in ev */
    uint64_t locals;   /* local nodes of the current file so far */
    uint64_t last_local; /* id of the latest local node of the file */
    bool have_local;
    sk_step *steps;
    size_t n_steps, cap_steps;
    double *rank_compute;
    uint64_t *rank_nodes;
};

static const int local_kinds[SK_LOCAL_KINDS] = {FIT_COMP_GPU, FIT_COMP_CPU, FIT_LOAD,
                                                FIT_STORE,    FIT_METADATA, FIT_INVALID};

int sk_local_index(int fit_kind)
{
    for (int i = 0; i < SK_LOCAL_KINDS; i++)
        if (local_kinds[i] == fit_kind)
            return i;
    return -1;
}

int sk_local_kind(int i)
{
    return local_kinds[i];
}

fit_skeleton *fit_skeleton_new(const comm_groups *groups)
{
    fit_skeleton *k = calloc(1, sizeof *k);
    if (k)
        k->groups = groups;
    return k;
}

void fit_skeleton_free(fit_skeleton *k)
{
    if (!k)
        return;
    free(k->ev0.v);
    free(k->ev.v);
    idmap_free(&k->ids);
    free(k->steps);
    free(k->rank_compute);
    free(k->rank_nodes);
    comm_groups_free(&k->meta);
    free(k);
}

/* Makes step `i` exist (zeroed). */
static int need_step(fit_skeleton *k, size_t i)
{
    if (grow_array((void **)&k->steps, &k->cap_steps, i + 1, sizeof *k->steps, 64) != 0)
        return -1;
    while (k->n_steps <= i)
        memset(&k->steps[k->n_steps++], 0, sizeof *k->steps);
    return 0;
}

int fit_skeleton_begin_file(fit_skeleton *k, size_t rank, size_t n_ranks)
{
    if (rank == 0)
        k->sets++;
    k->active = k->sets == 1;
    if (!k->active)
        return 0;
    if (rank == 0) {
        k->n_ranks = n_ranks;
        k->symmetric = true;
        k->rank_compute = calloc(n_ranks, sizeof *k->rank_compute);
        k->rank_nodes = calloc(n_ranks, sizeof *k->rank_nodes);
        if (!k->rank_compute || !k->rank_nodes)
            return -1;
    }
    k->rank = rank;
    k->ev.n = 0;
    k->locals = 0;
    k->have_local = false;
    idmap_free(&k->ids);
    memset(&k->ids, 0, sizeof k->ids);
    return need_step(k, 0);
}

/* The event's direct dependencies the sampler replays: the latest local
 * node, and up to SK_MAX_BACK earlier events (as distances in events). */
static void event_deps(const fit_skeleton *k, const vet_node *n, sk_event *e)
{
    for (size_t i = 0; i < n->n_data_deps + n->n_ctrl_deps; i++) {
        uint64_t dep = i < n->n_data_deps ? n->data_deps[i] : n->ctrl_deps[i - n->n_data_deps];
        uint32_t at;
        if (k->have_local && dep == k->last_local)
            e->after_local = 1;
        else if (idmap_get(&k->ids, dep, &at) && e->n_back < SK_MAX_BACK) {
            uint32_t d = (uint32_t)(k->ev.n - at);
            bool seen = false;
            for (size_t j = 0; j < e->n_back; j++)
                seen = seen || e->back[j] == d;
            if (!seen)
                e->back[e->n_back++] = d;
        }
    }
}

/* Sets the join of every event this local node is the first to depend on. */
static void mark_joins(fit_skeleton *k, const uint64_t *deps, size_t n)
{
    uint32_t e;
    for (size_t i = 0; i < n; i++)
        if (idmap_get(&k->ids, deps[i], &e) && k->ev.v[e].join < 0)
            k->ev.v[e].join = (int64_t)(k->locals - k->ev.v[e].local_before);
}

static int add_local(fit_skeleton *k, const vet_node *n, int local)
{
    sk_step *st = &k->steps[k->ev.n];
    st->count[local] += 1;
    st->duration[local] += (double)n->duration_micros;
    if (local <= 1) /* comp_gpu, comp_cpu */
        k->rank_compute[k->rank] += (double)n->duration_micros;
    mark_joins(k, n->data_deps, n->n_data_deps);
    mark_joins(k, n->ctrl_deps, n->n_ctrl_deps);
    k->locals++;
    return 0;
}

/* The group number of pg_name: -1 for none (the whole system), -2 for a
 * name the simulator cannot use. */
static int64_t pg_number(const vet_node *n)
{
    const char *pg;
    if (vet_node_string(n, "pg_name", "", &pg) != VET_ATTR_OK || pg[0] == '\0' || strcmp(pg, "0") == 0)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(pg, &end, 10);
    return *end || errno || v < 0 ? -2 : v;
}

static void read_event(const fit_skeleton *k, const vet_node *n, int kind, sk_event *e)
{
    int64_t v;
    memset(e, 0, sizeof *e);
    e->id = n->id;
    e->kind = (uint8_t)kind;
    e->join = -1;
    e->local_before = k->locals;
    event_deps(k, n, e);
    vet_node_uint64(n, "comm_size", 0, &e->size);
    e->pg = pg_number(n);
    if (vet_node_int64(n, kind == FIT_SEND ? "comm_dst" : "comm_src", (int64_t)k->rank, &v) != VET_ATTR_OK)
        v = (int64_t)k->rank;
    e->peer = v;
    const vet_attr *a = vet_node_attr(n, "involved_dim");
    if (a && a->kind == VET_BOOL_LIST) {
        const int *items = a->v.list.items;
        e->n_dims = (uint8_t)(a->v.list.n < 64 ? a->v.list.n : 64);
        for (size_t i = 0; i < e->n_dims; i++)
            if (items[i])
                e->dims |= 1ull << i;
    }
}

static int add_event(fit_skeleton *k, const vet_node *n, int kind)
{
    if (grow_array((void **)&k->ev.v, &k->ev.cap, k->ev.n + 1, sizeof *k->ev.v, 64) != 0 || k->ev.n >= UINT32_MAX)
        return -1;
    read_event(k, n, kind, &k->ev.v[k->ev.n]);
    /* Registered after reading, so a self-dependency is not an earlier event. */
    if (idmap_set(&k->ids, n->id, (uint32_t)k->ev.n) != 0)
        return -1;
    k->ev.n++;
    return need_step(k, k->ev.n);
}

int fit_skeleton_add(fit_skeleton *k, const vet_node *n, int fit_kind)
{
    if (!k->active)
        return 0;
    k->rank_nodes[k->rank]++;
    if (fit_kind == FIT_METADATA && n->inputs && n->inputs->values &&
        comm_groups_add_pytorch(&k->meta, n->inputs->values) != 0)
        return -1;
    int local = sk_local_index(fit_kind);
    int rc = local >= 0 ? add_local(k, n, local) : add_event(k, n, fit_kind);
    if (local >= 0) {
        k->last_local = n->id;
        k->have_local = true;
    }
    return rc;
}

/* Communicator identity: the whole system, a regular layout (size,
 * stride), or one group number (irregular or of unknown members). */
typedef struct sk_class {
    int type; /* 0 all, 1 layout, 2 group number */
    uint64_t size, stride;
    int64_t pg;
} sk_class;

static sk_class class_of(const fit_skeleton *k, int64_t pg)
{
    sk_class c = {0, 0, 0, pg};
    if (pg == -1)
        return c;
    const comm_group *g = k->groups ? comm_groups_find(k->groups, pg) : NULL;
    if (!g)
        g = comm_groups_find(&k->meta, pg);
    c.type = g && g->stride ? 1 : 2;
    c.size = g ? g->size : 0;
    c.stride = g ? g->stride : 0;
    return c;
}

static bool same_class(sk_class a, sk_class b)
{
    if (a.type != b.type)
        return false;
    return a.type == 0 || (a.type == 1 ? a.size == b.size && a.stride == b.stride : a.pg == b.pg);
}

/* The peer as an offset from the rank, in (-n/2, n/2]. */
static int64_t peer_offset(int64_t peer, size_t rank, size_t n)
{
    int64_t d = ((peer - (int64_t)rank) % (int64_t)n + (int64_t)n) % (int64_t)n;
    return d > (int64_t)n / 2 ? d - (int64_t)n : d;
}

static bool same_event(const fit_skeleton *k, const sk_event *a, const sk_event *b)
{
    if (a->kind != b->kind || a->size != b->size || a->dims != b->dims || a->n_dims != b->n_dims)
        return false;
    if (a->kind == FIT_SEND || a->kind == FIT_RECV)
        return peer_offset(a->peer, 0, k->n_ranks) == peer_offset(b->peer, k->rank, k->n_ranks);
    return same_class(class_of(k, a->pg), class_of(k, b->pg));
}

int fit_skeleton_end_file(fit_skeleton *k)
{
    if (!k->active)
        return 0;
    if (k->rank == 0) {
        sk_events t = k->ev0;
        k->ev0 = k->ev;
        k->ev = t;
        return 0;
    }
    if (k->ev.n != k->ev0.n)
        k->symmetric = false;
    for (size_t i = 0; k->symmetric && i < k->ev.n; i++)
        if (!same_event(k, &k->ev0.v[i], &k->ev.v[i]))
            k->symmetric = false;
    return 0;
}

/* ---- writing ------------------------------------------------------------ */

/* A number with at most 3 decimals, trailing zeros dropped. */
static void put_num(sink *s, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.3f", v);
    char *end = buf + strlen(buf);
    while (end[-1] == '0')
        *--end = '\0';
    if (end[-1] == '.')
        end[-1] = '\0';
    sink_puts(s, buf);
}

static void write_ratios(sink *s, const char *key, const double *v, size_t n)
{
    double mean = 0;
    for (size_t r = 0; r < n; r++)
        mean += v[r] / (double)n;
    sink_printf(s, ",\n  \"%s\": [", key);
    for (size_t r = 0; r < n; r++)
        sink_printf(s, "%s%.4f", r ? ", " : "", mean > 0 ? v[r] / mean : 1.0);
    sink_puts(s, "]");
}

static const char *coll_name(int kind)
{
    return fit_kind_name((enum fit_kind)kind) + 5; /* without "coll_" */
}

/* The communicators of rank 0's collectives, in order of first use;
 * class_ix[i] is event i's communicator. Returns the count. */
static size_t find_classes(const fit_skeleton *k, sk_class *cls, size_t *class_ix)
{
    size_t n = 0;
    for (size_t i = 0; i < k->ev0.n; i++) {
        const sk_event *e = &k->ev0.v[i];
        if (e->kind == FIT_SEND || e->kind == FIT_RECV)
            continue;
        sk_class c = class_of(k, e->pg);
        size_t j = 0;
        while (j < n && !same_class(cls[j], c))
            j++;
        if (j == n)
            cls[n++] = c;
        class_ix[i] = j;
    }
    return n;
}

static void write_dims(sink *s, const sk_event *e)
{
    if (!e->n_dims)
        return;
    sink_puts(s, ", [");
    for (size_t d = 0; d < e->n_dims; d++)
        sink_printf(s, "%s%d", d ? ", " : "", (int)(e->dims >> d & 1));
    sink_puts(s, "]");
}

/* One communicator: its layout and the run-length compressed sequence of
 * [kind, size, repeat(, involved_dim)]. */
static void write_class(const fit_skeleton *k, sink *s, sk_class c, size_t ix, const size_t *class_ix)
{
    if (c.type == 0)
        sink_puts(s, "{\"size\": \"all\"");
    else if (c.type == 1)
        sink_printf(s, "{\"size\": %" PRIu64 ", \"stride\": %" PRIu64, c.size, c.stride);
    else if (c.size)
        sink_printf(s, "{\"size\": %" PRIu64 ", \"stride\": null", c.size);
    else
        sink_puts(s, "{\"size\": null");
    sink_puts(s, ",\n     \"sequence\": [");
    const sk_event *run = NULL;
    uint64_t repeat = 0;
    bool first = true;
    for (size_t i = 0; i <= k->ev0.n; i++) {
        const sk_event *e = i < k->ev0.n ? &k->ev0.v[i] : NULL;
        if (e && (e->kind == FIT_SEND || e->kind == FIT_RECV || class_ix[i] != ix))
            continue;
        if (e && run && e->kind == run->kind && e->size == run->size && e->dims == run->dims &&
            e->n_dims == run->n_dims) {
            repeat++;
            continue;
        }
        if (run) {
            sink_printf(s, "%s[\"%s\", %" PRIu64 ", %" PRIu64, first ? "" : ", ", coll_name(run->kind), run->size,
                        repeat);
            write_dims(s, run);
            sink_puts(s, "]");
            first = false;
        }
        run = e;
        repeat = 1;
    }
    sink_puts(s, "]}");
}

/* ", join, after_local, [distances]]" of an event. */
static void write_deps(sink *s, const sk_event *e)
{
    sink_printf(s, ", %" PRId64 ", %d, [", e->join, (int)e->after_local);
    for (size_t j = 0; j < e->n_back; j++)
        sink_printf(s, "%s%u", j ? ", " : "", (unsigned)e->back[j]);
    sink_puts(s, "]]");
}

static void write_step(const fit_skeleton *k, sink *s, size_t i, const size_t *class_ix)
{
    const sk_step *st = &k->steps[i];
    sink_puts(s, "    {\"local\": [");
    bool first = true;
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        if (st->count[l] > 0) {
            sink_printf(s, "%s[\"%s\", ", first ? "" : ", ", fit_kind_name((enum fit_kind)local_kinds[l]));
            put_num(s, st->count[l] / (double)k->n_ranks);
            sink_puts(s, ", ");
            put_num(s, st->duration[l] / (double)k->n_ranks);
            sink_puts(s, "]");
            first = false;
        }
    sink_puts(s, "]");
    if (i < k->ev0.n) {
        const sk_event *e = &k->ev0.v[i];
        if (e->kind == FIT_SEND || e->kind == FIT_RECV)
            sink_printf(s, ", \"event\": [\"%s\", %" PRId64 ", %" PRIu64, e->kind == FIT_SEND ? "send" : "recv",
                        peer_offset(e->peer, 0, k->n_ranks), e->size);
        else
            sink_printf(s, ", \"event\": [\"coll\", %zu", class_ix[i]);
        write_deps(s, e);
    }
    sink_puts(s, "}");
}

int fit_skeleton_write(const fit_skeleton *k, sink *s)
{
    size_t n_ev = k->ev0.n;
    sk_class *cls = calloc(n_ev + 1, sizeof *cls);
    size_t *class_ix = calloc(n_ev + 1, sizeof *class_ix);
    double *nodes = calloc(k->n_ranks + 1, sizeof *nodes);
    if (!cls || !class_ix || !nodes) {
        free(cls);
        free(class_ix);
        free(nodes);
        return -1;
    }
    sink_printf(s, ",\n  \"ranks\": %zu", k->n_ranks);
    for (size_t r = 0; r < k->n_ranks; r++)
        nodes[r] = (double)k->rank_nodes[r];
    write_ratios(s, "rank_compute_ratio", k->rank_compute, k->n_ranks);
    write_ratios(s, "rank_nodes_ratio", nodes, k->n_ranks);
    sink_printf(s, ",\n  \"symmetric\": %s", k->symmetric ? "true" : "false");
    size_t n_cls = find_classes(k, cls, class_ix);
    sink_puts(s, ",\n  \"communicators\": [");
    for (size_t c = 0; c < n_cls; c++) {
        sink_puts(s, c ? ",\n    " : "\n    ");
        write_class(k, s, cls[c], c, class_ix);
    }
    sink_puts(s, n_cls ? "\n  ],\n  \"steps\": [\n" : "],\n  \"steps\": [\n");
    for (size_t i = 0; i <= n_ev && i < k->n_steps; i++) {
        write_step(k, s, i, class_ix);
        sink_puts(s, i < n_ev ? ",\n" : "\n");
    }
    sink_puts(s, "  ]");
    free(cls);
    free(class_ix);
    free(nodes);
    return 0;
}
