/*
 * Per-NPU event coalescing (the reference's behaviour, docs/simulator.md).
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
#include "util/grow.h"
#include "util/huge_pages.h"

#define NIL UINT32_MAX

/* A registration after a tick's first one, in the pool. */
typedef struct ev_entry {
    npu_event_fn fn;
    void *obj;
    uint64_t data;
    uint32_t next;
} ev_entry;

/* The work of one NPU for one future tick, in registration order. The
 * first registration is kept here, not in the pool: a tick usually has
 * just one, and the event then touches no memory beyond its NPU's lists. */
typedef struct tick_list {
    vimana_tick tick;
    npu_event_fn fn;
    void *obj;
    uint64_t data;
    uint32_t head, tail;         /* the later registrations, in the pool */
} tick_list;

#define INLINE_LISTS 3

/* One NPU's pending ticks, two cache lines: an event touches its NPU's
 * lines and nothing else of the NPU (the NPU's own record is large and
 * cold at a million messages). An NPU of a collective has at most three
 * ticks pending in the common cases; past that its lists move to the heap
 * (spill[npu] of the pool). All zero is an NPU with nothing pending, so
 * the records of NPUs that never register an event (all but NPU 0 in the
 * reduced simulation) stay untouched, zero pages that cost no memory. */
typedef struct npu_lists {
    alignas(128) uint32_t n;     /* ticks pending */
    uint32_t cap;                /* > INLINE_LISTS: the lists are in the pool's spill[npu]; 0: inline */
    tick_list inline_[INLINE_LISTS];
} npu_lists;

_Static_assert(sizeof(npu_lists) == 128, "two cache lines per NPU");

struct npu_event_pool {
    npu_lists *npus;             /* [n_npus], 128-byte aligned inside npus_block */
    void *npus_block;
    tick_list **spill;           /* [n_npus], NULL until an NPU has more than INLINE_LISTS ticks */
    ev_entry *entries;
    uint32_t n, cap, free_head;
};

int system_events_init(sim *s)
{
    struct npu_event_pool *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    size_t n = s->n_npus ? s->n_npus : 1, bytes = n * sizeof *p->npus;
    /* calloc, not aligned_alloc + a loop that clears: a large calloc comes
     * in zero pages that are not touched here (one record more for the
     * alignment) */
    p->npus_block = calloc(n + 1, sizeof *p->npus);
    p->spill = calloc(n, sizeof *p->spill);
    if (!p->npus_block || !p->spill) {
        free(p->npus_block);
        free(p->spill);
        free(p);
        return -1;
    }
    p->npus = (npu_lists *)(((uintptr_t)p->npus_block + alignof(npu_lists) - 1) &
                            ~(uintptr_t)(alignof(npu_lists) - 1));
    huge_pages_advise(p->npus, bytes);
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
        free(p->spill[i]);
    free(p->spill);
    free(p->npus_block);
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
    if (grow_array_u32((void **)&p->entries, &p->cap, p->n + 1, sizeof *p->entries, 4096, NIL - 1) != 0)
        return NIL;
    return p->n++;
}

static inline uint32_t lists_cap(const npu_lists *l)
{
    return l->cap ? l->cap : INLINE_LISTS;
}

static inline tick_list *lists_of(const struct npu_event_pool *p, npu_lists *l, uint64_t npu)
{
    return l->cap > INLINE_LISTS ? p->spill[npu] : l->inline_;
}

static int32_t find_list(const tick_list *lists, uint32_t n, vimana_tick t)
{
    for (uint32_t i = 0; i < n; i++)
        if (lists[i].tick == t)
            return (int32_t)i;
    return -1;
}

/* The backend event of one NPU's tick: arg is the NPU's lists, data the
 * context. The event queue starts loading the next event's arg while it
 * runs this one, so at scale the next NPU's lists are on their way before
 * its event comes (with the context as arg that load was wasted); the NPU's
 * own record is not touched. */
/* Each host event is scheduled once for its NPU's tick list, which lives
 * until the event runs: an event that finds no list for the current tick
 * ran before its due tick (or ran twice). Out of line: the per-event path
 * carries no formatting. */
