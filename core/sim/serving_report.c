/* Per-request latencies of a serving workload (see the header). */
#include "sim/serving_report.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "out/json_out.h"
#include "util/sorted.h"
#include "vimana/et.h"

/* One request's two markers, as the run ended them. */
typedef struct sv_request {
    int64_t id;
    uint64_t arrival, prompt, output;    /* ns, tokens */
    vimana_tick first, last;             /* the markers' ends */
    bool has_first, has_last;            /* the marker ran */
    bool first_node, last_node;          /* a trace read holds the marker */
    bool seen;                           /* a marker names it */
} sv_request;

/* The generator's limit on requests (INF_REQUESTS_MAX). */
#define SV_MAX_REQUESTS (1 << 20)

typedef struct sv_stats {
    size_t n;                            /* requests with the figure */
    double mean, p50, p99;               /* ns */
} sv_stats;

/* NPUs whose markers a report takes: one group of ranks, or a
 * disaggregated trace's prefill and decode groups (and room to spare). */
#define SV_MAX_NPUS 8

typedef struct sv_report {
    uint32_t npu;                        /* the first NPU whose markers it takes */
    uint32_t npus[SV_MAX_NPUS];          /* all of them, in order */
    size_t n_npus;
    bool took;                           /* the trace being read gave a marker */
    vimana_tick origin;                  /* the run's time 0 (wl_run.origin) */
    sv_request *req;                     /* by id */
    size_t n, cap;
    size_t complete;                     /* requests with both markers ended */
    sv_stats ttft, tpot, latency;
} sv_report;

/* Names the generator gives its markers ("iter<K>_req<I>_first_token",
 * "..._last_token"): a trace without one holds none, and is not read
 * again. */
static bool may_hold_markers(const wl_trace *t)
{
    for (size_t at = 0; t->names && at < t->names_len; at += strlen(t->names + at) + 1) {
        const char *name = t->names + at;
        if (strstr(name, "_req") && (strstr(name, "_first_token") || strstr(name, "_last_token")))
            return true;
    }
    return false;
}

/* The node index of id `id` (the nodes are sorted by id), or UINT32_MAX. */
static uint32_t node_index(const workload *w, uint64_t id)
{
    size_t lo = lower_bound_u64(w->nodes, w->n_nodes, sizeof *w->nodes, offsetof(wl_node, id), id);
    return lo < w->n_nodes && w->nodes[lo].id == id ? (uint32_t)lo : UINT32_MAX;
}

/* Request `id`'s record: the generator numbers the requests 0 .. n-1,
 * so the table is indexed by id (grown by doubling); ids beyond the
 * generator's limit are no marker of it. NULL then or out of memory. */
static sv_request *request_of(sv_report *rep, int64_t id, bool *oom)
{
    if (id >= SV_MAX_REQUESTS)
        return NULL;
    size_t i = (size_t)id;
    if (i >= rep->cap) {
        size_t cap = rep->cap ? rep->cap : 64;
        while (cap <= i)
            cap *= 2;
        sv_request *q = realloc(rep->req, cap * sizeof *q);
        if (!q) {
            *oom = true;
            return NULL;
        }
        memset(q + rep->cap, 0, (cap - rep->cap) * sizeof *q);
        rep->req = q;
        rep->cap = cap;
    }
    if (i >= rep->n)
        rep->n = i + 1;
    rep->req[i].id = id;
    rep->req[i].seen = true;
    return &rep->req[i];
}

/* A marker node: its request's arrival and sizes, and its end if it ran.
 * A marker an NPU read before holds is kept (the lowest NPU's). */
