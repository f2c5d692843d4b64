/* vimana: simulate a distributed training step from Chakra ETs, or run one
 * of the subcommands around it. Each subcommand is a folder of core/cmd
 * named after it (docs/internals.md, "Rooms") and one row of the table
 * below; the simulation itself is the driver in core/sim. */
#define _POSIX_C_SOURCE 200809L /* strsignal */

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cmd/backend_check/backend_check.h"
#include "cmd/calibrate/calibrate.h"
#include "cmd/jobs/jobs_run.h"
#include "cmd/sweep/sweep.h"
#include "cmd/watchdog.h"
#include "cmd/xval/xval.h"
#include "sim/options.h"
#include "sim/run.h"
#include "vimana/network_api.h"

/* A subcommand: `vimana NAME ARGS...` runs main_fn(argc - 1, argv + 1). */
typedef struct {
    const char *name;
    int (*main_fn)(int argc, char **argv, FILE *out, FILE *err);
} subcommand;

static const subcommand subcommands[] = {
    {"backend-check", backend_check_main}, /* core/cmd/backend_check: a backend's conformance run */
    {"xval", xval_main},                   /* core/cmd/xval: one workload on several backends, compared */
    {"sweep", sweep_main},                 /* core/cmd/sweep: the points of a sweep file, in a worker pool */
    {"calibrate", calibrate_main},         /* core/cmd/calibrate: the NCCL model fitted to nccl-tests */
};

static const subcommand *find_subcommand(const char *name)
{
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(subcommands[i].name, name) == 0)
            return &subcommands[i];
    return NULL;
}

/* The run the options ask for: --jobs (several jobs sharing one network,
 * core/cmd/jobs) or one workload. */
static int run_options(const sim_options *opt)
{
    if (opt->jobs)
        return jobs_run(opt, stdout, stderr);
    return sim_run(opt, stdout, stderr);
}

static int run_options_in_child(void *opt)
{
    return run_options(opt);
}

/* --time-limit: the run goes on in a child that is killed when the limit
 * passes, since nothing inside the process can stop a backend's run() that
 * never returns. The exit status is the run's, or 124 (as timeout(1)). */
static int run_with_time_limit(const sim_options *opt)
{
    int status;
    switch (watchdog_run(opt->time_limit_s, run_options_in_child, (void *)opt, &status)) {
    case WATCHDOG_EXITED:
        return status;
    case WATCHDOG_SIGNALLED:
        fprintf(stderr, "vimana: error: the run was killed by signal %d (%s)\n", status, strsignal(status));
        return 128 + status;
    case WATCHDOG_TIMED_OUT:
        fprintf(stderr, "vimana: error: --time-limit=%u: the run did not end within %u s (network backend '%s'); "
                        "stopped it\n", opt->time_limit_s, opt->time_limit_s, opt->backend);
        return 124;
    case WATCHDOG_NO_CHILD:
        break;
    }
    fprintf(stderr, "vimana: error: --time-limit: cannot start the run in a child process: %s\n", strerror(status));
    return 1;
}

int main(int argc, char **argv)
{
    const subcommand *sub = argc >= 2 ? find_subcommand(argv[1]) : NULL;
    if (sub)
        return sub->main_fn(argc - 1, argv + 1, stdout, stderr);
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
    if (opt.time_limit_s)
        return run_with_time_limit(&opt);
    return run_options(&opt);
}
