/* The serving traces (see the header). Its own small emitter on the
 * training generator's protobuf encoder (tf_pb.h), as inf_write.c has for
 * the fixed-batch trace: the two share the node layout, not the steps. */
#include "inference/inf_serving_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/tf_kernels.h"
#include "transformer/tf_pb.h"

/* A sampled token id per sequence, sent from the last stage back to the
 * first before the next iteration (int32), as in the fixed-batch trace. */
#define TOKEN_ID_BYTES 4

struct emit {
    const struct inf_config *c;
    const struct inf_arrivals *a;
    const struct inf_schedule *s;
    uint64_t t, p;
    char tp_pg[24];
    FILE *fp;
    struct tf_pb_node rec;
    uint64_t next_id, last;
    int has_last, failed;
};

static void start(struct emit *e, const char *name, enum vet_node_type type, uint64_t micros)
{
    uint64_t dep = e->last;
    tf_pb_node_start(&e->rec, e->next_id, name, strlen(name), (int)type, &dep, e->has_last ? 1 : 0, micros);
    tf_pb_attr_bool(&e->rec, "is_cpu_op", 0);
}

/* `on_chain`: the node becomes the next one's parent (not a SEND, which
 * travels while the stage computes on, nor a marker). */
static void finish(struct emit *e, int on_chain)
{
    uint8_t out[TF_PB_RECORD_MAX];
    size_t n = tf_pb_frame(&e->rec, out);
    if (!e->failed && fwrite(out, 1, n, e->fp) != n)
        e->failed = 1;
    if (on_chain) {
        e->last = e->next_id;
        e->has_last = 1;
    }
    e->next_id++;
}

static void comp(struct emit *e, const char *name, uint64_t micros, uint64_t flops, uint64_t bytes)
{
    start(e, name, VET_COMP_NODE, micros);
    tf_pb_attr_int64(&e->rec, "num_ops", (int64_t)flops);
    tf_pb_attr_uint64(&e->rec, "tensor_size", bytes);
    finish(e, 1);
}

static void tp_all_reduce(struct emit *e, const char *what, uint64_t bytes)
{
    char name[128];
    if (e->c->tp == 1)
        return;
    snprintf(name, sizeof name, "tp_all_reduce_%s", what);
    start(e, name, VET_COMM_COLL_NODE, 0);
    tf_pb_attr_int64(&e->rec, "comm_type", VET_ALL_REDUCE);
    tf_pb_attr_int64(&e->rec, "comm_size", (int64_t)bytes);
    tf_pb_attr_string(&e->rec, "pg_name", e->tp_pg);
    finish(e, 1);
}

static void p2p(struct emit *e, const char *name, enum vet_node_type type, uint64_t peer, uint64_t tag,
                uint64_t bytes)
{
    uint64_t self = e->t + e->c->tp * e->p;
    int send = type == VET_COMM_SEND_NODE;
    start(e, name, type, 0);
    tf_pb_attr_int32(&e->rec, "comm_src", (int32_t)(send ? self : peer));
    tf_pb_attr_int32(&e->rec, "comm_dst", (int32_t)(send ? peer : self));
    tf_pb_attr_int32(&e->rec, "comm_tag", (int32_t)tag);
    tf_pb_attr_uint64(&e->rec, "comm_size", bytes);
    finish(e, !send);
}

/* The wait for the next arrival: a CPU node (the host has no request to
 * schedule), so that it counts as no GPU time and keeps its duration
 * under the roofline model, which recomputes GPU nodes only. */
static void idle(struct emit *e, uint64_t k, uint64_t micros)
{
    char name[64];
    uint64_t dep = e->last;
    snprintf(name, sizeof name, "iter%" PRIu64 "_idle", k);
    tf_pb_node_start(&e->rec, e->next_id, name, strlen(name), VET_COMP_NODE, &dep, e->has_last ? 1 : 0, micros);
    tf_pb_attr_bool(&e->rec, "is_cpu_op", 1);
    finish(e, 1);
}

