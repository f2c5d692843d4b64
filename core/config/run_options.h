/*
 * run_options.h - the options of one simulation run, as the command line
 * (core/sim/options.c) gives them. Plain data below every layer: the system
 * layer reads its knobs (queues, scales, rendezvous) here, the driver the
 * file names and output switches.
 */
#ifndef VIMANA_CONFIG_RUN_OPTIONS_H
#define VIMANA_CONFIG_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sim_options {
    const char *workload;        /* ET prefix */
    const char *system;
    const char *network;
    const char *memory;
    const char *comm_group;      /* NULL when none */
    const char *backend;         /* name or path */
    const char *backend_options;
    uint32_t queues_per_dim;
    double injection_scale;
    double compute_scale;        /* multiplies compute durations (1 = as in the trace) */
    const char *npu_compute_scale; /* --npu-compute-scale: per-NPU multipliers (config/npu_scale.h), or NULL */
    double comm_scale;           /* multiplies message and collective sizes (1 = as in the trace) */
    const char *network_faults;  /* --network-faults: link faults (host/network_faults.h), or NULL */
    bool rendezvous;
    bool drop_missing_deps;      /* ignore dependencies on absent node ids */
    const char *timeline;        /* Chrome trace output, or NULL */
    const char *report;          /* JSON/CSV report output, or NULL */
    bool progress;
    uint32_t time_limit_s;       /* --time-limit: wall seconds before the run is stopped (cmd/watchdog.h), 0 = none */
    bool run_stats;              /* print message and event counts and the run's speed */
    bool breakdown;              /* print where the last NPU's step went (workload/breakdown.h) */
    bool no_symmetry;            /* --no-symmetry: skip the symmetry check (sim/symmetry.h) */
    const char *jobs;            /* --jobs: a jobs file (cmd/jobs/jobs_run.h), or NULL */
    const char *logging_folder;  /* --logging-folder (or --path): log.log and err.log there, or NULL */
    const char *logical_topology; /* --logical-topology-configuration: checked, not used, or NULL */
} sim_options;

#endif
