/* One training iteration per rank, GPipe or 1F1B (docs/transformer.md, "Schedule"). */
#include "transformer/tf_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The rank being written. The nodes form one chain (each depends on the
 * previous one) except SENDs and DP buckets, which hang off the chain: the
 * rank computes on while they travel. */
struct emit {
    const struct tf_config *c;
    struct tf_coords at;
    vet_writer *w;
    vet_builder *b;
    vet_error *err;
    uint64_t next_id;
    uint64_t last;
    int has_last;
    uint64_t last_bucket; /* the DP bucket issued last, when has_bucket */
    int has_bucket;
    int failed;
};

static void start(struct emit *e, const char *name, enum vet_node_type type)
{
    vet_builder_reset(e->b, e->next_id, name, type);
    if (e->has_last)
        vet_builder_add_data_dep(e->b, e->last);
    vet_builder_attr_bool(e->b, "is_cpu_op", false);
}

/* Writes the node being built; `on_chain` makes it the next node's parent. */
static void finish(struct emit *e, int on_chain)
{
    if (e->failed)
        return;
    if (vet_builder_failed(e->b)) {
        snprintf(e->err->msg, sizeof e->err->msg, "out of memory");
        e->failed = 1;
        return;
    }
    if (vet_writer_put_node(e->w, vet_builder_node(e->b), e->err) != 0) {
        e->failed = 1;
        return;
    }
    if (on_chain) {
        e->last = e->next_id;
        e->has_last = 1;
    }
    e->next_id++;
}

static void comp_attrs(struct emit *e, struct tf_cost cost)
{
    vet_builder_set_duration(e->b, tf_duration_micros(e->c, cost));
    vet_builder_attr_int64(e->b, "num_ops", (int64_t)cost.flops);
    vet_builder_attr_uint64(e->b, "tensor_size", cost.bytes);
}

static void comp(struct emit *e, const char *name, struct tf_cost cost)
{
    start(e, name, VET_COMP_NODE);
    comp_attrs(e, cost);
    finish(e, 1);
}

static void coll_attrs(struct emit *e, int64_t type, uint64_t size, uint64_t group)
{
    char pg[24];
    snprintf(pg, sizeof pg, "%" PRIu64, group);
    vet_builder_attr_int64(e->b, "comm_type", type);
    vet_builder_attr_int64(e->b, "comm_size", (int64_t)size);
    vet_builder_attr_string(e->b, "pg_name", pg);
}

static void coll(struct emit *e, const char *name, int64_t type, uint64_t size, uint64_t group)
{
    start(e, name, VET_COMM_COLL_NODE);
    coll_attrs(e, type, size, group);
    finish(e, 1);
}

/* DP bucket k, issued off the chain as soon as its last gradient is
 * computed, so the backward pass goes on under it; buckets run one after
 * the other (one communicator, one stream). */
static void dp_bucket(struct emit *e, uint64_t k)
{
    uint64_t group = tf_dp_group(e->c, e->at.t, e->at.p);
    char name[96];
    if (group == 0)
        return;
    if (e->c->dp_buckets == 1)
        snprintf(name, sizeof name, "dp_all_reduce_grads");
    else
        snprintf(name, sizeof name, "dp_all_reduce_grads_bucket%" PRIu64, k);
    uint64_t id = e->next_id;
    start(e, name, VET_COMM_COLL_NODE);
    if (e->has_bucket)
        vet_builder_add_data_dep(e->b, e->last_bucket);
    coll_attrs(e, VET_ALL_REDUCE, tf_bucket_params(e->c, e->at.p, k) * e->c->elem_bytes, group);
    finish(e, 0);
    e->last_bucket = id;
    e->has_bucket = 1;
}

static void p2p(struct emit *e, const char *name, enum vet_node_type type, uint64_t src, uint64_t dst, uint64_t tag)
{
    start(e, name, type);
    vet_builder_attr_int32(e->b, "comm_src", (int32_t)src);
    vet_builder_attr_int32(e->b, "comm_dst", (int32_t)dst);
    vet_builder_attr_int32(e->b, "comm_tag", (int32_t)tag);
    vet_builder_attr_uint64(e->b, "comm_size", tf_activation_bytes(e->c));
    finish(e, type == VET_COMM_RECV_NODE);
}