/* The stage's layers for iteration k: attention, all-reduce, MLP, all-reduce. */
static void layers(struct emit *e, const struct inf_iter *it, uint64_t k)
{
    const struct inf_config *c = e->c;
    const struct inf_seq *sq = e->s->seqs + it->seq0;
    uint64_t attn = tf_kernels_micros(inf_serving_attn_seconds(c, sq, it->n_seqs));
    uint64_t mlp = tf_kernels_micros(inf_serving_mlp_seconds(c, sq, it->n_seqs));
    uint64_t act = it->tokens * c->hidden * c->elem_bytes, lpp = c->layers / c->pp;
    struct inf_config one = *c;
    one.batch = 1;
    uint64_t mlp_flops = inf_mlp_flops(&one, (struct inf_step){.tokens = it->tokens});
    char name[128];
    for (uint64_t i = 0; i < lpp; i++) {
        uint64_t l = e->p * lpp + i;
        snprintf(name, sizeof name, "iter%" PRIu64 "_layer%" PRIu64 "_attn", k, l);
        comp(e, name, attn, inf_serving_attn_flops(c, sq, it->n_seqs), act);
        tp_all_reduce(e, name, act);
        snprintf(name, sizeof name, "iter%" PRIu64 "_layer%" PRIu64 "_mlp", k, l);
        comp(e, name, mlp, mlp_flops, act);
        tp_all_reduce(e, name, act);
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
    start(e, name, VET_METADATA_NODE, 0);
    tf_pb_attr_int64(&e->rec, INF_REQUEST_ATTR, (int64_t)q->req);
    tf_pb_attr_int64(&e->rec, INF_REQUEST_TOKEN_ATTR, last);
    tf_pb_attr_int64(&e->rec, INF_ARRIVAL_ATTR, (int64_t)r->arrival_ns);
    tf_pb_attr_int64(&e->rec, INF_PROMPT_ATTR, (int64_t)r->prompt);
    tf_pb_attr_int64(&e->rec, INF_OUTPUT_ATTR, (int64_t)r->output);
    finish(e, 0);
}

/* The LM head of iteration k (one position a sequence), then its markers. */
static void head(struct emit *e, const struct inf_iter *it, uint64_t k)
{
    const struct inf_config *c = e->c;
    char name[128];
    snprintf(name, sizeof name, "iter%" PRIu64 "_lm_head", k);
    start(e, name, VET_COMP_NODE, tf_kernels_micros(inf_serving_head_seconds(c, it->n_seqs)));
    tf_pb_attr_int64(&e->rec, "num_ops", (int64_t)(2 * it->n_seqs * c->hidden * (c->vocab / c->tp)));
    tf_pb_attr_uint64(&e->rec, "tensor_size", it->n_seqs * c->hidden * c->elem_bytes);
    finish(e, 1);
    for (size_t i = 0; i < it->n_seqs; i++) {
        const struct inf_seq *q = &e->s->seqs[it->seq0 + i];
        if (q->first)
            marker(e, k, q, 0);
        if (q->last)
            marker(e, k, q, 1);
    }
}

/* Iteration k on this rank. Tags as the fixed-batch trace's: 2k for its
 * activations between stages, 2k + 1 for its sampled tokens. */
static void iteration(struct emit *e, uint64_t k)
{
    const struct inf_config *c = e->c;
    const struct inf_iter *it = &e->s->iters[k];
    uint64_t last_stage = c->pp - 1, act = it->tokens * c->hidden * c->elem_bytes;
    char name[128];
    /* the iteration's batch is known once the one before has sampled */
    if (e->p == 0 && k > 0 && c->pp > 1) {
        snprintf(name, sizeof name, "recv_tokens_iter%" PRIu64, k);
        p2p(e, name, VET_COMM_RECV_NODE, e->t + c->tp * last_stage, 2 * (k - 1) + 1,
            e->s->iters[k - 1].n_seqs * TOKEN_ID_BYTES);
    }
    if (e->p == 0 && it->idle_us > 0)
        idle(e, k, it->idle_us);
    if (e->p > 0) {
        snprintf(name, sizeof name, "recv_act_iter%" PRIu64, k);
        p2p(e, name, VET_COMM_RECV_NODE, e->t + c->tp * (e->p - 1), 2 * k, act);
    }
    layers(e, it, k);
    if (e->p < last_stage) {
        snprintf(name, sizeof name, "send_act_iter%" PRIu64, k);
        p2p(e, name, VET_COMM_SEND_NODE, e->t + c->tp * (e->p + 1), 2 * k, act);
        return;
    }
    head(e, it, k);
    if (c->pp > 1 && k + 1 < e->s->n_iters) {
        snprintf(name, sizeof name, "send_tokens_iter%" PRIu64, k);
        p2p(e, name, VET_COMM_SEND_NODE, e->t, 2 * k + 1, it->n_seqs * TOKEN_ID_BYTES);
    }
}

static int put_metadata(struct emit *e)
{
    vet_metadata md = {.version = "0.0.4"};
    uint8_t *bytes;
    size_t len;
    if (vet_encode_metadata(&md, &bytes, &len) != 0)
        return -1;
    memcpy(e->rec.b, bytes, len);
    e->rec.n = len;
    free(bytes);
    uint8_t out[TF_PB_RECORD_MAX];
    size_t n = tf_pb_frame(&e->rec, out);
    return fwrite(out, 1, n, e->fp) == n ? 0 : -1;
}

int inf_serving_write_rank(const struct inf_config *c, const struct inf_arrivals *a, const struct inf_schedule *s,
                           uint64_t rank, const char *path, vet_error *err)
{
    struct emit e = {.c = c, .a = a, .s = s, .t = rank % c->tp, .p = rank / c->tp};
    snprintf(e.tp_pg, sizeof e.tp_pg, "%" PRIu64, 1 + e.p);
    errno = 0;
    e.fp = fopen(path, "wb");
    if (!e.fp) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, errno ? strerror(errno) : "unknown error");
        return -1;
    }
    e.failed = put_metadata(&e) != 0;
    for (uint64_t k = 0; k < s->n_iters && !e.failed; k++)
        iteration(&e, k);
    if (fclose(e.fp) != 0 || e.failed) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
