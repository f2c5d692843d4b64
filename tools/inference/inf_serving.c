/* Continuous batching of an arrivals file (see the header; docs/inference.md,
 * "Serving"). */
#include "inference/inf_serving.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/tf_kernels.h"

/* ---- the cost of one iteration ------------------------------------------- */

/* The model with one sequence: the kernels of inf_model.c then cost the
 * iteration's tokens as rows of one batch, as a serving engine packs them. */
static struct inf_config single(const struct inf_config *c)
{
    struct inf_config one = *c;
    one.batch = 1;
    return one;
}

static uint64_t total_tokens(const struct inf_seq *s, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        t += s[i].tokens;
    return t;
}

static struct inf_step step_of(const struct inf_seq *s)
{
    return (struct inf_step){.tokens = s->tokens, .context = s->context};
}

double inf_serving_attn_seconds(const struct inf_config *c, const struct inf_seq *s, size_t n)
{
    struct inf_config one = single(c);
    struct inf_step all = {.tokens = total_tokens(s, n)};
    /* the GEMMs and element-wise kernels see all the rows at once; the
     * core (FlashAttention) attends each sequence to its own cache only */
    double t = inf_attn_seconds(&one, all) - inf_attn_core_seconds(&one, all);
    for (size_t i = 0; i < n; i++)
        t += inf_attn_core_seconds(&one, step_of(&s[i]));
    return t;
}

double inf_serving_mlp_seconds(const struct inf_config *c, const struct inf_seq *s, size_t n)
{
    struct inf_config one = single(c);
    return inf_mlp_seconds(&one, (struct inf_step){.tokens = total_tokens(s, n)});
}

double inf_serving_head_seconds(const struct inf_config *c, size_t n)
{
    struct inf_config b = *c;
    b.batch = n;
    return inf_head_seconds(&b);
}

uint64_t inf_serving_attn_flops(const struct inf_config *c, const struct inf_seq *s, size_t n)
{
    /* linear in the rows: the per-sequence counts add up to the batch's */
    struct inf_config one = single(c);
    uint64_t f = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t one_f = inf_attn_flops(&one, step_of(&s[i]));
        f = one_f > UINT64_MAX / 2 - f ? UINT64_MAX / 2 : f + one_f;
    }
    return f > INT64_MAX ? (uint64_t)INT64_MAX : f;
}

size_t inf_serving_sampled(const struct inf_seq *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += !s[i].partial;
    return k;
}

uint64_t inf_serving_head_micros(const struct inf_config *c, const struct inf_seq *s, size_t n)
{
    size_t k = inf_serving_sampled(s, n);
    return k ? tf_kernels_micros(inf_serving_head_seconds(c, k)) : 0;
}

uint64_t inf_serving_iter_micros(const struct inf_config *c, const struct inf_seq *s, size_t n)
{
    uint64_t layer = tf_kernels_micros(inf_serving_attn_seconds(c, s, n)) +
                     tf_kernels_micros(inf_serving_mlp_seconds(c, s, n));
    return layer * c->layers + inf_serving_head_micros(c, s, n);
}

uint64_t inf_serving_iter_comms(const struct inf_config *c)
{
    return (c->tp > 1 ? 2 * c->layers : 0) + (c->pp > 1 ? c->pp : 0);
}

/* ---- limits ---------------------------------------------------------------- */

int inf_serving_limits_check(struct inf_serving_limits *l, const struct inf_arrivals *a, const char *file,
                             char *msg, size_t len)
{
    uint64_t longest = 0;
    size_t at = 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->req[i].prompt > longest) {
            longest = a->req[i].prompt;
            at = i;
        }
    if (l->max_batch_size == 0)
        l->max_batch_size = INF_SERVING_BATCH_SIZE;
    /* chunks need no room for the longest prompt (vLLM: 2048 with chunked prefill) */
    if (l->max_batch_tokens == 0)
        l->max_batch_tokens = longest > INF_SERVING_MIN_TOKENS && !l->chunked ? longest : INF_SERVING_MIN_TOKENS;
    if (l->max_batch_tokens < l->max_batch_size) {
        /* every running sequence decodes a token each iteration */
        snprintf(msg, len, "--max-batch-tokens: %" PRIu64 " is less than --max-batch-size %" PRIu64,
                 l->max_batch_tokens, l->max_batch_size);
        return -1;
    }
    if (longest > l->max_batch_tokens && !l->chunked) {
        snprintf(msg, len, "%s:%" PRIu32 ": a prompt of %" PRIu64 " tokens never fits --max-batch-tokens %" PRIu64,
                 file, a->req[at].line, longest, l->max_batch_tokens);
        return -1;
    }
    return 0;
}

