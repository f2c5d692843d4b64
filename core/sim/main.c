/* vimana: simulate a distributed training step from Chakra ETs. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "sim/backend_check.h"
#include "sim/calibrate.h"
#include "sim/jobs_run.h"
#include "sim/options.h"
#include "sim/run.h"
#include "sim/sweep.h"
#include "sim/xval.h"
#include "vimana/network_api.h"

int main(int argc, char **argv)
{
    /* A subcommand, not an option: the conformance run of a backend. */
    if (argc >= 2 && strcmp(argv[1], "backend-check") == 0)
        return backend_check_main(argc - 1, argv + 1, stdout, stderr);
    /* Also a subcommand: one workload on several backends, compared. */
    if (argc >= 2 && strcmp(argv[1], "xval") == 0)
        return xval_main(argc - 1, argv + 1, stdout, stderr);
    /* And one more: many runs of a sweep file, in a worker pool. */
    if (argc >= 2 && strcmp(argv[1], "sweep") == 0)
        return sweep_main(argc - 1, argv + 1, stdout, stderr);
    /* Fits the NCCL-aware model to nccl-tests output, writes a preset. */
    if (argc >= 2 && strcmp(argv[1], "calibrate") == 0)
        return calibrate_main(argc - 1, argv + 1, stdout, stderr);
    sim_options opt;
    char err[512];
    switch (sim_options_parse(argc, argv, &opt, err, sizeof err)) {
    case OPTIONS_HELP:
        sim_options_usage(stdout);
        return 0;
    case OPTIONS_VERSION:
        printf("vimana %s (network backend ABI %d.%d)\n", PACKAGE_VERSION, VIMANA_NETWORK_ABI_MAJOR,
               VIMANA_NETWORK_ABI_MINOR);
        return 0;
    case OPTIONS_ERROR:
        fprintf(stderr, "vimana: %s\n", err);
        return 2;
    case OPTIONS_RUN:
        break;
    }
    /* The report can be millions of lines: buffer it fully. */
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    if (opt.jobs)
        return jobs_run(&opt, stdout, stderr);
    return sim_run(&opt, stdout, stderr);
}
