/* One training iteration per rank, GPipe or 1F1B (docs/transformer.md,
 * "Schedule"). Nodes are encoded straight to protobuf bytes (tf_pb.h) into
 * one output buffer written in large blocks: memory stays one buffer
 * whatever the model, and a 1024-rank GPT-3 writes in about a second. */
#include "transformer/tf_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transformer/tf_kernels.h"
#include "transformer/tf_memory.h"
#include "transformer/tf_moe.h"
#include "transformer/tf_pb.h"

#define OUT_BUF_BYTES (1u << 20)
/* The TP collectives one compute node overlaps: a reduce-scatter and an
 * all-gather. */
#define MAX_SIDE_COLLS 2
#define NO_GATHER UINT64_MAX

/* A node name assembled from literals and numbers (snprintf per node was
 * a noticeable share of the time). Names stay far below the size: the
 * longest is a prefix, two numbers under 2^24 and a suffix. */
struct name {
    char s[128];
    size_t n;
};

static void name_add(struct name *nm, const char *s)
{
    size_t len = strlen(s);
    if (len > sizeof nm->s - 1 - nm->n)
        len = sizeof nm->s - 1 - nm->n;
    memcpy(nm->s + nm->n, s, len);
    nm->n += len;
    nm->s[nm->n] = '\0';
}

