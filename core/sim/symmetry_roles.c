/* The reduced simulation over roles (see the header). */
#include "sim/symmetry_roles.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "system/algorithms/algorithm.h"
#include "util/msg_escape.h"
#include "vimana/et.h"
#include "vimana/network_yaml.h"
#include "workload/families.h"

#define NONE UINT32_MAX

/* How a relabelling moves one dimension's coordinates. */
enum dim_move { MOVE_IDENTITY, MOVE_ROTATION, MOVE_XOR, MOVE_OTHER };

#define SUMMARY_NODES 64
#define SUMMARY_TRACES 64

typedef struct trace_summary {
    const wl_trace *t;
    uint32_t n;                    /* UINT32_MAX: too many questions, every node is asked */
    uint32_t node[SUMMARY_NODES];
} trace_summary;

typedef struct group_key {
    int64_t id;
    uint32_t g;
} group_key;

/* What the candidates are checked against, built once. */
typedef struct roles_ctx {
    const sim *s;
    const wl_run *r;
    vimana_net_config net;
    uint32_t n;                    /* NPUs */
    const comm_group_def *groups;
    uint32_t n_groups;
    uint32_t *npu_groups_start;    /* [n + 1]: the groups each NPU is in (indices) */
    uint32_t *npu_groups;
    uint32_t *member_pos;          /* [npu_groups entries]: the NPU's place in that group */
    struct group_key *by_id;       /* [n_groups]: sorted by JSON id */
    /* per candidate */
    const uint32_t *perm;
    enum dim_move move[SIM_MAX_DIMS];
    uint32_t *img, *shift;         /* [n_groups]: the group g maps each onto (NONE: none), and the rotation */
    char *why;
    size_t why_len;
    char what_failed[400];         /* the first candidate's failure */
    trace_summary sums[SUMMARY_TRACES];
    uint32_t n_sums;
} roles_ctx;

static bool refuse(roles_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(roles_ctx *c, const char *fmt, ...)
{
    if (c->why[0])
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->why_len, fmt, ap);
    va_end(ap);
    return false;
}

static uint32_t coord(const roles_ctx *c, uint32_t npu, uint32_t d)
{
    return vimana_net_coord(&c->net, npu, d);
}

/* ---- groups ---------------------------------------------------------- */

static int by_id_cmp(const void *a, const void *b);

static int index_groups(roles_ctx *c)
{
    uint32_t n = c->n, total = 0;
    c->npu_groups_start = calloc((size_t)n + 1, sizeof *c->npu_groups_start);
    if (!c->npu_groups_start)
        return -1;
    for (uint32_t g = 0; g < c->n_groups; g++)
        for (uint32_t i = 0; i < c->groups[g].n_npus; i++)
            c->npu_groups_start[c->groups[g].npus[i] + 1]++, total++;
    for (uint32_t x = 0; x < n; x++)
        c->npu_groups_start[x + 1] += c->npu_groups_start[x];
    c->npu_groups = malloc(((size_t)total + 1) * sizeof *c->npu_groups);
    c->member_pos = malloc(((size_t)total + 1) * sizeof *c->member_pos);
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    c->by_id = malloc(((size_t)c->n_groups + 1) * sizeof *c->by_id);
    c->img = malloc(((size_t)c->n_groups + 1) * sizeof *c->img);
    c->shift = malloc(((size_t)c->n_groups + 1) * sizeof *c->shift);
    if (!c->npu_groups || !c->member_pos || !fill || !c->by_id || !c->img || !c->shift) {
        free(fill);
        return -1;
    }
    for (uint32_t g = 0; g < c->n_groups; g++)
        for (uint32_t i = 0; i < c->groups[g].n_npus; i++) {
            uint32_t x = c->groups[g].npus[i], k = c->npu_groups_start[x] + fill[x]++;
            c->npu_groups[k] = g;
            c->member_pos[k] = i;
        }
    free(fill);
    for (uint32_t g = 0; g < c->n_groups; g++)
        c->by_id[g] = (group_key){c->groups[g].id, g};
    qsort(c->by_id, c->n_groups, sizeof *c->by_id, by_id_cmp);
    return 0;
}

