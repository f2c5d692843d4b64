/*
 * outputs.h - the optional output files of a run:
 *   --timeline FILE.json  Chrome trace-event JSON (Perfetto, chrome://tracing):
 *                         one process per NPU with tracks for GPU compute, CPU,
 *                         communication, remote memory and receives, and the
 *                         chunks of each collective with their phases nested;
 *   --report FILE.json    per-NPU figures and one record per collective;
 *   --report FILE.csv     the same as two tables: FILE.csv (NPUs) and
 *                         FILE.collectives.csv.
 * The writers are hooks: outputs_open installs them in the system context
 * (phases) and the workload run (nodes, finished NPUs), only for the files
 * that were requested.
 */
#ifndef VIMANA_SIM_OUTPUTS_H
#define VIMANA_SIM_OUTPUTS_H

#include "system/system.h"
#include "workload/workload.h"

typedef struct outputs outputs;

/* Opens the requested files into *out (NULL when there are none) and
 * installs their hooks in s and r. Returns 0, or -1 after sim_fail();
 * outputs_close(*out) is due in either case. */
int outputs_open(sim *s, wl_run *r, outputs **out);
/* Completes and closes the files (o may be NULL); returns -1 (after
 * sim_fail) if a write failed. */
int outputs_close(outputs *o);

#endif