/* The TP collective after a row-parallel GEMM (or its backward): one
 * all-reduce, or with --sp a reduce-scatter then an all-gather. */
static void tp_comm(struct emit *e, const char *what)
{
    uint64_t group = tf_tp_group(e->c, e->at.d, e->at.p);
    char name[128];
    if (group == 0)
        return;
    if (!e->c->sp) {
        snprintf(name, sizeof name, "tp_all_reduce_%s", what);
        coll(e, name, VET_ALL_REDUCE, tf_activation_bytes(e->c), group);
        return;
    }
    snprintf(name, sizeof name, "tp_reduce_scatter_%s", what);
    coll(e, name, VET_REDUCE_SCATTER, tf_activation_bytes(e->c), group);
    snprintf(name, sizeof name, "tp_all_gather_%s", what);
    coll(e, name, VET_ALL_GATHER, tf_activation_bytes(e->c), group);
}

static uint64_t neighbour(const struct emit *e, uint64_t stage)
{
    struct tf_coords at = {e->at.t, e->at.d, stage};
    return tf_rank_of(e->c, at);
}

static void layer_pass(struct emit *e, uint64_t mb, uint64_t layer, int backward)
{
    const struct tf_config *c = e->c;
    const char *pass = backward ? "bwd" : "fwd";
    struct tf_cost attn = tf_attn_fwd(c), mlp = tf_mlp_fwd(c);
    unsigned k = backward ? 2 : 1;
    struct tf_cost attn_k = {k * attn.flops, k * attn.bytes}, mlp_k = {k * mlp.flops, k * mlp.bytes};
    char name[128];
    if (!backward) {
        snprintf(name, sizeof name, "%s_mb%" PRIu64 "_layer%" PRIu64 "_attn", pass, mb, layer);
        comp(e, name, attn_k);
        tp_comm(e, name);
    }
    snprintf(name, sizeof name, "%s_mb%" PRIu64 "_layer%" PRIu64 "_mlp", pass, mb, layer);
    comp(e, name, mlp_k);
    tp_comm(e, name);
    if (backward) {
        snprintf(name, sizeof name, "%s_mb%" PRIu64 "_layer%" PRIu64 "_attn", pass, mb, layer);
        comp(e, name, attn_k);
        tp_comm(e, name);
    }
}

static void head_pass(struct emit *e, uint64_t mb, int backward)
{
    struct tf_cost head = tf_head_fwd(e->c);
    unsigned k = backward ? 2 : 1;
    struct tf_cost cost = {k * head.flops, k * head.bytes};
    char name[96];
    snprintf(name, sizeof name, "%s_mb%" PRIu64 "_lm_head", backward ? "bwd" : "fwd", mb);
    comp(e, name, cost);
}

/* Forward: receive from the previous stage, run the stage's layers (and the
 * LM head on the last stage), send to the next stage. Tags: micro-batch m
 * forward is m, backward is M + m. */
static void forward(struct emit *e, uint64_t mb)
{
    const struct tf_config *c = e->c;
    uint64_t p = e->at.p, lps = tf_layers_per_stage(c), self = tf_rank_of(c, e->at);
    char name[96];
    if (p > 0) {
        snprintf(name, sizeof name, "recv_fwd_mb%" PRIu64, mb);
        p2p(e, name, VET_COMM_RECV_NODE, neighbour(e, p - 1), self, mb);
    }
    for (uint64_t i = 0; i < lps; i++)
        layer_pass(e, mb, p * lps + i, 0);
    if (p + 1 < c->pp) {
        snprintf(name, sizeof name, "send_fwd_mb%" PRIu64, mb);
        p2p(e, name, VET_COMM_SEND_NODE, self, neighbour(e, p + 1), mb);
    } else {
        head_pass(e, mb, 0);
    }
}