/* The group index of JSON id `id`, or NONE. */
static uint32_t group_index(const roles_ctx *c, int64_t id)
{
    uint32_t lo = 0, hi = c->n_groups;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t at = c->by_id[mid].id;
        if (at == id)
            return c->by_id[mid].g;
        if (at < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NONE;
}

static int by_id_cmp(const void *a, const void *b)
{
    int64_t x = ((const group_key *)a)->id, y = ((const group_key *)b)->id;
    return (x > y) - (x < y);
}

static bool group_is_everyone(const roles_ctx *c, uint32_t g)
{
    return g != NONE && c->groups[g].n_npus == c->n;
}

/* Where perm sends group g: the group of g's size that holds the image of
 * g's first member with every other member's image in ring order after it
 * (img NONE when there is none). */
static void map_group(roles_ctx *c, uint32_t g)
{
    const comm_group_def *G = &c->groups[g];
    uint32_t first = c->perm[G->npus[0]];
    c->img[g] = NONE;
    for (uint32_t k = c->npu_groups_start[first]; k < c->npu_groups_start[first + 1]; k++) {
        const comm_group_def *H = &c->groups[c->npu_groups[k]];
        if (H->n_npus != G->n_npus)
            continue;
        uint32_t at = c->member_pos[k], i = 1;
        while (i < G->n_npus && c->perm[G->npus[i]] == H->npus[(at + i) % H->n_npus])
            i++;
        if (i == G->n_npus) {
            c->img[g] = c->npu_groups[k];
            c->shift[g] = at;
            return;
        }
    }
}

/* ---- the network ----------------------------------------------------- */

/* perm moves each dimension's coordinate by a map of that coordinate
 * alone, an isometry on a Ring; c->move[d] says which kind. */
static bool network_kept(roles_ctx *c, uint32_t *map)
{
    for (uint32_t d = 0; d < c->net.n_dims; d++) {
        uint32_t k = c->net.dims[d].npus;
        for (uint32_t v = 0; v < k; v++)
            map[v] = NONE;
        for (uint32_t x = 0; x < c->n; x++) {
            uint32_t from = coord(c, x, d), to = coord(c, c->perm[x], d);
            if (map[from] == NONE)
                map[from] = to;
            else if (map[from] != to)
                return refuse(c, "it moves dimension %u's coordinates by the other dimensions' (NPU %u to %u)", d, x,
                              c->perm[x]);
        }
        bool identity = true, rotation = true, reflection = true, xor = true;
        for (uint32_t v = 0; v < k; v++) {
            identity &= map[v] == v;
            rotation &= map[v] == (map[0] + v) % k;
            reflection &= map[v] == (map[0] + k - v) % k;
            xor &= (map[v] ^ map[0]) == v;
        }
        c->move[d] = identity ? MOVE_IDENTITY : rotation ? MOVE_ROTATION : xor ? MOVE_XOR : MOVE_OTHER;
        if (c->net.dims[d].topology == VIMANA_NET_RING && !rotation && !reflection)
            return refuse(c, "it does not keep the hop counts of Ring dimension %u (a Switch or FullyConnected "
                             "dimension, or a rotation of the Ring, would)", d);
    }
    return true;
}

/* ---- the traces ------------------------------------------------------ */

/* A collective on the dimensions: each dimension's algorithm must be
 * invariant under the way perm moves it. */
static bool dims_collective_kept(roles_ctx *c, enum coll_kind k, const wl_node *n)
{
    const sim *s = c->s;
    /* a one* variant runs one ring over every dimension: nothing may move */
    bool one = s->cfg.n_impl[k] > 0 && s->cfg.impl[k][0].one;
    for (uint32_t d = 0; d < s->n_dims && (one || d < s->cfg.n_impl[k]); d++) {
        if (s->dim_size[d] < 2 || c->move[d] == MOVE_IDENTITY)
            continue;
        const algo_spec *spec = &s->cfg.impl[k][one ? 0 : d];
        const algorithm *a = algo_registry_get(&s->algorithms, spec->id);
        enum algo_symmetry sym = a && !spec->one ? a->symmetry : ALGO_ASYMMETRIC;
        if (sym == ALGO_XOR_POWER_OF_TWO && (s->dim_size[d] & (s->dim_size[d] - 1)) != 0)
            sym = ALGO_ASYMMETRIC;
        if ((sym == ALGO_ROTATION && c->move[d] == MOVE_ROTATION) || (sym == ALGO_XOR_POWER_OF_TWO &&
                                                                       c->move[d] == MOVE_XOR))
            continue;
        char spelled[64];
        algo_registry_spec_name(&s->algorithms, spec, spelled, sizeof spelled);
        return refuse(c, "node %llu runs %s on dimension %u, whose schedule it does not keep",
                      (unsigned long long)n->id, spelled, d);
    }
    return true;
}

/* A collective on group ga of NPU x, gb of NPU perm(x) (as each names it:
 * a compact workload's ranks name their role's groups relabelled). */
static bool group_collective_kept(roles_ctx *c, enum coll_kind k, const wl_node *a, const wl_node *b, uint32_t x)
{
    int64_t pa = workload_group(c->r, x, a->pg), pb = workload_group(c->r, c->perm[x], b->pg);
    uint32_t ga = group_index(c, pa), gb = group_index(c, pb);
    if (ga == NONE || gb == NONE)
        return refuse(c, "node %llu names a communicator group not in the configuration", (unsigned long long)a->id);
    if (group_is_everyone(c, ga) || group_is_everyone(c, gb))
        return pa == pb ? dims_collective_kept(c, k, a)
                        : refuse(c, "node %llu runs on group %lld on NPU %u, %lld on NPU %u", (unsigned long long)a->id,
                                 (long long)pa, x, (long long)pb, c->perm[x]);
    if (c->img[ga] != gb)
        return refuse(c, "NPU %u's node %llu runs on group %lld, whose image is not NPU %u's group %lld in ring order",
                      x, (unsigned long long)a->id, (long long)pa, c->perm[x], (long long)pb);
    if (c->shift[ga] == 0)
        return true;
    /* a group smaller than the system runs one local ring: the single
     * listed algorithm, else ring (collective.c) */
    const sim *s = c->s;
    algo_spec ring = {.id = ALGO_RING};
    const algo_spec *spec = s->cfg.n_impl[k] == 1 ? &s->cfg.impl[k][0] : &ring;
    const algorithm *alg = algo_registry_get(&s->algorithms, spec->id);
    if (alg && alg->symmetry == ALGO_ROTATION)
        return true;
    return refuse(c, "node %llu's group ring is rotated, and %s is not invariant under rotation",
                  (unsigned long long)a->id, alg ? alg->name : "its algorithm");
}

/* Peer a of NPU x and b of perm(x), as each names it. */
static bool peer_kept(const roles_ctx *c, uint32_t x, int32_t a, int32_t b)
{
    int64_t pa = workload_peer(c->r, x, a), pb = workload_peer(c->r, c->perm[x], b);
    if (pa >= 0 && pa < c->n)
        return pb == c->perm[pa];
    return pa == pb;
}

/* Every field but the peers and the group. */
static bool nodes_alike(const wl_node *x, const wl_node *y)
{
    return x->id == y->id && x->type == y->type && x->slot == y->slot && x->kind == y->kind &&
           x->is_cpu == y->is_cpu && x->recompute == y->recompute && x->n_involved == y->n_involved &&
           x->n_parents == y->n_parents && x->n_children == y->n_children && x->duration_us == y->duration_us &&
           x->comm_type == y->comm_type && x->comm_size == y->comm_size && x->comm_tag == y->comm_tag &&
           x->comm_priority == y->comm_priority && x->involved == y->involved && x->num_ops == y->num_ops &&
           x->tensor_size == y->tensor_size && (x->pg == WL_NO_GROUP) == (y->pg == WL_NO_GROUP);
}

static bool node_kept(roles_ctx *c, const wl_trace *ta, const wl_trace *tb, uint32_t i, uint32_t x)
{
    static const enum coll_kind kinds[] = {
        [VET_ALL_REDUCE] = COLL_ALL_REDUCE, [VET_ALL_GATHER] = COLL_ALL_GATHER,
        [VET_REDUCE_SCATTER] = COLL_REDUCE_SCATTER, [VET_ALL_TO_ALL] = COLL_ALL_TO_ALL,
    };
    const wl_node *a = &ta->nodes[i], *b = &tb->nodes[i];
    if (!nodes_alike(a, b) || (ta != tb && strcmp(ta->names + a->name, tb->names + b->name) != 0) ||
        !wl_tensors_same_io(&ta->tensors, a->io, &tb->tensors, b->io))
        return refuse(c, "NPU %u's node %llu differs from NPU %u's", x, (unsigned long long)a->id, c->perm[x]);
    for (uint32_t k = 0; ta != tb && k < a->n_children; k++)
        if (ta->children[a->child_start + k] != tb->children[b->child_start + k])
            return refuse(c, "NPU %u's node %llu has other children than NPU %u's", x, (unsigned long long)a->id,
                          c->perm[x]);
    if (a->type == VET_COMM_SEND_NODE || a->type == VET_COMM_RECV_NODE) {
        if (!peer_kept(c, x, a->comm_src, b->comm_src) || !peer_kept(c, x, a->comm_dst, b->comm_dst))
            return refuse(c, "NPU %u's node %llu (%lld -> %lld) is not NPU %u's (%lld -> %lld) relabelled", x,
                          (unsigned long long)a->id, (long long)workload_peer(c->r, x, a->comm_src),
                          (long long)workload_peer(c->r, x, a->comm_dst), c->perm[x],
                          (long long)workload_peer(c->r, c->perm[x], b->comm_src),
                          (long long)workload_peer(c->r, c->perm[x], b->comm_dst));
        return true;
    }
    if (a->comm_src != b->comm_src || a->comm_dst != b->comm_dst)
        return refuse(c, "NPU %u's node %llu differs from NPU %u's", x, (unsigned long long)a->id, c->perm[x]);
    if (a->type != VET_COMM_COLL_NODE || a->comm_type == VET_BROADCAST || c->s->cfg.replay_only)
        return true;
    enum coll_kind k = kinds[a->comm_type];
    return a->pg == WL_NO_GROUP ? dims_collective_kept(c, k, a) : group_collective_kept(c, k, a, b, x);
}

/* Two nodes of one trace that ask the same of a relabelling: the same
 * kind of node, collective, group and peers. */
static bool same_question(const wl_node *a, const wl_node *b)
{
    return a->type == b->type && a->comm_type == b->comm_type && a->pg == b->pg && a->comm_src == b->comm_src &&
           a->comm_dst == b->comm_dst;
}

/* A shared trace's communication nodes, one per question (at most
 * SUMMARY_NODES, else every node is asked): an NPU and its image that run
 * the same trace differ at most in what these nodes name. */
static const trace_summary *summary_of(roles_ctx *c, const wl_trace *t)
{
    for (uint32_t k = 0; k < c->n_sums; k++)
        if (c->sums[k].t == t)
            return &c->sums[k];
    if (c->n_sums == SUMMARY_TRACES)
        return NULL;
    trace_summary *sum = &c->sums[c->n_sums++];
    sum->t = t;
    sum->n = 0;
    for (uint32_t i = 0; i < t->n_nodes && sum->n != UINT32_MAX; i++) {
        uint8_t type = t->nodes[i].type;
        if (type != VET_COMM_SEND_NODE && type != VET_COMM_RECV_NODE && type != VET_COMM_COLL_NODE)
            continue;
        uint32_t k = 0;
        while (k < sum->n && !same_question(&t->nodes[sum->node[k]], &t->nodes[i]))
            k++;
        if (k < sum->n)
            continue;
        if (sum->n == SUMMARY_NODES)
            sum->n = UINT32_MAX;
        else
            sum->node[sum->n++] = i;
    }
    return sum;
}

static bool traces_kept(roles_ctx *c)
{
    for (uint32_t x = 0; x < c->n; x++) {
        const wl_trace *ta = workload_npu_trace(c->r, x), *tb = workload_npu_trace(c->r, c->perm[x]);
        if (ta->n_nodes != tb->n_nodes)
            return refuse(c, "NPU %u has %u nodes, NPU %u %u", x, ta->n_nodes, c->perm[x], tb->n_nodes);
        const trace_summary *sum = ta == tb ? summary_of(c, ta) : NULL;
        if (sum && sum->n != UINT32_MAX) {
            for (uint32_t k = 0; k < sum->n; k++)
                if (!node_kept(c, ta, tb, sum->node[k], x))
                    return false;
            continue;
        }
        for (uint32_t i = 0; i < ta->n_nodes; i++) {
            /* one shared trace: only what names peers and groups can differ */
            uint8_t type = ta->nodes[i].type;
            if (ta == tb && type != VET_COMM_SEND_NODE && type != VET_COMM_RECV_NODE && type != VET_COMM_COLL_NODE)
                continue;
            if (!node_kept(c, ta, tb, i, x))
                return false;
        }
    }
    return true;
}

/* What no relabelling covers: remote memory, process groups declared in
 * the trace, custom collectives (chosen by node id and position). */
static bool nodes_supported(const roles_ctx *c, const wl_trace *t, char *why, size_t len)
{
    static const enum coll_kind kinds[] = {
        [VET_ALL_REDUCE] = COLL_ALL_REDUCE, [VET_ALL_GATHER] = COLL_ALL_GATHER,
        [VET_REDUCE_SCATTER] = COLL_REDUCE_SCATTER, [VET_ALL_TO_ALL] = COLL_ALL_TO_ALL,
    };
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const wl_node *n = &t->nodes[i];
        char name[120];
        const char *what = n->type == VET_MEM_LOAD_NODE || n->type == VET_MEM_STORE_NODE ? "is a remote-memory access"
                           : n->type == VET_METADATA_NODE && n->meta                      ? "declares process groups"
                           : n->type == VET_COMM_COLL_NODE && n->comm_type != VET_BROADCAST &&
                                   sys_config_custom_for(&c->s->cfg, kinds[n->comm_type], n->id)
                               ? "runs a custom collective"
                               : NULL;
        if (what && !c->s->cfg.replay_only) {
            snprintf(why, len, "node %llu (%s) of %s %s", (unsigned long long)n->id,
                     msg_escape(t->names + n->name, name, sizeof name), t->path, what);
            return false;
        }
    }
    return true;
}

