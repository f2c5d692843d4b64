/*
 * breakdown.h - where one NPU's step went (vimana --breakdown, the
 * report's "breakdown"): its GPU compute time, and every stretch of its
 * step with no GPU compute charged to the communication that held the next
 * compute back -- per communicator group for collectives, pipeline
 * messages (SEND / RECV) in flight, the wait of a RECV for the other stage
 * to issue its SEND (the pipeline bubble), anything else as "other". Worked out after
 * the run from the nodes' start and end ticks: nothing on the event path.
 */
#ifndef VIMANA_WORKLOAD_BREAKDOWN_H
#define VIMANA_WORKLOAD_BREAKDOWN_H

#include <stdint.h>

#include "workload/workload.h"

/* Groups listed one by one; the rest are summed as other groups. */
#define WL_BREAKDOWN_GROUPS 8

typedef struct wl_breakdown {
    vimana_tick finish;
    vimana_tick compute;                 /* union of the GPU compute nodes' intervals */
    uint64_t flops;                      /* num_ops of the GPU compute nodes run */
    uint64_t model_flops;                /* the same without recomputation (is_recomputation nodes) */
    uint32_t n_groups;
    int64_t group[WL_BREAKDOWN_GROUPS];  /* pg of each listed group (WL_NO_GROUP: all NPUs), ascending */
    vimana_tick exposed_group[WL_BREAKDOWN_GROUPS];
    vimana_tick exposed_other_groups;    /* collectives of groups beyond the listed ones */
    vimana_tick exposed_p2p;             /* SEND / RECV: pipeline messages in flight */
    vimana_tick exposed_bubble;          /* a RECV waiting for its SEND to be issued: the pipeline bubble */
    vimana_tick exposed_other;           /* held back by nothing the ET says, or other nodes */
} wl_breakdown;

/* The NPU `npu`'s workload, for finding the SEND a RECV of NPU `asker`
 * waits for; NULL when unknown (then a RECV's wait counts as in flight).
 * In a reduced run over roles it is npu's representative's, which names the
 * asker by another id: *asker_seen is set to it (it starts as `asker`). */
typedef const workload *(*wl_peer_fn)(void *ctx, uint32_t npu, uint32_t asker, uint32_t *asker_seen);

/* Fills *out for a finished NPU. Returns 0, or -1 when out of memory. The
 * parts add up: compute + every exposed_* = finish. */
int workload_breakdown(const workload *w, wl_peer_fn peer, void *peer_ctx, wl_breakdown *out);

#endif
