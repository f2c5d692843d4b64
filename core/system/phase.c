/*
 * The phase core (the reference's behaviour, docs/simulator.md): what
 * every algorithm's phase is made of - bundles (the endpoint delay, or the
 * memory bus, then the reduction cost), messages under the stream's tag,
 * the exit - and the dispatch of a phase's events to its algorithm's step
 * rules (system/algorithms/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/algorithms/algorithm.h"
#include "system/frontend.h"
#include "system/msg_match.h"
#include "system/shared_bus.h"
#include "system/system.h"
#include "util/ticks.h"

/* A bundle's stream travels as the event's data, not in the bundle: the
 * stream's address is then known without loading the bundle, so the two
 * (both cold at scale) load side by side instead of one after the other. */
typedef struct bundle {
    uint64_t epoch;
    uint64_t size;
    uint32_t count;     /* bundles it stands for (phase_bundles), handed back one after another */
    bool processed;
} bundle;
_Static_assert(sizeof(bundle) <= PHASE_BUNDLE_BYTES, "PHASE_BUNDLE_BYTES is the bundle slab's object size");

uint64_t phase_out_size(const phase_desc *p)
{
    if (p->alg->out_size)
        return p->alg->out_size(p);
    switch (p->coll) {
    case COLL_REDUCE_SCATTER: return p->in_size / p->n;
    case COLL_ALL_GATHER: return p->in_size * p->n;
    default: return p->in_size;
    }
}

void phase_exit(sim *s, stream *st)
{
    if (st->run.bundles_out != 0) {
        sim_fail(s, "internal error: NPU %u stream %llu left a phase with %u bundles in flight", st->npu,
                 (unsigned long long)st->id, st->run.bundles_out);
        return;
    }
    scheduler_phase_done(s, st);
}

/* An event for the phase's algorithm; nothing once the run has failed. */
static inline void phase_event(sim *s, stream *st, enum phase_event ev)
{
    if (s->failed)
        return;
    st->cur.alg->step(s, st, ev);
}

/* ---- bundles: endpoint delay, then the reduction cost ------------------- */

/* Out of line: the per-bundle path carries no formatting. */
static __attribute__((cold, noinline)) void report_slow_reduction(sim *s, uint64_t bytes, uint32_t npu)
{
    sim_fail(s, "%s: key 'local-mem-bw' (%g GB/s) is too small: reducing %llu bytes on NPU %u does not fit "
                "the 64-bit nanosecond clock", s->cfg.path, s->cfg.local_mem_bw_Bps / 1e9, (unsigned long long)bytes,
             npu);
}

/* A bundle with no reduction (left) to do needs only its stream, epoch and
 * count: those travel in the event itself (the stream as obj, the epoch
 * and count packed in data), so its event loads no bundle record, cold at
 * scale. Epochs and counts too large to pack keep a bundle record. */
#define PACKED_COUNT_BITS 24
#define PACKED_EPOCH_BITS (64 - PACKED_COUNT_BITS)

static bool packable(uint64_t epoch, uint32_t count)
{
    return epoch >> PACKED_EPOCH_BITS == 0 && count >> PACKED_COUNT_BITS == 0;
}

static uint64_t pack(uint64_t epoch, uint32_t count)
{
    return epoch << PACKED_COUNT_BITS | count;
}

/* A batch comes back as its bundles would have, one after another at this
 * place in the NPU's list; each counts as one system event. The phase
 * cannot end while bundles are out, so only a failure stops it. */
static void bundles_back(sim *s, stream *st, uint32_t count)
{
    for (uint32_t i = 0; i < count && !s->failed; i++) {
        if (i > 0)
            s->events++;
        st->run.bundles_out--;
        phase_event(s, st, PHASE_GENERAL);
    }
}

static void packed_bundle_fire(sim *s, void *obj, uint64_t data)
{
    stream *st = obj;
    if (!phase_stream_current(s, st, data >> PACKED_COUNT_BITS, "a bundle outlived its stream"))
        return;
    bundles_back(s, st, (uint32_t)(data & ((1u << PACKED_COUNT_BITS) - 1)));
}

