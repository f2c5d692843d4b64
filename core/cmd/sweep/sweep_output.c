/* sweep_output.c - results.csv and results.json. */
#include "cmd/sweep/sweep_output.h"

#include <inttypes.h>

#include "config.h"
#include "cmd/child_run.h"
#include "out/csv_out.h"
#include "out/json_out.h"

const char *sweep_table_value(const sweep_table *t, size_t p, size_t a)
{
    size_t v = t->rows[p * t->spec->n_axes + a];
    return v == SWEEP_BASE ? "" : t->spec->axes[a].values[v].text;
}

void sweep_write_csv(FILE *out, const sweep_table *t)
{
    fputs("point", out);
    for (size_t a = 0; a < t->spec->n_axes; a++) {
        fputc(',', out);
        csv_out_field(out, t->spec->axes[a].name);
    }
    fputs(",status,finish,finish_sum,exposed_mean,wall_seconds,peak_memory_kib,error\n", out);
    for (size_t p = 0; p < t->n_points; p++) {
        const sweep_result *r = &t->results[p];
        fprintf(out, "%zu", p);
        for (size_t a = 0; a < t->spec->n_axes; a++) {
            fputc(',', out);
            csv_out_field(out, sweep_table_value(t, p, a));
        }
        fprintf(out, ",%s,", sweep_status_name(r->status));
        if (r->status == SWEEP_OK)
            fprintf(out, "%" PRIu64 ",%" PRIu64 ",%.3f", r->finish, r->finish_sum, sweep_result_exposed_mean(r));
        else
            fputs(",,", out);
        fputc(',', out);
        if (r->measured)
            fprintf(out, "%.6f,%ld", r->wall_s, r->peak_kib);
        else
            fputc(',', out);
        fputc(',', out);
        csv_out_field(out, r->status == SWEEP_FAILED && r->error ? r->error : "");
        fputc('\n', out);
    }
}

static void json_point(FILE *out, const sweep_table *t, size_t p)
{
    const sweep_result *r = &t->results[p];
    fprintf(out, "{\"point\": %zu, \"parameters\": {", p);
    for (size_t a = 0, shown = 0; a < t->spec->n_axes; a++) {
        if (t->rows[p * t->spec->n_axes + a] == SWEEP_BASE)
            continue;
        fputs(shown++ ? ", " : "", out);
        json_out_string(out, t->spec->axes[a].name);
        fputs(": ", out);
        json_out_string(out, sweep_table_value(t, p, a));
    }
    fprintf(out, "}, \"status\": \"%s\"", sweep_status_name(r->status));
    if (r->status == SWEEP_OK)
        fprintf(out, ", \"npus\": %" PRIu32 ", \"finish\": %" PRIu64 ", \"finish_sum\": %" PRIu64
                     ", \"exposed_mean\": %.3f",
                r->npus, r->finish, r->finish_sum, sweep_result_exposed_mean(r));
    else
        fputs(", \"npus\": null, \"finish\": null, \"finish_sum\": null, \"exposed_mean\": null", out);
    child_run_json_cost(out, r->measured, r->wall_s, r->peak_kib,
                        r->status == SWEEP_FAILED ? (r->error ? r->error : "") : NULL);
    fputc('}', out);
}

void sweep_write_json(FILE *out, const sweep_table *t)
{
    fprintf(out, "{\n\"generator\": \"vimana %s\",\n\"sweep\": ", PACKAGE_VERSION);
    json_out_string(out, t->spec->path);
    fputs(",\n\"axes\": [", out);
    for (size_t a = 0; a < t->spec->n_axes; a++) {
        fputs(a ? ", " : "", out);
        json_out_string(out, t->spec->axes[a].name);
    }
    fputs("],\n\"points\": [", out);
    for (size_t p = 0; p < t->n_points; p++) {
        fputs(p ? ",\n" : "\n", out);
        json_point(out, t, p);
    }
    fputs("\n]\n}\n", out);
}
