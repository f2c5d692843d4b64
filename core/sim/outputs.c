/*
 * Timeline and report writers. Both stream: a slice or a collective record
 * is written when it ends, so memory does not grow with the length of the
 * run; only the per-NPU table (one row per NPU) waits for the end.
 */
#include "sim/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "out/json_out.h"
#include "host/link_report.h"
#include "sim/serving_report.h"
#include "system/algorithms/algorithm.h"
#include "system/relabel.h"
#include "util/parent_dirs.h"
#include "vimana/et.h"

/* "NAME: rank R (NPU P)" with a 64-byte name and two 10-digit numbers. */
#define JOBS_PROCESS_NAME 112

enum track {
    TRACK_GPU = 1,
    TRACK_CPU = 2,
    TRACK_COMM = 3,
    TRACK_MEMORY = 4,
    TRACK_PREFILL = 5,  /* inference phases, on the NPU of the report */
    TRACK_DECODE = 6,
    TRACK_RECV = 10,    /* + lane */
    TRACK_CHUNK = 100,  /* + lane */
    LANES = 64,
    RECV_LANES = 8,
};

typedef struct npu_lanes {
    uint64_t chunk_busy;
    uint64_t chunk_named;               /* chunk lanes past 0 given a thread_name */
    uint8_t recv_named;                 /* receive lanes past 0 given a thread_name */
    vimana_tick recv_end[RECV_LANES];   /* end of the last receive on each lane */
} npu_lanes;

struct outputs {
    sim *s;
    const wl_run *run;
    FILE *timeline;
    bool timeline_first;
    bool *first;            /* &timeline_first, or a tenant's shared flag */
    uint32_t pid_base;      /* pid of NPU 0 */
    const outputs_tenant *tenant;   /* a job of `vimana --jobs`, or NULL */
    npu_lanes *lanes;
    FILE *report;           /* JSON report, or the NPU CSV */
    FILE *collectives_csv;
    bool report_csv;
    bool report_first;
    npu_stats *npus;        /* filled as NPUs finish */
    bool *npu_done;
    const inf_report *inf;  /* an inference workload's, or NULL */
    inf_summary inf_sum;
};

static void metadata(struct outputs *o, uint32_t npu, int tid, const char *kind, const char *name);

/* Extra lanes (a second receive or chunk running at once) are named when
 * first used, so every track a viewer shows has a name, without writing
 * 70 names per NPU that most runs never use. */
static void name_lane(struct outputs *o, uint32_t npu, uint32_t track)
{
    npu_lanes *l = &o->lanes[npu];
    char name[32];
    if (track > TRACK_RECV && track < TRACK_RECV + RECV_LANES && !(l->recv_named & (1u << (track - TRACK_RECV)))) {
        l->recv_named |= (uint8_t)(1u << (track - TRACK_RECV));
        snprintf(name, sizeof name, "receives (lane %u)", track - TRACK_RECV);
    } else if (track > TRACK_CHUNK && track < TRACK_CHUNK + LANES &&
               !(l->chunk_named & (1ull << (track - TRACK_CHUNK)))) {
        l->chunk_named |= 1ull << (track - TRACK_CHUNK);
        snprintf(name, sizeof name, "chunks (lane %u)", track - TRACK_CHUNK);
    } else {
        return;
    }
    metadata(o, npu, (int)track, "thread_name", name);
}

static void slice(struct outputs *o, uint32_t npu, uint32_t track, const char *name, const char *cat, vimana_tick start,
                  vimana_tick end, const char *args)
{
    FILE *f = o->timeline;
    name_lane(o, npu, track);
    fputs(*o->first ? "\n" : ",\n", f);
    *o->first = false;
    fputs("{\"name\":", f);
    json_out_string(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":", cat);
    json_out_micros(f, start);
    fputs(",\"dur\":", f);
    json_out_micros(f, end - start);
    fprintf(f, ",\"pid\":%u,\"tid\":%u", o->pid_base + npu, track);
    if (args)
        fprintf(f, ",\"args\":{%s}", args);
    fputc('}', f);
}