/* ---- the scheduler --------------------------------------------------------- */

/* What the iterations hold: both phases on one group of ranks, or one
 * phase of a disaggregated pair of groups. */
enum sched_role { ROLE_BOTH, ROLE_PREFILL, ROLE_DECODE };

/* The scheduler's state between iterations. */
struct sched {
    const struct inf_config *c;
    const struct inf_arrivals *a;
    const struct inf_serving_limits *l;
    struct inf_schedule *out;
    enum sched_role role;
    const uint64_t *ready_ns;  /* ROLE_DECODE: when each request's KV cache has come */
    uint64_t *done_ns;        /* ROLE_PREFILL: when each request's prefill ended (or NULL) */
    uint32_t *done_iter;      /* ROLE_PREFILL: its iteration (or NULL) */
    size_t next;              /* the first request not yet admitted */
    uint32_t *running;        /* admitted, not finished, admission order */
    size_t n_running;
    uint64_t *generated;      /* per request: output tokens sampled so far */
    int has_partial;          /* chunked: a request whose prompt is part done */
    uint32_t partial;         /* that request */
    uint64_t partial_done;    /* its prompt tokens already cached */
    uint64_t now_ns, gap_us;
    size_t cap_iters, cap_seqs;
};

/* When request i may join: its arrival, or for a decode group the moment
 * its KV cache has come from the prefill group. */
static uint64_t ready_at(const struct sched *st, size_t i)
{
    return st->ready_ns ? st->ready_ns[i] : st->a->req[i].arrival_ns;
}

static int arrived(const struct sched *st, size_t i)
{
    return i < st->a->n && ready_at(st, i) <= st->now_ns;
}

/* A decode group never sees a 1-token request: its prefill gave its only
 * token. */
static void skip_done_requests(struct sched *st)
{
    while (st->role == ROLE_DECODE && st->next < st->a->n && st->a->req[st->next].output < 2)
        st->next++;
}

/* Nothing runs and nothing waits: jump to the next arrival, in whole
 * microseconds (the idle node's duration). */
static void idle_until_next(struct sched *st)
{
    uint64_t wait = ready_at(st, st->next) - st->now_ns;
    uint64_t us = (wait + 999) / 1000;
    st->gap_us += us;
    st->now_ns += us * 1000;
}

/* Puts `chunk` tokens of request i's prompt, `done` of them already
 * cached, into *q; the chunk that ends the prompt samples the first token
 * and, unless that was the only one, makes the request run. */
static void prefill_chunk(struct sched *st, struct inf_seq *q, uint32_t i, uint64_t done, uint64_t chunk)
{
    const struct inf_request *r = &st->a->req[i];
    int ends = done + chunk == r->prompt;
    *q = (struct inf_seq){.req = i, .tokens = chunk, .context = done, .first = (uint8_t)ends,
                          .last = ends && r->output == 1, .partial = (uint8_t)!ends};
    st->has_partial = !ends;
    st->partial = i;
    st->partial_done = done + chunk;
    if (!ends)
        return;
    st->generated[i] = 1;
    if (st->done_iter)
        st->done_iter[i] = (uint32_t)st->out->n_iters;
    /* a 1-token request is done with its prefill; a prefill group hands
     * the others to the decode group */
    if (r->output > 1 && st->role == ROLE_BOTH)
        st->running[st->n_running++] = i;
}

/* A decode group takes the requests whose KV cache has come, in order,
 * while places are left: their first token is the prefill group's. */
static void join_decodes(struct sched *st)
{
    for (skip_done_requests(st); arrived(st, st->next) && st->n_running < st->l->max_batch_size;
         skip_done_requests(st)) {
        st->generated[st->next] = 1;
        st->running[st->n_running++] = (uint32_t)st->next++;
    }
}

/* Admits arrived requests in order while the limits allow: `in_batch`
 * sequences already hold a place (the running ones stay in the batch) and
 * their prompts may take `budget` tokens; their prefills are seqs[0 ..].
 * Chunked, a partly prefilled request goes on first, and the last one
 * admitted may take only part of its prompt. Returns how many. */
