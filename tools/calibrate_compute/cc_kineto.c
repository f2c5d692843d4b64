/* GEMM rows from a Kineto trace (see the header). */
#include "calibrate_compute/cc_kineto.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail_msg.h"
#include "trace_link/gpu_launcher.h"
#include "trace_link/kineto_trace.h"

#define MAX_DIM (1u << 24)
#define MAX_ARG_TEXT 4096

int cc_kineto_is_trace(const char *path)
{
    size_t n = strlen(path);
    return (n >= 5 && strcmp(path + n - 5, ".json") == 0) || (n >= 8 && strcmp(path + n - 8, ".json.gz") == 0);
}

/* One GEMM call: its shape and the time of its kernels. */
typedef struct call {
    uint64_t m, n, k;
    double us;
    uint32_t event;
} call;

typedef struct calls {
    call *v;
    size_t n, cap;
} calls;

static bool named(const kineto_trace *k, const k_cpu_op *op, const char *want)
{
    return op->name_len == strlen(want) && memcmp(k->text.data + op->name_off, want, op->name_len) == 0;
}

/* An args value of the trace (a span of its text) as a json-c tree, or
 * NULL when absent, too long or not JSON. */
static json_object *arg_json(const kineto_trace *k, tl_span s)
{
    if (s.len == 0 || s.len > MAX_ARG_TEXT)
        return NULL;
    char text[MAX_ARG_TEXT + 1];
    memcpy(text, k->text.data + s.off, s.len);
    text[s.len] = '\0';
    return json_tokener_parse(text);
}

/* A matrix of Input Dims: [rows, cols], each from 1 to MAX_DIM. */
static bool matrix(json_object *dims, size_t i, uint64_t *rows, uint64_t *cols)
{
    json_object *d = json_object_array_get_idx(dims, i);
    if (!json_object_is_type(d, json_type_array) || json_object_array_length(d) != 2)
        return false;
    int64_t r = json_object_get_int64(json_object_array_get_idx(d, 0));
    int64_t c = json_object_get_int64(json_object_array_get_idx(d, 1));
    if (r < 1 || r > MAX_DIM || c < 1 || c > MAX_DIM)
        return false;
    *rows = (uint64_t)r;
    *cols = (uint64_t)c;
    return true;
}

static bool is_16bit(json_object *types, size_t i)
{
    const char *t = json_object_get_string(json_object_array_get_idx(types, i));
    return t && (strstr(t, "BFloat16") || strstr(t, "Half"));
}

enum shape_rc { SHAPE_OK, SHAPE_NONE, SHAPE_OTHER_TYPE };

/* The (m, n, k) of aten::mm (A, B) or aten::addmm (bias, A, B). */
static enum shape_rc shape_of(const kineto_trace *k, const k_cpu_op *op, call *c)
{
    size_t a = named(k, op, "aten::addmm") ? 1 : 0;
    json_object *dims = arg_json(k, op->input_dims), *types = arg_json(k, op->input_types);
    enum shape_rc rc = SHAPE_NONE;
    uint64_t ar, ac, br, bc;
    if (json_object_is_type(dims, json_type_array) && json_object_array_length(dims) == a + 2 &&
        matrix(dims, a, &ar, &ac) && matrix(dims, a + 1, &br, &bc) && ac == br) {
        rc = json_object_is_type(types, json_type_array) && is_16bit(types, a) && is_16bit(types, a + 1)
                 ? SHAPE_OK
                 : SHAPE_OTHER_TYPE;
        c->m = ar;
        c->k = ac;
        c->n = bc;
    }
    json_object_put(dims);
    json_object_put(types);
    return rc;
}

static double us_of(pynum v)
{
    return v.is_float ? v.v.f : (double)v.v.i;
}

/* The kernel time of each CPU op: the durations of the GPU kernels it
 * launched, summed (NAN: none). */
