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

#include "sim/inference_report.h"
#include "system/system.h"
#include "workload/workload.h"

typedef struct outputs outputs;

/* Opens the requested files into *out (NULL when there are none) and
 * installs their hooks in s and r. Returns 0, or -1 after sim_fail();
 * outputs_close(*out) is due in either case. */
int outputs_open(sim *s, wl_run *r, outputs **out);
/* One job of `vimana --jobs` (cmd/jobs/jobs_run.h). Its timeline events go to
 * a file the caller opened, begun and will end (outputs_timeline_begin/
 * end) and close, as processes pid_base + rank named "NAME: rank R (NPU
 * P)", so that each job is one group of processes; its JSON report names
 * the job and its NPUs ("job", "job_npus"). */
typedef struct outputs_tenant {
    const char *name;         /* letters, digits, '_', '-' */
    const uint32_t *npus;     /* rank -> physical NPU */
    FILE *timeline;           /* shared by the jobs, or NULL */
    bool *timeline_first;     /* shared: no comma before the file's first event */
    uint32_t pid_base;
} outputs_tenant;

/* outputs_open for a job: s->opt->timeline only says whether to write
 * the job's events (to tenant->timeline); s->opt->report is its own file. */
int outputs_open_tenant(sim *s, wl_run *r, const outputs_tenant *tenant, outputs **out);
/* The opening and closing text of a timeline file. */
void outputs_timeline_begin(FILE *f);
void outputs_timeline_end(FILE *f);

/* An inference workload's report (kept by pointer until outputs_close):
 * the "inference" object of --report JSON and, in --timeline, the tracks
 * "inference: prefill" and "inference: decode" of the NPU it names. o may
 * be NULL. */
void outputs_set_inference(outputs *o, const inf_report *r, const inf_summary *sum);

/* Completes and closes the files (o may be NULL); returns -1 (after
 * sim_fail) if a write failed. */
int outputs_close(outputs *o);

#endif
