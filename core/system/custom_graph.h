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
