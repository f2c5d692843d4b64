/* The closed form and the fit (see the header; docs/calibrate.md). */
#include "cmd/calibrate/calibrate_fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "system/algorithms/nccl_model.h"

/* Hops between ring indices `distance` apart, as the analytical backend
 * counts them on one dimension. */
static uint32_t hops(const vimana_net_dim *d, uint32_t distance)
{
    switch (d->topology) {
    case VIMANA_NET_RING: return distance < d->npus - distance ? distance : d->npus - distance;
    case VIMANA_NET_SWITCH: return 2;
    case VIMANA_NET_FULLY_CONNECTED:
    default: return 1;
    }
}

uint32_t calib_prefix_dims(const vimana_net_config *net, uint32_t ranks)
{
    if (net->n_dims == 1)
        return 1;
    uint64_t product = 1;
    for (uint32_t k = 0; k < net->n_dims; k++) {
        product *= net->dims[k].npus;
        if (product == ranks)
            return k + 1;
        if (product > ranks)
            break;
    }
    return 0;
}

static void add_phase(const vimana_net_config *net, const calib_point *pt, enum coll_kind coll, uint32_t dim,
                      uint64_t in, calib_phase *out)
{
    out->coll = coll;
    out->dim = dim;
    out->link = net->dims[dim];
    if (net->n_dims == 1)
        out->link.npus = pt->npus;   /* the row's own rank count on the same links */
    out->in = in;
    out->flat_dims = 0;
}

size_t calib_call_phases(const vimana_net_config *net, const calib_point *pt, calib_phase out[CALIB_MAX_PHASES])
{
    uint32_t k = calib_prefix_dims(net, pt->npus);
    k = k ? k : 1;
    uint64_t in = pt->comm_size;
    /* a chunk smaller than the NPU count becomes one byte per NPU */
    if (pt->coll != COLL_ALL_GATHER && pt->npus > in)
        in = pt->npus;
    size_t n = 0;
    if (k > 1 && !pt->hierarchical) {
        /* oneNccl: one ring over every NPU of the leading k dimensions */
        add_phase(net, pt, pt->coll, 0, in, &out[n++]);
        out[0].link.npus = pt->npus;
        out[0].flat_dims = k;
        return n;
    }
    if (pt->coll == COLL_ALL_REDUCE) {
        /* localBWAware: reduce-scatter up, all-reduce on the last, all-gather down */
        for (uint32_t d = 0; d + 1 < k; d++) {
            add_phase(net, pt, COLL_REDUCE_SCATTER, d, in, &out[n++]);
            in /= out[n - 1].link.npus;
        }
        add_phase(net, pt, COLL_ALL_REDUCE, k - 1, in, &out[n++]);
        for (uint32_t d = k - 1; d-- > 0;) {
            add_phase(net, pt, COLL_ALL_GATHER, d, in, &out[n++]);
            in *= out[n - 1].link.npus;
        }
        return n;
    }
    for (uint32_t i = 0; i < k; i++) {
        uint32_t d = pt->coll == COLL_ALL_GATHER ? k - 1 - i : i;
        add_phase(net, pt, pt->coll, d, in, &out[n++]);
        if (pt->coll == COLL_REDUCE_SCATTER)
            in /= out[n - 1].link.npus;
        else if (pt->coll == COLL_ALL_GATHER)
            in *= out[n - 1].link.npus;
    }
    return n;
}

_Static_assert(NCCL_MAX_DIMS >= VIMANA_NET_MAX_DIMS, "a flat ring's route holds every dimension");

void calib_phase_plan(const nccl_params *p, const vimana_net_config *net, const calib_phase *ph, bool first,
                      nccl_plan *out)
{
    if (ph->flat_dims < 2) {
        nccl_plan_phase(p, ph->coll, ph->link.npus, ph->dim, ph->link.bytes_per_ns, ph->in, first, out);
        return;
    }
    uint32_t size[VIMANA_NET_MAX_DIMS];
    /* the links the tuner weighs: every dimension of more than one NPU, as
     * the simulator's flat ring */
    nccl_route route = {0};
    for (uint32_t d = 0; d < ph->flat_dims; d++) {
        size[d] = net->dims[d].npus;
        if (size[d] < 2)
            continue;
        route.dim[route.n_dims] = d;
        route.bytes_per_ns[route.n_dims++] = net->dims[d].bytes_per_ns;
    }
    route.rails = nccl_flat_rails(p, size, ph->flat_dims);
    nccl_plan_call(p, ph->coll, ph->link.npus, nccl_flat_nvlink_only(p, size, ph->flat_dims), ph->in, first, &route,
                   out);
}

/* saturating at 2^63: far past any measurement, so its error is huge */
#define TICK_CAP 9223372036854775808.0

/* The analytical backend's time of a message of `wire` bytes on `d`,
 * `hops` hops (truncated once, as it delivers), saturated. */
static uint64_t message_ticks(const vimana_net_dim *d, uint32_t hops, uint64_t wire)
{
    double t = hops * d->latency_ns + (double)wire / d->bytes_per_ns;
    return t < TICK_CAP ? (uint64_t)t : (uint64_t)TICK_CAP;
}

/* One phase on one dimension: every NPU in lock-step, so the sum of its
 * steps. */
static uint64_t phase_ticks(const nccl_params *p, const calib_phase *ph, const nccl_plan *plan)
{
    const vimana_net_dim *d = &ph->link;
    uint64_t sum = plan->launch_ticks;
    if (ph->coll != COLL_ALL_TO_ALL && plan->steps > 0) {
        /* every step to the neighbour: one step's time, steps times
         * (a ring of hundreds of ranks would otherwise sum each) */
        uint64_t wire = message_ticks(d, hops(d, 1), plan->wire_bytes);
        uint64_t step = wire + nccl_step_wait(p, plan->hop_ticks, wire);
        if (step >= ((uint64_t)TICK_CAP - sum) / plan->steps)
            return (uint64_t)TICK_CAP;
        return sum + step * plan->steps;
    }
    for (uint32_t i = 1; i <= plan->steps; i++) {
        uint32_t distance = ph->coll == COLL_ALL_TO_ALL ? i : 1;
        uint64_t wire = message_ticks(d, hops(d, distance), plan->wire_bytes);
        /* the simulator waits after each arrival; the closed form sums */
        sum += wire + nccl_step_wait(p, plan->hop_ticks, wire);
        if (sum >= (uint64_t)TICK_CAP)
            return (uint64_t)TICK_CAP;
    }
    return sum;
}

/* The shape of a flat ring, fixed by the topology and the phase: the NPUs
 * in snake order (position i + 1 differs from i by one coordinate, that of
 * the lowest dimension whose block i + 1 does not start), the message from
 * the last NPU back to the first, and the ring's period: positions a
 * period apart see the same kinds of messages and waits, so they start
 * together and run the same times, and the recurrence needs one period of
 * them (a node's 8 on 8 x 2). Found once per phase; a fit then plans only
 * the messages' times at each of its millions of evaluations. */
typedef struct flat_shape {
    uint32_t dims, ranks, period;
    uint32_t size[VIMANA_NET_MAX_DIMS], stride[VIMANA_NET_MAX_DIMS];
    uint32_t back_dim, back_hops;   /* the message from the last position to position 0 */
} flat_shape;

/* The dimension of the step into position i (0 < i < ranks). */
static uint32_t snake_dim(const flat_shape *s, uint32_t i)
{
    uint32_t d = 0;
    while (d + 1 < s->dims && i % s->stride[d + 1] == 0)
        d++;
    return d;
}

