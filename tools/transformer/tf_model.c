/* The transformer's closed forms (docs/transformer.md, "Formulas"). */
#include "transformer/tf_model.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_RANKS 1000000u

static int not_divisible(char *msg, size_t len, const char *flag, uint64_t v, const char *by, uint64_t d)
{
    snprintf(msg, len, "%s: %" PRIu64 " is not divisible by %s %" PRIu64, flag, v, by, d);
    return -1;
}

/* a * b into *acc, false on 64-bit overflow; chains through `ok`. */
static uint64_t mul(uint64_t a, uint64_t b, bool *ok)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        *ok = false;
    return r;
}

static uint64_t add(uint64_t a, uint64_t b, bool *ok)
{
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r))
        *ok = false;
    return r;
}

/* The largest figures the generator computes (the iteration's FLOPs and
 * the optimizer's bytes) must fit 64 bits; every other one is smaller. */
static bool figures_fit(const struct tf_config *c)
{
    bool ok = true;
    uint64_t s = c->seq, h = c->hidden;
    uint64_t layer = add(add(mul(8 * s, mul(h, h, &ok), &ok), mul(4 * s, mul(s, h, &ok), &ok), &ok),
                         mul(4 * s, mul(h, c->ffn, &ok), &ok), &ok);
    uint64_t sample = add(mul(c->layers, layer, &ok), mul(2 * s, mul(h, c->vocab, &ok), &ok), &ok);
    /* one data-parallel replica's iteration: every rank's sums are a part
     * of it (the whole cluster's, 6 x 405e9 x 16M tokens for a Llama-3
     * step, need not fit) */
    mul(3, mul(c->global_batch / c->dp, sample, &ok), &ok);
    uint64_t params = add(mul(c->layers, add(mul(4 * h, h, &ok), mul(2 * h, c->ffn, &ok), &ok), &ok),
                          mul(2 * h, c->vocab, &ok), &ok);
    mul(params, 24 + 2 * c->elem_bytes, &ok);
    if (c->moe.experts) {
        /* a MoE layer: the router (2shE), each token's K experts (4shF'),
         * and the experts' parameters (E * 2hF' + hE) */
        uint64_t e = c->moe.experts, f = c->moe.ffn;
        uint64_t moe = add(mul(2 * s, mul(h, e, &ok), &ok), mul(4 * s, mul(c->moe.top_k, mul(h, f, &ok), &ok), &ok),
                           &ok);
        mul(3, mul(c->global_batch / c->dp, mul(c->layers, moe, &ok), &ok), &ok);
        uint64_t experts = add(mul(e, mul(2 * h, f, &ok), &ok), mul(h, e, &ok), &ok);
        mul(mul(c->layers, experts, &ok), 24 + 2 * c->elem_bytes, &ok);
    }
    return ok;
}

static int moe_flag_error(char *msg, size_t len, const char *flag, const char *want, double got)
{
    snprintf(msg, len, "%s: expected %s, got %g", flag, want, got);
    return -1;
}

/* The mixture-of-experts flags: each only with --experts, experts split
 * evenly over EP, EP carved out of DP (Megatron-Core's expert parallelism
 * without a separate expert TP size). */
static int check_moe(const struct tf_config *c, char *msg, size_t len)
{
    const struct tf_moe *m = &c->moe;
    if (m->experts == 0)
        return 0;
    if (m->experts > 65536)
        return moe_flag_error(msg, len, "--experts", "1 to 65536", (double)m->experts);
    if (m->top_k == 0 || m->top_k > m->experts) {
        snprintf(msg, len, "--top-k: expected 1 to --experts %" PRIu64 ", got %" PRIu64, m->experts, m->top_k);
        return -1;
    }
    if (m->ep == 0 || m->ep > MAX_RANKS)
        return moe_flag_error(msg, len, "--ep", "1 to 1000000", (double)m->ep);
    if (c->dp % m->ep != 0)
        return not_divisible(msg, len, "--dp", c->dp, "--ep", m->ep);
    if (m->experts % m->ep != 0)
        return not_divisible(msg, len, "--experts", m->experts, "--ep", m->ep);
    if (m->ffn == 0 || m->ffn > (1u << 24))
        return moe_flag_error(msg, len, "--moe-ffn", "1 to 16777216", (double)m->ffn);
    if (m->ffn % c->tp != 0)
        return not_divisible(msg, len, "--moe-ffn", m->ffn, "--tp", c->tp);
    if (!(m->capacity_factor == 0 || (m->capacity_factor > 0 && m->capacity_factor <= 1024)))
        return moe_flag_error(msg, len, "--capacity-factor", "0 (dropless) or a number in (0, 1024]",
                              m->capacity_factor);
    if (!(m->skew >= 0 && m->skew <= 16))
        return moe_flag_error(msg, len, "--expert-skew", "a number in [0, 16]", m->skew);
    if (m->every == 0 || m->every > c->layers)
        return moe_flag_error(msg, len, "--moe-every", "1 to --layers", (double)m->every);
    /* so that every model chunk has the same layers */
    if (tf_layers_per_chunk(c) % m->every != 0) {
        snprintf(msg, len, "--moe-every: %" PRIu64 " does not divide the %" PRIu64 " layers of a model chunk",
                 m->every, tf_layers_per_chunk(c));
        return -1;
    }
    if (c->single_file) {
        snprintf(msg, len, "--single-file: not with --experts (the ranks of a stage differ in their experts' load)");
        return -1;
    }
    return 0;
}