/* ---- candidates -------------------------------------------------------- */

/* One candidate: verified, then offered to the relabelling set. */
static bool try_candidate(roles_ctx *c, npu_relabel *rl, const uint32_t *perm, uint32_t *map, const char *name,
                          char *what, size_t what_len)
{
    char why[300] = "";
    c->perm = perm;
    c->why = why;
    c->why_len = sizeof why;
    for (uint32_t g = 0; g < c->n_groups; g++)
        map_group(c, g);
    bool kept = network_kept(c, map) && traces_kept(c);
    enum relabel_add_result res = kept ? relabel_add(rl, perm) : RELABEL_IDENTITY;
    if (kept && res == RELABEL_ADDED) {
        size_t used = strlen(what);
        snprintf(what + used, what_len - used, "%s%s", used ? ", " : "", name);
        return true;
    }
    if (kept && res == RELABEL_NO_MEMORY)
        snprintf(why, sizeof why, "out of memory");
    else if (kept)
        snprintf(why, sizeof why, "%s", res == RELABEL_NOT_COMMUTING ? "it does not commute with the others kept"
                                        : res == RELABEL_NOT_FREE   ? "the classes would not all be alike"
                                                                    : "no more relabellings are kept");
    char *first = c->what_failed;
    if (!first[0])
        snprintf(first, sizeof c->what_failed, "%s: %s", name, why);
    return false;
}