/* Position i's message in (its dimension and hops) and the dimension of
 * its wait after sending on: what makes positions alike. */
static void shape_key(const flat_shape *s, const vimana_net_config *net, uint32_t i, uint32_t key[3])
{
    key[0] = i == 0 ? s->back_dim : snake_dim(s, i);
    key[1] = i == 0 ? s->back_hops : hops(&net->dims[key[0]], 1);
    key[2] = i + 1 < s->ranks ? snake_dim(s, i + 1) : s->back_dim;
}

static void flat_shape_find(flat_shape *s, const vimana_net_config *net, const calib_phase *ph)
{
    s->dims = ph->flat_dims;
    s->ranks = ph->link.npus;
    uint32_t stride = 1;
    for (uint32_t d = 0; d < s->dims; d++) {
        s->size[d] = net->dims[d].npus;
        s->stride[d] = stride;
        stride *= s->size[d];
    }
    uint32_t first = nccl_flat_npu(s->size, s->dims, 0), last = nccl_flat_npu(s->size, s->dims, s->ranks - 1);
    uint32_t dim = nccl_flat_dim(s->size, s->dims, last, first);
    uint32_t cl = last / s->stride[dim] % s->size[dim], cf = first / s->stride[dim] % s->size[dim];
    s->back_dim = dim;
    s->back_hops = hops(&net->dims[dim], cl > cf ? cl - cf : cf - cl);
    s->period = s->ranks;
    for (uint32_t p = 1; p < s->ranks; p++) {
        if (s->ranks % p)
            continue;
        uint32_t i = p, a[3], b[3];
        for (; i < s->ranks; i++) {
            shape_key(s, net, i, a);
            shape_key(s, net, i - p, b);
            if (memcmp(a, b, sizeof a) != 0)
                break;
        }
        if (i == s->ranks) {
            s->period = p;
            return;
        }
    }
}

/* One step of the ring (each NPU's message from the one before it), in
 * place: sent[] holds the previous step's times until each is
 * overwritten, the one before it kept in `left`. The fit's hot loop, in
 * two versions: without overlap (most of a fit) the wait is the hop's. */
static void ring_step(double overlap, uint64_t *sent, const uint64_t *in, const uint64_t *wait, uint32_t n)
{
    const uint64_t cap = (uint64_t)TICK_CAP;
    uint64_t left = sent[n - 1];
    if (overlap == 0) {
        for (uint32_t i = 0; i < n; i++) {
            uint64_t own = sent[i], arrival = left + in[i];
            uint64_t t = (arrival > own ? arrival : own) + wait[i];
            left = own;
            sent[i] = t < cap ? t : cap;
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t own = sent[i], arrival = left + in[i];
        uint64_t taken = arrival > own ? arrival : own;
        uint64_t t = taken + nccl_overlap_wait(overlap, wait[i], taken - own);
        left = own;
        sent[i] = t < cap ? t : cap;
    }
}

/* When the last n steps moved every position by the same delta (sent
 * against snap), adds `periods` x delta to each and says so. A step is
 * translation-invariant (a constant added to every time comes out added
 * to the next ones) and the positions' messages and waits repeat every
 * step, so every later n steps move them by delta again. A time that
 * would pass the cap is the cap: the times only grow, and once one is at
 * the cap the call's end is. */
static bool ring_jump(uint64_t *sent, const uint64_t *snap, uint32_t n, uint32_t periods)
{
    const uint64_t cap = (uint64_t)TICK_CAP;
    uint64_t delta = sent[0] - snap[0];
    for (uint32_t i = 0; i < n; i++)
        if (sent[i] == cap || sent[i] - snap[i] != delta)
            return false;
    for (uint32_t i = 0; i < n; i++)
        sent[i] = delta != 0 && periods > (cap - sent[i]) / delta ? cap : sent[i] + periods * delta;
    return true;
}

/* The ring's `steps` steps over its n positions (one period of them). The
 * times settle into moving by a fixed amount every n steps, mostly from
 * the first n on (all positions start together): from there the whole
 * periods left are one addition. snap: n times of scratch. */
static void ring_run(const nccl_params *p, uint64_t *sent, uint64_t *snap, const uint64_t *in, const uint64_t *wait,
                     uint32_t n, uint32_t steps)
{
    memcpy(snap, sent, n * sizeof *sent);
    bool jumped = false;
    for (uint32_t k = 1; k <= steps; k++) {
        ring_step(p->hop_overlap, sent, in, wait, n);
        if (jumped || k % n != 0)
            continue;
        uint32_t periods = (steps - k) / n;
        if (periods > 0 && ring_jump(sent, snap, n, periods)) {
            jumped = true;
            k += periods * n;
        } else {
            memcpy(snap, sent, n * sizeof *sent);
        }
    }
}

#define FLAT_STACK_NPUS 64

/* Each dimension's message time and wait on the flat ring: wire bytes
 * planned from the call's, the NIC's spread over the node's rails. */
static void flat_links(const nccl_params *p, const flat_shape *s, const nccl_plan *call,
                       uint64_t wire[VIMANA_NET_MAX_DIMS], uint64_t wait[VIMANA_NET_MAX_DIMS])
{
    uint32_t rails = nccl_flat_rails(p, s->size, s->dims);
    for (uint32_t d = 0; d < s->dims; d++) {
        nccl_plan link = *call;
        nccl_plan_link(p, d, rails, &link);
        wire[d] = link.wire_bytes;
        wait[d] = link.hop_ticks;
    }
}

/* A message from NPU a to NPU b: the backend charges the lowest dimension
 * whose coordinates differ, its hops by their distance there; *wait: the
 * sender's wait after the step, by the same dimension. */
static uint64_t flat_message(const vimana_net_config *net, const flat_shape *s, const uint64_t *wire,
                             const uint64_t *waits, uint32_t a, uint32_t b, uint64_t *wait)
{
    uint32_t dim = nccl_flat_dim(s->size, s->dims, a, b);
    uint32_t ca = a / s->stride[dim] % s->size[dim], cb = b / s->stride[dim] % s->size[dim];
    const vimana_net_dim *d = &net->dims[dim];
    *wait = waits[dim];
    return message_ticks(d, hops(d, ca > cb ? ca - cb : cb - ca), wire[dim]);
}

/* The all-to-all over the flat ring: step k's message comes from the NPU
 * k places back, so each step has its own messages, for every NPU.
 * sent, next, in, wait: n times each. */
static uint64_t flat_all_to_all(const nccl_params *p, const vimana_net_config *net, const flat_shape *s,
                                const nccl_plan *call, uint64_t *sent, uint64_t *next, uint64_t *in, uint64_t *wait,
                                uint32_t *npu)
{
    uint32_t n = s->ranks;
    uint64_t wire[VIMANA_NET_MAX_DIMS], waits[VIMANA_NET_MAX_DIMS];
    flat_links(p, s, call, wire, waits);
    for (uint32_t i = 0; i < n; i++) {
        sent[i] = call->launch_ticks;
        npu[i] = nccl_flat_npu(s->size, s->dims, i);
    }
    for (uint32_t k = 1; k <= call->steps; k++) {
        uint32_t hop = k % n;
        uint64_t unused;
        for (uint32_t i = 0; i < n; i++) {
            in[i] = flat_message(net, s, wire, waits, npu[(i + n - hop) % n], npu[i], &unused);
            flat_message(net, s, wire, waits, npu[i], npu[(i + hop) % n], &wait[i]);
        }
        bool overlap = p->hop_overlap != 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t from = i >= hop ? i - hop : i + n - hop;
            uint64_t arrival = sent[from] + in[i];
            uint64_t taken = arrival > sent[i] ? arrival : sent[i];
            uint64_t t = taken + (overlap ? nccl_step_wait(p, wait[i], taken - sent[i]) : wait[i]);
            next[i] = t < (uint64_t)TICK_CAP ? t : (uint64_t)TICK_CAP;
        }
        uint64_t *swap = sent;
        sent = next;
        next = swap;
    }
    uint64_t last = 0;
    for (uint32_t i = 0; i < n; i++)
        last = sent[i] > last ? sent[i] : last;
    return last;
}

