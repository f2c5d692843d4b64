/*
 * calibrate_fit.h - the closed form of a call's time under the NCCL-aware
 * model on a one-dimension analytical network (docs/nccl.md; the unit and
 * e2e tests check it against simulated ticks), and the least-squares fit
 * of the model's parameters to measurements (docs/calibrate.md).
 */
#ifndef VIMANA_SIM_CALIBRATE_FIT_H
#define VIMANA_SIM_CALIBRATE_FIT_H

#include <stdint.h>

#include "config/nccl_params.h"
#include "sim/calibrate_input.h"
#include "vimana/network_yaml.h"

/* Ticks (ns) of one call of `pt`'s collective and size on pt->npus NPUs
 * of dimension d's kind, bandwidth and latency, as the analytical backend
 * runs the nccl algorithm. */
uint64_t calib_model_ticks(const nccl_params *p, const vimana_net_dim *d, const calib_point *pt);
/* Sum over the points of ((model - measured) / measured)^2. */
double calib_cost(const nccl_params *p, const vimana_net_dim *d, const calib_data *data);

/* Fits, starting from *p: the per-step latencies (ll, ll128, simple,
 * nvls), the NVLink / NIC and NVLS efficiencies (and the launch overhead
 * when the points span several rank counts) by Nelder-Mead, the
 * thresholds and channel-min-bytes by trying every candidate, in turns
 * until the cost stops falling. The payloads, channels and the flags keep
 * their values. */
void calib_fit(nccl_params *p, const vimana_net_dim *d, const calib_data *data);

#endif
