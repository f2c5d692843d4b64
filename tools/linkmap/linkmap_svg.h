/*
 * linkmap_svg.h - a link-utilisation heat map as SVG, written by hand so
 * that the same report always gives the same bytes: a title with the
 * network summary, one row per link (busiest first, as link_model_sort
 * orders them) with a bar coloured from blue (idle) through orange to red
 * (busy all the run), and a colour legend.
 */
#ifndef VIMANA_LINKMAP_LINKMAP_SVG_H
#define VIMANA_LINKMAP_LINKMAP_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "linkmap/link_model.h"

/* Bar colour of a utilisation as "#rrggbb" (values above 1 are drawn as 1). */
void linkmap_colour(double utilisation, char out[8]);

/* Writes the picture of the first `top` links of m (all if fewer). Write
 * errors are left to the caller's check of the stream. */
void linkmap_svg_write(FILE *out, const link_model *m, size_t top);

#endif