/* The ring collectives over the flat ring, one period of positions: each
 * position's message in and wait from the shape, the same every step. */
static uint64_t flat_ring(const nccl_params *p, const vimana_net_config *net, const flat_shape *s,
                          const nccl_plan *call, uint64_t *sent, uint64_t *snap, uint64_t *in, uint64_t *wait)
{
    uint32_t n = s->period;
    uint64_t wire[VIMANA_NET_MAX_DIMS], waits[VIMANA_NET_MAX_DIMS], ticks[VIMANA_NET_MAX_DIMS];
    flat_links(p, s, call, wire, waits);
    for (uint32_t d = 0; d < s->dims; d++)
        ticks[d] = message_ticks(&net->dims[d], hops(&net->dims[d], 1), wire[d]);
    for (uint32_t i = 0; i < n; i++) {
        sent[i] = call->launch_ticks;
        in[i] = i == 0 ? message_ticks(&net->dims[s->back_dim], s->back_hops, wire[s->back_dim])
                       : ticks[snake_dim(s, i)];
        wait[i] = waits[i + 1 < s->ranks ? snake_dim(s, i + 1) : s->back_dim];
    }
    if (call->steps > 0)
        ring_run(p, sent, snap, in, wait, n, call->steps);
    uint64_t last = 0;
    for (uint32_t i = 0; i < n; i++)
        last = sent[i] > last ? sent[i] : last;
    return last;
}

/* NCCL's flat ring over the leading dimensions: the NPUs no longer run in
 * lock-step (a step over the NIC takes longer than one over NVLink), so
 * the recurrence the simulator runs, per NPU: step k's message from the
 * sender `hop` places back arrives at its send + its time; the NPU takes
 * it when it has posted its own step k (max), waits its own link's hop
 * latency (less the overlap) and sends step k + 1. The call ends when
 * the last NPU does. O(n x steps) per call at most; a ring's messages
 * are the same every step, so they are computed once (and ring_run
 * skips the periods that repeat). */
static uint64_t flat_ticks(const nccl_params *p, const vimana_net_config *net, const calib_phase *ph,
                           const flat_shape *s, const nccl_plan *call)
{
    bool a2a = ph->coll == COLL_ALL_TO_ALL;
    uint32_t n = a2a ? s->ranks : s->period;
    /* per position: the time, a scratch row, the message in and the wait
     * (and the NPU); on the stack up to FLAT_STACK_NPUS: a fit calls this
     * millions of times */
    uint64_t stack_buf[4 * FLAT_STACK_NPUS];
    uint32_t stack_npu[FLAT_STACK_NPUS];
    bool on_stack = n <= FLAT_STACK_NPUS;
    uint64_t *buf = on_stack ? stack_buf : malloc(4 * (size_t)n * sizeof *buf);
    uint32_t *npu = on_stack ? stack_npu : a2a ? malloc((size_t)n * sizeof *npu) : NULL;
    if (!buf || (a2a && !npu)) {
        if (!on_stack)
            free(buf), free(npu);
        return (uint64_t)TICK_CAP;
    }
    uint64_t *sent = buf, *next = buf + n, *in = buf + 2 * (size_t)n, *wait = buf + 3 * (size_t)n;
    uint64_t last = a2a ? flat_all_to_all(p, net, s, call, sent, next, in, wait, npu)
                        : flat_ring(p, net, s, call, sent, next, in, wait);
    if (!on_stack)
        free(buf), free(npu);
    return last;
}

/* A phase's time: the flat ring's recurrence (its shape found here unless
 * given), or the lock-step sum on one dimension. */
static uint64_t phase_time(const nccl_params *p, const vimana_net_config *net, const calib_phase *ph,
                           const flat_shape *shape, const nccl_plan *plan)
{
    if (ph->flat_dims < 2)
        return phase_ticks(p, ph, plan);
    flat_shape own;
    if (!shape) {
        flat_shape_find(&own, net, ph);
        shape = &own;
    }
    return flat_ticks(p, net, ph, shape, plan);
}

uint64_t calib_model_ticks(const nccl_params *p, const vimana_net_config *net, const calib_point *pt)
{
    calib_phase ph[CALIB_MAX_PHASES];
    size_t n = calib_call_phases(net, pt, ph);
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        nccl_plan plan;
        calib_phase_plan(p, net, &ph[k], k == 0, &plan);
        sum += phase_time(p, net, &ph[k], NULL, &plan);
        if (sum >= (uint64_t)TICK_CAP)
            return (uint64_t)TICK_CAP;
    }
    return sum;
}

/* A row's error relative to its measurement, over the tolerance its
 * target gives it (5 % from 1 MiB up, 15 % below): a large call's error
 * weighs 3x. */
static double row_error(const calib_point *pt, uint64_t ticks)
{
    double m = pt->measured_ns;
    double tolerance = pt->tests_bytes >= 1048576 ? 0.05 : 0.15;
    return ((double)ticks - m) / m / tolerance;
}

double calib_cost(const nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    double sum = 0;
    for (size_t i = 0; i < data->n; i++) {
        double e = row_error(&data->pts[i], calib_model_ticks(p, net, &data->pts[i]));
        sum += e * e;
    }
    return sum;
}

/* ---- the continuous parameters: Nelder-Mead ------------------------------ */

#define MAX_CONT 12
#define NM_ITERATIONS 600
#define NM_SHORT 80

typedef struct problem {
    nccl_params base;
    const vimana_net_config *net;
    const calib_data *data;
    int n;                    /* parameters fitted */
    double *slot[MAX_CONT];   /* into base */
    double lo[MAX_CONT], hi[MAX_CONT];
    bool is_ns[MAX_CONT];
    bool channel_count;       /* the discrete pass also moves `channels` */
    bool tree;                /* the discrete pass also moves `tree-max-bytes` */
    bool worst_row;           /* eval: the worst row against its target, not the sum of squares */
    /* While Nelder-Mead runs (`kept`), each row's phases and their plans:
     * without the tuner, what a plan chooses (algorithm, protocol, steps,
     * channels) reads none of the parameters it moves, so only the launch
     * and the links are planned at each evaluation. Allocated at the first
     * run, for the problem's life (problem_done frees them): a fit runs
     * thousands of short descents. */
    calib_phase *phases;      /* rows x CALIB_MAX_PHASES, fixed by the rows and topology */
    flat_shape *shapes;       /* the same, for the flat rings among them */
    nccl_plan *plans;         /* the same, planned again at each run */
    uint8_t *n_phases;        /* per row */
    bool kept;
} problem;

static void problem_done(problem *pb)
{
    free(pb->phases), free(pb->shapes), free(pb->plans), free(pb->n_phases);
    pb->phases = NULL, pb->shapes = NULL, pb->plans = NULL, pb->n_phases = NULL;
    pb->kept = false;
}

/* A ring call's steps: over its phases, 2(n-1) for an all-reduce, n-1
 * for the others. */