static void metadata(struct outputs *o, uint32_t npu, int tid, const char *kind, const char *name)
{
    fputs(*o->first ? "\n" : ",\n", o->timeline);
    *o->first = false;
    if (tid < 0)
        fprintf(o->timeline, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":\"%s\"}}", kind,
                o->pid_base + npu, name);
    else
        fprintf(o->timeline, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%d,\"args\":{\"name\":\"%s\"}}", kind,
                o->pid_base + npu, tid, name);
}

static int take_lane(uint64_t *busy)
{
    for (int l = 0; l < LANES; l++) {
        if (!(*busy & (1ull << l))) {
            *busy |= 1ull << l;
            return l;
        }
    }
    return LANES - 1; /* more than 64 at once share the last lane */
}

/* ---- opening and closing ------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Creates the file and the folders above it, as generate and sweep --out
 * do. */
static FILE *create(sim *s, const char *path)
{
    char err[4200];
    if (parent_dirs_make(path, err, sizeof err) != 0) {
        sim_fail(s, "%s", err);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        sim_fail(s, "%s: cannot create: %s", path, strerror(errno));
    return f;
}

void outputs_timeline_begin(FILE *f)
{
    /* No displayTimeUnit: Perfetto reads "ns" there as the unit of ts and
     * dur, which are microseconds in the trace-event format. */
    fputs("{\"otherData\":{\"generator\":\"vimana " PACKAGE_VERSION "\"},"
          "\"traceEvents\":[", f);
}

void outputs_timeline_end(FILE *f)
{
    fputs("\n]}\n", f);
}

/* "NPU 3", or for a job "a: rank 3 (NPU 7)" (the name is checked to be
 * letters, digits, '_' and '-', so it needs no JSON escape). */
static void process_name(const struct outputs *o, uint32_t npu, char *name, size_t len)
{
    if (o->tenant)
        snprintf(name, len, "%s: rank %u (NPU %u)", o->tenant->name, npu, o->tenant->npus[npu]);
    else
        snprintf(name, len, "NPU %u", npu);
}

static int open_timeline(sim *s, struct outputs *o)
{
    if (o->tenant) {
        o->timeline = o->tenant->timeline;
        o->first = o->tenant->timeline_first;
        o->pid_base = o->tenant->pid_base;
    } else {
        if (!(o->timeline = create(s, s->opt->timeline)))
            return -1;
        outputs_timeline_begin(o->timeline);
        o->timeline_first = true;
    }
    o->lanes = calloc(s->n_npus, sizeof *o->lanes);
    if (!o->lanes) {
        sim_fail(s, "out of memory");
        return -1;
    }
    static const struct {
        int tid;
        const char *name;
    } tracks[] = {{TRACK_GPU, "GPU compute"}, {TRACK_CPU, "CPU"}, {TRACK_COMM, "communication"},
                  {TRACK_MEMORY, "remote memory"}, {TRACK_RECV, "receives"}, {TRACK_CHUNK, "chunks"}};
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        char name[JOBS_PROCESS_NAME];
        process_name(o, npu, name, sizeof name);
        metadata(o, npu, -1, "process_name", name);
        for (size_t t = 0; t < sizeof tracks / sizeof tracks[0]; t++)
            metadata(o, npu, tracks[t].tid, "thread_name", tracks[t].name);
    }
    return 0;
}

/* A job's report says which job it is and where its ranks ran. */
static void tenant_header(struct outputs *o)
{
    fputs(",\n\"job\": ", o->report);
    json_out_string(o->report, o->tenant->name);
    fputs(",\n\"job_npus\": [", o->report);
    for (uint32_t r = 0; r < o->s->n_npus; r++)
        fprintf(o->report, "%s%u", r ? ", " : "", o->tenant->npus[r]);
    fputc(']', o->report);
}

