/*
 * xval_child.h - one backend's run for `vimana xval`, in a child process:
 * a backend may allow only one simulation per process (ns-3 does), and a
 * crash or a hang of one backend must not take the comparison with it.
 * The child is this same vimana binary, given the workload options and
 * --network-backend and --report; its finish ticks are read back from the
 * report.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_CHILD_H
#define VIMANA_CMD_XVAL_XVAL_CHILD_H

#include <stddef.h>

#include "cmd/xval/xval_row.h"

typedef struct xval_child {
    char *const *argv;      /* the child's argv (NULL-terminated), argv[0] included */
    const char *report;     /* the --report=FILE.json the argv names */
    const char *stderr_path;/* where the child's standard error goes */
    double timeout_s;       /* kill the child after this long; 0 = never */
} xval_child;

/* Runs the child and fills row: npus, finish, finish_sum, wall_s and
 * peak_kib, status XVAL_OK; or status XVAL_ERROR with row->error saying
 * why (the child's last error line, its signal, the timeout). */
void xval_child_run(const xval_child *c, xval_row *row);

#endif
