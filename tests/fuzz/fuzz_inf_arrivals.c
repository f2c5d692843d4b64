/* Fuzz target: `vimana-et generate inference --arrivals FILE`
 * (tools/inference/inf_arrivals.c, then inf_serving.c): the arrivals file
 * read from a file as the CLI does, its field and range checks, and for a
 * small accepted file the continuous-batching schedule on a tiny model
 * (prefill-first, mixed, chunked or disaggregated, by the input's length).
 * A refusal must come with its one-line message naming the file; an
 * accepted file must hold sorted, in-range requests, and its schedule must
 * give every request exactly one first and one last token, none before
 * its arrival, within the batch limits, and prefill each prompt's tokens
 * exactly once (in chunks, chunked); disaggregated, the decode group
 * must take a request only once its KV cache has come, and never a
 * 1-token one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "inference/inf_arrivals.h"
#include "inference/inf_serving.h"

/* Schedules of at most this many generated tokens are run (each is a
 * table entry and a few microseconds of the tiny model's cost). */
#define SCHEDULE_TOKENS_MAX 4096

static void die(const char *what)
{
    fprintf(stderr, "fuzz_inf_arrivals: %s\n", what);
    abort();
}

static void check_requests(const struct inf_arrivals *a)
{
    for (size_t i = 0; i < a->n; i++) {
        const struct inf_request *r = &a->req[i];
        if (r->arrival_ns > INF_ARRIVAL_MAX_NS || r->prompt < 1 || r->prompt > INF_PROMPT_MAX || r->output < 1 ||
            r->output > INF_OUTPUT_MAX || (i > 0 && r->arrival_ns < a->req[i - 1].arrival_ns))
            die("accepted a request out of range or out of order");
    }
}

/* Each request's first and last tokens and prefilled prompt tokens, over
 * one schedule or a disaggregated pair. */
struct tally {
    unsigned char *first, *last;
    uint64_t *prefilled;
};

static void tally_open(struct tally *t, size_t n)
{
    t->first = calloc(n, 1);
    t->last = calloc(n, 1);
    t->prefilled = calloc(n, sizeof *t->prefilled);
    if (!t->first || !t->last || !t->prefilled)
        die("out of memory");
}

static void tally_close(struct tally *t, const struct inf_arrivals *a)
{
    for (size_t i = 0; i < a->n; i++)
        if (t->first[i] != 1 || t->last[i] != 1 || t->prefilled[i] != a->req[i].prompt)
            die("a request without exactly one first and one last token");
    free(t->first);
    free(t->last);
    free(t->prefilled);
}

/* Counts each request's first and last tokens over the schedule. */
static void check_schedule(const struct inf_arrivals *a, const struct inf_serving_limits *l,
                           const struct inf_schedule *s, struct tally *t)
{
    unsigned char *first = t->first, *last = t->last;
    uint64_t *prefilled = t->prefilled;
    for (size_t k = 0; k < s->n_iters; k++) {
        const struct inf_iter *it = &s->iters[k];
        if (it->n_seqs == 0 || it->n_seqs > l->max_batch_size || (it->prefill && it->tokens > l->max_batch_tokens))
            die("an iteration beyond the limits");
        for (size_t i = 0; i < it->n_seqs; i++) {
            const struct inf_seq *q = &s->seqs[it->seq0 + i];
            if (q->first && it->start_ns < a->req[q->req].arrival_ns)
                die("a request scheduled before its arrival");
            first[q->req] += q->first;
            last[q->req] += q->last;
            if (q->context < a->req[q->req].prompt) {  /* a prefill or a chunk of one */
                if (q->context != prefilled[q->req] || (q->partial != 0) == (q->first != 0))
                    die("a chunk out of order, or a partial chunk that samples");
                prefilled[q->req] += q->tokens;
            }
        }
    }
}

/* The decode group of a disaggregated pair: decodes only, each request
 * first taken once its KV cache has come, no 1-token request. */
static void check_decode_group(const struct inf_arrivals *a, const struct inf_disagg *d)
{
    for (size_t k = 0; k < d->decode.n_iters; k++) {
        const struct inf_iter *it = &d->decode.iters[k];
        for (size_t i = 0; i < it->n_seqs; i++) {
            const struct inf_seq *q = &d->decode.seqs[it->seq0 + i];
            const struct inf_request *r = &a->req[q->req];
            if (it->prefill || q->first || q->tokens != 1 || q->context < r->prompt || r->output < 2)
                die("the decode group prefilled, or took a 1-token request");
            if (q->context == r->prompt && it->start_ns < d->ready_ns[q->req])
                die("the decode group took a request before its KV cache came");
        }
    }
}

/* mode: 0 prefill-first, 1 mixed, 2 chunked, 3 disaggregated */
static void schedule(const struct inf_arrivals *a, int mode)
{
    uint64_t tokens = 0;
    for (size_t i = 0; i < a->n; i++)
        tokens += a->req[i].output;
    if (tokens > SCHEDULE_TOKENS_MAX)
        return;
    struct inf_config c = {.layers = 1, .hidden = 64, .heads = 4, .kv_heads = 4, .ffn = 128, .vocab = 64,
                           .tp = 1, .pp = 1, .batch = 1, .prompt_len = 1, .output_len = 1, .prefill_chunk = 1,
                           .elem_bytes = 2};
    if (tf_device_lookup("h100", &c.device) != 0)
        die("no h100 preset");
    /* a small batch limit, so that batches fill up and requests queue */
    struct inf_serving_limits l = {.max_batch_size = 3, .mixed = mode == 1 || mode == 2, .chunked = mode == 2};
    if (mode == 2) {
        /* small, so that prompts are split; large enough for at most about
         * a thousand chunks in all */
        uint64_t prompts = 0;
        for (size_t i = 0; i < a->n; i++)
            prompts += a->req[i].prompt;
        l.max_batch_tokens = prompts / 1024 > 8 ? prompts / 1024 : 8;
    }
    struct inf_schedule s;
    char msg[512] = "";
    if (inf_serving_limits_check(&l, a, "arr.txt", msg, sizeof msg) != 0) {
        if (msg[0] == '\0')
            die("limits refused without a message");
        return;
    }
    struct tally t;
    tally_open(&t, a->n);
    if (mode == 3) {
        struct inf_disagg d;
        if (inf_serving_schedule_disagg(&c, a, &l, &d, msg, sizeof msg) != 0)
            die("a small disaggregated schedule failed");
        check_schedule(a, &l, &d.prefill, &t);
        check_schedule(a, &l, &d.decode, &t);
        check_decode_group(a, &d);
        inf_serving_disagg_free(&d);
    } else {
        if (inf_serving_schedule(&c, a, &l, &s, msg, sizeof msg) != 0)
            die("a small schedule failed");
        check_schedule(a, &l, &s, &t);
        inf_serving_free(&s);
    }
    tally_close(&t, a);
}

int fuzz_target_inf_arrivals(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("arrivals.txt", data, size, path);
    struct inf_arrivals a;
    char msg[1024] = "";
    if (inf_arrivals_load(path, &a, msg, sizeof msg) != 0) {
        if (strncmp(msg, path, strlen(path)) != 0 || strchr(msg, '\n'))
            die("refused without a one-line message naming the file");
        if (a.req || a.n)
            die("refused but kept requests");
        return 0;
    }
    check_requests(&a);
    schedule(&a, (int)(size % 4));  /* the four schedulers, by the input's length */
    inf_arrivals_free(&a);
    return 0;
}
