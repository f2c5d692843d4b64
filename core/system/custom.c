/*
 * Custom collectives. Parsed ETs are cached by (prefix, position) and shared
 * by every collective that uses them; a running instance keeps only its
 * dependency counters. Free nodes are issued in ascending id order.
 */
#include "system/custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/frontend.h"
#include "util/dep_links.h"
#include "util/ticks.h"
#include "vimana/et.h"

typedef struct custom_node {
    uint64_t id;
    int32_t type;
    uint64_t size;
    int32_t src, dst, tag;
    uint64_t duration_us;
    uint32_t n_parents;
    uint32_t child_start, n_children;
} custom_node;

typedef struct custom_graph {
    char *prefix;
    uint32_t position;
    custom_node *nodes;   /* sorted by id */
    uint32_t n_nodes;
    uint32_t *children;
} custom_graph;

/* A (prefix, communicator group) pair whose sends and receives were
 * matched; the rank order depends on the group. */
typedef struct checked_set {
    char *prefix;
    int64_t group;
} checked_set;

struct custom_cache {
    custom_graph *graphs;
    size_t n, cap;
    checked_set *checked;
    size_t n_checked;
};

typedef struct custom_run {
    const custom_graph *g;
    uint32_t *parents_left;
    uint8_t *state;        /* 0 waiting, 1 free, 2 running, 3 done */
    uint32_t running;
    uint32_t free_count;
    uint32_t done_count;
    uint32_t npu;
    const uint32_t *members; /* communicator group ranks (JSON order), or NULL */
    uint32_t n_ranks;
} custom_run;

enum { CN_WAITING, CN_FREE, CN_RUNNING, CN_DONE };

/* ---- loading ------------------------------------------------------------- */

static int cmp_node_id(const void *a, const void *b)
{
    uint64_t x = ((const custom_node *)a)->id, y = ((const custom_node *)b)->id;
    return x < y ? -1 : x > y;
}

static int64_t find_node(const custom_graph *g, uint64_t id)
{
    size_t lo = 0, hi = g->n_nodes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->nodes[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n_nodes && g->nodes[lo].id == id ? (int64_t)lo : -1;
}

typedef struct edge {
    uint64_t parent, child_id;
} edge;

static int read_node(sim *s, const char *path, const vet_node *n, custom_node *out)
{
    memset(out, 0, sizeof *out);
    out->id = n->id;
    out->type = n->type;
    out->duration_us = n->duration_micros;
    uint64_t ticks;
    if (!ticks_from_us(n->duration_micros, &ticks)) {
        sim_fail(s, "%s: node %llu: duration out of range: duration_micros %llu does not fit the 64-bit "
                    "nanosecond clock (at most %llu)", path, (unsigned long long)n->id,
                 (unsigned long long)n->duration_micros, (unsigned long long)TICKS_MAX_US);
        return -1;
    }
    if (n->type == VET_COMP_NODE)
        return 0;
    if (n->type != VET_COMM_SEND_NODE && n->type != VET_COMM_RECV_NODE) {
        sim_fail(s, "%s: node %llu: custom collectives support only COMM_SEND, COMM_RECV and COMP nodes, "
                    "not %s", path, (unsigned long long)n->id, vet_node_type_name(n->type));
        return -1;
    }
    int64_t v;
    const char *missing = NULL;
    if (vet_node_uint64(n, "comm_size", 0, &out->size) != VET_ATTR_OK)
        missing = "comm_size";
    else if (n->type == VET_COMM_SEND_NODE && vet_node_int64(n, "comm_dst", 0, &v) != VET_ATTR_OK)
        missing = "comm_dst";
    else if (n->type == VET_COMM_SEND_NODE && (out->dst = (int32_t)v, 0))
        ;
    else if (n->type == VET_COMM_RECV_NODE && vet_node_int64(n, "comm_src", 0, &v) != VET_ATTR_OK)
        missing = "comm_src";
    else if (n->type == VET_COMM_RECV_NODE && (out->src = (int32_t)v, 0))
        ;
    else if (vet_node_int64(n, "comm_tag", 0, &v) != VET_ATTR_OK || v < 0)
        missing = "comm_tag";
    else
        out->tag = (int32_t)v;
    if (missing) {
        sim_fail(s, "%s: node %llu: attribute %s is missing or not a non-negative integer", path,
                 (unsigned long long)n->id, missing);
        return -1;
    }
    if (out->size == 0) {
        sim_fail(s, "%s: node %llu: zero-byte %s", path, (unsigned long long)n->id, vet_node_type_name(n->type));
        return -1;
    }
    return 0;
}

/* Reads every node, collecting dependencies as (parent id, child id). */
static int read_graph(sim *s, custom_graph *g, const char *path, edge **edges, size_t *n_edges)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        sim_fail(s, "custom collective: %s (the ET prefix in the system configuration is relative to the "
                    "working directory)", err.msg);
        return -1;
    }
    size_t cap_edges = 0, cap_nodes = 0;
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        if (g->n_nodes == cap_nodes) {
            cap_nodes = cap_nodes ? cap_nodes * 2 : 64;
            custom_node *grown = realloc(g->nodes, cap_nodes * sizeof *grown);
            if (!grown) {
                sim_fail(s, "out of memory");
                rc = -2;
                break;
            }
            g->nodes = grown;
        }
        if (read_node(s, path, n, &g->nodes[g->n_nodes]) != 0) {
            rc = -2;
            break;
        }
        g->n_nodes++;
        size_t need = *n_edges + n->n_data_deps + n->n_ctrl_deps;
        if (need > cap_edges) {
            while (cap_edges < need)
                cap_edges = cap_edges ? cap_edges * 2 : 64;
            edge *grown = realloc(*edges, cap_edges * sizeof *grown);
            if (!grown) {
                sim_fail(s, "out of memory");
                rc = -2;
                break;
            }
            *edges = grown;
        }
        for (size_t i = 0; i < n->n_data_deps; i++)
            (*edges)[(*n_edges)++] = (edge){n->data_deps[i], n->id};
        for (size_t i = 0; i < n->n_ctrl_deps; i++)
            (*edges)[(*n_edges)++] = (edge){n->ctrl_deps[i], n->id};
    }
    vet_reader_close(r);
    if (rc == -1)
        sim_fail(s, "custom collective: %s", err.msg);
    if (rc == 0 && g->n_nodes == 0) {
        sim_fail(s, "%s: no issuable node: the custom collective's trace has no nodes", path);
        return -1;
    }
    return rc == 0 ? 0 : -1;
}

