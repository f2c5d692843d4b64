/*
 * The network and per-link records of --report. The counters are read once,
 * when the report is completed, straight from the backend: the host keeps
 * no copy of them.
 */
#include "host/link_report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend_loader.h"
#include "host/device_name.h"
#include "host/fault_links.h"
#include "host/network_host.h"
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

static void json_name(FILE *f, const char *name);

/* --network-faults as applied, in the order of their ticks: the link's
 * names and device ids, the tick, and the bandwidth factor or down. */
static void faults_json(const sim *s, FILE *f)
{
    if (!s->faults)
        return;
    fputs(", \"faults\": [", f);
    for (size_t i = 0; i < s->n_faults; i++) {
        const fault_link *fl = &s->faults[i];
        fputs(i ? ", {\"link\": [" : "{\"link\": [", f);
        json_name(f, fl->name[0]);
        fputs(", ", f);
        json_name(f, fl->name[1]);
        fprintf(f, "], \"devices\": [%u, %u], \"at\": %llu, ", fl->device[0], fl->device[1],
                (unsigned long long)fl->at);
        if (fl->factor == 0) {
            fputs("\"down\": true}", f);
            continue;
        }
        fputs("\"bandwidth_factor\": ", f);
        write_double(f, fl->factor);
        fputc('}', f);
    }
    fputc(']', f);
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
    uint32_t n_links;
    if (has_link_stats(s) && network_host_num_links(s, &n_links) == 0)
        fprintf(f, ", \"num_links\": %u", n_links);
    faults_json(s, f);
    fputc('}', f);
}

/* Utilisation = busy ticks / the run's end, rounded half up to this many
 * places (docs/simulator.md). */
#define UTILISATION_PLACES 6

/* One links record: the counters, the utilisation and both device names. */
typedef struct link_row {
    vimana_link_stats st;
    bool queue_known;  /* the backend fills max_queue_ticks and queue_ticks (ABI 1.2) */
    bool physics_known; /* the backend fills ecn_marks and pause_ticks (ABI 1.5) */
    char util[DECIMAL_RATIO_MAX];
    char src[DEVICE_NAME_SIZE], dst[DEVICE_NAME_SIZE];
} link_row;

/* Link i's counters, or -1 after sim_fail. */
static int read_link(sim *s, uint32_t i, vimana_link_stats *st)
{
    /* Zeroed, so that a pre-1.2 backend leaves the 1.2 fields 0. */
    memset(st, 0, sizeof *st);
    int rc = s->be->link_stats(s->be_ctx, i, st);
    if (rc != VIMANA_OK) {
        sim_fail(s, "network backend %s: link_stats() failed for link %u of %u (status %d)", s->be->name, i,
                 s->be->num_links(s->be_ctx), rc);
        return -1;
    }
    return 0;
}

static int read_name(sim *s, uint32_t device, char out[DEVICE_NAME_SIZE])
{
    char why[160];
    if (device_name_get(s->be, s->be_ctx, s->n_npus, device, out, why, sizeof why) != 0) {
        sim_fail(s, "network backend %s: %s", s->be->name, why);
        return -1;
    }
    return 0;
}

/* Link i's record in *r; *used is false for a link that carried nothing
 * (left out of the report). Returns 0, or -1 after sim_fail. */
static int read_row(sim *s, uint32_t i, vimana_tick end, link_row *r, bool *used)
{
    if (read_link(s, i, &r->st) != 0)
        return -1;
    *used = r->st.messages > 0;
    if (!*used)
        return 0;
    r->queue_known = backend_has_queue_stats(s->be);
    r->physics_known = backend_has_physics_stats(s->be);
    decimal_ratio(r->util, r->st.busy_ticks, end, UTILISATION_PLACES);
    if (read_name(s, r->st.src_device, r->src) != 0 || read_name(s, r->st.dst_device, r->dst) != 0)
        return -1;
    return 0;
}

/* A device name as a JSON string: names are printable ASCII (checked by
 * device_name_get), so only the quote and the backslash need escaping. */
