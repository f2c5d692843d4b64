/*
 * options.h - the simulator's command line: the ASTRA-sim flags
 * (the reference's behaviour, docs/simulator.md) plus Vimana's own.
 */
#ifndef VIMANA_SIM_OPTIONS_H
#define VIMANA_SIM_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "config/run_options.h"

enum options_result { OPTIONS_RUN = 0, OPTIONS_HELP = 1, OPTIONS_VERSION = 2, OPTIONS_ERROR = -1 };

/* Parses argv (flags as --name=value or --name value). On OPTIONS_ERROR,
 * err holds one line naming the flag. */
enum options_result sim_options_parse(int argc, char **argv, sim_options *out, char *err, size_t err_len);
void sim_options_usage(FILE *out);

#endif