static size_t admit(struct sched *st, struct inf_seq *seqs, size_t in_batch, uint64_t budget)
{
    size_t k = 0;
    uint64_t tokens = 0;
    if (st->has_partial && in_batch < st->l->max_batch_size && budget > 0) {
        uint64_t left = st->a->req[st->partial].prompt - st->partial_done;
        uint64_t chunk = left < budget ? left : budget;
        prefill_chunk(st, &seqs[k++], st->partial, st->partial_done, chunk);
        tokens += chunk;
    }
    while (!st->has_partial && arrived(st, st->next) && in_batch + k < st->l->max_batch_size && tokens < budget) {
        uint64_t prompt = st->a->req[st->next].prompt, chunk = prompt;
        if (tokens + prompt > budget) {
            if (!st->l->chunked)
                break;
            chunk = budget - tokens;
        }
        prefill_chunk(st, &seqs[k++], (uint32_t)st->next, 0, chunk);
        tokens += chunk;
        st->next++;
    }
    return k;
}

/* Every running request decodes one token; the finished ones leave. */
static size_t decode(struct sched *st, struct inf_seq *seqs)
{
    size_t kept = 0, n = st->n_running;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = st->running[i];
        uint64_t g = ++st->generated[r];
        const struct inf_request *q = &st->a->req[r];
        /* decode step g-1 after the prefill: the prompt and the g - 2
         * tokens decoded before are cached, plus the token it feeds */
        seqs[i] = (struct inf_seq){.req = r, .tokens = 1, .context = q->prompt + g - 2, .last = g == q->output};
        if (g < q->output)
            st->running[kept++] = r;
    }
    st->n_running = kept;
    return n;
}

/* Tokens in every KV cache after the iteration: the running requests'
 * prompts and decoded tokens, plus those that just left. */
static uint64_t kv_tokens(const struct sched *st, const struct inf_seq *seqs, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < st->n_running; i++) {
        uint32_t r = st->running[i];
        t += st->a->req[r].prompt + st->generated[r] - 1;
    }
    for (size_t i = 0; i < n; i++)
        if (seqs[i].last)
            t += seqs[i].context + seqs[i].tokens;
    return t + (st->has_partial ? st->partial_done : 0);
}

/* Room for one more iteration and its sequences: every running request,
 * the partial one and the new ones, at most max_batch_size (or a
 * request each). */
static int grow(struct sched *st, char *msg, size_t len)
{
    struct inf_schedule *o = st->out;
    if (o->n_iters == INF_SERVING_ITERS_MAX)
        return snprintf(msg, len, "--arrivals: the schedule runs past %llu iterations", INF_SERVING_ITERS_MAX), -1;
    if (o->n_iters == st->cap_iters) {
        size_t cap = st->cap_iters ? 2 * st->cap_iters : 64;
        struct inf_iter *q = realloc(o->iters, cap * sizeof *q);
        if (!q)
            return snprintf(msg, len, "out of memory"), -1;
        o->iters = q;
        st->cap_iters = cap;
    }
    size_t most = st->a->n + 1 < st->l->max_batch_size ? st->a->n + 1 : (size_t)st->l->max_batch_size;
    if (st->cap_seqs - o->n_seqs < most) {
        size_t cap = 2 * st->cap_seqs > o->n_seqs + most ? 2 * st->cap_seqs : o->n_seqs + most;
        struct inf_seq *q = realloc(o->seqs, cap * sizeof *q);
        if (!q)
            return snprintf(msg, len, "out of memory"), -1;
        o->seqs = q;
        st->cap_seqs = cap;
    }
    return 0;
}

/* Runs one iteration on the generator's clock. */
static int iterate(struct sched *st, char *msg, size_t len)
{
    struct inf_schedule *o = st->out;
    if (grow(st, msg, len) != 0)
        return -1;
    struct inf_seq *seqs = o->seqs + o->n_seqs;
    size_t n;
    int prefill;
    if (st->role == ROLE_DECODE) {
        join_decodes(st);
        n = decode(st, seqs);
        prefill = 0;
    } else if (st->l->mixed && st->role == ROLE_BOTH) {
        /* every running request decodes; new prompts fill what is left */
        n = decode(st, seqs);
        size_t k = admit(st, seqs + n, n, st->l->max_batch_tokens - n);
        prefill = k > 0;
        n += k;
    } else {
        n = admit(st, seqs, st->n_running, st->l->max_batch_tokens);
        prefill = n > 0;
        if (!prefill)
            n = decode(st, seqs);
    }
    uint64_t micros = inf_serving_iter_micros(st->c, seqs, n);
    o->iters[o->n_iters++] = (struct inf_iter){.idle_us = st->gap_us, .start_ns = st->now_ns, .micros = micros,
                                               .prefill = prefill, .seq0 = o->n_seqs, .n_seqs = n,
                                               .tokens = total_tokens(seqs, n)};
    o->n_seqs += n;
    o->idle_us += st->gap_us;
    st->gap_us = 0;
    st->now_ns += micros * 1000 + st->l->comm_ns * inf_serving_iter_comms(st->c);
    /* a prefill group holds each iteration's prompts until they are sent */
    uint64_t kv = st->role == ROLE_PREFILL ? total_tokens(seqs, n) : kv_tokens(st, seqs, n);
    for (size_t i = 0; st->done_ns && i < n; i++)
        st->done_ns[seqs[i].req] = st->now_ns;
    if (kv > o->peak_kv_tokens)
        o->peak_kv_tokens = kv;
    if (n > o->max_batch)
        o->max_batch = n;
    return 0;
}