static void json_name(FILE *f, const char *name)
{
    fputc('"', f);
    for (const char *p = name; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* A device name as a CSV field (RFC 4180): quoted, with quotes doubled,
 * when it holds a comma or a quote. */
static void csv_name(FILE *f, const char *name)
{
    if (!strpbrk(name, ",\"")) {
        fputs(name, f);
        return;
    }
    fputc('"', f);
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* A 1.2 counter, or the text for "unknown" of a pre-1.2 backend. */
static void queue_value(FILE *f, const link_row *r, vimana_tick v, const char *unknown)
{
    if (r->queue_known)
        fprintf(f, "%llu", (unsigned long long)v);
    else
        fputs(unknown, f);
}

/* A 1.5 counter, or the text for "unknown" of a pre-1.5 backend. */
static void physics_value(FILE *f, const link_row *r, uint64_t v, const char *unknown)
{
    if (r->physics_known)
        fprintf(f, "%llu", (unsigned long long)v);
    else
        fputs(unknown, f);
}

/* How a row spells what follows the 1.0 fields: the name quoting, the
 * separator before each later field, the text of an unknown counter and the
 * row's end. */
typedef struct row_style {
    void (*name)(FILE *f, const char *name);
    const char *before[6]; /* src, dst, max_queue_ticks, queue_ticks, ecn_marks, pause_ticks */
    const char *unknown;
    const char *end;
} row_style;

/* The fields after the 1.0 ones are appended, so that a reader of the
 * older records finds its fields where they were. */
static void row_tail(FILE *f, const link_row *r, const row_style *y)
{
    const vimana_link_stats *st = &r->st;
    fputs(y->before[0], f);
    y->name(f, r->src);
    fputs(y->before[1], f);
    y->name(f, r->dst);
    fputs(y->before[2], f);
    queue_value(f, r, st->max_queue_ticks, y->unknown);
    fputs(y->before[3], f);
    queue_value(f, r, st->queue_ticks, y->unknown);
    fputs(y->before[4], f);
    physics_value(f, r, st->ecn_marks, y->unknown);
    fputs(y->before[5], f);
    physics_value(f, r, st->pause_ticks, y->unknown);
    fputs(y->end, f);
}

static void row_json(FILE *f, const link_row *r)
{
    static const row_style json = {
        json_name,
        {"\"src\": ", ", \"dst\": ", ", \"max_queue_ticks\": ", ", \"queue_ticks\": ", ", \"ecn_marks\": ",
         ", \"pause_ticks\": "},
        "null",
        "}",
    };
    const vimana_link_stats *st = &r->st;
    fprintf(f, "{\"src_device\": %u, \"dst_device\": %u, \"bytes\": %llu, \"messages\": %llu, "
               "\"busy_ticks\": %llu, \"utilisation\": %s, ", st->src_device, st->dst_device,
            (unsigned long long)st->bytes, (unsigned long long)st->messages, (unsigned long long)st->busy_ticks,
            r->util);
    row_tail(f, r, &json);
}

static void row_csv(FILE *f, const link_row *r)
{
    static const row_style csv = {csv_name, {"", ",", ",", ",", ",", ","}, "", "\n"};
    const vimana_link_stats *st = &r->st;
    fprintf(f, "%u,%u,%llu,%llu,%llu,%s,", st->src_device, st->dst_device, (unsigned long long)st->bytes,
            (unsigned long long)st->messages, (unsigned long long)st->busy_ticks, r->util);
    row_tail(f, r, &csv);
}

/* One line per link that carried a message: a FullyConnected network has
 * n x n links and most runs use few of them. */
static int links_json(sim *s, FILE *f, vimana_tick end)
{
    fputs(",\n\"links\": [", f);
    uint32_t n;
    if (network_host_num_links(s, &n) != 0)
        return -1;
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        link_row r;
        bool used;
        if (read_row(s, i, end, &r, &used) != 0)
            return -1;
        if (!used)
            continue;
        fputs(first ? "\n" : ",\n", f);
        row_json(f, &r);
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
    fputs("src_device,dst_device,bytes,messages,busy_ticks,utilisation,src,dst,max_queue_ticks,queue_ticks,ecn_marks,pause_ticks\n", f);
    uint32_t n = 0;
    int rc = network_host_num_links(s, &n);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        link_row r;
        bool used;
        rc = read_row(s, i, end, &r, &used);
        if (rc == 0 && used)
            row_csv(f, &r);
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
