/*
 * Queues and phase-to-phase movement (the reference's behaviour, docs/simulator.md).
 *
 * Every dimension owns Q queues; a queue runs at most T = ceil(A/Q) streams
 * at once and keeps the others waiting in priority order. A stream that
 * finishes a phase leaves its queue and joins the next phase's queue; the
 * order of these steps (completion callback, removal, insertion, refill of
 * the old queue, then of the new one) decides same-tick order, so it
 * follows the reference exactly.
 */
#include <stdlib.h>

#include "system/system.h"

static uint32_t running_cap(const sim *s)
{
    uint32_t q = s->opt->queues_per_dim;
    return (s->cfg.active_chunks_per_dimension + q - 1) / q;
}

/* The queue counters of NPU npu on dimension dim (zero at the start):
 * which queue the next phase of each kind takes. */
enum { CTR_LEVEL, CTR_FIRST, CTR_LAST };

static uint32_t *queue_counter(sim *s, uint32_t npu, int which, uint32_t dim)
{
    return &s->queue_ctr[((size_t)npu * 3 + (size_t)which) * s->queue_dims + dim];
}

/* The counter's value, which then moves on to the next of `n` turns. */
static uint32_t take_turn(uint32_t *ctr, uint32_t n)
{
    uint32_t v = *ctr;
    *ctr = (v + 1) % n;
    return v;
}

uint32_t scheduler_next_queue(sim *s, uint32_t npu, uint32_t dim, bool *anticlockwise)
{
    uint32_t q = s->opt->queues_per_dim;
    uint32_t v = take_turn(queue_counter(s, npu, CTR_LEVEL, dim), q);
    *anticlockwise = q > 1 && v >= q / 2;
    return dim * q + v;
}

/* The first queues are the lower half, 0 .. q/2-1 in turn. */
uint32_t scheduler_first_queue(sim *s, uint32_t npu, uint32_t dim)
{
    uint32_t q = s->opt->queues_per_dim;
    if (q == 1)
        return dim;
    return dim * q + take_turn(queue_counter(s, npu, CTR_FIRST, dim), q / 2);
}

/* The last queues are the upper half, q/2 .. q-1 in turn; the counter
 * holds the offset from q/2, so that it starts at zero. */
uint32_t scheduler_last_queue(sim *s, uint32_t npu, uint32_t dim)
{
    uint32_t q = s->opt->queues_per_dim;
    if (q == 1)
        return dim;
    return dim * q + q / 2 + take_turn(queue_counter(s, npu, CTR_LAST, dim), q - q / 2);
}

/* Waiting streams are ordered by priority, FIFO among equals; streams
 * already running stay at the front. */
static void queue_insert(queue_state *q, stream *st)
{
    stream *it = q->head;
    while (it && (it->initialized || it->priority >= st->priority))
        it = it->next;
    st->next = it;
    st->prev = it ? it->prev : q->tail;
    if (st->prev)
        st->prev->next = st;
    else
        q->head = st;
    if (it)
        it->prev = st;
    else
        q->tail = st;
}

static void queue_remove(queue_state *q, stream *st)
{
    if (st->prev)
        st->prev->next = st->next;
    else
        q->head = st->next;
    if (st->next)
        st->next->prev = st->prev;
    else
        q->tail = st->prev;
    st->prev = st->next = NULL;
}

/* Starts waiting streams while the queue has running slots. Streams that
 * start may finish synchronously and re-enter the scheduler, so the queue
 * is walked afresh for every start. */
static void queue_fill(sim *s, uint32_t npu, uint32_t qid)
{
    queue_state *q = &npu_queues(s, npu)[qid];
    uint32_t cap = running_cap(s);
    while (q->running < cap && !s->failed) {
        stream *st = q->head;
        for (uint32_t i = 0; st && i < q->running; i++)
            st = st->next;
        if (!st)
            return;
        st->initialized = true;
        q->running++;
        phase_start(s, st);
    }
}

void scheduler_enter_first_phase(sim *s, stream *st)
{
    const phase_desc *p = &st->phases[0];
    st->cur = *p;
    st->next_phase = 1;
    st->initialized = false;
    st->queue = (int32_t)p->queue;
    queue_insert(&npu_queues(s, st->npu)[p->queue], st);
    queue_fill(s, st->npu, p->queue);
}

static void dataset_stream_finished(sim *s, dataset *ds)
{
    if (++ds->finished < ds->expected)
        return;
    sim_done done = ds->done;
    slab_free(&s->datasets, ds);
    sim_done_run(s, done);
}

void scheduler_phase_done(sim *s, stream *st)
{
    queue_state *queues = npu_queues(s, st->npu);
    sim_phase_done(s, st);
    bool last = st->next_phase == st->n_phases;
    uint32_t old = (uint32_t)st->queue;
    phase_release(s, st);
    if (last)
        dataset_stream_finished(s, st->ds);
    queue_remove(&queues[old], st);
    if (last) {
        uint32_t npu = st->npu;
        free((void *)st->phases);
        slab_free(&s->streams, st);
        queues[old].running--;
        queue_fill(s, npu, old);
        return;
    }
    const phase_desc *p = &st->phases[st->next_phase++];
    st->cur = *p;
    st->initialized = false;
    st->queue = (int32_t)p->queue;
    queue_insert(&queues[p->queue], st);
    queues[old].running--;
    queue_fill(s, st->npu, old);
    queue_fill(s, st->npu, p->queue);
}
