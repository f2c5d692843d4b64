/* The serving traces (see the header), on the emitter the fixed-batch
 * trace uses too (inf_emit.h): the two share the node layout, not the
 * steps. */
#include "inference/inf_serving_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inference/inf_emit.h"
#include "transformer/tf_kernels.h"

/* A sampled token id per sequence, sent from the last stage back to the
 * first before the next iteration (int32), as in the fixed-batch trace. */
#define TOKEN_ID_BYTES 4

/* The shared emitter, and the requests and schedule the rank writes. */
struct emit {
    struct inf_emit base;
    const struct inf_arrivals *a;
    const struct inf_schedule *s;
    const struct inf_disagg *d;  /* disaggregated: the pair of schedules, else NULL */
    int decode_group;            /* d: this rank decodes (else it prefills) */
    int64_t kv_received;         /* decode group: the last prefill iteration whose KV came */
};

/* The wait for the next arrival: a CPU node (the host has no request to
 * schedule), so that it counts as no GPU time and keeps its duration
 * under the roofline model, which recomputes GPU nodes only. */
static void idle(struct emit *e, uint64_t k, uint64_t micros)
{
    char name[64];
    uint64_t dep = e->base.last;
    snprintf(name, sizeof name, "iter%" PRIu64 "_idle", k);
    tf_pb_node_start(&e->base.rec, e->base.next_id, name, strlen(name), VET_COMP_NODE, &dep, e->base.has_last ? 1 : 0, micros);
    tf_pb_attr_bool(&e->base.rec, "is_cpu_op", 1);
    inf_emit_finish(&e->base, 1);
}

/* The stage's layers for iteration k: attention, all-reduce, MLP, all-reduce. */
static void layers(struct emit *e, const struct inf_iter *it, uint64_t k)
{
    const struct inf_config *c = e->base.c;
    const struct inf_seq *sq = e->s->seqs + it->seq0;
    uint64_t attn = tf_kernels_micros(inf_serving_attn_seconds(c, sq, it->n_seqs));
    uint64_t mlp = tf_kernels_micros(inf_serving_mlp_seconds(c, sq, it->n_seqs));
    uint64_t act = it->tokens * c->hidden * c->elem_bytes, lpp = c->layers / c->pp;
    struct inf_config one = *c;
    one.batch = 1;
    uint64_t mlp_flops = inf_mlp_flops(&one, (struct inf_step){.tokens = it->tokens});
    char name[128];
    for (uint64_t i = 0; i < lpp; i++) {
        uint64_t l = e->base.p * lpp + i;
        snprintf(name, sizeof name, "iter%" PRIu64 "_layer%" PRIu64 "_attn", k, l);
        inf_emit_comp(&e->base, name, attn, inf_serving_attn_flops(c, sq, it->n_seqs), act);
        inf_emit_tp_all_reduce(&e->base, name, act);
        snprintf(name, sizeof name, "iter%" PRIu64 "_layer%" PRIu64 "_mlp", k, l);
        inf_emit_comp(&e->base, name, mlp, mlp_flops, act);
        inf_emit_tp_all_reduce(&e->base, name, act);
    }
}

/* A request's marker, a child of the head off the chain. A METADATA node:
 * the simulator ends it the moment it is issued, on no hardware slot, so
 * it ends with the head and delays nothing (a zero-duration compute node
 * would take a tick of the GPU's slot, and the next iteration with it). */
static void marker(struct emit *e, uint64_t k, const struct inf_seq *q, int last)
{
    const struct inf_request *r = &e->a->req[q->req];
    char name[128];
    snprintf(name, sizeof name, "iter%" PRIu64 "_req%" PRIu32 "_%s_token", k, q->req, last ? "last" : "first");
    inf_emit_start(&e->base, name, VET_METADATA_NODE, 0);
    tf_pb_attr_int64(&e->base.rec, INF_REQUEST_ATTR, (int64_t)q->req);
    tf_pb_attr_int64(&e->base.rec, INF_REQUEST_TOKEN_ATTR, last);
    tf_pb_attr_int64(&e->base.rec, INF_ARRIVAL_ATTR, (int64_t)r->arrival_ns);
    tf_pb_attr_int64(&e->base.rec, INF_PROMPT_ATTR, (int64_t)r->prompt);
    tf_pb_attr_int64(&e->base.rec, INF_OUTPUT_ATTR, (int64_t)r->output);
    inf_emit_finish(&e->base, 0);
}

