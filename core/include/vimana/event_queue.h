/*
 * vimana/event_queue.h - a discrete-event queue for network backends
 * (part of the backend toolkit, libvimana_backend; see
 * vimana/backend_toolkit.h for the ready-made schedule/now/run/stop).
 *
 * Ordering rules (the ones the simulator's timing depends on):
 *  - events run in ascending tick order;
 *  - events of one tick run in the order they were scheduled;
 *  - an event scheduled for the tick being processed runs in the same pass,
 *    after everything already queued for that tick.
 *
 * Built for millions of events: a hash from tick to a FIFO bucket plus a
 * binary heap of distinct ticks, with events and buckets kept in pooled
 * arrays, so scheduling does not allocate once the pools have grown. Not
 * thread-safe; one queue per simulation.
 */
#ifndef VIMANA_EVENT_QUEUE_H
#define VIMANA_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "vimana/network_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vimana_evq vimana_evq;

/* Returns NULL when out of memory. */
vimana_evq *vimana_evq_new(void);
void vimana_evq_free(vimana_evq *q);

/* Schedules fn(arg, data) at absolute tick `when` (>= now). Returns
 * VIMANA_OK, VIMANA_ERR_ARGUMENT for a tick in the past, or VIMANA_ERR_NOMEM. */
int vimana_evq_schedule_at(vimana_evq *q, vimana_tick when, vimana_event_fn fn, void *arg,
                           uint64_t data);
/* Same, at now + delta. A tick past UINT64_MAX (the last one the clock can
 * hold) is VIMANA_ERR_ARGUMENT, so a backend learns that the run has left
 * the representable range instead of seeing the event clamped. */
int vimana_evq_schedule(vimana_evq *q, vimana_tick delta, vimana_event_fn fn, void *arg,
                        uint64_t data);

/* The tick of the events being (or last) processed; 0 before any. */
vimana_tick vimana_evq_now(const vimana_evq *q);

/* Processes every event of the earliest pending tick. Returns 1 if a tick
 * was processed (or begun, when an event stopped the queue), 0 if the queue
 * was empty or is stopped. */
int vimana_evq_step(vimana_evq *q);
/* Processes events until the queue is empty or stopped. */
void vimana_evq_run(vimana_evq *q);

/* Stops the queue for good: the event in progress finishes, no further
 * event runs (step and run return at once); events still queued are
 * dropped by vimana_evq_free. Safe to call from inside an event; one flag
 * test per event is all it costs the loop. */
void vimana_evq_stop(vimana_evq *q);
/* Non-zero once vimana_evq_stop was called. */
int vimana_evq_stopped(const vimana_evq *q);

/* A look-ahead hook (vimana_evq_set_lookahead): before an event runs,
 * the queue shows the hook events queued behind it in the same tick: the
 * 4th behind it with stage 0, then the 2nd with stage 1, so that each
 * event is seen with stage 0 and, two events later, with stage 1 before
 * it runs (those queued when fewer than 4 or 2 were behind the running
 * one are seen late or not at all). The owner starts loading what they
 * will touch (vimana_host.will_deliver/will_run). The hook must not
 * schedule, stop or otherwise change the queue. */
typedef void (*vimana_evq_lookahead_fn)(void *ctx, vimana_event_fn fn, void *arg, uint64_t data, int stage);
/* Installs the hook (NULL: none, the default, under which the queue
 * itself prefetches the next event's arg). */
void vimana_evq_set_lookahead(vimana_evq *q, vimana_evq_lookahead_fn fn, void *ctx);
/* Events waiting to run, and events run so far. */
size_t vimana_evq_pending(const vimana_evq *q);
uint64_t vimana_evq_executed(const vimana_evq *q);

#ifdef __cplusplus
}
#endif

#endif
