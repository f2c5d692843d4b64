/*
 * inf_serving.h - continuous batching of an arrivals file (inf_arrivals.h)
 * for `vimana-et generate inference --arrivals FILE` (docs/inference.md,
 * "Serving"). A trace is static, so the generator decides the schedule:
 * it runs a clock of its own, advanced by each iteration's compute as the
 * writer will emit it (the nodes' whole microseconds, inf_model.h), and
 * admits a request at the first iteration that begins at or after its
 * arrival. Policy: vLLM's default scheduler without chunked prefill --
 * arrived requests are prefilled first (FCFS, as many as the limits
 * allow) in an iteration of prefills only; otherwise every running
 * request decodes one token. With `mixed` (vLLM V1's, and Sarathi's
 * without chunks), every running request decodes and arrived requests
 * join the same iteration with their whole prompt, within the limits
 * left. With `chunked` (vLLM's chunked prefill, Sarathi-Serve's
 * stall-free batching), the same, but a prompt larger than the tokens
 * left is split: its first chunk takes what is left, and the rest goes on
 * first in the next iterations, after the decodes, one request at a time;
 * the chunk that ends the prompt samples the first token. A request
 * leaves after its output tokens.
 * The clock counts no communication unless told a cost per collective
 * and message (--clock-comm-ns): the simulated run then lags it.
 * When nothing runs and nothing has arrived, the clock jumps to the next
 * arrival (rounded up to whole microseconds): the writer emits that gap
 * as an idle compute node.
 */
#ifndef VIMANA_TOOLS_INF_SERVING_H
#define VIMANA_TOOLS_INF_SERVING_H

#include <stddef.h>
#include <stdint.h>

#include "inference/inf_arrivals.h"
#include "inference/inf_model.h"

/* Defaults: vLLM's max_num_seqs, and max_num_batched_tokens =
 * max(2048, the longest prompt) (vLLM: max(2048, max_model_len)). */
#define INF_SERVING_BATCH_SIZE 256
#define INF_SERVING_MIN_TOKENS 2048
/* The most tokens a schedule may generate in all (its table's size). */
#define INF_SERVING_TOKENS_MAX (1ull << 25)
/* The most iterations (tiny chunks of long prompts could make many more
 * than a trace may hold: the writer's node limit refuses them anyway). */
#define INF_SERVING_ITERS_MAX (1ull << 24)

struct inf_serving_limits {
    uint64_t max_batch_size;    /* sequences in one iteration */
    uint64_t max_batch_tokens;  /* tokens in one iteration (prompts, or 1 a decoding sequence) */
    int mixed;                  /* --scheduler mixed: decodes and new prefills in one iteration */
    int chunked;                /* --scheduler chunked: mixed, prompts split to the tokens left */
    uint64_t comm_ns;           /* --clock-comm-ns: the clock's estimate of each TP all-reduce and
                                 * pipeline message of an iteration (0: compute only) */
};

/* One sequence's part of one iteration. */
struct inf_seq {
    uint32_t req;            /* index in the arrivals */
    uint64_t tokens;         /* the prompt (prefill) or 1 (decode) */
    uint64_t context;        /* tokens already in its KV cache */
    uint8_t first, last;     /* this iteration samples its first / last output token */
    uint8_t partial;         /* a prompt's chunk that does not end it: samples nothing */
};

struct inf_iter {
    uint64_t idle_us;        /* the gap before it: nothing ran, nothing had arrived */
    uint64_t start_ns;       /* on the generator's clock */
    uint64_t micros;         /* its compute on the generator's clock (all stages' layers + LM head) */
    int prefill;             /* 1: it holds prefills (only them unless mixed), else decodes only */
    size_t seq0, n_seqs;     /* its sequences: seqs[seq0 .. seq0 + n_seqs) */
    uint64_t tokens;         /* the sum of their tokens */
};

struct inf_schedule {
    struct inf_iter *iters;
    size_t n_iters;
    struct inf_seq *seqs;
    size_t n_seqs;
    uint64_t end_ns;          /* the last iteration's end on the generator's clock */
    uint64_t idle_us;         /* all gaps */
    uint64_t peak_kv_tokens;  /* the most tokens cached at once, all sequences */
    uint64_t max_batch;       /* the most sequences in one iteration */
};

/* Fills the defaults of the limits left 0 and checks them against the
 * file: 0, or -1 with one line in msg ("--max-batch-tokens: ..." or
 * "FILE:LINE: ..."). */
int inf_serving_limits_check(struct inf_serving_limits *l, const struct inf_arrivals *a, const char *file,
                             char *msg, size_t len);

/* The schedule of `a` on model c (c->batch, prompt_len, output_len are
 * not read). 0, or -1 with one line in msg (too many tokens, memory). */
int inf_serving_schedule(const struct inf_config *c, const struct inf_arrivals *a,
                         const struct inf_serving_limits *l, struct inf_schedule *out, char *msg, size_t len);
void inf_serving_free(struct inf_schedule *s);

/* Prefill/decode disaggregation (--disaggregate): a prefill group of T x P
 * ranks runs prefill-only iterations (the default policy without
 * decodes: a request leaves it with its first token) and sends each
 * iteration's KV cache to a decode group of the same layout, whose
 * iterations decode only: a request joins at the first iteration that
 * begins once its KV cache has come (on the decode group's own clock: the
 * prefill iteration's end plus --clock-comm-ns for the message), as many
 * as --max-batch-size allows, and leaves after its last token. 1-token
 * requests never reach the decode group. */
struct inf_disagg {
    struct inf_schedule prefill, decode;
    uint32_t *kv_iter;        /* per request: the prefill iteration that computed its KV cache */
    uint64_t *ready_ns;       /* per request: when the decode group's clock may admit it */
};

/* The two schedules of `a` (l->mixed and l->chunked are not read). 0, or
 * -1 with one line in msg. */
int inf_serving_schedule_disagg(const struct inf_config *c, const struct inf_arrivals *a,
                                const struct inf_serving_limits *l, struct inf_disagg *out, char *msg, size_t len);
void inf_serving_disagg_free(struct inf_disagg *d);

/* One layer's node durations (seconds) and FLOPs on one rank for the
 * iteration's sequences: the non-attention kernels on all its tokens as
 * one batch, the attention core per sequence over its own cache. */
double inf_serving_attn_seconds(const struct inf_config *c, const struct inf_seq *s, size_t n);
double inf_serving_mlp_seconds(const struct inf_config *c, const struct inf_seq *s, size_t n);
/* The sequences that sample a token (all but the partial chunks). */
size_t inf_serving_sampled(const struct inf_seq *s, size_t n);
/* The LM head: one sampled position a sequence. */
double inf_serving_head_seconds(const struct inf_config *c, size_t n);
/* Its whole microseconds for an iteration's sequences: 0 when none samples. */
uint64_t inf_serving_head_micros(const struct inf_config *c, const struct inf_seq *s, size_t n);
uint64_t inf_serving_attn_flops(const struct inf_config *c, const struct inf_seq *s, size_t n);
/* Whole microseconds of an iteration as written: L x (attention + MLP)
 * nodes, each rounded up, plus the LM head. */
uint64_t inf_serving_iter_micros(const struct inf_config *c, const struct inf_seq *s, size_t n);
/* The communication an iteration waits for, one after the other: 2 TP
 * all-reduces a layer (T > 1), P - 1 activation messages and the token
 * ids back to the first stage (P > 1). */
uint64_t inf_serving_iter_comms(const struct inf_config *c);

#endif