/* The LM head of iteration k (one position a sequence that samples), then
 * its markers. */
static void head(struct emit *e, const struct inf_iter *it, uint64_t k)
{
    const struct inf_config *c = e->base.c;
    char name[128];
    snprintf(name, sizeof name, "iter%" PRIu64 "_lm_head", k);
    const struct inf_seq *sq = e->s->seqs + it->seq0;
    size_t sampled = inf_serving_sampled(sq, it->n_seqs);
    /* chunks of prompts only: nothing to sample, no head (a node of 0 us
     * would still take a tick of the GPU's slot) */
    if (sampled == 0)
        return;
    inf_emit_start(&e->base, name, VET_COMP_NODE, inf_serving_head_micros(c, sq, it->n_seqs));
    tf_pb_attr_int64(&e->base.rec, "num_ops", (int64_t)(2 * sampled * c->hidden * (c->vocab / c->tp)));
    tf_pb_attr_uint64(&e->base.rec, "tensor_size", sampled * c->hidden * c->elem_bytes);
    inf_emit_finish(&e->base, 1);
    for (size_t i = 0; i < it->n_seqs; i++) {
        const struct inf_seq *q = &e->s->seqs[it->seq0 + i];
        if (q->first)
            marker(e, k, q, 0);
        if (q->last)
            marker(e, k, q, 1);
    }
}

/* What prefill iteration k hands the decode group: the prompt tokens and
 * the number of its requests that decode on. */
static void handed_over(const struct emit *e, uint64_t k, uint64_t *tokens, uint64_t *requests)
{
    const struct inf_iter *it = &e->d->prefill.iters[k];
    *tokens = *requests = 0;
    for (size_t i = 0; i < it->n_seqs; i++) {
        const struct inf_seq *q = &e->d->prefill.seqs[it->seq0 + i];
        if (e->a->req[q->req].output > 1) {
            *tokens += q->tokens;
            ++*requests;
        }
    }
}

/* The KV message of prefill iteration k on a rank of stage p: its layers'
 * cache of the prompts; the last stage's carries the first tokens too
 * when it is also the first (P = 1), whose next iteration starts from
 * them. */
static uint64_t kv_message_bytes(const struct emit *e, uint64_t k, uint64_t p)
{
    uint64_t tokens, requests;
    handed_over(e, k, &tokens, &requests);
    return tokens * inf_kv_bytes_per_token(e->base.c) + (e->base.c->pp == 1 && p == 0 ? requests * TOKEN_ID_BYTES : 0);
}

/* A prefill rank sends its layers' KV cache of iteration k to the same
 * place in the decode group (tag k: the pair carries nothing else); the
 * last stage sends once it has sampled, and with P > 1 sends the first
 * tokens to the decode group's first stage. */
static void send_kv(struct emit *e, uint64_t k)
{
    uint64_t tokens, requests, n = inf_ranks(e->base.c), last_stage = e->base.c->pp - 1;
    char name[64];
    handed_over(e, k, &tokens, &requests);
    if (requests == 0)
        return;
    snprintf(name, sizeof name, "send_kv_iter%" PRIu64, k);
    inf_emit_p2p(&e->base, name, VET_COMM_SEND_NODE, inf_emit_rank(&e->base, e->base.p) + n, k,
                 kv_message_bytes(e, k, e->base.p));
    if (e->base.p == last_stage && last_stage > 0) {
        snprintf(name, sizeof name, "send_first_tokens_iter%" PRIu64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_SEND_NODE, inf_emit_rank(&e->base, 0) + n, k,
                     requests * TOKEN_ID_BYTES);
    }
}

/* A decode rank waits, before the iteration that takes a request in
 * first, for the KV message of the prefill iteration that computed it
 * (the requests come in order: one message serves them all), and the
 * first stage for the first tokens (P > 1: from the prefill group's last
 * stage). */
