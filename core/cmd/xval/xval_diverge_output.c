/*
 * xval_diverge_output.c - text, CSV and JSON of the divergence report.
 * The text is aligned in columns (numbers to the right, names to the
 * left); a value that is not known is "-" in the text, empty in the CSV
 * and null in the JSON, as in the finish-time table.
 */
#include "cmd/xval/xval_diverge_output.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "out/csv_out.h"
#include "out/json_out.h"
#include "util/msg_escape.h"

enum { CELL = 160, NAME_BYTES = 40 };

/* ---- an aligned grid of cells ------------------------------------------------ */

typedef struct grid {
    size_t cols, rows, cap;
    char (*cell)[CELL];         /* [row * cols + col] */
    const bool *left;           /* [col]: aligned to the left */
} grid;

/* The next row's cells (empty), or NULL when out of memory. */
static char (*grid_row(grid *g))[CELL]
{
    if (g->rows == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        void *grown = realloc(g->cell, cap * g->cols * sizeof *g->cell);
        if (!grown)
            return NULL;
        g->cell = grown;
        g->cap = cap;
    }
    char (*row)[CELL] = g->cell + g->rows++ * g->cols;
    memset(row, 0, g->cols * sizeof *row);
    return row;
}

/* Every row with its columns two spaces apart, no trailing blanks. */
static void grid_write(FILE *out, const grid *g)
{
    size_t *width = calloc(g->cols, sizeof *width);
    if (!width)
        return;
    for (size_t i = 0; i < g->rows * g->cols; i++)
        if (strlen(g->cell[i]) > width[i % g->cols])
            width[i % g->cols] = strlen(g->cell[i]);
    char line[4096];
    for (size_t r = 0; r < g->rows; r++) {
        size_t used = 0;
        for (size_t c = 0; c < g->cols && used < sizeof line; c++) {
            const char *s = g->cell[r * g->cols + c];
            int n = snprintf(line + used, sizeof line - used, g->left[c] ? "%s%-*s" : "%s%*s", c ? "  " : "",
                             (int)width[c], s);
            used += n > 0 ? (size_t)n : 0;
        }
        used = used < sizeof line ? used : sizeof line - 1;
        while (used > 0 && line[used - 1] == ' ')
            used--;
        fprintf(out, "%.*s\n", (int)used, line);
    }
    free(width);
}

/* ---- text: the collectives ------------------------------------------------------ */

static const char *band_words(const xval_table *t, char *buf, size_t len)
{
    if (t->has_tolerance)
        snprintf(buf, len, "outside the band %.10g", t->tolerance);
    else
        snprintf(buf, len, "differing (no --tolerance)");
    return buf;
}

static void ratio_cell(char *cell, const xval_coll_row *r, size_t b)
{
    double ratio;
    if (r->has[0] && r->has[b] && xval_diverge_ratio(r->duration[b], r->duration[0], &ratio))
        snprintf(cell, CELL, "%.6f%s", ratio, r->outside[b] ? "*" : "");
    else
        snprintf(cell, CELL, "-");
}

static int collectives_grid(grid *g, const xval_table *t, const xval_divergence *v)
{
    char(*h)[CELL] = grid_row(g);
    if (!h)
        return -1;
    snprintf(h[0], CELL, "node");
    snprintf(h[1], CELL, "name");
    snprintf(h[2], CELL, "type");
    snprintf(h[3], CELL, "bytes");
    for (size_t b = 0, c = 4; b < v->n_backends; b++) {
        msg_escape(t->rows[b].backend, h[c++], CELL);
        if (b > 0)
            snprintf(h[c++], CELL, "ratio");
    }
    for (size_t k = 0; k < v->n_rows; k++) {
        const xval_coll_row *r = &v->rows[k];
        char(*row)[CELL] = grid_row(g);
        if (!row)
            return -1;
        snprintf(row[0], CELL, "%" PRIu64, r->what->node);
        msg_escape(r->what->name, row[1], NAME_BYTES);
        snprintf(row[2], CELL, "%s", r->what->type);
        snprintf(row[3], CELL, "%" PRIu64, r->what->bytes);
        for (size_t b = 0, c = 4; b < v->n_backends; b++) {
            snprintf(row[c++], CELL, r->has[b] ? "%" PRIu64 : "-", r->duration[b]);
            if (b > 0)
                ratio_cell(row[c++], r, b);
        }
    }
    return 0;
}

