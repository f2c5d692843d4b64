/*
 * xval_diverge_plot.c - the line chart of per-collective durations, in two
 * panels that share the x axis: the durations themselves (ticks, from 0),
 * and each backend's ratio to the baseline's with the tolerance band
 * shaded, where a small collective's divergence shows as well as a large
 * one's (on the durations panel one long collective flattens the rest).
 * The x axis is the collectives' rank in the table (not time: the
 * backends' clocks disagree, which is the point), labelled with node ids,
 * at most MAX_LABELS of them so that they stay readable.
 */
#include "cmd/xval/xval_diverge_plot.h"

#include <inttypes.h>
#include <math.h>

#include "out/svg_chart.h"
#include "util/xml_text.h"

enum {
    WIDTH = 820,
    HEIGHT = 640,
    PLOT_X = 90,
    PLOT_W = 480,
    DURATION_Y = 60,    /* the durations panel */
    RATIO_Y = 360,      /* the ratios panel */
    PANEL_H = 220,
    LEGEND_X = 600,
    LEGEND_BYTES = 28,
    MAX_LABELS = 16,
};

/* A panel: its top edge and the value at its top (its bottom is 0). */
typedef struct panel {
    int y;
    double top;
} panel;

static int x_of(size_t k, size_t n)
{
    return PLOT_X + (n > 1 ? (int)(k * PLOT_W / (n - 1)) : PLOT_W / 2);
}

static int y_of(const panel *p, double value)
{
    return p->y + PANEL_H - (int)lround(value / p->top * PANEL_H);
}

/* Backend b's value at row k on panel `ratios` or the durations; false
 * when it has none (no record, or no ratio). */
static bool value_of(const xval_coll_row *r, size_t b, bool ratios, double *v)
{
    if (!r->has[b])
        return false;
    if (!ratios) {
        *v = (double)r->duration[b];
        return true;
    }
    return r->has[0] && xval_diverge_ratio(r->duration[b], r->duration[0], v);
}

static double largest(const xval_divergence *v, bool ratios)
{
    double max = 0, x;
    for (size_t k = 0; k < v->n_rows; k++)
        for (size_t b = 0; b < v->n_backends; b++)
            if (value_of(&v->rows[k], b, ratios, &x) && x > max)
                max = x;
    return max;
}

static void title(FILE *f, const xval_table *t, const xval_divergence *v)
{
    fprintf(f, "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Collective durations of NPU %" PRIu32
               " per network backend</text>\n<text x=\"16\" y=\"46\">ticks (1 tick = 1 ns), then the ratio to ",
            v->npu);
    xml_text(f, t->baseline, SIZE_MAX);
    if (t->has_tolerance)
        fprintf(f, "'s (the tolerance band %.10g shaded)", t->tolerance);
    else
        fputs("'s", f);
    fputs("</text>\n", f);
}

/* The panel's frame, its value labels (4 steps) and the x labels. */
static void axes(FILE *f, const xval_divergence *v, const panel *p, const char *name)
{
    fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#000000\"/>\n", PLOT_X, p->y, p->y + PANEL_H,
            PLOT_X + PLOT_W);
    for (int k = 0; k <= 4; k++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.10g</text>\n", PLOT_X - 6,
                p->y + PANEL_H - k * PANEL_H / 4 + 4, p->top * k / 4);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", PLOT_X + 6, p->y + 14, name);
    size_t step = (v->n_rows + MAX_LABELS - 1) / MAX_LABELS;
    for (size_t k = 0; k < v->n_rows; k += step ? step : 1)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%" PRIu64 "</text>\n", x_of(k, v->n_rows),
                p->y + PANEL_H + 16, v->rows[k].what->node);
}

/* The band 1 - X .. 1 + X (cut to the panel) and the line at 1. */
static void band(FILE *f, const xval_table *t, const panel *p)
{
    if (t->has_tolerance) {
        double lo = 1 - t->tolerance > 0 ? 1 - t->tolerance : 0, hi = 1 + t->tolerance;
        int y_hi = y_of(p, hi), y_lo = y_of(p, lo); /* the panel's top is at least hi */
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#e0e0e0\"/>\n", PLOT_X, y_hi, PLOT_W,
                y_lo - y_hi);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#7f7f7f\" stroke-dasharray=\"2 2\"/>\n", PLOT_X,
            y_of(p, 1), PLOT_X + PLOT_W, y_of(p, 1));
}

