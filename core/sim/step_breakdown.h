/*
 * step_breakdown.h - `vimana --breakdown`: prints where the step of the NPU
 * that finished last went (workload/breakdown.h), as a Megatron user reads
 * it: compute, exposed communication per communicator group (its size and
 * rank stride tell a tensor-parallel group from a data-parallel one),
 * pipeline messages in flight, the pipeline bubble, and the FLOP/s
 * reached with and without recomputation (HFU, MFU).
 */
#ifndef VIMANA_SIM_STEP_BREAKDOWN_H
#define VIMANA_SIM_STEP_BREAKDOWN_H

#include <stdio.h>

#include "system/system.h"
#include "workload/workload.h"

/* Prints the breakdown on `out`; fails the run (sim_fail) when out of memory. */
void step_breakdown_print(sim *s, wl_run *r, FILE *out);

#endif
