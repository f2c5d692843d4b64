/*
 * calibrate_output.h - the preset `vimana calibrate` writes into its
 * folder (docs/calibrate.md): network.yml, system.json, fit-report.md (per
 * point: measured, simulated, error) and fit.svg (both curves against
 * size, log-log). Deterministic: the same fit gives the same bytes.
 */
#ifndef VIMANA_CMD_CALIBRATE_CALIBRATE_OUTPUT_H
#define VIMANA_CMD_CALIBRATE_CALIBRATE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "config/nccl_params.h"
#include "cmd/calibrate/calibrate_input.h"
#include "vimana/network_yaml.h"

typedef struct calib_result {
    const nccl_params *p;         /* per collective (enum coll_kind, NCCL_COLLS sets) */
    const vimana_net_config *net;
    const calib_data *data;
    const char *topology_path;    /* as given, for the report */
    bool checked;                 /* --check: the parameters as given, no fit */
    bool hierarchical;            /* several dimensions: one nccl phase each, not the flat ring */
} calib_result;

/* Rounds the fitted values as the preset shows them (times to 0.1 ns,
 * fractions to 6 digits), so that the report is what the preset gives. */
void calib_round_for_preset(nccl_params *p);
/* Each returns 0, or -1 when the stream had a write error. */
int calib_write_network(FILE *out, const vimana_net_config *net);
/* One dimension: "nccl"; several: NCCL's flat ring, "oneNccl" with
 * baseline, or with `hierarchical` "nccl" on each dimension as
 * localBWAware composes it; p: one parameter set per
 * collective (enum coll_kind): all-reduce's is written as the shared
 * "nccl" keys, each other collective's as an object of the keys where it
 * differs (none when it is the same). */
int calib_write_system(FILE *out, const nccl_params *p, uint32_t dims, bool hierarchical);
int calib_write_report(FILE *out, const calib_result *r);
/* The row whose |error| is largest (the first of equals) and that error in
 * percent, signed, in *err_pct; NULL when there are no rows. */
const calib_point *calib_worst_row(const calib_result *r, double *err_pct);
int calib_write_svg(FILE *out, const calib_result *r);

#endif
