/* The NCCL-aware model's phase plan (see the header; docs/nccl.md gives
 * the same rules as formulas). */
#include "system/algorithms/nccl_model.h"

#include <math.h>

const char *nccl_algo_name(enum nccl_algo a)
{
    static const char *const names[NCCL_ALGOS] = {"ring", "tree", "nvls"};
    return a < NCCL_ALGOS ? names[a] : "?";
}

const char *nccl_proto_name(enum nccl_proto p)
{
    static const char *const names[NCCL_PROTOS] = {"LL", "LL128", "Simple"};
    return p < NCCL_PROTOS ? names[p] : "?";
}

/* ns to ticks (1 tick = 1 ns), to the nearest */
static uint64_t ticks(double ns)
{
    return (uint64_t)llround(ns);
}

static uint32_t ceil_log2(uint32_t n)
{
    uint32_t d = 0;
    while ((1ull << d) < n)
        d++;
    return d;
}

static bool on_nvlink(const nccl_params *p, uint32_t dim)
{
    return (double)dim < p->nvlink_dims;
}

/* The thresholds' verdicts on a call of `bytes` over n ranks, the only
 * way the choice of algorithm and protocol reads the thresholds (so that
 * nccl_plan_choices can say when two sets of them plan alike). With
 * threshold-ranks N the protocol thresholds are those of N ranks, scaled
 * by n / N: the faster protocol's extra latency per step is paid back
 * above a size that grows with the step count, ~ the rank count. */
static uint32_t threshold_verdicts(const nccl_params *p, uint32_t n, uint64_t bytes)
{
    double scale = p->threshold_ranks > 0 ? (double)n / p->threshold_ranks : 1.0;
    uint32_t v = 0;
    if (p->nvls != 0 && (double)bytes >= p->nvls_min_bytes)
        v |= NCCL_NVLS_SIZE;
    if ((double)bytes < p->tree_max_bytes)
        v |= NCCL_TREE_SIZE;
    if ((double)bytes <= p->ll_max_bytes * scale)
        v |= NCCL_LL_SIZE;
    if ((double)bytes <= p->ll128_max_bytes * scale)
        v |= NCCL_LL128_SIZE;
    return v;
}

/* NCCL picks the algorithm by the call's size: NVLS for large all-reduces
 * on an NVSwitch with SHARP, tree below its threshold, ring otherwise. */
static enum nccl_algo pick_algo(uint32_t verdicts, enum coll_kind coll, uint32_t n, bool nvlink_only)
{
    if (coll != COLL_ALL_REDUCE || n <= 2)
        return NCCL_ALGO_RING;
    if (nvlink_only && (verdicts & NCCL_NVLS_SIZE))
        return NCCL_ALGO_NVLS;
    if (verdicts & NCCL_TREE_SIZE)
        return NCCL_ALGO_TREE;
    return NCCL_ALGO_RING;
}

/* NCCL picks the protocol by its cost model, which the thresholds stand
 * for. */
static enum nccl_proto pick_proto(uint32_t verdicts, enum nccl_algo a)
{
    if (a == NCCL_ALGO_NVLS)
        return NCCL_PROTO_SIMPLE;   /* NVLS runs Simple only */
    if (verdicts & NCCL_LL_SIZE)
        return NCCL_PROTO_LL;
    if (verdicts & NCCL_LL128_SIZE)
        return NCCL_PROTO_LL128;
    return NCCL_PROTO_SIMPLE;
}

/* floor(in * num / den) without overflow (num < den) */
static uint64_t share_of(uint64_t in, uint64_t num, uint64_t den)
{
    return in / den * num + in % den * num / den;
}

