#include "trace_link/kineto_trace.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_link/span_intern.h"
#include "trace_link/ts_sort.h"
#include "util/grow.h"

/* Runtime/driver calls that launch a GPU op (the reference's list,
 * chakra-tools.md §6 step 2). */
static const char *const launch_names[] = {
    "cuLaunchKernel", "cuLaunchKernelEx", "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpy",
    "cudaMemcpyAsync", "cudaMemcpyFromSymbol", "cudaMemcpyToSymbol", "cudaLaunchCooperativeKernel",
    "hipLaunchKernel", "hipExtLaunchKernel", "hipExtModuleLaunchKernel", "hipModuleLaunchKernel",
    "hipMemcpyWithStream", "hipMemcpyAsync", NULL,
};
/* Calls that block the CPU until all streams are idle ... */
static const char *const device_sync_names[] = {
    "cudaDeviceSynchronize", "cuCtxSynchronize", "hipDeviceSynchronize", NULL,
};
/* ... or until one stream / event has completed. */
static const char *const stream_sync_names[] = {
    "cudaStreamSynchronize", "cuStreamSynchronize", "hipStreamSynchronize",
    "cudaEventSynchronize", "cuEventSynchronize", "hipEventSynchronize", NULL,
};

typedef struct field {
    tl_span span;
    bool present;
} field;

typedef struct event_fields {
    field cat, name, ph, ts, dur, tid, id;           /* cat, name: string content */
    field ext, rf, corr, stream, pg, dims, types;    /* args members, raw values */
} event_fields;

typedef struct kineto_parser {
    json_scan s;
    kineto_trace *k;
    span_intern threads;
    size_t cap_cpu, cap_launch, cap_gpu, cap_sync;
    tl_diag *d;
} kineto_parser;

int kineto_name_width(uint32_t len, int max)
{
    return len > (uint32_t)max ? max : (int)len;
}

static bool span_contains(const char *buf, tl_span span, const char *needle, bool fold_case)
{
    size_t n = strlen(needle);
    if (span.len < n)
        return false;
    const char *p = buf + span.off;
    for (size_t i = 0; i + n <= span.len; i++) {
        size_t j = 0;
        for (; j < n; j++) {
            char c = p[i + j];
            if (fold_case && c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != needle[j])
                break;
        }
        if (j == n)
            return true;
    }
    return false;
}

static bool name_in(const char *buf, const field *name, const char *const *list)
{
    if (!name->present)
        return false;
    for (size_t i = 0; list[i]; i++)
        if (js_span_equals(buf, name->span, list[i]))
            return true;
    return false;
}

static bool cat_is(const char *buf, const field *cat, const char *text)
{
    return cat->present && js_span_equals(buf, cat->span, text);
}

/* --- reading one event ------------------------------------------------- */

static int read_string_field(json_scan *s, field *f)
{
    if (js_peek(s) != '"')
        return js_skip_value(s, NULL); /* not a string: treated as absent */
    f->present = js_string(s, &f->span) == 0;
    return f->present ? 0 : -1;
}

static int read_raw_field(json_scan *s, field *f)
{
    f->present = true;
    return js_skip_value(s, &f->span);
}

static int read_args(json_scan *s, event_fields *e)
{
    js_iter it;
    tl_span key;
    int r = js_object_or_skip(s, &it);
    if (r != 1)
        return r;
    while ((r = js_object_next(s, &it, &key)) == 1) {
        const char *b = s->buf;
        field *f = NULL;
        if (js_span_equals(b, key, "External id"))
            f = &e->ext;
        else if (js_span_equals(b, key, "Record function id"))
            f = &e->rf;
        else if (js_span_equals(b, key, "correlation"))
            f = &e->corr;
        else if (js_span_equals(b, key, "stream"))
            f = &e->stream;
        else if (js_span_equals(b, key, "Process Group Name"))
            f = &e->pg;
        else if (js_span_equals(b, key, "Input Dims"))
            f = &e->dims;
        else if (js_span_equals(b, key, "Input type"))
            f = &e->types;
        if (f ? read_raw_field(s, f) : js_skip_value(s, NULL))
            return -1;
    }
    return r;
}

