/*
 * nccl_model.h - the NCCL-aware model's plan of one phase (docs/nccl.md):
 * which algorithm and protocol NCCL picks for the call, how many steps it
 * runs, the bytes each step puts on the wire and the waits around them.
 * Pure arithmetic on the parameters: the nccl algorithm (nccl.c) runs the
 * plan as messages through the backend, and `vimana calibrate` uses it for
 * the closed form of a call's time.
 */
#ifndef VIMANA_SYSTEM_ALGORITHMS_NCCL_MODEL_H
#define VIMANA_SYSTEM_ALGORITHMS_NCCL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "config/nccl_params.h"
#include "config/system_config.h"

typedef struct nccl_plan {
    enum nccl_algo algo;
    enum nccl_proto proto;
    uint64_t call_bytes;     /* the size the thresholds compare: the whole buffer */
    uint32_t steps;          /* messages each NPU sends (and receives), one after another */
    uint64_t step_bytes;     /* data per step and NPU */
    uint32_t channels_used;  /* channels the step's data is split over */
    uint64_t wire_bytes;     /* what each message carries: data / payload / efficiency / channel share */
    uint64_t hop_ticks;      /* the protocol's wait after each step */
    uint64_t launch_ticks;   /* before the first step (the call's first phase only) */
} nccl_plan;

#define NCCL_MAX_DIMS 16

/* The links a call's steps cross, for the tuner's estimate (`tuner` 1):
 * physical dimensions dim[0..n_dims) at bytes_per_ns each (GB/s per NPU
 * and direction, as the backend reports them), `rails` as for
 * nccl_plan_link (0: one dimension's link; above: a flat ring's NICs). */
typedef struct nccl_route {
    uint32_t n_dims;
    uint32_t dim[NCCL_MAX_DIMS];
    double bytes_per_ns[NCCL_MAX_DIMS];
    uint32_t rails;
} nccl_route;

/* Plans the phase of collective `coll` over `n` NPUs of logical dimension
 * `dim` (its link at `bytes_per_ns`, which only the tuner reads) with
 * `in_size` bytes entering; `first` when it is the call's first phase
 * (the launch overhead). */
void nccl_plan_phase(const nccl_params *p, enum coll_kind coll, uint32_t n, uint32_t dim, double bytes_per_ns,
                     uint64_t in_size, bool first, nccl_plan *out);
/* The launch overhead in whole ticks: a call's first phase waits it
 * before its first step (launch_ticks). */
uint64_t nccl_launch_ticks(const nccl_params *p);
/* The parts of the plan the whole phase shares: call bytes, launch,
 * algorithm, protocol, steps, data per step, channels. `nvlink_only`:
 * every dimension the ring spans is NVLink (NVLS needs it). With `tuner`
 * 1 the algorithm and protocol are those of the lowest nccl_plan_estimate
 * over `route` (ties: ring before tree before NVLS, LL before LL128
 * before Simple); without a route, or a link of no known rate on it, the
 * thresholds choose. */
void nccl_plan_call(const nccl_params *p, enum coll_kind coll, uint32_t n, bool nvlink_only, uint64_t in_size,
                    bool first, const nccl_route *route, nccl_plan *out);
/* nccl_plan_call with the algorithm and protocol already chosen (a
 * call's later steps re-plan the choice its start made). */
void nccl_plan_chosen(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, bool first,
                      enum nccl_algo algo, enum nccl_proto proto, nccl_plan *out);
/* What the discrete parameters decide of a call's plan: the thresholds'
 * verdicts on its size (NCCL_*_SIZE bits) and the channels each algorithm
 * would run. The planners read the thresholds, channel-min-bytes,
 * nvls-channels and nvls-wide-min-bytes only through these: two parameter
 * sets that differ only there (the channel count the same) and agree on a
 * call's choices plan it alike for any latencies, rates and shares, which
 * lets calibrate skip a candidate that plans every row as an earlier one
 * did. */