/* Steps and data per step of each algorithm (docs/nccl.md, "Steps"). */
static void steps_of(enum nccl_algo a, enum coll_kind coll, uint32_t n, uint64_t in, nccl_plan *out)
{
    switch (a) {
    case NCCL_ALGO_NVLS:
        /* the switch reads every NPU's whole buffer to reduce each NPU's
         * 1/n (multimem load-reduce), then each NPU stores its reduced 1/n
         * once and the switch multicasts it to all: each NPU's egress and
         * ingress carry in + in/n, concurrently, over two hops - about the
         * buffer whatever n, where a ring's 2(n-1)/n falls with n */
        out->steps = 2;
        out->step_bytes = share_of(in, n + 1, 2 * (uint64_t)n);
        return;
    case NCCL_ALGO_TREE: {
        /* up the tree and down again, pipelined: 2 depth steps of in/depth */
        uint32_t depth = ceil_log2(n);
        out->steps = 2 * depth;
        out->step_bytes = in / depth;
        return;
    }
    case NCCL_ALGO_RING:
    default:
        out->steps = coll == COLL_ALL_REDUCE ? 2 * (n - 1) : n - 1;
        out->step_bytes = coll == COLL_ALL_GATHER ? in : in / n;
        return;
    }
}

/* The most channels the call runs: NCCL gives NVLS fewer channels (SMs)
 * below a size and all of them from there (nvls-channels below
 * nvls-wide-min-bytes); 0 nvls-channels: no such step. */
static double channel_cap(const nccl_params *p, enum nccl_algo a, uint64_t call_bytes)
{
    if (a == NCCL_ALGO_NVLS && p->nvls_channels > 0 && (double)call_bytes < p->nvls_wide_min_bytes)
        return p->nvls_channels;
    return p->channels;
}

/* Steps, data per step and channels of algorithm `a` with protocol
 * `proto` (algo, proto and call_bytes set in out). */
static void plan_algo(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, nccl_plan *out)
{
    steps_of(out->algo, coll, n, in_size, out);
    if (out->step_bytes == 0)
        out->step_bytes = 1;
    double per_channel = floor((double)out->step_bytes / p->channel_min_bytes);
    double cap = channel_cap(p, out->algo, out->call_bytes);
    out->channels_used = per_channel < 1 ? 1 : per_channel > cap ? (uint32_t)cap : (uint32_t)per_channel;
}

static bool route_known(const nccl_route *r)
{
    if (!r || r->n_dims == 0 || r->n_dims > NCCL_MAX_DIMS)
        return false;
    for (uint32_t i = 0; i < r->n_dims; i++)
        if (!(r->bytes_per_ns[i] > 0))
            return false;
    return true;
}

/* The tuner's candidates: what NCCL could run for this call, within the
 * thresholds, which here bound a choice rather than make it (NCCL's own
 * protocol and algorithm limits). Tree and NVLS are all-reduces over
 * more than 2 ranks, tree below tree-max-bytes, NVLS from nvls-min-bytes
 * with SHARP switches on every dimension; LL up to ll-max-bytes, LL128 up
 * to ll128-max-bytes (both x n / threshold-ranks), Simple always. */
static bool algo_allowed(uint32_t verdicts, enum nccl_algo a, enum coll_kind coll, uint32_t n, bool nvlink_only)
{
    if (a == NCCL_ALGO_RING)
        return true;
    if (coll != COLL_ALL_REDUCE || n <= 2)
        return false;
    if (a == NCCL_ALGO_TREE)
        return verdicts & NCCL_TREE_SIZE;
    return nvlink_only && (verdicts & NCCL_NVLS_SIZE);
}

static bool proto_allowed(uint32_t verdicts, enum nccl_algo a, enum nccl_proto pr)
{
    if (a == NCCL_ALGO_NVLS)
        return pr == NCCL_PROTO_SIMPLE;   /* NVLS runs Simple only */
    if (pr == NCCL_PROTO_LL)
        return verdicts & NCCL_LL_SIZE;
    if (pr == NCCL_PROTO_LL128)
        return verdicts & NCCL_LL128_SIZE;
    return true;
}

/* NCCL's tuner: of the candidates, the one of the lowest estimated time
 * (strictly lower: the earlier wins a tie). Ring with Simple is always
 * one. */
