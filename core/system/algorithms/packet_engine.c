/* The packet engine of Ring, Direct and HalvingDoubling (see the header). */
#include "system/algorithms/packet_engine.h"
#include "system/msg_match.h"

#include <stdlib.h>

uint64_t engine_ring_sends(const phase_desc *p)
{
    uint64_t n = p->n;
    if (p->coll == COLL_ALL_REDUCE)
        return 2 * (n - 1);
    if (p->coll == COLL_ALL_TO_ALL)
        return n * (n - 1) / 2;
    return n - 1;
}

static void skip_self_step(const phase_desc *p, uint32_t *sender, uint32_t *receiver)
{
    int32_t step = p->anticlockwise ? -1 : 1;
    *receiver = engine_ring_step(*receiver, step, p->n);
    if (*receiver == p->index)
        *receiver = engine_ring_step(*receiver, step, p->n);
    *sender = engine_ring_step(*sender, -step, p->n);
    if (*sender == p->index)
        *sender = engine_ring_step(*sender, -step, p->n);
}

void engine_rotate_skip_self(const phase_desc *p, phase_run *r)
{
    skip_self_step(p, &r->sender, &r->receiver);
}

/* ---- the packet queue ------------------------------------------------------
 * Packets leave in the order they were inserted, and each insert queues the
 * peers of the moment, then rotates them. When the rotation is none (Ring)
 * or engine_rotate_skip_self (Direct), and nothing else moves the peers or
 * the size, the queue is the oldest packet plus a count: the k-th is the
 * oldest rotated k times. A direct window of n - 1 packets then costs no
 * memory. Otherwise (HalvingDoubling also halves the size) the packets are
 * stored in a ring. */
enum { STORED = 0, REPLAY_SAME, REPLAY_SKIP_SELF };

/* The packet after `pk` in a replayed queue. */
static packet replay_next(const phase_desc *p, const phase_run *r, packet pk)
{
    if (r->pk_replay == REPLAY_SKIP_SELF)
        skip_self_step(p, &pk.src, &pk.dst);
    return pk;
}

/* The packet `ahead` places behind the oldest (ahead < pk_len). */
static packet queue_peek(const phase_desc *p, const phase_run *r, uint32_t ahead)
{
    if (r->pk_replay == STORED)
        return r->packets[(r->pk_head + ahead) & (r->pk_cap - 1)];
    packet pk = r->pk_inline[0];
    for (uint32_t i = 0; i < ahead; i++)
        pk = replay_next(p, r, pk);
    return pk;
}

static packet queue_pop(const phase_desc *p, phase_run *r)
{
    r->pk_len--;
    if (r->pk_replay == STORED) {
        packet pk = r->packets[r->pk_head];
        r->pk_head = (r->pk_head + 1) & (r->pk_cap - 1);
        return pk;
    }
    packet pk = r->pk_inline[0];
    r->pk_inline[0] = replay_next(p, r, pk);
    return pk;
}

/* Makes room for `need` packets in the ring (a power of two: it indexes
 * with a mask); false when out of memory. */
static bool reserve_packets(sim *s, phase_run *r, uint32_t need)
{
    if (need <= r->pk_cap)
        return true;
    uint32_t cap = r->pk_cap;
    while (cap < need && cap <= UINT32_MAX / 2 / sizeof(packet))
        cap *= 2;
    packet *p = cap >= need ? malloc(cap * sizeof *p) : NULL;
    if (!p) {
        sim_fail(s, "out of memory (packets)");
        return false;
    }
    for (uint32_t i = 0; i < r->pk_len; i++)
        p[i] = r->packets[(r->pk_head + i) & (r->pk_cap - 1)];
    if (r->packets != r->pk_inline)
        free(r->packets);
    r->packets = p;
    r->pk_cap = cap;
    r->pk_head = 0;
    return true;
}

static void push_packet(sim *s, phase_run *r, uint32_t src, uint32_t dst, uint64_t size)
{
    if (r->pk_replay != STORED) {
        /* a later packet is the oldest one rotated: only the first is kept */
        if (r->pk_len++ == 0)
            r->pk_inline[0] = (packet){src, dst, size};
        return;
    }
    if (r->pk_len == r->pk_cap && !reserve_packets(s, r, r->pk_len + 1))
        return;
    r->packets[(r->pk_head + r->pk_len) & (r->pk_cap - 1)] = (packet){src, dst, size};
    r->pk_len++;
}

/* Queues the next packet and says how its bundle goes (flags and size:
 * a rotation may change the size of the packets after it); false when the
 * phase has no packet left to insert. */
