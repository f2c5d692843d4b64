/*
 * sweep_points.h - the points of a sweep: the explicit list of the sweep
 * file, or the grid of its axes (the cartesian product, in the order of
 * an odometer: the last axis varies fastest, the first slowest).
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_POINTS_H
#define VIMANA_CMD_SWEEP_SWEEP_POINTS_H

#include <stddef.h>

#include "cmd/sweep/sweep_spec.h"

/* The most points a sweep may have. */
#define SWEEP_MAX_POINTS 1000000

/* Fills *rows with n_points rows of n_axes value indices (SWEEP_BASE for
 * an axis a point leaves at the base). Returns 0, or -1 with err when the
 * grid would exceed SWEEP_MAX_POINTS. The caller frees *rows. */
int sweep_points_expand(const sweep_spec *s, size_t **rows, size_t *n_points, char *err, size_t len);

#endif
