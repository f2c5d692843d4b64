/*
 * xval_output.c - table, CSV and JSON of a cross-validation. Numbers that
 * can be unknown (a failed run has no finish, a failed baseline gives no
 * ratio) are "-" in the table, empty in the CSV and null in the JSON.
 */
#include "cmd/xval/xval_output.h"

#include <inttypes.h>
#include <string.h>

#include "config.h"
#include "cmd/child_run.h"
#include "out/csv_out.h"
#include "out/json_out.h"
#include "cmd/xval/xval_diverge_output.h"

const char *xval_status_name(xval_status s)
{
    return s == XVAL_OK ? "ok" : s == XVAL_OUTSIDE ? "outside" : "error";
}

/* ---- the table ------------------------------------------------------------ */

enum { COL_BACKEND, COL_STATUS, COL_NPUS, COL_FINISH, COL_SUM, COL_RATIO, COL_CPU, COL_WALL, COL_PEAK, N_COLS };

static const char *const headers[N_COLS] = {"backend", "status", "npus", "finish", "finish_sum",
                                            "ratio", "cpu_s", "wall_s", "peak_mib"};

typedef struct cells {
    char c[N_COLS][272];
} cells;

static void row_cells(const xval_row *r, cells *out)
{
    bool ran = r->status != XVAL_ERROR;
    snprintf(out->c[COL_BACKEND], sizeof out->c[0], "%s", r->backend);
    snprintf(out->c[COL_STATUS], sizeof out->c[0], "%s", xval_status_name(r->status));
    snprintf(out->c[COL_NPUS], sizeof out->c[0], ran ? "%" PRIu32 : "-", r->npus);
    snprintf(out->c[COL_FINISH], sizeof out->c[0], ran ? "%" PRIu64 : "-", r->finish);
    snprintf(out->c[COL_SUM], sizeof out->c[0], ran ? "%" PRIu64 : "-", r->finish_sum);
    snprintf(out->c[COL_RATIO], sizeof out->c[0], r->has_ratio ? "%.6f" : "-", r->ratio);
    snprintf(out->c[COL_CPU], sizeof out->c[0], r->measured ? "%.3f" : "-", r->cpu_s);
    snprintf(out->c[COL_WALL], sizeof out->c[0], r->measured ? "%.3f" : "-", r->wall_s);
    snprintf(out->c[COL_PEAK], sizeof out->c[0], r->measured ? "%.1f" : "-", (double)r->peak_kib / 1024.0);
}

static void print_line(FILE *out, const cells *c, const size_t width[N_COLS], const char *error)
{
    for (int k = 0; k < N_COLS; k++) {
        bool left = k == COL_BACKEND || k == COL_STATUS;
        bool last = k == N_COLS - 1 && !error;
        if (left && !last)
            fprintf(out, "%-*s", (int)width[k], c->c[k]);
        else
            fprintf(out, "%*s", (int)width[k], c->c[k]);
        if (!last)
            fputs("  ", out);
    }
    if (error)
        fputs(error, out);
    fputc('\n', out);
}

void xval_write_table(FILE *out, const xval_table *t)
{
    size_t width[N_COLS];
    cells head;
    for (int k = 0; k < N_COLS; k++) {
        snprintf(head.c[k], sizeof head.c[k], "%s", headers[k]);
        width[k] = strlen(headers[k]);
    }
    for (size_t i = 0; i < t->n; i++) {
        cells c;
        row_cells(&t->rows[i], &c);
        for (int k = 0; k < N_COLS; k++)
            if (strlen(c.c[k]) > width[k])
                width[k] = strlen(c.c[k]);
    }
    print_line(out, &head, width, NULL);
    for (size_t i = 0; i < t->n; i++) {
        cells c;
        row_cells(&t->rows[i], &c);
        print_line(out, &c, width, t->rows[i].status == XVAL_ERROR ? t->rows[i].error : NULL);
    }
}

/* ---- CSV ------------------------------------------------------------------ */

void xval_write_csv(FILE *out, const xval_table *t)
{
    fputs("backend,status,npus,finish,finish_sum,ratio,cpu_seconds,wall_seconds,peak_memory_kib,error\n", out);
    for (size_t i = 0; i < t->n; i++) {
        const xval_row *r = &t->rows[i];
        csv_out_field(out, r->backend);
        fprintf(out, ",%s,", xval_status_name(r->status));
        if (r->status != XVAL_ERROR)
            fprintf(out, "%" PRIu32 ",%" PRIu64 ",%" PRIu64, r->npus, r->finish, r->finish_sum);
        else
            fputs(",,", out);
        fputc(',', out);
        if (r->has_ratio)
            fprintf(out, "%.6f", r->ratio);
        fputc(',', out);
        if (r->measured)
            fprintf(out, "%.6f,%.6f,%ld", r->cpu_s, r->wall_s, r->peak_kib);
        else
            fputs(",,", out);
        fputc(',', out);
        csv_out_field(out, r->status == XVAL_ERROR ? r->error : "");
        fputc('\n', out);
    }
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_row(FILE *out, const xval_row *r)
{
    fputs("{\"backend\": ", out);
    json_out_string(out, r->backend);
    fprintf(out, ", \"status\": \"%s\"", xval_status_name(r->status));
    if (r->status != XVAL_ERROR)
        fprintf(out, ", \"npus\": %" PRIu32 ", \"finish\": %" PRIu64 ", \"finish_sum\": %" PRIu64, r->npus,
                r->finish, r->finish_sum);
    else
        fputs(", \"npus\": null, \"finish\": null, \"finish_sum\": null", out);
    if (r->has_ratio)
        fprintf(out, ", \"ratio\": %.6f", r->ratio);
    else
        fputs(", \"ratio\": null", out);
    if (r->measured)
        fprintf(out, ", \"cpu_seconds\": %.6f", r->cpu_s);
    else
        fputs(", \"cpu_seconds\": null", out);
    child_run_json_cost(out, r->measured, r->wall_s, r->peak_kib, r->status == XVAL_ERROR ? r->error : NULL);
    fputc('}', out);
}

void xval_write_json(FILE *out, const xval_table *t, const xval_divergence *v)
{
    fprintf(out, "{\n\"generator\": \"vimana %s\",\n\"baseline\": ", PACKAGE_VERSION);
    json_out_string(out, t->baseline);
    fputs(",\n\"tolerance\": ", out);
    if (t->has_tolerance)
        fprintf(out, "%.10g", t->tolerance);
    else
        fputs("null", out);
    fputs(",\n\"backends\": [", out);
    for (size_t i = 0; i < t->n; i++) {
        fputs(i ? ",\n" : "\n", out);
        json_row(out, &t->rows[i]);
    }
    fputs("\n]", out);
    if (v) {
        fputs(",\n", out);
        xval_diverge_write_json(out, t, v);
    }
    fputs("\n}\n", out);
}
