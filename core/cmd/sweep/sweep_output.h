/*
 * sweep_output.h - the results of a sweep, one row per point in point
 * order: DIR/results.csv (RFC 4180) and DIR/results.json.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_OUTPUT_H
#define VIMANA_CMD_SWEEP_SWEEP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/sweep/sweep_result.h"
#include "cmd/sweep/sweep_spec.h"

typedef struct sweep_table {
    const sweep_spec *spec;
    const size_t *rows;         /* n_points rows of n_axes value indices */
    size_t n_points;
    const sweep_result *results;
} sweep_table;

/* The text of point p's value on axis a ("" when at the base). */
const char *sweep_table_value(const sweep_table *t, size_t p, size_t a);

/* Write errors are left to the caller's check of the stream. */
void sweep_write_csv(FILE *out, const sweep_table *t);
void sweep_write_json(FILE *out, const sweep_table *t);

#endif