/* The rotation of the family of group f: member i -> member i + 1 of its
 * group, every other NPU kept. False when the family's groups overlap. */
static bool family_rotation(const roles_ctx *c, uint32_t f, uint32_t *perm)
{
    for (uint32_t x = 0; x < c->n; x++)
        perm[x] = x;
    for (uint32_t g = 0; g < c->n_groups; g++) {
        const comm_group_def *G = &c->groups[g];
        if (!families_same_shape(G, &c->groups[f]))
            continue;
        for (uint32_t i = 0; i < G->n_npus; i++) {
            if (perm[G->npus[i]] != G->npus[i])
                return false;
            perm[G->npus[i]] = G->npus[(i + 1) % G->n_npus];
        }
    }
    return true;
}

/* Group f is the first of its family. */
static bool family_first(const roles_ctx *c, uint32_t f)
{
    for (uint32_t g = 0; g < f; g++)
        if (families_same_shape(&c->groups[g], &c->groups[f]))
            return false;
    return true;
}

static void dim_rotation(const roles_ctx *c, uint32_t d, uint32_t *perm)
{
    uint32_t stride = 1;
    for (uint32_t e = 0; e < d; e++)
        stride *= c->net.dims[e].npus;
    uint32_t k = c->net.dims[d].npus;
    for (uint32_t x = 0; x < c->n; x++) {
        uint32_t v = x / stride % k;
        perm[x] = x - v * stride + (v + 1) % k * stride;
    }
}

