/*
 * xval_diverge_plot.c - the line chart of per-collective durations. The
 * x axis is the collectives' rank in the table (not time: the backends'
 * clocks disagree, which is the point), labelled with node ids, at most
 * MAX_LABELS of them so that they stay readable.
 */
#include "sim/xval_diverge_plot.h"

#include <inttypes.h>
#include <math.h>

#include "sim/svg_chart.h"
#include "util/xml_text.h"

enum {
    WIDTH = 820,
    HEIGHT = 420,
    PLOT_X = 90,
    PLOT_Y = 60,
    PLOT_W = 480,
    PLOT_H = 280,
    LEGEND_X = 600,
    LEGEND_BYTES = 28,
    MAX_LABELS = 16,
};

static int x_of(size_t k, size_t n)
{
    return PLOT_X + (n > 1 ? (int)(k * PLOT_W / (n - 1)) : PLOT_W / 2);
}

static int y_of(uint64_t duration, double top)
{
    return PLOT_Y + PLOT_H - (int)lround((double)duration / top * PLOT_H);
}

static void title(FILE *f, const xval_table *t, const xval_divergence *v)
{
    fprintf(f, "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Collective durations of NPU %" PRIu32
               " per network backend</text>\n<text x=\"16\" y=\"46\">ticks (1 tick = 1 ns); ratios to ", v->npu);
    xml_text(f, t->baseline, SIZE_MAX);
    if (t->has_tolerance)
        fprintf(f, ", tolerance %.10g", t->tolerance);
    fputs("</text>\n", f);
}

static void axes(FILE *f, const xval_divergence *v, double top)
{
    fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#000000\"/>\n", PLOT_X, PLOT_Y, PLOT_Y + PLOT_H,
            PLOT_X + PLOT_W);
    for (int k = 0; k <= 4; k++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.10g</text>\n", PLOT_X - 6,
                PLOT_Y + PLOT_H - k * PLOT_H / 4 + 4, top * k / 4);
    size_t step = (v->n_rows + MAX_LABELS - 1) / MAX_LABELS;
    for (size_t k = 0; k < v->n_rows; k += step ? step : 1)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%" PRIu64 "</text>\n", x_of(k, v->n_rows),
                PLOT_Y + PLOT_H + 18, v->rows[k].what->node);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">collective (node id), in %s order</text>\n",
            PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H + 40, "the baseline's");
}

/* The backend's durations: a polyline through the collectives it has
 * (broken where it has none; a lone point is its dot only), and a dot on
 * each. */
static void series(FILE *f, const xval_divergence *v, size_t b, double top, const char *colour)
{
    bool open = false;
    for (size_t k = 0; k < v->n_rows; k++) {
        const xval_coll_row *r = &v->rows[k];
        bool next = k + 1 < v->n_rows && v->rows[k + 1].has[b];
        if (!r->has[b] || (!open && !next)) {
            fputs(open ? "\"/>\n" : "", f);
            open = false;
            continue;
        }
        if (!open)
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
        fprintf(f, "%s%d,%d", open ? " " : "", x_of(k, v->n_rows), y_of(r->duration[b], top));
        open = true;
    }
    fputs(open ? "\"/>\n" : "", f);
    for (size_t k = 0; k < v->n_rows; k++)
        if (v->rows[k].has[b])
            fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>\n", x_of(k, v->n_rows),
                    y_of(v->rows[k].duration[b], top), colour);
}

static void legend(FILE *f, const xval_table *t, size_t b, int line, const char *colour)
{
    int y = PLOT_Y + 4 + line * 18;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n<text x=\"%d\" "
               "y=\"%d\">", LEGEND_X, y, LEGEND_X + 20, y, colour, LEGEND_X + 26, y + 4);
    xml_text(f, t->rows[b].backend, LEGEND_BYTES);
    fputs("</text>\n", f);
}

static void first_mark(FILE *f, const xval_divergence *v)
{
    if (!v->has_first)
        return;
    int x = x_of(v->first, v->n_rows);
    bool right = x > PLOT_X + PLOT_W / 2; /* label to the left of the line, clear of the legend */
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d7191c\" stroke-dasharray=\"4 3\"/>\n"
               "<text x=\"%d\" y=\"%d\" fill=\"#d7191c\"%s>first outside: node %" PRIu64 "</text>\n",
            x, PLOT_Y, x, PLOT_Y + PLOT_H, right ? x - 4 : x + 4, PLOT_Y - 4, right ? " text-anchor=\"end\"" : "",
            v->rows[v->first].what->node);
}

void xval_diverge_plot_write(FILE *out, const xval_table *t, const xval_divergence *v)
{
    uint64_t max = 0;
    for (size_t k = 0; k < v->n_rows; k++)
        for (size_t b = 0; b < v->n_backends; b++)
            if (v->rows[k].has[b] && v->rows[k].duration[b] > max)
                max = v->rows[k].duration[b];
    double top = svg_chart_nice_top((double)max);
    svg_chart_begin(out, WIDTH, HEIGHT);
    title(out, t, v);
    axes(out, v, top);
    int line = 0;
    for (size_t b = 0; b < v->n_backends; b++) {
        if (t->rows[b].status == XVAL_ERROR)
            continue;
        series(out, v, b, top, svg_chart_colour(b));
        legend(out, t, b, line++, svg_chart_colour(b));
    }
    first_mark(out, v);
    if (v->n_rows == 0)
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no collectives reported</text>\n",
                PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H / 2);
    fputs("</svg>\n", out);
}
