#include "synth/synth_model.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_input.h"
#include "util/msg_escape.h"
#include "vimana/et.h"

/* A model is read whole into memory; the fit of the largest sets stays far
 * below this. */
#define SM_MAX_FILE_BYTES ((size_t)1 << 30)

/* The reading context: the file and the first error. */
typedef struct rd {
    const char *prog, *file;
} rd;

/* A key path: vsnprintf, since a cut-off key is still a fine message. */
static void keyf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void keyf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static int bad(const rd *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(const rd *r, const char *key, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error(r->prog, "error: %s: %s: %s", r->file, key, msg);
    return -1;
}

/* A member of an object; absent (or, when required, null) is an error
 * when required. An optional null member reads as absent. */
static int member(const rd *r, json_object *obj, const char *key, const char *name, bool required,
                  json_object **out)
{
    *out = NULL;
    if (json_object_object_get_ex(obj, name, out) && (*out || !required))
        return 0;
    if (!required)
        return 0;
    char full[300];
    keyf(full, sizeof full, "%s%s%s", key, *key ? "." : "", name);
    return bad(r, full, "missing");
}

static int want_type(const rd *r, json_object *v, const char *key, json_type t, const char *what)
{
    return json_object_is_type(v, t) ? 0 : bad(r, key, "expected %s", what);
}

static int u64_in(const rd *r, json_object *v, const char *key, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!json_object_is_type(v, json_type_int))
        return bad(r, key, "expected an integer from %" PRIu64 " to %" PRIu64, lo, hi);
    errno = 0;
    int64_t x = json_object_get_int64(v);
    if (errno || x < 0 || (uint64_t)x < lo || (uint64_t)x > hi)
        return bad(r, key, "%s is out of range (expected %" PRIu64 " to %" PRIu64 ")",
                   json_object_get_string(v), lo, hi);
    *out = (uint64_t)x;
    return 0;
}

static int i64_in(const rd *r, json_object *v, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    if (!json_object_is_type(v, json_type_int))
        return bad(r, key, "expected an integer from %" PRId64 " to %" PRId64, lo, hi);
    errno = 0;
    int64_t x = json_object_get_int64(v);
    if (errno || x < lo || x > hi)
        return bad(r, key, "%s is out of range (expected %" PRId64 " to %" PRId64 ")",
                   json_object_get_string(v), lo, hi);
    *out = x;
    return 0;
}

static int num_in(const rd *r, json_object *v, const char *key, double lo, double hi, double *out)
{
    if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
        return bad(r, key, "expected a number from %g to %g", lo, hi);
    double x = json_object_get_double(v);
    if (!isfinite(x) || x < lo || x > hi)
        return bad(r, key, "%s is out of range (expected %g to %g)", json_object_get_string(v), lo, hi);
    *out = x;
    return 0;
}

/* An array of exactly n elements (n == 0: any non-empty length up to max). */
static int array_of(const rd *r, json_object *v, const char *key, size_t n, size_t max, size_t *len)
{
    if (!json_object_is_type(v, json_type_array))
        return bad(r, key, "expected a list");
    /* *len is set only for a list that passes: the callers size their
     * arrays by it, and synth_model_free() walks what they counted. */
    size_t got = json_object_array_length(v);
    if (n && got != n)
        return bad(r, key, "expected a list of %zu, got %zu", n, got);
    if (!n && (got == 0 || got > max))
        return bad(r, key, "expected a list of 1 to %zu items, got %zu", max, got);
    *len = got;
    return 0;
}

int synth_kind_from_name(const char *name)
{
    for (int k = 0; k < FIT_KINDS; k++)
        if (strcmp(fit_kind_name((enum fit_kind)k), name) == 0)
            return k;
    return -1;
}

/* ---- distributions ------------------------------------------------------ */

