/*
 * bench_run - runs a command and reports its wall time and peak resident
 * memory (the child's ru_maxrss), so that benchmarks need nothing beyond
 * the C library:  bench_run LABEL COMMAND [ARGS...]
 * Prints "LABEL: wall S s, user U s, sys Y s, peak RSS M MiB" on stderr and exits with the
 * command's status. The command's output goes to /dev/null unless
 * BENCH_SHOW_OUTPUT is set.
 */
/* wait4() is a BSD/GNU extension */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_run LABEL COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_run: fork");
        return 2;
    }
    if (pid == 0) {
        if (!getenv("BENCH_SHOW_OUTPUT")) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0)
                dup2(fd, STDOUT_FILENO);
        }
        execvp(argv[2], argv + 2);
        perror("bench_run: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("bench_run: wait");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    double sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    fprintf(stderr, "%s: wall %.2f s, user %.2f s, sys %.2f s, peak RSS %.1f MiB\n", argv[1], wall, user, sys,
            (double)ru.ru_maxrss / 1024.0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