static int open_report(sim *s, struct outputs *o)
{
    const char *path = s->opt->report;
    o->report_csv = ends_with(path, ".csv");
    if (!o->report_csv && !ends_with(path, ".json")) {
        sim_fail(s, "%s: --report needs a file name ending in .json or .csv", path);
        return -1;
    }
    o->npus = calloc(s->n_npus, sizeof *o->npus);
    o->npu_done = calloc(s->n_npus, sizeof *o->npu_done);
    if (!o->npus || !o->npu_done || !(o->report = create(s, path)))
        return -1;
    if (o->report_csv) {
        size_t len = strlen(path);
        char *coll = malloc(len + 16);
        if (!coll)
            return -1;
        snprintf(coll, len + 16, "%.*s.collectives.csv", (int)(len - 4), path);
        o->collectives_csv = create(s, coll);
        free(coll);
        if (!o->collectives_csv)
            return -1;
        fputs("npu,node,name,type,bytes,group,algorithm,start,end,duration\n", o->collectives_csv);
    } else {
        fprintf(o->report, "{\n\"generator\": \"vimana %s\",\n\"network_backend\": ", PACKAGE_VERSION);
        json_out_string(o->report, s->be->name);
        if (o->tenant)
            tenant_header(o);
        fputs(",\n\"collectives\": [", o->report);
        o->report_first = true;
    }
    return 0;
}

static void on_node_done(void *ctx, const workload *w, uint32_t i);
static void on_phase_started(void *ctx, stream *st);
static void on_phase_done(void *ctx, stream *st);
static void on_npu_finished(void *ctx, const workload *w, const npu_stats *st);

int outputs_open(sim *s, wl_run *r, outputs **out)
{
    return outputs_open_tenant(s, r, NULL, out);
}

int outputs_open_tenant(sim *s, wl_run *r, const outputs_tenant *tenant, outputs **out)
{
    *out = NULL;
    if (!s->opt->timeline && !s->opt->report)
        return 0;
    struct outputs *o = calloc(1, sizeof *o);
    if (!o) {
        sim_fail(s, "out of memory");
        return -1;
    }
    o->s = s;
    o->run = r;
    o->tenant = tenant;
    o->first = &o->timeline_first;
    *out = o;
    if (s->opt->timeline && open_timeline(s, o) != 0)
        return -1;
    if (s->opt->report && open_report(s, o) != 0)
        return -1;
    r->hooks.ctx = o;
    r->hooks.node_done = on_node_done;
    if (o->report)
        r->hooks.npu_finished = on_npu_finished;
    if (o->timeline) {
        s->hooks.phase_ctx = o;
        s->hooks.phase_started = on_phase_started;
        s->hooks.phase_done = on_phase_done;
    }
    return 0;
}

static void npu_row_json(FILE *f, uint32_t npu, const npu_stats *st)
{
    fprintf(f, "{\"npu\": %u, \"finish\": %llu, \"exposed_communication\": %llu, \"wall\": %llu", npu,
            (unsigned long long)st->finish, (unsigned long long)st->exposed, (unsigned long long)st->wall);
    static const char *const keys[KIND_COUNT] = {"cpu", "gpu", "comm", "remote_mem", "replay", "invalid"};
    for (int k = 0; k < KIND_COUNT; k++)
        fprintf(f, ", \"%s\": %llu", keys[k], (unsigned long long)st->kind_time[k]);
    fprintf(f, ", \"overlap\": %llu", (unsigned long long)st->overlap);
    if (st->roofline)
        fprintf(f, ", \"compute_bound\": %.6f, \"compute_utilization\": %.6f, \"memory_utilization\": %.6f, "
                   "\"operation_intensity\": %.6f", st->compute_bound, st->compute_util, st->memory_util,
                st->intensity);
    if (st->has_tensors)
        fprintf(f, ", \"peak_tensor_bytes\": %llu", (unsigned long long)st->peak_tensor_bytes);
    fputc('}', f);
}

static void npu_table_csv(sim *s, struct outputs *o)
{
    fputs("npu,finished,finish,exposed_communication,wall,cpu,gpu,comm,remote_mem,replay,invalid,overlap,"
          "peak_tensor_bytes\n",
          o->report);
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        const npu_stats *st = &o->npus[npu];
        fprintf(o->report, "%u,%d,%llu,%llu,%llu", npu, o->npu_done[npu], (unsigned long long)st->finish,
                (unsigned long long)st->exposed, (unsigned long long)st->wall);
        for (int k = 0; k < KIND_COUNT; k++)
            fprintf(o->report, ",%llu", (unsigned long long)st->kind_time[k]);
        fprintf(o->report, ",%llu,", (unsigned long long)st->overlap);
        /* empty: the trace names no tensors */
        if (st->has_tensors)
            fprintf(o->report, "%llu", (unsigned long long)st->peak_tensor_bytes);
        fputc('\n', o->report);
    }
}