/* A collective's messages stay in its group; a group's stream ids (its
 * tags) are its own, so a group whose members fall into several classes
 * would send a representative tags of another group. */
static bool groups_within_classes(const roles_ctx *c, const npu_relabel *rl, char *why, size_t len)
{
    for (uint32_t g = 0; g < c->n_groups; g++) {
        const comm_group_def *G = &c->groups[g];
        for (uint32_t i = 1; i < G->n_npus && !group_is_everyone(c, g); i++)
            if (rl->rep[G->npus[i]] != rl->rep[G->npus[0]]) {
                snprintf(why, len, "communicator group %lld spans NPUs %u and %u of different classes%s%s%s",
                         (long long)G->id, G->npus[0], G->npus[i], c->what_failed[0] ? " (" : "", c->what_failed,
                         c->what_failed[0] ? ")" : "");
                return false;
            }
    }
    return true;
}

static void ctx_free(roles_ctx *c)
{
    free(c->npu_groups_start);
    free(c->npu_groups);
    free(c->member_pos);
    free(c->by_id);
    free(c->img);
    free(c->shift);
}

static bool find(roles_ctx *c, npu_relabel *rl, uint32_t *perm, uint32_t *map, char *what, size_t what_len, char *why,
                 size_t why_len)
{
    for (uint32_t k = 0; k < c->r->n_traces; k++)
        if (!nodes_supported(c, c->r->traces[k], why, why_len))
            return false;
    /* the families, in the order of their first groups, then the dimensions */
    for (uint32_t f = 0; f < c->n_groups; f++) {
        const comm_group_def *G = &c->groups[f];
        if (G->n_npus < 2 || group_is_everyone(c, f) || !family_first(c, f))
            continue;
        char name[80];
        snprintf(name, sizeof name, "the communicator groups like %lld (%u NPUs)", (long long)G->id, G->n_npus);
        if (!family_rotation(c, f, perm)) {
            if (!c->what_failed[0])
                snprintf(c->what_failed, sizeof c->what_failed, "%s overlap", name);
            continue;
        }
        try_candidate(c, rl, perm, map, name, what, what_len);
    }
    for (uint32_t d = 0; d < c->net.n_dims; d++) {
        if (c->net.dims[d].npus < 2)
            continue;
        char name[40];
        snprintf(name, sizeof name, "dimension %u", d);
        dim_rotation(c, d, perm);
        try_candidate(c, rl, perm, map, name, what, what_len);
    }
    if (rl->n_classes == c->n) {
        snprintf(why, why_len, "no relabelling of the NPUs keeps the run (%s)",
                 c->what_failed[0] ? c->what_failed : "nothing to rotate");
        return false;
    }
    return groups_within_classes(c, rl, why, why_len);
}

