/*
 * xval_child.c - spawn, time and measure one backend's run, then read its
 * report. Wall time is the child's whole life (loading included), as a
 * user would see it; peak memory is the child's own ru_maxrss from wait4().
 */
/* posix_spawn, wait4, nanosleep, clock_gettime. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700

#include "sim/xval_child.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "util/msg_escape.h"

extern char **environ;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

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
        if (got == 0 && seconds_since(t0) >= timeout_s) {
            kill(pid, SIGKILL);
            while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
                ;
            return 1;
        }
        if (got == 0)
            nanosleep(&tick, NULL);
    }
}

/* The child's reason: its last "vimana: error: " line without that prefix,
 * else its last line, else `fallback`. */
static void child_reason(const char *path, const char *fallback, char *out, size_t len)
{
    snprintf(out, len, "%s", fallback);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static const char prefix[] = "vimana: error: ";
    char line[1024];
    bool have_error = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        bool is_error = strncmp(line, prefix, sizeof prefix - 1) == 0;
        if (!line[0] || (have_error && !is_error))
            continue;
        have_error |= is_error;
        snprintf(out, len, "%s", is_error ? line + sizeof prefix - 1 : line);
    }
    fclose(f);
}

static void failed_run(const xval_child *c, int status, bool timed_out, xval_row *row)
{
    char fallback[128], reason[1024];
    if (timed_out)
        snprintf(fallback, sizeof fallback, "timed out after %g s (killed)", c->timeout_s);
    else if (WIFSIGNALED(status))
        snprintf(fallback, sizeof fallback, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(fallback, sizeof fallback, "exited with status %d", WEXITSTATUS(status));
    if (timed_out || WIFSIGNALED(status))
        snprintf(reason, sizeof reason, "%s", fallback);
    else
        child_reason(c->stderr_path, fallback, reason, sizeof reason);
    set_error(row, "", reason);
}

/* The report's "npus" array: how many, the latest finish, their sum. */
static void read_report(const char *path, xval_row *row)
{
    json_object *root = json_object_from_file(path);
    json_object *npus = NULL;
    if (!root || !json_object_object_get_ex(root, "npus", &npus) || !json_object_is_type(npus, json_type_array)) {
        set_error(row, "the run's report has no list of NPUs: ", path);
        json_object_put(root);
        return;
    }
    size_t n = json_object_array_length(npus);
    row->npus = (uint32_t)n;
    row->finish = row->finish_sum = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *finish = NULL;
        json_object_object_get_ex(json_object_array_get_idx(npus, i), "finish", &finish);
        uint64_t t = finish ? json_object_get_uint64(finish) : 0;
        row->finish = t > row->finish ? t : row->finish;
        row->finish_sum += t;
    }
    row->status = XVAL_OK;
    json_object_put(root);
}

void xval_child_run(const xval_child *c, xval_row *row)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, c->stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid;
    /* The running binary itself, whatever name or path started it. */
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, c->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        set_error(row, "cannot start vimana: ", strerror(rc));
        return;
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    bool timed_out = wait_child(pid, c->timeout_s, &t0, &status, &ru) == 1;
    row->wall_s = seconds_since(&t0);
    row->peak_kib = ru.ru_maxrss;
    row->measured = true;
    if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failed_run(c, status, timed_out, row);
    else
        read_report(c->report, row);
}