static int read_pairs(const rd *r, json_object *v, const char *key, uint64_t hi, dist *d)
{
    size_t n;
    if (array_of(r, v, key, 0, DIST_MAX_PAIRS, &n) != 0)
        return -1;
    d->n_pairs = n;
    d->total = 0;
    for (size_t i = 0; i < n; i++) {
        char k[300];
        size_t two;
        json_object *p = json_object_array_get_idx(v, i);
        keyf(k, sizeof k, "%s[%zu]", key, i);
        if (array_of(r, p, k, 2, 2, &two) != 0)
            return -1;
        keyf(k, sizeof k, "%s[%zu][0]", key, i);
        if (u64_in(r, json_object_array_get_idx(p, 0), k, i ? d->value[i - 1] + 1 : 0, hi, &d->value[i]) != 0)
            return -1;
        keyf(k, sizeof k, "%s[%zu][1]", key, i);
        if (u64_in(r, json_object_array_get_idx(p, 1), k, 1, UINT64_C(1) << 40, &d->count[i]) != 0)
            return -1;
        d->total += d->count[i];
    }
    return 0;
}

static int read_quantiles(const rd *r, json_object *v, const char *key, uint64_t hi, dist *d)
{
    size_t n;
    if (array_of(r, v, key, DIST_QUANTILES, 0, &n) != 0)
        return -1;
    d->n_pairs = 0;
    for (size_t i = 0; i < n; i++) {
        char k[300];
        keyf(k, sizeof k, "%s[%zu]", key, i);
        if (u64_in(r, json_object_array_get_idx(v, i), k, i ? d->quantile[i - 1] : 0, hi, &d->quantile[i]) != 0)
            return -1;
    }
    return 0;
}

static int read_dist(const rd *r, json_object *v, const char *key, uint64_t hi, dist *d)
{
    json_object *x;
    char k[300];
    if (want_type(r, v, key, json_type_object, "an object with \"values\" or \"quantiles\"") != 0)
        return -1;
    if (json_object_object_get_ex(v, "values", &x)) {
        keyf(k, sizeof k, "%s.values", key);
        return read_pairs(r, x, k, hi, d);
    }
    if (json_object_object_get_ex(v, "quantiles", &x)) {
        keyf(k, sizeof k, "%s.quantiles", key);
        return read_quantiles(r, x, k, hi, d);
    }
    return bad(r, key, "expected an object with \"values\" or \"quantiles\"");
}

/* kinds.K.next: {"comp_gpu": count, ...}; optional (no transitions). */
static int read_next(const rd *r, json_object *val, const char *key, sm_kind *sk)
{
    json_object *next;
    if (member(r, val, key, "next", false, &next) != 0)
        return -1;
    char sub[340];
    keyf(sub, sizeof sub, "%s.next", key);
    if (!next)
        return 0;
    if (want_type(r, next, sub, json_type_object, "an object") != 0)
        return -1;
    json_object_object_foreach(next, name, count) {
        char k[400], esc[128];
        int to = synth_kind_from_name(name);
        keyf(k, sizeof k, "%s.%s", sub, msg_escape(name, esc, sizeof esc));
        if (to < 0)
            return bad(r, k, "unknown node kind");
        if (u64_in(r, count, k, 0, SM_MAX_TRANSITIONS, &sk->next[to]) != 0)
            return -1;
    }
    return 0;
}

static int read_kinds(const rd *r, json_object *root, synth_model *m)
{
    json_object *kinds, *v;
    if (member(r, root, "", "kinds", true, &kinds) != 0 ||
        want_type(r, kinds, "kinds", json_type_object, "an object") != 0)
        return -1;
    json_object_object_foreach(kinds, name, val) {
        char key[300], esc[128];
        int k = synth_kind_from_name(name);
        keyf(key, sizeof key, "kinds.%s", msg_escape(name, esc, sizeof esc));
        if (k < 0)
            return bad(r, key, "unknown node kind");
        sm_kind *sk = &m->kinds[k];
        sk->present = true;
        if (want_type(r, val, key, json_type_object, "an object") != 0 ||
            member(r, val, key, "duration_micros", true, &v) != 0)
            return -1;
        char sub[340];
        keyf(sub, sizeof sub, "%s.duration_micros", key);
        if (read_dist(r, v, sub, SM_MAX_DURATION, &sk->duration) != 0 ||
            member(r, val, key, "size_bytes", false, &v) != 0)
            return -1;
        keyf(sub, sizeof sub, "%s.size_bytes", key);
        if (v && read_dist(r, v, sub, SM_MAX_SIZE, &sk->size) != 0)
            return -1;
        sk->has_size = v != NULL;
        if (read_next(r, val, key, sk) != 0)
            return -1;
    }
    return 0;
}