/* Every sampled token is one sequence entry: their sum sizes the table.
 * Empties *out first. */
static int check_tokens(const struct inf_arrivals *a, void *out, size_t out_size, char *msg, size_t len)
{
    uint64_t total = 0;
    memset(out, 0, out_size);
    for (size_t i = 0; i < a->n; i++)
        total += a->req[i].output;
    if (total > INF_SERVING_TOKENS_MAX) {
        snprintf(msg, len, "--arrivals: the requests generate %" PRIu64 " tokens in all, more than %llu", total,
                 INF_SERVING_TOKENS_MAX);
        return -1;
    }
    return 0;
}

/* Runs st's iterations until every request has left. */
static int run(struct sched *st, char *msg, size_t len)
{
    const struct inf_arrivals *a = st->a;
    st->running = malloc((a->n ? a->n : 1) * sizeof *st->running);
    st->generated = calloc(a->n ? a->n : 1, sizeof *st->generated);
    int rc = st->running && st->generated ? 0 : -1;
    if (rc != 0)
        snprintf(msg, len, "out of memory");
    skip_done_requests(st);
    while (rc == 0 && (st->n_running > 0 || st->has_partial || st->next < a->n)) {
        if (st->n_running == 0 && !st->has_partial && !arrived(st, st->next))
            idle_until_next(st);
        rc = iterate(st, msg, len);
        skip_done_requests(st);
    }
    st->out->end_ns = st->now_ns;
    free(st->running);
    free(st->generated);
    if (rc != 0)
        inf_serving_free(st->out);
    return rc;
}

int inf_serving_schedule(const struct inf_config *c, const struct inf_arrivals *a,
                         const struct inf_serving_limits *l, struct inf_schedule *out, char *msg, size_t len)
{
    if (check_tokens(a, out, sizeof *out, msg, len) != 0)
        return -1;
    struct sched st = {.c = c, .a = a, .l = l, .out = out, .role = ROLE_BOTH};
    return run(&st, msg, len);
}

int inf_serving_schedule_disagg(const struct inf_config *c, const struct inf_arrivals *a,
                                const struct inf_serving_limits *l, struct inf_disagg *out, char *msg, size_t len)
{
    if (check_tokens(a, out, sizeof *out, msg, len) != 0)
        return -1;
    size_t n = a->n ? a->n : 1;
    out->kv_iter = calloc(n, sizeof *out->kv_iter);
    out->ready_ns = calloc(n, sizeof *out->ready_ns);
    if (!out->kv_iter || !out->ready_ns) {
        inf_serving_disagg_free(out);
        return snprintf(msg, len, "out of memory"), -1;
    }
    struct sched pre = {.c = c, .a = a, .l = l, .out = &out->prefill, .role = ROLE_PREFILL,
                        .done_ns = out->ready_ns, .done_iter = out->kv_iter};
    int rc = run(&pre, msg, len);
    /* the KV cache leaves with the iteration's end: one message */
    for (size_t i = 0; rc == 0 && i < a->n; i++)
        out->ready_ns[i] += l->comm_ns;
    struct sched dec = {.c = c, .a = a, .l = l, .out = &out->decode, .role = ROLE_DECODE, .ready_ns = out->ready_ns};
    if (rc == 0)
        rc = run(&dec, msg, len);
    if (rc != 0)
        inf_serving_disagg_free(out);
    return rc;
}

void inf_serving_disagg_free(struct inf_disagg *d)
{
    inf_serving_free(&d->prefill);
    inf_serving_free(&d->decode);
    free(d->kv_iter);
    free(d->ready_ns);
    memset(d, 0, sizeof *d);
}

void inf_serving_free(struct inf_schedule *s)
{
    free(s->iters);
    free(s->seqs);
    memset(s, 0, sizeof *s);
}