static void name_num(struct name *nm, uint64_t v)
{
    char digits[24];
    size_t k = sizeof digits;
    digits[--k] = '\0';
    do {
        digits[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    name_add(nm, digits + k);
}

static void name_set(struct name *nm, const char *s)
{
    nm->n = 0;
    nm->s[0] = '\0';
    name_add(nm, s);
}

/* One operator's figures on this rank, its roofline duration computed once. */
struct op {
    struct tf_cost cost;
    uint64_t micros;
};

/* The rank being written. The nodes form one chain (each depends on the
 * previous one) except SENDs and DP buckets, which hang off the chain: the
 * rank computes on while they travel. */
struct emit {
    const struct tf_config *c;
    struct tf_coords at;
    uint64_t self;
    struct op attn[2], mlp[2], head[2]; /* [0] forward, [1] backward */
    struct op attn_core;                /* the attention core's forward (selective recomputation) */
    uint64_t act_bytes, tp_group, dp_group;
    uint64_t p2p_bytes; /* a pipeline message: the activation, or its 1/T */
    int p2p_gather;     /* a received message is all-gathered over TP (scatter-gather) */
    char tp_pg[24], dp_pg[24];
    FILE *fp;
    const char *path;
    uint8_t *buf;
    size_t used;
    struct tf_pb_node rec;
    vet_error *err;
    uint64_t next_id;
    uint64_t last;
    int has_last;
    uint64_t side[MAX_SIDE_COLLS]; /* overlapped TP collectives the next node waits for */
    size_t n_side;
    uint64_t before_comp; /* the chain's last node before the compute node just written */
    int has_before_comp;
    uint64_t gate;        /* a parameter all-gather the next node waits for, when has_gate */
    int has_gate;
    uint64_t *gather;     /* [layer of the stage, chunk-major]: the all-gather its first forward waits
                           * for, or NO_GATHER (--overlap-param-gather) */
    /* --tensors: what the next compute node writes (io_out) or reads, as
     * name and size strings in turn */
    const char *io_vals[4];
    size_t io_n;
    int io_out;
    char io_name[2][48], io_size[2][24];
    uint64_t last_bucket; /* the DP bucket issued last, when has_bucket */
    int has_bucket;
    uint64_t bucket_params; /* gradients computed since the chunk's last bucket */
    uint64_t bucket_index;  /* the next bucket's number within its chunk */
    /* mixture of experts (c->moe.experts > 0) */
    uint64_t ep_group, edp_group;
    char ep_pg[24], edp_pg[24];
    uint64_t a2a_bytes;     /* a dispatch or combine all-to-all */
    struct op router[2];
    struct op *experts;     /* [2 * the layer's index in the stage + backward]: the local experts */
    int failed;
};

static void flush(struct emit *e)
{
    if (e->failed || e->used == 0)
        return;
    if (fwrite(e->buf, 1, e->used, e->fp) != e->used) {
        snprintf(e->err->msg, sizeof e->err->msg, "%s: write failed: %s", e->path, strerror(errno));
        e->failed = 1;
    }
    e->used = 0;
}

/* Starts the next node: its parent on the chain, then `extra` when not
 * NULL, then the TP collectives that ran beside the chain's last compute
 * node (--tp-comm-overlap), which the next node waits for too. */
static void start(struct emit *e, const struct name *nm, enum vet_node_type type, uint64_t micros,
                  const uint64_t *extra)
{
    uint64_t deps[3 + MAX_SIDE_COLLS];
    size_t n = 0;
    if (e->has_last)
        deps[n++] = e->last;
    if (extra)
        deps[n++] = *extra;
    for (size_t i = 0; i < e->n_side; i++)
        deps[n++] = e->side[i];
    e->n_side = 0;
    if (e->has_gate)
        deps[n++] = e->gate;
    e->has_gate = 0;
    tf_pb_node_start(&e->rec, e->next_id, nm->s, nm->n, (int)type, deps, n, micros);
    tf_pb_attr_bool(&e->rec, "is_cpu_op", 0);
}

/* Writes the node being built; `on_chain` makes it the next node's parent. */
static void finish(struct emit *e, int on_chain)
{
    if (e->failed)
        return;
    if (OUT_BUF_BYTES - e->used < TF_PB_RECORD_MAX)
        flush(e);
    e->used += tf_pb_frame(&e->rec, e->buf + e->used);
    if (on_chain) {
        e->last = e->next_id;
        e->has_last = 1;
    }
    e->next_id++;
}

static void comp_attrs(struct emit *e, struct tf_cost cost)
{
    tf_pb_attr_int64(&e->rec, "num_ops", (int64_t)cost.flops);
    tf_pb_attr_uint64(&e->rec, "tensor_size", cost.bytes);
}

/* A compute node on the chain; `recomputed`: a forward computed again for
 * its backward, whose FLOPs are hardware FLOPs, not the model's (vimana
 * --breakdown's MFU leaves them out). */
/* --tensors: the next compute node writes (`out`) or reads tensor
 * "<prefix><mb>[<infix><n>]" of `bytes`; a second call adds a second one. */
static void io_tensor(struct emit *e, int out, const char *prefix, uint64_t mb, const char *infix, uint64_t n,
                      uint64_t bytes)
{
    size_t k = e->io_n / 2;
    if (!e->c->tensors || k >= 2)
        return;
    if (infix)
        snprintf(e->io_name[k], sizeof e->io_name[k], "%s%" PRIu64 "%s%" PRIu64, prefix, mb, infix, n);
    else
        snprintf(e->io_name[k], sizeof e->io_name[k], "%s%" PRIu64, prefix, mb);
    snprintf(e->io_size[k], sizeof e->io_size[k], "%" PRIu64, bytes);
    e->io_vals[e->io_n++] = e->io_name[k];
    e->io_vals[e->io_n++] = e->io_size[k];
    e->io_out = out;
}

static void io_attrs(struct emit *e)
{
    if (e->io_n == 0)
        return;
    tf_pb_attr_string_list(&e->rec, e->io_out ? "outputs" : "inputs", e->io_vals, e->io_n);
    e->io_n = 0;
}

static void comp_node(struct emit *e, const struct name *nm, const struct op *op, int recomputed)
{
    e->before_comp = e->last;
    e->has_before_comp = e->has_last;
    start(e, nm, VET_COMP_NODE, op->micros, NULL);
    comp_attrs(e, op->cost);
    if (recomputed)
        tf_pb_attr_bool(&e->rec, "is_recomputation", 1);
    io_attrs(e);
    finish(e, 1);
}

static void comp(struct emit *e, const struct name *nm, const struct op *op)
{
    comp_node(e, nm, op, 0);
}

static void recomputation(struct emit *e, const struct name *nm, const struct op *op)
{
    comp_node(e, nm, op, 1);
}

static void coll_attrs(struct emit *e, int64_t type, uint64_t size, const char *pg)
{
    tf_pb_attr_int64(&e->rec, "comm_type", type);
    tf_pb_attr_int64(&e->rec, "comm_size", (int64_t)size);
    tf_pb_attr_string(&e->rec, "pg_name", pg);
}

static void coll(struct emit *e, const struct name *nm, int64_t type, uint64_t size, const char *pg)
{
    start(e, nm, VET_COMM_COLL_NODE, 0, NULL);
    coll_attrs(e, type, size, pg);
    finish(e, 1);
}

/* A TP collective overlapped with the compute node just written
 * (Transformer Engine's userbuffers, --tp-comm-overlap): it starts with
 * that node, off the chain, and the next node waits for both -- the pair
 * takes the longer of the two. */
static void side_coll(struct emit *e, const struct name *nm, int64_t type, uint64_t size, const char *pg)
{
    uint64_t deps[1] = {e->before_comp};
    uint64_t id = e->next_id;
    tf_pb_node_start(&e->rec, id, nm->s, nm->n, VET_COMM_COLL_NODE, deps, e->has_before_comp ? 1 : 0, 0);
    tf_pb_attr_bool(&e->rec, "is_cpu_op", 0);
    coll_attrs(e, type, size, pg);
    finish(e, 0);
    e->side[e->n_side++] = id;
}

/* A gradient collective off the chain, after the bucket before it (one
 * stream): an all-reduce of `params` gradients on `pg`, or with the
 * distributed optimizer a reduce-scatter. */
static void gradient_bucket(struct emit *e, const struct name *nm, uint64_t params, const char *pg)
{
    const struct tf_config *c = e->c;
    uint64_t id = e->next_id;
    start(e, nm, VET_COMM_COLL_NODE, 0, e->has_bucket ? &e->last_bucket : NULL);
    coll_attrs(e, c->dist_optimizer ? VET_REDUCE_SCATTER : VET_ALL_REDUCE, params * c->elem_bytes, pg);
    finish(e, 0);
    e->last_bucket = id;
    e->has_bucket = 1;
}

/* The next DP bucket of model chunk v, holding the gradients computed
 * since the previous one; issued off the chain as soon as they are, so the
 * backward pass goes on under it. Buckets run one after the other (one
 * communicator, one stream): each waits for the one before. An all-reduce,
 * or with the distributed optimizer a reduce-scatter. */
static void dp_bucket(struct emit *e, uint64_t v)
{
    const struct tf_config *c = e->c;
    struct name nm;
    uint64_t params = e->bucket_params;
    e->bucket_params = 0;
    if (e->dp_group == 0 || !c->overlap_grad_reduce)
        return;
    name_set(&nm, c->dist_optimizer ? "dp_reduce_scatter_grads" : "dp_all_reduce_grads");
    if (c->virtual_stages > 1) {
        name_add(&nm, "_chunk");
        name_num(&nm, v);
    }
    if (c->dp_buckets > 1 || c->dp_bucket_bytes > 0) {
        name_add(&nm, "_bucket");
        name_num(&nm, e->bucket_index);
    }
    e->bucket_index++;
    gradient_bucket(e, &nm, params, e->dp_pg);
}

/* The gradients of chunk v's local experts, reduced over the expert-DP
 * group once the chunk's backward is done, after its last DP bucket
 * (--overlap-grad-reduce; else all of them before the step). */
static void expert_bucket(struct emit *e, uint64_t v)
{
    const struct tf_config *c = e->c;
    uint64_t params = 0, lpc = tf_layers_per_chunk(c), first = tf_chunk_first_layer(c, e->at.p, v);
    for (uint64_t i = 0; i < lpc; i++)
        params += tf_layer_expert_params(c, first + i);
    if (params == 0 || e->edp_group == 0 || !c->overlap_grad_reduce)
        return;
    struct name nm;
    name_set(&nm, c->dist_optimizer ? "edp_reduce_scatter_expert_grads" : "edp_all_reduce_expert_grads");
    if (c->virtual_stages > 1) {
        name_add(&nm, "_chunk");
        name_num(&nm, v);
    }
    gradient_bucket(e, &nm, params, e->edp_pg);
}

/* Whether the bucket being filled closes once local layer i of the chunk
 * (counted from the chunk's first layer) has its gradients: every
 * L/(P*V*K) layers, or with --dp-bucket-bytes as soon as it holds that many
 * bytes (DDP's bucket_cap_mb rule, a layer being the unit). The chunk's
 * layer 0 always closes the last one. */
static int bucket_closes(const struct tf_config *c, uint64_t params, uint64_t i)
{
    if (c->dp_bucket_bytes > 0)
        return params * c->elem_bytes >= c->dp_bucket_bytes;
    return i % (tf_layers_per_chunk(c) / c->dp_buckets) == 0;
}

/* A pipeline message. With --sp the activation between stages is already
 * split along the sequence: each TP rank sends its 1/T. With the
 * scatter-gather of Megatron-LM (T > 1, no SP) each TP rank sends 1/T of
 * the replicated activation and the receiving stage all-gathers it over
 * its TP group (NVLink) before using it. */
static void p2p(struct emit *e, const struct name *nm, enum vet_node_type type, uint64_t src, uint64_t dst,
                uint64_t tag)
{
    start(e, nm, type, 0, NULL);
    tf_pb_attr_int32(&e->rec, "comm_src", (int32_t)src);
    tf_pb_attr_int32(&e->rec, "comm_dst", (int32_t)dst);
    tf_pb_attr_int32(&e->rec, "comm_tag", (int32_t)tag);
    tf_pb_attr_uint64(&e->rec, "comm_size", e->p2p_bytes);
    finish(e, type == VET_COMM_RECV_NODE);
    if (type == VET_COMM_RECV_NODE && e->p2p_gather && e->tp_group != 0) {
        struct name ag;
        name_set(&ag, "tp_all_gather_");
        name_add(&ag, nm->s);
        coll(e, &ag, VET_ALL_GATHER, e->p2p_bytes, e->tp_pg);
    }
}

/* The TP collective after a row-parallel GEMM (or its backward): one
 * all-reduce, or with --sp a reduce-scatter then an all-gather. */
static void tp_comm(struct emit *e, const struct name *what)
{
    struct name nm;
    void (*issue)(struct emit *, const struct name *, int64_t, uint64_t, const char *) =
        e->c->tp_comm_overlap ? side_coll : coll;
    if (e->tp_group == 0)
        return;
    if (!e->c->sp) {
        name_set(&nm, "tp_all_reduce_");
        name_add(&nm, what->s);
        issue(e, &nm, VET_ALL_REDUCE, e->act_bytes, e->tp_pg);
        return;
    }
    name_set(&nm, "tp_reduce_scatter_");
    name_add(&nm, what->s);
    issue(e, &nm, VET_REDUCE_SCATTER, e->act_bytes, e->tp_pg);
    /* An all-gather's comm_size is each rank's input (as Chakra and the
     * simulator read it): the rank's 1/T slice of the sequence. */
    name_set(&nm, "tp_all_gather_");
    name_add(&nm, what->s);
    issue(e, &nm, VET_ALL_GATHER, e->act_bytes / e->c->tp, e->tp_pg);
}

static uint64_t neighbour(const struct emit *e, uint64_t stage)
{
    struct tf_coords at = {e->at.t, e->at.d, stage};
    return tf_rank_of(e->c, at);
}

/* "<pass>_mb<m>_layer<l>_<part>" */
static void layer_name(struct name *nm, int backward, uint64_t mb, uint64_t layer, const char *part)
{
    name_set(nm, backward ? "bwd_mb" : "fwd_mb");
    name_num(nm, mb);
    name_add(nm, "_layer");
    name_num(nm, layer);
    name_add(nm, part);
}

static void layer_part(struct emit *e, uint64_t mb, uint64_t layer, int backward, const char *part,
                       const struct op *op)
{
    struct name nm;
    layer_name(&nm, backward, mb, layer, part);
    comp(e, &nm, op);
    tp_comm(e, &nm);
}

/* "rec_mb<m>_layer<l>_<part>": the forward again, with its TP collective. */
static void recompute_part(struct emit *e, uint64_t mb, uint64_t layer, const char *part, const struct op *op)
{
    struct name nm;
    name_set(&nm, "rec_mb");
    name_num(&nm, mb);
    name_add(&nm, "_layer");
    name_num(&nm, layer);
    name_add(&nm, part);
    recomputation(e, &nm, op);
    tp_comm(e, &nm);
}

/* "rec_mb<m>_layer<l>_attn_core": the attention core's forward again
 * (selective recomputation: its activations, the s x s scores, are the
 * ones not kept); no communication. */
static void recompute_core(struct emit *e, uint64_t mb, uint64_t layer)
{
    struct name nm;
    name_set(&nm, "rec_mb");
    name_num(&nm, mb);
    name_add(&nm, "_layer");
    name_num(&nm, layer);
    name_add(&nm, "_attn_core");
    recomputation(e, &nm, &e->attn_core);
}

/* The local experts' op of `layer`, forward or backward. */
static const struct op *expert_op(const struct emit *e, uint64_t layer, int backward)
{
    uint64_t lpc = tf_layers_per_chunk(e->c);
    uint64_t index = layer / (lpc * e->c->pp) * lpc + layer % lpc;
    return &e->experts[2 * index + (backward ? 1 : 0)];
}

/* "ep_all_to_all_<prefix><part>": tokens to their experts' ranks
 * (dispatch) or back (combine), over the EP group. */
static void moe_a2a(struct emit *e, const struct name *prefix, const char *part)
{
    struct name nm;
    if (e->ep_group == 0)
        return;
    name_set(&nm, "ep_all_to_all_");
    name_add(&nm, prefix->s);
    name_add(&nm, part);
    coll(e, &nm, VET_ALL_TO_ALL, e->a2a_bytes, e->ep_pg);
}

/* A MoE block's forward (or its recomputation) in place of the MLP: the
 * router, the dispatch, the local experts, the TP collective of their
 * row-parallel second GEMM, the combine (Megatron-Core's all-to-all
 * dispatcher reduces over TP before it sends the tokens back). */
static void moe_forward(struct emit *e, const struct name *prefix, uint64_t layer, int recomputed)
{
    struct name nm = *prefix;
    name_add(&nm, "_router");
    comp_node(e, &nm, &e->router[0], recomputed);
    moe_a2a(e, prefix, "_dispatch");
    nm = *prefix;
    name_add(&nm, "_experts");
    comp_node(e, &nm, expert_op(e, layer, 0), recomputed);
    tp_comm(e, &nm);
    moe_a2a(e, prefix, "_combine");
}

/* Its backward, in reverse: the combine's gradients to the experts, their
 * backward with its TP collective, the dispatch's gradients back, the
 * router's backward. */
static void moe_backward(struct emit *e, const struct name *prefix, uint64_t layer)
{
    struct name nm = *prefix;
    moe_a2a(e, prefix, "_combine");
    name_add(&nm, "_experts");
    comp(e, &nm, expert_op(e, layer, 1));
    tp_comm(e, &nm);
    moe_a2a(e, prefix, "_dispatch");
    nm = *prefix;
    name_add(&nm, "_router");
    comp(e, &nm, &e->router[1]);
}

/* The MLP or MoE block of `layer`: forward, backward, or the forward
 * recomputed (full recomputation). */
static void mlp_block(struct emit *e, uint64_t mb, uint64_t layer, int backward, int recomputed)
{
    struct name prefix;
    if (!tf_is_moe_layer(e->c, layer)) {
        if (recomputed)
            recompute_part(e, mb, layer, "_mlp", &e->mlp[0]);
        else
            layer_part(e, mb, layer, backward, "_mlp", &e->mlp[backward ? 1 : 0]);
        return;
    }
    if (recomputed) {
        name_set(&prefix, "rec_mb");
        name_num(&prefix, mb);
        name_add(&prefix, "_layer");
        name_num(&prefix, layer);
    } else {
        layer_name(&prefix, backward, mb, layer, "");
    }
    if (backward && !recomputed)
        moe_backward(e, &prefix, layer);
    else
        moe_forward(e, &prefix, layer, recomputed);
}

static void layer_pass(struct emit *e, uint64_t mb, uint64_t layer, int backward)
{
    if (backward && e->c->recompute == TF_RECOMPUTE_FULL) {
        recompute_part(e, mb, layer, "_attn", &e->attn[0]);
        mlp_block(e, mb, layer, 0, 1);
    }
    if (backward && e->c->recompute == TF_RECOMPUTE_SELECTIVE)
        recompute_core(e, mb, layer);
    /* --tensors: the layer's kept activations (tf_memory.h), written from
     * its forward's start, read until its backward's end; on the first
     * layer of the model also the embedding's dropout mask */
    uint64_t act = e->c->tensors ? tf_layer_activations_of(e->c, layer) : 0;
    if (!backward) {
        io_tensor(e, 1, "act_mb", mb, "_layer", layer, act);
        if (layer == 0)
            io_tensor(e, 1, "embed_mask_mb", mb, NULL, 0, tf_embed_mask_bytes(e->c));
        layer_part(e, mb, layer, 0, "_attn", &e->attn[0]);
        mlp_block(e, mb, layer, 0, 0);
    } else {
        mlp_block(e, mb, layer, 1, 0);
        io_tensor(e, 0, "act_mb", mb, "_layer", layer, act);
        if (layer == 0)
            io_tensor(e, 0, "embed_mask_mb", mb, NULL, 0, tf_embed_mask_bytes(e->c));
        layer_part(e, mb, layer, 1, "_attn", &e->attn[1]);
    }
}

/* The vocabulary-parallel cross-entropy after the forward LM head:
 * all-reduces of the logits' maximum, the target's logit and the sum of
 * the exponentials over TP (its backward needs no communication). */
static void cross_entropy(struct emit *e, uint64_t mb)
{
    static const char *const parts[] = {"_xent_max", "_xent_target", "_xent_sum"};
    struct name nm;
    if (!e->c->tp_cross_entropy || e->tp_group == 0)
        return;
    for (size_t i = 0; i < 3; i++) {
        name_set(&nm, "tp_all_reduce_fwd_mb");
        name_num(&nm, mb);
        name_add(&nm, parts[i]);
        coll(e, &nm, VET_ALL_REDUCE, tf_cross_entropy_bytes(e->c), e->tp_pg);
    }
}

static void head_pass(struct emit *e, uint64_t mb, int backward)
{
    struct name nm;
    name_set(&nm, backward ? "bwd_mb" : "fwd_mb");
    name_num(&nm, mb);
    name_add(&nm, "_lm_head");
    /* --tensors: the fp32 logits, from the head's forward to its backward */
    io_tensor(e, !backward, "logits_mb", mb, NULL, 0, tf_logits_bytes(e->c));
    comp(e, &nm, &e->head[backward]);
    if (!backward)
        cross_entropy(e, mb);
}

/* "<what><m>", plus "_chunk<v>" when interleaving. */
static void p2p_name(struct emit *e, struct name *nm, const char *what, uint64_t mb, uint64_t v)
{
    name_set(nm, what);
    name_num(nm, mb);
    if (e->c->virtual_stages > 1) {
        name_add(nm, "_chunk");
        name_num(nm, v);
    }
}

/* The tag of a message sent by model chunk v: forward 2*M*v + m, backward
 * 2*M*v + M + m (m and M + m without interleaving), so a sender never
 * reuses one. */
static uint64_t tag_of(const struct emit *e, uint64_t v, uint64_t mb, int backward)
{
    uint64_t mbs = tf_micro_batches(e->c);
    return 2 * mbs * v + (backward ? mbs : 0) + mb;
}

static int is_last_virtual(const struct emit *e, uint64_t v)
{
    return e->at.p + 1 == e->c->pp && v + 1 == e->c->virtual_stages;
}

/* Forward of chunk v (virtual stage v*P + p): receive from the previous
 * virtual stage (stage p-1, or the last stage's chunk v-1 when p = 0), run
 * the chunk's layers, send to the next virtual stage (or run the LM head on
 * the last one). */
static void forward(struct emit *e, uint64_t mb, uint64_t v)
{
    const struct tf_config *c = e->c;
    uint64_t p = e->at.p, lpc = tf_layers_per_chunk(c), first = tf_chunk_first_layer(c, p, v);
    struct name nm;
    if (p > 0 || v > 0) {
        p2p_name(e, &nm, "recv_fwd_mb", mb, v);
        p2p(e, &nm, VET_COMM_RECV_NODE, neighbour(e, p > 0 ? p - 1 : c->pp - 1), e->self,
            tag_of(e, p > 0 ? v : v - 1, mb, 0));
    }
    for (uint64_t i = 0; i < lpc; i++) {
        uint64_t gather = e->gather && mb == 0 ? e->gather[v * lpc + i] : NO_GATHER;
        if (gather != NO_GATHER) {
            e->gate = gather;
            e->has_gate = 1;
        }
        layer_pass(e, mb, first + i, 0);
    }
    if (!is_last_virtual(e, v)) {
        p2p_name(e, &nm, "send_fwd_mb", mb, v);
        p2p(e, &nm, VET_COMM_SEND_NODE, e->self, neighbour(e, p + 1 < c->pp ? p + 1 : 0), tag_of(e, v, mb, 0));
    } else {
        head_pass(e, mb, 0);
    }
}

static void backward(struct emit *e, uint64_t mb, uint64_t v)
{
    const struct tf_config *c = e->c;
    uint64_t p = e->at.p, lpc = tf_layers_per_chunk(c), first = tf_chunk_first_layer(c, p, v);
    struct name nm;
    if (!is_last_virtual(e, v)) {
        p2p_name(e, &nm, "recv_bwd_mb", mb, v);
        p2p(e, &nm, VET_COMM_RECV_NODE, neighbour(e, p + 1 < c->pp ? p + 1 : 0), e->self,
            tag_of(e, p + 1 < c->pp ? v : v + 1, mb, 1));
    } else {
        head_pass(e, mb, 1);
    }
    /* The last micro-batch's backward completes the chunk's gradients:
     * the LM head's first (last virtual stage), then layer by layer
     * downwards, the embedding's last (first virtual stage). */
    int last_mb = mb + 1 == tf_micro_batches(c);
    if (last_mb) {
        e->bucket_params = is_last_virtual(e, v) ? tf_vocab_params(c) : 0;
        e->bucket_index = 0;
    }
    for (uint64_t i = lpc; i-- > 0;) {
        layer_pass(e, mb, first + i, 1);
        if (!last_mb)
            continue;
        e->bucket_params += tf_layer_dp_params(c, first + i);
        if (i > 0 && bucket_closes(c, e->bucket_params, i))
            dp_bucket(e, v);
    }
    if (p > 0 || v > 0) {
        p2p_name(e, &nm, "send_bwd_mb", mb, v);
        p2p(e, &nm, VET_COMM_SEND_NODE, e->self, neighbour(e, p > 0 ? p - 1 : c->pp - 1), tag_of(e, v, mb, 1));
    }
    /* The chunk's first layers close its last bucket, issued after the
     * send: the previous stage waits for that message, not for the bucket. */
    if (last_mb) {
        if (p == 0 && v == 0)
            e->bucket_params += tf_vocab_params(c);
        dp_bucket(e, v);
        expert_bucket(e, v);
    }
}

/* Adam, once the backward pass and the last DP bucket are done; with the
 * distributed optimizer on the rank's 1/D shard, followed by the all-gather
 * that gives every DP rank all the updated parameters again. */
static void step(struct emit *e)
{
    const struct tf_config *c = e->c;
    struct name nm;
    struct tf_cost cost = tf_optimizer(c, tf_optimizer_params(c, e->at.p));
    /* Without --overlap-grad-reduce the gradients are reduced once the
     * backward pass is over, all of the rank's in one collective on the
     * chain (Megatron-LM's finalize_model_grads). */
    uint64_t experts = tf_rank_expert_params(c, e->at.p), dense = tf_rank_params(c, e->at.p) - experts;
    if (!c->overlap_grad_reduce && e->dp_group != 0) {
        name_set(&nm, c->dist_optimizer ? "dp_reduce_scatter_grads" : "dp_all_reduce_grads");
        coll(e, &nm, c->dist_optimizer ? VET_REDUCE_SCATTER : VET_ALL_REDUCE, dense * c->elem_bytes, e->dp_pg);
    }
    if (!c->overlap_grad_reduce && e->edp_group != 0 && experts > 0) {
        name_set(&nm, c->dist_optimizer ? "edp_reduce_scatter_expert_grads" : "edp_all_reduce_expert_grads");
        coll(e, &nm, c->dist_optimizer ? VET_REDUCE_SCATTER : VET_ALL_REDUCE, experts * c->elem_bytes, e->edp_pg);
    }
    name_set(&nm, "optimizer_step");
    start(e, &nm, VET_COMP_NODE, tf_op_micros(c, TF_OPTIMIZER, cost), e->has_bucket ? &e->last_bucket : NULL);
    comp_attrs(e, cost);
    /* --tensors: parameters, gradients and optimizer states, held from the
     * start (never written here) to the step's end */
    if (c->tensors) {
        struct tf_memory m;
        tf_memory_of(c, e->at.p, &m);
        m.activations = 0;
        uint64_t state = tf_memory_total(&m);
        char size[24];
        snprintf(size, sizeof size, "%" PRIu64, state);
        const char *vals[2] = {"model_state", size};
        tf_pb_attr_string_list(&e->rec, "inputs", vals, 2);
    }
    finish(e, 1);
    if (c->dist_optimizer && e->dp_group != 0 && !e->gather) {
        name_set(&nm, "dp_all_gather_params");
        /* Each DP rank contributes its updated shard (the all-gather's
         * input); the output is the rank's whole parameters again. */
        coll(e, &nm, VET_ALL_GATHER, (dense + c->dp - 1) / c->dp * c->elem_bytes, e->dp_pg);
    }
    if (c->dist_optimizer && e->edp_group != 0 && experts > 0) {
        /* the experts' shards, over the expert-DP group (after the step
         * even with --overlap-param-gather) */
        uint64_t edp = c->dp / c->moe.ep;
        name_set(&nm, "edp_all_gather_expert_params");
        coll(e, &nm, VET_ALL_GATHER, (experts + edp - 1) / edp * c->elem_bytes, e->edp_pg);
    }
}

/* The buckets of model chunk v, as the backward pass closes them (see
 * backward(): the LM head's gradients first on the last virtual stage,
 * then layer by layer down, the embedding's into the last): the
 * parameters of each, last bucket first in forward order, and for each
 * local layer its bucket. Returns the bucket count. */
static uint64_t chunk_buckets(const struct emit *e, uint64_t v, uint64_t *params, uint64_t *bucket_of)
{
    const struct tf_config *c = e->c;
    uint64_t lpc = tf_layers_per_chunk(c), k = 0;
    uint64_t acc = is_last_virtual(e, v) ? tf_vocab_params(c) : 0;
    uint64_t first = tf_chunk_first_layer(c, e->at.p, v);
    for (uint64_t i = lpc; i-- > 0;) {
        acc += tf_layer_dp_params(c, first + i);
        bucket_of[i] = k;
        if (i > 0 && bucket_closes(c, acc, i)) {
            params[k++] = acc;
            acc = 0;
        }
    }
    if (e->at.p == 0 && v == 0)
        acc += tf_vocab_params(c);
    params[k++] = acc;
    return k;
}

/* --overlap-param-gather (with --dist-optimizer): the all-gathers of the
 * updated parameters run at the start of the iteration, bucket by bucket
 * in forward order (each after the one before: one communicator), and the
 * first forward of a bucket's first layer waits for it; the forward of the
 * layers before goes on under the rest (Megatron-LM gathers the next
 * iteration's parameters this way). Each rank gives its shard of the
 * bucket, ceil(params / D). */
static int gather_params_early(struct emit *e)
{
    const struct tf_config *c = e->c;
    uint64_t lpc = tf_layers_per_chunk(c), n = lpc * c->virtual_stages;
    uint64_t *params = malloc((lpc + 1) * sizeof *params), *bucket_of = malloc(lpc * sizeof *bucket_of);
    e->gather = malloc(n * sizeof *e->gather);
    if (!params || !bucket_of || !e->gather) {
        free(params);
        free(bucket_of);
        snprintf(e->err->msg, sizeof e->err->msg, "out of memory");
        return -1;
    }
    uint64_t prev = 0;
    int has_prev = 0;
    for (uint64_t v = 0; v < c->virtual_stages; v++) {
        uint64_t buckets = chunk_buckets(e, v, params, bucket_of);
        for (uint64_t i = 0; i < lpc; i++)
            e->gather[v * lpc + i] = NO_GATHER;
        for (uint64_t k = buckets; k-- > 0;) {
            struct name nm;
            name_set(&nm, "dp_all_gather_params");
            if (c->virtual_stages > 1) {
                name_add(&nm, "_chunk");
                name_num(&nm, v);
            }
            if (buckets > 1) {
                name_add(&nm, "_bucket");
                name_num(&nm, k);
            }
            uint64_t id = e->next_id;
            tf_pb_node_start(&e->rec, id, nm.s, nm.n, VET_COMM_COLL_NODE, &prev, has_prev ? 1 : 0, 0);
            tf_pb_attr_bool(&e->rec, "is_cpu_op", 0);
            coll_attrs(e, VET_ALL_GATHER, (params[k] + c->dp - 1) / c->dp * c->elem_bytes, e->dp_pg);
            finish(e, 0);
            prev = id;
            has_prev = 1;
            /* the bucket's first layer in forward order: its lowest */
            for (uint64_t i = 0; i < lpc; i++) {
                if (bucket_of[i] == k) {
                    e->gather[v * lpc + i] = id;
                    break;
                }
            }
        }
    }
    free(params);
    free(bucket_of);
    return 0;
}

/* Virtual micro-batch k of the interleaved order (Megatron-LM): groups of
 * P micro-batches go through chunk 0, then chunk 1, ... (backwards: chunk
 * V-1 first); without interleaving k is the micro-batch. */
static void virtual_mb(const struct tf_config *c, uint64_t k, int backward, uint64_t *mb, uint64_t *v)
{
    uint64_t group = c->pp * c->virtual_stages, in_group = k % group;
    if (c->virtual_stages == 1) {
        *mb = k;
        *v = 0;
        return;
    }
    *mb = k / group * c->pp + in_group % c->pp;
    *v = in_group / c->pp;
    if (backward)
        *v = c->virtual_stages - 1 - *v;
}

static void run_forward(struct emit *e, uint64_t k)
{
    uint64_t mb, v;
    virtual_mb(e->c, k, 0, &mb, &v);
    forward(e, mb, v);
}

static void run_backward(struct emit *e, uint64_t k)
{
    uint64_t mb, v;
    virtual_mb(e->c, k, 1, &mb, &v);
    backward(e, mb, v);
}

/* The warm-up forwards, then one forward and one backward in turn, then
 * the remaining backwards, over the V*M virtual micro-batches. */
static void schedule(struct emit *e)
{
    uint64_t total = tf_micro_batches(e->c) * e->c->virtual_stages;
    uint64_t warmup = tf_warmup(e->c, e->at.p);
    uint64_t fwd = 0, bwd = 0;
    while (fwd < warmup && !e->failed)
        run_forward(e, fwd++);
    while (fwd < total && !e->failed) {
        run_forward(e, fwd++);
        run_backward(e, bwd++);
    }
    while (bwd < total && !e->failed)
        run_backward(e, bwd++);
}

/* The forward (times 1) or backward (times 2) of an operator. */
static struct op op_of(const struct tf_config *c, struct tf_cost fwd, unsigned times, enum tf_op_kind kind)
{
    struct tf_cost cost = {times * fwd.flops, times * fwd.bytes};
    struct op op = {cost, tf_op_micros(c, kind, cost)};
    return op;
}

/* Everything that is the same for all nodes of the rank. */
static void prepare(struct emit *e, const struct tf_config *c, uint64_t rank)
{
    e->c = c;
    e->self = rank;
    e->at = tf_coords_of(c, rank);
    for (unsigned k = 0; k < 2; k++) {
        e->attn[k] = op_of(c, tf_attn_fwd(c), k + 1, k ? TF_ATTN_BWD : TF_ATTN_FWD);
        e->mlp[k] = op_of(c, tf_mlp_fwd(c), k + 1, k ? TF_MLP_BWD : TF_MLP_FWD);
        e->head[k] = op_of(c, tf_head_fwd(c), k + 1, k ? TF_HEAD_BWD : TF_HEAD_FWD);
    }
    e->attn_core = op_of(c, tf_attn_core_fwd(c), 1, TF_ATTN_CORE);
    e->act_bytes = tf_activation_bytes(c);
    e->p2p_gather = !c->sp && c->pp_scatter_gather && c->tp > 1;
    e->p2p_bytes = c->sp || e->p2p_gather ? e->act_bytes / c->tp : e->act_bytes;
    e->tp_group = tf_tp_group(c, e->at.d, e->at.p);
    e->dp_group = tf_dp_group(c, e->at.t, e->at.p);
    snprintf(e->tp_pg, sizeof e->tp_pg, "%" PRIu64, e->tp_group);
    snprintf(e->dp_pg, sizeof e->dp_pg, "%" PRIu64, e->dp_group);
}

/* A MoE op from its forward cost: the roofline's, or the kernel model's
 * `seconds` (--durations does not reach the MoE blocks). */
static struct op moe_op(const struct tf_config *c, struct tf_cost fwd, unsigned times, double seconds)
{
    struct tf_cost cost = {times * fwd.flops, times * fwd.bytes};
    struct op op = {cost, c->compute_model == TF_COMPUTE_ROOFLINE ? tf_duration_micros(c, cost)
                                                                  : tf_kernels_micros(seconds)};
    return op;
}

/* The rank's MoE figures: its EP and expert-DP groups, the all-to-all
 * size, the router, and each MoE layer's local experts under that layer's
 * loads (tf_moe.h). */
static int prepare_moe(struct emit *e)
{
    const struct tf_config *c = e->c;
    if (c->moe.experts == 0)
        return 0;
    e->ep_group = tf_ep_group(c, e->at);
    e->edp_group = tf_edp_group(c, e->at);
    snprintf(e->ep_pg, sizeof e->ep_pg, "%" PRIu64, e->ep_group);
    snprintf(e->edp_pg, sizeof e->edp_pg, "%" PRIu64, e->edp_group);
    e->a2a_bytes = tf_moe_a2a_bytes(c);
    for (unsigned k = 0; k < 2; k++)
        e->router[k] = moe_op(c, tf_router_fwd(c), k + 1, tf_kernels_router(c, (int)k));
    uint64_t lpc = tf_layers_per_chunk(c), n = lpc * c->virtual_stages;
    uint64_t ep_index = e->at.d % c->moe.ep, first = tf_moe_first_expert(c, ep_index);
    uint64_t *loads = malloc(c->moe.experts * sizeof *loads);
    void *scratch = malloc(tf_moe_scratch_bytes(c));
    e->experts = malloc(2 * n * sizeof *e->experts);
    if (!loads || !scratch || !e->experts) {
        free(loads);
        free(scratch);
        snprintf(e->err->msg, sizeof e->err->msg, "out of memory");
        return -1;
    }
    for (uint64_t v = 0; v < c->virtual_stages; v++) {
        for (uint64_t i = 0; i < lpc; i++) {
            uint64_t layer = tf_chunk_first_layer(c, e->at.p, v) + i;
            if (!tf_is_moe_layer(c, layer))
                continue;
            tf_moe_loads(c, layer, loads, scratch);
            struct tf_cost fwd = tf_experts_fwd(c, loads, ep_index);
            for (unsigned k = 0; k < 2; k++)
                e->experts[2 * (v * lpc + i) + k] =
                    moe_op(c, fwd, k + 1, tf_kernels_experts(c, loads, first, tf_moe_local_experts(c), (int)k));
        }
    }
    free(loads);
    free(scratch);
    return 0;
}

static int put_metadata(struct emit *e)
{
    vet_metadata md = {.version = "0.0.4"};
    uint8_t *bytes;
    size_t len;
    if (vet_encode_metadata(&md, &bytes, &len) != 0) {
        snprintf(e->err->msg, sizeof e->err->msg, "out of memory");
        return -1;
    }
    struct tf_pb_node rec;
    rec.n = len;
    memcpy(rec.b, bytes, len);
    free(bytes);
    e->used += tf_pb_frame(&rec, e->buf + e->used);
    return 0;
}

int tf_write_rank(const struct tf_config *c, uint64_t rank, const char *path, uint8_t *buf, vet_error *err)
{
    struct emit e = {.path = path, .buf = buf, .err = err};
    prepare(&e, c, rank);
    errno = 0;
    e.fp = fopen(path, "wb");
    if (!e.fp) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, errno ? strerror(errno) : "unknown error");
        return -1;
    }
    e.failed = put_metadata(&e) != 0 || prepare_moe(&e) != 0;
    if (!e.failed && c->dist_optimizer && c->overlap_param_gather && e.dp_group != 0)
        e.failed = gather_params_early(&e) != 0;
    schedule(&e);
    if (!e.failed)
        step(&e);
    flush(&e);
    free(e.gather);
    free(e.experts);
    if (fclose(e.fp) != 0 && !e.failed) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return e.failed ? -1 : 0;
}