/* Backend b on one panel: a polyline through the collectives it has a
 * value for (broken where it has none; a lone point is its dot only), and
 * a dot on each. */
static void series(FILE *f, const xval_divergence *v, size_t b, const panel *p, bool ratios, const char *colour)
{
    bool open = false;
    double x, next_x;
    for (size_t k = 0; k < v->n_rows; k++) {
        bool has = value_of(&v->rows[k], b, ratios, &x);
        bool next = k + 1 < v->n_rows && value_of(&v->rows[k + 1], b, ratios, &next_x);
        if (!has || (!open && !next)) {
            fputs(open ? "\"/>\n" : "", f);
            open = false;
            continue;
        }
        if (!open)
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
        fprintf(f, "%s%d,%d", open ? " " : "", x_of(k, v->n_rows), y_of(p, x));
        open = true;
    }
    fputs(open ? "\"/>\n" : "", f);
    for (size_t k = 0; k < v->n_rows; k++)
        if (value_of(&v->rows[k], b, ratios, &x))
            fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>\n", x_of(k, v->n_rows), y_of(p, x), colour);
}

static void legend(FILE *f, const xval_table *t, size_t b, int line, const char *colour)
{
    int y = DURATION_Y + 4 + line * 18;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n<text x=\"%d\" "
               "y=\"%d\">", LEGEND_X, y, LEGEND_X + 20, y, colour, LEGEND_X + 26, y + 4);
    xml_text(f, t->rows[b].backend, LEGEND_BYTES);
    fputs("</text>\n", f);
}

/* A dashed red line through both panels at the first collective outside
 * the band, labelled at the top, to the left of the line in the right
 * half (clear of the legend). */
static void first_mark(FILE *f, const xval_divergence *v)
{
    if (!v->has_first)
        return;
    int x = x_of(v->first, v->n_rows);
    bool right = x > PLOT_X + PLOT_W / 2;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d7191c\" stroke-dasharray=\"4 3\"/>\n"
               "<text x=\"%d\" y=\"%d\" fill=\"#d7191c\"%s>first outside: node %" PRIu64 "</text>\n",
            x, DURATION_Y, x, RATIO_Y + PANEL_H, right ? x - 4 : x + 4, DURATION_Y - 4,
            right ? " text-anchor=\"end\"" : "", v->rows[v->first].what->node);
}

void xval_diverge_plot_write(FILE *out, const xval_table *t, const xval_divergence *v)
{
    panel durations = {DURATION_Y, svg_chart_nice_top(largest(v, false))};
    /* the ratio panel shows 1 and the band's top at least */
    double ratio_max = largest(v, true), floor_top = 1 + (t->has_tolerance ? t->tolerance : 0);
    panel ratios = {RATIO_Y, svg_chart_nice_top(ratio_max > floor_top ? ratio_max : floor_top)};
    svg_chart_begin(out, WIDTH, HEIGHT);
    title(out, t, v);
    axes(out, v, &durations, "duration (ticks)");
    band(out, t, &ratios);
    axes(out, v, &ratios, "ratio to the baseline");
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">collective (node id), in the baseline's "
                 "order</text>\n", PLOT_X + PLOT_W / 2, RATIO_Y + PANEL_H + 36);
    int line = 0;
    for (size_t b = 0; b < v->n_backends; b++) {
        if (t->rows[b].status == XVAL_ERROR)
            continue;
        series(out, v, b, &durations, false, svg_chart_colour(b));
        series(out, v, b, &ratios, true, svg_chart_colour(b));
        legend(out, t, b, line++, svg_chart_colour(b));
    }
    first_mark(out, v);
    if (v->n_rows == 0)
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no collectives reported</text>\n",
                PLOT_X + PLOT_W / 2, DURATION_Y + PANEL_H / 2);
    fputs("</svg>\n", out);
}
