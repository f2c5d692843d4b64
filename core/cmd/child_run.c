/*
 * child_run.c - spawn a child vimana, explain its failure, read its report.
 */
/* posix_spawn, strsignal, clock_gettime. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700

#include "cmd/child_run.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "out/json_out.h"

extern char **environ;

void child_run_json_cost(FILE *out, bool measured, double wall_s, long peak_kib, const char *error)
{
    if (measured)
        fprintf(out, ", \"wall_seconds\": %.6f, \"peak_memory_kib\": %ld", wall_s, peak_kib);
    else
        fputs(", \"wall_seconds\": null, \"peak_memory_kib\": null", out);
    fputs(", \"error\": ", out);
    if (error)
        json_out_string(out, error);
    else
        fputs("null", out);
}

double child_run_seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The parent may block signals to wait for them (vimana sweep does): the
 * child must not inherit that, or Ctrl-C and kill would not stop it. */
static void reset_signals(posix_spawnattr_t *attr)
{
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    sigaddset(&dfl, SIGHUP);
    posix_spawnattr_setsigmask(attr, &none);
    posix_spawnattr_setsigdefault(attr, &dfl);
    posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

int child_run_spawn(char *const *argv, const char *stdout_path, const char *stderr_path, pid_t *pid)
{
    /* The running binary itself, whatever name or path started it. */
    return child_run_spawn_exe("/proc/self/exe", argv, stdout_path, stderr_path, pid);
}

int child_run_spawn_exe(const char *exe, char *const *argv, const char *stdout_path, const char *stderr_path,
                        pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (stdout_path)
        posix_spawn_file_actions_addopen(&fa, 1, stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    reset_signals(&attr);
    int rc = posix_spawn(pid, exe, &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* The child's last "vimana: error: " line without that prefix, else its
 * last line; `out` is left as it is when the file has neither. */
static void last_error_line(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static const char prefix[] = "vimana: error: ";
    /* getline: a line is read whole, however long (a backend search path
     * can make one run past any fixed buffer). */
    char *line = NULL;
    size_t cap = 0;
    bool have_error = false;
    while (getline(&line, &cap, f) != -1) {
        line[strcspn(line, "\n")] = '\0';
        bool is_error = strncmp(line, prefix, sizeof prefix - 1) == 0;
        if (!line[0] || (have_error && !is_error))
            continue;
        have_error |= is_error;
        snprintf(out, len, "%s", is_error ? line + sizeof prefix - 1 : line);
    }
    free(line);
    fclose(f);
}

void child_run_reason(const char *stderr_path, int status, char *out, size_t len)
{
    if (WIFSIGNALED(status)) {
        snprintf(out, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        return;
    }
    snprintf(out, len, "exited with status %d", WEXITSTATUS(status));
    last_error_line(stderr_path, out, len);
}

static uint64_t npu_field(json_object *npu, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(npu, key, &v) ? json_object_get_uint64(v) : 0;
}

int child_run_read_report(const char *path, child_report *r)
{
    json_object *root = json_object_from_file(path);
    json_object *npus = NULL;
    if (!root || !json_object_object_get_ex(root, "npus", &npus) || !json_object_is_type(npus, json_type_array)) {
        json_object_put(root);
        return -1;
    }
    memset(r, 0, sizeof *r);
    size_t n = json_object_array_length(npus);
    r->npus = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        json_object *npu = json_object_array_get_idx(npus, i);
        uint64_t t = npu_field(npu, "finish");
        r->finish = t > r->finish ? t : r->finish;
        r->finish_sum += t;
        r->exposed_sum += npu_field(npu, "exposed_communication");
    }
    json_object_put(root);
    return 0;
}
