/*
 * Event queue: tick -> FIFO bucket. A hash map finds the bucket of a tick in
 * O(1); a min-heap orders the distinct ticks. Simulations of symmetric
 * collectives schedule most events on few distinct ticks, so the heap stays
 * small while buckets absorb the volume.
 */
#include "vimana/event_queue.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/hash.h"
#include "util/sorted.h"

#define NIL UINT32_MAX

typedef struct {
    vimana_event_fn fn;
    void *arg;
    uint64_t data;
    uint32_t next;
} event_rec;

typedef struct {
    vimana_tick time;
    uint32_t head, tail;
} bucket_rec;

typedef struct {
    vimana_tick time;
    uint32_t bucket; /* NIL = empty slot */
} hash_slot;

typedef struct {
    vimana_tick time;
    uint32_t bucket;
} heap_rec;

struct vimana_evq {
    vimana_tick now;
    uint64_t executed;
    size_t pending;
    bool stopped;          /* vimana_evq_stop: run no more events */

    event_rec *events;
    uint32_t n_events, cap_events, free_events;

    bucket_rec *buckets;
    uint32_t n_buckets, cap_buckets, free_buckets;

    hash_slot *slots;      /* open addressing, linear probing */
    uint32_t slot_mask;    /* capacity - 1 (power of two) */
    uint32_t slot_used;

    heap_rec *heap;        /* min-heap on time: each entry keeps its tick, so a
                            * sift compares without loading the bucket */
    uint32_t heap_len, heap_cap;

    /* Bursts of events tend to target the same tick: remember the last
     * bucket to skip the hash for them. */
    vimana_tick last_time;
    uint32_t last_bucket;  /* NIL = none */

    vimana_evq_lookahead_fn lookahead;  /* NULL: prefetch the next event's arg */
    void *lookahead_ctx;
};

static uint32_t hash_tick(vimana_tick t, uint32_t mask)
{
    t ^= t >> 33;
    t *= 0xff51afd7ed558ccdULL;
    t ^= t >> 33;
    return (uint32_t)t & mask;
}

vimana_evq *vimana_evq_new(void)
{
    vimana_evq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->free_events = NIL;
    q->free_buckets = NIL;
    q->last_bucket = NIL;
    q->slot_mask = 63;
    q->slots = malloc(64 * sizeof *q->slots);
    if (!q->slots) {
        free(q);
        return NULL;
    }
    for (uint32_t i = 0; i < 64; i++)
        q->slots[i].bucket = NIL;
    return q;
}

void vimana_evq_free(vimana_evq *q)
{
    if (!q)
        return;
    free(q->events);
    free(q->buckets);
    free(q->slots);
    free(q->heap);
    free(q);
}

vimana_tick vimana_evq_now(const vimana_evq *q)
{
    return q->now;
}

size_t vimana_evq_pending(const vimana_evq *q)
{
    return q->pending;
}

uint64_t vimana_evq_executed(const vimana_evq *q)
{
    return q->executed;
}

/* Grows a pooled array to hold at least one more element (from 1024). */
static bool grow(void **items, uint32_t *cap, uint32_t used, size_t size)
{
    return grow_array_u32(items, cap, used + 1, size, 1024, NIL - 1) == 0;
}

static uint32_t event_alloc(vimana_evq *q)
{
    if (q->free_events != NIL) {
        uint32_t e = q->free_events;
        q->free_events = q->events[e].next;
        return e;
    }
    if (!grow((void **)&q->events, &q->cap_events, q->n_events, sizeof *q->events))
        return NIL;
    return q->n_events++;
}

static uint32_t bucket_alloc(vimana_evq *q)
{
    if (q->free_buckets != NIL) {
        uint32_t b = q->free_buckets;
        q->free_buckets = q->buckets[b].head;
        return b;
    }
    if (!grow((void **)&q->buckets, &q->cap_buckets, q->n_buckets, sizeof *q->buckets))
        return NIL;
    return q->n_buckets++;
}

