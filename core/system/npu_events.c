/*
 * Per-NPU event coalescing (shared/spec/simulator.md section 13.1).
 *
 * Each NPU keeps a list of work per future tick. Only the first registration
 * for a tick schedules a backend event; later ones for the same tick join
 * that list and run at the position of the first one in the shared queue.
 * This decides same-tick order, which the congestion-aware network turns
 * into link arbitration, so it is reproduced exactly.
 */
#include <stdlib.h>

#include "system/system.h"

#define NIL UINT32_MAX

typedef struct ev_entry {
    npu_event_fn fn;
    void *obj;
    uint64_t data;
    uint32_t next;
} ev_entry;

struct npu_event_pool {
    ev_entry *entries;
    uint32_t n, cap, free_head;
};

int system_events_init(sim *s)
{
    s->npu_events = calloc(1, sizeof *s->npu_events);
    if (!s->npu_events)
        return -1;
    s->npu_events->free_head = NIL;
    return 0;
}

void system_events_fini(sim *s)
{
    if (!s->npu_events)
        return;
    free(s->npu_events->entries);
    free(s->npu_events);
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

static int32_t find_list(const npu_sys *sys, vimana_tick t)
{
    for (uint32_t i = 0; i < sys->n_lists; i++)
        if (sys->lists[i].tick == t)
            return (int32_t)i;
    return -1;
}

static void call_events(void *arg, uint64_t data)
{
    npu_sys *sys = arg;
    sim *s = sys->s;
    (void)data;
    sim_enter(s);
    struct npu_event_pool *p = s->npu_events;
    int32_t li = find_list(sys, sim_now(s));
    if (li < 0)
        return;
    /* Entries registered for this tick while it runs join the tail. The
     * list array may grow meanwhile, so it is addressed by index. */
    for (;;) {
        uint32_t e = sys->lists[li].head;
        if (e == NIL)
            break;
        ev_entry ev = p->entries[e];
        sys->lists[li].head = ev.next;
        if (ev.next == NIL)
            sys->lists[li].tail = NIL;
        p->entries[e].next = p->free_head;
        p->free_head = e;
        s->events++;
        ev.fn(s, ev.obj, ev.data);
    }
    sys->lists[li] = sys->lists[--sys->n_lists];
}

/* The first few lists live inside npu_sys; more move to the heap. */
static int grow_lists(sim *s, npu_sys *sys)
{
    uint32_t cap = sys->cap_lists * 2;
    tick_list *grown = malloc(cap * sizeof *grown);
    if (!grown) {
        sim_fail(s, "out of memory (event lists of NPU %u)", sys->id);
        return -1;
    }
    for (uint32_t i = 0; i < sys->n_lists; i++)
        grown[i] = sys->lists[i];
    if (sys->lists != sys->inline_lists)
        free(sys->lists);
    sys->lists = grown;
    sys->cap_lists = cap;
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
    npu_sys *sys = &s->sys[npu];
    struct npu_event_pool *p = s->npu_events;
    vimana_tick t = sim_now(s) + delta;
    if (t < delta) {
        /* each duration fits on its own but their sum passes 2^64 ns */
        report_time_overflow(s, npu, delta);
        return;
    }
    int32_t li = find_list(sys, t);
    if (li < 0) {
        if (sys->n_lists == sys->cap_lists && grow_lists(s, sys) != 0)
            return;
        li = (int32_t)sys->n_lists++;
        sys->lists[li] = (tick_list){.tick = t, .head = NIL, .tail = NIL};
        sim_schedule(s, delta, call_events, sys, 0);
    }
    uint32_t e = entry_alloc(p);
    if (e == NIL) {
        sim_fail(s, "out of memory (event entries)");
        return;
    }
    p->entries[e] = (ev_entry){.fn = fn, .obj = obj, .data = data, .next = NIL};
    tick_list *l = &sys->lists[li];
    if (l->tail == NIL)
        l->head = e;
    else
        p->entries[l->tail].next = e;
    l->tail = e;
}