static void npu_array_json(sim *s, struct outputs *o)
{
    fputs("\n],\n\"npus\": [", o->report);
    bool first = true;
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        if (!o->npu_done[npu])
            continue;
        fputs(first ? "\n" : ",\n", o->report);
        first = false;
        npu_row_json(o->report, npu, &o->npus[npu]);
    }
    fputs("\n]", o->report);
}

/* The run's end: the latest finish of an NPU that finished. */
static vimana_tick end_tick(const sim *s, const struct outputs *o)
{
    vimana_tick end = 0;
    for (uint32_t npu = 0; npu < s->n_npus; npu++)
        if (o->npu_done[npu] && o->npus[npu].finish > end)
            end = o->npus[npu].finish;
    return end;
}

void outputs_set_inference(outputs *o, const inf_report *r, const inf_summary *sum)
{
    if (!o)
        return;
    o->inf = r;
    o->inf_sum = *sum;
}

/* The phase slices on two tracks of the report's NPU, named here: other
 * workloads' timelines keep their bytes. */
static void inference_slice(void *ctx, int phase, const char *name, vimana_tick start, vimana_tick end)
{
    struct outputs *o = ctx;
    slice(o, o->inf_sum.npu, phase == INF_PHASE_PREFILL ? TRACK_PREFILL : TRACK_DECODE, name, "inference", start,
          end, NULL);
}

static void inference_tracks(struct outputs *o)
{
    metadata(o, o->inf_sum.npu, TRACK_PREFILL, "thread_name", "inference: prefill");
    metadata(o, o->inf_sum.npu, TRACK_DECODE, "thread_name", "inference: decode");
    inf_report_slices(o->inf, inference_slice, o);
}

static int close_file(sim *s, FILE *f, const char *what);

/* A CSV --report FILE.csv's side table FILE.SUFFIX.csv (FILE.csv's name
 * with ".csv" replaced), malloc'ed; NULL after sim_fail. */
static char *side_table_path(sim *s, const char *suffix)
{
    const char *path = s->opt->report;
    size_t len = strlen(path), size = len + strlen(suffix) + 8;
    char *side = malloc(size);
    if (!side) {
        sim_fail(s, "out of memory");
        return NULL;
    }
    snprintf(side, size, "%.*s.%s.csv", (int)(len - 4), path, suffix);
    return side;
}

/* An inference workload's token table and a serving workload's request
 * table, beside a CSV report (docs/inference.md): the same figures as the
 * JSON report's "inference" and "serving" members. */
static void inference_tables_csv(sim *s, struct outputs *o)
{
    if (o->inf) {
        char *path = side_table_path(s, "tokens");
        FILE *f = path ? create(s, path) : NULL;
        if (f) {
            inf_report_csv(o->inf, f);
            close_file(s, f, path);
        }
        free(path);
    }
    char *path = side_table_path(s, "requests"), why[4400];
    if (path && serving_report_csv(s, o->run, path, why, sizeof why) < 0)
        sim_fail(s, "serving report: %s", why);
    free(path);
}

static void finish_report(sim *s, struct outputs *o)
{
    if (o->report_csv) {
        npu_table_csv(s, o);
        inference_tables_csv(s, o);
    }
    else
        npu_array_json(s, o);
    if (!o->report_csv)
        serving_report_json(s, o->run, o->report);
    if (!o->report_csv && o->inf) {
        fputs(",\n\"inference\": ", o->report);
        inf_report_json(o->inf, &o->inf_sum, o->report);
    }
    /* The network and its links come last (JSON: before the closing brace). */
    link_report_write(s, o->report_csv ? NULL : o->report, s->opt->report, end_tick(s, o));
    if (!o->report_csv)
        fputs("\n}\n", o->report);
}

static int close_file(sim *s, FILE *f, const char *what)
{
    if (!f)
        return 0;
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        sim_fail(s, "%s: write failed", what);
        return -1;
    }
    return 0;
}

int outputs_close(outputs *o)
{
    if (!o)
        return 0;
    sim *s = o->s;
    int rc = 0;
    if (o->timeline && o->inf)
        inference_tracks(o);
    if (o->timeline && !o->tenant) {
        outputs_timeline_end(o->timeline);
        rc |= close_file(s, o->timeline, s->opt->timeline);
    }
    if (o->report) {
        finish_report(s, o);
        rc |= close_file(s, o->report, s->opt->report);
        rc |= close_file(s, o->collectives_csv, s->opt->report);
    }
    free(o->lanes);
    free(o->npus);
    free(o->npu_done);
    free(o);
    return rc ? -1 : 0;
}

