/*
 * xval_diverge_plot.h - `vimana xval --divergence-plot=FILE.svg`: one
 * NPU's collectives in the baseline's order along x, each backend's
 * duration and its ratio to the baseline's as lines of dots (two panels),
 * so that a reader sees where the lines separate; the band is shaded and
 * a dashed red line marks the first collective outside it.
 * Only deterministic figures, integer coordinates: the same results give
 * the same bytes.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_DIVERGE_PLOT_H
#define VIMANA_CMD_XVAL_XVAL_DIVERGE_PLOT_H

#include <stdio.h>

#include "cmd/xval/xval_diverge.h"
#include "cmd/xval/xval_row.h"

/* Write errors are left to the caller's check of the stream. */
void xval_diverge_plot_write(FILE *out, const xval_table *t, const xval_divergence *v);

#endif