static uint32_t ring_steps(const vimana_net_config *net, const calib_point *pt)
{
    calib_phase ph[CALIB_MAX_PHASES];
    size_t n = calib_call_phases(net, pt, ph);
    uint32_t steps = 0;
    for (size_t k = 0; k < n; k++)
        steps += ph[k].coll == COLL_ALL_REDUCE ? 2 * (ph[k].link.npus - 1) : ph[k].link.npus - 1;
    return steps;
}

/* Rows of several step counts (rank counts, or all-reduce beside the
 * others) tell the launch overhead (once per call) from the per-step
 * latencies (once per step). */
static bool several_step_counts(const vimana_net_config *net, const calib_data *data)
{
    for (size_t i = 1; i < data->n; i++)
        if (ring_steps(net, &data->pts[i]) != ring_steps(net, &data->pts[0]))
            return true;
    return false;
}

/* Whether the topology has both NVLink and NIC dimensions and a row
 * reaches past the NVLink ones: then both rates, and the NIC's extra step
 * latency, can be told apart (rows on one node say nothing of the NIC:
 * its parameters keep their start). */
static bool both_link_kinds(const nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    if (!(p->nvlink_dims >= 1 && (double)net->n_dims > p->nvlink_dims))
        return false;
    for (size_t i = 0; i < data->n; i++)
        if ((double)calib_prefix_dims(net, data->pts[i].npus) > p->nvlink_dims)
            return true;
    return false;
}

/* Binds the continuous parameters the fit moves: the per-step latencies
 * and link rates, the LL / LL128 rate shares when `shares`, the launch
 * overhead when several step counts tell it from the step latencies, and
 * the NIC's rate and extra step latency beside NVLink's when the topology
 * has both (last: a one-kind topology fits as before). */