static int check_positive(const struct tf_config *c, char *msg, size_t len)
{
    const struct {
        const char *flag;
        uint64_t v;
    } flags[] = {
        {"--layers", c->layers}, {"--hidden", c->hidden}, {"--heads", c->heads},
        {"--ffn", c->ffn}, {"--seq", c->seq}, {"--vocab", c->vocab},
        {"--micro-batch", c->micro_batch}, {"--global-batch", c->global_batch},
        {"--tp", c->tp}, {"--pp", c->pp}, {"--dp", c->dp}, {"--virtual-stages", c->virtual_stages},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        /* 2^24 bounds every product below 64 bits before figures_fit. */
        if (flags[i].v == 0 || flags[i].v > (1u << 24)) {
            snprintf(msg, len, "%s: expected 1 to 16777216, got %" PRIu64, flags[i].flag, flags[i].v);
            return -1;
        }
    }
    return 0;
}

/* Interleaving (Megatron-LM's rules): every chunk gets L/(P*V) layers, the
 * micro-batches go through the stages in groups of P, and the pipeline tags
 * 2*M*V + ... stay 32-bit. */
static int check_virtual_stages(const struct tf_config *c, char *msg, size_t len)
{
    uint64_t v = c->virtual_stages, mbs = tf_micro_batches(c);
    if (v == 1)
        return 0;
    if (c->pp == 1) {
        snprintf(msg, len, "--virtual-stages: %" PRIu64 " needs --pp 2 or more", v);
        return -1;
    }
    if (c->gpipe) {
        snprintf(msg, len, "--virtual-stages: interleaving needs --schedule 1f1b, not gpipe");
        return -1;
    }
    if (c->layers % (c->pp * v) != 0) {
        snprintf(msg, len, "--layers: %" PRIu64 " is not divisible by --pp %" PRIu64 " x --virtual-stages %" PRIu64,
                 c->layers, c->pp, v);
        return -1;
    }
    if (mbs % c->pp != 0) {
        snprintf(msg, len, "--virtual-stages: the %" PRIu64 " micro-batches (--global-batch / (--micro-batch x --dp))"
                 " are not a multiple of --pp %" PRIu64, mbs, c->pp);
        return -1;
    }
    if (2 * mbs * v > INT32_MAX) {
        snprintf(msg, len, "--virtual-stages: %" PRIu64 " x %" PRIu64 " micro-batches exceed the 32-bit pipeline tags",
                 v, mbs);
        return -1;
    }
    return 0;
}

