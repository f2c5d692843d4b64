/*
 * sweep_result.h - the result of one point of a sweep, kept in its folder
 * as result.json (written to a temporary name, then renamed: a sweep that
 * is killed leaves a whole result or none). The result records the
 * point's signature (its settings as text): a restarted sweep reuses a
 * result only when the signature is the same.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_RESULT_H
#define VIMANA_CMD_SWEEP_SWEEP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { SWEEP_PENDING, SWEEP_OK, SWEEP_FAILED } sweep_status;

typedef struct sweep_result {
    sweep_status status;
    char *error;            /* one line, when FAILED (malloc'ed: sweep_result_clear) */
    uint32_t npus;
    uint64_t finish;        /* the latest finish tick over the NPUs */
    uint64_t finish_sum;    /* the sum of the NPUs' finish ticks */
    uint64_t exposed_sum;   /* the sum of their exposed communication */
    bool measured;          /* a process ran: wall_s, peak_kib known */
    double wall_s;
    long peak_kib;
} sweep_result;

/* Sets the error line to a copy of `text` (NULL when out of memory). */
void sweep_result_set_error(sweep_result *r, const char *text);
/* Frees what the result holds and zeroes it. */
void sweep_result_clear(sweep_result *r);

/* "ok", "failed", "pending". */
const char *sweep_status_name(sweep_status s);

/* The mean exposed communication over the NPUs (0 without NPUs). */
double sweep_result_exposed_mean(const sweep_result *r);

/* Writes dir/result.json atomically. Returns 0, or -1 (errno set). */
int sweep_result_write(const char *dir, size_t point, const char *signature, const sweep_result *r);

/* Reads dir/result.json into r when it exists, is whole, has the
 * signature `signature` and the status ok (or, with failed_too, failed).
 * Returns true then. */
bool sweep_result_reuse(const char *dir, const char *signature, bool failed_too, sweep_result *r);

#endif