static void recv_kvs(struct emit *e, const struct inf_iter *it)
{
    uint64_t n = inf_ranks(e->base.c), last_stage = e->base.c->pp - 1;
    char name[64];
    for (size_t i = 0; i < it->n_seqs; i++) {
        const struct inf_seq *q = &e->s->seqs[it->seq0 + i];
        int64_t k = (int64_t)e->d->kv_iter[q->req];
        if (q->context != e->a->req[q->req].prompt || k <= e->kv_received)
            continue;
        e->kv_received = k;
        snprintf(name, sizeof name, "recv_kv_iter%" PRId64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_RECV_NODE, inf_emit_rank(&e->base, e->base.p) - n, (uint64_t)k,
                     kv_message_bytes(e, (uint64_t)k, e->base.p));
        if (e->base.p > 0 || last_stage == 0)
            continue;
        uint64_t tokens, requests;
        handed_over(e, (uint64_t)k, &tokens, &requests);
        snprintf(name, sizeof name, "recv_first_tokens_iter%" PRId64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_RECV_NODE, inf_emit_rank(&e->base, last_stage) - n, (uint64_t)k,
                     requests * TOKEN_ID_BYTES);
    }
}

/* Iteration k on this rank. Tags as the fixed-batch trace's: 2k for its
 * activations between stages, 2k + 1 for its sampled tokens. */
static void iteration(struct emit *e, uint64_t k)
{
    const struct inf_config *c = e->base.c;
    const struct inf_iter *it = &e->s->iters[k];
    uint64_t last_stage = c->pp - 1, act = it->tokens * c->hidden * c->elem_bytes;
    char name[128];
    /* the iteration's batch is known once the one before has sampled */
    if (e->base.p == 0 && k > 0 && c->pp > 1) {
        snprintf(name, sizeof name, "recv_tokens_iter%" PRIu64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_RECV_NODE, inf_emit_rank(&e->base, last_stage), 2 * (k - 1) + 1,
            e->s->iters[k - 1].n_seqs * TOKEN_ID_BYTES);
    }
    /* a decode group waits for KV caches, not for the clock */
    if (e->base.p == 0 && it->idle_us > 0 && !e->decode_group)
        idle(e, k, it->idle_us);
    if (e->base.p > 0) {
        snprintf(name, sizeof name, "recv_act_iter%" PRIu64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_RECV_NODE, inf_emit_rank(&e->base, e->base.p - 1), 2 * k, act);
    }
    if (e->decode_group)
        recv_kvs(e, it);
    layers(e, it, k);
    int prefill_group = e->d && !e->decode_group;
    if (e->base.p < last_stage) {
        if (prefill_group)
            send_kv(e, k);
        snprintf(name, sizeof name, "send_act_iter%" PRIu64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_SEND_NODE, inf_emit_rank(&e->base, e->base.p + 1), 2 * k, act);
        return;
    }
    head(e, it, k);
    if (prefill_group)
        send_kv(e, k);
    if (c->pp > 1 && k + 1 < e->s->n_iters) {
        snprintf(name, sizeof name, "send_tokens_iter%" PRIu64, k);
        inf_emit_p2p(&e->base, name, VET_COMM_SEND_NODE, inf_emit_rank(&e->base, 0), 2 * k + 1, it->n_seqs * TOKEN_ID_BYTES);
    }
}


/* Writes rank `rank` of e's schedule to `path`. */
static int write_rank(struct emit *e, const struct inf_config *c, uint64_t rank, const char *path, vet_error *err)
{
    errno = 0;
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, errno ? strerror(errno) : "unknown error");
        return -1;
    }
    inf_emit_begin(&e->base, c, rank, fp);
    for (uint64_t k = 0; k < e->s->n_iters && !e->base.failed; k++)
        iteration(e, k);
    if (fclose(fp) != 0 || e->base.failed) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}

int inf_serving_write_rank(const struct inf_config *c, const struct inf_arrivals *a, const struct inf_schedule *s,
                           uint64_t rank, const char *path, vet_error *err)
{
    struct emit e = {.a = a, .s = s};
    return write_rank(&e, c, rank, path, err);
}

int inf_serving_write_disagg_rank(const struct inf_config *c, const struct inf_arrivals *a,
                                  const struct inf_disagg *d, uint64_t rank, const char *path, vet_error *err)
{
    int decode = rank >= inf_ranks(c);
    struct emit e = {.a = a, .s = decode ? &d->decode : &d->prefill, .d = d, .decode_group = decode,
                     .kv_received = -1};
    return write_rank(&e, c, rank, path, err);
}
