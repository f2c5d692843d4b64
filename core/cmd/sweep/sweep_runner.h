/*
 * sweep_runner.h - the worker pool of `vimana sweep`: up to `jobs` child
 * simulations at once (cmd/child_run.h), each point's result written to
 * its folder as soon as it ends (cmd/sweep/sweep_result.h). SIGINT, SIGTERM and
 * SIGHUP stop the launching, the running children are killed and their
 * points left without a result; the finished ones stay.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_RUNNER_H
#define VIMANA_CMD_SWEEP_SWEEP_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/sweep/sweep_result.h"

typedef struct sweep_task {
    size_t point;           /* the point's index */
    char **argv;            /* the child's argv, NULL-terminated */
    char *dir;              /* the point's folder */
    char *signature;        /* recorded with the result */
    sweep_result *result;   /* filled when the run ends */
    bool job_reports;       /* a jobs-file point: its figures are those of every job's report.NAME.json */
} sweep_task;

typedef struct sweep_pool {
    unsigned jobs;          /* children at once, at least 1 */
    bool progress;          /* a progress line on err */
    size_t total;           /* points in the sweep (for the progress line) */
    size_t done_before;     /* points reused from an earlier run */
    FILE *err;
} sweep_pool;

/* Runs the tasks. Returns 0 when every task ran, 1 when a signal stopped
 * the sweep, -1 when a result could not be written (err says which). */
int sweep_runner_run(sweep_task *tasks, size_t n, const sweep_pool *pool);

#endif
