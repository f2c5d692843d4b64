/*
 * check_report.h - the verdicts of `vimana backend-check`.
 *
 * Each check is named; a violation is one line on the error stream,
 *   vimana backend-check: FAIL: <check>[ (<scope>)]: <what happened>
 * A check that finds the same kind of fault again and again (a backend that
 * delivers every message twice) prints its first few lines and then one
 * line counting the rest, so a broken backend cannot flood the terminal.
 * Checks are counted when a scope (one network configuration, or the
 * descriptor) is closed.
 */
#ifndef VIMANA_CMD_BACKEND_CHECK_CHECK_REPORT_H
#define VIMANA_CMD_BACKEND_CHECK_CHECK_REPORT_H

#include <stdbool.h>
#include <stdio.h>

enum check_id {
    CHECK_LOAD,         /* the loader accepts the module (file, symbol, ABI rule, size, required functions) */
    CHECK_DESCRIPTOR,   /* name, description, capability bits, optional functions, reserved slots */
    CHECK_INIT,         /* init() accepts the network configuration */
    CHECK_TOPOLOGY,     /* num_dims() and dim_size() describe the configured NPUs */
    CHECK_BANDWIDTH,    /* dim_bandwidth() is finite, > 0 and the configured value */
    CHECK_SCHEDULE,     /* events run once, at their tick, same-tick events in FIFO order */
    CHECK_CLOCK,        /* now() never decreases */
    CHECK_DELIVERY,     /* every message delivered once, token unchanged, not early, not inside sim_send */
    CHECK_STALL,        /* no message left undelivered when run() returns */
    CHECK_INVALID_SEND, /* sim_send() refuses an unknown NPU, src == dst and size 0 */
    CHECK_RUN,          /* run() returns VIMANA_OK, with no event storm and no host->failed() */
    CHECK_LINK_STATS,   /* (optional) per-link totals cover what was delivered */
    CHECK_STOP,         /* (optional, ABI 1.1) stop() makes run() return after the event in progress */
    CHECK_DEVICE_NAME,  /* (optional, ABI 1.2) device_name() names every device of the link statistics */
    CHECK_COUNT
};

/* Most lines one check prints in one scope before it only counts. */
#define CHECK_MAX_LINES 5

typedef struct check_report {
    FILE *err;
    const char *scope;              /* e.g. "2-D network"; NULL for none */
    bool used[CHECK_COUNT];         /* run in the current scope */
    unsigned long found[CHECK_COUNT]; /* violations in the current scope */
    unsigned checks, failed;        /* over closed scopes */
} check_report;

const char *check_name(enum check_id id);

/* err NULL: a quiet report that counts and prints nothing (a probe run). */
void check_report_init(check_report *r, FILE *err);
/* Starts a scope (closing the previous one). */
void check_scope(check_report *r, const char *scope);
/* The check runs in this scope (it passes unless a violation is reported). */
void check_use(check_report *r, enum check_id id);
/* One violation of check `id`: printed as one line (control bytes in the
 * text are the caller's to escape). */
void check_fail(check_report *r, enum check_id id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether check `id` has failed in the current scope. */
bool check_failed(const check_report *r, enum check_id id);
/* Counts the checks of the current scope, printing the count of lines
 * left out for a check that found more than CHECK_MAX_LINES faults. */
void check_close(check_report *r);

#endif
