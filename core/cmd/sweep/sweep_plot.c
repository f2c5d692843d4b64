/* sweep_plot.c - the SVG line plot of a sweep. */
#include "cmd/sweep/sweep_plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "out/svg_chart.h"
#include "util/msg_escape.h"
#include "util/xml_text.h"

enum {
    WIDTH = 820,
    HEIGHT = 420,
    PLOT_X = 90,        /* the plot area */
    PLOT_Y = 60,
    PLOT_W = 440,
    PLOT_H = 280,
    LEGEND_X = 560,
    LEGEND_BYTES = 40,
    LABEL_BYTES = 16,
};

static const char *const metric_names[] = {"finish", "finish_sum", "exposed_mean", "wall_seconds",
                                           "peak_memory_kib"};

int sweep_plot_parse(const sweep_spec *s, const char *text, sweep_plot_spec *out, char *err, size_t len)
{
    char shown[256];
    const char *colon = strchr(text, ':');
    if (!colon) {
        snprintf(err, len, "plot: expected METRIC:AXIS, got '%s'", msg_escape(text, shown, sizeof shown));
        return -1;
    }
    size_t n = (size_t)(colon - text), m;
    for (m = 0; m < sizeof metric_names / sizeof metric_names[0]; m++)
        if (strlen(metric_names[m]) == n && !strncmp(text, metric_names[m], n))
            break;
    if (m == sizeof metric_names / sizeof metric_names[0]) {
        snprintf(err, len, "plot: unknown metric '%.*s' (expected finish, finish_sum, exposed_mean, wall_seconds "
                           "or peak_memory_kib)", (int)n, msg_escape(text, shown, sizeof shown));
        return -1;
    }
    if (!sweep_spec_axis(s, colon + 1, &out->axis)) {
        snprintf(err, len, "plot: no axis '%s' in the sweep", msg_escape(colon + 1, shown, sizeof shown));
        return -1;
    }
    out->metric = (sweep_metric)m;
    return 0;
}

static bool metric_of(const sweep_result *r, sweep_metric m, double *v)
{
    if (r->status != SWEEP_OK)
        return false;
    switch (m) {
    case PLOT_FINISH: *v = (double)r->finish; break;
    case PLOT_FINISH_SUM: *v = (double)r->finish_sum; break;
    case PLOT_EXPOSED_MEAN: *v = sweep_result_exposed_mean(r); break;
    case PLOT_WALL_SECONDS: *v = r->wall_s; break;
    case PLOT_PEAK_MEMORY: *v = (double)r->peak_kib; break;
    }
    return true;
}

/* Whether points p and q lie on one line: same values on every other axis. */
static bool same_series(const sweep_table *t, size_t x_axis, size_t p, size_t q)
{
    size_t n = t->spec->n_axes;
    for (size_t a = 0; a < n; a++)
        if (a != x_axis && t->rows[p * n + a] != t->rows[q * n + a])
            return false;
    return true;
}

static void legend(FILE *f, const sweep_table *t, size_t x_axis, size_t p, int line, const char *colour)
{
    int y = PLOT_Y + 4 + line * 18;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n<text x=\"%d\" "
               "y=\"%d\">", LEGEND_X, y, LEGEND_X + 20, y, colour, LEGEND_X + 26, y + 4);
    size_t shown = 0;
    for (size_t a = 0; a < t->spec->n_axes; a++) {
        if (a == x_axis || t->rows[p * t->spec->n_axes + a] == SWEEP_BASE)
            continue;
        fputs(shown++ ? ", " : "", f);
        xml_text(f, t->spec->axes[a].name, LEGEND_BYTES);
        fputc('=', f);
        xml_text(f, sweep_table_value(t, p, a), LEGEND_BYTES);
    }
    if (!shown)
        fputs("all points", f);
    fputs("</text>\n", f);
}

/* One line: the points of p's series, in the x axis' order; with
 * `dots`, a dot on each point instead (a lone point shows too). */
static void series(FILE *f, const sweep_table *t, const sweep_plot_spec *ps, size_t p, double top, const char *colour,
                   bool dots)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    size_t n = t->spec->n_axes;
    bool open = false;
    for (size_t v = 0; v < ax->n_values; v++) {
        double y = 0;
        size_t q;
        for (q = p; q < t->n_points; q++)
            if (t->rows[q * n + ps->axis] == v && same_series(t, ps->axis, p, q))
                break;
        if (q == t->n_points || !metric_of(&t->results[q], ps->metric, &y)) {
            fputs(open ? "\"/>\n" : "", f);
            open = false;
            continue;
        }
        int px = PLOT_X + (ax->n_values > 1 ? (int)(v * PLOT_W / (ax->n_values - 1)) : PLOT_W / 2);
        int py = PLOT_Y + PLOT_H - (int)lround(y / top * PLOT_H);
        if (dots) {
            fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>\n", px, py, colour);
            continue;
        }
        if (!open)
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
        fprintf(f, "%s%d,%d", open ? " " : "", px, py);
        open = true;
    }
    fputs(open ? "\"/>\n" : "", f);
}

static void axes(FILE *f, const sweep_table *t, const sweep_plot_spec *ps, double top)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#000000\"/>\n", PLOT_X, PLOT_Y, PLOT_Y + PLOT_H,
            PLOT_X + PLOT_W);
    for (int k = 0; k <= 4; k++) {
        int y = PLOT_Y + PLOT_H - k * PLOT_H / 4;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.10g</text>\n", PLOT_X - 6, y + 4, top * k / 4);
    }
    for (size_t v = 0; v < ax->n_values; v++) {
        int x = PLOT_X + (ax->n_values > 1 ? (int)(v * PLOT_W / (ax->n_values - 1)) : PLOT_W / 2);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x, PLOT_Y + PLOT_H + 18);
        xml_text(f, ax->values[v].text, LABEL_BYTES);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H + 40);
    xml_text(f, ax->name, SIZE_MAX);
    fputs("</text>\n", f);
}

void sweep_plot_write(FILE *f, const sweep_table *t, const sweep_plot_spec *ps)
{
    double max = 0, v;
    for (size_t p = 0; p < t->n_points; p++)
        if (metric_of(&t->results[p], ps->metric, &v) && v > max)
            max = v;
    double top = svg_chart_nice_top(max);
    svg_chart_begin(f, WIDTH, HEIGHT);
    fprintf(f, "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s against ",
            metric_names[ps->metric]);
    xml_text(f, t->spec->axes[ps->axis].name, SIZE_MAX);
    fputs("</text>\n<text x=\"16\" y=\"46\">", f);
    xml_text(f, t->spec->path, SIZE_MAX);
    fputs("</text>\n", f);
    axes(f, t, ps, top);
    size_t line = 0;
    for (size_t p = 0; p < t->n_points; p++) {
        bool first = true;
        for (size_t q = 0; q < p && first; q++)
            first = !same_series(t, ps->axis, p, q);
        if (!first)
            continue;
        const char *colour = svg_chart_colour(line);
        series(f, t, ps, p, top, colour, false);
        series(f, t, ps, p, top, colour, true);
        legend(f, t, ps->axis, p, (int)line++, colour);
    }
    fputs("</svg>\n", f);
}