static void plan_tuned(const nccl_params *p, enum coll_kind coll, uint32_t n, bool nvlink_only, uint64_t in_size,
                       const nccl_route *route, nccl_plan *out)
{
    nccl_plan best = *out, cand;
    double best_ns = INFINITY;
    uint32_t verdicts = threshold_verdicts(p, n, out->call_bytes);
    for (int a = 0; a < NCCL_ALGOS; a++) {
        if (!algo_allowed(verdicts, (enum nccl_algo)a, coll, n, nvlink_only))
            continue;
        for (int pr = 0; pr < NCCL_PROTOS; pr++) {
            if (!proto_allowed(verdicts, (enum nccl_algo)a, (enum nccl_proto)pr))
                continue;
            cand = *out;
            cand.algo = (enum nccl_algo)a;
            cand.proto = (enum nccl_proto)pr;
            plan_algo(p, coll, n, in_size, &cand);
            double ns = nccl_plan_estimate(p, &cand, route);
            if (ns < best_ns) {
                best_ns = ns;
                best = cand;
            }
        }
    }
    *out = best;
}

/* The call's bytes and launch: what every plan of the call shares. */
static void plan_start(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, bool first,
                       nccl_plan *out)
{
    *out = (nccl_plan){0};
    /* saturated: a size past 2^64 B is past every threshold anyway */
    out->call_bytes = coll != COLL_ALL_GATHER ? in_size : n && in_size > UINT64_MAX / n ? UINT64_MAX : in_size * n;
    out->launch_ticks = first ? nccl_launch_ticks(p) : 0;
}

uint64_t nccl_launch_ticks(const nccl_params *p)
{
    return ticks(p->launch_ns);
}

void nccl_plan_chosen(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, bool first,
                      enum nccl_algo algo, enum nccl_proto proto, nccl_plan *out)
{
    plan_start(p, coll, n, in_size, first, out);
    if (n < 2)
        return;
    out->algo = algo;
    out->proto = proto;
    plan_algo(p, coll, n, in_size, out);
}

void nccl_plan_call(const nccl_params *p, enum coll_kind coll, uint32_t n, bool nvlink_only, uint64_t in_size,
                    bool first, const nccl_route *route, nccl_plan *out)
{
    plan_start(p, coll, n, in_size, first, out);
    if (n < 2)
        return;
    if (p->tuner != 0 && route_known(route)) {
        plan_tuned(p, coll, n, nvlink_only, in_size, route, out);
        return;
    }
    uint32_t verdicts = threshold_verdicts(p, n, out->call_bytes);
    out->algo = pick_algo(verdicts, coll, n, nvlink_only);
    out->proto = pick_proto(verdicts, out->algo);
    plan_algo(p, coll, n, in_size, out);
}

void nccl_plan_choices(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, nccl_choices *out)
{
    *out = (nccl_choices){0};
    nccl_plan plan;
    plan_start(p, coll, n, in_size, false, &plan);
    if (n < 2)
        return;
    out->verdicts = threshold_verdicts(p, n, plan.call_bytes);
    for (int a = 0; a < NCCL_ALGOS; a++) {
        plan.algo = (enum nccl_algo)a;
        plan_algo(p, coll, n, in_size, &plan);
        out->channels_used[a] = plan.channels_used;
    }
}

double nccl_plan_estimate(const nccl_params *p, const nccl_plan *call, const nccl_route *route)
{
    double step = 0;
    for (uint32_t i = 0; i < route->n_dims; i++) {
        nccl_plan link = *call;
        nccl_plan_link(p, route->dim[i], route->rails, &link);
        double wire = (double)link.wire_bytes / route->bytes_per_ns[i];
        double under = wire < (double)link.hop_ticks ? wire : (double)link.hop_ticks;
        double t = wire + (double)link.hop_ticks - p->hop_overlap * under;
        if (t > step)
            step = t;
    }
    return (double)call->launch_ticks + (double)call->steps * step;
}