/* ---- communicators ------------------------------------------------------ */

static int coll_from_name(const char *name)
{
    static const char *const names[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"};
    static const int types[] = {VET_ALL_REDUCE, VET_ALL_GATHER, VET_REDUCE_SCATTER, VET_ALL_TO_ALL, VET_BROADCAST};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(names[i], name) == 0)
            return types[i];
    return -1;
}

static int read_dims(const rd *r, json_object *v, const char *key, sm_run *run)
{
    size_t n;
    if (array_of(r, v, key, 0, 64, &n) != 0)
        return -1;
    run->n_dims = (uint8_t)n;
    for (size_t d = 0; d < n; d++) {
        char k[340];
        uint64_t bit;
        keyf(k, sizeof k, "%s[%zu]", key, d);
        if (u64_in(r, json_object_array_get_idx(v, d), k, 0, 1, &bit) != 0)
            return -1;
        run->dims |= bit << d;
    }
    return 0;
}

static int read_run(const rd *r, json_object *v, const char *key, sm_run *run)
{
    char k[340];
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) < 3 ||
        json_object_array_length(v) > 4)
        return bad(r, key, "expected [kind, size, repeat] or [kind, size, repeat, involved_dim]");
    json_object *name = json_object_array_get_idx(v, 0);
    keyf(k, sizeof k, "%s[0]", key);
    if (!json_object_is_type(name, json_type_string) ||
        (run->coll = coll_from_name(json_object_get_string(name))) < 0)
        return bad(r, k, "expected one of all_reduce, all_gather, reduce_scatter, all_to_all, broadcast");
    keyf(k, sizeof k, "%s[1]", key);
    if (u64_in(r, json_object_array_get_idx(v, 1), k, 0, SM_MAX_SIZE, &run->size) != 0)
        return -1;
    keyf(k, sizeof k, "%s[2]", key);
    if (u64_in(r, json_object_array_get_idx(v, 2), k, 1, UINT32_MAX, &run->repeat) != 0)
        return -1;
    keyf(k, sizeof k, "%s[3]", key);
    return json_object_array_length(v) == 4 ? read_dims(r, json_object_array_get_idx(v, 3), k, run) : 0;
}

static int read_comm(const rd *r, json_object *v, const char *key, sm_comm *c)
{
    json_object *size, *stride;
    char k[300];
    if (want_type(r, v, key, json_type_object, "an object") != 0 || member(r, v, key, "stride", false, &stride) != 0)
        return -1;
    keyf(k, sizeof k, "%s.size", key);
    if (!json_object_object_get_ex(v, "size", &size)) /* null is a value: the size is unknown */
        return bad(r, k, "missing");
    if (json_object_is_type(size, json_type_string) && strcmp(json_object_get_string(size), "all") == 0)
        c->known = true;
    else if (json_object_is_type(size, json_type_int)) {
        if (u64_in(r, size, k, 1, SM_MAX_RANKS, &c->size) != 0)
            return -1;
        c->known = true;
        keyf(k, sizeof k, "%s.stride", key);
        if (stride && u64_in(r, stride, k, 1, SM_MAX_RANKS, &c->stride) != 0)
            return -1;
    } else if (size && !json_object_is_type(size, json_type_null))
        return bad(r, k, "expected \"all\", a number of ranks or null");
    return 0;
}