static void bind(problem *pb, bool shares)
{
    nccl_params *p = &pb->base;
    bool nic = p->nvlink_dims < 1;
    double *ns[] = {&p->hop_ns[NCCL_PROTO_LL], &p->hop_ns[NCCL_PROTO_LL128], &p->hop_ns[NCCL_PROTO_SIMPLE],
                    &p->nvls_hop_ns};
    double *fractions[] = {nic ? &p->nic_efficiency : &p->nvlink_efficiency, &p->nvls_efficiency,
                           &p->ll_rate_share, &p->ll128_rate_share};
    pb->n = 0;
    for (int i = 0; i < 4; i++)
        pb->slot[pb->n] = ns[i], pb->is_ns[pb->n++] = true;
    for (int i = 0; i < (shares ? 4 : 2); i++)
        pb->slot[pb->n] = fractions[i], pb->is_ns[pb->n++] = false;
    if (several_step_counts(pb->net, pb->data))
        pb->slot[pb->n] = &p->launch_ns, pb->is_ns[pb->n++] = true;
    if (both_link_kinds(p, pb->net, pb->data)) {
        pb->slot[pb->n] = &p->nic_efficiency, pb->is_ns[pb->n++] = false;
        pb->slot[pb->n] = &p->nic_hop_ns, pb->is_ns[pb->n++] = true;
    }
    for (int i = 0; i < pb->n; i++) {
        pb->lo[i] = pb->is_ns[i] ? 0 : 0.01;
        pb->hi[i] = pb->is_ns[i] ? 1e9 : 1;
        if (pb->slot[i] == &p->nvlink_efficiency && pb->data->nvlink_efficiency_max > 0)
            pb->hi[i] = fmax(pb->lo[i], fmin(1, pb->data->nvlink_efficiency_max));
    }
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The worst row's |error| over its target (5 % from 1 MiB up, 15 % below):
 * at most 1 when every row holds its target. */
static double worst_row(const nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    double worst = 0;
    for (size_t i = 0; i < data->n; i++)
        worst = fmax(worst, fabs(row_error(&data->pts[i], calib_model_ticks(p, net, &data->pts[i]))));
    return worst;
}

/* The rows' phases, once a problem (see problem); false without memory. */
static bool phases_keep(problem *pb)
{
    if (pb->plans)
        return true;
    size_t rows = pb->data->n;
    pb->phases = malloc(rows * CALIB_MAX_PHASES * sizeof *pb->phases);
    pb->shapes = malloc(rows * CALIB_MAX_PHASES * sizeof *pb->shapes);
    pb->plans = malloc(rows * CALIB_MAX_PHASES * sizeof *pb->plans);
    pb->n_phases = malloc(rows);
    if (!pb->phases || !pb->shapes || !pb->plans || !pb->n_phases) {
        problem_done(pb);
        return false;
    }
    for (size_t i = 0; i < rows; i++) {
        calib_phase *ph = &pb->phases[i * CALIB_MAX_PHASES];
        pb->n_phases[i] = (uint8_t)calib_call_phases(pb->net, &pb->data->pts[i], ph);
        for (size_t k = 0; k < pb->n_phases[i]; k++)
            if (ph[k].flat_dims >= 2)
                flat_shape_find(&pb->shapes[i * CALIB_MAX_PHASES + k], pb->net, &ph[k]);
    }
    return true;
}

/* Plans every row's phases for a Nelder-Mead run (see problem); nothing
 * with the tuner, which weighs the moving parameters, or without memory
 * (each evaluation then plans it all, as calib_model_ticks). */
static void plans_keep(problem *pb)
{
    pb->kept = false;
    if (pb->base.tuner != 0 || pb->data->n == 0 || !phases_keep(pb))
        return;
    for (size_t i = 0; i < pb->data->n; i++) {
        const calib_phase *ph = &pb->phases[i * CALIB_MAX_PHASES];
        for (size_t k = 0; k < pb->n_phases[i]; k++)
            calib_phase_plan(&pb->base, pb->net, &ph[k], k == 0, &pb->plans[i * CALIB_MAX_PHASES + k]);
    }
    pb->kept = true;
}

/* calib_model_ticks of row i from its kept plans: the same launch and
 * links, planned with the current parameters. */
static uint64_t kept_ticks(const problem *pb, size_t i)
{
    const nccl_params *p = &pb->base;
    const calib_phase *ph = &pb->phases[i * CALIB_MAX_PHASES];
    uint64_t sum = 0;
    for (size_t k = 0; k < pb->n_phases[i]; k++) {
        nccl_plan plan = pb->plans[i * CALIB_MAX_PHASES + k];
        plan.launch_ticks = k == 0 ? nccl_launch_ticks(p) : 0;
        if (ph[k].flat_dims < 2)
            nccl_plan_link(p, ph[k].dim, 0, &plan);
        sum += phase_time(p, pb->net, &ph[k], &pb->shapes[i * CALIB_MAX_PHASES + k], &plan);
        if (sum >= (uint64_t)TICK_CAP)
            return (uint64_t)TICK_CAP;
    }
    return sum;
}

/* calib_cost or worst_row (pb->worst_row) from the kept plans, exact
 * when below `bound`; else some value at or above it: the rows only add
 * to the sum (or raise the worst), so the rows after one that reaches the
 * bound cannot bring it back below, and a caller that only asks whether
 * the cost is below the bound need not plan them. */
static double kept_cost(const problem *pb, double bound)
{
    double sum = 0, worst = 0;
    for (size_t i = 0; i < pb->data->n; i++) {
        double e = row_error(&pb->data->pts[i], kept_ticks(pb, i));
        sum += e * e;
        worst = fmax(worst, fabs(e));
        if ((pb->worst_row ? worst : sum) >= bound)
            break;
    }
    return pb->worst_row ? worst : sum;
}

/* The cost at x (clamped into the ranges; the clamped x is written back so
 * the simplex never leaves them), exact below `bound` (see kept_cost). */
static double eval_below(problem *pb, double *x, double bound)
{
    for (int i = 0; i < pb->n; i++) {
        x[i] = clamp(x[i], pb->lo[i], pb->hi[i]);
        *pb->slot[i] = x[i];
    }
    if (pb->kept)
        return kept_cost(pb, bound);
    return pb->worst_row ? worst_row(&pb->base, pb->net, pb->data) : calib_cost(&pb->base, pb->net, pb->data);
}

static double eval(problem *pb, double *x)
{
    return eval_below(pb, x, INFINITY);
}

static void nm_point(int n, const double *c, const double *w, double t, double *out)
{
    for (int i = 0; i < n; i++)
        out[i] = c[i] + t * (w[i] - c[i]);
}

/* Orders the simplex, best first. */
static void nm_sort(int n, double x[][MAX_CONT], double *f)
{
    for (int a = 1; a <= n; a++)
        for (int b = a; b > 0 && f[b] < f[b - 1]; b--) {
            double tf = f[b];
            f[b] = f[b - 1];
            f[b - 1] = tf;
            for (int i = 0; i < n; i++) {
                double tx = x[b][i];
                x[b][i] = x[b - 1][i];
                x[b - 1][i] = tx;
            }
        }
}

/* Nelder-Mead (reflection 1, expansion 2, contraction 1/2, shrink 1/2)
 * from the current values, a simplex of +20 % (or +100 ns / +0.05 from 0). */
static void nelder_mead(problem *pb, int iterations)
{
    int n = pb->n;
    double x[MAX_CONT + 1][MAX_CONT], f[MAX_CONT + 1];
    plans_keep(pb);
    for (int v = 0; v <= n; v++) {
        for (int i = 0; i < n; i++)
            x[v][i] = *pb->slot[i];
        if (v > 0) {
            /* +20 % (-20 % at the top of the range: a step the clamp
             * would undo leaves the simplex flat in that direction) */
            int k = v - 1;
            double *xi = &x[v][k];
            *xi = *xi == 0 ? (pb->is_ns[k] ? 100 : 0.05) : *xi * 1.2 <= pb->hi[k] ? *xi * 1.2 : *xi * 0.8;
        }
        f[v] = eval(pb, x[v]);
    }
    for (int it = 0; it < iterations; it++) {
        nm_sort(n, x, f);
        if (f[n] - f[0] <= 1e-15 * (f[0] + 1e-300))
            break;
        double c[MAX_CONT] = {0}, r[MAX_CONT], e[MAX_CONT], k[MAX_CONT];
        for (int v = 0; v < n; v++)
            for (int i = 0; i < n; i++)
                c[i] += x[v][i] / n;
        /* each trial point's cost matters only below what it must beat
         * (eval_below): the reflection is kept below f[n - 1], the
         * expansion below the reflection, the contraction below f[n] */
        nm_point(n, c, x[n], -1, r);
        double fr = eval_below(pb, r, f[n - 1]);
        if (fr < f[0]) {
            nm_point(n, c, x[n], -2, e);
            double fe = eval_below(pb, e, fr);
            memcpy(x[n], fe < fr ? e : r, sizeof r);
            f[n] = fe < fr ? fe : fr;
        } else if (fr < f[n - 1]) {
            memcpy(x[n], r, sizeof r);
            f[n] = fr;
        } else {
            nm_point(n, c, x[n], 0.5, k);
            double fk = eval_below(pb, k, f[n]);
            if (fk < f[n]) {
                memcpy(x[n], k, sizeof k);
                f[n] = fk;
            } else {
                for (int v = 1; v <= n; v++) {
                    nm_point(n, x[0], x[v], 0.5, x[v]);
                    f[v] = eval(pb, x[v]);
                }
            }
        }
    }
    int best = 0;
    for (int v = 1; v <= n; v++)
        if (f[v] < f[best])
            best = v;
    eval(pb, x[best]);
    pb->kept = false;
}

/* ---- the discrete parameters: every candidate ---------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void solve_latencies(problem *pb);

/* The candidates of a discrete search that plan every row alike (the same
 * nccl_choices for each phase, the channel count the same) give the same
 * model for any continuous parameters, so the same re-fit and cost: only
 * the first of them needs trying (ties keep the earlier anyway). Most
 * channel-min-bytes values leave every row's channels as they were, and
 * nvls-min-bytes means nothing without NVLS. */
typedef struct seen_plans {
    size_t per;           /* entries of one candidate: rows x CALIB_MAX_PHASES */
    size_t count, cap;    /* candidates remembered */
    nccl_choices *all;    /* NULL: nothing remembered, nothing skipped */
} seen_plans;

static void seen_plans_init(seen_plans *s, const calib_data *data, size_t candidates)
{
    s->per = data->n * CALIB_MAX_PHASES;
    s->count = 0;
    s->cap = candidates + 1;
    s->all = s->per ? calloc(s->cap * s->per, sizeof *s->all) : NULL;
}

/* Whether pb->base plans every row as a candidate remembered before;
 * if not, remembers it. */
static bool planned_before(seen_plans *s, const problem *pb)
{
    if (!s->all || s->count == s->cap)
        return false;
    nccl_choices *mine = s->all + s->count * s->per;
    for (size_t i = 0; i < pb->data->n; i++) {
        calib_phase ph[CALIB_MAX_PHASES];
        size_t n = calib_call_phases(pb->net, &pb->data->pts[i], ph);
        for (size_t k = 0; k < CALIB_MAX_PHASES; k++) {
            nccl_choices *c = &mine[i * CALIB_MAX_PHASES + k];
            if (k < n)
                nccl_plan_choices(&pb->base, ph[k].coll, ph[k].link.npus, ph[k].in, c);
            else
                *c = (nccl_choices){0};
        }
    }
    for (size_t j = 0; j < s->count; j++)
        if (memcmp(s->all + j * s->per, mine, s->per * sizeof *mine) == 0)
            return true;
    s->count++;
    return false;
}

/* One candidate of a discrete search, set in pb->base: re-fits the
 * continuous parameters from it briefly when asked, and keeps it in *best
 * when it is cheaper than *best_cost (ties keep the earlier one). */
static void keep_if_cheaper(problem *pb, bool refit, nccl_params *best, double *best_cost)
{
    if (refit && both_link_kinds(&pb->base, pb->net, pb->data))
        solve_latencies(pb);
    if (refit)
        nelder_mead(pb, NM_SHORT);
    double c = calib_cost(&pb->base, pb->net, pb->data);
    if (c < *best_cost) {
        *best_cost = c;
        *best = pb->base;
    }
}

/* Tries each value of `cands` for *slot, with `refit` each with the
 * continuous parameters re-fitted by a short Nelder-Mead (a threshold
 * moved alone is judged against latencies fitted to the old one, which can
 * trap the search); keeps the cheapest (ties: the current value), subject
 * to ll <= ll128. */
static void try_values(problem *pb, double *slot, const double *cands, size_t n, bool refit)
{
    nccl_params start = pb->base, best = pb->base;
    double best_cost = calib_cost(&pb->base, pb->net, pb->data);
    seen_plans seen;
    seen_plans_init(&seen, pb->data, n);
    for (size_t i = 0; i < n; i++) {
        pb->base = start;
        *slot = cands[i];
        if (pb->base.ll_max_bytes > pb->base.ll128_max_bytes || planned_before(&seen, pb))
            continue;
        keep_if_cheaper(pb, refit, &best, &best_cost);
    }
    free(seen.all);
    pb->base = best;
}

/* Thresholds only matter between the measured call sizes: the candidates
 * are 0, every call size, and "never" (the largest value). */
static size_t threshold_candidates(const problem *pb, double **out)
{
    const calib_data *data = pb->data;
    size_t most = data->n * CALIB_MAX_PHASES + 2;
    uint64_t *sizes = malloc(most * sizeof *sizes);
    double *c = malloc(most * sizeof *c);
    if (!sizes || !c) {
        free(sizes);
        free(c);
        *out = NULL;
        return 0;
    }
    size_t n = 0;
    sizes[n++] = 0;
    for (size_t i = 0; i < data->n; i++) {
        calib_phase ph[CALIB_MAX_PHASES];
        size_t phases = calib_call_phases(pb->net, &data->pts[i], ph);
        for (size_t k = 0; k < phases; k++) {
            /* each phase picks its protocol by its own call size (the NIC
             * phase of an all-reduce sees 1/n0 of it) */
            nccl_plan plan;
            calib_phase_plan(&pb->base, pb->net, &ph[k], k == 0, &plan);
            /* with scaled thresholds, the value that puts this phase on
             * the boundary: its bytes at threshold-ranks */
            double at = pb->base.threshold_ranks > 0
                            ? ceil((double)plan.call_bytes * pb->base.threshold_ranks / ph[k].link.npus)
                            : (double)plan.call_bytes;
            sizes[n++] = at < 9007199254740991.0 ? (uint64_t)at : 9007199254740991ull;
        }
    }
    sizes[n++] = 9007199254740991ull;
    qsort(sizes, n, sizeof *sizes, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || sizes[i] != sizes[m - 1])
            sizes[m++] = sizes[i];
    for (size_t i = 0; i < m; i++)
        c[i] = (double)sizes[i];
    free(sizes);
    *out = c;
    return m;
}

/* The channel count and channel-min-bytes together: the ramp of channels
 * used with the step size is their product, so one moved alone is judged
 * against the other's old value. Tries every pair (4 to 64 channels: NCCL
 * runs 8 to 32 on NVLink, more on newer GPUs; channel-min-bytes a power of
 * two, 64 B to 32 MiB) like
 * try_values does a single value. */
static void channel_pass(problem *pb, bool refit)
{
    static const double counts[] = {4, 8, 12, 16, 24, 32, 48, 64};
    nccl_params start = pb->base, best = pb->base;
    double best_cost = calib_cost(&pb->base, pb->net, pb->data);
    seen_plans seen;
    seen_plans_init(&seen, pb->data, 20);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        seen.count = 0;   /* a channel count plans apart from the others */
        for (int m = 0; m < 20; m++) {
            if (counts[c] < start.nvls_channels)
                continue;   /* NVLS's narrow count stays within the channels */
            pb->base = start;
            pb->base.channels = counts[c];
            pb->base.channel_min_bytes = (double)(1u << (6 + m));
            if (!planned_before(&seen, pb))
                keep_if_cheaper(pb, refit, &best, &best_cost);
        }
    }
    free(seen.all);
    pb->base = best;
}