static uint64_t node_id_at(const void *ctx, uint32_t index)
{
    return ((const custom_graph *)ctx)->nodes[index].id;
}

/* A cycle would leave its nodes waiting for ever and the collective would
 * end at once as if it had nothing to do: refuse it as the workload does.
 * Returns 0, -1 when out of memory, -2 after sim_fail(). */
static int check_acyclic(sim *s, const custom_graph *g, const char *path, const uint32_t *first,
                         const uint32_t *count, const uint32_t *parents)
{
    uint32_t *cycle = malloc(g->n_nodes * sizeof *cycle);
    int64_t k = cycle ? dep_links_find_cycle(g->children, first, count, parents, g->n_nodes, cycle) : -1;
    if (k > 0) {
        char text[700];
        dep_links_cycle_text(cycle, (uint32_t)k, node_id_at, g, text, sizeof text);
        sim_fail(s, "%s: dependency cycle: %s", path, text);
    }
    free(cycle);
    return k == 0 ? 0 : k < 0 ? -1 : -2;
}

/* Sorts the nodes by id and turns the dependencies into children lists. */
static int link_graph(sim *s, custom_graph *g, const char *path, const edge *edges, size_t n_edges)
{
    uint32_t n = g->n_nodes;
    qsort(g->nodes, n, sizeof *g->nodes, cmp_node_id);
    for (uint32_t i = 1; i < n; i++) {
        if (g->nodes[i].id == g->nodes[i - 1].id) {
            sim_fail(s, "%s: node id %llu appears twice", path, (unsigned long long)g->nodes[i].id);
            return -1;
        }
    }
    uint64_t *links = malloc((n_edges ? n_edges : 1) * sizeof *links);
    uint32_t *first = malloc(3 * (size_t)(n ? n : 1) * sizeof *first);
    int rc = links && first ? 0 : -1;
    for (size_t e = 0; rc == 0 && e < n_edges; e++) {
        int64_t p = find_node(g, edges[e].parent), c = find_node(g, edges[e].child_id);
        if (p < 0) {
            sim_fail(s, "%s: node %llu depends on node %llu, which is not in the file", path,
                     (unsigned long long)edges[e].child_id, (unsigned long long)edges[e].parent);
            rc = -2;
            break;
        }
        links[e] = dep_link((uint32_t)p, (uint32_t)c);
    }
    uint32_t *count = first + n, *parents = first + 2 * (size_t)n;
    if (rc == 0)
        rc = dep_links_build(links, n_edges, n, &g->children, first, count, parents);
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        g->nodes[i].child_start = first[i];
        g->nodes[i].n_children = count[i];
        g->nodes[i].n_parents = parents[i];
    }
    if (rc == 0)
        rc = check_acyclic(s, g, path, first, count, parents);
    if (rc == -1)
        sim_fail(s, "out of memory");
    free(links), free(first);
    return rc == 0 ? 0 : -1;
}

