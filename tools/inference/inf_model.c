/* The inference workload's arithmetic (see the header; docs/inference.md
 * derives each formula). */
#include "inference/inf_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "transformer/tf_kernels.h"
#include "transformer/tf_model.h"

__extension__ typedef unsigned __int128 u128;

/* The most nodes a rank's trace may hold: far beyond any real request
 * (a 80-layer model generating 100k tokens) but bounded, so that a typo
 * cannot fill the disk. */
#define MAX_NODES 100000000ull

struct range {
    const char *flag;
    uint64_t v, max;
};

static int out_of_range(const struct inf_config *c, char *msg, size_t len)
{
    const struct range r[] = {
        {"--layers", c->layers, 4096}, {"--hidden", c->hidden, 1u << 20}, {"--heads", c->heads, 65536},
        {"--kv-heads", c->kv_heads, 65536}, {"--ffn", c->ffn, 1u << 22}, {"--vocab", c->vocab, 1u << 24},
        {"--tp", c->tp, 1024}, {"--pp", c->pp, 1024}, {"--batch", c->batch, 1u << 20},
        {"--prompt-len", c->prompt_len, 1u << 24}, {"--output-len", c->output_len, 1u << 20},
        {"--prefill-chunk", c->prefill_chunk, 1u << 24},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        if (r[i].v < 1 || r[i].v > r[i].max) {
            snprintf(msg, len, "%s: expected 1 to %" PRIu64 ", got %" PRIu64, r[i].flag, r[i].max, r[i].v);
            return -1;
        }
    }
    return 0;
}

static int not_divisible(char *msg, size_t len, const char *flag, uint64_t v, const char *by, uint64_t d)
{
    if (v % d == 0)
        return 0;
    snprintf(msg, len, "%s: %" PRIu64 " is not divisible by %s %" PRIu64, flag, v, by, d);
    return -1;
}

int inf_config_check(const struct inf_config *c, char *msg, size_t len)
{
    if (out_of_range(c, msg, len) != 0 || not_divisible(msg, len, "--hidden", c->hidden, "--heads", c->heads) != 0 ||
        not_divisible(msg, len, "--heads", c->heads, "--kv-heads", c->kv_heads) != 0 ||
        not_divisible(msg, len, "--heads", c->heads, "--tp", c->tp) != 0 ||
        not_divisible(msg, len, "--ffn", c->ffn, "--tp", c->tp) != 0 ||
        not_divisible(msg, len, "--vocab", c->vocab, "--tp", c->tp) != 0 ||
        not_divisible(msg, len, "--layers", c->layers, "--pp", c->pp) != 0)
        return -1;
    if (c->kv_heads % c->tp != 0 && c->tp % c->kv_heads != 0) {
        snprintf(msg, len, "--kv-heads: %" PRIu64 " neither divides nor is divisible by --tp %" PRIu64, c->kv_heads,
                 c->tp);
        return -1;
    }
    if (c->prefill_chunk > c->prompt_len) {
        snprintf(msg, len, "--prefill-chunk: %" PRIu64 " is more than --prompt-len %" PRIu64, c->prefill_chunk,
                 c->prompt_len);
        return -1;
    }
    if (c->fp8 && c->device.peak_fp8 <= 0) {
        snprintf(msg, len, "--precision: %s has no FP8 tensor cores (fp8 needs --device h100)", c->device.name);
        return -1;
    }
    u128 nodes = (u128)inf_steps(c) * (c->layers / c->pp) * 4;
    if (nodes > MAX_NODES) {
        snprintf(msg, len, "--output-len: %" PRIu64 " steps of %" PRIu64 " layers a rank exceed %llu nodes a trace",
                 inf_steps(c), c->layers / c->pp, MAX_NODES);
        return -1;
    }
    return 0;
}

uint64_t inf_ranks(const struct inf_config *c)
{
    return c->tp * c->pp;
}

uint64_t inf_prefill_steps(const struct inf_config *c)
{
    return (c->prompt_len + c->prefill_chunk - 1) / c->prefill_chunk;
}

uint64_t inf_steps(const struct inf_config *c)
{
    return inf_prefill_steps(c) + c->output_len;
}