/* ---- hooks --------------------------------------------------------------- */

static void algorithm_name(sim *s, const wl_node *n, char *buf, size_t len)
{
    static const enum coll_kind kinds[] = {
        [VET_ALL_REDUCE] = COLL_ALL_REDUCE, [VET_ALL_GATHER] = COLL_ALL_GATHER,
        [VET_REDUCE_SCATTER] = COLL_REDUCE_SCATTER, [VET_ALL_TO_ALL] = COLL_ALL_TO_ALL,
    };
    if (n->comm_type == VET_BROADCAST) {
        snprintf(buf, len, "replay");
        return;
    }
    enum coll_kind k = kinds[n->comm_type];
    const char *custom = sys_config_custom_for(&s->cfg, k, n->id);
    if (custom) {
        snprintf(buf, len, "custom:%s", custom);
        return;
    }
    buf[0] = '\0';
    for (uint32_t d = 0; d < s->cfg.n_impl[k]; d++) {
        char one[48];
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", d ? "," : "",
                 algo_registry_spec_name(&s->algorithms, &s->cfg.impl[k][d], one, sizeof one));
    }
}

/* NPU `npu`'s record of node i of trace w: w's own NPU in a full run; in
 * a reduced run every NPU's, from its representative's figures, with the
 * NPU's own communicator group (its trace's node i, the same node
 * relabelled). */
static void collective_record(sim *s, struct outputs *o, const workload *w, uint32_t i, uint32_t npu)
{
    /* the NPU's own node: the same node relabelled (its id may differ:
     * per-rank files numbered by rank) */
    const wl_node *n = npu == w->npu ? &w->nodes[i] : &workload_npu_trace(o->run, npu)->nodes[i];
    const wl_node_run *t = &w->live[i];
    int64_t pg = workload_group(o->run, npu, n->pg);
    char algo[256], group[32] = "";
    algorithm_name(s, n, algo, sizeof algo);
    if (pg != WL_NO_GROUP)
        snprintf(group, sizeof group, "%lld", (long long)pg);
    const char *type = vet_coll_type_name(n->comm_type);
    if (o->report_csv) {
        FILE *f = o->collectives_csv;
        fprintf(f, "%u,%llu,", npu, (unsigned long long)n->id);
        /* CSV: quote the name, doubling quotes */
        fputc('"', f);
        for (const char *p = workload_node_name(w, i); *p; p++)
            fputs(*p == '"' ? "\"\"" : (char[]){*p, 0}, f);
        fprintf(f, "\",%s,%llu,%s,\"%s\",%llu,%llu,%llu\n", type, (unsigned long long)n->comm_size, group, algo,
                (unsigned long long)t->start, (unsigned long long)t->end, (unsigned long long)(t->end - t->start));
        return;
    }
    FILE *f = o->report;
    fputs(o->report_first ? "\n" : ",\n", f);
    o->report_first = false;
    fprintf(f, "{\"npu\": %u, \"node\": %llu, \"name\": ", npu, (unsigned long long)n->id);
    json_out_string(f, workload_node_name(w, i));
    fprintf(f, ", \"type\": \"%s\", \"bytes\": %llu, \"group\": %s%s%s, \"algorithm\": ", type,
            (unsigned long long)n->comm_size, group[0] ? "\"" : "null", group, group[0] ? "\"" : "");
    json_out_string(f, algo);
    fprintf(f, ", \"start\": %llu, \"end\": %llu, \"duration\": %llu}", (unsigned long long)t->start,
            (unsigned long long)t->end, (unsigned long long)(t->end - t->start));
}

