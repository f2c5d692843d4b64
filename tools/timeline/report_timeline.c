/*
 * report_timeline.c - report -> trace events. Ticks are nanoseconds and
 * trace events microseconds, written as exact decimals (chrome_micros:
 * 117780 ns -> 117.78), so every tick stays exact.
 */
#include "timeline/report_timeline.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/pyjson_string.h"
#include "timeline/chrome_trace.h"
#include "util/grow.h"
#include "util/sorted.h"

typedef struct {
    FILE *f;
    bool first;         /* no event written yet */
    uint64_t *lane_end; /* per collective thread of the current NPU: end of its last slice */
    size_t n_lanes, lanes_cap;
} writer;

/* Members a slice shows itself rather than in its args. */
static const char *const collective_layout_keys[] = {"npu", "name", "start", "end", "duration", NULL};
static const char *const npu_layout_keys[] = {"npu", NULL};

static int by_npu_then_start(const void *a, const void *b)
{
    const report_collective *x = a, *y = b;
    uint64_t kx[] = {x->npu, x->start, x->end, x->index}, ky[] = {y->npu, y->start, y->end, y->index};
    return keys_order(kx, ky, 4);
}

static int by_npu(const void *a, const void *b)
{
    const report_npu *x = a, *y = b;
    return x->npu < y->npu ? -1 : x->npu > y->npu;
}

static void begin_event(writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = false;
}

static void put_micros(FILE *f, uint64_t ns)
{
    char text[CHROME_MICROS_MAX];
    fputs(chrome_micros(ns, text), f);
}

static void put_string(FILE *f, const char *s)
{
    pyjson_write_string(pyjson_write_to_file, f, s, strlen(s), 0);
}

static void metadata(writer *w, uint64_t npu, long tid, const char *kind, const char *name)
{
    begin_event(w);
    fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%llu", kind, (unsigned long long)npu);
    if (tid >= 0)
        fprintf(w->f, ",\"tid\":%ld", tid);
    fputs(",\"args\":{\"name\":", w->f);
    put_string(w->f, name);
    fputs("}}", w->f);
}

static bool is_layout_key(const char *key, const char *const *layout)
{
    for (; *layout; layout++)
        if (strcmp(key, *layout) == 0)
            return true;
    return false;
}

/* The record's members, less the layout ones, as a JSON object. */
static void put_args(FILE *f, json_object *record, const char *const *layout)
{
    bool first = true;
    fputc('{', f);
    struct json_object_iterator it = json_object_iter_begin(record), end = json_object_iter_end(record);
    for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
        const char *key = json_object_iter_peek_name(&it);
        if (is_layout_key(key, layout))
            continue;
        if (!first)
            fputc(',', f);
        first = false;
        put_string(f, key);
        fputc(':', f);
        fputs(json_object_to_json_string_ext(json_object_iter_peek_value(&it),
                                             JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
              f);
    }
    fputc('}', f);
}

static void slice(writer *w, uint64_t npu, size_t tid, const char *name, size_t name_len, const char *cat,
                  uint64_t start, uint64_t end, json_object *record, const char *const *layout)
{
    begin_event(w);
    fputs("{\"name\":", w->f);
    pyjson_write_string(pyjson_write_to_file, w->f, name, name_len, 0);
    fprintf(w->f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":", cat);
    put_micros(w->f, start);
    fputs(",\"dur\":", w->f);
    put_micros(w->f, end - start);
    fprintf(w->f, ",\"pid\":%llu,\"tid\":%zu,\"args\":", (unsigned long long)npu, tid);
    put_args(w->f, record, layout);
    fputc('}', w->f);
}

/* The first collective thread free at `start`, opening a new one (and
 * naming it) when all are busy. Returns the lane, or -1 out of memory. */
static long take_lane(writer *w, uint64_t npu, uint64_t start, uint64_t end)
{
    size_t lane = 0;
    while (lane < w->n_lanes && w->lane_end[lane] > start)
        lane++;
    if (lane == w->n_lanes) {
        if (grow_array((void **)&w->lane_end, &w->lanes_cap, w->n_lanes + 1, sizeof *w->lane_end, 4) != 0)
            return -1;
        w->n_lanes++;
        char name[40] = "collectives";
        if (lane > 0)
            snprintf(name, sizeof name, "collectives %zu", lane + 1);
        metadata(w, npu, (long)lane + 1, "thread_name", name);
    }
    w->lane_end[lane] = end;
    return (long)lane;
}

/* One NPU: its name, its run slice (when the report has its row) and its
 * collectives, already sorted by start. */
static int write_npu(writer *w, uint64_t npu, const report_npu *rows, size_t n_rows, const report_collective *colls,
                     size_t n_colls)
{
    char name[40];
    snprintf(name, sizeof name, "NPU %llu", (unsigned long long)npu);
    metadata(w, npu, -1, "process_name", name);
    if (n_rows > 0)
        metadata(w, npu, 0, "thread_name", "run");
    for (size_t i = 0; i < n_rows; i++)
        slice(w, npu, 0, "run", 3, "npu", 0, rows[i].finish, rows[i].record, npu_layout_keys);
    w->n_lanes = 0;
    for (size_t i = 0; i < n_colls; i++) {
        const report_collective *c = &colls[i];
        long lane = take_lane(w, npu, c->start, c->end);
        if (lane < 0)
            return -1;
        slice(w, npu, (size_t)lane + 1, c->name, c->name_len, "collective", c->start, c->end, c->record,
              collective_layout_keys);
    }
    return 0;
}

static void write_header(FILE *f, const report *r, const char *source)
{
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"vimana-et timeline\",\"report\":", f);
    put_string(f, source);
    if (r->generator) {
        fputs(",\"report_generator\":", f);
        put_string(f, r->generator);
    }
    if (r->network_backend) {
        fputs(",\"network_backend\":", f);
        put_string(f, r->network_backend);
    }
    fputs("},\"traceEvents\":[", f);
}

int report_timeline_write(report *r, const char *source, FILE *out, char err[REPORT_MSG_MAX])
{
    /* Either array may be NULL when empty, which qsort may not see. */
    if (r->n_collectives > 1)
        qsort(r->collectives, r->n_collectives, sizeof *r->collectives, by_npu_then_start);
    if (r->n_npus > 1)
        qsort(r->npus, r->n_npus, sizeof *r->npus, by_npu);
    writer w = {.f = out, .first = true};
    write_header(out, r, source);
    size_t c = 0, n = 0;
    int rc = 0;
    /* Merge the two lists NPU by NPU. */
    while (rc == 0 && (c < r->n_collectives || n < r->n_npus)) {
        uint64_t npu = c < r->n_collectives ? r->collectives[c].npu : UINT64_MAX;
        if (n < r->n_npus && r->npus[n].npu < npu)
            npu = r->npus[n].npu;
        size_t c_end = c, n_end = n;
        while (c_end < r->n_collectives && r->collectives[c_end].npu == npu)
            c_end++;
        while (n_end < r->n_npus && r->npus[n_end].npu == npu)
            n_end++;
        rc = write_npu(&w, npu, r->npus + n, n_end - n, r->collectives + c, c_end - c);
        c = c_end, n = n_end;
    }
    free(w.lane_end);
    if (rc != 0) {
        snprintf(err, REPORT_MSG_MAX, "out of memory");
        return -1;
    }
    fputs("\n]}\n", out);
    return 0;
}
