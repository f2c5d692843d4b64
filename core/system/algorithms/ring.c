/* Ring (the reference's behaviour, docs/simulator.md): every packet goes to the
 * next NPU round the ring and comes from the previous one; one packet in
 * flight. "oneRing" runs it on one ring over every NPU. */
#include "system/algorithms/packet_engine.h"

static void ring_start(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    engine_begin(p, r);
    r->stream_count = engine_ring_sends(p);
    r->P = 1;
    r->NZ = p->n - 1;
    engine_fill(s, st, NULL);
}

static void ring_step(sim *s, stream *st, enum phase_event ev)
{
    engine_step(s, st, ev, NULL);
}

const algorithm algorithm_ring = {
    .name = "ring",
    .one_name = "oneRing",
    .symmetry = ALGO_ROTATION,
    .start = ring_start,
    .step = ring_step,
};