int tf_config_check(const struct tf_config *c, char *msg, size_t len)
{
    if (check_positive(c, msg, len) != 0)
        return -1;
    if (c->tp > MAX_RANKS || c->pp > MAX_RANKS || c->dp > MAX_RANKS || c->tp * c->pp * c->dp > MAX_RANKS) {
        snprintf(msg, len, "--tp %" PRIu64 " x --pp %" PRIu64 " x --dp %" PRIu64 ": more than %u ranks",
                 c->tp, c->pp, c->dp, MAX_RANKS);
        return -1;
    }
    if (c->hidden % c->heads != 0)
        return not_divisible(msg, len, "--hidden", c->hidden, "--heads", c->heads);
    if (c->heads % c->tp != 0)
        return not_divisible(msg, len, "--heads", c->heads, "--tp", c->tp);
    if (c->ffn % c->tp != 0)
        return not_divisible(msg, len, "--ffn", c->ffn, "--tp", c->tp);
    if (c->vocab % c->tp != 0)
        return not_divisible(msg, len, "--vocab", c->vocab, "--tp", c->tp);
    /* Sequence parallelism splits the sequence over the TP ranks. */
    if (c->sp && c->seq % c->tp != 0)
        return not_divisible(msg, len, "--seq", c->seq, "--tp (with --sp)", c->tp);
    if (c->layers % c->pp != 0)
        return not_divisible(msg, len, "--layers", c->layers, "--pp", c->pp);
    if (c->global_batch % (c->micro_batch * c->dp) != 0) {
        snprintf(msg, len, "--global-batch: %" PRIu64 " is not divisible by --micro-batch %" PRIu64
                 " x --dp %" PRIu64, c->global_batch, c->micro_batch, c->dp);
        return -1;
    }
    if (check_virtual_stages(c, msg, len) != 0)
        return -1;
    if (check_moe(c, msg, len) != 0)
        return -1;
    if (c->dp_buckets == 0 || tf_layers_per_chunk(c) % c->dp_buckets != 0) {
        if (c->virtual_stages == 1)
            snprintf(msg, len, "--dp-buckets: %" PRIu64 " does not divide the %" PRIu64
                     " layers of a stage (--layers / --pp)", c->dp_buckets, tf_layers_per_stage(c));
        else
            snprintf(msg, len, "--dp-buckets: %" PRIu64 " does not divide the %" PRIu64
                     " layers of a model chunk (--layers / (--pp x --virtual-stages))", c->dp_buckets,
                     tf_layers_per_chunk(c));
        return -1;
    }
    /* below 10^-6 of peak a GEMM's time is no model of a GPU, and its
     * microseconds leave what a trace's 64-bit duration holds */
    if (!(c->efficiency >= 1e-6 && c->efficiency <= 1)) {
        snprintf(msg, len, "--efficiency: expected a number from 0.000001 to 1, got %g", c->efficiency);
        return -1;
    }
    if (!figures_fit(c)) {
        snprintf(msg, len, "--hidden/--seq/--layers: a data-parallel replica's per-iteration FLOPs overflow 64 bits");
        return -1;
    }
    return 0;
}

uint64_t tf_ranks(const struct tf_config *c) { return c->tp * c->pp * c->dp; }
uint64_t tf_micro_batches(const struct tf_config *c) { return c->global_batch / (c->micro_batch * c->dp); }
uint64_t tf_layers_per_stage(const struct tf_config *c) { return c->layers / c->pp; }
uint64_t tf_layers_per_chunk(const struct tf_config *c) { return c->layers / (c->pp * c->virtual_stages); }

uint64_t tf_chunk_first_layer(const struct tf_config *c, uint64_t p, uint64_t v)
{
    return (v * c->pp + p) * tf_layers_per_chunk(c);
}

uint64_t tf_rank_of(const struct tf_config *c, struct tf_coords at)
{
    return at.t + c->tp * (at.d + c->dp * at.p);
}

struct tf_coords tf_coords_of(const struct tf_config *c, uint64_t rank)
{
    struct tf_coords at = {rank % c->tp, rank / c->tp % c->dp, rank / (c->tp * c->dp)};
    return at;
}

/* TP groups come first (one per (d, p), numbered 1..), then DP groups
 * (one per (t, p)); single-member kinds take no ids. */
uint64_t tf_tp_group(const struct tf_config *c, uint64_t d, uint64_t p)
{
    return c->tp > 1 ? 1 + d + c->dp * p : 0;
}

uint64_t tf_dp_group(const struct tf_config *c, uint64_t t, uint64_t p)
{
    uint64_t tp_groups = c->tp > 1 ? c->dp * c->pp : 0;
    return c->dp > 1 ? 1 + tp_groups + t + c->tp * p : 0;
}

/* The ids taken by the TP and DP groups. */
static uint64_t tp_dp_group_ids(const struct tf_config *c)
{
    return (c->tp > 1 ? c->dp * c->pp : 0) + (c->dp > 1 ? c->tp * c->pp : 0);
}

uint64_t tf_ep_group(const struct tf_config *c, struct tf_coords at)
{
    uint64_t ep = c->moe.experts ? c->moe.ep : 1;
    return ep > 1 ? 1 + tp_dp_group_ids(c) + at.t + c->tp * (at.d / ep + c->dp / ep * at.p) : 0;
}

uint64_t tf_edp_group(const struct tf_config *c, struct tf_coords at)
{
    uint64_t ep = c->moe.experts ? c->moe.ep : 1;
    if (ep == 1)
        return tf_dp_group(c, at.t, at.p);
    if (c->dp / ep == 1)
        return 0;
    uint64_t ep_groups = c->tp * (c->dp / ep) * c->pp;
    return 1 + tp_dp_group_ids(c) + ep_groups + at.t + c->tp * (at.d % ep + ep * at.p);
}

