/* run.h - one simulation from parsed options to printed report. */
#ifndef VIMANA_SIM_RUN_H
#define VIMANA_SIM_RUN_H

#include <stdio.h>

#include "config/run_options.h"

/* Returns the process exit status: 0 when every NPU finished, 1 on any
 * input error, simulation error or deadlock (reported on `log`). */
int sim_run(const sim_options *opt, FILE *out, FILE *log);

/* What a run does once its output streams are open: prints results on
 * `out`, messages on `log`, error lines on `err_log`; returns the status. */
typedef int (*sim_body_fn)(const sim_options *opt, FILE *out, FILE *log, FILE *err_log);
/* Runs `body` on --logging-folder's files (or on out and log when there is
 * none) and closes them; a failed write there makes the status 1. */
int sim_run_logged(const sim_options *opt, FILE *out, FILE *log, sim_body_fn body);

/* Shared with `vimana --jobs` (cmd/jobs/jobs_run.h), which runs several
 * contexts on one backend. */
struct sim;
struct wl_run;
/* Reads the system, remote-memory and communicator-group configurations of
 * s->opt (the topology must be known). Returns 0, or -1 after sim_fail. */
int sim_load_configs(struct sim *s);
/* After the event loop: fails the run when the network stalled, an NPU
 * never finished, or a message was never received. */
void sim_check_end(struct sim *s, struct wl_run *r);

#endif
