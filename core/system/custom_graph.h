/*
 * custom_graph.h - the parsed custom-collective ETs shared by the loader
 * (custom_load.c), the send/receive matcher (custom_match.c) and the
 * runner (custom.c). Private to core/system.
 */
#ifndef VIMANA_SYSTEM_CUSTOM_GRAPH_H
#define VIMANA_SYSTEM_CUSTOM_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "system/context.h"
#include "trace/trace_graph.h"

/* What a custom collective needs of a node, beside its id and
 * dependencies (kept by the trace graph). */
typedef struct custom_node {
    int32_t type;
    uint64_t size;
    int32_t src, dst, tag;
    uint64_t duration_us;
} custom_node;

typedef struct custom_graph {
    char *prefix;
    uint32_t position;
    trace_graph graph;    /* ids (sorted), child lists, parent counts */
    custom_node *nodes;   /* graph.records: node i's attributes */
} custom_graph;

/* A (prefix, communicator group) pair whose sends and receives were
 * matched; the rank order depends on the group. */
typedef struct checked_set {
    char *prefix;
    int64_t group;
} checked_set;

/* s->custom */
struct custom_cache {
    custom_graph *graphs;
    size_t n, cap;
    checked_set *checked;
    size_t n_checked;
};

/* The loaded <prefix>.<position>.et, or NULL. */
custom_graph *custom_graph_find(sim *s, const char *prefix, uint32_t position);
/* Loads and checks <prefix>.<position>.et unless it is cached. Returns 0, or
 * -1 after sim_fail(). */
int custom_graph_load(sim *s, const char *prefix, uint32_t position);
/* With <prefix>.<p>.et loaded for every p < n_ranks: checks that every
 * COMM_SEND has a matching COMM_RECV on its peer and vice versa (ranks as in
 * custom_prepare_all). Returns 0, or -1 after sim_fail(). */
int custom_graph_match(sim *s, const char *prefix, uint32_t n_ranks, const uint32_t *rank_of_position);

#endif