/* One role's sequence on one communicator: a list of runs. */
static int read_seq(const rd *r, json_object *seq, const char *key, sm_seq *q)
{
    char k[340];
    if (!json_object_is_type(seq, json_type_array))
        return bad(r, key, "expected a list");
    q->n_runs = json_object_array_length(seq);
    if (q->n_runs && !(q->runs = calloc(q->n_runs, sizeof *q->runs)))
        return bad(r, key, "out of memory");
    for (size_t i = 0; i < q->n_runs; i++) {
        keyf(k, sizeof k, "%s[%zu]", key, i);
        if (read_run(r, json_object_array_get_idx(seq, i), k, &q->runs[i]) != 0)
            return -1;
    }
    return 0;
}

static int read_comms(const rd *r, json_object *root, synth_model *m)
{
    json_object *v;
    if (member(r, root, "", "communicators", true, &v) != 0 ||
        want_type(r, v, "communicators", json_type_array, "a list") != 0)
        return -1;
    m->n_comms = json_object_array_length(v);
    if (m->n_comms && !(m->comms = calloc(m->n_comms, sizeof *m->comms)))
        return bad(r, "communicators", "out of memory");
    for (size_t i = 0; i < m->n_comms; i++) {
        char k[64];
        keyf(k, sizeof k, "communicators[%zu]", i);
        if (read_comm(r, json_object_array_get_idx(v, i), k, &m->comms[i]) != 0)
            return -1;
    }
    return 0;
}

/* ---- steps -------------------------------------------------------------- */

static int read_local(const rd *r, json_object *v, const char *key, const synth_model *m, const sm_role *role,
                      sm_step *st)
{
    char k[340];
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != 3)
        return bad(r, key, "expected [kind, mean count, mean summed duration]");
    json_object *name = json_object_array_get_idx(v, 0);
    int kind = json_object_is_type(name, json_type_string) ? synth_kind_from_name(json_object_get_string(name)) : -1;
    int l = kind >= 0 ? sk_local_index(kind) : -1;
    keyf(k, sizeof k, "%s[0]", key);
    if (l < 0)
        return bad(r, k, "expected one of comp_gpu, comp_cpu, load, store, metadata, invalid");
    if (!role->has_duration[l])
        return bad(r, k, "kind %s has no entry in the role's durations", fit_kind_name((enum fit_kind)kind));
    if ((kind == FIT_LOAD || kind == FIT_STORE) && !m->kinds[kind].has_size)
        return bad(r, k, "kind %s has no size_bytes in kinds", fit_kind_name((enum fit_kind)kind));
    keyf(k, sizeof k, "%s[1]", key);
    if (num_in(r, json_object_array_get_idx(v, 1), k, 0, SM_MAX_STEP_NODES, &st->count[l]) != 0)
        return -1;
    keyf(k, sizeof k, "%s[2]", key);
    return num_in(r, json_object_array_get_idx(v, 2), k, 0, (double)SM_MAX_DURATION * SM_MAX_STEP_NODES,
                  &st->duration[l]);
}

/* ev[at ..]: join, after_local, [event distances]. index: the event's
 * number among the events so far. */
static int read_deps(const rd *r, json_object *ev, size_t at, const char *key, size_t index, sm_step *st)
{
    char k[340];
    uint64_t after, d;
    size_t n;
    keyf(k, sizeof k, "%s[%zu]", key, at);
    if (i64_in(r, json_object_array_get_idx(ev, at), k, -1, INT32_MAX, &st->join) != 0)
        return -1;
    keyf(k, sizeof k, "%s[%zu]", key, at + 1);
    if (u64_in(r, json_object_array_get_idx(ev, at + 1), k, 0, 1, &after) != 0)
        return -1;
    st->after_local = after != 0;
    json_object *back = json_object_array_get_idx(ev, at + 2);
    keyf(k, sizeof k, "%s[%zu]", key, at + 2);
    if (!json_object_is_type(back, json_type_array) || (n = json_object_array_length(back)) > SK_MAX_BACK)
        return bad(r, k, "expected a list of at most %d earlier-event distances", SK_MAX_BACK);
    st->n_back = n;
    for (size_t i = 0; i < n; i++) {
        keyf(k, sizeof k, "%s[%zu][%zu]", key, at + 2, i);
        if (index == 0)
            return bad(r, k, "the first event has no earlier event");
        if (u64_in(r, json_object_array_get_idx(back, i), k, 1, index, &d) != 0)
            return -1;
        st->back[i] = (uint32_t)d;
    }
    return 0;
}

