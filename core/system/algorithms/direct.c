/* Direct (the reference's behaviour, docs/simulator.md): the peers rotate one
 * NPU further after each packet, skipping the NPU itself; up to `window`
 * packets in flight ("directN"; 0 or more than n-1: n-1). "oneDirect"
 * runs it on one ring over every NPU. */
#include <errno.h>
#include <stdlib.h>

#include "system/algorithms/packet_engine.h"

/* The window after the name: none, or a decimal count from 1. */
static int parse_window(const char *digits, uint32_t *window)
{
    if (!*digits) {
        *window = 0;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(digits, &end, 10);
    if (*end || errno || v == 0 || v > UINT32_MAX)
        return -1;
    *window = (uint32_t)v;
    return 0;
}

static void direct_start(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    uint32_t n = p->n;
    engine_begin(p, r);
    r->stream_count = p->coll == COLL_ALL_TO_ALL ? n - 1 : engine_ring_sends(p);
    r->P = p->param && p->param < n - 1 ? p->param : n - 1;
    r->M = n - 1;
    r->NZ = p->local_group ? (n - 1) * r->P : r->P;
    engine_fill(s, st, engine_rotate_skip_self);
}

static void direct_step(sim *s, stream *st, enum phase_event ev)
{
    phase_run *r = &st->run;
    if (ev == PHASE_RECEIVED) {
        engine_received(s, st, engine_rotate_skip_self);
        return;
    }
    if (st->cur.coll != COLL_ALL_REDUCE || r->stream_count > r->M) {
        engine_general(s, st);
        return;
    }
    /* Second half of an all-reduce: wait until every first-half message
     * is in, then send one packet per free slot. */
    r->free_packets++;
    if (r->total_received < r->M)
        return;
    for (uint32_t i = 0; i < r->P; i++)
        engine_send_next(s, st);
    engine_check_exit(s, st);
}

const algorithm algorithm_direct = {
    .name = "direct",
    .one_name = "oneDirect",
    .symmetry = ALGO_ROTATION,
    .param = "N",
    .parse_param = parse_window,
    .start = direct_start,
    .step = direct_step,
};
