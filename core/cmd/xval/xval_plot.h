/*
 * xval_plot.h - the bar chart of `vimana xval --plot FILE.svg`: one
 * horizontal bar per backend, its length the backend's finish time (the
 * latest NPU's) against the longest, labelled with the ticks and the ratio
 * to the baseline; a dashed line marks the baseline's time; a backend that
 * failed gets its error instead of a bar. Only the deterministic figures
 * are drawn (no wall time or memory), and every coordinate is an integer,
 * so the same result always gives the same bytes.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_PLOT_H
#define VIMANA_CMD_XVAL_XVAL_PLOT_H

#include <stdio.h>

#include "cmd/xval/xval_row.h"

/* Write errors are left to the caller's check of the stream. */
void xval_plot_write(FILE *out, const xval_table *t);

#endif
