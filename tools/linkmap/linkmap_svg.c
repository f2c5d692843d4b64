/*
 * linkmap_svg.c - the heat map's SVG. Coordinates are integers and the only
 * fractional numbers (bar widths, percentages) go through printf's exact
 * rounding, so the output is byte-for-byte reproducible.
 */
#include "linkmap/linkmap_svg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/xml_text.h"

enum {
    WIDTH = 1040,   /* room for "..., worst wait N ns" after the bars */
    MARGIN = 16,
    BAR_X = 220,    /* after the "src -> dst" labels */
    LABEL_NAME = 12, /* bytes of a device name in a row label (the title has it all) */
    BAR_W = 400,    /* the width of 100 % */
    TEXT_X = 632,   /* the figures after the bars */
    ROWS_Y = 72,    /* top of the first row */
    ROW_H = 22,
    BAR_H = 16,
};

/* Blue (idle), orange (half), red (busy all the run). */
static const unsigned char stops[3][3] = {{44, 123, 182}, {253, 174, 97}, {215, 25, 28}};

void linkmap_colour(double utilisation, char out[8])
{
    double u = utilisation > 1 ? 1 : utilisation < 0 ? 0 : utilisation;
    long m = lround(u * 1000); /* 0..1000: integer steps keep the mix exact */
    int seg = m > 500;
    long f = seg ? m - 500 : m;
    unsigned c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (unsigned)((stops[seg][k] * (500 - f) + stops[seg + 1][k] * f + 250) / 500);
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The device's name from the report (at most `max` bytes of it), or for an
 * older report "NPU 3" or "switch 0": device ids are NPUs first, then
 * switches. */
static void device_name(FILE *f, const link_model *m, uint64_t id, const char *name, size_t max)
{
    if (name)
        xml_text(f, name, max);
    else if (id < m->n_npus)
        fprintf(f, "NPU %llu", (unsigned long long)id);
    else
        fprintf(f, "switch %llu", (unsigned long long)(id - m->n_npus));
}

static void header(FILE *f, const link_model *m, size_t shown, int height)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
            "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Link utilisation: ",
            WIDTH, height, WIDTH, height, WIDTH, height, MARGIN);
    xml_text(f, m->backend, SIZE_MAX);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"50\">%llu NPUs (", MARGIN, (unsigned long long)m->n_npus);
    for (size_t d = 0; d < m->n_dims; d++) {
        fprintf(f, "%sdim %zu: %llu", d ? ", " : "", d, (unsigned long long)m->dims[d].npus);
        if (m->dims[d].has_bandwidth)
            fprintf(f, " @ %.6g GB/s", m->dims[d].bandwidth_gbps);
    }
    fputs("); ", f);
    if (m->has_num_links)
        fprintf(f, "%llu links, ", (unsigned long long)m->num_links);
    if (shown < m->n_links)
        fprintf(f, "%zu carried traffic; the %zu busiest shown</text>\n", m->n_links, shown);
    else
        fprintf(f, "%zu carried traffic, all shown</text>\n", m->n_links);
}

static void link_label(FILE *f, const link_model *m, const lm_link *l, size_t max)
{
    device_name(f, m, l->src, l->src_name, max);
    fputs(" -&gt; ", f);
    device_name(f, m, l->dst, l->dst_name, max);
}

/* The hover title: full names, busy time and, when the report has them,
 * the worst and the total queueing delay (exact integers). */
static void row_title(FILE *f, const link_model *m, const lm_link *l)
{
    fputs("<g><title>", f);
    link_label(f, m, l, SIZE_MAX);
    fprintf(f, ": busy %llu ns", (unsigned long long)l->busy_ticks);
    if (l->has_queue)
        fprintf(f, ", worst queueing delay %llu ns, %llu ns queued in all", (unsigned long long)l->max_queue_ticks,
                (unsigned long long)l->queue_ticks);
    fputs("</title>\n", f);
}

static void row(FILE *f, const link_model *m, const lm_link *l, int y)
{
    double u = l->utilisation > 1 ? 1 : l->utilisation;
    char colour[8];
    linkmap_colour(l->utilisation, colour);
    row_title(f, m, l);
    fprintf(f, "<text x=\"%d\" y=\"%d\">", MARGIN, y + 13);
    link_label(f, m, l, LABEL_NAME);
    fprintf(f,
            "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\"/>\n"
            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n"
            "<text x=\"%d\" y=\"%d\">%.2f%%, %llu bytes, %llu messages",
            BAR_X, y, BAR_W, BAR_H, BAR_X, y, u * BAR_W, BAR_H, colour, TEXT_X, y + 13, l->utilisation * 100,
            (unsigned long long)l->bytes, (unsigned long long)l->messages);
    if (l->has_queue)
        fprintf(f, ", worst wait %llu ns", (unsigned long long)l->max_queue_ticks);
    fputs("</text></g>\n", f);
}

static void legend(FILE *f, int y)
{
    fputs("<defs><linearGradient id=\"heat\">", f);
    for (int k = 0; k < 3; k++)
        fprintf(f, "<stop offset=\"%d%%\" stop-color=\"#%02x%02x%02x\"/>", k * 50, stops[k][0], stops[k][1],
                stops[k][2]);
    fprintf(f,
            "</linearGradient></defs>\n"
            "<text x=\"%d\" y=\"%d\">utilisation (busy / run time)</text>\n"
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"10\" fill=\"url(#heat)\"/>\n"
            "<text x=\"%d\" y=\"%d\">0%%</text>\n"
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">100%%</text>\n",
            MARGIN, y + 10, BAR_X, y, BAR_W, BAR_X, y + 24, BAR_X + BAR_W, y + 24);
}

void linkmap_svg_write(FILE *out, const link_model *m, size_t top)
{
    size_t shown = top < m->n_links ? top : m->n_links;
    int legend_y = ROWS_Y + (int)shown * ROW_H + 12;
    header(out, m, shown, legend_y + 40);
    for (size_t i = 0; i < shown; i++)
        row(out, m, &m->links[i], ROWS_Y + (int)i * ROW_H);
    legend(out, legend_y);
    fputs("</svg>\n", out);
}