static int load_graph(sim *s, custom_graph *g, const char *path)
{
    edge *edges = NULL;
    size_t n_edges = 0;
    int rc = read_graph(s, g, path, &edges, &n_edges);
    if (rc == 0)
        rc = link_graph(s, g, path, edges, n_edges);
    free(edges);
    return rc;
}

static custom_graph *find_graph(sim *s, const char *prefix, uint32_t position)
{
    struct custom_cache *c = s->custom;
    for (size_t i = 0; c && i < c->n; i++)
        if (c->graphs[i].position == position && strcmp(c->graphs[i].prefix, prefix) == 0)
            return &c->graphs[i];
    return NULL;
}

static int custom_prepare(sim *s, const char *prefix, uint32_t position)
{
    if (find_graph(s, prefix, position))
        return 0;
    if (!s->custom && !(s->custom = calloc(1, sizeof *s->custom))) {
        sim_fail(s, "out of memory");
        return -1;
    }
    struct custom_cache *c = s->custom;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        custom_graph *grown = realloc(c->graphs, cap * sizeof *grown);
        if (!grown) {
            sim_fail(s, "out of memory");
            return -1;
        }
        c->graphs = grown;
        c->cap = cap;
    }
    custom_graph *g = &c->graphs[c->n];
    memset(g, 0, sizeof *g);
    size_t len = strlen(prefix) + 32;
    char *path = malloc(len);
    g->prefix = strdup(prefix);
    g->position = position;
    int rc = -1;
    if (path && g->prefix) {
        snprintf(path, len, "%s.%u.et", prefix, position);
        rc = load_graph(s, g, path);
    } else {
        sim_fail(s, "out of memory");
    }
    free(path);
    if (rc != 0) {
        free(g->nodes);
        free(g->children);
        free(g->prefix);
        return -1;
    }
    c->n++;
    return 0;
}

/* ---- matching sends and receives ---------------------------------------- */

/* One end of a point-to-point message, in ranks (communicator group
 * indices, or NPU ids for the whole system). */
typedef struct p2p_end {
    uint32_t src, dst;
    int32_t tag;
    uint64_t size;
    uint32_t position;      /* the file holding the node */
    uint64_t id;
} p2p_end;

static int cmp_end(const void *a, const void *b)
{
    const p2p_end *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    if (x->position != y->position)
        return x->position < y->position ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static bool same_message(const p2p_end *x, const p2p_end *y)
{
    return x->src == y->src && x->dst == y->dst && x->tag == y->tag && x->size == y->size;
}

typedef struct rank_map {
    const char *prefix;
    uint32_t n;
    const uint32_t *rank_of;      /* NULL: rank = position */
} rank_map;

static uint32_t rank_of(const rank_map *m, uint32_t position)
{
    return m->rank_of ? m->rank_of[position] : position;
}

static uint32_t position_of(const rank_map *m, uint32_t rank)
{
    for (uint32_t p = 0; m->rank_of && p < m->n; p++)
        if (m->rank_of[p] == rank)
            return p;
    return rank;
}

/* Adds the SEND and RECV nodes of one file; refuses a peer outside the
 * ranks. Returns 0, or -1 after sim_fail(). */
static int collect_ends(sim *s, const rank_map *m, uint32_t position, p2p_end *sends, size_t *n_sends,
                        p2p_end *recvs, size_t *n_recvs)
{
    const custom_graph *g = find_graph(s, m->prefix, position);
    uint32_t me = rank_of(m, position);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const custom_node *n = &g->nodes[i];
        bool send = n->type == VET_COMM_SEND_NODE;
        if (!send && n->type != VET_COMM_RECV_NODE)
            continue;
        int32_t peer = send ? n->dst : n->src;
        if (peer < 0 || (uint32_t)peer >= m->n) {
            sim_fail(s, "%s.%u.et: node %llu: %s rank %d, outside the %u ranks running the custom collective",
                     m->prefix, position, (unsigned long long)n->id, send ? "COMM_SEND to" : "COMM_RECV from",
                     peer, m->n);
            return -1;
        }
        p2p_end e = {.src = send ? me : (uint32_t)peer, .dst = send ? (uint32_t)peer : me, .tag = n->tag,
                     .size = n->size, .position = position, .id = n->id};
        if (send)
            sends[(*n_sends)++] = e;
        else
            recvs[(*n_recvs)++] = e;
    }
    return 0;
}

