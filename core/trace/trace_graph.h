/*
 * trace_graph.h - one Chakra ET file as a dependency graph: nodes dense and
 * sorted by id, children in one array (CSR), parent counts, and the checks
 * every trace gets (no empty file, unique ids, known parents, no cycle).
 *
 * Shared by the workload (one trace per NPU) and custom collectives (one
 * trace per rank). Each caller keeps its own per-node record (durations,
 * communication attributes, names...): the graph reads the file, hands each
 * node to the caller's read_node callback to fill a record, and keeps the
 * records in the order of its nodes, so node i's record is records[i].
 *
 * The graph never prints: a failure is returned as a trace_error and each
 * caller words it (the two callers' messages differ). Below the workload
 * and the system layer: depends on the ET library and core/util only.
 */
#ifndef VIMANA_TRACE_TRACE_GRAPH_H
#define VIMANA_TRACE_TRACE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/et.h"

enum trace_status {
    TRACE_OK = 0,
    TRACE_OPEN_FAILED,    /* text: the reader's message */
    TRACE_READ_FAILED,    /* text: the reader's message (truncation, corrupt record...) */
    TRACE_NODE_REFUSED,   /* read_node returned non-zero (it reported why) */
    TRACE_TOO_MANY_NODES, /* more than UINT32_MAX - 2 nodes */
    TRACE_NO_MEMORY,
    TRACE_EMPTY,          /* the file has no nodes */
    TRACE_DUPLICATE_ID,   /* id: appears twice */
    TRACE_MISSING_PARENT, /* node id (index node) depends on parent_id, absent from the file */
    TRACE_CYCLE,          /* text: "a -> b -> ... -> a" (node ids in execution order) */
};

typedef struct trace_error {
    enum trace_status status;
    uint64_t id, parent_id;
    uint32_t node;
    char text[700];
} trace_error;

/* Fills `record` (record_size bytes, uninitialised) from `node`. Returns 0,
 * or non-zero to stop loading after the callback reported the problem. */
typedef int (*trace_read_node_fn)(void *ctx, const vet_node *node, void *record);

/* A dependency read from the file, before ids become indices. */
typedef struct trace_dep {
    uint64_t parent_id, child_id;
} trace_dep;

typedef struct trace_graph {
    void *records;            /* n_nodes records of record_size bytes, node order */
    size_t record_size;
    uint32_t n_nodes;
    uint64_t *ids;            /* node i's id; ascending after trace_graph_link() */
    /* After trace_graph_link(): node i's children are
     * children[child_start[i] .. child_start[i] + n_children[i]) in
     * ascending order, and n_parents[i] counts its distinct parents. The
     * three per-node arrays are one allocation owned by child_start. */
    uint32_t *children;
    uint32_t *child_start, *n_children, *n_parents;
    uint64_t empty_records;   /* zero-length records, read as all-default nodes */
    uint64_t dropped_deps;    /* dependencies on absent ids ignored by trace_graph_link() */
    /* between trace_graph_read() and trace_graph_link() */
    trace_dep *deps;
    size_t n_deps;
    size_t cap_nodes, cap_deps;
} trace_graph;

void trace_graph_init(trace_graph *g, size_t record_size);

/* Reads every node of `path` in file order, calling read_node for each;
 * collects the data and control dependencies. Returns 0, or -1 with *err
 * set (TRACE_OPEN_FAILED, TRACE_READ_FAILED, TRACE_NODE_REFUSED,
 * TRACE_TOO_MANY_NODES, TRACE_NO_MEMORY). */
int trace_graph_read(trace_graph *g, const char *path, trace_read_node_fn read_node, void *ctx, trace_error *err);

/* Sorts the nodes (and their records) by id and builds the child lists.
 * Refuses, in this order, an empty file, a repeated id, a dependency on an
 * id absent from the file (the first in file order; with
 * drop_missing_parents such dependencies are counted in dropped_deps
 * instead) and a cycle. Frees the collected dependencies. Returns 0, or -1
 * with *err set. */
int trace_graph_link(trace_graph *g, bool drop_missing_parents, trace_error *err);

/* Index of the node with this id, or -1. */
int64_t trace_graph_find(const trace_graph *g, uint64_t id);

/* Frees every array still owned by the graph; a caller that keeps records
 * or children sets the pointer to NULL first. */
void trace_graph_free(trace_graph *g);

#endif
