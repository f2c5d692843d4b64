/*
 * watchdog.h - a run in a child process that the command waits for a
 * limited time: `vimana --time-limit` and `vimana backend-check --timeout`.
 * A backend whose run() never returns (or that loops inside any other call
 * without calling back) cannot be stopped from inside the process; from
 * outside it is reported in one line instead of hanging for ever.
 */
#ifndef VIMANA_CMD_WATCHDOG_H
#define VIMANA_CMD_WATCHDOG_H

typedef enum watchdog_end {
    WATCHDOG_EXITED,    /* *status: the child's exit status */
    WATCHDOG_SIGNALLED, /* *status: the signal that ended it (a crash) */
    WATCHDOG_TIMED_OUT, /* the limit passed: the child was killed */
    WATCHDOG_NO_CHILD,  /* fork failed: *status is errno */
} watchdog_end;

/* Flushes every stdio stream, runs fn(arg) in a forked child (which exits
 * with what fn returns) and waits for it at most `seconds`. */
watchdog_end watchdog_run(unsigned seconds, int (*fn)(void *arg), void *arg, int *status);

#endif
