/* HalvingDoubling (the reference's behaviour, docs/simulator.md): log2(n) steps
 * with partners 1, 2, 4, ... ring steps away (all-gather: n/2, ... 1), the
 * message halving (doubling) each step; an all-reduce goes out and back.
 * One packet in flight. Power-of-two rings only, no all-to-all. */
#include <stdio.h>

#include "system/algorithms/packet_engine.h"

/* The partner for the current offset: `offset` ring steps clockwise or
 * anticlockwise depending on this NPU's block parity. The phase direction
 * is not used. */
static void hd_set_peer(const phase_desc *p, phase_run *r)
{
    uint32_t peer = p->index;
    if (r->rank_offset != 0) {
        int64_t off = r->rank_offset;
        bool cw = ((int64_t)p->index / off) % 2 == 0;
        peer = (uint32_t)((((int64_t)p->index + (cw ? off : -off)) % p->n + p->n) % p->n);
    }
    r->sender = r->receiver = peer;
}

static void hd_rotate(const phase_desc *p, phase_run *r)
{
    r->rank_offset = (int64_t)((double)r->rank_offset * r->multiplier);
    r->msg_size = (uint64_t)((double)r->msg_size / r->multiplier);
    if (p->coll == COLL_ALL_REDUCE && r->rank_offset == (int64_t)p->n) {
        r->multiplier = 0.5;
        r->rank_offset = (int64_t)((double)r->rank_offset * r->multiplier);
        r->msg_size = (uint64_t)((double)r->msg_size / r->multiplier);
    }
    hd_set_peer(p, r);
}

static int hd_check(const phase_desc *p, char *msg, size_t len)
{
    if (algorithm_need_power_of_two(p, "halvingDoubling", msg, len) != 0)
        return -1;
    if (p->coll == COLL_ALL_TO_ALL) {
        snprintf(msg, len, "halvingDoubling does not implement ALL_TO_ALL");
        return -1;
    }
    return 0;
}

static void hd_start(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    uint32_t steps = algorithm_log2(p->n);
    engine_begin(p, r);
    r->stream_count = p->coll == COLL_ALL_REDUCE ? 2 * (uint64_t)steps : steps;
    r->P = 1;
    r->NZ = steps - 1;
    if (p->coll == COLL_ALL_GATHER) {
        r->rank_offset = p->n / 2;
        r->multiplier = 0.5;
        r->msg_size = p->in_size;
    } else {
        r->rank_offset = 1;
        r->multiplier = 2.0;
        r->msg_size = p->in_size / 2;
    }
    hd_set_peer(p, r);
    engine_fill(s, st, hd_rotate);
}

static void hd_step(sim *s, stream *st, enum phase_event ev)
{
    engine_step(s, st, ev, hd_rotate);
}

const algorithm algorithm_halving_doubling = {
    .name = "halvingDoubling",
    .one_name = "oneHalvingDoubling",
    .symmetry = ALGO_XOR_POWER_OF_TWO,
    .check = hd_check,
    .start = hd_start,
    .step = hd_step,
};