/* Rows NVLS may run: all-reduce phases over more than 2 ranks. */
static bool nvls_rows(const vimana_net_config *net, const calib_data *data)
{
    for (size_t i = 0; i < data->n; i++) {
        calib_phase ph[CALIB_MAX_PHASES];
        size_t n = calib_call_phases(net, &data->pts[i], ph);
        for (size_t k = 0; k < n; k++)
            if (ph[k].coll == COLL_ALL_REDUCE && ph[k].link.npus > 2)
                return true;
    }
    return false;
}

/* Whether a row of all-reduce of `bytes` runs NVLS under pb->base. */
static bool nvls_size(const problem *pb, double bytes)
{
    for (size_t i = 0; i < pb->data->n; i++) {
        calib_phase ph[CALIB_MAX_PHASES];
        size_t n = calib_call_phases(pb->net, &pb->data->pts[i], ph);
        for (size_t k = 0; k < n; k++) {
            nccl_plan plan;
            calib_phase_plan(&pb->base, pb->net, &ph[k], k == 0, &plan);
            if (plan.algo == NCCL_ALGO_NVLS && (double)plan.call_bytes == bytes)
                return true;
        }
    }
    return false;
}

/* NVLS's narrow channel count and the size from which it runs all of
 * them, together (either alone changes nothing): k/8 of the channels,
 * k = 4..7, from each NVLS row's size. Each pair starts with the NVLS
 * efficiency scaled so that the narrow calls keep their rate (the wide
 * ones gain 8/k) and re-fits the continuous parameters briefly. */
static void nvls_channel_pass(problem *pb, const double *cands, size_t n)
{
    if (!nvls_rows(pb->net, pb->data))
        return;
    nccl_params start = pb->base, best = pb->base;
    double best_cost = calib_cost(&pb->base, pb->net, pb->data);
    for (int k = 4; k < 8; k++) {
        double narrow = floor(start.channels * k / 8);   /* k = 8: no step */
        if (narrow < 1)
            continue;
        for (size_t i = 0; i < n; i++) {
            pb->base = start;
            if (!nvls_size(pb, cands[i]))
                continue;
            pb->base.nvls_channels = narrow;
            pb->base.nvls_wide_min_bytes = cands[i];
            pb->base.nvls_efficiency = fmin(1, start.nvls_efficiency * start.channels / narrow);
            keep_if_cheaper(pb, true, &best, &best_cost);
        }
    }
    pb->base = best;
}

static void channel_values(problem *pb, bool refit)
{
    if (pb->channel_count) {
        channel_pass(pb, refit);
        return;
    }
    double channel[20];
    for (int i = 0; i < 20; i++)
        channel[i] = (double)(1u << (6 + i));   /* 64 B to 32 MiB */
    try_values(pb, &pb->base.channel_min_bytes, channel, 20, refit);
}

/* The thresholds, then the channels. Over NVLink and NIC dimensions the
 * channels first: the channel ramp sets the rate of every mid-size row of
 * every phase, and thresholds moved against the wrong ramp settle a
 * measured size off, made up for by the latencies (the two-dimension
 * sweep of calibrate.sh, from the defaults). */
static void discrete_pass(problem *pb, const double *cands, size_t n, bool refit)
{
    nccl_params *p = &pb->base;
    bool channels_first = both_link_kinds(p, pb->net, pb->data);
    if (channels_first)
        channel_values(pb, refit);
    try_values(pb, &p->ll_max_bytes, cands, n, refit);
    try_values(pb, &p->ll128_max_bytes, cands, n, refit);
    try_values(pb, &p->nvls_min_bytes, cands, n, refit);
    if (pb->tree)
        try_values(pb, &p->tree_max_bytes, cands, n, refit);
    if (!channels_first)
        channel_values(pb, refit);
}

/* Coordinate descent from pb->base: the discrete pass, then Nelder-Mead,
 * until a round gains less than a relative 1e-9 (at most 12 rounds).
 * Returns the cost reached. */
static double descend(problem *pb, const double *cands, size_t n, bool refit)
{
    double cost = calib_cost(&pb->base, pb->net, pb->data);
    for (int round = 0; round < 12; round++) {
        discrete_pass(pb, cands, n, refit);
        nelder_mead(pb, NM_ITERATIONS);
        double now = calib_cost(&pb->base, pb->net, pb->data);
        if (!(now < cost * (1 - 1e-9)))
            return now;
        cost = now;
    }
    return cost;
}

/* What a stage of the fit frees beyond the latencies, link rates and
 * thresholds. */
