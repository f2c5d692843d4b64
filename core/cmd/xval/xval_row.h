/*
 * xval_row.h - the result of `vimana xval`: one row per backend (what its
 * run gave, or why it gave nothing) and the comparison settings the
 * writers print with it. Filled by cmd/xval/xval.c, written by
 * cmd/xval/xval_output.h and cmd/xval/xval_plot.h.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_ROW_H
#define VIMANA_CMD_XVAL_XVAL_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { XVAL_OK, XVAL_OUTSIDE, XVAL_ERROR } xval_status;

typedef struct xval_row {
    char backend[256];      /* as given: a name or a path */
    xval_status status;     /* OUTSIDE: ran, but its ratio left the band */
    char error[512];        /* one line, escaped; set when status is ERROR */
    uint32_t npus;          /* NPUs that finished */
    uint64_t finish;        /* the latest finish tick over the NPUs */
    uint64_t finish_sum;    /* the sum of the NPUs' finish ticks */
    bool has_ratio;         /* false when this run or the baseline's failed */
    double ratio;           /* finish / the baseline's finish */
    bool measured;          /* a process ran: cpu_s, wall_s and peak_kib are known */
    double cpu_s;           /* CPU seconds of the child process (user + system) */
    double wall_s;          /* wall-clock seconds of the child process */
    long peak_kib;          /* its peak resident memory (ru_maxrss), KiB */
} xval_row;

typedef struct xval_table {
    xval_row *rows;
    size_t n;
    const char *baseline;   /* the backend the ratios are to */
    bool has_tolerance;     /* --tolerance given: ratios are checked */
    double tolerance;       /* the band: |ratio - 1| <= tolerance */
} xval_table;

#endif
