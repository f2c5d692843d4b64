/*
 * xval_child.c - spawn, time and measure one backend's run, then read its
 * report (spawning and reading are cmd/child_run.h's). Wall time is the
 * child's whole life (loading included), as a user would see it; CPU time
 * (what a shared, noisy machine does not inflate) and peak memory are the
 * child's own ru_utime + ru_stime and ru_maxrss from wait4().
 */
/* posix_spawn, wait4, nanosleep, clock_gettime. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700

#include "cmd/xval/xval_child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "cmd/child_run.h"
#include "util/msg_escape.h"

static bool has_control_byte(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

/* `what` followed by `detail`. A line from the child already follows the
 * one-line rule (its values escaped): it is escaped again only if it holds
 * a control byte, so that a backslash it shows is not doubled. */
static void set_error(xval_row *row, const char *what, const char *detail)
{
    char esc[sizeof row->error];
    row->status = XVAL_ERROR;
    snprintf(row->error, sizeof row->error, "%s%s", what,
             has_control_byte(detail) ? msg_escape(detail, esc, sizeof esc) : detail);
}

/* Waits for pid; with a timeout, polls and kills it when the time is up.
 * Returns 0 with *status and *ru, 1 when it was killed for the timeout. */
static int wait_child(pid_t pid, double timeout_s, const struct timespec *t0, int *status, struct rusage *ru)
{
    const struct timespec tick = {0, 2000000}; /* 2 ms */
    for (;;) {
        pid_t got = wait4(pid, status, timeout_s > 0 ? WNOHANG : 0, ru);
        if (got == pid)
            return 0;
        if (got < 0 && errno != EINTR)
            return 0;
        if (got == 0 && child_run_seconds_since(t0) >= timeout_s) {
            kill(pid, SIGKILL);
            while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
                ;
            return 1;
        }
        if (got == 0)
            nanosleep(&tick, NULL);
    }
}

static void failed_run(const xval_child *c, int status, bool timed_out, xval_row *row)
{
    char reason[1024];
    if (timed_out)
        snprintf(reason, sizeof reason, "timed out after %g s (killed)", c->timeout_s);
    else
        child_run_reason(c->stderr_path, status, reason, sizeof reason);
    set_error(row, "", reason);
}

/* The report's "npus" array: how many, the latest finish, their sum. */
static void read_report(const char *path, xval_row *row)
{
    child_report r;
    if (child_run_read_report(path, &r) != 0) {
        set_error(row, "the run's report has no list of NPUs: ", path);
        return;
    }
    row->npus = r.npus;
    row->finish = r.finish;
    row->finish_sum = r.finish_sum;
    row->status = XVAL_OK;
}

void xval_child_run(const xval_child *c, xval_row *row)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid;
    int rc = child_run_spawn(c->argv, NULL, c->stderr_path, &pid);
    if (rc != 0) {
        set_error(row, "cannot start vimana: ", strerror(rc));
        return;
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    bool timed_out = wait_child(pid, c->timeout_s, &t0, &status, &ru) == 1;
    row->wall_s = child_run_seconds_since(&t0);
    row->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                 (double)ru.ru_stime.tv_usec / 1e6;
    row->peak_kib = ru.ru_maxrss;
    row->measured = true;
    if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failed_run(c, status, timed_out, row);
    else
        read_report(c->report, row);
}
