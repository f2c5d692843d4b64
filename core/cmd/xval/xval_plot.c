/*
 * xval_plot.c - the SVG bar chart, written by hand (no library) so that its
 * bytes depend only on the table: bar lengths are rounded to whole pixels.
 */
#include "cmd/xval/xval_plot.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "out/svg_chart.h"
#include "util/xml_text.h"

enum {
    WIDTH = 760,
    MARGIN = 16,
    LABEL_X = 200,     /* right edge of the backend names */
    LABEL_BYTES = 28,  /* of a name in its label (the hover title has it all) */
    BAR_X = 208,
    BAR_W = 360,       /* the longest finish time */
    ERROR_BYTES = 64,  /* of an error message beside its row */
    ROWS_Y = 64,
    ROW_H = 28,
    BAR_H = 18,
};

static const char *colour(const xval_row *r, bool baseline)
{
    if (r->status == XVAL_OUTSIDE)
        return "#d7191c"; /* red: outside the tolerance */
    return baseline ? "#7f7f7f" : "#2c7bb6";
}

static uint64_t longest_finish(const xval_table *t)
{
    uint64_t max = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].status != XVAL_ERROR && t->rows[i].finish > max)
            max = t->rows[i].finish;
    return max;
}

static int bar_width(uint64_t finish, uint64_t longest)
{
    return longest ? (int)lround((double)finish / (double)longest * BAR_W) : 0;
}

static void header(FILE *f, const xval_table *t, int height)
{
    svg_chart_begin(f, WIDTH, height);
    fprintf(f,
            "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Finish time per network backend"
            "</text>\n<text x=\"%d\" y=\"48\">ticks (1 tick = 1 ns) of the last NPU to finish; ratios to ",
            MARGIN, MARGIN);
    xml_text(f, t->baseline, SIZE_MAX);
    if (t->has_tolerance)
        fprintf(f, ", tolerance %.10g", t->tolerance);
    fputs("</text>\n", f);
}

static void row(FILE *f, const xval_row *r, bool baseline, uint64_t longest, int y)
{
    fputs("<g><title>", f);
    xml_text(f, r->backend, SIZE_MAX);
    fprintf(f, "</title>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_X, y + 13);
    xml_text(f, r->backend, LABEL_BYTES);
    fputs("</text>\n", f);
    if (r->status == XVAL_ERROR) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#d7191c\">error: ", BAR_X, y + 13);
        xml_text(f, r->error, ERROR_BYTES);
        fputs("</text></g>\n", f);
        return;
    }
    int w = bar_width(r->finish, longest);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", BAR_X, y, w, BAR_H,
            colour(r, baseline));
    fprintf(f, "<text x=\"%d\" y=\"%d\">%" PRIu64, BAR_X + w + 6, y + 13, r->finish);
    if (r->has_ratio)
        fprintf(f, " (%.6f)", r->ratio);
    fputs("</text></g>\n", f);
}

/* The baseline's time as a dashed line across the rows. */
static void baseline_mark(FILE *f, const xval_table *t, uint64_t longest, int bottom)
{
    for (size_t i = 0; i < t->n; i++) {
        const xval_row *r = &t->rows[i];
        if (strcmp(r->backend, t->baseline) != 0 || r->status == XVAL_ERROR)
            continue;
        int x = BAR_X + bar_width(r->finish, longest);
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\" stroke-dasharray=\"4 3\"/>\n",
                x, ROWS_Y - 6, x, bottom);
        return;
    }
}

void xval_plot_write(FILE *out, const xval_table *t)
{
    int bottom = ROWS_Y + (int)t->n * ROW_H;
    header(out, t, bottom + MARGIN);
    uint64_t longest = longest_finish(t);
    for (size_t i = 0; i < t->n; i++)
        row(out, &t->rows[i], strcmp(t->rows[i].backend, t->baseline) == 0, longest, ROWS_Y + (int)i * ROW_H);
    baseline_mark(out, t, longest, bottom - ROW_H + BAR_H + 4);
    fputs("</svg>\n", out);
}
