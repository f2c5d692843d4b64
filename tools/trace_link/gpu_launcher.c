#include "trace_link/gpu_launcher.h"

#include <stdlib.h>

#include "common/idmap.h"

typedef struct launcher_index {
    idmap by_correlation;   /* correlation -> launch call */
    idmap ext_head;         /* External id -> first CPU op with it */
    uint32_t *ext_next;       /* next CPU op with the same External id */
} launcher_index;

static void index_free(launcher_index *x)
{
    idmap_free(&x->by_correlation);
    idmap_free(&x->ext_head);
    free(x->ext_next);
}

static int build_index(const kineto_trace *k, launcher_index *x, tl_diag *d)
{
    if (idmap_init(&x->by_correlation, k->n_launch) != 0 || idmap_init(&x->ext_head, k->n_cpu) != 0 ||
        !(x->ext_next = malloc((k->n_cpu ? k->n_cpu : 1) * sizeof *x->ext_next)))
        return tl_fail(d, "%s: out of memory", k->path);
    for (size_t i = 0; i < k->n_launch; i++) {
        bool inserted;
        uint32_t *slot = idmap_upsert(&x->by_correlation, k->launch[i].correlation, &inserted);
        if (!slot)
            return tl_fail(d, "%s: out of memory", k->path);
        if (!inserted)
            return tl_fail(d,
                           "%s: traceEvents[%u] and traceEvents[%u]: two kernel-launch calls share correlation "
                           "%lld, so their GPU ops cannot be told apart",
                           k->path, k->launch[*slot].seq, k->launch[i].seq, (long long)k->launch[i].correlation);
        *slot = (uint32_t)i;
    }
    /* Chains in ascending op order: prepend while walking backwards. */
    for (size_t i = k->n_cpu; i-- > 0;) {
        x->ext_next[i] = K_NONE;
        if (!(k->cpu[i].flags & K_HAS_EXT))
            continue;
        bool inserted;
        uint32_t *head = idmap_upsert(&x->ext_head, k->cpu[i].ext_id, &inserted);
        if (!head)
            return tl_fail(d, "%s: out of memory", k->path);
        x->ext_next[i] = inserted ? K_NONE : *head;
        *head = (uint32_t)i;
    }
    return 0;
}

static bool skipped(const k_cpu_op *op, const k_gpu_op *g)
{
    return (g->flags & K_NCCL) && (op->flags & K_COALESCED);
}

/* The latest CPU op on `tid` with the GPU op's External id, started before
 * `t`. */
static uint32_t by_external_id(const kineto_trace *k, const launcher_index *x, const k_gpu_op *g, uint32_t tid,
                               pynum t)
{
    uint32_t first, best = K_NONE;
    if (!(g->flags & K_HAS_EXT) || !idmap_get(&x->ext_head, g->ext_id, &first))
        return K_NONE;
    for (uint32_t i = first; i != K_NONE; i = x->ext_next[i]) {
        const k_cpu_op *op = &k->cpu[i];
        if (pynum_cmp(op->ts, t) >= 0)
            break;
        if (op->tid == tid && !skipped(op, g))
            best = i;
    }
    return best;
}

/* The latest CPU op on `tid` started before `t`. */
static uint32_t latest_on_thread(const kineto_trace *k, const k_gpu_op *g, uint32_t tid, pynum t)
{
    size_t n;
    const uint32_t *ops = kineto_thread_ops(k, tid, &n);
    size_t lo = kineto_ops_lower_bound(k, ops, n, t);
    while (lo > 0 && skipped(&k->cpu[ops[lo - 1]], g))
        lo--;
    return lo > 0 ? ops[lo - 1] : K_NONE;
}

int find_gpu_launchers(kineto_trace *k, launcher_stats *stats, tl_diag *d)
{
    launcher_index x = {0};
    stats->no_launch_call = stats->no_cpu_op = 0;
    if (build_index(k, &x, d) != 0) {
        index_free(&x);
        return -1;
    }
    for (size_t i = 0; i < k->n_gpu; i++) {
        k_gpu_op *g = &k->gpu[i];
        uint32_t call;
        if (!idmap_get(&x.by_correlation, g->correlation, &call)) {
            stats->no_launch_call++;
            continue;
        }
        const k_launch *l = &k->launch[call];
        uint32_t op = by_external_id(k, &x, g, l->tid, l->ts);
        if (op == K_NONE)
            op = latest_on_thread(k, g, l->tid, l->ts);
        if (op == K_NONE)
            stats->no_cpu_op++;
        g->launcher = op;
    }
    index_free(&x);
    return 0;
}
