/*
 * Loading custom-collective ETs. Parsed ETs are cached by (prefix,
 * position) and shared by every collective that uses them. Each file is
 * loaded by the workload's loader (core/trace: no empty file, unique ids,
 * known dependencies, no cycle) and its nodes get their own checks here
 * (node kinds, attributes, durations that fit the clock); the files of a
 * prefix are then matched send against receive once per communicator group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/custom.h"
#include "system/custom_graph.h"
#include "util/grow.h"
#include "util/ticks.h"
#include "vimana/et.h"

typedef struct load_ctx {
    sim *s;
    const char *path;
} load_ctx;

static int read_node(void *ctx, const vet_node *n, void *record)
{
    sim *s = ((load_ctx *)ctx)->s;
    const char *path = ((load_ctx *)ctx)->path;
    custom_node *out = record;
    memset(out, 0, sizeof *out);
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

/* Words a trace_graph failure as custom collectives always have. */
static void report_graph_error(sim *s, const char *path, const trace_error *err)
{
    switch (err->status) {
    case TRACE_OPEN_FAILED:
        sim_fail(s, "custom collective: %s (the ET prefix in the system configuration is relative to the "
                    "working directory)", err->text);
        break;
    case TRACE_READ_FAILED:
        sim_fail(s, "custom collective: %s", err->text);
        break;
    case TRACE_TOO_MANY_NODES:
        sim_fail(s, "%s: too many nodes", path);
        break;
    case TRACE_NO_MEMORY:
        sim_fail(s, "out of memory");
        break;
    case TRACE_EMPTY:
        sim_fail(s, "%s: no issuable node: the custom collective's trace has no nodes", path);
        break;
    case TRACE_DUPLICATE_ID:
        sim_fail(s, "%s: node id %llu appears twice", path, (unsigned long long)err->id);
        break;
    case TRACE_MISSING_PARENT:
        sim_fail(s, "%s: node %llu depends on node %llu, which is not in the file", path,
                 (unsigned long long)err->id, (unsigned long long)err->parent_id);
        break;
    case TRACE_CYCLE:
        /* a cycle would leave its nodes waiting for ever and the collective
         * would end at once as if it had nothing to do */
        sim_fail(s, "%s: dependency cycle: %s", path, err->text);
        break;
    case TRACE_NODE_REFUSED: /* read_node() said why */
    case TRACE_OK:
        break;
    }
}

/* Reads the nodes and links them; --drop-missing-deps is for workload
 * traces only, a custom collective's dependencies must all exist. */
static int load_graph(sim *s, custom_graph *g, const char *path)
{
    load_ctx ctx = {s, path};
    trace_error err;
    trace_graph_init(&g->graph, sizeof(custom_node));
    if (trace_graph_read(&g->graph, path, read_node, &ctx, &err) != 0 ||
        trace_graph_link(&g->graph, false, &err) != 0) {
        report_graph_error(s, path, &err);
        return -1;
    }
    g->nodes = g->graph.records;
    return 0;
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
    if (grow_array((void **)&c->graphs, &c->cap, c->n + 1, sizeof *c->graphs, 8) != 0) {
        sim_fail(s, "out of memory");
        return -1;
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
        trace_graph_free(&g->graph);
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
        trace_graph_free(&c->graphs[i].graph);
        free(c->graphs[i].prefix);
    }
    free(c->graphs);
    for (size_t i = 0; i < c->n_checked; i++)
        free(c->checked[i].prefix);
    free(c->checked);
    free(c);
    s->custom = NULL;
}