static void unmatched(sim *s, const rank_map *m, const p2p_end *e, bool send)
{
    sim_fail(s, "%s.%u.et: node %llu: %s rank %u (tag %d, %llu bytes) has no matching %s in %s.%u.et", m->prefix,
             e->position, (unsigned long long)e->id, send ? "COMM_SEND to" : "COMM_RECV from",
             send ? e->dst : e->src, e->tag, (unsigned long long)e->size, send ? "COMM_RECV" : "COMM_SEND",
             m->prefix, position_of(m, send ? e->dst : e->src));
}

/* Every SEND needs a RECV with the same (source, destination, tag, size)
 * on its peer, and vice versa: otherwise the collective deadlocks, or its
 * sender finishes while the message is never received. */
static int check_matching(sim *s, const rank_map *m)
{
    size_t total = 0, n_sends = 0, n_recvs = 0;
    for (uint32_t p = 0; p < m->n; p++)
        total += find_graph(s, m->prefix, p)->n_nodes;
    p2p_end *sends = malloc((total ? total : 1) * sizeof *sends);
    p2p_end *recvs = malloc((total ? total : 1) * sizeof *recvs);
    int rc = sends && recvs ? 0 : -1;
    if (rc != 0)
        sim_fail(s, "out of memory");
    for (uint32_t p = 0; rc == 0 && p < m->n; p++)
        rc = collect_ends(s, m, p, sends, &n_sends, recvs, &n_recvs);
    if (rc == 0) {
        qsort(sends, n_sends, sizeof *sends, cmp_end);
        qsort(recvs, n_recvs, sizeof *recvs, cmp_end);
    }
    size_t i = 0, j = 0;
    while (rc == 0 && (i < n_sends || j < n_recvs)) {
        if (i < n_sends && j < n_recvs && same_message(&sends[i], &recvs[j])) {
            i++, j++;
            continue;
        }
        bool send = j == n_recvs || (i < n_sends && cmp_end(&sends[i], &recvs[j]) < 0);
        unmatched(s, m, send ? &sends[i] : &recvs[j], send);
        rc = -1;
    }
    free(sends), free(recvs);
    return rc;
}

static bool already_checked(const struct custom_cache *c, const char *prefix, int64_t group)
{
    for (size_t i = 0; i < c->n_checked; i++)
        if (c->checked[i].group == group && strcmp(c->checked[i].prefix, prefix) == 0)
            return true;
    return false;
}

static int remember_checked(sim *s, const char *prefix, int64_t group)
{
    struct custom_cache *c = s->custom;
    checked_set *grown = realloc(c->checked, (c->n_checked + 1) * sizeof *grown);
    char *copy = strdup(prefix);
    if (grown)
        c->checked = grown;
    if (!grown || !copy) {
        free(copy);
        sim_fail(s, "out of memory");
        return -1;
    }
    c->checked[c->n_checked++] = (checked_set){copy, group};
    return 0;
}

int custom_prepare_all(sim *s, const char *prefix, uint32_t n_ranks, const uint32_t *rank_of_position,
                       int64_t group)
{
    if (s->custom && already_checked(s->custom, prefix, group))
        return 0;
    for (uint32_t p = 0; p < n_ranks; p++)
        if (custom_prepare(s, prefix, p) != 0)
            return -1;
    rank_map m = {.prefix = prefix, .n = n_ranks, .rank_of = rank_of_position};
    if (check_matching(s, &m) != 0)
        return -1;
    return remember_checked(s, prefix, group);
}

void custom_cache_free(sim *s)
{
    struct custom_cache *c = s->custom;
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->graphs[i].nodes);
        free(c->graphs[i].children);
        free(c->graphs[i].prefix);
    }
    free(c->graphs);
    for (size_t i = 0; i < c->n_checked; i++)
        free(c->checked[i].prefix);
    free(c->checked);
    free(c);
    s->custom = NULL;
}

/* ---- running ------------------------------------------------------------- */

static uint32_t algo_rank_to_npu(const custom_run *cr, int32_t rank)
{
    return cr->members ? cr->members[rank] : (uint32_t)rank;
}

static void node_done(sim *s, void *obj, uint64_t data);

static uint64_t pack(const stream *st, uint32_t node)
{
    return (st->epoch << 32) | node;
}