static int read_event(json_scan *s, size_t index, event_fields *e)
{
    memset(e, 0, sizeof *e);
    js_iter it;
    tl_span key;
    int r;
    if (js_enter(s, &it, '{', "traceEvents[%zu]", index) != 0)
        return -1;
    while ((r = js_object_next(s, &it, &key)) == 1) {
        const char *b = s->buf;
        int rc;
        if (js_span_equals(b, key, "ph"))
            rc = read_raw_field(s, &e->ph);
        else if (js_span_equals(b, key, "cat"))
            rc = read_string_field(s, &e->cat);
        else if (js_span_equals(b, key, "name"))
            rc = read_string_field(s, &e->name);
        else if (js_span_equals(b, key, "ts"))
            rc = read_raw_field(s, &e->ts);
        else if (js_span_equals(b, key, "dur"))
            rc = read_raw_field(s, &e->dur);
        else if (js_span_equals(b, key, "tid"))
            rc = read_raw_field(s, &e->tid);
        else if (js_span_equals(b, key, "id"))
            rc = read_raw_field(s, &e->id);
        else if (js_span_equals(b, key, "args"))
            rc = read_args(s, e);
        else
            rc = js_skip_value(s, NULL);
        if (rc != 0)
            return -1;
    }
    return r;
}

/* --- field conversion with errors that name the event ------------------ */

/* "PATH: traceEvents[k] 'NAME': what" */
static int event_error(kineto_parser *p, size_t index, const event_fields *e, const char *what)
{
    const char *b = p->s.buf;
    int w = e->name.present ? kineto_name_width((uint32_t)e->name.span.len, 80) : 0;
    return tl_fail(p->d, "%s: traceEvents[%zu] '%.*s': %s", p->k->path, index, w,
                   e->name.present ? b + e->name.span.off : "", what);
}

static int event_missing(kineto_parser *p, size_t index, const event_fields *e, const char *key)
{
    char what[128];
    snprintf(what, sizeof what, "missing required key '%s'", key);
    return event_error(p, index, e, what);
}

/* "'KEY' PROBLEM" (prefix "args " for args members). */
static int event_bad(kineto_parser *p, size_t index, const event_fields *e, const char *prefix, const char *key,
                     const char *problem)
{
    char what[160];
    snprintf(what, sizeof what, "%s'%s' %s", prefix, key, problem);
    return event_error(p, index, e, what);
}

static int number_at(kineto_parser *p, tl_span span, pynum *out)
{
    json_scan sub = p->s;
    sub.pos = span.off;
    sub.len = span.off + span.len;
    return js_read_pynum(&sub, out);
}

/* A time or duration: a finite number (durations also non-negative). */
static int time_field(kineto_parser *p, size_t index, const event_fields *e, const field *f, const char *key,
                      bool is_duration, pynum *out)
{
    if (!f->present)
        return event_missing(p, index, e, key);
    int st = number_at(p, f->span, out);
    if (st == JS_NUM_MALFORMED)
        return -1;
    if (st != JS_NUM_OK)
        return event_bad(p, index, e, "", key, js_num_problem(st));
    if (!pynum_is_finite(*out))
        return event_bad(p, index, e, "", key, "is not finite");
    if (is_duration && pynum_cmp(*out, pynum_int(0)) < 0)
        return event_bad(p, index, e, "", key, "is negative");
    return 0;
}

/* An integer in a string, as int() reads it: optional spaces, an optional
 * sign, digits. */