void nccl_plan_link(const nccl_params *p, uint32_t dim, uint32_t rails, nccl_plan *out)
{
    if (out->steps == 0)
        return;
    bool nvlink = on_nvlink(p, dim);
    double link = out->algo == NCCL_ALGO_NVLS ? p->nvls_efficiency
                  : nvlink                   ? p->nvlink_efficiency
                                             : p->nic_efficiency;
    if (out->algo == NCCL_ALGO_TREE)
        link *= p->tree_efficiency;
    /* LL and LL128 move data at a share of Simple's rate: their threads
     * write and poll a flag with every line (NCCL's tuning model caps them) */
    double rate = out->proto == NCCL_PROTO_LL      ? p->ll_rate_share
                  : out->proto == NCCL_PROTO_LL128 ? p->ll128_rate_share
                                                   : 1.0;
    double efficiency = p->payload[out->proto] * rate * link;
    /* a channel has 1/channels of a GPU's link; a flat ring's step over
     * the NIC spreads its channels over the node's NICs (one a GPU, at the
     * dimension's rate each): NCCL maps its channels to NICs in turn */
    double share = rails > 0 && !nvlink ? (double)(out->channels_used < rails ? out->channels_used : rails)
                                        : (double)out->channels_used / p->channels;
    double wire = ceil((double)out->step_bytes / (efficiency * share));
    /* beyond 2^62 bytes no backend delivers within 64-bit ticks: it says so */
    out->wire_bytes = wire < 4611686018427387904.0 ? (uint64_t)wire : 4611686018427387904ull;
    /* a step over the NIC also waits for NCCL's network proxy (it posts the
     * RDMA write and polls its completion): NCCL's cost model gives network
     * steps a latency of their own */
    double hop = out->algo == NCCL_ALGO_NVLS ? p->nvls_hop_ns
                 : nvlink                    ? p->hop_ns[out->proto]
                                             : p->hop_ns[out->proto] + p->nic_hop_ns;
    out->hop_ticks = ticks(hop);
}

void nccl_plan_phase(const nccl_params *p, enum coll_kind coll, uint32_t n, uint32_t dim, double bytes_per_ns,
                     uint64_t in_size, bool first, nccl_plan *out)
{
    nccl_route route = {.n_dims = 1, .dim = {dim}, .bytes_per_ns = {bytes_per_ns}};
    nccl_plan_call(p, coll, n, on_nvlink(p, dim), in_size, first, &route, out);
    nccl_plan_link(p, dim, 0, out);
}

/* ---- one ring over every NPU of several dimensions ------------------------ */

uint32_t nccl_flat_npu(const uint32_t *size, uint32_t n_dims, uint32_t pos)
{
    uint32_t stride = 1;
    for (uint32_t d = 0; d + 1 < n_dims; d++)
        stride *= size[d];
    uint32_t npu = 0, rem = pos;
    /* top down: a block whose digit above is odd runs backwards */
    for (uint32_t d = n_dims; d-- > 0;) {
        uint32_t c = rem / stride;
        rem %= stride;
        if (c & 1)
            rem = stride - 1 - rem;
        npu += c * stride;
        if (d > 0)
            stride /= size[d - 1];
    }
    return npu;
}

uint32_t nccl_flat_pos(const uint32_t *size, uint32_t n_dims, uint32_t npu)
{
    /* bottom up: the position within the block of dimensions 0..d */
    uint32_t pos = 0, stride = 1;
    for (uint32_t d = 0; d < n_dims; d++) {
        uint32_t c = npu / stride % size[d];
        pos = c * stride + (c & 1 ? stride - 1 - pos : pos);
        stride *= size[d];
    }
    return pos;
}

uint32_t nccl_flat_dim(const uint32_t *size, uint32_t n_dims, uint32_t a, uint32_t b)
{
    for (uint32_t d = 0; d + 1 < n_dims; d++) {
        if (a % size[d] != b % size[d])
            return d;
        a /= size[d];
        b /= size[d];
    }
    return n_dims ? n_dims - 1 : 0;
}

uint32_t nccl_flat_rails(const nccl_params *p, const uint32_t *size, uint32_t n_dims)
{
    uint32_t rails = 1;
    for (uint32_t d = 0; d < n_dims && on_nvlink(p, d); d++)
        rails *= size[d];
    return rails;
}

bool nccl_flat_nvlink_only(const nccl_params *p, const uint32_t *size, uint32_t n_dims)
{
    for (uint32_t d = 0; d < n_dims; d++)
        if (size[d] > 1 && !on_nvlink(p, d))
            return false;
    return true;
}