uint8_t *tf_write_buffer_new(void)
{
    return malloc(OUT_BUF_BYTES);
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
    /* EP groups, one per (t, d / EP, p), then expert-DP ones per (t, d % EP, p) */
    uint64_t ep = c->moe.experts ? c->moe.ep : 1;
    for (uint64_t p = 0; p < c->pp && ep > 1; p++)
        for (uint64_t k = 0; k < c->dp / ep; k++)
            for (uint64_t t = 0; t < c->tp; t++) {
                struct tf_coords at = {t, k * ep, p};
                write_group(f, tf_ep_group(c, at), &first, ep, tf_rank_of(c, at), c->tp);
            }
    for (uint64_t p = 0; p < c->pp && ep > 1 && c->dp / ep > 1; p++)
        for (uint64_t j = 0; j < ep; j++)
            for (uint64_t t = 0; t < c->tp; t++) {
                struct tf_coords at = {t, j, p};
                write_group(f, tf_edp_group(c, at), &first, c->dp / ep, tf_rank_of(c, at), c->tp * ep);
            }
    fputs(first ? "}\n" : "\n}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}

int tf_write_roles(const struct tf_config *c, const char *path, const char *stem, vet_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    uint64_t per_stage = c->tp * c->dp;
    fprintf(f, "{\n  \"format\": \"vimana-roles\",\n  \"version\": 1,\n  \"npus\": %" PRIu64 ",\n  \"roles\": [",
            tf_ranks(c));
    for (uint64_t p = 0; p < c->pp; p++) {
        uint64_t first = tf_rank_of(c, (struct tf_coords){0, 0, p});
        fprintf(f, "%s\n    {\"trace\": \"%s.stage%" PRIu64 ".et\", \"rank\": %" PRIu64 ", \"ranks\": [[%" PRIu64
                   ", %" PRIu64 "]]}", p ? "," : "", stem, p, first, first, first + per_stage - 1);
    }
    fputs("\n  ]\n}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
