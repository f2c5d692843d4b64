/*
 * link_plan.h - host <-> device matching and the output's numbering
 * (chakra-tools.md §6 steps 8 and 9), computed before anything is written.
 *
 * Matching: a host node reachable from the root links to the Kineto CPU op
 * with its record-function id (host attr rf_id == Kineto "Record function
 * id"; when Kineto repeats an id the last op in ts order wins, as in the
 * reference's dictionary). Nodes are visited in id order, which decides the
 * inter-thread dependency the way the reference does: it resolves to the host
 * node linked so far to the Kineto op the group depends on.
 *
 * Numbering: every host node (sorted by id) gets the next id, immediately
 * followed by one id per GPU op of its Kineto op (in GPU ts order); then
 * every "ctrl_deps" is mapped to the new id of the node it named, a value
 * naming no node getting a fresh id after all others (as the reference's id
 * assigner does).
 */
#ifndef VIMANA_TRACE_LINK_LINK_PLAN_H
#define VIMANA_TRACE_LINK_LINK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_link/diag.h"
#include "trace_link/host_trace.h"
#include "trace_link/kineto_trace.h"
#include "trace_link/sync_dep.h"

#define LINK_NO_ID INT64_MIN

typedef struct link_options {
    bool exact_match;      /* every host op with an rf_id must link, by name too */
    bool allow_unlinked;   /* write the output even when nothing links */
} link_options;

typedef struct sync_ref {
    uint32_t host;         /* host node that waits */
    int64_t node;          /* new id of the GPU op node it waits for */
} sync_ref;

typedef struct link_stats {
    size_t tree_nodes;     /* host nodes reachable from the root */
    size_t rf_nodes;       /* ... of which carry an rf_id */
    size_t linked;         /* ... of which linked to a Kineto CPU op */
    size_t renamed;        /* ... of which the Kineto op has another name */
    size_t unlinked_ops;   /* rf_id nodes without a Kineto op, annotations aside */
    size_t gpu_nodes;      /* GPU op nodes written */
    size_t gpu_dropped;    /* GPU ops whose launcher links to no host node */
    size_t sync_deps;      /* sync_dep entries written */
    size_t sync_dropped;   /* sync edges with an unlinked end */
    size_t out_nodes;      /* nodes written in total */
} link_stats;

typedef struct link_plan {
    int64_t *new_id;          /* per host node */
    int64_t *new_ctrl_deps;   /* per host node that has "ctrl_deps" */
    uint32_t *kop;            /* per host node: linked CPU op, or K_NONE */
    int64_t *inter_dep;       /* per linked host node: new id, or LINK_NO_ID (null) */
    uint32_t *gpu_begin;      /* per CPU op (n_cpu + 1): range in gpu_ops */
    uint32_t *gpu_ops;        /* GPU op indices grouped by launcher, ts order */
    sync_ref *sync;           /* sorted by host, then node; no duplicates */
    size_t n_sync;
    uint32_t first_renamed;   /* host node of the first name mismatch */
    link_stats stats;
} link_plan;

int link_plan_build(link_plan *p, const host_trace *h, kineto_trace *k, const sync_edges *edges,
                    const link_options *o, tl_diag *d);
void link_plan_free(link_plan *p);

#endif
