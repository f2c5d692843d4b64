/*
 * dot_plan.h - which nodes `vimana-et dot` draws, and as what, worked out
 * in a first pass over the ET: --name keeps the nodes whose name holds a
 * text (and the edges between kept nodes); --collapse folds a run of
 * repeated layers (consecutive blocks of nodes whose names differ only in
 * the number after "layer", e.g. fwd_mb0_layer0_attn, ..layer1_attn) into
 * its first block, each node of which is drawn once with the count.
 */
#ifndef VIMANA_ETCMD_DOT_PLAN_H
#define VIMANA_ETCMD_DOT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/idmap.h"
#include "vimana/et.h"

typedef struct dot_plan_options {
    const char *name;   /* keep the nodes whose name contains it; NULL: all */
    bool collapse;
} dot_plan_options;

typedef struct dot_plan_edge {
    uint64_t from;
    bool ctrl;
    uint32_t next;      /* the next edge into the same node, + 1 (0: none) */
} dot_plan_edge;

typedef struct dot_plan {
    idmap index;        /* node id -> its index in file order (the first node of an id) */
    size_t n, cap;
    uint64_t *ids;
    uint64_t *shown_as; /* node i is drawn as this id: its own, or its first layer's twin */
    bool *kept;         /* node i passes --name */
    uint32_t *times;    /* of a drawn node: how many layers it stands for (1: not collapsed) */
    uint32_t *group;    /* the collapsed run node i is in (1-based; 0: none) */
    uint32_t *block;    /* its layer's place in that run (0: the one drawn) */
    size_t drawn;       /* nodes drawn */
    /* The edges given that touch a collapsed run, listed per target node
     * (edges_into: its id -> its first edge + 1), so none is given twice. */
    dot_plan_edge *edges;
    size_t n_edges, cap_edges;
    idmap edges_into;
} dot_plan;

/* Reads the ET to its end. Returns 0, or -1 after printing one line. */
int dot_plan_build(const char *input, vet_reader *r, const dot_plan_options *o, dot_plan *p);
void dot_plan_free(dot_plan *p);

/* Whether node i (file order) is drawn as itself (else it is filtered out
 * or folded into its first layer's twin). */
bool dot_plan_draws(const dot_plan *p, size_t i);

/* The edge from parent `parent` (an id) to node i, as drawn: false when it
 * is not drawn (a parent filtered out, a link between two layers of one
 * collapsed run, a duplicate), else *from and *to get the ids the edge
 * joins and *absent whether the parent is missing from the file. */
bool dot_plan_edge_of(dot_plan *p, size_t i, uint64_t parent, bool ctrl, uint64_t *from, uint64_t *to,
                      bool *absent);

#endif
