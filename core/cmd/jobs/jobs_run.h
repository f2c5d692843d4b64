/*
 * jobs_run.h - `vimana --jobs FILE.yaml`: several jobs on one network
 * (docs/jobs.md). The backend reads the jobs file's network once; every
 * job gets its own simulation context through a job view (cmd/jobs/job_net.h)
 * and all of them run in the backend's one event loop. Then each job runs
 * alone on the same network, for its slowdown. Prints, per job in file
 * order, a header line, the job's per-rank lines and a summary line.
 */
#ifndef VIMANA_CMD_JOBS_JOBS_RUN_H
#define VIMANA_CMD_JOBS_JOBS_RUN_H

#include <stdio.h>

#include "config/run_options.h"

/* opt->jobs names the jobs file. Returns the process exit status: 0 when
 * every job finished, 1 on any error (one line on `log`). */
int jobs_run(const sim_options *opt, FILE *out, FILE *log);

#endif
