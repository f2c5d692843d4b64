/*
 * child_run.h - a simulation in a child process: the same vimana binary
 * (/proc/self/exe) started with posix_spawn, its standard error kept in a
 * file, its --report read back. Shared by `vimana xval` (one child per
 * backend) and `vimana sweep` (a pool of children, one per point): a child
 * that crashes, fails or hangs costs its own result only.
 */
#ifndef VIMANA_CMD_CHILD_RUN_H
#define VIMANA_CMD_CHILD_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* What a run's report says about its NPUs. */
typedef struct child_report {
    uint32_t npus;          /* NPUs that finished */
    uint64_t finish;        /* the latest finish tick over the NPUs */
    uint64_t finish_sum;    /* the sum of the NPUs' finish ticks */
    uint64_t exposed_sum;   /* the sum of their exposed communication ticks */
} child_report;

/* Starts argv (argv[0] is only the name the child sees) with standard
 * input and output on /dev/null (or stdout_path when not NULL) and
 * standard error in stderr_path. The child gets an empty signal mask and
 * the default actions of SIGINT, SIGTERM and SIGHUP, whatever the parent
 * blocks. Returns 0, or the errno value of the failure. */
int child_run_spawn(char *const *argv, const char *stdout_path, const char *stderr_path, pid_t *pid);

/* The same for another program, `exe` (a path; vimana sweep runs
 * vimana-et to generate workloads). */
int child_run_spawn_exe(const char *exe, char *const *argv, const char *stdout_path, const char *stderr_path,
                        pid_t *pid);

/* Writes the JSON members a child run's row ends with, as `vimana xval`
 * and `vimana sweep` print them: `, "wall_seconds": S, "peak_memory_kib":
 * K` (both null when no process was measured) and `, "error": "..."`
 * (null when `error` is NULL). */
void child_run_json_cost(FILE *out, bool measured, double wall_s, long peak_kib, const char *error);

/* Seconds from t0 to now on CLOCK_MONOTONIC. */
double child_run_seconds_since(const struct timespec *t0);

/* A buffer that holds any reason child_run_reason() gives: error lines
 * name search paths, which can be long. */
#define CHILD_RUN_REASON_MAX 8192

/* Why a child that ended with wait status `status` failed, in one line:
 * for an exit status, its last "vimana: error: " line without that prefix
 * (else its last line, else "exited with status N"); for a signal,
 * "killed by signal N (NAME)". */
void child_run_reason(const char *stderr_path, int status, char *out, size_t len);

/* Reads the report's "npus" array. Returns 0, or -1 when the file has no
 * such array. */
int child_run_read_report(const char *path, child_report *r);

#endif
