/* run.h - one simulation from parsed options to printed report. */
#ifndef VIMANA_SIM_RUN_H
#define VIMANA_SIM_RUN_H

#include <stdio.h>

#include "config/run_options.h"

/* Returns the process exit status: 0 when every NPU finished, 1 on any
 * input error, simulation error or deadlock (reported on `log`). */
int sim_run(const sim_options *opt, FILE *out, FILE *log);

#endif