static int read_event(const rd *r, json_object *ev, const char *key, const synth_model *m, size_t index,
                      sm_step *st)
{
    char k[340];
    size_t n = json_object_is_type(ev, json_type_array) ? json_object_array_length(ev) : 0;
    json_object *t = n ? json_object_array_get_idx(ev, 0) : NULL;
    const char *type = t && json_object_is_type(t, json_type_string) ? json_object_get_string(t) : "";
    if (strcmp(type, "coll") == 0 && n == 5) {
        st->type = SM_COLL;
        keyf(k, sizeof k, "%s[1]", key);
        if (m->n_comms == 0)
            return bad(r, k, "no communicators are defined");
        if (u64_in(r, json_object_array_get_idx(ev, 1), k, 0, m->n_comms - 1, &st->comm) != 0)
            return -1;
        return read_deps(r, ev, 2, key, index, st);
    }
    if ((strcmp(type, "send") == 0 || strcmp(type, "recv") == 0) && n == 6) {
        st->type = type[0] == 's' ? SM_SEND : SM_RECV;
        keyf(k, sizeof k, "%s[1]", key);
        if (i64_in(r, json_object_array_get_idx(ev, 1), k, -SM_MAX_RANKS, SM_MAX_RANKS, &st->offset) != 0)
            return -1;
        keyf(k, sizeof k, "%s[2]", key);
        if (u64_in(r, json_object_array_get_idx(ev, 2), k, 1, SM_MAX_SIZE, &st->size) != 0)
            return -1;
        return read_deps(r, ev, 3, key, index, st);
    }
    return bad(r, key, "expected [\"coll\", communicator, join, after_local, [distances]] or "
                       "[\"send\"|\"recv\", peer offset, size, join, after_local, [distances]]");
}

static int read_step(const rd *r, json_object *v, const char *key, const synth_model *m, const sm_role *role,
                     size_t *events, sm_step *st)
{
    json_object *local, *ev;
    char k[300];
    if (want_type(r, v, key, json_type_object, "an object") != 0 || member(r, v, key, "local", true, &local) != 0 ||
        member(r, v, key, "event", false, &ev) != 0)
        return -1;
    keyf(k, sizeof k, "%s.local", key);
    if (want_type(r, local, k, json_type_array, "a list") != 0)
        return -1;
    for (size_t i = 0; i < json_object_array_length(local); i++) {
        char ki[340];
        keyf(ki, sizeof ki, "%s.local[%zu]", key, i);
        if (read_local(r, json_object_array_get_idx(local, i), ki, m, role, st) != 0)
            return -1;
    }
    keyf(k, sizeof k, "%s.event", key);
    if (!ev)
        return 0;
    return read_event(r, ev, k, m, (*events)++, st);
}

static int read_steps(const rd *r, json_object *v, const char *key, const synth_model *m, sm_role *role)
{
    if (array_of(r, v, key, 0, SIZE_MAX / sizeof *role->steps, &role->n_steps) != 0)
        return -1;
    if (!(role->steps = calloc(role->n_steps, sizeof *role->steps)))
        return bad(r, key, "out of memory");
    size_t events = 0;
    for (size_t i = 0; i < role->n_steps; i++) {
        char k[340];
        keyf(k, sizeof k, "%s[%zu]", key, i);
        if (read_step(r, json_object_array_get_idx(v, i), k, m, role, &events, &role->steps[i]) != 0)
            return -1;
    }
    return 0;
}

/* Every member of a communicator must issue its whole sequence: the steps
 * hold as many collectives on it as its runs add up to. */