static void on_node_done(void *ctx, const workload *w, uint32_t i)
{
    struct outputs *o = ctx;
    sim *s = o->s;
    const wl_node *n = &w->nodes[i];
    const wl_node_run *t = &w->live[i];
    if (o->report && n->type == VET_COMM_COLL_NODE) {
        /* Reduced: NPU 0 stands for every NPU, or a representative for
         * its class, whose nodes end at the same ticks (docs/symmetry.md). */
        const npu_relabel *roles = s->reduced ? s->roles : NULL;
        uint32_t n_mirrors = !s->reduced ? 1 : roles ? roles->class_size : s->n_npus;
        for (uint32_t k = 0; k < n_mirrors; k++)
            collective_record(s, o, w, i, roles ? roles->members_of[roles->first[w->npu] + k] : w->npu + k);
    }
    if (!o->timeline)
        return;
    char args[96];
    snprintf(args, sizeof args, "\"node\":%llu,\"type\":\"%s\"", (unsigned long long)n->id,
             vet_node_type_name(n->type));
    uint32_t track;
    const char *cat;
    switch (n->type) {
    case VET_COMP_NODE:
        track = n->is_cpu ? TRACK_CPU : TRACK_GPU;
        cat = "compute";
        break;
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        track = TRACK_MEMORY;
        cat = "memory";
        break;
    case VET_COMM_RECV_NODE: {
        /* Receives hold no slot and may overlap. Slices are written in end
         * order, so a lane is free for this one if its last slice ended by
         * this one's start. */
        npu_lanes *l = &o->lanes[w->npu];
        uint32_t lane = 0;
        while (lane + 1 < RECV_LANES && l->recv_end[lane] > t->start)
            lane++;
        l->recv_end[lane] = t->end;
        track = TRACK_RECV + lane;
        cat = "communication";
        break;
    }
    default:
        track = n->is_cpu ? TRACK_CPU : TRACK_COMM;
        cat = "communication";
        break;
    }
    slice(o, w->npu, track, workload_node_name(w, i), cat, t->start, t->end, args);
}

static void on_phase_started(void *ctx, stream *st)
{
    struct outputs *o = ctx;
    st->phase_start = sim_now(o->s);
    if (st->next_phase == 1) {
        st->chunk_start = st->phase_start;
        st->lane = (uint16_t)take_lane(&o->lanes[st->npu].chunk_busy);
    }
}

static void on_phase_done(void *ctx, stream *st)
{
    struct outputs *o = ctx;
    static const char *const colls[] = {"reduce-scatter", "all-reduce", "all-gather", "all-to-all"};
    static const int order[COLL_KINDS] = {[COLL_ALL_REDUCE] = 1, [COLL_REDUCE_SCATTER] = 0,
                                           [COLL_ALL_GATHER] = 2, [COLL_ALL_TO_ALL] = 3};
    const phase_desc *p = &st->cur;
    vimana_tick now = sim_now(o->s);
    uint32_t track = TRACK_CHUNK + st->lane;
    char name[96], args[160];
    bool last = st->next_phase == st->n_phases;
    if (st->custom)
        snprintf(name, sizeof name, "custom %s", st->custom_prefix);
    else
        snprintf(name, sizeof name, "%s %s dim %u", colls[order[p->coll]], p->alg->name, p->dim);
    snprintf(args, sizeof args, "\"stream\":%llu,\"phase\":%u,\"npus\":%u,\"bytes\":%llu,\"queue\":%u",
             (unsigned long long)st->id, st->next_phase - 1, p->n, (unsigned long long)p->in_size, p->queue);
    /* Viewers nest slices by containment, and two slices of equal bounds
     * in the order written: a chunk of one phase goes before its phase. */
    bool chunk_first = last && st->chunk_start == st->phase_start;
    if (!chunk_first)
        slice(o, st->npu, track, name, "phase", st->phase_start, now, args);
    if (last) {
        char cname[96], cargs[96];
        snprintf(cname, sizeof cname, "chunk %llu", (unsigned long long)st->id);
        snprintf(cargs, sizeof cargs, "\"stream\":%llu,\"phases\":%u", (unsigned long long)st->id, st->n_phases);
        slice(o, st->npu, track, cname, "chunk", st->chunk_start, now, cargs);
        o->lanes[st->npu].chunk_busy &= ~(1ull << st->lane);
    }
    if (chunk_first)
        slice(o, st->npu, track, name, "phase", st->phase_start, now, args);
}

static void on_npu_finished(void *ctx, const workload *w, const npu_stats *st)
{
    struct outputs *o = ctx;
    o->npus[w->npu] = *st;
    o->npu_done[w->npu] = true;
}