struct inf_step inf_step_of(const struct inf_config *c, uint64_t k)
{
    uint64_t chunks = inf_prefill_steps(c);
    struct inf_step s = {0};
    if (k < chunks) {
        s.context = k * c->prefill_chunk;
        s.tokens = c->prompt_len - s.context < c->prefill_chunk ? c->prompt_len - s.context : c->prefill_chunk;
        s.index = k;
        s.last_prefill = k + 1 == chunks;
        return s;
    }
    s.decode = 1;
    s.index = k - chunks + 1;
    s.tokens = 1;
    s.context = c->prompt_len + s.index - 1;
    return s;
}

uint64_t inf_kv_heads_per_rank(const struct inf_config *c)
{
    return c->kv_heads >= c->tp ? c->kv_heads / c->tp : 1;
}

/* The training generator's configuration for the step's b x tokens on
 * one rank, so that its kernels (tf_kernels.h) cost this step. */
static struct tf_config tf_view(const struct inf_config *c, uint64_t tokens)
{
    struct tf_config t;
    memset(&t, 0, sizeof t);
    t.layers = c->layers;
    t.hidden = c->hidden;
    t.heads = c->heads;
    t.ffn = c->ffn;
    t.vocab = c->vocab;
    t.seq = tokens;
    t.micro_batch = c->batch;
    t.global_batch = c->batch;
    t.tp = c->tp;
    t.pp = t.dp = t.virtual_stages = t.dp_buckets = 1;
    t.elem_bytes = c->elem_bytes;
    t.fp8 = c->fp8;
    t.device = c->device;
    t.compute_model = TF_COMPUTE_KERNELS;
    return t;
}

/* The K and V columns of the QKV GEMM on one rank: 2 (G/T) d. */
static uint64_t kv_width(const struct inf_config *c)
{
    return 2 * inf_kv_heads_per_rank(c) * (c->hidden / c->heads);
}

/* Query-key pairs of one sequence: query i of the step (0-based) sees the
 * context and the step's tokens up to itself, context + i + 1 keys. */
static double pairs(struct inf_step s)
{
    return (double)s.tokens * (double)s.context + (double)s.tokens * (double)(s.tokens + 1) / 2;
}

double inf_attn_core_seconds(const struct inf_config *c, struct inf_step s)
{
    const struct tf_device *d = &c->device;
    double ht = (double)(c->hidden / c->tp), b = (double)c->batch;
    /* QK^T and PV: 2 FLOPs a multiply-add, d per head, A/T heads */
    double flops = 4.0 * b * ht * pairs(s);
    double compute = flops / (d->peak_flops * d->attn_fwd_efficiency);
    /* the cached K and V read once, Q read and the context written once */
    double bytes = (double)c->elem_bytes * b *
                   ((double)(s.context + s.tokens) * (double)kv_width(c) + 2.0 * (double)s.tokens * ht);
    double memory = tf_stream_seconds(d, bytes);
    return compute > memory ? compute : memory;
}

double inf_attn_seconds(const struct inf_config *c, struct inf_step s)
{
    struct tf_config t = tf_view(c, s.tokens);
    uint64_t n = c->batch * s.tokens, h = c->hidden, ht = h / c->tp;
    return tf_kernels_layer_norm(&t, 0) + tf_kernels_linear(&t, n, ht + kv_width(c), h, TF_FROM_LAYER_NORM, 0) +
           inf_attn_core_seconds(c, s) + tf_kernels_linear(&t, n, h, ht, TF_FROM_KERNEL, 0) +
           tf_kernels_bias_dropout_add(&t, 0);
}

/* MLP matrices a layer has: GeLU's fc1 and fc2, SwiGLU's gate, up, down. */
static uint64_t mlp_matrices(const struct inf_config *c)
{
    return c->swiglu ? 3 : 2;
}

/* SwiGLU (Llama): LayerNorm, the gate and up projections as one GEMM of
 * 2F/T columns (Megatron-LM fuses them), SiLU(gate) x up (reads both,
 * writes one: memory-bound), the down projection, bias + residual. */