static void backward(struct emit *e, uint64_t mb)
{
    const struct tf_config *c = e->c;
    uint64_t p = e->at.p, lps = tf_layers_per_stage(c), self = tf_rank_of(c, e->at);
    uint64_t tag = tf_micro_batches(c) + mb;
    char name[96];
    if (p + 1 < c->pp) {
        snprintf(name, sizeof name, "recv_bwd_mb%" PRIu64, mb);
        p2p(e, name, VET_COMM_RECV_NODE, neighbour(e, p + 1), self, tag);
    } else {
        head_pass(e, mb, 1);
    }
    uint64_t per_bucket = lps / c->dp_buckets;
    int last_mb = mb + 1 == tf_micro_batches(c);
    for (uint64_t i = lps; i-- > 0;) {
        layer_pass(e, mb, p * lps + i, 1);
        if (last_mb && i > 0 && i % per_bucket == 0)
            dp_bucket(e, (lps - i) / per_bucket - 1);
    }
    if (p > 0) {
        snprintf(name, sizeof name, "send_bwd_mb%" PRIu64, mb);
        p2p(e, name, VET_COMM_SEND_NODE, self, neighbour(e, p - 1), tag);
    }
    /* The stage's first layers close the last bucket, issued after the
     * send: the previous stage waits for that message, not for the bucket. */
    if (last_mb)
        dp_bucket(e, c->dp_buckets - 1);
}

/* Adam, once the backward pass and the last DP bucket are done. */
static void step(struct emit *e)
{
    start(e, "optimizer_step", VET_COMP_NODE);
    if (e->has_bucket)
        vet_builder_add_data_dep(e->b, e->last_bucket);
    comp_attrs(e, tf_optimizer(e->c, tf_rank_params(e->c, e->at.p)));
    finish(e, 1);
}

/* GPipe: all forwards, then all backwards. 1F1B (PipeDream-Flush, as
 * Megatron-LM): stage p first runs min(P-1-p, M) warm-up forwards, then
 * alternates one forward and one backward, then drains the backwards, so
 * at most P-p micro-batches are in flight on it. */
static void schedule(struct emit *e)
{
    uint64_t mbs = tf_micro_batches(e->c);
    uint64_t warmup = e->c->pp - 1 - e->at.p;
    if (e->c->gpipe || warmup > mbs)
        warmup = mbs;
    uint64_t fwd = 0, bwd = 0;
    while (fwd < warmup && !e->failed)
        forward(e, fwd++);
    while (fwd < mbs && !e->failed) {
        forward(e, fwd++);
        backward(e, bwd++);
    }
    while (bwd < mbs && !e->failed)
        backward(e, bwd++);
}

int tf_write_rank(const struct tf_config *c, uint64_t rank, const char *path, vet_builder *b, vet_error *err)
{
    vet_writer *w = vet_writer_open(path, err);
    if (!w)
        return -1;
    struct emit e = {.c = c, .at = tf_coords_of(c, rank), .w = w, .b = b, .err = err};
    vet_metadata md = {.version = "0.0.4"};
    e.failed = vet_writer_put_metadata(w, &md, err) != 0;
    schedule(&e);
    if (!e.failed)
        step(&e);
    vet_error close_err;
    int closed = vet_writer_close(w, &close_err);
    if (!e.failed && closed != 0) {
        *err = close_err;
        return -1;
    }
    return e.failed ? -1 : 0;
}

static void write_group(FILE *f, uint64_t id, int *first, uint64_t n, uint64_t first_rank, uint64_t stride)
{
    fprintf(f, "%s\n  \"%" PRIu64 "\": [", *first ? "" : ",", id);
    for (uint64_t i = 0; i < n; i++)
        fprintf(f, "%s%" PRIu64, i ? ", " : "", first_rank + i * stride);
    fputc(']', f);
    *first = 0;
}

int tf_write_groups(const struct tf_config *c, const char *path, vet_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    int first = 1;
    fputc('{', f);
    for (uint64_t p = 0; p < c->pp; p++)
        for (uint64_t d = 0; d < c->dp; d++)
            if (tf_tp_group(c, d, p) != 0)
                write_group(f, tf_tp_group(c, d, p), &first, c->tp, tf_rank_of(c, (struct tf_coords){0, d, p}), 1);
    for (uint64_t p = 0; p < c->pp; p++)
        for (uint64_t t = 0; t < c->tp; t++)
            if (tf_dp_group(c, t, p) != 0)
                write_group(f, tf_dp_group(c, t, p), &first, c->dp, tf_rank_of(c, (struct tf_coords){t, 0, p}),
                            c->tp);
    fputs(first ? "}\n" : "\n}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
