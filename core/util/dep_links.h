/*
 * dep_links.h - dependency edges to per-node child lists.
 *
 * Both the workload and custom collectives turn a trace's data and control
 * dependencies into children lists in one array (CSR) with parent counts;
 * a parent named twice (or as both a data and a control dependency) counts
 * once.
 */
#ifndef VIMANA_UTIL_DEP_LINKS_H
#define VIMANA_UTIL_DEP_LINKS_H

#include "util/exported_names.h"

#include <stddef.h>
#include <stdint.h>

/* Builds a link value from node indices. */
static inline uint64_t dep_link(uint32_t parent, uint32_t child)
{
    return (uint64_t)parent << 32 | child;
}

/* Sorts and de-duplicates `links` in place, then fills, for nodes
 * 0..n_nodes-1: first[i] and count[i] (node i's children are
 * (*children)[first[i] .. first[i] + count[i]), in ascending order) and
 * parents[i] (its number of distinct parents). *children is malloc'd.
 * Returns 0, or -1 when out of memory. */
int dep_links_build(uint64_t *links, size_t n_links, uint32_t n_nodes, uint32_t **children, uint32_t *first,
                    uint32_t *count, uint32_t *parents);

/* After dep_links_build(): looks for a dependency cycle. `cycle` has room
 * for n_nodes entries. Returns 0 when the graph is acyclic, -1 when out of
 * memory, else the length k of a cycle written to cycle[0..k): node indices
 * in execution order (each one a parent of the next, the last a parent of
 * the first), starting at the cycle's lowest index so the report is stable. */
int64_t dep_links_find_cycle(const uint32_t *children, const uint32_t *first, const uint32_t *count,
                             const uint32_t *parents, uint32_t n_nodes, uint32_t *cycle);

/* Writes a cycle from dep_links_find_cycle() as "a -> b -> ... -> a" with
 * each node's id from id_of(ctx, index), truncated (with "...") to fit. */
void dep_links_cycle_text(const uint32_t *cycle, uint32_t k, uint64_t (*id_of)(const void *ctx, uint32_t index),
                          const void *ctx, char *text, size_t len);

#endif
