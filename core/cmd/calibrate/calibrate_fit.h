/*
 * calibrate_fit.h - the closed form of a call's time under the NCCL-aware
 * model on an analytical network (docs/nccl.md; the unit and
 * e2e tests check it against simulated ticks), and the least-squares fit
 * of the model's parameters to measurements (docs/calibrate.md).
 */
#ifndef VIMANA_CMD_CALIBRATE_CALIBRATE_FIT_H
#define VIMANA_CMD_CALIBRATE_CALIBRATE_FIT_H

#include <stdint.h>

#include "config/nccl_params.h"
#include "cmd/calibrate/calibrate_input.h"
#include "system/algorithms/nccl_model.h"
#include "vimana/network_yaml.h"

/* One phase of a call as the simulator builds it (spec/simulator.md
 * 13.2-13.3, the preset's "localBWAware" and preferred-dataset-splits 1). */
typedef struct calib_phase {
    enum coll_kind coll;
    uint32_t dim;          /* the topology's dimension: NVLink or NIC by nvlink-dims */
    vimana_net_dim link;   /* that dimension (on one dimension: the row's own rank count) */
    uint64_t in;           /* bytes entering the phase */
    uint32_t flat_dims;    /* 0: the phase runs on `dim`; 2 or more: NCCL's flat ring over dimensions
                            * 0 .. flat_dims-1 (oneNccl), link.npus their product */
} calib_phase;

#define CALIB_MAX_PHASES (2 * VIMANA_NET_MAX_DIMS)

/* How many leading dimensions of `net` a row measured on `ranks` ranks
 * runs on: those whose NPU counts multiply to `ranks`, 0 when none do. A
 * one-dimension topology takes every count (the same links with that
 * count): 1. */
uint32_t calib_prefix_dims(const vimana_net_config *net, uint32_t ranks);
/* The phases of `pt`'s call, in order. Over several dimensions, unless
 * pt->hierarchical: one phase, NCCL's flat ring over all of them. Else one per dimension (all-gather's in
 * reversed order); an all-reduce over several dimensions reduce-scatters
 * up the lower ones, all-reduces on the last and all-gathers back down. A
 * call smaller than its rank count is simulated as one byte per rank
 * (13.2 step 2, not all-gather). Returns the count. */
size_t calib_call_phases(const vimana_net_config *net, const calib_point *pt, calib_phase out[CALIB_MAX_PHASES]);

/* The plan of phase `ph` (its algorithm, protocol, steps; for a phase on
 * one dimension its wire bytes and wait too), `first`: the call's first. */
void calib_phase_plan(const nccl_params *p, const vimana_net_config *net, const calib_phase *ph, bool first,
                      nccl_plan *out);

/* Ticks (ns) of one call of `pt`'s collective and size on the leading
 * dimensions of `net` that hold pt->npus NPUs, as the analytical backend
 * runs the nccl algorithm: the sum of its phases' steps (all NPUs run in
 * lock-step on a symmetric network), the launch in the first. */
uint64_t calib_model_ticks(const nccl_params *p, const vimana_net_config *net, const calib_point *pt);
/* Sum over the points of ((model - measured) / measured / tolerance)^2. */
double calib_cost(const nccl_params *p, const vimana_net_config *net, const calib_data *data);

/* Fits, starting from *p: the per-step latencies (ll, ll128, simple,
 * nvls), the NVLink / NIC and NVLS efficiencies (both link kinds and the
 * NIC step latency when the topology has both; the launch overhead when
 * the points span several step counts) by Nelder-Mead, the thresholds and
 * channel-min-bytes by trying every candidate, in turns until the cost
 * stops falling (docs/calibrate.md). The payloads and the flags keep their
 * values. */
void calib_fit(nccl_params *p, const vimana_net_config *net, const calib_data *data);

#endif
