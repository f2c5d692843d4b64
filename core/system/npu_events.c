/*
 * Per-NPU event coalescing (shared/spec/simulator.md section 13.1).
 *
 * Each NPU keeps a list of work per future tick. Only the first registration
 * for a tick schedules a backend event; later ones for the same tick join
 * that list and run at the position of the first one in the shared queue.
 * This decides same-tick order, which the congestion-aware network turns
 * into link arbitration, so it is reproduced exactly.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "system/system.h"
#include "util/huge_pages.h"

#define NIL UINT32_MAX

typedef struct ev_entry {
    npu_event_fn fn;
    void *obj;
    uint64_t data;
    uint32_t next;
} ev_entry;

/* The work of one NPU for one future tick, in registration order. */
typedef struct tick_list {
    vimana_tick tick;
    uint32_t head, tail;         /* entries of the pool */
} tick_list;

#define INLINE_LISTS 3

/* One NPU's pending ticks, one cache line: an event touches its NPU's line
 * and nothing else of the NPU (the NPU's own record is large and cold at
 * a million messages). An NPU rarely waits on more than three ticks at
 * once; past that its lists move to `spill`. */
typedef struct npu_lists {
    alignas(64) uint32_t n;      /* ticks pending */
    uint32_t cap;
    tick_list *spill;            /* NULL: the lists are `inline_` */
    tick_list inline_[INLINE_LISTS];
} npu_lists;

_Static_assert(sizeof(npu_lists) == 64, "one cache line per NPU");

struct npu_event_pool {
    npu_lists *npus;             /* [n_npus] */
    ev_entry *entries;
    uint32_t n, cap, free_head;
};

int system_events_init(sim *s)
{
    struct npu_event_pool *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    size_t bytes = (size_t)(s->n_npus ? s->n_npus : 1) * sizeof *p->npus;
    p->npus = aligned_alloc(alignof(npu_lists), bytes);
    if (!p->npus) {
        free(p);
        return -1;
    }
    huge_pages_advise(p->npus, bytes);
    for (uint32_t i = 0; i < s->n_npus; i++)
        p->npus[i] = (npu_lists){.cap = INLINE_LISTS};
    p->free_head = NIL;
    s->npu_events = p;
    return 0;
}

void system_events_fini(sim *s)
{
    struct npu_event_pool *p = s->npu_events;
    if (!p)
        return;
    for (uint32_t i = 0; i < s->n_npus; i++)
        free(p->npus[i].spill);
    free(p->npus);
    free(p->entries);
    free(p);
    s->npu_events = NULL;
}

static uint32_t entry_alloc(struct npu_event_pool *p)
{
    if (p->free_head != NIL) {
        uint32_t e = p->free_head;
        p->free_head = p->entries[e].next;
        return e;
    }
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 4096;
        ev_entry *grown = realloc(p->entries, (size_t)cap * sizeof *grown);
        if (!grown)
            return NIL;
        p->entries = grown;
        p->cap = cap;
    }
    return p->n++;
}

static inline tick_list *lists_of(npu_lists *l)
{
    return l->spill ? l->spill : l->inline_;
}

static int32_t find_list(const tick_list *lists, uint32_t n, vimana_tick t)
{
    for (uint32_t i = 0; i < n; i++)
        if (lists[i].tick == t)
            return (int32_t)i;
    return -1;
}

/* The backend event of one NPU's tick: arg is the context, data the NPU,
 * so that the NPU's record is not touched. */
static void call_events(void *arg, uint64_t npu)
{
    sim *s = arg;
    sim_enter(s);
    struct npu_event_pool *p = s->npu_events;
    npu_lists *l = &p->npus[npu];
    int32_t li = find_list(lists_of(l), l->n, sim_now(s));
    if (li < 0)
        return;
    /* Entries registered for this tick while it runs join the tail. The
     * lists may move to the heap meanwhile, so they are looked up again
     * after each call. */
    for (;;) {
        tick_list *list = &lists_of(l)[li];
        uint32_t e = list->head;
        if (e == NIL)
            break;
        ev_entry ev = p->entries[e];
        list->head = ev.next;
        if (ev.next == NIL)
            list->tail = NIL;
        p->entries[e].next = p->free_head;
        p->free_head = e;
        s->events++;
        ev.fn(s, ev.obj, ev.data);
    }
    tick_list *lists = lists_of(l);
    lists[li] = lists[--l->n];
}

/* Past the inline lists, the NPU's lists move to the heap. */
static int grow_lists(sim *s, uint32_t npu, npu_lists *l)
{
    uint32_t cap = l->cap * 2;
    tick_list *grown = malloc(cap * sizeof *grown);
    if (!grown) {
        sim_fail(s, "out of memory (event lists of NPU %u)", npu);
        return -1;
    }
    memcpy(grown, lists_of(l), l->n * sizeof *grown);
    free(l->spill);
    l->spill = grown;
    l->cap = cap;
    return 0;
}

/* Out of line: the per-event path carries no formatting. */
static __attribute__((cold, noinline)) void report_time_overflow(sim *s, uint32_t npu, vimana_tick delta)
{
    sim_fail(s, "simulated time out of range: NPU %u would run past 2^64 ns (t = %llu + %llu)", npu,
             (unsigned long long)sim_now(s), (unsigned long long)delta);
}

void npu_register_event(sim *s, uint32_t npu, vimana_tick delta, npu_event_fn fn, void *obj, uint64_t data)
{
    struct npu_event_pool *p = s->npu_events;
    npu_lists *l = &p->npus[npu];
    vimana_tick t = sim_now(s) + delta;
    if (t < delta) {
        /* each duration fits on its own but their sum passes 2^64 ns */
        report_time_overflow(s, npu, delta);
        return;
    }
    int32_t li = find_list(lists_of(l), l->n, t);
    if (li < 0) {
        if (l->n == l->cap && grow_lists(s, npu, l) != 0)
            return;
        li = (int32_t)l->n++;
        lists_of(l)[li] = (tick_list){.tick = t, .head = NIL, .tail = NIL};
        sim_schedule(s, delta, call_events, s, npu);
    }
    uint32_t e = entry_alloc(p);
    if (e == NIL) {
        sim_fail(s, "out of memory (event entries)");
        return;
    }
    p->entries[e] = (ev_entry){.fn = fn, .obj = obj, .data = data, .next = NIL};
    tick_list *list = &lists_of(l)[li];
    if (list->tail == NIL)
        list->head = e;
    else
        p->entries[list->tail].next = e;
    list->tail = e;
}