static double *kernel_time(const kineto_trace *k)
{
    double *t = malloc((k->n_cpu ? k->n_cpu : 1) * sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; i < k->n_cpu; i++)
        t[i] = -1;
    for (size_t g = 0; g < k->n_gpu; g++) {
        const k_gpu_op *op = &k->gpu[g];
        if (op->is_memcpy || op->launcher == K_NONE)
            continue;
        t[op->launcher] = (t[op->launcher] < 0 ? 0 : t[op->launcher]) + us_of(op->dur);
    }
    return t;
}

static int cmp_call(const void *a, const void *b)
{
    const call *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    CMP(m);
    CMP(n);
    CMP(k);
    CMP(us);
    CMP(event);
#undef CMP
    return 0;
}

/* One row per shape: the median call (the lower of the middle two), named
 * by the shape's first call. */
static int rows_of(const char *path, calls *cs, cc_table *t, cc_kineto_stats *st)
{
    qsort(cs->v, cs->n, sizeof *cs->v, cmp_call);
    for (size_t i = 0; i < cs->n;) {
        size_t end = i;
        uint32_t first = cs->v[i].event;
        while (end < cs->n && cs->v[end].m == cs->v[i].m && cs->v[end].n == cs->v[i].n && cs->v[end].k == cs->v[i].k) {
            first = cs->v[end].event < first ? cs->v[end].event : first;
            end++;
        }
        const call *mid = &cs->v[i + (end - i - 1) / 2];
        cc_row r = {.m = mid->m, .n = mid->n, .k = mid->k, .seconds = mid->us * 1e-6, .file = path, .line = first,
                    .is_event = true};
        if (cc_table_push(t, &r) != 0)
            return -1;
        st->shapes++;
        i = end;
    }
    return 0;
}

static int collect(const char *path, const kineto_trace *k, cc_table *t, cc_kineto_stats *st, char *msg, size_t len)
{
    double *time = kernel_time(k);
    calls cs = {0};
    int rc = time ? 0 : fail_msg(msg, len, "%s: out of memory", path);
    for (size_t i = 0; rc == 0 && i < k->n_cpu; i++) {
        const k_cpu_op *op = &k->cpu[i];
        if (time[i] <= 0 || !(named(k, op, "aten::mm") || named(k, op, "aten::addmm")))
            continue;
        call c = {.us = time[i], .event = op->seq};
        enum shape_rc s = shape_of(k, op, &c);
        if (s == SHAPE_NONE) {
            st->no_shape++;
        } else if (s == SHAPE_OTHER_TYPE) {
            st->other_dtype++;
        } else if (cs.n == cs.cap && !(cs.v = realloc(cs.v, (cs.cap = cs.cap ? 2 * cs.cap : 64) * sizeof *cs.v))) {
            rc = fail_msg(msg, len, "%s: out of memory", path);
        } else {
            cs.v[cs.n++] = c;
            st->calls++;
        }
    }
    if (rc == 0 && cs.n == 0)
        rc = fail_msg(msg, len, "%s: no 16-bit aten::mm or aten::addmm with its shape and kernels (%zu of other types, "
                      "%zu without Input Dims: profile with record_shapes=True)", path, st->other_dtype, st->no_shape);
    if (rc == 0 && rows_of(path, &cs, t, st) != 0)
        rc = fail_msg(msg, len, "%s: out of memory", path);
    free(cs.v);
    free(time);
    return rc;
}

int cc_kineto_read(const char *path, cc_table *t, cc_kineto_stats *st, char *msg, size_t len)
{
    memset(st, 0, sizeof *st);
    tl_diag d;
    tl_diag_init(&d, "vimana-et calibrate-compute", TL_ERROR);
    kineto_trace k;
    launcher_stats ls;
    int rc = 0;
    if (kineto_trace_load(&k, path, &d) != 0 || find_gpu_launchers(&k, &ls, &d) != 0)
        rc = fail_msg(msg, len, "%s", d.msg);
    else
        rc = collect(path, &k, t, st, msg, len);
    kineto_trace_free(&k);
    return rc;
}
