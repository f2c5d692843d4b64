/*
 * depgraph.h - the dependency structure of one ET in compact arrays: node
 * ids, and every node's parents (data deps first, then control deps) in
 * one flat array. Enough to find dependencies on missing nodes and cycles
 * in linear time on million-node traces, without keeping the nodes.
 */
#ifndef VIMANA_ETCMD_DEPGRAPH_H
#define VIMANA_ETCMD_DEPGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "common/idmap.h"

typedef struct depgraph {
    size_t n, cap;          /* nodes, in file order */
    uint64_t *ids;
    uint64_t *dep_start;    /* node i's parents are deps[dep_start[i] .. dep_start[i+1]) */
    uint32_t *n_data;       /* how many of them are data deps (they come first) */
    uint64_t *deps;         /* parent ids; after depgraph_resolve, parent indices */
    size_t n_deps, cap_deps;
    idmap ids_map;
    int resolved;
} depgraph;

/* Marks a dependency whose parent is not in the file, after resolving. */
#define DEPGRAPH_MISSING UINT64_MAX

void depgraph_init(depgraph *g);
void depgraph_free(depgraph *g);

/* Appends a node. Returns 1, or 0 when the id was seen before (*first =
 * index of its first node; the new node is still added and the id keeps
 * meaning the first one), or -1 when out of memory. */
int depgraph_add(depgraph *g, uint64_t id, const uint64_t *data, size_t n_data,
                 const uint64_t *ctrl, size_t n_ctrl, uint32_t *first);

/* Turns parent ids into indices, calling `missing` for each dependency on
 * an id that no node has. */
typedef void (*depgraph_missing_fn)(void *ctx, uint32_t node, int is_ctrl, uint64_t parent_id);
void depgraph_resolve(depgraph *g, depgraph_missing_fn missing, void *ctx);

/* Iterative depth-first search for dependency cycles. For each of the
 * first `max_report` cycles found, calls `report` with its node indices in
 * execution order (parent before child), rotated to start at the smallest
 * id, the first node repeated at the end. Returns the number of cycles
 * found (each closing edge counts once), or -1 when out of memory. */
typedef void (*depgraph_cycle_fn)(void *ctx, const uint32_t *nodes, size_t len);
long depgraph_find_cycles(depgraph *g, size_t max_report, depgraph_cycle_fn report, void *ctx);

#endif
