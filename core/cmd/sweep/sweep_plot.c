/* sweep_plot.c - the SVG plot of a sweep: lines against a numeric axis,
 * grouped bars against a categorical one. */
#include "cmd/sweep/sweep_plot.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "out/svg_chart.h"
#include "util/msg_escape.h"
#include "util/xml_text.h"

enum {
    MIN_WIDTH = 820,
    MIN_HEIGHT = 420,
    PLOT_X = 90,        /* the plot area's left and top */
    PLOT_Y = 60,
    MIN_PLOT_W = 440,   /* wider when the x axis' labels need it */
    PLOT_H = 280,
    LEGEND_GAP = 30,    /* from the plot area (or its last label) to the legend */
    LEGEND_LINE = 18,
    SWATCH_W = 20,
    SWATCH_TEXT = 6,    /* from the swatch to its text */
    MARGIN = 16,        /* right of the legend, below its last line */
    LEGEND_BYTES = 60,  /* of each axis name and value in a legend entry */
    LABEL_BYTES = 40,   /* of an x axis label */
    BAR_GROUP = 80,     /* percent of a category's slot its bars fill */
};

static const char *const metric_names[] = {"finish", "finish_sum", "exposed_mean", "wall_seconds",
                                           "peak_memory_kib"};

/* Where things go, worked out from the table before anything is drawn. */
typedef struct layout {
    bool bars;          /* a categorical x axis: grouped bars */
    size_t n_series;
    int plot_w;
    int legend_x;
    int width, height;
} layout;

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

/* A number, with or without a unit after it: "12.5", "64KiB", "100Gbps". */
static bool is_quantity(const char *s)
{
    char *end;
    strtod(s, &end);
    if (end == s)
        return false;
    while (isalpha((unsigned char)*end))
        end++;
    return *end == '\0';
}

/* Whether the axis' values are quantities, so a line between them means
 * something: every item of every value an unquoted number (a unit may
 * follow), on an axis of configuration keys (files, backends and
 * workloads are names even when they look like numbers). Anything else
 * is a set of categories. */
static bool axis_is_numeric(const sweep_axis *ax)
{
    if (ax->kind != SWEEP_SYSTEM_KEY && ax->kind != SWEEP_NETWORK_KEY && ax->kind != SWEEP_GENERATE_KEY)
        return false;
    for (size_t v = 0; v < ax->n_values; v++)
        for (size_t i = 0; i < ax->values[v].n_items; i++)
            if (ax->values[v].quoted[i] || !is_quantity(ax->values[v].items[i]))
                return false;
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

/* Whether p is the first point of its series (which is then named by p). */
static bool series_start(const sweep_table *t, size_t x_axis, size_t p)
{
    for (size_t q = 0; q < p; q++)
        if (same_series(t, x_axis, p, q))
            return false;
    return true;
}

/* The point of p's series at value v of the x axis, or n_points. */
static size_t point_at(const sweep_table *t, size_t x_axis, size_t p, size_t v)
{
    size_t n = t->spec->n_axes;
    for (size_t q = p; q < t->n_points; q++)
        if (t->rows[q * n + x_axis] == v && same_series(t, x_axis, p, q))
            return q;
    return t->n_points;
}

/* The characters of the legend entry that names p's series. */
static size_t legend_chars(const sweep_table *t, size_t x_axis, size_t p)
{
    size_t chars = 0, shown = 0;
    for (size_t a = 0; a < t->spec->n_axes; a++) {
        if (a == x_axis || t->rows[p * t->spec->n_axes + a] == SWEEP_BASE)
            continue;
        chars += (shown++ ? 2 : 0) + svg_chart_text_chars(t->spec->axes[a].name, LEGEND_BYTES) + 1 +
                 svg_chart_text_chars(sweep_table_value(t, p, a), LEGEND_BYTES);
    }
    return shown ? chars : strlen("all points");
}

/* The plot area is wide enough for each x label to have its own room:
 * a category's slot, or the space between two evenly spaced values. */
static layout layout_of(const sweep_table *t, const sweep_plot_spec *ps)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    layout l = {.bars = !axis_is_numeric(ax), .n_series = 0};
    size_t label = 0, legend = 0;
    for (size_t v = 0; v < ax->n_values; v++) {
        size_t c = svg_chart_text_chars(ax->values[v].text, LABEL_BYTES);
        label = c > label ? c : label;
    }
    int label_w = (int)(label + 1) * SVG_CHART_CHAR_W;
    int gaps = l.bars ? (int)ax->n_values : (int)ax->n_values - 1;
    l.plot_w = gaps > 0 && gaps * label_w > MIN_PLOT_W ? gaps * label_w : MIN_PLOT_W;
    /* Lines put the last label's middle on the plot's right edge. */
    int overhang = l.bars ? 0 : label_w / 2;
    l.legend_x = PLOT_X + l.plot_w + (overhang > LEGEND_GAP ? overhang : LEGEND_GAP);
    for (size_t p = 0; p < t->n_points; p++) {
        if (!series_start(t, ps->axis, p))
            continue;
        l.n_series++;
        size_t c = legend_chars(t, ps->axis, p);
        legend = c > legend ? c : legend;
    }
    l.width = l.legend_x + SWATCH_W + SWATCH_TEXT + (int)legend * SVG_CHART_CHAR_W + MARGIN;
    l.width = l.width > MIN_WIDTH ? l.width : MIN_WIDTH;
    l.height = PLOT_Y + (int)l.n_series * LEGEND_LINE + MARGIN;
    l.height = l.height > MIN_HEIGHT ? l.height : MIN_HEIGHT;
    return l;
}

