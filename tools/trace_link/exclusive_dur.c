#include "trace_link/exclusive_dur.h"

#include <stdlib.h>

#include "trace_link/ts_sort.h"

/* Scratch arrays for one thread, sized for the largest thread. */
typedef struct scratch {
    ts_key *keys;
    pynum *end;       /* ts + dur of the op at each position */
    size_t *next;     /* first position after i whose ts is beyond end[i] */
    bool *closed;     /* every op in (i, next[i]) ends within end[i] */
} scratch;

/* Running union of the contained intervals, merged in start order exactly
 * like the reference's merge_overlapping_intervals, subtracting each merged
 * region from `excl` when it is complete. */
typedef struct region_sum {
    bool open;
    pynum start, stop;
    pynum excl;
    bool overflow;
} region_sum;

static void region_add(region_sum *r, pynum start, pynum stop)
{
    if (!r->open) {
        r->open = true;
        r->start = start;
        r->stop = stop;
    } else if (pynum_cmp(start, r->stop) <= 0) {
        if (pynum_cmp(stop, r->stop) > 0)
            r->stop = stop;
    } else {
        r->excl = pynum_sub(r->excl, pynum_sub(r->stop, r->start, &r->overflow), &r->overflow);
        r->start = start;
        r->stop = stop;
    }
}

static pynum region_finish(region_sum *r)
{
    if (r->open)
        r->excl = pynum_sub(r->excl, pynum_sub(r->stop, r->start, &r->overflow), &r->overflow);
    return r->excl;
}

static int negative_error(const kineto_trace *k, const k_cpu_op *op, tl_diag *d)
{
    char ts[PYNUM_TEXT_MAX], dur[PYNUM_TEXT_MAX];
    pynum_format(op->ts, ts);
    pynum_format(op->dur, dur);
    return tl_fail(d,
                   "%s: CPU op '%.*s' (ts %s, dur %s): the ops inside it cover more than its duration "
                   "(exclusive duration below zero)",
                   k->path, kineto_name_width(op->name_len, 80), k->text.data + op->name_off, ts, dur);
}

static int one_thread(kineto_trace *k, const uint32_t *ops, size_t n, scratch *w, tl_diag *d)
{
    bool overflow = false;
    for (size_t i = 0; i < n; i++) {
        const k_cpu_op *op = &k->cpu[ops[i]];
        w->keys[i] = (ts_key){op->ts, op->dur, (uint32_t)i, ops[i]};
    }
    ts_keys_sort(w->keys, n);
    for (size_t i = 0; i < n; i++)
        w->end[i] = pynum_add(w->keys[i].primary, w->keys[i].secondary, &overflow);
    if (overflow)
        return tl_fail(d, "%s: ts + dur overflows a 64-bit integer", k->path);

    for (size_t i = n; i-- > 0;) {
        pynum end_i = w->end[i];
        region_sum r = {.excl = w->keys[i].secondary};
        bool have_max = false;
        pynum max_end = end_i;
        size_t j = i + 1;
        while (j < n && pynum_cmp(w->keys[j].primary, end_i) <= 0) {
            bool contained = pynum_cmp(w->end[j], end_i) <= 0;
            if (!have_max || pynum_cmp(w->end[j], max_end) > 0) {
                max_end = w->end[j];
                have_max = true;
            }
            if (contained)
                region_add(&r, w->keys[j].primary, w->end[j]);
            /* A contained, closed op covers everything up to next[j]: those
             * ops lie inside it and cannot change the union. */
            j = contained && w->closed[j] ? w->next[j] : j + 1;
        }
        w->next[i] = j;
        w->closed[i] = !have_max || pynum_cmp(max_end, end_i) <= 0;
        k_cpu_op *op = &k->cpu[w->keys[i].index];
        op->excl = region_finish(&r);
        if (r.overflow)
            return tl_fail(d, "%s: duration arithmetic overflows a 64-bit integer", k->path);
        if (pynum_cmp(op->excl, pynum_int(0)) < 0)
            return negative_error(k, op, d);
    }
    return 0;
}

int exclusive_durations(kineto_trace *k, tl_diag *d)
{
    size_t largest = 0;
    for (size_t t = 0; t < k->n_threads; t++) {
        size_t n = k->thread_begin[t + 1] - k->thread_begin[t];
        if (n > largest)
            largest = n;
    }
    if (largest == 0)
        return 0;
    scratch w = {
        .keys = malloc(largest * sizeof *w.keys),
        .end = malloc(largest * sizeof *w.end),
        .next = malloc(largest * sizeof *w.next),
        .closed = malloc(largest * sizeof *w.closed),
    };
    int rc = 0;
    if (!w.keys || !w.end || !w.next || !w.closed)
        rc = tl_fail(d, "%s: out of memory", k->path);
    for (size_t t = 0; rc == 0 && t < k->n_threads; t++) {
        size_t begin = k->thread_begin[t], n = k->thread_begin[t + 1] - begin;
        rc = one_thread(k, k->thread_ops + begin, n, &w, d);
    }
    free(w.keys);
    free(w.end);
    free(w.next);
    free(w.closed);
    return rc;
}