/* ---- tick -> bucket hash ------------------------------------------------- */

static uint32_t hash_find(const vimana_evq *q, vimana_tick t)
{
    for (uint32_t i = hash_tick(t, q->slot_mask);; i = (i + 1) & q->slot_mask) {
        const hash_slot *s = &q->slots[i];
        if (s->bucket == NIL)
            return NIL;
        if (s->time == t)
            return s->bucket;
    }
}

static void hash_put_slot(hash_slot *slots, uint32_t mask, vimana_tick t, uint32_t bucket)
{
    uint32_t i = hash_tick(t, mask);
    while (slots[i].bucket != NIL)
        i = (i + 1) & mask;
    slots[i].time = t;
    slots[i].bucket = bucket;
}

static bool hash_insert(vimana_evq *q, vimana_tick t, uint32_t bucket)
{
    if ((q->slot_used + 1) * 2 > q->slot_mask + 1) {
        uint32_t cap = (q->slot_mask + 1) * 2;
        hash_slot *slots = malloc((size_t)cap * sizeof *slots);
        if (!slots)
            return false;
        for (uint32_t i = 0; i < cap; i++)
            slots[i].bucket = NIL;
        for (uint32_t i = 0; i <= q->slot_mask; i++)
            if (q->slots[i].bucket != NIL)
                hash_put_slot(slots, cap - 1, q->slots[i].time, q->slots[i].bucket);
        free(q->slots);
        q->slots = slots;
        q->slot_mask = cap - 1;
    }
    hash_put_slot(q->slots, q->slot_mask, t, bucket);
    q->slot_used++;
    return true;
}

/* Removes a tick, shifting later entries of its probe run back so lookups
 * never need tombstones. */
static void hash_remove(vimana_evq *q, vimana_tick t)
{
    uint32_t mask = q->slot_mask;
    uint32_t i = hash_tick(t, mask);
    while (q->slots[i].time != t || q->slots[i].bucket == NIL)
        i = (i + 1) & mask;
    uint32_t hole = i;
    for (uint32_t j = (hole + 1) & mask; q->slots[j].bucket != NIL; j = (j + 1) & mask) {
        uint32_t home = hash_tick(q->slots[j].time, mask);
        if (!hash_home_between(home, hole, j)) {
            q->slots[hole] = q->slots[j];
            hole = j;
        }
    }
    q->slots[hole].bucket = NIL;
    q->slot_used--;
}

/* ---- heap of bucket indices ordered by tick ------------------------------- */

static bool heap_push(vimana_evq *q, uint32_t bucket)
{
    if (!grow((void **)&q->heap, &q->heap_cap, q->heap_len, sizeof *q->heap))
        return false;
    heap_rec r = {q->buckets[bucket].time, bucket};
    q->heap_len = (uint32_t)min_heap_push(q->heap, q->heap_len, sizeof r, offsetof(heap_rec, time), &r);
    return true;
}

static uint32_t heap_pop(vimana_evq *q)
{
    heap_rec top;
    q->heap_len = (uint32_t)min_heap_pop(q->heap, q->heap_len, sizeof top, offsetof(heap_rec, time), &top);
    return top.bucket;
}

/* ---- public -------------------------------------------------------------- */

int vimana_evq_schedule_at(vimana_evq *q, vimana_tick when, vimana_event_fn fn, void *arg,
                           uint64_t data)
{
    if (when < q->now)
        return VIMANA_ERR_ARGUMENT;
    uint32_t b = q->last_bucket != NIL && q->last_time == when ? q->last_bucket : hash_find(q, when);
    if (b == NIL) {
        b = bucket_alloc(q);
        if (b == NIL)
            return VIMANA_ERR_NOMEM;
        q->buckets[b] = (bucket_rec){.time = when, .head = NIL, .tail = NIL};
        if (!hash_insert(q, when, b) || !heap_push(q, b))
            return VIMANA_ERR_NOMEM;
    }
    q->last_time = when;
    q->last_bucket = b;
    uint32_t e = event_alloc(q);
    if (e == NIL)
        return VIMANA_ERR_NOMEM;
    q->events[e] = (event_rec){.fn = fn, .arg = arg, .data = data, .next = NIL};
    bucket_rec *bk = &q->buckets[b];
    if (bk->tail == NIL)
        bk->head = e;
    else
        q->events[bk->tail].next = e;
    bk->tail = e;
    q->pending++;
    return VIMANA_OK;
}