static int take_marker(sv_report *rep, const workload *w, const vet_node *n)
{
    int64_t id, token, arrival, prompt, output;
    if (vet_node_int64(n, "request", -1, &id) != VET_ATTR_OK || id < 0 ||
        vet_node_int64(n, "request_token", -1, &token) != VET_ATTR_OK || (token != 0 && token != 1) ||
        vet_node_int64(n, "arrival_ns", -1, &arrival) != VET_ATTR_OK || arrival < 0)
        return 0;  /* not a marker: nothing to report of it */
    vet_node_int64(n, "prompt_tokens", 0, &prompt);
    vet_node_int64(n, "output_tokens", 0, &output);
    uint32_t i = node_index(w, n->id);
    bool oom = false;
    sv_request *r = request_of(rep, id, &oom);
    if (!r)
        return oom ? -1 : 0;
    bool *held = token == 0 ? &r->first_node : &r->last_node;
    if (*held)
        return 0;
    *held = true;
    rep->took = true;
    r->arrival = (uint64_t)arrival;
    r->prompt = prompt > 0 ? (uint64_t)prompt : 0;
    r->output = output > 0 ? (uint64_t)output : 0;
    if (i == UINT32_MAX || w->live[i].state != WL_DONE)
        return 0;
    if (token == 0) {
        r->first = w->live[i].end - rep->origin;
        r->has_first = true;
    } else {
        r->last = w->live[i].end - rep->origin;
        r->has_last = true;
    }
    return 0;
}

/* Reads NPU w's trace file again for its markers. */
static int read_markers(sv_report *rep, const workload *w)
{
    vet_error err;
    vet_reader *rd = vet_reader_open(w->trace->path, &err);
    if (!rd)
        return -1;
    vet_reader_accept_unknown_types(rd, true);
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(rd, &n, &err)) > 0)
        if (take_marker(rep, w, n) != 0) {
            rc = -1;
            break;
        }
    vet_reader_close(rd);
    return rc < 0 ? -1 : 0;
}

/* Nearest rank: the ceil(q n)-th smallest of the n sorted values. */
static double percentile(const double *v, size_t n, double q)
{
    size_t rank = (size_t)(q * (double)n);
    if ((double)rank < q * (double)n)
        rank++;
    return v[rank ? rank - 1 : 0];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The per-request figures the report gives statistics of. */
enum sv_metric { SV_TTFT, SV_TPOT, SV_LATENCY };

/* Request r's figure in ns; false when it has none (it did not finish,
 * or TPOT of a one-token request: no token after the first). TPOT: the
 * time from the first token to the last over the tokens after the first. */
static bool metric_of(const sv_request *r, enum sv_metric m, double *out)
{
    if (!r->has_first || !r->has_last || (m == SV_TPOT && r->output < 2))
        return false;
    if (m == SV_TTFT)
        *out = (double)r->first - (double)r->arrival;
    else if (m == SV_LATENCY)
        *out = (double)r->last - (double)r->arrival;
    else
        *out = ((double)r->last - (double)r->first) / (double)(r->output - 1);
    return true;
}

/* Mean, p50 and p99 of the metric over the requests that have it; n = 0
 * when none has. */
static int stats_of(const sv_report *rep, enum sv_metric m, sv_stats *out)
{
    double *v = malloc((rep->complete ? rep->complete : 1) * sizeof *v), sum = 0;
    if (!v)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < rep->n; i++)
        if (metric_of(&rep->req[i], m, &v[k]))
            sum += v[k++];
    qsort(v, k, sizeof *v, cmp_double);
    *out = (sv_stats){.n = k};
    if (k > 0) {
        out->mean = sum / (double)k;
        out->p50 = percentile(v, k, 0.5);
        out->p99 = percentile(v, k, 0.99);
    }
    free(v);
    return 0;
}

/* Drops the ids no marker named, keeping id order. */
static void compact(sv_report *rep)
{
    size_t k = 0;
    for (size_t i = 0; i < rep->n; i++)
        if (rep->req[i].seen)
            rep->req[k++] = rep->req[i];
    rep->n = k;
}

/* The lowest NPU from `from` on that ran a trace with markers (the last
 * pipeline stage's first rank, in a generated workload). */
static const workload *marker_npu(const sim *s, const wl_run *r, uint32_t from)
{
    for (uint32_t npu = from; npu < s->n_npus; npu++) {
        const workload *w = &r->wl[npu];
        if (workload_npu_runs(s, npu) && w->trace && w->live && may_hold_markers(w->trace))
            return w;
    }
    return NULL;
}

/* A request named by a marker whose other marker no trace read holds
 * (a disaggregated trace: the decode group has the last tokens). */
