/* The NCCL-aware collective model (docs/nccl.md) as an algorithm of the
 * registry: "nccl" in an implementation list. Each phase runs the plan of
 * nccl_model.c as real messages through the backend - one per step to the
 * ring neighbour (all-to-all: to the peer `step` places on) - so that a
 * congestion-aware backend sees NCCL's traffic; the protocol's wait after
 * each step and the launch overhead before the first are timer events on
 * the NPU. No bundles: NCCL reduces inside its kernel, whose rate the
 * calibrated efficiencies already hold. */
#include "system/algorithms/algorithm.h"
#include "system/algorithms/nccl_model.h"
#include "system/algorithms/packet_engine.h"

/* run fields used: stream_count = steps left, total_received = steps done,
 * msg_size = wire bytes per message, P = the hop latency of each step
 * (ticks; below 2^32: a hop latency and the NIC's extra are at most 10^9 ns each),
 * step_sent = the tick the current step's messages left (the wait after
 * it hides hop-overlap of their time in the network), nccl_algo and
 * nccl_proto = the call's algorithm and protocol */

/* A one* phase on a network of several dimensions: NCCL's flat ring over
 * every GPU of every node. Its messages cross different links (NVLink in
 * the node, the NIC between nodes), so each is planned for its own. */
static bool flat(const sim *s, const phase_desc *p)
{
    return p->ring == RING_ALL && s->n_dims > 1;
}

_Static_assert(NCCL_MAX_DIMS >= SIM_MAX_DIMS, "a flat ring's route holds every dimension");

/* The links the tuner weighs: the phase's dimension, or every dimension
 * of more than one NPU a flat ring crosses. Only built with `tuner` 1. */
static void route_of(const sim *s, const phase_desc *p, const nccl_params *np, nccl_route *r)
{
    r->n_dims = 0;
    r->rails = 0;
    if (!flat(s, p)) {
        r->n_dims = 1;
        r->dim[0] = p->dim;
        r->bytes_per_ns[0] = s->dim_bytes_per_ns[p->dim];
        return;
    }
    r->rails = nccl_flat_rails(np, s->dim_size, s->n_dims);
    for (uint32_t d = 0; d < s->n_dims; d++) {
        if (s->dim_size[d] < 2)
            continue;
        r->dim[r->n_dims] = d;
        r->bytes_per_ns[r->n_dims++] = s->dim_bytes_per_ns[d];
    }
}

static void plan_call(const sim *s, const stream *st, nccl_plan *plan)
{
    const phase_desc *p = &st->cur;
    const nccl_params *np = &s->cfg.nccl[p->coll];
    /* the call's launch: its first phase only (next_phase counts from 1) */
    bool first = st->next_phase == 1;
    nccl_route route;
    if (np->tuner != 0)
        route_of(s, p, np, &route);
    /* NVLS needs NVLink on every dimension the call crosses */
    bool nvlink_only = flat(s, p) ? nccl_flat_nvlink_only(np, s->dim_size, s->n_dims) : (double)p->dim < np->nvlink_dims;
    nccl_plan_call(np, (enum coll_kind)p->coll, p->n, nvlink_only, p->in_size, first, np->tuner != 0 ? &route : NULL,
                   plan);
    if (!flat(s, p))
        nccl_plan_link(np, p->dim, 0, plan);
}

/* The step of a flat ring: the ring runs in snake order (nccl_model.h);
 * the message to `to` is planned for the dimension it crosses, the one
 * from `from` for the dimension that one crosses (its sender's wire
 * bytes), and the wait after the step is that of this NPU's own link. */
static void send_flat_step(sim *s, stream *st, int32_t delta)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    const nccl_params *np = &s->cfg.nccl[p->coll];
    uint32_t me = st->npu, pos = nccl_flat_pos(s->dim_size, s->n_dims, me);
    uint32_t to = nccl_flat_npu(s->dim_size, s->n_dims, engine_ring_step(pos, delta, p->n));
    uint32_t from = nccl_flat_npu(s->dim_size, s->n_dims, engine_ring_step(pos, -delta, p->n));
    uint32_t rails = nccl_flat_rails(np, s->dim_size, s->n_dims);
    nccl_plan out, in;
    /* the call's choice as its start made it: no tuner run per step */
    nccl_plan_chosen(np, (enum coll_kind)p->coll, p->n, p->in_size, st->next_phase == 1, (enum nccl_algo)r->nccl_algo,
                     (enum nccl_proto)r->nccl_proto, &out);
    in = out;
    nccl_plan_link(np, nccl_flat_dim(s->dim_size, s->n_dims, me, to), rails, &out);
    nccl_plan_link(np, nccl_flat_dim(s->dim_size, s->n_dims, from, me), rails, &in);
    r->P = (uint32_t)out.hop_ticks;
    r->step_sent = sim_now(s);
    phase_send(s, st, to, out.wire_bytes);
    phase_receive(s, st, from, in.wire_bytes);
}

static void send_step(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    if (r->stream_count == 0) {
        phase_exit(s, st);
        return;
    }
    int32_t dir = p->anticlockwise ? -1 : 1;
    int32_t hop = p->coll == COLL_ALL_TO_ALL ? (int32_t)(r->total_received + 1) : 1;
    if (flat(s, p)) {
        send_flat_step(s, st, dir * hop);
        return;
    }
    uint32_t to = engine_ring_step(p->index, dir * hop, p->n);
    uint32_t from = engine_ring_step(p->index, -dir * hop, p->n);
    r->step_sent = sim_now(s);
    phase_send(s, st, phase_ring_member(p, to), r->msg_size);
    phase_receive(s, st, phase_ring_member(p, from), r->msg_size);
}

/* A wait is over (launch or a step's protocol latency). */
static void wait_done(sim *s, void *obj, uint64_t epoch)
{
    stream *st = obj;
    if (!phase_stream_current(s, st, epoch, "an nccl wait outlived its stream"))
        return;
    send_step(s, st);
}

static void wait_then_send(sim *s, stream *st, uint64_t delay)
{
    if (delay == 0)
        send_step(s, st);
    else
        npu_register_event(s, st->npu, delay, wait_done, st, st->epoch);
}

static void nccl_start(sim *s, stream *st)
{
    phase_run *r = &st->run;
    nccl_plan plan;
    plan_call(s, st, &plan);
    r->nccl_algo = (uint8_t)plan.algo;
    r->nccl_proto = (uint8_t)plan.proto;
    r->stream_count = plan.steps;
    r->msg_size = plan.wire_bytes;
    r->P = (uint32_t)plan.hop_ticks;
    wait_then_send(s, st, plan.launch_ticks);
}

static void nccl_step(sim *s, stream *st, enum phase_event ev)
{
    phase_run *r = &st->run;
    if (ev != PHASE_RECEIVED)
        return;   /* no bundles are handed out */
    r->stream_count--;
    r->total_received++;
    uint64_t elapsed = sim_now(s) - r->step_sent;
    wait_then_send(s, st, nccl_step_wait(&s->cfg.nccl[st->cur.coll], r->P, elapsed));
}

const algorithm algorithm_nccl = {
    .name = "nccl",
    .one_name = "oneNccl",
    /* on one dimension or group ring: peers by index +- step, a plan that
     * depends on the ring's size and dimension, not on the index */
    .symmetry = ALGO_ROTATION,
    .nccl_model = true,
    .start = nccl_start,
    .step = nccl_step,
};
