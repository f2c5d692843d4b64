/* The inference report of `vimana` (see the header). */
#include "sim/inference_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int inf_report_init(inf_report *r, uint32_t max_token)
{
    memset(r, 0, sizeof *r);
    uint32_t n = max_token + 1;
    r->end = calloc(n, sizeof *r->end);
    r->npu = calloc(n, sizeof *r->npu);
    r->seen = calloc(n, sizeof *r->seen);
    if (!r->end || !r->npu || !r->seen) {
        inf_report_free(r);
        return -1;
    }
    r->n_tokens = n;
    return 0;
}

void inf_report_free(inf_report *r)
{
    free(r->end);
    free(r->npu);
    free(r->seen);
    memset(r, 0, sizeof *r);
}

void inf_report_record(inf_report *r, uint32_t npu, uint32_t token, vimana_tick end, uint64_t batch)
{
    if (token >= r->n_tokens)
        return;
    /* The token is out when the last rank holding its logits has them;
     * of equal ends the lowest NPU is named, so that a reduced run (whose
     * representatives are their classes' lowest NPUs) names the same. */
    if (!r->seen[token] || end > r->end[token] || (end == r->end[token] && npu < r->npu[token])) {
        r->end[token] = end;
        r->npu[token] = npu;
    }
    r->seen[token] = true;
    if (r->batch && batch != r->batch)
        r->batch_differs = true;
    if (!r->batch)
        r->batch = batch;
}

int inf_report_summarize(const inf_report *r, inf_summary *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    for (uint32_t k = 0; k < r->n_tokens; k++) {
        if (!r->seen[k]) {
            snprintf(why, len, "no marker of output token %" PRIu32 " ended (the markers give tokens 0 to %" PRIu32
                     ")", k, r->n_tokens - 1);
            return -1;
        }
    }
    if (r->batch_differs) {
        snprintf(why, len, "the markers' batch attributes differ");
        return -1;
    }
    uint32_t last = r->n_tokens - 1;
    out->npu = r->npu[last];
    out->n_tokens = r->n_tokens;
    out->batch = r->batch;
    out->ttft = r->end[0];
    out->end = r->end[last];
    if (last > 0) {
        /* decode token k takes end[k] - end[k-1]; their mean telescopes */
        out->tpot_mean = (double)(out->end - out->ttft) / last;
        out->tpot_last = r->end[last] - r->end[last - 1];
    }
    if (out->batch && out->end)
        out->tokens_per_s = (double)out->batch * out->n_tokens / ((double)out->end / 1e9);
    return 0;
}

void inf_report_print(const inf_summary *sum, FILE *out)
{
    fprintf(out, "inference: NPU %" PRIu32 " (the LM head's markers), time to first token %" PRIu64 " cycles\n",
            sum->npu, (uint64_t)sum->ttft);
    if (sum->n_tokens > 1)
        fprintf(out, "inference: time per output token %.3f cycles (mean of %" PRIu32 " decode tokens), the last "
                     "(token %" PRIu32 ") %" PRIu64 " cycles\n",
                sum->tpot_mean, sum->n_tokens - 1, sum->n_tokens - 1, (uint64_t)sum->tpot_last);
    if (sum->batch)
        fprintf(out, "inference: %.3f tokens/s (batch %" PRIu64 " x %" PRIu32 " tokens in %" PRIu64 " cycles)\n",
                sum->tokens_per_s, sum->batch, sum->n_tokens, (uint64_t)sum->end);
    else
        fprintf(out, "inference: %" PRIu32 " tokens a sequence in %" PRIu64 " cycles (no batch attribute on the "
                     "markers: no tokens/s)\n", sum->n_tokens, (uint64_t)sum->end);
}

