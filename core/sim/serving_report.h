/*
 * serving_report.h - the serving figures of a workload written by
 * `vimana-et generate inference --arrivals` (docs/inference.md, "Serving"):
 * each request's time to its first token (TTFT), its time per output
 * token after the first (TPOT: last - first over output - 1, for requests
 * of 2 tokens or more) and its latency (to its last token), from the ends
 * of its marker nodes (attributes "request",
 * "request_token" 0 first / 1 last, "arrival_ns", "prompt_tokens",
 * "output_tokens") and its arrival, and the mean, p50 and p99 of each
 * over the requests.
 *
 * Read after the run, not during it: the markers are found by reading
 * the marker NPU's trace file again (only for a trace whose node names
 * hold marker names), and their ends are the NPU's node records, so the
 * simulation's event path does no work for it and a workload without
 * markers prints and writes nothing more.
 */
#ifndef VIMANA_SIM_SERVING_REPORT_H
#define VIMANA_SIM_SERVING_REPORT_H

#include <stdio.h>

#include "system/system.h"
#include "workload/workload.h"

/* The summary's lines, after the per-NPU lines: one per request, then
 * the statistics. Nothing when the workload has no markers. */
void serving_report_print(const sim *s, const wl_run *r, FILE *out);
/* The --report JSON's ",\n\"serving\": {...}" member (nothing without
 * markers). */
void serving_report_json(const sim *s, const wl_run *r, FILE *f);
/* The request table of a CSV --report (FILE.requests.csv): a header and a
 * row per request, times in us, empty where a request did not finish or
 * has no TPOT. Creates `path` only for a workload with markers: 1 when it
 * wrote it, 0 when there is nothing to write, -1 when out of memory or the
 * file cannot be written (`why` says which, one phrase). */
int serving_report_csv(const sim *s, const wl_run *r, const char *path, char *why, size_t len);

#endif