/* QKV (6bsh^2), scores and context (4bs^2h), output projection (2bsh^2),
 * each split over TP; bytes: local weights, the input and output
 * activations, the local QKV and the local score matrix written and read. */
struct tf_cost tf_attn_fwd(const struct tf_config *c)
{
    uint64_t b = c->micro_batch, s = c->seq, h = c->hidden, ht = c->hidden / c->tp;
    uint64_t heads_t = c->heads / c->tp;
    struct tf_cost cost = {
        .flops = 8 * b * s * h * ht + 4 * b * s * s * ht,
        .bytes = c->elem_bytes * (4 * h * ht + 2 * b * s * h + 3 * b * s * ht + 2 * b * heads_t * s * s),
    };
    return cost;
}

/* The attention core alone (scores and context, 4bs^2h/T): FlashAttention
 * reads Q, K, V and writes the context, b*s*h/T each. */
struct tf_cost tf_attn_core_fwd(const struct tf_config *c)
{
    uint64_t b = c->micro_batch, s = c->seq, ht = c->hidden / c->tp;
    struct tf_cost cost = {.flops = 4 * b * s * s * ht, .bytes = c->elem_bytes * 4 * b * s * ht};
    return cost;
}

/* Two GEMMs h -> F -> h (4bshF), F split over TP. */
struct tf_cost tf_mlp_fwd(const struct tf_config *c)
{
    uint64_t b = c->micro_batch, s = c->seq, h = c->hidden, ft = c->ffn / c->tp;
    struct tf_cost cost = {
        .flops = 4 * b * s * h * ft,
        .bytes = c->elem_bytes * (2 * h * ft + 2 * b * s * h + 2 * b * s * ft),
    };
    return cost;
}

/* The logits GEMM h -> V (2bshV), vocabulary split over TP. */
struct tf_cost tf_head_fwd(const struct tf_config *c)
{
    uint64_t b = c->micro_batch, s = c->seq, h = c->hidden, vt = c->vocab / c->tp;
    struct tf_cost cost = {
        .flops = 2 * b * s * h * vt,
        .bytes = c->elem_bytes * (h * vt + b * s * h + b * s * vt),
    };
    return cost;
}

/* Adam: about 10 FLOPs per parameter; reads and writes the fp32 master
 * weight, momentum and variance (24 bytes), reads the gradient and writes
 * the weight (2 x elem). */
struct tf_cost tf_optimizer(const struct tf_config *c, uint64_t rank_params)
{
    struct tf_cost cost = {10 * rank_params, rank_params * (24 + 2 * c->elem_bytes)};
    return cost;
}

uint64_t tf_activation_bytes(const struct tf_config *c)
{
    return c->micro_batch * c->seq * c->hidden * c->elem_bytes;
}

/* Megatron-LM's vocabulary-parallel cross-entropy all-reduces three fp32
 * values per token over TP: the logits' maximum, the target's logit and the
 * sum of the exponentials. */
uint64_t tf_cross_entropy_bytes(const struct tf_config *c)
{
    return c->micro_batch * c->seq * 4;
}

/* Weight matrices only (biases and layer norms are left out: under 1 % of
 * a real model); the word embedding sits on the first stage and the untied
 * LM head on the last, both split over TP by vocabulary. */
uint64_t tf_layer_params(const struct tf_config *c)
{
    uint64_t h = c->hidden;
    return 4 * h * (h / c->tp) + 2 * h * (c->ffn / c->tp);
}

uint64_t tf_warmup(const struct tf_config *c, uint64_t p)
{
    uint64_t total = tf_micro_batches(c) * c->virtual_stages;
    uint64_t w = c->pp - 1 - p;
    if (c->virtual_stages > 1)
        w = tf_micro_batches(c) == c->pp ? total : w * 2 + (c->virtual_stages - 1) * c->pp;
    return c->gpipe || w > total ? total : w;
}

uint64_t tf_in_flight(const struct tf_config *c, uint64_t p)
{
    uint64_t total = tf_micro_batches(c) * c->virtual_stages, w = tf_warmup(c, p);
    return w + 1 < total ? w + 1 : total;
}

bool tf_is_moe_layer(const struct tf_config *c, uint64_t layer)
{
    return c->moe.experts > 0 && layer % c->moe.every == 0;
}

uint64_t tf_layer_dp_params(const struct tf_config *c, uint64_t layer)
{
    uint64_t h = c->hidden;
    if (!tf_is_moe_layer(c, layer))
        return tf_layer_params(c);
    /* the router (h x E) is replicated over TP, as in Megatron-Core */
    return 4 * h * (h / c->tp) + h * c->moe.experts;
}