static void write_collectives(FILE *out, const xval_table *t, const xval_divergence *v)
{
    char base[300], band[64];
    msg_escape(t->baseline, base, sizeof base);
    if (t->has_tolerance)
        snprintf(band, sizeof band, "* outside the band %.10g", t->tolerance);
    else
        snprintf(band, sizeof band, "* any difference: no --tolerance");
    fprintf(out, "\ncollectives of NPU %" PRIu32 ": duration in ticks per backend, ratio to %s (%s)\n", v->npu, base,
            band);
    if (v->n_rows == 0) {
        fputs("none reported\n", out);
        return;
    }
    size_t cols = 4 + 2 * v->n_backends - 1;
    bool *left = calloc(cols, sizeof *left);
    grid g = {.cols = cols, .left = left};
    if (left) {
        left[1] = left[2] = true;
        for (size_t c = 6; c < cols; c += 2)
            left[c] = true; /* ratios: the '*' of a row outside the band hangs to the right */
        if (collectives_grid(&g, t, v) == 0)
            grid_write(out, &g);
    }
    free(g.cell);
    free(left);
}

void xval_diverge_first_line(FILE *out, const xval_table *t, const xval_divergence *v)
{
    char band[64], esc[300];
    band_words(t, band, sizeof band);
    if (!v->has_baseline) {
        fprintf(out, "no collective durations of %s to compare with", msg_escape(t->baseline, esc, sizeof esc));
        return;
    }
    if (!v->has_first) {
        fputs(t->has_tolerance ? "no collective " : "no collective differs (no --tolerance)", out);
        fputs(t->has_tolerance ? band : "", out);
        return;
    }
    const xval_coll_row *r = &v->rows[v->first];
    fprintf(out, "first collective %s: node %" PRIu64 " '%s' (%s, %" PRIu64 " bytes, NPU %" PRIu32 "):", band,
            r->what->node, msg_escape(r->what->name, esc, sizeof esc), r->what->type, r->what->bytes, v->npu);
    for (size_t b = 0; b < v->n_backends; b++) {
        fprintf(out, "%s %s ", b ? "," : "", msg_escape(t->rows[b].backend, esc, sizeof esc));
        if (!r->has[b]) {
            fputc('-', out);
            continue;
        }
        fprintf(out, "%" PRIu64, r->duration[b]);
        double ratio;
        if (b > 0 && r->has[0] && xval_diverge_ratio(r->duration[b], r->duration[0], &ratio))
            fprintf(out, " (%.6f)", ratio);
    }
}

/* ---- text: the links --------------------------------------------------------------- */

/* "BEFORE NAME, NAME: no link statistics" for the backends that ran
 * without them (nothing when every one has them, or failed). Returns
 * whether it wrote anything. */
static bool without_stats(FILE *out, const xval_table *t, const xval_divergence *v, const char *before)
{
    char esc[300];
    bool any = false;
    for (size_t b = 0; b < v->n_backends; b++)
        if (!v->stats[b] && t->rows[b].status != XVAL_ERROR) {
            fprintf(out, "%s%s", any ? ", " : before, msg_escape(t->rows[b].backend, esc, sizeof esc));
            any = true;
        }
    if (any)
        fputs(": no link statistics", out);
    return any;
}

static void link_name(char *cell, const xval_link *l)
{
    char src[64], dst[64];
    if (l->src[0] && l->dst[0])
        snprintf(cell, CELL, "%s->%s", msg_escape(l->src, src, sizeof src), msg_escape(l->dst, dst, sizeof dst));
    else
        snprintf(cell, CELL, "%" PRIu64 "->%" PRIu64, l->src_device, l->dst_device);
}

static void link_numbers(char (*row)[CELL], uint64_t bytes, uint64_t busy, bool has_queue, uint64_t queue)
{
    snprintf(row[2], CELL, "%" PRIu64, bytes);
    snprintf(row[3], CELL, "%" PRIu64, busy);
    snprintf(row[4], CELL, has_queue ? "%" PRIu64 : "-", queue);
}

static int links_grid(grid *g, const xval_table *t, const xval_divergence *v, size_t top)
{
    static const char *const head[] = {"link", "backend", "bytes", "busy_ticks", "max_queue", "busy_spread",
                                       "queue_diff"};
    char(*h)[CELL] = grid_row(g);
    if (!h)
        return -1;
    for (size_t c = 0; c < 7; c++)
        snprintf(h[c], CELL, "%s", head[c]);
    for (size_t k = 0; k < v->n_links && k < top; k++) {
        const xval_link_row *l = &v->links[k];
        bool first = true;
        for (size_t b = 0; b < v->n_backends; b++) {
            char(*row)[CELL] = v->stats[b] ? grid_row(g) : NULL;
            if (!v->stats[b] || !row)
                continue;
            if (first) {
                link_name(row[0], l->what);
                snprintf(row[5], CELL, l->used_by_all ? "%.6f" : "-", l->busy_spread);
                snprintf(row[6], CELL, "%" PRIu64, l->queue_diff);
            }
            first = false;
            msg_escape(t->rows[b].backend, row[1], CELL);
            link_numbers(row, l->per[b].bytes, l->per[b].busy_ticks, l->per[b].has_queue, l->per[b].max_queue_ticks);
        }
    }
    bool first = true;
    for (size_t b = 0; b < v->n_backends; b++) {
        char(*row)[CELL] = v->stats[b] ? grid_row(g) : NULL;
        if (!row)
            continue;
        if (first)
            snprintf(row[0], CELL, "total");
        first = false;
        const xval_link_total *s = &v->totals[b];
        msg_escape(t->rows[b].backend, row[1], CELL);
        link_numbers(row, s->bytes, s->busy_ticks, s->has_queue, s->max_queue_ticks);
    }
    return 0;
}