/* The reduction cost of a processed bundle of `size` bytes on the
 * stream's NPU (write + read + read, each truncated on its own); false
 * after sim_fail(). */
static bool reduction_ticks(sim *s, const stream *st, uint64_t size, vimana_tick *out)
{
    if (!(s->cfg.local_mem_bw_Bps > 0)) {
        sim_fail(s, "%s: key 'local-mem-bw' is 0 but collectives reduce data on NPU %u "
                    "(set local-mem-bw in GB/s)", s->cfg.path, st->npu);
        return false;
    }
    vimana_tick once;
    if (!ticks_from_ns((double)size / s->cfg.local_mem_bw_Bps * 1e9, &once) || once > UINT64_MAX / 3) {
        report_slow_reduction(s, size, st->npu);
        return false;
    }
    *out = 3 * once;
    return true;
}

/* A processed bundle (one packet: batches are never processed) whose
 * epoch and size fit in the event's data travels like a packed one, the
 * size in the low PROCESSED_SIZE_BITS: its event's object is then the
 * stream, which the event loop's look-ahead starts loading early
 * (npu_events_look_ahead), and there is no bundle record to load first.
 * After the reduction it comes back as a packed bundle of count 1, as
 * bundle_fire would send it. */
#define PROCESSED_SIZE_BITS 40

static bool processed_packable(uint64_t epoch, uint64_t size)
{
    return epoch >> (64 - PROCESSED_SIZE_BITS) == 0 && size >> PROCESSED_SIZE_BITS == 0;
}

static void processed_bundle_fire(sim *s, void *obj, uint64_t data)
{
    stream *st = obj;
    uint64_t epoch = data >> PROCESSED_SIZE_BITS;
    if (!phase_stream_current(s, st, epoch, "a bundle outlived its stream"))
        return;
    vimana_tick delay;
    if (reduction_ticks(s, st, data & ((1ull << PROCESSED_SIZE_BITS) - 1), &delay))
        npu_register_event(s, st->npu, delay, packed_bundle_fire, st, pack(epoch, 1));
}

static void bundle_fire(sim *s, void *obj, uint64_t data)
{
    bundle *b = obj;
    stream *st = (stream *)(uintptr_t)data;
    if (!phase_stream_current(s, st, b->epoch, "a bundle outlived its stream")) {
        slab_free(&s->bundles, b);
        return;
    }
    if (b->processed) {
        b->processed = false;
        vimana_tick delay;
        if (!reduction_ticks(s, st, b->size, &delay)) {
            slab_free(&s->bundles, b);
            return;
        }
        if (packable(b->epoch, b->count)) {
            uint64_t packed = pack(b->epoch, b->count);
            slab_free(&s->bundles, b);
            npu_register_event(s, st->npu, delay, packed_bundle_fire, st, packed);
            return;
        }
        npu_register_event(s, st->npu, delay, bundle_fire, b, data);
        return;
    }
    uint32_t count = b->count;
    slab_free(&s->bundles, b);
    bundles_back(s, st, count);
}

static void bundle_send(sim *s, stream *st, uint64_t size, bundle_flags f, uint32_t count)
{
    npu_event_fn fn = packed_bundle_fire;
    void *obj = st;
    uint64_t data = pack(st->epoch, count);
    if (f.processed && count == 1 && processed_packable(st->epoch, size)) {
        fn = processed_bundle_fire;
        data = st->epoch << PROCESSED_SIZE_BITS | size;
    } else if (f.processed || !packable(st->epoch, count)) {
        bundle *b = slab_alloc(&s->bundles);
        if (!b) {
            sim_fail(s, "out of memory (bundles)");
            return;
        }
        *b = (bundle){.epoch = st->epoch, .size = size, .count = count, .processed = f.processed};
        fn = bundle_fire;
        obj = b;
        data = (uintptr_t)st;
    }
    st->run.bundles_out += count;
    /* Communicator-group local rings transmit "Fast": a fixed 10 ticks, bus
     * or not. Everything else is "Usual": the LogGP bus when modelled, else
     * the endpoint delay. Either way the bus hands the bundle back to
     * bundle_fire, which still adds the reduction cost of a processed one,
     * as PacketBundle::call does. */
    const phase_desc *p = &st->cur;
    if (s->cfg.model_shared_bus && !p->local_group) {
        shared_bus_request(s, st->npu, f.npu_to_ma, size, f.processed, f.send_back, fn, obj, data);
        return;
    }
    vimana_tick delay = p->local_group ? 10 : s->cfg.endpoint_delay;
    npu_register_event(s, st->npu, delay, fn, obj, data);
}