static bool int_in_text(const char *p, size_t len, int64_t *out)
{
    while (len && (*p == ' ' || *p == '\t')) {
        p++;
        len--;
    }
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
        len--;
    size_t digits = len && (*p == '-' || *p == '+') ? len - 1 : len;
    if (digits == 0 || digits > 19)
        return false;
    for (size_t i = len - digits; i < len; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    pynum n;
    if (pynum_parse(*p == '+' ? p + 1 : p, *p == '+' ? len - 1 : len, &n) != 0)
        return false;
    *out = n.v.i;
    return true;
}

/* An integer argument; the reference applies int(), so a string holding an
 * integer is accepted too. Returns 0 (absent or null), 1 (set) or -1. */
static int int_arg(kineto_parser *p, size_t index, const event_fields *e, const field *f, const char *key,
                   int64_t *out)
{
    const char *b = p->s.buf;
    if (!f->present || js_span_is_null(b, f->span))
        return 0;
    int st;
    if (b[f->span.off] == '"') {
        st = int_in_text(b + f->span.off + 1, f->span.len - 2, out) ? JS_NUM_OK : JS_NUM_NOT_INT;
    } else {
        pynum n;
        st = number_at(p, f->span, &n);
        if (st == JS_NUM_MALFORMED)
            return -1;
        if (st == JS_NUM_OK && n.is_float)
            st = JS_NUM_NOT_INT;
        if (st == JS_NUM_OK)
            *out = n.v.i;
    }
    if (st == JS_NUM_OK)
        return 1;
    return event_bad(p, index, e, "args ", key, js_num_problem(st));
}

static int thread_of(kineto_parser *p, size_t index, const event_fields *e, uint32_t *out)
{
    if (!e->tid.present)
        return event_missing(p, index, e, "tid");
    int64_t t = span_intern_get(&p->threads, e->tid.span.off, e->tid.span.len);
    if (t < 0)
        return tl_fail(p->d, "%s: out of memory", p->k->path);
    *out = (uint32_t)t;
    return 0;
}

/* A zeroed record after the n of *items (room for *cap), which grows as
 * needed; NULL after reporting out of memory. The caller counts it. */
static void *new_record(kineto_parser *p, void **items, size_t n, size_t *cap, size_t size)
{
    if (grow_array(items, cap, n + 1, size, 4096) != 0) {
        tl_fail(p->d, "%s: out of memory", p->k->path);
        return NULL;
    }
    void *record = (char *)*items + n * size;
    memset(record, 0, size);
    return record;
}

/* The ts and dur of an event that has a duration. */
static int ts_and_dur(kineto_parser *p, size_t index, const event_fields *e, pynum *ts, pynum *dur)
{
    if (time_field(p, index, e, &e->ts, "ts", false, ts) != 0)
        return -1;
    return time_field(p, index, e, &e->dur, "dur", true, dur);
}

static int add_cpu_op(kineto_parser *p, size_t index, const event_fields *e)
{
    kineto_trace *k = p->k;
    k_cpu_op *op = new_record(p, (void **)&k->cpu, k->n_cpu, &p->cap_cpu, sizeof *op);
    if (!op || ts_and_dur(p, index, e, &op->ts, &op->dur) != 0 || thread_of(p, index, e, &op->tid) != 0)
        return -1;
    int rc = int_arg(p, index, e, &e->rf, "Record function id", &op->rf_id);
    if (rc < 0)
        return -1;
    op->flags |= rc ? K_HAS_RF : 0;
    op->ext_id = -1;
    rc = int_arg(p, index, e, &e->ext, "External id", &op->ext_id);
    if (rc < 0)
        return -1;
    op->flags |= rc ? K_HAS_EXT : 0;
    if (e->name.present) {
        op->name_off = e->name.span.off;
        op->name_len = (uint32_t)e->name.span.len;
        if (js_span_equals(p->s.buf, e->name.span, "nccl:coalesced"))
            op->flags |= K_COALESCED;
    }
    op->excl = op->dur;
    op->seq = (uint32_t)index;
    op->host = K_NONE;
    op->input_dims = e->dims.present ? e->dims.span : (tl_span){0, 0};
    op->input_types = e->types.present ? e->types.span : (tl_span){0, 0};
    k->n_cpu++;
    return 0;
}

static int add_launch(kineto_parser *p, size_t index, const event_fields *e)
{
    kineto_trace *k = p->k;
    k_launch *op = new_record(p, (void **)&k->launch, k->n_launch, &p->cap_launch, sizeof *op);
    if (!op || time_field(p, index, e, &e->ts, "ts", false, &op->ts) != 0 || thread_of(p, index, e, &op->tid) != 0)
        return -1;
    int rc = int_arg(p, index, e, &e->corr, "correlation", &op->correlation);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return event_missing(p, index, e, "args.correlation");
    op->seq = (uint32_t)index;
    k->n_launch++;
    return 0;
}

static int add_gpu_op(kineto_parser *p, size_t index, const event_fields *e, bool is_memcpy)
{
    kineto_trace *k = p->k;
    k_gpu_op *op = new_record(p, (void **)&k->gpu, k->n_gpu, &p->cap_gpu, sizeof *op);
    if (!op || ts_and_dur(p, index, e, &op->ts, &op->dur) != 0)
        return -1;
    op->correlation = -1;
    op->ext_id = -1;
    int rc = int_arg(p, index, e, &e->corr, "correlation", &op->correlation);
    if (rc < 0)
        return -1;
    rc = int_arg(p, index, e, &e->ext, "External id", &op->ext_id);
    if (rc < 0)
        return -1;
    op->flags |= rc ? K_HAS_EXT : 0;
    if (e->name.present) {
        op->name_off = e->name.span.off;
        op->name_len = (uint32_t)e->name.span.len;
        if (span_contains(p->s.buf, e->name.span, "nccl", true))
            op->flags |= K_NCCL;
        if (span_contains(p->s.buf, e->name.span, "ncclDevKernel", false))
            op->flags |= K_NCCL_DEV;
    }
    op->is_memcpy = is_memcpy;
    op->ph = e->ph.present ? e->ph.span : (tl_span){0, 0};
    op->stream = e->stream.present ? e->stream.span : (tl_span){0, 0};
    if (e->pg.present && !js_span_is_null(p->s.buf, e->pg.span))
        op->pg_name = e->pg.span;
    op->seq = (uint32_t)index;
    op->launcher = K_NONE;
    k->n_gpu++;
    return 0;
}

static int add_sync(kineto_parser *p, size_t index, const event_fields *e, bool device_wide)
{
    kineto_trace *k = p->k;
    k_sync *op = new_record(p, (void **)&k->sync, k->n_sync, &p->cap_sync, sizeof *op);
    if (!op || ts_and_dur(p, index, e, &op->ts, &op->dur) != 0 || thread_of(p, index, e, &op->tid) != 0)
        return -1;
    op->device_wide = device_wide;
    if (e->stream.present && !js_span_is_null(p->s.buf, e->stream.span))
        op->stream = e->stream.span;
    op->seq = (uint32_t)index;
    k->n_sync++;
    return 0;
}

/* The reference's if/elif chain (chakra-tools.md §6 step 2), plus the sync
 * calls used by sync_dep.c. */
static int classify(kineto_parser *p, size_t index, const event_fields *e)
{
    const char *b = p->s.buf;
    bool cpu_cat = cat_is(b, &e->cat, "cpu_op") || cat_is(b, &e->cat, "user_annotation");
    bool runtime_cat = cat_is(b, &e->cat, "cuda_runtime") || cat_is(b, &e->cat, "cuda_driver");
    if (cpu_cat) {
        if (e->name.present && span_contains(b, e->name.span, "ProfilerStep", false)) {
            p->k->has_profiler_step = true;
            return 0;
        }
        return add_cpu_op(p, index, e);
    }
    if (runtime_cat && name_in(b, &e->name, launch_names))
        return add_launch(p, index, e);
    if (cat_is(b, &e->cat, "kernel"))
        return add_gpu_op(p, index, e, false);
    if (cat_is(b, &e->cat, "gpu_memcpy"))
        return add_gpu_op(p, index, e, true);
    if (cat_is(b, &e->cat, "ac2g")) {
        if (!e->id.present)
            return event_missing(p, index, e, "id");
        return 0;
    }
    if (cat_is(b, &e->cat, "gpu_memset")) {
        p->k->n_memset++;
        return 0;
    }
    if (runtime_cat && name_in(b, &e->name, device_sync_names))
        return add_sync(p, index, e, true);
    if (runtime_cat && name_in(b, &e->name, stream_sync_names))
        return add_sync(p, index, e, false);
    return 0;
}

static int read_events(kineto_parser *p)
{
    json_scan *s = &p->s;
    js_iter it;
    if (js_enter(s, &it, '[', "'traceEvents'") != 0)
        return -1;
    int more;
    event_fields e;
    while ((more = js_array_next(s, &it)) == 1) {
        size_t index = p->k->n_events++;
        if (index >= UINT32_MAX)
            return tl_fail(p->d, "%s: more than 4294967294 events", p->k->path);
        if (read_event(s, index, &e) != 0 || classify(p, index, &e) != 0)
            return -1;
    }
    return more;
}

static int read_distributed_info(kineto_parser *p)
{
    json_scan *s = &p->s;
    js_iter it;
    tl_span key;
    int r = js_object_or_skip(s, &it);
    if (r != 1)
        return r;
    while ((r = js_object_next(s, &it, &key)) == 1) {
        if (js_span_equals(s->buf, key, "rank")) {
            int st = js_read_int64(s, &p->k->rank);
            if (st == JS_NUM_MALFORMED)
                return -1;
            p->k->has_rank = st == JS_NUM_OK;
        } else if (js_skip_value(s, NULL) != 0) {
            return -1;
        }
    }
    return r;
}

static int read_top_level(kineto_parser *p)
{
    json_scan *s = &p->s;
    js_iter it;
    tl_span key;
    bool has_events = false;
    int r;
    if (js_enter(s, &it, '{', "the top-level JSON value") != 0)
        return -1;
    while ((r = js_object_next(s, &it, &key)) == 1) {
        int rc;
        if (js_span_equals(s->buf, key, "traceEvents")) {
            has_events = true;
            rc = read_events(p);
        } else if (js_span_equals(s->buf, key, "distributedInfo")) {
            rc = read_distributed_info(p);
        } else {
            rc = js_skip_value(s, NULL);
        }
        if (rc != 0)
            return -1;
    }
    if (r < 0 || js_finish(s) != 0)
        return -1;
    if (!has_events)
        return tl_fail(p->d, "%s: missing required key 'traceEvents'", p->k->path);
    return 0;
}

/* --- ordering ----------------------------------------------------------- */

/* Sorts `n` records of `size` bytes (CPU or GPU ops) by their pynum at
 * offset `ts_at`, ties in file order (their uint32_t seq at `seq_at`), as
 * the reference's stable sort on ts does. */
static int sort_by_ts(const kineto_trace *k, void **records, size_t n, size_t size, size_t ts_at, size_t seq_at,
                      tl_diag *d)
{
    if (n == 0)
        return 0;
    const char *in = *records;
    ts_key *keys = malloc(n * sizeof *keys);
    char *sorted = malloc(n * size);
    if (!keys || !sorted) {
        free(keys);
        free(sorted);
        return tl_fail(d, "%s: out of memory", k->path);
    }
    for (size_t i = 0; i < n; i++) {
        ts_key *key = &keys[i];
        memcpy(&key->primary, in + i * size + ts_at, sizeof key->primary);
        memcpy(&key->order, in + i * size + seq_at, sizeof key->order);
        key->secondary = pynum_int(0);
        key->index = (uint32_t)i;
    }
    ts_keys_sort(keys, n);
    for (size_t i = 0; i < n; i++)
        memcpy(sorted + i * size, in + keys[i].index * size, size);
    free(keys);
    free(*records);
    *records = sorted;
    return 0;
}

/* Per-thread lists of CPU ops (in ts order) and the order in which threads
 * first appear (the reference's dict order). */
static int index_threads(kineto_trace *k, size_t n_threads, tl_diag *d)
{
    k->n_threads = n_threads;
    k->thread_begin = calloc(n_threads + 1, sizeof *k->thread_begin);
    k->thread_ops = malloc((k->n_cpu ? k->n_cpu : 1) * sizeof *k->thread_ops);
    k->thread_rank = malloc((n_threads ? n_threads : 1) * sizeof *k->thread_rank);
    uint32_t *fill = calloc(n_threads + 1, sizeof *fill);
    if (!k->thread_begin || !k->thread_ops || !k->thread_rank || !fill) {
        free(fill);
        return tl_fail(d, "%s: out of memory", k->path);
    }
    for (size_t t = 0; t < n_threads; t++)
        k->thread_rank[t] = K_NONE;
    uint32_t rank = 0;
    for (size_t i = 0; i < k->n_cpu; i++) {
        uint32_t t = k->cpu[i].tid;
        k->thread_begin[t + 1]++;
        if (k->thread_rank[t] == K_NONE)
            k->thread_rank[t] = rank++;
        if (k->cpu[i].flags & K_HAS_RF)
            k->n_cpu_with_rf++;
    }
    for (size_t t = 0; t < n_threads; t++) {
        k->thread_begin[t + 1] += k->thread_begin[t];
        fill[t] = k->thread_begin[t];
    }
    for (size_t i = 0; i < k->n_cpu; i++)
        k->thread_ops[fill[k->cpu[i].tid]++] = (uint32_t)i;
    free(fill);
    return 0;
}

int kineto_trace_load(kineto_trace *k, const char *path, tl_diag *d)
{
    memset(k, 0, sizeof *k);
    k->path = path;
    if (tl_buffer_load(path, &k->text, d) != 0)
        return -1;
    kineto_parser p = {.k = k, .d = d};
    js_init(&p.s, k->text.data, k->text.len, path, d);
    if (span_intern_init(&p.threads, k->text.data) != 0)
        return tl_fail(d, "%s: out of memory", path);
    int rc = read_top_level(&p);
    size_t n_threads = p.threads.count;
    span_intern_free(&p.threads);
    if (rc != 0)
        return -1;
    if (sort_by_ts(k, (void **)&k->cpu, k->n_cpu, sizeof *k->cpu, offsetof(k_cpu_op, ts),
                   offsetof(k_cpu_op, seq), d) != 0 ||
        sort_by_ts(k, (void **)&k->gpu, k->n_gpu, sizeof *k->gpu, offsetof(k_gpu_op, ts),
                   offsetof(k_gpu_op, seq), d) != 0)
        return -1;
    return index_threads(k, n_threads, d);
}

const uint32_t *kineto_thread_ops(const kineto_trace *k, uint32_t tid, size_t *n)
{
    if (tid >= k->n_threads) {
        *n = 0;
        return k->thread_ops;
    }
    *n = k->thread_begin[tid + 1] - k->thread_begin[tid];
    return k->thread_ops + k->thread_begin[tid];
}

size_t kineto_ops_lower_bound(const kineto_trace *k, const uint32_t *ops, size_t n, pynum t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pynum_cmp(k->cpu[ops[mid]].ts, t) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void kineto_trace_free(kineto_trace *k)
{
    tl_buffer_free(&k->text);
    free(k->cpu);
    free(k->launch);
    free(k->gpu);
    free(k->sync);
    free(k->thread_begin);
    free(k->thread_ops);
    free(k->thread_rank);
    memset(k, 0, sizeof *k);
}