enum {
    NCCL_NVLS_SIZE = 1,    /* NVLS on and the size at least nvls-min-bytes */
    NCCL_TREE_SIZE = 2,    /* below tree-max-bytes */
    NCCL_LL_SIZE = 4,      /* at most ll-max-bytes (scaled by threshold-ranks) */
    NCCL_LL128_SIZE = 8    /* at most ll128-max-bytes (likewise) */
};
typedef struct nccl_choices {
    uint32_t verdicts;
    uint32_t channels_used[NCCL_ALGOS];
} nccl_choices;
void nccl_plan_choices(const nccl_params *p, enum coll_kind coll, uint32_t n, uint64_t in_size, nccl_choices *out);
/* The tuner's estimate of a call planned by nccl_plan_call (ns): launch +
 * steps x the slowest link's step on `route`, a step being its wire bytes
 * over the link's rate and the protocol's wait after it (nccl_step_wait);
 * the links' own latencies left out, as NCCL's tuner knows none. */
double nccl_plan_estimate(const nccl_params *p, const nccl_plan *call, const nccl_route *route);
/* The parts of a message over physical dimension `dim` (NVLink or NIC by
 * nvlink-dims): wire bytes and the wait after it. `rails` 0: the link of
 * one dimension (a channel has 1/channels of it); above 0: a flat ring's
 * step over the NIC, its channels spread over that many NICs of the node
 * (docs/nccl.md, "Several dimensions"). nccl_plan_phase is
 * nccl_plan_call then nccl_plan_link(dim, 0). */
void nccl_plan_link(const nccl_params *p, uint32_t dim, uint32_t rails, nccl_plan *out);

/* One ring over every NPU of a network of `n_dims` dimensions of
 * `size[d]` NPUs (oneNccl on several dimensions) runs in snake order
 * (the reflected mixed-radix Gray code): dimension 0 first, every other
 * block backwards, so that each step changes one coordinate by one, as
 * NCCL's ring leaves a node from one GPU to the same GPU of the next
 * (its NIC's rail). The NPU at ring position `pos`, and back. */
uint32_t nccl_flat_npu(const uint32_t *size, uint32_t n_dims, uint32_t pos);
uint32_t nccl_flat_pos(const uint32_t *size, uint32_t n_dims, uint32_t npu);
/* The lowest dimension whose coordinates of NPUs a and b differ: the one
 * the analytical backend charges (the last when they all agree). */
uint32_t nccl_flat_dim(const uint32_t *size, uint32_t n_dims, uint32_t a, uint32_t b);
/* The NICs of a node a flat ring's NIC step spreads over: the NPUs of the
 * NVLink dimensions (one NIC a GPU), at least 1. */
uint32_t nccl_flat_rails(const nccl_params *p, const uint32_t *size, uint32_t n_dims);
/* Whether every dimension of more than one NPU is an NVLink one. */
bool nccl_flat_nvlink_only(const nccl_params *p, const uint32_t *size, uint32_t n_dims);
/* The wait after a step whose message took `elapsed` ticks in the
 * network: the hop latency less the share `overlap` (hop-overlap) of it
 * that ran while the message was in flight (at most all of the message's
 * time). Inline: calibrate's closed form runs it for every step of every
 * NPU of millions of calls. */
static inline uint64_t nccl_overlap_wait(double overlap, uint64_t hop_ticks, uint64_t elapsed)
{
    uint64_t under = elapsed < hop_ticks ? elapsed : hop_ticks;
    /* the cast truncates a non-negative value: floor, without a call */
    uint64_t hidden = (uint64_t)(overlap * (double)under);
    return hop_ticks - (hidden < hop_ticks ? hidden : hop_ticks);
}
static inline uint64_t nccl_step_wait(const nccl_params *p, uint64_t hop_ticks, uint64_t elapsed)
{
    return p->hop_overlap == 0 ? hop_ticks : nccl_overlap_wait(p->hop_overlap, hop_ticks, elapsed);
}
/* "ring", "tree", "nvls" and "LL", "LL128", "Simple". */
const char *nccl_algo_name(enum nccl_algo a);
const char *nccl_proto_name(enum nccl_proto p);

#endif
