/* sweep_points.c - the grid of a sweep, last axis fastest. */
#include "cmd/sweep/sweep_points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t grid_size(const sweep_spec *s)
{
    size_t n = 1;
    for (size_t a = 0; a < s->n_axes; a++) {
        if (s->axes[a].n_values > SWEEP_MAX_POINTS / n)
            return SWEEP_MAX_POINTS + 1;
        n *= s->axes[a].n_values;
    }
    return n;
}

int sweep_points_expand(const sweep_spec *s, size_t **rows, size_t *n_points, char *err, size_t len)
{
    size_t width = s->n_axes ? s->n_axes : 1;
    size_t n = s->explicit_points ? s->n_points : grid_size(s);
    if (n > SWEEP_MAX_POINTS) {
        snprintf(err, len, "%s: the grid has more than %d points", s->path, SWEEP_MAX_POINTS);
        return -1;
    }
    size_t *out = malloc(n * width * sizeof *out);
    if (!out) {
        snprintf(err, len, "%s: out of memory for %zu points", s->path, n);
        return -1;
    }
    if (s->explicit_points) {
        memcpy(out, s->points, n * s->n_axes * sizeof *out);
    } else {
        for (size_t p = 0; p < n; p++) {
            size_t rest = p;
            for (size_t a = s->n_axes; a-- > 0;) {
                out[p * s->n_axes + a] = rest % s->axes[a].n_values;
                rest /= s->axes[a].n_values;
            }
        }
    }
    *rows = out;
    *n_points = n;
    return 0;
}
