/*
 * outputs.h - the optional output files of a run:
 *   --timeline FILE.json  Chrome trace-event JSON (Perfetto, chrome://tracing):
 *                         one process per NPU with tracks for GPU compute, CPU,
 *                         communication, remote memory and receives, and the
 *                         chunks of each collective with their phases nested;
 *   --report FILE.json    per-NPU figures and one record per collective;
 *   --report FILE.csv     the same as two tables: FILE.csv (NPUs) and
 *                         FILE.collectives.csv.
 * Every hook is a no-op when its file was not requested.
 */
#ifndef VIMANA_SIM_OUTPUTS_H
#define VIMANA_SIM_OUTPUTS_H

#include "sim/sim.h"
#include "system/system.h"
#include "workload/workload.h"

int outputs_open(sim *s);
/* Completes and closes the files; returns -1 (after sim_fail) if a write failed. */
int outputs_close(sim *s);

void outputs_node_done(sim *s, const workload *w, uint32_t node);
void outputs_phase_started(sim *s, stream *st);
void outputs_phase_done(sim *s, stream *st);
void outputs_npu_finished(sim *s, const workload *w, const npu_stats *st);

#endif