static __attribute__((cold, noinline)) void report_misfired(sim *s, const tick_list *lists, uint32_t n)
{
    if (s->failed)
        return;
    vimana_tick due = 0;
    bool later = false;
    for (uint32_t i = 0; i < n; i++)
        if (lists[i].tick > sim_now(s) && (!later || lists[i].tick < due)) {
            due = lists[i].tick;
            later = true;
        }
    if (later)
        sim_fail(s, "network backend %s broke the network API contract: an event due at tick %llu ran at tick %llu, "
                    "before its time", s->be->name, (unsigned long long)due, (unsigned long long)sim_now(s));
    else
        sim_fail(s, "network backend %s broke the network API contract: an event ran at tick %llu, when none was due "
                    "(run twice?)", s->be->name, (unsigned long long)sim_now(s));
}

static void call_events(void *arg, uint64_t data)
{
    sim *s = (sim *)(uintptr_t)data;
    sim_enter(s);
    struct npu_event_pool *p = s->npu_events;
    npu_lists *l = arg;
    uint32_t npu = (uint32_t)(l - p->npus);
    int32_t li = find_list(lists_of(p, l, npu), l->n, sim_now(s));
    if (li < 0) {
        report_misfired(s, lists_of(p, l, npu), l->n);
        return;
    }
    /* The first registration, then the later ones; those registered for
     * this tick while it runs join the tail. The lists may move to the heap
     * meanwhile, so they are looked up again after each call. */
    tick_list *list = &lists_of(p, l, npu)[li];
    s->events++;
    list->fn(s, list->obj, list->data);
    for (;;) {
        list = &lists_of(p, l, npu)[li];
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
    tick_list *lists = lists_of(p, l, npu);
    lists[li] = lists[--l->n];
}

/* The lines of a registration's object its function reads first (a
 * stream's hot fields: system.h STREAM_HOT_BYTES). */
#define OBJ_PREFETCH_LINES 3

void npu_events_look_ahead(vimana_event_fn fn, void *arg, uint64_t data, int stage)
{
    if (fn != call_events)
        return;
    const npu_lists *l = arg;
    if (stage == 0) {
        __builtin_prefetch(l);
        return;
    }
    /* The NPU's events run in tick order: the one coming is its earliest
     * pending tick's. */
    (void)data;
    if (l->cap > INLINE_LISTS || l->n == 0)
        return;
    const tick_list *first = &l->inline_[0];
    for (uint32_t i = 1; i < l->n; i++)
        if (l->inline_[i].tick < first->tick)
            first = &l->inline_[i];
    for (int k = 0; k < OBJ_PREFETCH_LINES; k++)
        __builtin_prefetch((const char *)first->obj + 64 * k);
}

/* Past the inline lists, the NPU's lists move to the heap for good. */
static int grow_lists(sim *s, uint32_t npu, npu_lists *l)
{
    struct npu_event_pool *p = s->npu_events;
    uint32_t cap = lists_cap(l) * 2;
    tick_list *grown = malloc(cap * sizeof *grown);
    if (!grown) {
        sim_fail(s, "out of memory (event lists of NPU %u)", npu);
        return -1;
    }
    memcpy(grown, lists_of(p, l, npu), l->n * sizeof *grown);
    free(p->spill[npu]);
    p->spill[npu] = grown;
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
    int32_t li = find_list(lists_of(p, l, npu), l->n, t);
    if (li < 0) {
        if (l->n == lists_cap(l) && grow_lists(s, npu, l) != 0)
            return;
        lists_of(p, l, npu)[l->n++] =
            (tick_list){.tick = t, .fn = fn, .obj = obj, .data = data, .head = NIL, .tail = NIL};
        sim_schedule(s, delta, call_events, l, (uintptr_t)s);
        return;
    }
    uint32_t e = entry_alloc(p);
    if (e == NIL) {
        sim_fail(s, "out of memory (event entries)");
        return;
    }
    p->entries[e] = (ev_entry){.fn = fn, .obj = obj, .data = data, .next = NIL};
    tick_list *list = &lists_of(p, l, npu)[li];
    if (list->tail == NIL)
        list->head = e;
    else
        p->entries[list->tail].next = e;
    list->tail = e;
}