static bool markers_missing(const sv_report *rep)
{
    for (size_t i = 0; i < rep->n; i++) {
        const sv_request *q = &rep->req[i];
        if (q->seen && (!q->first_node || !q->last_node))
            return true;
    }
    return false;
}

/* Reads the lowest marker NPU's markers, then the next ones' while a
 * request misses one. 0, or -1 when a trace cannot be read again. */
static int read_groups(const sim *s, const wl_run *r, sv_report *rep)
{
    const workload *w = r && r->wl ? marker_npu(s, r, 0) : NULL;
    for (; w && rep->n_npus < SV_MAX_NPUS; w = markers_missing(rep) ? marker_npu(s, r, w->npu + 1) : NULL) {
        rep->took = false;
        if (read_markers(rep, w) != 0) {
            rep->npu = w->npu;
            return -1;
        }
        if (rep->took)
            rep->npus[rep->n_npus++] = w->npu;
    }
    rep->npu = rep->npus[0];
    return 0;
}

/* 1 with the report filled, 0 when there is none, -1 out of memory or
 * when the trace cannot be read again. */
static int collect(const sim *s, const wl_run *r, sv_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->origin = r ? r->origin : 0;
    if (read_groups(s, r, rep) != 0)
        return -1;
    if (rep->n_npus == 0)
        return 0;
    compact(rep);
    for (size_t i = 0; i < rep->n; i++)
        rep->complete += rep->req[i].has_first && rep->req[i].has_last;
    if (rep->complete == 0)
        return rep->n > 0;
    return stats_of(rep, SV_TTFT, &rep->ttft) == 0 && stats_of(rep, SV_TPOT, &rep->tpot) == 0 &&
                   stats_of(rep, SV_LATENCY, &rep->latency) == 0
               ? 1
               : -1;
}

static double us(double ns)
{
    return ns / 1000.0;
}

static void print_request(FILE *out, const sv_request *r)
{
    double ttft, tpot, latency;
    fprintf(out, "serving: request %" PRId64 ": arrival %.3f us, prompt %" PRIu64 ", output %" PRIu64, r->id,
            us((double)r->arrival), r->prompt, r->output);
    if (!metric_of(r, SV_TTFT, &ttft) || !metric_of(r, SV_LATENCY, &latency)) {
        fputs(", did not finish\n", out);
        return;
    }
    fprintf(out, ", TTFT %.3f us", us(ttft));
    if (metric_of(r, SV_TPOT, &tpot))
        fprintf(out, ", TPOT %.3f us", us(tpot));
    fprintf(out, ", latency %.3f us\n", us(latency));
}

/* "NAME mean X us, p50 Y us, p99 Z us", after `sep`; nothing without figures. */
static void print_stats(FILE *out, const char *sep, const char *name, const sv_stats *st)
{
    if (st->n > 0)
        fprintf(out, "%s%s mean %.3f us, p50 %.3f us, p99 %.3f us", sep, name, us(st->mean), us(st->p50),
                us(st->p99));
}

void serving_report_print(const sim *s, const wl_run *r, FILE *out)
{
    sv_report rep;
    int rc = collect(s, r, &rep);
    if (rc < 0)
        fprintf(s->log, "vimana: warning: serving report: out of memory, or the trace of NPU %u cannot be read "
                        "again\n", rep.npu);
    if (rc <= 0) {
        free(rep.req);
        return;
    }
    fprintf(out, "serving: %zu requests, %zu finished (markers of NPU%s", rep.n, rep.complete, rep.n_npus > 1 ? "s" : "");
    for (size_t i = 0; i < rep.n_npus; i++)
        fprintf(out, "%s%u", i == 0 ? " " : i + 1 == rep.n_npus ? " and " : ", ", rep.npus[i]);
    fputs(")\n", out);
    for (size_t i = 0; i < rep.n; i++)
        print_request(out, &rep.req[i]);
    if (rep.complete > 0) {
        print_stats(out, "serving: ", "TTFT", &rep.ttft);
        print_stats(out, "; ", "TPOT", &rep.tpot);
        print_stats(out, "; ", "latency", &rep.latency);
        fputc('\n', out);
    }
    free(rep.req);
}