static int check_sequences(const rd *r, const sm_role *role, const synth_model *m, const char *key)
{
    for (size_t c = 0; c < m->n_comms; c++) {
        uint64_t want = 0, got = 0;
        for (size_t i = 0; i < role->seq[c].n_runs; i++)
            want += role->seq[c].runs[i].repeat;
        for (size_t i = 0; i < role->n_steps; i++)
            got += role->steps[i].type == SM_COLL && role->steps[i].comm == c;
        if (want != got) {
            char k[340];
            keyf(k, sizeof k, "%s.sequences[%zu]", key, c);
            return bad(r, k, "holds %" PRIu64 " collectives, the steps issue %" PRIu64, want, got);
        }
    }
    return 0;
}

/* The ranks of a role; each rank belongs to exactly one role. */
static int read_role_ranks(const rd *r, json_object *v, const char *key, synth_model *m, uint32_t role)
{
    size_t n;
    if (array_of(r, v, key, 0, (size_t)m->ranks, &n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char k[340];
        uint64_t rank;
        keyf(k, sizeof k, "%s[%zu]", key, i);
        if (u64_in(r, json_object_array_get_idx(v, i), k, 0, m->ranks - 1, &rank) != 0)
            return -1;
        if (m->role_of[rank] != UINT32_MAX)
            return bad(r, k, "rank %" PRIu64 " is already in a role", rank);
        m->role_of[rank] = role;
    }
    return 0;
}

/* "durations": {LOCAL_KIND: distribution, ...}. */
static int read_durations(const rd *r, json_object *v, const char *key, sm_role *role)
{
    if (want_type(r, v, key, json_type_object, "an object") != 0)
        return -1;
    json_object_object_foreach(v, name, val) {
        char k[340], esc[128];
        int kind = synth_kind_from_name(name);
        int l = kind >= 0 ? sk_local_index(kind) : -1;
        keyf(k, sizeof k, "%s.%s", key, msg_escape(name, esc, sizeof esc));
        if (l < 0)
            return bad(r, k, "expected one of comp_gpu, comp_cpu, load, store, metadata, invalid");
        if (read_dist(r, val, k, SM_MAX_DURATION, &role->duration[l]) != 0)
            return -1;
        role->has_duration[l] = true;
    }
    return 0;
}

static int read_role(const rd *r, json_object *v, const char *key, synth_model *m, uint32_t index)
{
    json_object *ranks, *seqs, *steps, *durations;
    sm_role *role = &m->roles[index];
    char k[300];
    size_t n;
    if (want_type(r, v, key, json_type_object, "an object") != 0 || member(r, v, key, "ranks", true, &ranks) != 0 ||
        member(r, v, key, "sequences", true, &seqs) != 0 || member(r, v, key, "steps", true, &steps) != 0 ||
        member(r, v, key, "durations", true, &durations) != 0)
        return -1;
    keyf(k, sizeof k, "%s.ranks", key);
    if (read_role_ranks(r, ranks, k, m, index) != 0)
        return -1;
    keyf(k, sizeof k, "%s.durations", key);
    if (read_durations(r, durations, k, role) != 0)
        return -1;
    keyf(k, sizeof k, "%s.sequences", key);
    if (!json_object_is_type(seqs, json_type_array) || (n = json_object_array_length(seqs)) != m->n_comms)
        return bad(r, k, "expected a list of %zu sequences (one per communicator)", m->n_comms);
    if (!(role->seq = calloc(m->n_comms + 1, sizeof *role->seq)))
        return bad(r, k, "out of memory");
    for (size_t c = 0; c < n; c++) {
        char kc[340];
        keyf(kc, sizeof kc, "%s.sequences[%zu]", key, c);
        if (read_seq(r, json_object_array_get_idx(seqs, c), kc, &role->seq[c]) != 0)
            return -1;
    }
    keyf(k, sizeof k, "%s.steps", key);
    return read_steps(r, steps, k, m, role) == 0 ? check_sequences(r, role, m, key) : -1;
}

static int read_roles(const rd *r, json_object *root, synth_model *m)
{
    json_object *v;
    if (member(r, root, "", "roles", true, &v) != 0 || array_of(r, v, "roles", 0, (size_t)m->ranks, &m->n_roles) != 0)
        return -1;
    m->roles = calloc(m->n_roles, sizeof *m->roles);
    m->role_of = malloc(m->ranks * sizeof *m->role_of);
    if (!m->roles || !m->role_of)
        return bad(r, "roles", "out of memory");
    for (uint64_t i = 0; i < m->ranks; i++)
        m->role_of[i] = UINT32_MAX;
    for (size_t i = 0; i < m->n_roles; i++) {
        char k[64];
        keyf(k, sizeof k, "roles[%zu]", i);
        if (read_role(r, json_object_array_get_idx(v, i), k, m, (uint32_t)i) != 0)
            return -1;
    }
    for (uint64_t i = 0; i < m->ranks; i++)
        if (m->role_of[i] == UINT32_MAX)
            return bad(r, "roles", "rank %" PRIu64 " is in no role", i);
    return 0;
}

static int read_ratios(const rd *r, json_object *root, synth_model *m)
{
    json_object *v;
    size_t n;
    if (member(r, root, "", "rank_compute_ratio", true, &v) != 0 ||
        array_of(r, v, "rank_compute_ratio", (size_t)m->ranks, 0, &n) != 0)
        return -1;
    if (!(m->ratio = calloc(n, sizeof *m->ratio)))
        return bad(r, "rank_compute_ratio", "out of memory");
    for (size_t i = 0; i < n; i++) {
        char k[64];
        keyf(k, sizeof k, "rank_compute_ratio[%zu]", i);
        if (num_in(r, json_object_array_get_idx(v, i), k, 0, SM_MAX_RATIO, &m->ratio[i]) != 0)
            return -1;
    }
    return 0;
}

static int read_header(const rd *r, json_object *root, synth_model *m)
{
    json_object *v;
    uint64_t version;
    if (want_type(r, root, "(top level)", json_type_object, "a JSON object") != 0 ||
        member(r, root, "", "format", true, &v) != 0)
        return -1;
    if (!json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), "vimana-synth-model") != 0)
        return bad(r, "format", "expected \"vimana-synth-model\"");
    if (member(r, root, "", "version", true, &v) != 0 || u64_in(r, v, "version", 0, INT32_MAX, &version) != 0)
        return -1;
    if (version != FIT_MODEL_VERSION)
        return bad(r, "version", "%" PRIu64 " is not supported (expected %d; fit the model again)", version,
                   FIT_MODEL_VERSION);
    if (member(r, root, "", "ranks", true, &v) != 0 || u64_in(r, v, "ranks", 1, SM_MAX_RANKS, &m->ranks) != 0)
        return -1;
    return 0;
}

int synth_model_read(const char *prog, const char *path, synth_model *m)
{
    rd r = {prog, path};
    memset(m, 0, sizeof *m);
    /* json_doc, not json-c's reader: a key given twice is refused rather
     * than one of its values dropped, and a parse error says where. */
    json_object *root;
    if (json_input_load(prog, path, SM_MAX_FILE_BYTES, "1 GiB, not a synth model", &root) != 0)
        return -1;
    int rc = read_header(&r, root, m) == 0 && read_ratios(&r, root, m) == 0 && read_kinds(&r, root, m) == 0 &&
                     read_comms(&r, root, m) == 0 && read_roles(&r, root, m) == 0
                 ? 0
                 : -1;
    json_object_put(root);
    if (rc != 0)
        synth_model_free(m);
    return rc;
}

void synth_model_free(synth_model *m)
{
    for (size_t i = 0; i < m->n_roles; i++) {
        for (size_t c = 0; m->roles[i].seq && c < m->n_comms; c++)
            free(m->roles[i].seq[c].runs);
        free(m->roles[i].seq);
        free(m->roles[i].steps);
    }
    free(m->roles);
    free(m->role_of);
    free(m->comms);
    free(m->ratio);
    memset(m, 0, sizeof *m);
}