static void write_links(FILE *out, const xval_table *t, const xval_divergence *v, size_t top)
{
    char esc[300];
    fputs("\nlinks: ", out);
    if (v->n_link_backends < 2) {
        size_t only = 0;
        while (only < v->n_backends && !v->stats[only])
            only++;
        if (only < v->n_backends)
            fprintf(out, "only %s counts per-link traffic, nothing to compare",
                    msg_escape(t->rows[only].backend, esc, sizeof esc));
        else
            fputs("no backend counts per-link traffic, nothing to compare", out);
        fputs(without_stats(out, t, v, " (") ? ")\n" : "\n", out);
        return;
    }
    size_t shown = top < v->n_links ? top : v->n_links;
    fprintf(out, "the %zu of %zu that differ most (busy-ticks spread, then worst-queue difference)", shown, v->n_links);
    without_stats(out, t, v, "; ");
    fputc('\n', out);
    bool left[7] = {true, true, false, false, false, false, false};
    grid g = {.cols = 7, .left = left};
    if (links_grid(&g, t, v, top) == 0)
        grid_write(out, &g);
    free(g.cell);
}

void xval_diverge_write_text(FILE *out, const xval_table *t, const xval_divergence *v, size_t top_links)
{
    write_collectives(out, t, v);
    xval_diverge_first_line(out, t, v);
    fputc('\n', out);
    write_links(out, t, v, top_links);
}

/* ---- CSV ------------------------------------------------------------------------------ */

void xval_diverge_write_collectives_csv(FILE *out, const xval_table *t, const xval_divergence *v)
{
    fputs("npu,node,name,type,bytes,backend,duration,ratio,outside\n", out);
    for (size_t k = 0; k < v->n_rows; k++) {
        const xval_coll_row *r = &v->rows[k];
        for (size_t b = 0; b < v->n_backends; b++) {
            fprintf(out, "%" PRIu32 ",%" PRIu64 ",", v->npu, r->what->node);
            csv_out_field(out, r->what->name);
            fprintf(out, ",%s,%" PRIu64 ",", r->what->type, r->what->bytes);
            csv_out_field(out, t->rows[b].backend);
            fputc(',', out);
            double ratio;
            bool has_ratio = r->has[0] && r->has[b] && xval_diverge_ratio(r->duration[b], r->duration[0], &ratio);
            if (r->has[b])
                fprintf(out, "%" PRIu64, r->duration[b]);
            fputc(',', out);
            if (has_ratio)
                fprintf(out, "%.6f", ratio);
            fprintf(out, ",%s\n", b == 0 || !has_ratio ? "" : r->outside[b] ? "yes" : "no");
        }
    }
}