static double swiglu_mlp_seconds(const struct tf_config *t)
{
    uint64_t n = t->micro_batch * t->seq, h = t->hidden, ft = t->ffn / t->tp;
    double elems = (double)n * (double)ft;
    return tf_kernels_layer_norm(t, 0) + tf_kernels_linear(t, n, 2 * ft, h, TF_FROM_LAYER_NORM, 0) +
           tf_stream_seconds(&t->device, 3.0 * elems * (double)t->elem_bytes) +
           tf_kernels_linear(t, n, h, ft, TF_FROM_KERNEL, 0) + tf_kernels_bias_dropout_add(t, 0);
}

double inf_mlp_seconds(const struct inf_config *c, struct inf_step s)
{
    struct tf_config t = tf_view(c, s.tokens);
    return c->swiglu ? swiglu_mlp_seconds(&t) : tf_kernels_mlp(&t, 0);
}

double inf_head_seconds(const struct inf_config *c)
{
    /* only each sequence's last position is sampled: b rows of logits */
    struct tf_config t = tf_view(c, 1);
    return tf_kernels_layer_norm(&t, 0) + tf_kernels_linear(&t, c->batch, c->vocab / c->tp, c->hidden, TF_NOT_FP8, 0);
}

uint64_t inf_attn_flops(const struct inf_config *c, struct inf_step s)
{
    double n = (double)(c->batch * s.tokens), h = (double)c->hidden, ht = (double)(c->hidden / c->tp);
    double f = 2.0 * n * h * (ht + (double)kv_width(c)) + 4.0 * (double)c->batch * ht * pairs(s) + 2.0 * n * ht * h;
    return f >= 0x1p63 ? (uint64_t)1 << 63 : (uint64_t)f;
}

uint64_t inf_mlp_flops(const struct inf_config *c, struct inf_step s)
{
    /* 2 FLOPs a multiply-add, each matrix h x F/T */
    u128 f = (u128)2 * mlp_matrices(c) * c->batch * s.tokens * c->hidden * (c->ffn / c->tp);
    return f > INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)f;
}

uint64_t inf_activation_bytes(const struct inf_config *c, struct inf_step s)
{
    return c->batch * s.tokens * c->hidden * c->elem_bytes;
}

/* One layer's parameters on one rank: Q and the output projection h*h/T
 * each, K and V h * 2(G/T)d, the MLP 2hF/T (GeLU) or 3hF/T (SwiGLU). */
static uint64_t layer_params(const struct inf_config *c)
{
    uint64_t h = c->hidden;
    return 2 * h * (h / c->tp) + h * kv_width(c) + mlp_matrices(c) * h * (c->ffn / c->tp);
}

uint64_t inf_rank_params(const struct inf_config *c, uint64_t p)
{
    u128 params = (u128)layer_params(c) * (c->layers / c->pp);
    uint64_t vocab = c->hidden * (c->vocab / c->tp);
    if (p == 0)
        params += vocab;
    if (p + 1 == c->pp)
        params += vocab;
    return params > UINT64_MAX ? UINT64_MAX : (uint64_t)params;
}

uint64_t inf_kv_bytes_per_token(const struct inf_config *c)
{
    return c->elem_bytes * kv_width(c) * (c->layers / c->pp);
}

void inf_memory_of(const struct inf_config *c, uint64_t p, struct inf_memory *m)
{
    u128 w = (u128)inf_rank_params(c, p) * c->elem_bytes;
    /* K and V of every token of every sequence at the end: S + N of them */
    u128 kv = (u128)inf_kv_bytes_per_token(c) * c->batch * (c->prompt_len + c->output_len);
    m->weights = w > UINT64_MAX ? UINT64_MAX : (uint64_t)w;
    m->kv_cache = kv > UINT64_MAX ? UINT64_MAX : (uint64_t)kv;
}

uint64_t inf_max_batch(const struct inf_config *c, uint64_t *stage)
{
    struct inf_config one = *c;
    one.batch = 1;
    uint64_t best = INF_BATCH_MAX;
    *stage = 0;
    for (uint64_t p = 0; p < c->pp; p++) {
        struct inf_memory m;
        inf_memory_of(&one, p, &m);
        /* weights + B x (one sequence's KV cache) <= capacity */
        uint64_t fit = m.weights > c->memory_capacity ? 0
                       : m.kv_cache ? (c->memory_capacity - m.weights) / m.kv_cache : INF_BATCH_MAX;
        if (fit < best) {
            best = fit;
            *stage = p;
        }
    }
    return best;
}