uint64_t tf_layer_expert_params(const struct tf_config *c, uint64_t layer)
{
    if (!tf_is_moe_layer(c, layer))
        return 0;
    return c->moe.experts / c->moe.ep * 2 * c->hidden * (c->moe.ffn / c->tp);
}

/* Sums f over the layers of stage p (every chunk of it). */
static uint64_t stage_sum(const struct tf_config *c, uint64_t p, uint64_t (*f)(const struct tf_config *, uint64_t))
{
    uint64_t sum = 0, lpc = tf_layers_per_chunk(c);
    for (uint64_t v = 0; v < c->virtual_stages; v++)
        for (uint64_t i = 0; i < lpc; i++)
            sum += f(c, tf_chunk_first_layer(c, p, v) + i);
    return sum;
}

uint64_t tf_rank_expert_params(const struct tf_config *c, uint64_t p)
{
    return c->moe.experts ? stage_sum(c, p, tf_layer_expert_params) : 0;
}

/* The parameters of stage p reduced over DP: its layers' and the
 * embedding's or LM head's. */
static uint64_t rank_dp_params(const struct tf_config *c, uint64_t p)
{
    uint64_t params = c->moe.experts ? stage_sum(c, p, tf_layer_dp_params) : tf_layers_per_stage(c) * tf_layer_params(c);
    if (p == 0)
        params += c->hidden * (c->vocab / c->tp);
    if (p == c->pp - 1)
        params += c->hidden * (c->vocab / c->tp);
    return params;
}

uint64_t tf_rank_params(const struct tf_config *c, uint64_t p)
{
    return rank_dp_params(c, p) + tf_rank_expert_params(c, p);
}

/* Buckets follow the backward pass: the last layers' gradients are ready
 * first. */
uint64_t tf_bucket_params(const struct tf_config *c, uint64_t p, uint64_t v, uint64_t k)
{
    uint64_t lpc = tf_layers_per_chunk(c), per = lpc / c->dp_buckets, first = tf_chunk_first_layer(c, p, v);
    uint64_t params = 0;
    for (uint64_t i = lpc - (k + 1) * per; i < lpc - k * per; i++)
        params += tf_layer_dp_params(c, first + i);
    if (p == c->pp - 1 && v == c->virtual_stages - 1 && k == 0)
        params += c->hidden * (c->vocab / c->tp);
    if (p == 0 && v == 0 && k == c->dp_buckets - 1)
        params += c->hidden * (c->vocab / c->tp);
    return params;
}

uint64_t tf_vocab_params(const struct tf_config *c)
{
    return c->hidden * (c->vocab / c->tp);
}

/* Megatron-LM's distributed optimizer pads the buffer to a multiple of D,
 * so every rank updates the same shard size. */
uint64_t tf_optimizer_params(const struct tf_config *c, uint64_t p)
{
    if (!c->dist_optimizer)
        return tf_rank_params(c, p);
    uint64_t dense = rank_dp_params(c, p), experts = tf_rank_expert_params(c, p);
    uint64_t edp = c->moe.experts ? c->dp / c->moe.ep : 1;
    return (dense + c->dp - 1) / c->dp + (experts + edp - 1) / edp;
}

uint64_t tf_model_params(const struct tf_config *c)
{
    uint64_t h = c->hidden, params = 2 * h * c->vocab;
    for (uint64_t l = 0; l < c->layers; l++)
        params += tf_is_moe_layer(c, l) ? 4 * h * h + h * c->moe.experts + c->moe.experts * 2 * h * c->moe.ffn
                                        : 4 * h * h + 2 * h * c->ffn;
    return params;
}

uint64_t tf_duration_micros(const struct tf_config *c, struct tf_cost cost)
{
    double peak = c->fp8 ? c->device.peak_fp8 : c->device.peak_flops;
    double compute_s = (double)cost.flops / (peak * c->efficiency);
    double memory_s = (double)cost.bytes / c->device.mem_bw;
    double micros = ceil((compute_s > memory_s ? compute_s : memory_s) * 1e6);
    /* saturated, never an out-of-range cast (the simulator refuses a
     * duration past its clock) */
    return micros < 1 ? 1 : micros >= 0x1p63 ? (uint64_t)1 << 63 : (uint64_t)micros;
}

const char *tf_op_kind_name(enum tf_op_kind kind)
{
    static const char *const names[TF_OP_KINDS] = {
        "attn_fwd", "attn_bwd", "mlp_fwd", "mlp_bwd", "head_fwd", "head_bwd", "optimizer", "attn_core",
    };
    return (unsigned)kind < TF_OP_KINDS ? names[kind] : NULL;
}
