/* A run in a child process under a time limit (watchdog.h). */
#define _POSIX_C_SOURCE 200809L

#include "cmd/watchdog.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How often the parent looks at the child: short next to any limit, long
 * enough to cost nothing. */
#define POLL_NS 5000000L

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static watchdog_end ended(int wstatus, int *status)
{
    if (WIFSIGNALED(wstatus)) {
        *status = WTERMSIG(wstatus);
        return WATCHDOG_SIGNALLED;
    }
    *status = WEXITSTATUS(wstatus);
    return WATCHDOG_EXITED;
}

watchdog_end watchdog_run(unsigned seconds, int (*fn)(void *arg), void *arg, int *status)
{
    /* Output buffered before the fork would be written twice. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *status = errno;
        return WATCHDOG_NO_CHILD;
    }
    if (pid == 0) {
        int rc = fn(arg);
        fflush(NULL);
        _exit(rc);
    }
    struct timespec t0, poll = {0, POLL_NS};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int wstatus;
        pid_t got = waitpid(pid, &wstatus, WNOHANG);
        if (got == pid)
            return ended(wstatus, status);
        if (got < 0 && errno != EINTR) {
            *status = errno;
            return WATCHDOG_NO_CHILD;
        }
        if (seconds_since(&t0) >= seconds) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
                ;
            return WATCHDOG_TIMED_OUT;
        }
        nanosleep(&poll, NULL);
    }
}
