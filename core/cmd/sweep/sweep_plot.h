/*
 * sweep_plot.h - the plot of a sweep (--plot METRIC:AXIS, or the sweep
 * file's plot key): METRIC against the values of AXIS, in the axis'
 * order, one series per combination of the other axes' values (a legend
 * as wide as its longest entry names them). Lines against a numeric axis,
 * grouped bars against categories (names, files, quoted values). Written
 * by hand with integer coordinates, so the same results give the same
 * bytes; failed points leave a gap.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_PLOT_H
#define VIMANA_CMD_SWEEP_SWEEP_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/sweep/sweep_output.h"

typedef enum { PLOT_FINISH, PLOT_FINISH_SUM, PLOT_EXPOSED_MEAN, PLOT_WALL_SECONDS, PLOT_PEAK_MEMORY } sweep_metric;

typedef struct sweep_plot_spec {
    sweep_metric metric;
    size_t axis;            /* the x axis, an index into the spec's axes */
} sweep_plot_spec;

/* Reads "METRIC:AXIS" (metrics: finish, finish_sum, exposed_mean,
 * wall_seconds, peak_memory_kib). Returns 0, or -1 with err saying what is
 * wrong (without a file name). */
int sweep_plot_parse(const sweep_spec *s, const char *text, sweep_plot_spec *out, char *err, size_t len);

/* Write errors are left to the caller's check of the stream. */
void sweep_plot_write(FILE *out, const sweep_table *t, const sweep_plot_spec *p);

#endif
