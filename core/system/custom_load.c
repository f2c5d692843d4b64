/*
 * Loading custom-collective ETs. Parsed ETs are cached by (prefix,
 * position) and shared by every collective that uses them. Each file gets
 * the checks of a workload ET (no empty file, unique ids, known
 * dependencies, no cycle, durations that fit the clock); the files of a
 * prefix are then matched send against receive once per communicator group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/custom.h"
#include "system/custom_graph.h"
#include "util/dep_links.h"
#include "util/ticks.h"
#include "vimana/et.h"

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

custom_graph *custom_graph_find(sim *s, const char *prefix, uint32_t position)
{
    struct custom_cache *c = s->custom;
    for (size_t i = 0; c && i < c->n; i++)
        if (c->graphs[i].position == position && strcmp(c->graphs[i].prefix, prefix) == 0)
            return &c->graphs[i];
    return NULL;
}

int custom_graph_load(sim *s, const char *prefix, uint32_t position)
{
    if (custom_graph_find(s, prefix, position))
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
        if (custom_graph_load(s, prefix, p) != 0)
            return -1;
    if (custom_graph_match(s, prefix, n_ranks, rank_of_position) != 0)
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
