/*
 * The network and per-link records of --report. The counters are read once,
 * when the report is completed, straight from the backend: the host keeps
 * no copy of them.
 */
#include "sim/link_report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/decimal.h"

static bool has_link_stats(const sim *s)
{
    /* The loader refused a bit without the functions, and vice versa. */
    return (s->be->capabilities & VIMANA_CAP_LINK_STATS) != 0;
}

/* The shortest decimal that reads back as the same double, so that 50
 * stays "50" (not %g's "5e+01") and 12.5 "12.5". */
static void write_double(FILE *f, double v)
{
    char buf[32];
    if (v == floor(v) && fabs(v) < 1e15) {
        fprintf(f, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, f);
}

static void network_json(sim *s, FILE *f)
{
    fputs(",\n\"network\": {\"dimensions\": [", f);
    for (uint32_t d = 0; d < s->n_dims; d++) {
        fprintf(f, "%s{\"dim\": %u, \"npus\": %u, \"bandwidth_gbps\": ", d ? ", " : "", d, s->dim_size[d]);
        if (s->be->dim_bandwidth)
            write_double(f, s->be->dim_bandwidth(s->be_ctx, d));
        else
            fputs("null", f);
        fputc('}', f);
    }
    fputs("]", f);
    if (has_link_stats(s))
        fprintf(f, ", \"num_links\": %u", s->be->num_links(s->be_ctx));
    fputc('}', f);
}

/* Utilisation = busy ticks / the run's end, rounded half up to this many
 * places (docs/simulator.md). */
#define UTILISATION_PLACES 6

/* Link i's counters, or -1 after sim_fail. */
static int read_link(sim *s, uint32_t i, vimana_link_stats *st)
{
    memset(st, 0, sizeof *st);
    int rc = s->be->link_stats(s->be_ctx, i, st);
    if (rc != VIMANA_OK) {
        sim_fail(s, "network backend %s: link_stats() failed for link %u of %u (status %d)", s->be->name, i,
                 s->be->num_links(s->be_ctx), rc);
        return -1;
    }
    return 0;
}

/* One line per link that carried a message: a FullyConnected network has
 * n x n links and most runs use few of them. */
static int links_json(sim *s, FILE *f, vimana_tick end)
{
    fputs(",\n\"links\": [", f);
    uint32_t n = s->be->num_links(s->be_ctx);
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        vimana_link_stats st;
        if (read_link(s, i, &st) != 0)
            return -1;
        if (st.messages == 0)
            continue;
        char util[DECIMAL_RATIO_MAX];
        decimal_ratio(util, st.busy_ticks, end, UTILISATION_PLACES);
        fprintf(f, "%s{\"src_device\": %u, \"dst_device\": %u, \"bytes\": %llu, \"messages\": %llu, "
                   "\"busy_ticks\": %llu, \"utilisation\": %s}", first ? "\n" : ",\n", st.src_device, st.dst_device,
                (unsigned long long)st.bytes, (unsigned long long)st.messages, (unsigned long long)st.busy_ticks, util);
        first = false;
    }
    fputs("\n]", f);
    return 0;
}

static int links_csv(sim *s, const char *report_path, vimana_tick end)
{
    size_t len = strlen(report_path);
    char *path = malloc(len + 16);
    if (!path) {
        sim_fail(s, "out of memory");
        return -1;
    }
    snprintf(path, len + 16, "%.*s.links.csv", (int)(len - 4), report_path);
    FILE *f = fopen(path, "w");
    if (!f) {
        sim_fail(s, "%s: cannot create: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    fputs("src_device,dst_device,bytes,messages,busy_ticks,utilisation\n", f);
    uint32_t n = s->be->num_links(s->be_ctx);
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        vimana_link_stats st;
        rc = read_link(s, i, &st);
        if (rc != 0 || st.messages == 0)
            continue;
        char util[DECIMAL_RATIO_MAX];
        decimal_ratio(util, st.busy_ticks, end, UTILISATION_PLACES);
        fprintf(f, "%u,%u,%llu,%llu,%llu,%s\n", st.src_device, st.dst_device, (unsigned long long)st.bytes,
                (unsigned long long)st.messages, (unsigned long long)st.busy_ticks, util);
    }
    bool bad = ferror(f) != 0;
    if ((fclose(f) != 0 || bad) && rc == 0) {
        sim_fail(s, "%s: write failed", path);
        rc = -1;
    }
    free(path);
    return rc;
}

int link_report_write(sim *s, FILE *json, const char *report_path, vimana_tick end)
{
    if (json) {
        network_json(s, json);
        return has_link_stats(s) ? links_json(s, json, end) : 0;
    }
    return has_link_stats(s) ? links_csv(s, report_path, end) : 0;
}