enum { FREE_SHARES = 1, FREE_CHANNELS = 2, SCALED_THRESHOLDS = 4, FREE_TREE = 8 };

/* The largest rank count of the rows' phases (a protocol is picked per
 * phase, over its dimension's ranks). */
static uint32_t most_ranks(const vimana_net_config *net, const calib_data *data)
{
    uint32_t m = 0;
    for (size_t i = 0; i < data->n; i++) {
        calib_phase ph[CALIB_MAX_PHASES];
        size_t n = calib_call_phases(net, &data->pts[i], ph);
        for (size_t k = 0; k < n; k++)
            m = ph[k].link.npus > m ? ph[k].link.npus : m;
    }
    return m;
}

/* The best of the two descents (see calib_fit) from *p, freeing `what`. */
/* The tree's efficiency joins the continuous parameters of pb, up to 2:
 * on a flattened multi-node dimension the tree sends less than the ring
 * over the NIC the dimension hides, so it can beat the ring's rate. */
static void bind_tree(problem *pb)
{
    pb->tree = true;
    pb->slot[pb->n] = &pb->base.tree_efficiency;
    pb->is_ns[pb->n] = false;
    pb->lo[pb->n] = 0.01;
    pb->hi[pb->n++] = 2;
}

static double two_descents(nccl_params *p, const vimana_net_config *net, const calib_data *data, int what)
{
    if (what & SCALED_THRESHOLDS)
        p->threshold_ranks = most_ranks(net, data);
    problem plain = {.base = *p, .net = net, .data = data, .channel_count = what & FREE_CHANNELS};
    bind(&plain, what & FREE_SHARES);
    problem refit = {.base = *p, .net = net, .data = data, .channel_count = what & FREE_CHANNELS};
    bind(&refit, what & FREE_SHARES);   /* its slots point into its own base */
    if (what & FREE_TREE) {
        bind_tree(&plain);
        bind_tree(&refit);
    }
    double *cands;
    size_t n = threshold_candidates(&plain, &cands);
    double c_plain = descend(&plain, cands, n, false);
    double c_refit = descend(&refit, cands, n, true);
    free(cands);
    problem_done(&plain);
    problem_done(&refit);
    *p = c_refit < c_plain ? refit.base : plain.base;
    return c_refit < c_plain ? c_refit : c_plain;
}

/* A pattern search (Hooke-Jeeves without the pattern move) from the fit's
 * result: each parameter in turn tries +- its step, keeping what lowers the
 * cost; a round without a gain halves the steps, from 5 % of each value
 * (1 ns / 0.01 from 0) down to a millionth of it. Nelder-Mead's simplex
 * collapses in the narrow valleys where a rate share trades against the
 * latencies; one parameter at a time walks their floor. The rate shares
 * move only when the fit kept them away from 1. */
static void polish(nccl_params *p, const vimana_net_config *net, const calib_data *data, bool worst)
{
    problem pb = {.base = *p, .net = net, .data = data, .worst_row = worst};
    bind(&pb, p->ll_rate_share != 1 || p->ll128_rate_share != 1);
    plans_keep(&pb);   /* the search moves none of what the plans choose, as Nelder-Mead */
    double step[MAX_CONT], x[MAX_CONT];
    for (int i = 0; i < pb.n; i++) {
        x[i] = *pb.slot[i];
        step[i] = x[i] != 0 ? 0.05 * x[i] : pb.is_ns[i] ? 1 : 0.01;
    }
    double cost = eval(&pb, x);
    for (int round = 0; round < 400; round++) {
        bool gained = false, fine = true;
        for (int i = 0; i < pb.n; i++) {
            for (int sign = -1; sign <= 1; sign += 2) {
                double was = x[i];
                x[i] = was + sign * step[i];
                double c = eval_below(&pb, x, cost);   /* kept only below the cost */
                if (c < cost) {
                    cost = c;
                    gained = true;
                    break;
                }
                x[i] = was;
            }
            if (step[i] > 1e-6 * (x[i] != 0 ? x[i] : 1))
                fine = false;
        }
        if (!gained) {
            if (fine)
                break;
            for (int i = 0; i < pb.n; i++)
                step[i] /= 2;
        }
    }
    eval(&pb, x);
    problem_done(&pb);
    *p = pb.base;
}

/* NVLS's channel step, after the stages, from their best fit: the step only
 * pays once the NVLS rows' rate is fitted (from the defaults the search
 * settles the step at the wrong size and makes up with the latencies). */
static void nvls_step(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    problem pb = {.base = *p, .net = net, .data = data};
    bind(&pb, p->ll_rate_share != 1 || p->ll128_rate_share != 1);
    double *cands;
    size_t n = threshold_candidates(&pb, &cands);
    nccl_params before = pb.base;
    nvls_channel_pass(&pb, cands, n);
    if (pb.base.nvls_channels != before.nvls_channels) {
        descend(&pb, cands, n, true);
        if (calib_cost(&pb.base, net, data) < calib_cost(&before, net, data))
            *p = pb.base;
    }
    free(cands);
    problem_done(&pb);
}

/* The largest |relative error| of the rows from 1 MiB up and below. */
static void largest_errors(const nccl_params *p, const vimana_net_config *net, const calib_data *data, double *big,
                           double *small)
{
    *big = *small = 0;
    for (size_t i = 0; i < data->n; i++) {
        double m = data->pts[i].measured_ns;
        double e = fabs(((double)calib_model_ticks(p, net, &data->pts[i]) - m) / m);
        double *worst = data->pts[i].tests_bytes >= 1048576 ? big : small;
        *worst = e > *worst ? e : *worst;
    }
}

/* Whether q is 1 % cheaper than p and its worst row, each row's |error|
 * over its target, is no worse. */
static bool better_fit(const nccl_params *q, const nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    double qb, qs, pb, ps;
    largest_errors(q, net, data, &qb, &qs);
    largest_errors(p, net, data, &pb, &ps);
    /* the worst row measured against its target (5 % from 1 MiB up, 15 %
     * below): trading a little of one range for much of the other counts
     * (a flat ring of 64 ranks pays 126 network latencies where the tree
     * pays 12: +98 % below 1 MiB, 2 % above; the tree gives 11 % and 2.4 %) */
    double qw = fmax(qb / 0.05, qs / 0.15), pw = fmax(pb / 0.05, ps / 0.15);
    return calib_cost(q, net, data) < calib_cost(p, net, data) * 0.99 && qw <= pw;
}

/* The steps' overlap with their messages, last but the polish: from the
 * best fit, hop-overlap free beside the latencies and rates, kept when it
 * lowers the cost by 1 % and the worst row against its target is no worse (the per-step
 * latency and the overlap trade against each other on a curve that does
 * not need it). */
static void overlap_step(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    problem pb = {.base = *p, .net = net, .data = data};
    bind(&pb, p->ll_rate_share != 1 || p->ll128_rate_share != 1);
    pb.slot[pb.n] = &pb.base.hop_overlap;
    pb.is_ns[pb.n] = false;
    pb.lo[pb.n] = 0;
    pb.hi[pb.n++] = 1;
    double *cands;
    size_t n = threshold_candidates(&pb, &cands);
    /* from full overlap (a step takes max(message, hop)): from half, the
     * descent settles where the latencies make up for the rest */
    pb.base.hop_overlap = 1;
    descend(&pb, cands, n, true);
    nccl_params best = better_fit(&pb.base, p, net, data) ? pb.base : *p;
    free(cands);
    problem_done(&pb);
    *p = best;
}

