/*
 * xval.h - `vimana xval`: runs one workload with several network backends,
 * each in its own child process, and compares their finish times with a
 * baseline backend's (docs/xval.md). Prints a table; writes CSV, JSON and
 * an SVG bar chart on request.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_H
#define VIMANA_CMD_XVAL_XVAL_H

#include <stdio.h>

/* argv[0] is "xval". Returns the exit status: 0 when every backend ran and
 * (with --tolerance) every ratio is inside the band, 1 when a backend
 * failed or a ratio is outside, 2 for bad usage or an unwritable output. */
int xval_main(int argc, char **argv, FILE *out, FILE *err);

#endif
