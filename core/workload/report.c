/* The per-NPU finish report (the reference's behaviour, docs/simulator.md). */
#include <stdlib.h>

#include "workload/workload.h"

const char *const wl_kind_labels[KIND_COUNT] = {"CPU", "GPU", "Comm", "Remote mem", "Replay", "Invalid"};

typedef struct interval {
    vimana_tick start, end;
} interval;

static int cmp_interval(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

/* Sorts and merges in place (touching intervals merge); returns the count. */
static size_t merge(interval *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_interval);
    size_t out = 0;
    for (size_t i = 1; i < n; i++) {
        if (v[i].start <= v[out].end) {
            if (v[i].end > v[out].end)
                v[out].end = v[i].end;
        } else {
            v[++out] = v[i];
        }
    }
    return out + 1;
}

static vimana_tick total_length(const interval *v, size_t n)
{
    vimana_tick t = 0;
    for (size_t i = 0; i < n; i++)
        t += v[i].end - v[i].start;
    return t;
}

static vimana_tick intersection(const interval *a, size_t na, const interval *b, size_t nb)
{
    vimana_tick t = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        vimana_tick lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        vimana_tick hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo)
            t += hi - lo;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return t;
}

/* Time-weighted roofline averages over CPU and GPU nodes; the 1 in the
 * total avoids a division by zero, as in the reference. */
static void roofline_stats(const sys_config *cfg, const workload *w, npu_stats *st)
{
    double total = 1, bound = 0, compute = 0, memory = 0, intensity = 0;
    for (uint32_t i = 0; i < w->n_nodes; i++) {
        const wl_node *n = &w->nodes[i];
        const wl_node_run *live = &w->live[i];
        if (live->state != WL_DONE || (n->kind != KIND_CPU && n->kind != KIND_GPU))
            continue;
        double d = (double)(live->end - live->start);
        total += d;
        wl_roofline rl;
        if (workload_roofline(cfg, n, &rl)) {
            if (!rl.memory_bound)
                bound += d;
            compute += rl.compute_util * d;
            memory += rl.mem_util * d;
            intensity += rl.intensity * d;
        }
    }
    st->compute_bound = bound / total;
    st->compute_util = compute / total;
    st->memory_util = memory / total;
    st->intensity = intensity / total;
}

int workload_compute_stats(sim *s, const workload *w, npu_stats *st)
{
    *st = (npu_stats){.finish = w->finish_tick, .exposed = w->finish_tick - w->tics_gpu_ops,
                      .roofline = s->cfg.roofline_enabled};
    size_t counts[KIND_COUNT] = {0};
    for (uint32_t i = 0; i < w->n_nodes; i++) {
        const wl_node_run *live = &w->live[i];
        if (live->state != WL_DONE)
            continue;
        if (live->end > st->wall)
            st->wall = live->end;
        if (w->nodes[i].kind < KIND_COUNT)
            counts[w->nodes[i].kind]++;
    }
    interval *by_kind[KIND_COUNT] = {0};
    size_t merged[KIND_COUNT] = {0};
    int rc = 0;
    for (int k = 0; k < KIND_COUNT && rc == 0; k++) {
        if (!counts[k])
            continue;
        if (!(by_kind[k] = malloc(counts[k] * sizeof *by_kind[k]))) {
            sim_fail(s, "out of memory (report)");
            rc = -1;
            break;
        }
        size_t m = 0;
        for (uint32_t i = 0; i < w->n_nodes; i++)
            if (w->live[i].state == WL_DONE && w->nodes[i].kind == k)
                by_kind[k][m++] = (interval){w->live[i].start, w->live[i].end};
        merged[k] = merge(by_kind[k], m);
        st->has_kind[k] = true;
        st->kind_time[k] = total_length(by_kind[k], merged[k]);
    }
    if (rc == 0)
        st->overlap = intersection(by_kind[KIND_GPU], merged[KIND_GPU], by_kind[KIND_COMM], merged[KIND_COMM]);
    if (rc == 0 && st->roofline)
        roofline_stats(&s->cfg, w, st);
    for (int k = 0; k < KIND_COUNT; k++)
        free(by_kind[k]);
    st->has_tensors = w->trace->tensors.n > 0;
    if (rc == 0 && w->finished && wl_tensor_peak(w, &st->peak_tensor_bytes) != 0) {
        sim_fail(s, "out of memory (report)");
        rc = -1;
    }
    return rc;
}

