/*
 * svg_chart.h - the pieces the simulator's SVG charts share (vimana xval
 * --plot and --divergence-plot, vimana sweep --plot): the document's
 * opening, a round top for a value axis, a palette for series. Each chart
 * writes its own shapes; every number it prints is an integer or a fixed
 * format, so the same data give the same bytes.
 */
#ifndef VIMANA_OUT_SVG_CHART_H
#define VIMANA_OUT_SVG_CHART_H

#include <stddef.h>
#include <stdio.h>

/* The XML declaration, the <svg> element (width x height, sans-serif 12)
 * and a white background. The caller closes it with "</svg>\n". */
void svg_chart_begin(FILE *f, int width, int height);

/* The top of a value axis: 1, 2 or 5 times a power of ten, at least max
 * (1 when max is not above 0). */
double svg_chart_nice_top(double max);

/* The colour of series i ("#rrggbb"), cycling through 8. */
const char *svg_chart_colour(size_t i);

/* The width that text takes at the charts' 12 px sans-serif, estimated
 * at SVG_CHART_CHAR_W px a character (wider than the average lower-case
 * letter, so a box sized with it holds its text). */
enum { SVG_CHART_CHAR_W = 7 };

/* The characters xml_text(f, s, max) shows: those of s that start within
 * its first `max` bytes, plus the ellipsis when s is cut. */
size_t svg_chart_text_chars(const char *s, size_t max);

#endif
