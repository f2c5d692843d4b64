/*
 * check_watchdog.h - `vimana backend-check --timeout`: the checks run in a
 * child process the command waits for a limited time, so that a backend
 * whose run() never returns (or that loops inside any other call) is
 * reported in one line instead of hanging the check for ever. The mock
 * host catches a backend that storms with events; one that spins without
 * calling back is only caught from outside.
 */
#ifndef VIMANA_SIM_CHECK_WATCHDOG_H
#define VIMANA_SIM_CHECK_WATCHDOG_H

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