/* A swatch in the series' colour, in the chart's shape, and its name. */
static void legend(FILE *f, const sweep_table *t, const layout *l, size_t x_axis, size_t p, int line,
                   const char *colour)
{
    int y = PLOT_Y + 4 + line * LEGEND_LINE;
    if (l->bars)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"10\" fill=\"%s\"/>\n", l->legend_x, y - 5,
                SWATCH_W, colour);
    else
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", l->legend_x,
                y, l->legend_x + SWATCH_W, y, colour);
    fprintf(f, "<text x=\"%d\" y=\"%d\">", l->legend_x + SWATCH_W + SWATCH_TEXT, y + 4);
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

static int y_of(double value, double top)
{
    return PLOT_Y + PLOT_H - (int)lround(value / top * PLOT_H);
}

/* The x of value v: the middle of its slot (bars), or evenly spaced from
 * one end of the axis to the other (lines). */
static int x_of(const layout *l, size_t n_values, size_t v)
{
    if (l->bars)
        return PLOT_X + (int)((2 * v + 1) * (size_t)l->plot_w / (2 * n_values));
    return PLOT_X + (n_values > 1 ? (int)(v * (size_t)l->plot_w / (n_values - 1)) : l->plot_w / 2);
}

/* One line: the points of p's series, in the x axis' order; with
 * `dots`, a dot on each point instead (a lone point shows too). */
static void series(FILE *f, const sweep_table *t, const sweep_plot_spec *ps, const layout *l, size_t p, double top,
                   const char *colour, bool dots)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    bool open = false;
    for (size_t v = 0; v < ax->n_values; v++) {
        double y = 0;
        size_t q = point_at(t, ps->axis, p, v);
        if (q == t->n_points || !metric_of(&t->results[q], ps->metric, &y)) {
            fputs(open ? "\"/>\n" : "", f);
            open = false;
            continue;
        }
        int px = x_of(l, ax->n_values, v), py = y_of(y, top);
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

/* The bars of series number `s` (first point p): one in each category's
 * slot where the point is ok, side by side with the other series' bars. */
static void bars(FILE *f, const sweep_table *t, const sweep_plot_spec *ps, const layout *l, size_t p, size_t s,
                 double top, const char *colour)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    int slot = l->plot_w / (int)ax->n_values, group = slot * BAR_GROUP / 100;
    int bar_w = group / (int)l->n_series > 1 ? group / (int)l->n_series : 1;
    for (size_t v = 0; v < ax->n_values; v++) {
        double y = 0;
        size_t q = point_at(t, ps->axis, p, v);
        if (q == t->n_points || !metric_of(&t->results[q], ps->metric, &y))
            continue;
        int x = x_of(l, ax->n_values, v) - group / 2 + (int)s * bar_w, top_y = y_of(y, top);
        fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, top_y,
                bar_w, PLOT_Y + PLOT_H - top_y, colour);
    }
}

static void axes(FILE *f, const sweep_table *t, const sweep_plot_spec *ps, const layout *l, double top)
{
    const sweep_axis *ax = &t->spec->axes[ps->axis];
    fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#000000\"/>\n", PLOT_X, PLOT_Y, PLOT_Y + PLOT_H,
            PLOT_X + l->plot_w);
    for (int k = 0; k <= 4; k++) {
        int y = PLOT_Y + PLOT_H - k * PLOT_H / 4;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.10g</text>\n", PLOT_X - 6, y + 4, top * k / 4);
    }
    for (size_t v = 0; v < ax->n_values; v++) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x_of(l, ax->n_values, v),
                PLOT_Y + PLOT_H + 18);
        xml_text(f, ax->values[v].text, LABEL_BYTES);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PLOT_X + l->plot_w / 2, PLOT_Y + PLOT_H + 40);
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
    layout l = layout_of(t, ps);
    svg_chart_begin(f, l.width, l.height);
    fprintf(f, "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s against ",
            metric_names[ps->metric]);
    xml_text(f, t->spec->axes[ps->axis].name, SIZE_MAX);
    fputs("</text>\n<text x=\"16\" y=\"46\">", f);
    xml_text(f, t->spec->path, SIZE_MAX);
    fputs("</text>\n", f);
    axes(f, t, ps, &l, top);
    size_t s = 0;
    for (size_t p = 0; p < t->n_points; p++) {
        if (!series_start(t, ps->axis, p))
            continue;
        const char *colour = svg_chart_colour(s);
        if (l.bars) {
            bars(f, t, ps, &l, p, s, top, colour);
        } else {
            series(f, t, ps, &l, p, top, colour, false);
            series(f, t, ps, &l, p, top, colour, true);
        }
        legend(f, t, &l, ps->axis, p, (int)s++, colour);
    }
    fputs("</svg>\n", f);
}