int vimana_evq_schedule(vimana_evq *q, vimana_tick delta, vimana_event_fn fn, void *arg,
                        uint64_t data)
{
    vimana_tick when = q->now + delta;
    if (when < q->now)
        return VIMANA_ERR_ARGUMENT; /* wrapped past 2^64 - 1 */
    return vimana_evq_schedule_at(q, when, fn, arg, data);
}

void vimana_evq_set_lookahead(vimana_evq *q, vimana_evq_lookahead_fn fn, void *ctx)
{
    q->lookahead = fn;
    q->lookahead_ctx = ctx;
}

/* How far ahead the hook sees the events of the tick: a record loaded
 * from memory takes about as long as two events run, so stage 0 (start
 * loading the first record) comes four events ahead and stage 1 (read it,
 * start loading the next ones) two events ahead. */
#define LOOKAHEAD_STAGE0 4
#define LOOKAHEAD_STAGE1 2

/* Before an event runs, with `next` the one queued behind it (distance
 * 1). The queue itself starts loading the next event's arg, which is
 * all it can do without a hook and still pays with one: a backend's own
 * events, which the hook's owner does not know, have their record there. */
static inline void look_ahead(const vimana_evq *q, uint32_t next)
{
    __builtin_prefetch(q->events[next].arg);
    if (!q->lookahead)
        return;
    uint32_t e = next;
    for (int d = 1; d < LOOKAHEAD_STAGE0 && e != NIL; d++) {
        if (d == LOOKAHEAD_STAGE1)
            q->lookahead(q->lookahead_ctx, q->events[e].fn, q->events[e].arg, q->events[e].data, 1);
        e = q->events[e].next;
    }
    if (e != NIL)
        q->lookahead(q->lookahead_ctx, q->events[e].fn, q->events[e].arg, q->events[e].data, 0);
}

int vimana_evq_step(vimana_evq *q)
{
    if (q->heap_len == 0 || q->stopped)
        return 0;
    uint32_t b = heap_pop(q);
    q->now = q->buckets[b].time;
    /* The bucket stays in the hash while it runs, so events scheduled for
     * this tick from inside a callback join its tail and run in this pass. */
    for (;;) {
        uint32_t e = q->buckets[b].head;
        if (e == NIL)
            break;
        event_rec ev = q->events[e];
        /* Events of one tick usually belong to many different NPUs whose
         * state is cold: start loading the next events' objects now. */
        if (ev.next != NIL)
            look_ahead(q, ev.next);
        q->buckets[b].head = ev.next;
        if (ev.next == NIL)
            q->buckets[b].tail = NIL;
        q->events[e].next = q->free_events;
        q->free_events = e;
        q->pending--;
        q->executed++;
        ev.fn(ev.arg, ev.data);
        /* Asked to stop: leave the rest of this tick queued. The bucket
         * stays in the hash but not in the heap, which only matters to a
         * queue that runs again, and a stopped queue never does. */
        if (__builtin_expect(q->stopped, 0))
            return 1;
    }
    hash_remove(q, q->now);
    if (q->last_bucket == b)
        q->last_bucket = NIL;
    q->buckets[b].head = q->free_buckets;
    q->free_buckets = b;
    return 1;
}

void vimana_evq_run(vimana_evq *q)
{
    while (vimana_evq_step(q))
        ;
}

void vimana_evq_stop(vimana_evq *q)
{
    q->stopped = true;
}

int vimana_evq_stopped(const vimana_evq *q)
{
    return q->stopped;
}
