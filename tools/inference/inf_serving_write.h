/*
 * inf_serving_write.h - the traces of a serving schedule (inf_serving.h):
 * one ET per rank, iteration after iteration through the stage's layers,
 * an idle node before an iteration the clock had to wait for, and after
 * each LM head the request markers (docs/inference.md, "Serving"):
 * METADATA nodes "iter<K>_req<I>_first_token" and
 * "..._last_token" that depend on the head, with the int64 attributes
 * below, so that the simulator's serving report (core/sim/serving_report.h)
 * takes each request's latency as its marker's end minus its arrival.
 */
#ifndef VIMANA_TOOLS_INF_SERVING_WRITE_H
#define VIMANA_TOOLS_INF_SERVING_WRITE_H

#include "inference/inf_serving.h"
#include "vimana/et.h"

/* Marker attributes (int64). INF_REQUEST_TOKEN_ATTR: 0 the first output
 * token, 1 the last (a one-token request has both markers). */
#define INF_REQUEST_ATTR "request"
#define INF_REQUEST_TOKEN_ATTR "request_token"
#define INF_ARRIVAL_ATTR "arrival_ns"
#define INF_PROMPT_ATTR "prompt_tokens"
#define INF_OUTPUT_ATTR "output_tokens"

/* Writes rank `rank`'s ET of schedule s over arrivals a to `path`. 0, or
 * -1 with one line in `err`. */
int inf_serving_write_rank(const struct inf_config *c, const struct inf_arrivals *a, const struct inf_schedule *s,
                           uint64_t rank, const char *path, vet_error *err);

/* The same for a disaggregated pair (inf_serving.h): ranks 0 .. T*P-1
 * prefill and send each iteration's KV cache ("send_kv_iter<K>", tag K)
 * to the rank T*P above; ranks T*P .. 2*T*P-1 decode, receiving it
 * ("recv_kv_iter<K>") before the iteration that takes its first request. */
int inf_serving_write_disagg_rank(const struct inf_config *c, const struct inf_arrivals *a,
                                  const struct inf_disagg *d, uint64_t rank, const char *path, vet_error *err);

#endif