/* The report of NPU w->npu from its figures `st` (NULL: they could not be
 * computed, the run has failed). */
static void print_report(sim *s, workload *w, const npu_stats *st)
{
    FILE *out = w->run->out;
    fprintf(out, "sys[%u] finished, %llu cycles, exposed communication %llu cycles.\n", w->npu,
            (unsigned long long)w->finish_tick, (unsigned long long)(w->finish_tick - w->tics_gpu_ops));
    if (w->tics_gpu_ops > w->finish_tick)
        sim_warn(s, "NPU %u: replayed node time exceeds the finish time; exposed communication wrapped around "
                    "(as in the reference)", w->npu);
    fprintf(out, "sys[%u]. Post statistics processing start.\n", w->npu);
    if (!st)
        return;
    fprintf(out, "sys[%u]. Post statistics processing end.\n", w->npu);
    fprintf(out, "sys[%u], Wall time: %llu\n", w->npu, (unsigned long long)st->wall);
    for (int k = 0; k < KIND_COUNT; k++)
        if (st->has_kind[k])
            fprintf(out, "sys[%u], %s time: %llu\n", w->npu, wl_kind_labels[k], (unsigned long long)st->kind_time[k]);
    if (st->overlap > 0)
        fprintf(out, "sys[%u], Total compute-communication overlap: %llu\n", w->npu, (unsigned long long)st->overlap);
    if (st->roofline) {
        fprintf(out, "sys[%u], Compute bound percentage: %.3f%%\n", w->npu, st->compute_bound * 100);
        fprintf(out, "sys[%u], Average compute utilization: %.3f%%\n", w->npu, st->compute_util * 100);
        fprintf(out, "sys[%u], Average memory utilization: %.3f%%\n", w->npu, st->memory_util * 100);
        fprintf(out, "sys[%u], Average operation intensity: %.3f\n", w->npu, st->intensity);
    }
    const wl_hooks *h = &w->run->hooks;
    if (h->npu_finished)
        h->npu_finished(h->ctx, w, st);
}

void workload_print_report(sim *s, workload *w)
{
    npu_stats st;
    print_report(s, w, workload_compute_stats(s, w, &st) == 0 ? &st : NULL);
}

void workload_print_report_as(sim *s, const workload *w, uint32_t npu, const npu_stats *st)
{
    workload mirror = *w;
    mirror.npu = npu;
    print_report(s, &mirror, st);
}

static int by_tick(const void *a, const void *b)
{
    vimana_tick x = *(const vimana_tick *)a, y = *(const vimana_tick *)b;
    return x < y ? -1 : x > y;
}

void workload_print_summary(wl_run *r, FILE *out)
{
    sim *s = r->s;
    uint32_t n = s->n_npus;
    if (n < WL_SUMMARY_MIN_NPUS)
        return;
    vimana_tick *finish = malloc(2 * (size_t)n * sizeof *finish);
    if (!finish) {
        sim_fail(s, "out of memory (summary)");
        return;
    }
    vimana_tick *exposed = finish + n;
    for (uint32_t npu = 0; npu < n; npu++) {
        const workload *w = &r->wl[workload_representative(s, npu)];
        finish[npu] = w->finish_tick;
        exposed[npu] = w->finish_tick - w->tics_gpu_ops; /* wraps as the finish line's does */
    }
    qsort(finish, n, sizeof *finish, by_tick);
    qsort(exposed, n, sizeof *exposed, by_tick);
    uint32_t mid = (n - 1) / 2;
    fprintf(out, "summary: %u NPUs finished: min %llu, median %llu, max %llu cycles; exposed communication min %llu, "
                 "median %llu, max %llu cycles.\n", n, (unsigned long long)finish[0], (unsigned long long)finish[mid],
            (unsigned long long)finish[n - 1], (unsigned long long)exposed[0], (unsigned long long)exposed[mid],
            (unsigned long long)exposed[n - 1]);
    free(finish);
}
