#include "trace_link/inter_thread.h"

#include <stdlib.h>

/* The reference's find_last_cpu_node_before_timestamp: the first op (in
 * thread order, then op order) having the largest ts below `t`, that ts
 * being above 0, in any thread but `exclude`. Returns an op index or
 * K_NONE. */
static uint32_t latest_before(const kineto_trace *k, const uint32_t *threads_by_rank, size_t n_ranked,
                              uint32_t exclude, pynum t)
{
    uint32_t best = K_NONE;
    pynum best_ts = pynum_int(0);
    for (size_t r = 0; r < n_ranked; r++) {
        uint32_t u = threads_by_rank[r];
        if (u == exclude)
            continue;
        size_t n;
        const uint32_t *ops = kineto_thread_ops(k, u, &n);
        size_t below = kineto_ops_lower_bound(k, ops, n, t);
        if (below == 0)
            continue;
        pynum ts = k->cpu[ops[below - 1]].ts;
        if (pynum_cmp(ts, best_ts) <= 0)
            continue;
        best = ops[kineto_ops_lower_bound(k, ops, n, ts)];
        best_ts = ts;
    }
    return best;
}

int inter_thread_deps(kineto_trace *k, tl_diag *d)
{
    size_t n_ranked = 0;
    uint32_t *by_rank = malloc((k->n_threads ? k->n_threads : 1) * sizeof *by_rank);
    if (!by_rank)
        return tl_fail(d, "%s: out of memory", k->path);
    for (uint32_t t = 0; t < k->n_threads; t++)
        if (k->thread_rank[t] != K_NONE) {
            by_rank[k->thread_rank[t]] = t;
            n_ranked++;
        }
    const pynum gap = pynum_int(INTER_THREAD_GAP_US);
    bool overflow = false;
    for (uint32_t t = 0; t < k->n_threads; t++) {
        size_t n;
        const uint32_t *ops = kineto_thread_ops(k, t, &n);
        bool have_dep = false;
        int64_t dep_rf = 0;
        for (size_t i = 0; i < n; i++) {
            k_cpu_op *op = &k->cpu[ops[i]];
            bool group_start = i == 0;
            if (!group_start) {
                const k_cpu_op *prev = &k->cpu[ops[i - 1]];
                pynum idle = pynum_sub(pynum_sub(op->ts, prev->ts, &overflow), prev->dur, &overflow);
                group_start = pynum_cmp(idle, gap) > 0;
            }
            if (group_start) {
                uint32_t q = latest_before(k, by_rank, n_ranked, t, op->ts);
                /* The reference tests the rf id for truth: absent or 0 means
                 * no dependency. */
                have_dep = q != K_NONE && (k->cpu[q].flags & K_HAS_RF) && k->cpu[q].rf_id != 0;
                dep_rf = have_dep ? k->cpu[q].rf_id : 0;
            }
            if (have_dep) {
                op->inter_rf = dep_rf;
                op->flags |= K_HAS_INTER;
            }
        }
    }
    free(by_rank);
    if (overflow)
        return tl_fail(d, "%s: time arithmetic overflows a 64-bit integer", k->path);
    return 0;
}
