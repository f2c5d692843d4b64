/*
 * sweep_runner.c - the pool waits with sigwaitinfo() for SIGCHLD or a stop
 * signal, all of them blocked: no handler and no global flag, and no exit
 * of a child can be missed between a check and a wait. A child that ended
 * frees its slot at once; its result (a report to read, a file to fsync)
 * is written after the slot has been given to the next point, so that the
 * writing never leaves a core idle.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700

#include "cmd/sweep/sweep_runner.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/child_run.h"

typedef struct slot {
    pid_t pid;              /* 0: free */
    sweep_task *task;
    struct timespec t0;
} slot;

/* A child that ended, its result not yet written. */
typedef struct ended {
    sweep_task *task;
    int status;
    struct rusage ru;
    double wall_s;
} ended;

typedef struct pool_state {
    const sweep_pool *cfg;
    slot *slots;
    ended *ended;           /* at most one per slot */
    unsigned n_ended;
    unsigned running;
    size_t finished, failed;
    bool stopping;
    int rc;
} pool_state;

/* SIGCHLD is ignored by default, and an ignored signal may be dropped even
 * while blocked: an empty handler keeps it pending for sigwaitinfo. */
static void on_child(int sig)
{
    (void)sig;
}

static void block_signals(sigset_t *set, sigset_t *old, struct sigaction *old_chld)
{
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigprocmask(SIG_BLOCK, set, old);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_child;
    sigaction(SIGCHLD, &sa, old_chld);
}

static void progress(const pool_state *st)
{
    if (!st->cfg->progress)
        return;
    fprintf(st->cfg->err, "\rvimana sweep: %zu/%zu points done, %u running, %zu failed ",
            st->cfg->done_before + st->finished, st->cfg->total, st->running, st->failed);
    fflush(st->cfg->err);
}

/* A jobs-file point writes report.NAME.json, one per job (docs/jobs.md). */
static bool is_job_report(const char *name)
{
    size_t n = strlen(name);
    return n > strlen("report..json") && !strncmp(name, "report.", 7) && !strcmp(name + n - 5, ".json");
}

/* The job reports of an earlier run of the point (its jobs file may have
 * named other jobs since) must not count in this one. */
static void remove_job_reports(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_job_report(e->d_name)) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

/* Every job's report of a jobs-file point, taken together as the ranks of
 * one run. 0 when there is at least one and each is readable. */
static int read_job_reports(const char *dir, child_report *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    memset(out, 0, sizeof *out);
    int found = 0, rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!is_job_report(e->d_name))
            continue;
        char path[4096];
        child_report one;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if ((rc = child_run_read_report(path, &one)) != 0)
            break;
        out->npus += one.npus;
        out->finish = one.finish > out->finish ? one.finish : out->finish;
        out->finish_sum += one.finish_sum;
        out->exposed_sum += one.exposed_sum;
        found++;
    }
    closedir(d);
    return rc == 0 && found > 0 ? 0 : -1;
}

static void launch(pool_state *st, slot *s, sweep_task *t)
{
    char out[4096], err[4096];
    snprintf(out, sizeof out, "%s/stdout.txt", t->dir);
    snprintf(err, sizeof err, "%s/stderr.txt", t->dir);
    s->task = t;
    if (t->job_reports)
        remove_job_reports(t->dir);
    clock_gettime(CLOCK_MONOTONIC, &s->t0);
    int rc = child_run_spawn(t->argv, out, err, &s->pid);
    if (rc != 0) {
        s->pid = 0;
        t->result->status = SWEEP_FAILED;
        char why[256];
        snprintf(why, sizeof why, "cannot start vimana: %s", strerror(rc));
        sweep_result_set_error(t->result, why);
        st->finished++;
        st->failed++;
        return;
    }
    st->running++;
}

static void record(pool_state *st, const ended *e)
{
    sweep_task *t = e->task;
    sweep_result *r = t->result;
    int status = e->status;
    char report[4096], err[4096];
    snprintf(report, sizeof report, "%s/report.json", t->dir);
    snprintf(err, sizeof err, "%s/stderr.txt", t->dir);
    sweep_result_clear(r);
    r->measured = true;
    r->wall_s = e->wall_s;
    r->peak_kib = e->ru.ru_maxrss;
    child_report rep;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        (t->job_reports ? read_job_reports(t->dir, &rep) : child_run_read_report(report, &rep)) == 0) {
        r->status = SWEEP_OK;
        r->npus = rep.npus;
        r->finish = rep.finish;
        r->finish_sum = rep.finish_sum;
        r->exposed_sum = rep.exposed_sum;
    } else {
        r->status = SWEEP_FAILED;
        char why[CHILD_RUN_REASON_MAX];
        child_run_reason(err, status, why, sizeof why);
        sweep_result_set_error(r, why);
        st->failed++;
    }
    if (sweep_result_write(t->dir, t->point, t->signature, r) != 0) {
        fprintf(st->cfg->err, "vimana: error: %s/result.json: cannot write: %s\n", t->dir, strerror(errno));
        st->rc = -1;
    }
    st->finished++;
}

/* Collects every child that has ended, to be recorded. A child of a
 * stopping sweep was killed by us: its point stays without a result. */
static void reap(pool_state *st)
{
    for (;;) {
        int status;
        struct rusage ru;
        pid_t pid = wait4(-1, &status, WNOHANG, &ru);
        if (pid <= 0)
            return;
        for (unsigned i = 0; i < st->cfg->jobs; i++) {
            slot *s = &st->slots[i];
            if (s->pid != pid)
                continue;
            st->running--;
            if (!st->stopping)
                st->ended[st->n_ended++] = (ended){.task = s->task, .status = status, .ru = ru,
                                                   .wall_s = child_run_seconds_since(&s->t0)};
            else
                s->task->result->status = SWEEP_PENDING;
            s->pid = 0;
        }
    }
}

static void stop(pool_state *st)
{
    st->stopping = true;
    for (unsigned i = 0; i < st->cfg->jobs; i++)
        if (st->slots[i].pid)
            kill(st->slots[i].pid, SIGTERM);
}

int sweep_runner_run(sweep_task *tasks, size_t n, const sweep_pool *cfg)
{
    pool_state st = {.cfg = cfg, .slots = calloc(cfg->jobs, sizeof(slot)), .ended = calloc(cfg->jobs, sizeof(ended))};
    if (!st.slots || !st.ended) {
        free(st.slots);
        free(st.ended);
        return -1;
    }
    sigset_t set, old;
    struct sigaction old_chld;
    block_signals(&set, &old, &old_chld);
    size_t next = 0;
    while (next < n || st.running > 0 || st.n_ended > 0) {
        for (unsigned i = 0; i < cfg->jobs && next < n && !st.stopping && st.rc == 0; i++)
            if (!st.slots[i].pid)
                launch(&st, &st.slots[i], &tasks[next++]);
        for (unsigned i = 0; i < st.n_ended; i++)
            record(&st, &st.ended[i]);
        st.n_ended = 0;
        progress(&st);
        if (st.running == 0 && (st.stopping || st.rc != 0))
            break;
        if (st.running == 0)
            continue;
        siginfo_t si;
        int sig = sigwaitinfo(&set, &si);
        if (sig == SIGCHLD)
            reap(&st);
        else if (sig > 0)
            stop(&st);
    }
    progress(&st);
    if (cfg->progress)
        fputc('\n', cfg->err);
    sigaction(SIGCHLD, &old_chld, NULL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(st.slots);
    free(st.ended);
    return st.rc != 0 ? -1 : st.stopping ? 1 : 0;
}