static void issue_node(sim *s, stream *st, uint32_t i)
{
    custom_run *cr = st->run.custom;
    const custom_node *n = &cr->g->nodes[i];
    cr->state[i] = CN_RUNNING;
    cr->free_count--;
    cr->running++;
    msg_cb done = {node_done, st, pack(st, i)};
    switch (n->type) {
    case VET_COMM_SEND_NODE: {
        if (n->dst < 0 || (uint32_t)n->dst >= cr->n_ranks) {
            sim_fail(s, "custom collective %s: node %llu sends to rank %d, outside the %s", st->custom_prefix,
                     (unsigned long long)n->id, n->dst, cr->members ? "communicator group" : "system");
            return;
        }
        fe_send(s, cr->npu, algo_rank_to_npu(cr, n->dst), n->size, fe_native_tag((uint32_t)n->tag), done, NULL);
        break;
    }
    case VET_COMM_RECV_NODE: {
        if (n->src < 0 || (uint32_t)n->src >= cr->n_ranks) {
            sim_fail(s, "custom collective %s: node %llu receives from rank %d, outside the %s",
                     st->custom_prefix, (unsigned long long)n->id, n->src,
                     cr->members ? "communicator group" : "system");
            return;
        }
        fe_recv(s, cr->npu, algo_rank_to_npu(cr, n->src), n->size, fe_native_tag((uint32_t)n->tag), done, NULL);
        break;
    }
    default: {
        vimana_tick runtime = n->duration_us ? n->duration_us * 1000 : 1;
        npu_register_event(s, cr->npu, runtime, node_done, st, pack(st, i));
        break;
    }
    }
}

/* Issues every free node, lowest id first (the node array is sorted). */
static void issue_free(sim *s, stream *st)
{
    custom_run *cr = st->run.custom;
    for (uint32_t i = 0; i < cr->g->n_nodes && cr->free_count > 0 && !s->failed; i++)
        if (cr->state[i] == CN_FREE)
            issue_node(s, st, i);
}

static void node_done(sim *s, void *obj, uint64_t data)
{
    stream *st = obj;
    if (s->failed)
        return;
    if ((st->epoch & 0xffffffffu) != (data >> 32)) {
        sim_fail(s, "internal error: custom collective event for a finished stream");
        return;
    }
    custom_run *cr = st->run.custom;
    uint32_t i = (uint32_t)data;
    const custom_node *n = &cr->g->nodes[i];
    cr->state[i] = CN_DONE;
    cr->running--;
    cr->done_count++;
    for (uint32_t k = 0; k < n->n_children; k++) {
        uint32_t c = cr->g->children[n->child_start + k];
        if (--cr->parents_left[c] == 0) {
            cr->state[c] = CN_FREE;
            cr->free_count++;
        }
    }
    issue_free(s, st);
    if (cr->running == 0 && cr->free_count == 0)
        scheduler_phase_done(s, st);
}

void custom_phase_start(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    /* The file position is the NPU's index in the group's sorted member
     * list; peers map through the JSON order (members). */
    uint32_t position = p->custom_position;
    const custom_graph *g = find_graph(s, st->custom_prefix, position);
    custom_run *cr = calloc(1, sizeof *cr);
    if (!g || !cr) {
        free(cr);
        sim_fail(s, "internal error: custom collective %s.%u.et was not loaded", st->custom_prefix, position);
        return;
    }
    cr->g = g;
    cr->npu = st->npu;
    cr->members = p->ring == RING_GROUP ? p->members : NULL;
    cr->n_ranks = p->ring == RING_GROUP ? p->n : s->n_npus;
    cr->parents_left = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *cr->parents_left);
    cr->state = calloc(g->n_nodes ? g->n_nodes : 1, 1);
    if (!cr->parents_left || !cr->state) {
        free(cr->parents_left), free(cr->state), free(cr);
        sim_fail(s, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        cr->parents_left[i] = g->nodes[i].n_parents;
        if (g->nodes[i].n_parents == 0) {
            cr->state[i] = CN_FREE;
            cr->free_count++;
        }
    }
    st->run.custom = cr;
    if (cr->free_count == 0) {
        /* nothing to run: the collective is complete as soon as it starts */
        scheduler_phase_done(s, st);
        return;
    }
    issue_free(s, st);
}

void custom_phase_release(sim *s, stream *st)
{
    (void)s;
    custom_run *cr = st->run.custom;
    if (!cr)
        return;
    free(cr->parents_left);
    free(cr->state);
    free(cr);
    st->run.custom = NULL;
}