/* Rows the tree may run: all-reduces over more than 2 ranks. */
static bool tree_rows(const calib_data *data)
{
    for (size_t i = 0; i < data->n; i++)
        if (data->pts[i].coll == COLL_ALL_REDUCE && data->pts[i].npus > 2)
            return true;
    return false;
}

/* NCCL's tree below a size, ring above (what NCCL does across nodes: the
 * tree's fewer steps win the small and middle sizes, the ring's rate the
 * large ones; measured as a step in the bus bandwidth, e.g. 94 -> 135 GB/s
 * at 64 MiB on two A100 nodes). A stage of its own from the fit's start
 * with the tree on every row (`tree-max-bytes` past the largest; from the
 * ring's best fit the latencies sit in the ring's valley and no single
 * threshold move leaves it), `tree-max-bytes` in the discrete pass and
 * `tree-efficiency` among the continuous parameters; kept like the
 * overlap: 1 % cheaper and the worst row no worse (one node's sweeps
 * keep the ring). */
static void tree_step(nccl_params *p, const nccl_params *start, const vimana_net_config *net,
                      const calib_data *data)
{
    if (!tree_rows(data))
        return;
    nccl_params q = *start;
    q.tree_max_bytes = 9007199254740991.0;
    two_descents(&q, net, data, FREE_SHARES | FREE_CHANNELS | FREE_TREE);
    if (better_fit(&q, p, net, data))
        *p = q;
}

/* The per-step latencies and the launch overhead enter a call's time
 * linearly (each step waits its latency once, with hop-overlap 0): for
 * the rates as they are, the latencies that minimise the cost solve a
 * linear least-squares problem. Over several dimensions the NIC's step
 * latency starts at 0, far from most systems', and Nelder-Mead stalls on
 * the way there (the latencies of the two kinds of steps trade), so the
 * fit solves them: at its start and for each discrete candidate. The
 * latencies pb binds are solved (below 0: clamped to 0); a latency no row
 * waits keeps its value. */
static void solve_latencies(problem *pb)
{
    double *col[MAX_CONT], ata[MAX_CONT][MAX_CONT + 1] = {{0}};
    int m = 0;
    for (int j = 0; j < pb->n; j++)
        if (pb->is_ns[j])
            col[m++] = pb->slot[j];
    nccl_params *p = &pb->base;
    for (size_t i = 0; i < pb->data->n; i++) {
        const calib_point *pt = &pb->data->pts[i];
        double scale = pt->measured_ns * (pt->tests_bytes >= 1048576 ? 0.05 : 0.15);
        double t0 = (double)calib_model_ticks(p, pb->net, pt), a[MAX_CONT];
        for (int j = 0; j < m; j++) {
            /* the steps that wait this latency: the time of 1 us more */
            *col[j] += 1000;
            a[j] = ((double)calib_model_ticks(p, pb->net, pt) - t0) / 1000 / scale;
            *col[j] -= 1000;
        }
        double r = (pt->measured_ns - t0) / scale;
        for (int j = 0; j < m; j++) {
            for (int k = 0; k < m; k++)
                ata[j][k] += a[j] * a[k];
            ata[j][m] += a[j] * r;
        }
    }
    /* Gauss-Jordan with partial pivoting; the small ridge leaves an
     * unused latency where it is */
    for (int j = 0; j < m; j++)
        ata[j][j] += 1e-9;
    for (int c = 0; c < m; c++) {
        int pivot = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(ata[r][c]) > fabs(ata[pivot][c]))
                pivot = r;
        for (int k = 0; k <= m; k++) {
            double t = ata[c][k];
            ata[c][k] = ata[pivot][k];
            ata[pivot][k] = t;
        }
        for (int r = 0; r < m; r++) {
            if (r == c)
                continue;
            double f = ata[r][c] / ata[c][c];
            for (int k = c; k <= m; k++)
                ata[r][k] -= f * ata[c][k];
        }
    }
    for (int j = 0; j < m; j++)
        *col[j] = clamp(*col[j] + ata[j][m] / ata[j][j], 0, 1e9);
}

/* The start over several dimensions: the latencies solved and the rates
 * fitted, in turns. */
static void start_latencies(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    problem pb = {.base = *p, .net = net, .data = data};
    bind(&pb, false);
    for (int round = 0; round < 4; round++) {
        solve_latencies(&pb);
        nelder_mead(&pb, NM_ITERATIONS);
    }
    problem_done(&pb);
    *p = pb.base;
}

/* The least-squares fit is the fit; only where it leaves a row outside
 * its target, the same pattern search walks the worst row against its
 * target down instead (a minimax fit from there), and its result is kept
 * when every row then holds its target (a margin of 0.1 % of the target
 * for the rounding of the preset): the least-squares optimum spreads the
 * error over all rows, a row just past its bound (B200's all-to-all at
 * 4 MiB, 5.04 %) is met by moving the others within theirs. */
static void hold_targets(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    if (worst_row(p, net, data) <= 1)
        return;
    nccl_params q = *p;
    polish(&q, net, data, true);
    if (worst_row(&q, net, data) <= 0.999)
        *p = q;
}

/* The cost has several valleys (a threshold one measured size off, made
 * up for by the latencies): each stage runs two descents from the same
 * start, one moving each discrete value alone, one re-fitting the
 * latencies for each, and keeps the cheaper. More free parameters widen
 * the valleys, so the stages add them one at a time, each starting from
 * the best so far and kept only when it is 1 % cheaper: first the latencies,
 * link rates, thresholds and channel-min-bytes (the LL / LL128 rate shares
 * and the channel count as given), then the rate shares free, then the
 * channel count too, then the protocol thresholds scaled with the rank
 * count (threshold-ranks the largest count measured: only rows on several
 * counts can tell); the last once more from the first start (the valley
 * the earlier stages settled in is not always the deepest). */
static void fit_stages(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    static const int stages[] = {0, FREE_SHARES, FREE_SHARES | FREE_CHANNELS,
                                 FREE_SHARES | FREE_CHANNELS | SCALED_THRESHOLDS};
    if (both_link_kinds(p, net, data))
        start_latencies(p, net, data);
    const nccl_params start = *p;
    double best = INFINITY;
    for (size_t i = 0; i <= sizeof stages / sizeof stages[0]; i++) {
        bool again = i == sizeof stages / sizeof stages[0];
        nccl_params next = again ? start : *p;
        double cost = two_descents(&next, net, data, again ? FREE_SHARES | FREE_CHANNELS : stages[i]);
        /* a stage freeing more must earn it: 1 % lower, not a rounding
         * residue traded between a share and a latency */
        if (cost < best * 0.99) {
            best = cost;
            *p = next;
        }
    }
    tree_step(p, &start, net, data);
    nvls_step(p, net, data);
    overlap_step(p, net, data);
    polish(p, net, data, false);
    hold_targets(p, net, data);
}

/* The fit without the NVLink ceiling first: where it stays below, the
 * ceiling changes nothing (a bound moves the descent into other valleys
 * even where it does not bind); else again from the start, bounded. */
void calib_fit(nccl_params *p, const vimana_net_config *net, const calib_data *data)
{
    calib_data unbounded = *data;
    unbounded.nvlink_efficiency_max = 0;
    nccl_params free_fit = *p;
    fit_stages(&free_fit, net, &unbounded);
    double max = data->nvlink_efficiency_max;
    if (max <= 0 || free_fit.nvlink_efficiency <= max) {
        *p = free_fit;
        return;
    }
    p->nvlink_efficiency = fmin(p->nvlink_efficiency, max);
    fit_stages(p, net, data);
}