static void json_stats(FILE *f, const char *key, const sv_stats *st)
{
    if (st->n > 0)
        fprintf(f, ",\n  \"%s\": {\"mean\": %.3f, \"p50\": %.3f, \"p99\": %.3f}", key, us(st->mean), us(st->p50),
            us(st->p99));
}

static void json_request(FILE *f, const sv_request *r, bool first)
{
    fprintf(f, "%s\n    {\"request\": %" PRId64 ", \"arrival\": %.3f, \"prompt_tokens\": %" PRIu64
               ", \"output_tokens\": %" PRIu64,
            first ? "" : ",", r->id, us((double)r->arrival), r->prompt, r->output);
    double ttft, tpot, latency;
    if (metric_of(r, SV_TTFT, &ttft) && metric_of(r, SV_LATENCY, &latency)) {
        fprintf(f, ", \"first_token\": %.3f, \"last_token\": %.3f, \"ttft\": %.3f", us((double)r->first),
                us((double)r->last), us(ttft));
        if (metric_of(r, SV_TPOT, &tpot))
            fprintf(f, ", \"tpot\": %.3f", us(tpot));
        fprintf(f, ", \"latency\": %.3f", us(latency));
    }
    fputc('}', f);
}

static void csv_request(FILE *f, const sv_request *r)
{
    fprintf(f, "%" PRId64 ",%.3f,%" PRIu64 ",%" PRIu64, r->id, us((double)r->arrival), r->prompt, r->output);
    double ttft, tpot, latency;
    if (!metric_of(r, SV_TTFT, &ttft) || !metric_of(r, SV_LATENCY, &latency)) {
        fputs(",,,,,\n", f);
        return;
    }
    fprintf(f, ",%.3f,%.3f,%.3f,", us((double)r->first), us((double)r->last), us(ttft));
    if (metric_of(r, SV_TPOT, &tpot))
        fprintf(f, "%.3f", us(tpot));
    fprintf(f, ",%.3f\n", us(latency));
}

int serving_report_csv(const sim *s, const wl_run *r, const char *path, char *why, size_t len)
{
    sv_report rep;
    int rc = collect(s, r, &rep);
    if (rc <= 0) {
        free(rep.req);
        if (rc < 0)
            snprintf(why, len, "out of memory, or the trace of NPU %u cannot be read again", rep.npu);
        return rc;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, len, "%s: cannot create: %s", path, strerror(errno));
        free(rep.req);
        return -1;
    }
    fputs("request,arrival_us,prompt_tokens,output_tokens,first_token_us,last_token_us,ttft_us,tpot_us,latency_us\n",
          f);
    for (size_t i = 0; i < rep.n; i++)
        csv_request(f, &rep.req[i]);
    free(rep.req);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        snprintf(why, len, "%s: write failed", path);
        return -1;
    }
    return 1;
}

void serving_report_json(const sim *s, const wl_run *r, FILE *f)
{
    sv_report rep;
    int rc = collect(s, r, &rep);
    if (rc <= 0) {
        free(rep.req);
        return;
    }
    fprintf(f, ",\n\"serving\": {\n  \"unit\": \"us\", \"npu\": %u, \"requests\": %zu, \"finished\": %zu", rep.npu,
            rep.n, rep.complete);
    /* a disaggregated trace's markers come from both groups */
    if (rep.n_npus > 1) {
        fputs(", \"npus\": [", f);
        for (size_t i = 0; i < rep.n_npus; i++)
            fprintf(f, "%s%u", i ? ", " : "", rep.npus[i]);
        fputc(']', f);
    }
    if (rep.complete > 0) {
        json_stats(f, "ttft", &rep.ttft);
        json_stats(f, "tpot", &rep.tpot);
        json_stats(f, "latency", &rep.latency);
    }
    fputs(",\n  \"per_request\": [", f);
    for (size_t i = 0; i < rep.n; i++)
        json_request(f, &rep.req[i], i == 0);
    fputs("\n  ]\n}", f);
    free(rep.req);
}
