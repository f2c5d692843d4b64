/* `vimana --breakdown` (see the header). */
#include "sim/step_breakdown.h"

#include <inttypes.h>

#include "system/relabel.h"
#include "workload/breakdown.h"

/* The NPU that finished last (the first of equals). In a reduced run every
 * NPU finishes with its representative, and the first of a class is its
 * representative (its lowest NPU), so this is a representative. */
static uint32_t last_npu(const sim *s, wl_run *r)
{
    uint32_t best = 0;
    if (s->reduced && !s->roles)
        return 0;
    for (uint32_t npu = 1; npu < s->n_npus; npu++)
        if (workload_npu_runs(s, npu) && workload_npu(r, npu)->finish_tick > workload_npu(r, best)->finish_tick)
            best = npu;
    return best;
}

static void row(FILE *out, const char *what, vimana_tick ticks, vimana_tick finish)
{
    fprintf(out, "  %-44s %16" PRIu64 " cycles %6.2f %%\n", what, (uint64_t)ticks,
            finish ? 100.0 * (double)ticks / (double)finish : 0.0);
}

/* "exposed, group 3 (8 NPUs, stride 1)" */
static void group_row(sim *s, uint32_t npu, int64_t pg, vimana_tick ticks, vimana_tick finish, FILE *out)
{
    char what[96];
    const npu_group *g = pg == WL_NO_GROUP ? NULL : system_find_group(s, npu, pg);
    if (pg == WL_NO_GROUP)
        snprintf(what, sizeof what, "exposed, all NPUs");
    else if (g && g->n_members > 1)
        snprintf(what, sizeof what, "exposed, group %" PRId64 " (%u NPUs, stride %lld)", pg, g->n_members,
                 (long long)g->members[1] - (long long)g->members[0]);
    else
        snprintf(what, sizeof what, "exposed, group %" PRId64, pg);
    row(out, what, ticks, finish);
}

/* "  FLOPs 1.2e+15 (what): 123.4 TFLOP/s, 39.5 % of peak-perf 312 TFLOP/s" */
static void flops_row(const sim *s, FILE *out, const char *label, const char *what, uint64_t flops, vimana_tick finish)
{
    double seconds = (double)finish / 1e9;
    double rate = seconds > 0 ? (double)flops / seconds : 0;
    fprintf(out, "  %s %.4g (%s): %.1f TFLOP/s", label, (double)flops, what, rate / 1e12);
    if (s->cfg.peak_perf_flops > 0)
        fprintf(out, ", %.1f %% of peak-perf %.0f TFLOP/s", 100 * rate / s->cfg.peak_perf_flops,
                s->cfg.peak_perf_flops / 1e12);
    fputc('\n', out);
}

/* Another NPU's workload: its own, or over roles its representative's,
 * which names the asker as the relabelling that takes npu there does. */
static const workload *peer_of(void *ctx, uint32_t npu, uint32_t asker, uint32_t *asker_seen)
{
    wl_run *r = ctx;
    const sim *s = r->s;
    if (npu >= s->n_npus || (s->reduced && !s->roles))
        return NULL;
    if (!s->reduced)
        return workload_npu(r, npu);
    *asker_seen = relabel_to_rep(s->roles, npu, asker);
    return workload_npu(r, s->roles->rep[npu]);
}

void step_breakdown_print(sim *s, wl_run *r, FILE *out)
{
    uint32_t npu = last_npu(s, r);
    wl_breakdown b;
    if (workload_breakdown(workload_npu(r, npu), peer_of, r, &b) != 0) {
        sim_fail(s, "out of memory (breakdown)");
        return;
    }
    fprintf(out, "breakdown of NPU %u (finished last, at %" PRIu64 " cycles):\n", npu, (uint64_t)b.finish);
    row(out, "compute", b.compute, b.finish);
    for (uint32_t g = 0; g < b.n_groups; g++)
        group_row(s, npu, b.group[g], b.exposed_group[g], b.finish, out);
    if (b.exposed_other_groups)
        row(out, "exposed, other groups", b.exposed_other_groups, b.finish);
    row(out, "exposed, pipeline messages in flight", b.exposed_p2p, b.finish);
    row(out, "exposed, pipeline bubble", b.exposed_bubble, b.finish);
    row(out, "exposed, other", b.exposed_other, b.finish);
    flops_row(s, out, "FLOPs", "num_ops of the compute nodes", b.flops, b.finish);
    if (b.model_flops != b.flops)
        flops_row(s, out, "model FLOPs", "without recomputation", b.model_flops, b.finish);
}