void phase_bundle(sim *s, stream *st, uint64_t size, bundle_flags f)
{
    bundle_send(s, st, size, f, 1);
}

void phase_bundles(sim *s, stream *st, uint64_t size, bundle_flags f, uint32_t count)
{
    /* One record and one NPU event stand for the lot when their events
     * would sit next to each other in the NPU's list and do the same: a
     * fixed delay (not the shared bus, whose requests queue one by one)
     * and no reduction (which would come back a second time). */
    bool batch = !f.processed && !(s->cfg.model_shared_bus && !st->cur.local_group);
    if (batch && count > 0) {
        bundle_send(s, st, size, f, count);
        return;
    }
    for (uint32_t i = 0; i < count && !s->failed; i++)
        bundle_send(s, st, size, f, 1);
}

/* ---- messages ------------------------------------------------------------ */

static void on_received(sim *s, void *obj, uint64_t epoch)
{
    stream *st = obj;
    if (!phase_stream_current(s, st, epoch, "a receive completed for a finished stream"))
        return;
    phase_event(s, st, PHASE_RECEIVED);
}

static bool check_size(sim *s, stream *st, uint32_t peer, uint64_t size)
{
    if (size > 0)
        return true;
    sim_fail(s, "zero-byte message between NPU %u and NPU %u (tag %u) in the collective of node %llu: "
                "the collective is too small to split over its NPUs", st->npu, peer, st->tag,
             (unsigned long long)st->ds->node);
    return false;
}

void phase_send(sim *s, stream *st, uint32_t dst, uint64_t size)
{
    if (check_size(s, st, dst, size))
        fe_send_cb(s, st->npu, dst, size, st->tag, NULL, NULL, 0, &st->run.send_hint);
}

void phase_receive(sim *s, stream *st, uint32_t src, uint64_t size)
{
    if (check_size(s, st, src, size))
        fe_recv_cb(s, st->npu, src, size, st->tag, on_received, st, st->epoch, &st->run.recv_hint);
}

/* ---- start and release ---------------------------------------------------- */

void phase_start(sim *s, stream *st)
{
    sim_phase_started(s, st);
    memset(&st->run, 0, sizeof st->run);
    st->run.packets = st->run.pk_inline;
    st->run.pk_cap = PHASE_INLINE_PACKETS;
    st->run.send_hint = st->run.recv_hint = MSG_NO_HINT;
    st->cur.alg->start(s, st);
}

void phase_release(sim *s, stream *st)
{
    if (st->cur.alg && st->cur.alg->release)
        st->cur.alg->release(s, st);
    msg_hint_release(s, &st->run.send_hint);
    msg_hint_release(s, &st->run.recv_hint);
    if (st->run.packets && st->run.packets != st->run.pk_inline)
        free(st->run.packets);
    st->run.packets = NULL;
    st->run.pk_head = st->run.pk_len = st->run.pk_cap = 0;
}

/* ---- helpers for the algorithms' checks ------------------------------------ */

int algorithm_need_power_of_two(const phase_desc *p, const char *name, char *msg, size_t len)
{
    if (p->n && !(p->n & (p->n - 1)))
        return 0;
    snprintf(msg, len, "%s needs a power-of-two number of NPUs per dimension, not %u", name, p->n);
    return -1;
}

uint32_t algorithm_log2(uint32_t n)
{
    uint32_t k = 0;
    while ((1u << k) < n)
        k++;
    return k;
}
