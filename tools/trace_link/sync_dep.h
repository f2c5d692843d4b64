/*
 * sync_dep.h - CPU-waits-for-GPU dependencies from synchronize calls.
 *
 * The reference derives `sync_dep` from HTA's critical-path analysis
 * (chakra-tools.md §6 step 5), which also produces later -> earlier edges
 * that end in dependency cycles (chakra #134). Vimana does not reimplement
 * HTA; it uses one simple rule that only ever points from an earlier op to a
 * later one:
 *
 *   A synchronize call S (cudaDeviceSynchronize, cudaStreamSynchronize,
 *   cudaEventSynchronize and their cu/hip forms) waited for the GPU ops
 *   that finished while it was blocked: for a device-wide sync, the last GPU
 *   op of each stream ending within [S.ts, S.ts + S.dur]; for a stream or
 *   event sync, the last one ending in that window (on S's stream when the
 *   event names one). The CPU op that must wait is the first CPU op of S's
 *   thread that starts at or after S ends. Each such pair (waiting CPU op,
 *   GPU op) is an edge, kept only when the GPU op starts strictly before
 *   the waiting op.
 */
#ifndef VIMANA_TRACE_LINK_SYNC_DEP_H
#define VIMANA_TRACE_LINK_SYNC_DEP_H

#include <stddef.h>
#include <stdint.h>

#include "trace_link/diag.h"
#include "trace_link/kineto_trace.h"

typedef struct sync_edge {
    uint32_t waiter;   /* CPU op index */
    uint32_t gpu;      /* GPU op index */
} sync_edge;

typedef struct sync_edges {
    sync_edge *items;  /* sorted by (waiter, gpu), no duplicates */
    size_t n;
} sync_edges;

int find_sync_edges(const kineto_trace *k, sync_edges *out, tl_diag *d);
void sync_edges_free(sync_edges *e);

#endif