static bool engine_next_packet(sim *s, stream *st, engine_rotate_fn rotate, bundle_flags *f, uint64_t *size)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    if (r->zero == 0 && r->nonzero == 0) {
        r->zero = r->P;
        r->nonzero = r->NZ;
        r->toggle = !r->toggle;
    }
    /* zero-latency packets start at the NPU side, the others at the memory
     * side; all but the last P non-zero ones are sent back */
    *f = (bundle_flags){.processed = false, .send_back = false, .npu_to_ma = true};
    if (r->zero > 0) {
        r->zero--;
    } else if (r->nonzero > 0) {
        f->processed = p->coll == COLL_REDUCE_SCATTER || (p->coll == COLL_ALL_REDUCE && r->toggle);
        f->send_back = r->nonzero > r->P;
        f->npu_to_ma = false;
        r->nonzero--;
    } else {
        return false;
    }
    *size = r->msg_size;
    push_packet(s, r, r->sender, r->receiver, r->msg_size);
    if (rotate)
        rotate(p, r);
    return true;
}

static void engine_insert(sim *s, stream *st, engine_rotate_fn rotate)
{
    bundle_flags f;
    uint64_t size;
    if (engine_next_packet(s, st, rotate, &f, &size))
        phase_bundle(s, st, size, f);
}

void engine_send_next(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    if (r->pk_len == 0 || r->stream_count == 0 || r->free_packets == 0)
        return;
    packet pk = queue_pop(p, r);
    r->stream_count--;
    r->free_packets--;
    /* A window of packets goes out in a burst, each to another peer
     * (direct): the lookups of the next two are cold, so start them now. */
    for (uint32_t ahead = 0; ahead < 2 && ahead < r->pk_len && ahead < r->stream_count; ahead++) {
        packet next = queue_peek(p, r, ahead);
        int stage = ahead == 0 ? 1 : 0;
        msg_prefetch(s, st->npu, phase_ring_member(p, next.dst), next.size, st->tag, stage);
        msg_prefetch(s, phase_ring_member(p, next.src), st->npu, next.size, st->tag, stage);
    }
    phase_send(s, st, phase_ring_member(p, pk.dst), pk.size);
    phase_receive(s, st, phase_ring_member(p, pk.src), pk.size);
}

bool engine_check_exit(sim *s, stream *st)
{
    if (st->run.stream_count == 0 && st->run.free_packets == st->run.P) {
        phase_exit(s, st);
        return true;
    }
    return false;
}

void engine_step(sim *s, stream *st, enum phase_event ev, engine_rotate_fn rotate)
{
    if (ev == PHASE_GENERAL)
        engine_general(s, st);
    else
        engine_received(s, st, rotate);
}

void engine_general(sim *s, stream *st)
{
    st->run.free_packets++;
    engine_send_next(s, st);
    engine_check_exit(s, st);
}

void engine_received(sim *s, stream *st, engine_rotate_fn rotate)
{
    st->run.total_received++;
    engine_insert(s, st, rotate);
}

void engine_begin(const phase_desc *p, phase_run *r)
{
    int32_t step = p->anticlockwise ? -1 : 1;
    r->msg_size = p->coll == COLL_ALL_GATHER ? p->in_size : p->in_size / p->n;
    r->receiver = engine_ring_step(p->index, step, p->n);
    r->sender = engine_ring_step(p->index, -step, p->n);
}

static bool same_flags(bundle_flags a, bundle_flags b)
{
    return a.processed == b.processed && a.send_back == b.send_back && a.npu_to_ma == b.npu_to_ma;
}

/* The P bundles of the start are handed over in runs of equal ones, so
 * that a window of n - 1 packets (direct) costs one bundle record and one
 * event per run instead of one per packet; the order is unchanged. */
void engine_fill(sim *s, stream *st, engine_rotate_fn rotate)
{
    bundle_flags run_flags = {0}, f;
    uint64_t run_size = 0, size;
    uint32_t run_len = 0;
    /* The start of the phase: the queue is empty and nothing but rotate
     * moves the peers from here on. */
    if (st->run.pk_len == 0)
        st->run.pk_replay = rotate == NULL ? REPLAY_SAME : rotate == engine_rotate_skip_self ? REPLAY_SKIP_SELF : STORED;
    /* a stored window in one allocation rather than doubling up to it */
    if (st->run.pk_replay == STORED && st->run.P <= UINT32_MAX - st->run.pk_len &&
        !reserve_packets(s, &st->run, st->run.pk_len + st->run.P))
        return;
    for (uint32_t i = 0; i < st->run.P && !s->failed; i++) {
        if (!engine_next_packet(s, st, rotate, &f, &size))
            continue;
        if (run_len > 0 && (size != run_size || !same_flags(f, run_flags))) {
            phase_bundles(s, st, run_size, run_flags, run_len);
            run_len = 0;
        }
        run_flags = f;
        run_size = size;
        run_len++;
    }
    if (run_len > 0 && !s->failed)
        phase_bundles(s, st, run_size, run_flags, run_len);
}