void inf_report_json(const inf_report *r, const inf_summary *sum, FILE *f)
{
    fprintf(f, "{\"npu\": %" PRIu32 ", \"batch\": ", sum->npu);
    if (sum->batch)
        fprintf(f, "%" PRIu64, sum->batch);
    else
        fputs("null", f);
    fprintf(f, ", \"tokens\": %" PRIu32 ", \"ttft\": %" PRIu64 ", \"tpot_mean\": %.3f, \"tpot_last\": %" PRIu64
               ", \"end\": %" PRIu64 ", \"tokens_per_second\": ",
            sum->n_tokens, (uint64_t)sum->ttft, sum->tpot_mean, (uint64_t)sum->tpot_last, (uint64_t)sum->end);
    if (sum->batch)
        fprintf(f, "%.3f", sum->tokens_per_s);
    else
        fputs("null", f);
    fputs(", \"token_end\": [", f);
    for (uint32_t k = 0; k < r->n_tokens; k++)
        fprintf(f, "%s%" PRIu64, k ? ", " : "", (uint64_t)r->end[k]);
    fputs("]}", f);
}

void inf_report_csv(const inf_report *r, FILE *f)
{
    fputs("token,phase,start,end,duration,npu\n", f);
    for (uint32_t k = 0; k < r->n_tokens; k++) {
        vimana_tick start = k ? r->end[k - 1] : 0;
        fprintf(f, "%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu32 "\n", k, k ? "decode" : "prefill",
                (uint64_t)start, (uint64_t)r->end[k], (uint64_t)(r->end[k] - start), r->npu[k]);
    }
}

void inf_report_slices(const inf_report *r, inf_slice_fn fn, void *ctx)
{
    char name[48];
    if (r->n_tokens == 0)
        return;
    fn(ctx, INF_PHASE_PREFILL, "prefill (to the first token)", 0, r->end[0]);
    for (uint32_t k = 1; k < r->n_tokens; k++) {
        snprintf(name, sizeof name, "decode token %" PRIu32, k);
        fn(ctx, INF_PHASE_DECODE, name, r->end[k - 1], r->end[k]);
    }
}

/* The highest token any NPU that ran marks (UINT32_MAX: none), and the
 * most markers one of their traces holds. */
static uint32_t max_token(const sim *s, const wl_run *run, uint32_t *most_markers)
{
    uint32_t max = UINT32_MAX;
    *most_markers = 0;
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        const wl_trace *t = run->wl[npu].trace;
        if (!workload_npu_runs(s, npu) || !t)
            continue;
        if (t->n_markers > *most_markers)
            *most_markers = t->n_markers;
        for (uint32_t k = 0; k < t->n_markers; k++)
            if (max == UINT32_MAX || t->markers[k].token > max)
                max = t->markers[k].token;
    }
    return max;
}

int inf_report_collect(sim *s, const wl_run *run, inf_report *r)
{
    memset(r, 0, sizeof *r);
    uint32_t most;
    uint32_t max = max_token(s, run, &most);
    if (max == UINT32_MAX)
        return 0;
    /* The LM head's rank marks tokens 0 .. max, one marker each: a trace
     * with fewer leaves one out (the count of one trace, not of all, so
     * that a reduced run says what the full one says), and the arrays are
     * not sized from a stray attribute's value. */
    if (max >= most) {
        sim_warn(s, "inference report skipped: attribute " WL_MARKER_ATTR " goes up to %" PRIu32 " but no trace "
                    "holds more than %" PRIu32 " marker%s", max, most, most == 1 ? "" : "s");
        return 0;
    }
    if (inf_report_init(r, max) != 0) {
        sim_fail(s, "out of memory (inference report)");
        return -1;
    }
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        const workload *w = &run->wl[npu];
        if (!workload_npu_runs(s, npu) || !w->trace)
            continue;
        for (uint32_t k = 0; k < w->trace->n_markers; k++) {
            const wl_marker *m = &w->trace->markers[k];
            if (w->live[m->node].state == WL_DONE)
                inf_report_record(r, npu, m->token, w->live[m->node].end - run->origin, m->batch);
        }
    }
    return 0;
}

int inf_report_run(sim *s, const wl_run *run, inf_report *inf, inf_summary *sum, FILE *out)
{
    char why[160];
    if (inf_report_collect(s, run, inf) != 0)
        return -1;
    if (inf->n_tokens == 0)
        return 0;
    if (inf_report_summarize(inf, sum, why, sizeof why) != 0) {
        sim_warn(s, "inference report skipped: %s", why);
        return 0;
    }
    inf_report_print(sum, out);
    return 1;
}
