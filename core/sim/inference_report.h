/*
 * inference_report.h - what `vimana` reports of an LLM inference workload
 * (docs/inference.md, "What the simulator reports"): time to first token
 * (TTFT), time per output token (TPOT: the mean over the decode tokens,
 * and the last one's) and tokens per second, from the end ticks of the
 * marker nodes (workload.h, wl_marker: the LM head that samples output
 * token k carries output_token = k and batch = B).
 *
 * Which NPU: token k's time is the latest end of a marker for k over the
 * NPUs that run one (the ranks of the LM head: the last pipeline stage's
 * TP ranks); the report names the lowest NPU whose last token's marker
 * ends last. Times count from t = 0, when every request is in the batch.
 *
 * The ticks go into arrays sized once from the traces' markers (no
 * allocation per marker); nothing is global.
 */
#ifndef VIMANA_SIM_INFERENCE_REPORT_H
#define VIMANA_SIM_INFERENCE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "system/system.h"
#include "workload/workload.h"

/* The markers' end ticks, token by token. */
typedef struct inf_report {
    uint32_t n_tokens;      /* highest output_token + 1; 0: not an inference workload */
    vimana_tick *end;       /* [n_tokens]: latest end of token k's markers */
    uint32_t *npu;          /* [n_tokens]: the lowest NPU whose marker ends at end[k] */
    bool *seen;             /* [n_tokens]: a marker for token k ended */
    uint64_t batch;         /* the markers' batch attribute; 0: absent */
    bool batch_differs;     /* two markers disagree on it */
} inf_report;

/* The figures the report prints. Ticks are nanoseconds. */
typedef struct inf_summary {
    uint32_t npu;           /* whose markers give the times */
    uint32_t n_tokens;      /* tokens each sequence gets: the first + the decode ones */
    uint64_t batch;         /* 0: unknown (no batch attribute): no tokens/s */
    vimana_tick ttft;       /* end of token 0's marker */
    vimana_tick end;        /* end of the last token's marker */
    double tpot_mean;       /* (end - ttft) / decode tokens; 0 without decode tokens */
    vimana_tick tpot_last;  /* end[last] - end[last - 1]; 0 without decode tokens */
    double tokens_per_s;    /* batch x n_tokens / end, in seconds */
} inf_summary;

/* Sizes r for tokens 0 .. max_token (everything unseen). 0, or -1 when out
 * of memory. */
int inf_report_init(inf_report *r, uint32_t max_token);
void inf_report_free(inf_report *r);
/* A marker of token `token` (< n_tokens) ended on NPU npu at `end`. */
void inf_report_record(inf_report *r, uint32_t npu, uint32_t token, vimana_tick end, uint64_t batch);
/* The summary; -1 with `why` (one phrase) when a token has no marker or
 * the batches differ. */
int inf_report_summarize(const inf_report *r, inf_summary *out, char *why, size_t len);

/* Collects, summarises and prints the lines of a run that has markers:
 * 1 when printed (inf and sum then hold what they say), 0 for a workload
 * without markers or one whose summary fails (a warning says why), -1
 * out of memory (after sim_fail). Times count from the run's origin. */
int inf_report_run(sim *s, const wl_run *run, inf_report *inf, inf_summary *sum, FILE *out);

/* Output: the lines after the per-NPU finish lines, the "inference" object
 * of --report JSON (its members, after `"inference": `), and the timeline
 * slices in µs of the phases (prefill, each decode token), as callbacks so
 * that the timeline writer keeps its own format. */
void inf_report_print(const inf_summary *sum, FILE *out);
void inf_report_json(const inf_report *r, const inf_summary *sum, FILE *f);
/* The token table of a CSV --report (FILE.tokens.csv): a header, then a
 * row per token: its phase (prefill for token 0, decode after), the ticks
 * it starts and ends at (the previous token's end, 0 for the first) and
 * the NPU whose marker gives the end. */
void inf_report_csv(const inf_report *r, FILE *f);
typedef void (*inf_slice_fn)(void *ctx, int phase, const char *name, vimana_tick start, vimana_tick end);
enum { INF_PHASE_PREFILL, INF_PHASE_DECODE };
void inf_report_slices(const inf_report *r, inf_slice_fn fn, void *ctx);

/* After a run: reads every marker of the NPUs that ran into r (r->n_tokens
 * 0 when there are none). 0, or -1 after sim_fail when out of memory. */
int inf_report_collect(sim *s, const wl_run *run, inf_report *r);

#endif