void xval_diverge_write_links_csv(FILE *out, const xval_table *t, const xval_divergence *v)
{
    fputs("rank,src_device,dst_device,src,dst,backend,bytes,busy_ticks,max_queue_ticks,busy_spread,queue_diff\n", out);
    for (size_t k = 0; k < v->n_links; k++) {
        const xval_link_row *l = &v->links[k];
        for (size_t b = 0; b < v->n_backends; b++) {
            if (!v->stats[b])
                continue;
            const xval_link *p = &l->per[b];
            fprintf(out, "%zu,%" PRIu64 ",%" PRIu64 ",", k + 1, l->what->src_device, l->what->dst_device);
            csv_out_field(out, l->what->src);
            fputc(',', out);
            csv_out_field(out, l->what->dst);
            fputc(',', out);
            csv_out_field(out, t->rows[b].backend);
            fprintf(out, ",%" PRIu64 ",%" PRIu64 ",", p->bytes, p->busy_ticks);
            if (p->has_queue)
                fprintf(out, "%" PRIu64, p->max_queue_ticks);
            fputc(',', out);
            if (l->used_by_all)
                fprintf(out, "%.6f", l->busy_spread);
            fprintf(out, ",%" PRIu64 "\n", l->queue_diff);
        }
    }
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void json_collective(FILE *out, const xval_coll_row *r, size_t n)
{
    fprintf(out, "{\"node\": %" PRIu64 ", \"name\": ", r->what->node);
    json_out_string(out, r->what->name);
    fprintf(out, ", \"type\": \"%s\", \"bytes\": %" PRIu64 ", \"durations\": [", r->what->type, r->what->bytes);
    for (size_t b = 0; b < n; b++)
        fprintf(out, r->has[b] ? "%s%" PRIu64 : "%snull", b ? ", " : "", r->duration[b]);
    fputs("], \"ratios\": [", out);
    for (size_t b = 0; b < n; b++) {
        double ratio;
        if (r->has[0] && r->has[b] && xval_diverge_ratio(r->duration[b], r->duration[0], &ratio))
            fprintf(out, "%s%.6f", b ? ", " : "", ratio);
        else
            fprintf(out, "%snull", b ? ", " : "");
    }
    fputs("], \"outside\": [", out);
    for (size_t b = 0; b < n; b++)
        fprintf(out, "%s%s", b ? ", " : "", r->outside[b] ? "true" : "false");
    fputs("]}", out);
}

static void json_link_numbers(FILE *out, const char *backend, uint64_t bytes, uint64_t busy, bool has_queue,
                              uint64_t queue)
{
    fputs("{\"backend\": ", out);
    json_out_string(out, backend);
    fprintf(out, ", \"bytes\": %" PRIu64 ", \"busy_ticks\": %" PRIu64 ", \"max_queue_ticks\": ", bytes, busy);
    if (has_queue)
        fprintf(out, "%" PRIu64 "}", queue);
    else
        fputs("null}", out);
}

/* Starts backend b's entry of a list over the backends with link
 * statistics (", " after the first); false for a backend without them. */
static bool next_stats_entry(FILE *out, const xval_divergence *v, size_t b, bool *first)
{
    if (!v->stats[b])
        return false;
    fputs(*first ? "" : ", ", out);
    *first = false;
    return true;
}

static void json_link(FILE *out, const xval_table *t, const xval_divergence *v, const xval_link_row *l)
{
    fprintf(out, "{\"src_device\": %" PRIu64 ", \"dst_device\": %" PRIu64 ", \"src\": ", l->what->src_device,
            l->what->dst_device);
    json_out_string(out, l->what->src);
    fputs(", \"dst\": ", out);
    json_out_string(out, l->what->dst);
    if (l->used_by_all)
        fprintf(out, ", \"busy_spread\": %.6f", l->busy_spread);
    else
        fputs(", \"busy_spread\": null", out);
    fprintf(out, ", \"queue_diff\": %" PRIu64 ", \"backends\": [", l->queue_diff);
    bool first = true;
    for (size_t b = 0; b < v->n_backends; b++) {
        if (!next_stats_entry(out, v, b, &first))
            continue;
        const xval_link *p = &l->per[b];
        json_link_numbers(out, t->rows[b].backend, p->bytes, p->busy_ticks, p->has_queue, p->max_queue_ticks);
    }
    fputs("]}", out);
}

static void json_links(FILE *out, const xval_table *t, const xval_divergence *v)
{
    fputs(",\n\"link_totals\": [", out);
    bool first = true;
    for (size_t b = 0; b < v->n_backends; b++) {
        if (!next_stats_entry(out, v, b, &first))
            continue;
        const xval_link_total *s = &v->totals[b];
        json_link_numbers(out, t->rows[b].backend, s->bytes, s->busy_ticks, s->has_queue, s->max_queue_ticks);
    }
    fputs("],\n\"links\": [", out);
    for (size_t k = 0; k < v->n_links; k++) {
        fputs(k ? ",\n" : "\n", out);
        json_link(out, t, v, &v->links[k]);
    }
    fputs(v->n_links ? "\n]" : "]", out);
}

void xval_diverge_write_json(FILE *out, const xval_table *t, const xval_divergence *v)
{
    fprintf(out, "\"divergence\": {\n\"npu\": %" PRIu32 ",\n\"band\": %.10g,\n\"collectives\": [", v->npu,
            v->tolerance);
    for (size_t k = 0; k < v->n_rows; k++) {
        fputs(k ? ",\n" : "\n", out);
        json_collective(out, &v->rows[k], v->n_backends);
    }
    fputs(v->n_rows ? "\n],\n\"first_outside\": " : "],\n\"first_outside\": ", out);
    if (v->has_first)
        fprintf(out, "{\"index\": %zu, \"node\": %" PRIu64 "}", v->first, v->rows[v->first].what->node);
    else
        fputs("null", out);
    json_links(out, t, v);
    fputs("\n}", out);
}