bool symmetry_roles_find(const sim *s, const wl_run *r, npu_relabel *rl, char *what, size_t what_len, char *why,
                         size_t why_len)
{
    what[0] = why[0] = '\0';
    roles_ctx c = {.s = s, .r = r, .n = s->n_npus, .groups = s->groups.groups, .n_groups = (uint32_t)s->groups.n_groups};
    char err[300];
    if (relabel_init(rl, s->n_npus) != 0) {
        snprintf(why, why_len, "out of memory");
        return false;
    }
    if (vimana_net_load(s->opt->network, &c.net, err, sizeof err, NULL, NULL) != 0 || c.net.total_npus != c.n) {
        snprintf(why, why_len, "the network %s could not be read again", s->opt->network);
        return false;
    }
    uint32_t biggest = 1;
    for (uint32_t d = 0; d < c.net.n_dims; d++)
        biggest = c.net.dims[d].npus > biggest ? c.net.dims[d].npus : biggest;
    uint32_t *perm = malloc((size_t)c.n * sizeof *perm), *map = malloc((size_t)biggest * sizeof *map);
    bool found = false;
    if (!perm || !map || index_groups(&c) != 0)
        snprintf(why, why_len, "out of memory");
    else
        found = find(&c, rl, perm, map, what, what_len, why, why_len);
    free(perm);
    free(map);
    ctx_free(&c);
    return found;
}
