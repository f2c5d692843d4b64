#include "synth/fit_skeleton.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "synth/dist.h"
#include "synth/fit_model.h"
#include "synth/jitter.h"
#include "util/grow.h"

/* One communication node of a rank, in file order. */
typedef struct sk_event {
    uint64_t id, size, dims;
    int64_t pg;            /* group number, -1 for none ("all"), -2 unusable */
    int64_t peer;          /* send: comm_dst, recv: comm_src */
    uint64_t local_before; /* local nodes before it in its file */
    int64_t join;          /* local nodes after it before the first that depends on it; -1 none */
    uint32_t back[SK_MAX_BACK]; /* earlier events it depends on, as index distances */
    uint32_t comm;              /* its communicator in the model (set when written) */
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

/* Ranks that issue the same events (kinds, sizes, communicator layouts,
 * peer offsets) play one role; its steps are summed over its ranks. */

typedef struct sk_role {
    dist_values duration[SK_LOCAL_KINDS]; /* of its local nodes, all its ranks */
    sk_events ev; /* the events of its first rank */
    size_t first_rank;
    uint64_t hash;
    sk_step *steps; /* ev.n + 1 */
    size_t *ranks, n_ranks, cap_ranks;
} sk_role;

struct fit_skeleton {
    const comm_groups *groups; /* --groups */
    comm_groups meta;          /* groups of METADATA nodes (PyTorch process groups) */
    size_t sets;
    bool active; /* the first set is the one learned */
    size_t rank, n_ranks;
    int64_t peer_shift;  /* added to the current file's peers */
    sk_events ev;        /* the current rank's events */
    idmap ids;           /* event node id -> index in ev */
    uint64_t locals;     /* local nodes of the current file so far */
    uint64_t last_local; /* id of the latest local node of the file */
    bool have_local;
    sk_step *steps; /* the current file's steps */
    dist_values duration[SK_LOCAL_KINDS]; /* the current file's local durations */
    size_t n_steps, cap_steps;
    sk_role *roles;
    size_t n_roles, cap_roles;
    idmap role_of_hash;
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
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        free(k->duration[l].v);
    for (size_t r = 0; r < k->n_roles; r++) {
        for (int l = 0; l < SK_LOCAL_KINDS; l++)
            free(k->roles[r].duration[l].v);
        free(k->roles[r].ev.v);
        free(k->roles[r].steps);
        free(k->roles[r].ranks);
    }
    free(k->roles);
    idmap_free(&k->role_of_hash);
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

int fit_skeleton_begin_file(fit_skeleton *k, size_t rank, size_t n_ranks, int64_t peer_shift)
{
    k->peer_shift = peer_shift;
    if (rank == 0)
        k->sets++;
    k->active = k->sets == 1;
    if (!k->active)
        return 0;
    if (rank == 0) {
        k->n_ranks = n_ranks;
        k->rank_compute = calloc(n_ranks, sizeof *k->rank_compute);
        k->rank_nodes = calloc(n_ranks, sizeof *k->rank_nodes);
        if (!k->rank_compute || !k->rank_nodes)
            return -1;
    }
    k->rank = rank;
    k->ev.n = 0;
    k->locals = 0;
    k->have_local = false;
    k->n_steps = 0;
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        k->duration[l].n = 0;
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
    return dist_values_push(&k->duration[local], n->duration_micros);
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
    if (vet_node_int64(n, kind == FIT_SEND ? "comm_dst" : "comm_src", INT64_MIN, &v) != VET_ATTR_OK ||
        v == INT64_MIN)
        v = (int64_t)k->rank;   /* absent or unusable: the rank itself */
    else if (v >= 0 && v <= INT32_MAX)
        v += k->peer_shift;   /* a rank: relabelled (a shift is below 2^32 in size) */
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

/* Whether event a of rank ra and event b of rank rb are the same event. */
static bool same_event(const fit_skeleton *k, const sk_event *a, size_t ra, const sk_event *b, size_t rb)
{
    if (a->kind != b->kind || a->size != b->size || a->dims != b->dims || a->n_dims != b->n_dims)
        return false;
    if (a->kind == FIT_SEND || a->kind == FIT_RECV)
        return peer_offset(a->peer, ra, k->n_ranks) == peer_offset(b->peer, rb, k->n_ranks);
    return same_class(class_of(k, a->pg), class_of(k, b->pg));
}

static bool same_events(const fit_skeleton *k, const sk_role *role, const sk_events *ev, size_t rank)
{
    if (role->ev.n != ev->n)
        return false;
    for (size_t i = 0; i < ev->n; i++)
        if (!same_event(k, &role->ev.v[i], role->first_rank, &ev->v[i], rank))
            return false;
    return true;
}

/* A hash of what same_events compares. */
static uint64_t events_hash(const fit_skeleton *k, const sk_events *ev, size_t rank)
{
    uint64_t h = jitter_mix(ev->n);
    for (size_t i = 0; i < ev->n; i++) {
        const sk_event *e = &ev->v[i];
        h = jitter_mix(h ^ e->kind);
        h = jitter_mix(h ^ e->size);
        h = jitter_mix(h ^ e->dims ^ (uint64_t)e->n_dims << 56);
        if (e->kind == FIT_SEND || e->kind == FIT_RECV) {
            h = jitter_mix(h ^ (uint64_t)peer_offset(e->peer, rank, k->n_ranks));
        } else {
            sk_class c = class_of(k, e->pg);
            h = jitter_mix(h ^ (uint64_t)c.type);
            h = jitter_mix(h ^ (c.type == 1 ? c.size * 0x100000001b3ull + c.stride : c.type == 2 ? (uint64_t)c.pg : 0));
        }
    }
    return h;
}

/* The role of the current rank: the one whose events match, or a new one. */
static sk_role *role_for(fit_skeleton *k, uint64_t h)
{
    uint32_t at;
    if (idmap_get(&k->role_of_hash, h, &at) && same_events(k, &k->roles[at], &k->ev, k->rank))
        return &k->roles[at];
    for (size_t r = 0; r < k->n_roles; r++) /* a hash collision: rare */
        if (k->roles[r].hash == h && same_events(k, &k->roles[r], &k->ev, k->rank))
            return &k->roles[r];
    if (grow_array((void **)&k->roles, &k->cap_roles, k->n_roles + 1, sizeof *k->roles, 4) != 0 ||
        k->n_roles >= UINT32_MAX)
        return NULL;
    sk_role *role = &k->roles[k->n_roles];
    memset(role, 0, sizeof *role);
    if (!(role->steps = calloc(k->ev.n + 1, sizeof *role->steps)))
        return NULL;
    if (!idmap_get(&k->role_of_hash, h, &at) && idmap_set(&k->role_of_hash, h, (uint32_t)k->n_roles) != 0) {
        free(role->steps);
        return NULL;
    }
    role->hash = h;
    role->first_rank = k->rank;
    role->ev = k->ev; /* the role keeps the events; the next file starts a new list */
    memset(&k->ev, 0, sizeof k->ev);
    k->n_roles++;
    return role;
}

int fit_skeleton_end_file(fit_skeleton *k)
{
    if (!k->active)
        return 0;
    size_t n_ev = k->ev.n;
    sk_role *role = role_for(k, events_hash(k, &k->ev, k->rank));
    if (!role || grow_array((void **)&role->ranks, &role->cap_ranks, role->n_ranks + 1, sizeof *role->ranks, 8) != 0)
        return -1;
    role->ranks[role->n_ranks++] = k->rank;
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        for (size_t i = 0; i < k->duration[l].n; i++)
            if (dist_values_push(&role->duration[l], k->duration[l].v[i]) != 0)
                return -1;
    for (size_t i = 0; i <= n_ev; i++)
        for (int l = 0; l < SK_LOCAL_KINDS; l++) {
            role->steps[i].count[l] += k->steps[i].count[l];
            role->steps[i].duration[l] += k->steps[i].duration[l];
        }
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

/* Per rank, v[rank] over the mean of v over the ranks of its role (1 when
 * that mean is 0): how much a rank differs from the ranks that do the same
 * work. */
static void write_ratios(const fit_skeleton *k, sink *s, const char *key, const double *v)
{
    double *mean = calloc(k->n_ranks + 1, sizeof *mean);
    if (mean)
        for (size_t r = 0; r < k->n_roles; r++) {
            const sk_role *role = &k->roles[r];
            double sum = 0;
            for (size_t i = 0; i < role->n_ranks; i++)
                sum += v[role->ranks[i]];
            for (size_t i = 0; i < role->n_ranks; i++)
                mean[role->ranks[i]] = sum / (double)role->n_ranks;
        }
    sink_printf(s, ",\n  \"%s\": [", key);
    for (size_t r = 0; r < k->n_ranks; r++)
        sink_printf(s, "%s%.4f", r ? ", " : "", mean && mean[r] > 0 ? v[r] / mean[r] : 1.0);
    sink_puts(s, "]");
    free(mean);
}

static const char *coll_name(int kind)
{
    return fit_kind_name((enum fit_kind)kind) + 5; /* without "coll_" */
}

/* The communicators of all roles' collectives, in order of first use;
 * sets every collective's `comm`. Returns the count. */
static size_t find_classes(fit_skeleton *k, sk_class *cls, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < k->n_roles; r++)
        for (size_t i = 0; i < k->roles[r].ev.n; i++) {
            sk_event *e = &k->roles[r].ev.v[i];
            if (e->kind == FIT_SEND || e->kind == FIT_RECV)
                continue;
            sk_class c = class_of(k, e->pg);
            size_t j = 0;
            while (j < n && !same_class(cls[j], c))
                j++;
            if (j == n && n < max)
                cls[n++] = c;
            e->comm = (uint32_t)j;
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

static void write_class(sink *s, sk_class c)
{
    if (c.type == 0)
        sink_puts(s, "{\"size\": \"all\"}");
    else if (c.type == 1)
        sink_printf(s, "{\"size\": %" PRIu64 ", \"stride\": %" PRIu64 "}", c.size, c.stride);
    else if (c.size)
        sink_printf(s, "{\"size\": %" PRIu64 ", \"stride\": null}", c.size);
    else
        sink_puts(s, "{\"size\": null}");
}

/* A role's collectives on communicator c, run-length compressed:
 * [kind, size, repeat(, involved_dim)]. */
static void write_sequence(sink *s, const sk_role *role, uint32_t c)
{
    const sk_event *run = NULL;
    uint64_t repeat = 0;
    bool first = true;
    sink_puts(s, "[");
    for (size_t i = 0; i <= role->ev.n; i++) {
        const sk_event *e = i < role->ev.n ? &role->ev.v[i] : NULL;
        if (e && (e->kind == FIT_SEND || e->kind == FIT_RECV || e->comm != c))
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
    sink_puts(s, "]");
}

/* ", join, after_local, [distances]]" of an event. */
static void write_deps(sink *s, const sk_event *e)
{
    sink_printf(s, ", %" PRId64 ", %d, [", e->join, (int)e->after_local);
    for (size_t j = 0; j < e->n_back; j++)
        sink_printf(s, "%s%u", j ? ", " : "", (unsigned)e->back[j]);
    sink_puts(s, "]]");
}

static void write_step(const fit_skeleton *k, sink *s, const sk_role *role, size_t i)
{
    const sk_step *st = &role->steps[i];
    sink_puts(s, "      {\"local\": [");
    bool first = true;
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        if (st->count[l] > 0) {
            sink_printf(s, "%s[\"%s\", ", first ? "" : ", ", fit_kind_name((enum fit_kind)local_kinds[l]));
            put_num(s, st->count[l] / (double)role->n_ranks);
            sink_puts(s, ", ");
            put_num(s, st->duration[l] / (double)role->n_ranks);
            sink_puts(s, "]");
            first = false;
        }
    sink_puts(s, "]");
    if (i < role->ev.n) {
        const sk_event *e = &role->ev.v[i];
        if (e->kind == FIT_SEND || e->kind == FIT_RECV)
            sink_printf(s, ", \"event\": [\"%s\", %" PRId64 ", %" PRIu64, e->kind == FIT_SEND ? "send" : "recv",
                        peer_offset(e->peer, role->first_rank, k->n_ranks), e->size);
        else
            sink_printf(s, ", \"event\": [\"coll\", %u", (unsigned)e->comm);
        write_deps(s, e);
    }
    sink_puts(s, "}");
}

static void write_role(const fit_skeleton *k, sink *s, sk_role *role, size_t n_cls)
{
    sink_puts(s, "    {\"ranks\": [");
    for (size_t r = 0; r < role->n_ranks; r++)
        sink_printf(s, "%s%zu", r ? ", " : "", role->ranks[r]);
    sink_puts(s, "],\n     \"durations\": {");
    bool first = true;
    for (int l = 0; l < SK_LOCAL_KINDS; l++)
        if (role->duration[l].n) {
            sink_printf(s, "%s\"%s\": ", first ? "" : ",\n       ", fit_kind_name((enum fit_kind)local_kinds[l]));
            fit_write_dist(s, role->duration[l].v, role->duration[l].n);
            first = false;
        }
    sink_puts(s, "},\n     \"sequences\": [");
    for (size_t c = 0; c < n_cls; c++) {
        sink_puts(s, c ? ",\n       " : "\n       ");
        write_sequence(s, role, (uint32_t)c);
    }
    sink_puts(s, n_cls ? "\n     ],\n     \"steps\": [\n" : "],\n     \"steps\": [\n");
    for (size_t i = 0; i <= role->ev.n; i++) {
        write_step(k, s, role, i);
        sink_puts(s, i < role->ev.n ? ",\n" : "\n");
    }
    sink_puts(s, "     ]}");
}

int fit_skeleton_write(fit_skeleton *k, sink *s)
{
    size_t max = 1;
    for (size_t r = 0; r < k->n_roles; r++)
        max += k->roles[r].ev.n;
    sk_class *cls = calloc(max, sizeof *cls);
    double *nodes = calloc(k->n_ranks + 1, sizeof *nodes);
    if (!cls || !nodes) {
        free(cls);
        free(nodes);
        return -1;
    }
    sink_printf(s, ",\n  \"ranks\": %zu", k->n_ranks);
    for (size_t r = 0; r < k->n_ranks; r++)
        nodes[r] = (double)k->rank_nodes[r];
    write_ratios(k, s, "rank_compute_ratio", k->rank_compute);
    write_ratios(k, s, "rank_nodes_ratio", nodes);
    size_t n_cls = find_classes(k, cls, max);
    sink_puts(s, ",\n  \"communicators\": [");
    for (size_t c = 0; c < n_cls; c++) {
        sink_puts(s, c ? ", " : "");
        write_class(s, cls[c]);
    }
    sink_puts(s, "],\n  \"roles\": [\n");
    for (size_t r = 0; r < k->n_roles; r++) {
        write_role(k, s, &k->roles[r], n_cls);
        sink_puts(s, r + 1 < k->n_roles ? ",\n" : "\n");
    }
    sink_puts(s, "  ]");
    free(cls);
    free(nodes);
    return 0;
}
