/* The kernel-level compute model (docs/transformer.md, "Compute model"). */
#include "transformer/tf_kernels.h"

#include <math.h>

/* Split-K divides a GEMM's K among up to this many CTAs per output tile
 * when the tiles alone leave SMs idle; each slice keeps at least
 * SPLIT_K_MIN of K. */
#define SPLIT_K_MAX 16
#define SPLIT_K_MIN 256

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* Useful work over the work the SMs do for one launch: output tiles of
 * tm x tn (the last row and column padded), `split` CTAs per tile, run in
 * whole waves of one CTA per SM. */
static double tile_utilisation(const struct tf_device *d, uint64_t m, uint64_t n, uint64_t tm, uint64_t tn,
                               uint64_t split)
{
    uint64_t ctas = ceil_div(m, tm) * ceil_div(n, tn) * split;
    uint64_t waves = ceil_div(ctas, d->sms);
    return (double)m * (double)n * (double)split / ((double)waves * (double)d->sms * (double)tm * (double)tn);
}

/* A CTA's fixed cost (loading its first K-slices, writing its tile) is
 * worth k_fixed steps of K: a slice of k runs at k / (k + k_fixed). */
static double k_efficiency(const struct tf_device *d, double k)
{
    return k / (k + d->k_fixed);
}

double tf_gemm_utilisation(const struct tf_device *d, uint64_t m, uint64_t n, uint64_t k)
{
    double best = 0;
    for (int turn = 0; turn < 2; turn++) {
        uint64_t tm = turn ? d->tile_n : d->tile_m, tn = turn ? d->tile_m : d->tile_n;
        for (uint64_t split = 1; split <= SPLIT_K_MAX; split++) {
            if (split > 1 && k / split < SPLIT_K_MIN)
                break;
            double u = tile_utilisation(d, m, n, tm, tn, split) * k_efficiency(d, (double)k / (double)split);
            best = u > best ? u : best;
        }
    }
    return best;
}

double tf_stream_seconds(const struct tf_device *d, double bytes)
{
    return bytes / (d->mem_bw * d->mem_efficiency);
}

double tf_gemm_seconds(const struct tf_device *d, double peak, uint64_t m, uint64_t n, uint64_t k,
                       uint64_t elem_bytes)
{
    double flops = 2.0 * (double)m * (double)n * (double)k;
    double compute = flops / (peak * d->gemm_efficiency * tf_gemm_utilisation(d, m, n, k));
    double operands = (double)elem_bytes * ((double)m * (double)k + (double)k * (double)n + (double)m * (double)n);
    double memory = tf_stream_seconds(d, operands);
    return compute > memory ? compute : memory;
}


/* FP8 GEMMs (Transformer Engine) run at the FP8 peak on 1-byte operands;
 * everything else stays in 16 bits. */
static double gemm_peak(const struct tf_config *c, enum tf_linear_input in)
{
    return c->fp8 && in != TF_NOT_FP8 ? c->device.peak_fp8 : c->device.peak_flops;
}

static uint64_t gemm_elem(const struct tf_config *c, enum tf_linear_input in)
{
    return c->fp8 && in != TF_NOT_FP8 ? 1 : c->elem_bytes;
}

/* Transformer Engine's quantisation around an FP8 GEMM (m x k input, m x
 * n output): Hopper's FP8 GEMMs take both operands K-major, so a tensor
 * used by two GEMMs on different axes is written in FP8 twice, as is and
 * transposed. Forward: the input's cast-transpose reads 2 bytes and writes
 * 1 + 1 an element; after a LayerNorm, which writes the FP8 copy in place
 * of its bf16 one (a byte less), only the transpose (read 1, write 1) is
 * left: 1 byte net. Backward: the output gradient's cast-transpose, 4
 * bytes an element. The weights' FP8 copies are made once a step, not
 * per micro-batch, and are left out. */
static double fp8_quantisation(const struct tf_config *c, uint64_t m, uint64_t n, uint64_t k, enum tf_linear_input in,
                               int backward)
{
    if (!c->fp8 || in == TF_NOT_FP8)
        return 0;
    double elems = backward ? (double)m * (double)n : (double)m * (double)k;
    double bytes_each = backward || in == TF_FROM_KERNEL ? 4 : 1;
    return tf_stream_seconds(&c->device, bytes_each * elems);
}

/* A linear layer's forward (m x k by k x n), or its backward: the data
 * gradient (m x n by n x k) and the weight gradient (k x m by m x n). */
double tf_kernels_linear(const struct tf_config *c, uint64_t m, uint64_t n, uint64_t k, enum tf_linear_input in,
                     int backward)
{
    const struct tf_device *d = &c->device;
    double peak = gemm_peak(c, in), quantise = fp8_quantisation(c, m, n, k, in, backward);
    uint64_t e = gemm_elem(c, in);
    if (!backward)
        return quantise + tf_gemm_seconds(d, peak, m, n, k, e);
    return quantise + tf_gemm_seconds(d, peak, m, k, n, e) + tf_gemm_seconds(d, peak, k, n, m, e);
}

/* Tokens of one micro-batch on a rank: all b*s in the tensor-parallel
 * GEMMs; outside them (LayerNorm, dropout, residual) 1/T of them with
 * sequence parallelism. */
static double tokens(const struct tf_config *c)
{
    return (double)c->micro_batch * (double)c->seq;
}

static double tokens_outside_tp(const struct tf_config *c)
{
    return c->sp ? tokens(c) / (double)c->tp : tokens(c);
}

/* LayerNorm on the rank's tokens: reads x and writes y (forward); reads x
 * and dy, writes dx (backward). */
double tf_kernels_layer_norm(const struct tf_config *c, int backward)
{
    double elems = tokens_outside_tp(c) * (double)c->hidden;
    return tf_stream_seconds(&c->device, (backward ? 3.0 : 2.0) * elems * (double)c->elem_bytes);
}

/* Megatron-LM's fused bias + dropout + residual add: reads the input and
 * the residual, writes the sum and a one-byte mask; backward reads the
 * gradient and the mask, writes the input's gradient. */
double tf_kernels_bias_dropout_add(const struct tf_config *c, int backward)
{
    double elems = tokens_outside_tp(c) * (double)c->hidden, e = (double)c->elem_bytes;
    return tf_stream_seconds(&c->device, elems * (backward ? 2 * e + 1 : 3 * e + 1));
}

/* The fused bias + GeLU on the rank's F/T columns: reads and writes them
 * (forward); reads the input and the gradient, writes a gradient (backward). */
static double bias_gelu(const struct tf_config *c, int backward)
{
    double elems = tokens(c) * (double)(c->ffn / c->tp);
    return tf_stream_seconds(&c->device, (backward ? 3.0 : 2.0) * elems * (double)c->elem_bytes);
}

double tf_kernels_attn_core(const struct tf_config *c)
{
    /* causal: half of the 4bs^2h/T score and context FLOPs are computed */
    double flops = 2.0 * (double)c->micro_batch * (double)c->seq * (double)c->seq * (double)(c->hidden / c->tp);
    return flops / (c->device.peak_flops * c->device.attn_fwd_efficiency);
}

static double attn_core_backward(const struct tf_config *c)
{
    double fwd_flops = 2.0 * (double)c->micro_batch * (double)c->seq * (double)c->seq * (double)(c->hidden / c->tp);
    return 2 * fwd_flops / (c->device.peak_flops * c->device.attn_bwd_efficiency);
}

double tf_kernels_attn(const struct tf_config *c, int backward)
{
    uint64_t n = (uint64_t)tokens(c), h = c->hidden, ht = c->hidden / c->tp;
    return tf_kernels_layer_norm(c, backward) + tf_kernels_linear(c, n, 3 * ht, h, TF_FROM_LAYER_NORM, backward) +
           (backward ? attn_core_backward(c) : tf_kernels_attn_core(c)) + tf_kernels_linear(c, n, h, ht, TF_FROM_KERNEL, backward) +
           tf_kernels_bias_dropout_add(c, backward);
}

double tf_kernels_mlp(const struct tf_config *c, int backward)
{
    uint64_t n = (uint64_t)tokens(c), h = c->hidden, ft = c->ffn / c->tp;
    return tf_kernels_layer_norm(c, backward) + tf_kernels_linear(c, n, ft, h, TF_FROM_LAYER_NORM, backward) + bias_gelu(c, backward) +
           tf_kernels_linear(c, n, h, ft, TF_FROM_KERNEL, backward) + tf_kernels_bias_dropout_add(c, backward);
}

/* The vocabulary-parallel cross-entropy works on fp32 logits: forward
 * reads the logits and writes fp32 probabilities, backward reads those and
 * writes the logits' gradient. */
static double cross_entropy(const struct tf_config *c)
{
    double elems = tokens(c) * (double)(c->vocab / c->tp);
    return tf_stream_seconds(&c->device, elems * ((double)c->elem_bytes + 4));
}

double tf_kernels_head(const struct tf_config *c, int backward)
{
    uint64_t n = (uint64_t)tokens(c), h = c->hidden, vt = c->vocab / c->tp;
    return tf_kernels_layer_norm(c, backward) + tf_kernels_linear(c, n, vt, h, TF_NOT_FP8, backward) + cross_entropy(c);
}

/* The MoE block's first part: LayerNorm, the router GEMM (N x E by h) and
 * the softmax and top-k over fp32 scores (read and written once each). */
double tf_kernels_router(const struct tf_config *c, int backward)
{
    uint64_t n = (uint64_t)tokens(c), e = c->moe.experts;
    double scores = (double)n * (double)e * 4;
    return tf_kernels_layer_norm(c, backward) + tf_kernels_linear(c, n, e, c->hidden, TF_NOT_FP8, backward) +
           tf_stream_seconds(&c->device, 2 * scores);
}

/* The local experts: the tokens permuted into expert order and back
 * (each read and written), per expert two GEMMs over its tokens and the
 * GeLU between them, then bias + dropout + residual. An expert without
 * tokens launches nothing. */
double tf_kernels_experts(const struct tf_config *c, const uint64_t *loads, uint64_t first, uint64_t n, int backward)
{
    uint64_t h = c->hidden, ft = c->moe.ffn / c->tp;
    double seconds = tf_kernels_bias_dropout_add(c, backward), e = (double)c->elem_bytes;
    for (uint64_t x = first; x < first + n; x++) {
        uint64_t m = loads[x];
        if (m == 0)
            continue;
        double act = (double)m * (double)ft;
        seconds += tf_stream_seconds(&c->device, 4 * (double)m * (double)h * e) + tf_kernels_linear(c, m, ft, h, TF_FROM_KERNEL, backward) +
                   tf_stream_seconds(&c->device, (backward ? 3.0 : 2.0) * act * e) +
                   tf_kernels_linear(c, m, h, ft, TF_FROM_KERNEL, backward);
    }
    return seconds;
}

uint64_t tf_kernels_micros(double seconds)
{
    double micros = ceil(seconds * 1e6);
    return micros < 1 ? 1 : micros >= 0x1p63 ? (uint64_t)1 << 63 : (uint64_t)micros;
}

/* The kernel model's seconds for an operator kind; the optimizer's bytes
 * come with its cost. */
static double kernel_seconds(const struct tf_config *c, enum tf_op_kind kind, struct tf_cost cost)
{
    switch (kind) {
    case TF_ATTN_FWD: return tf_kernels_attn(c, 0);
    case TF_ATTN_BWD: return tf_kernels_attn(c, 1);
    case TF_MLP_FWD: return tf_kernels_mlp(c, 0);
    case TF_MLP_BWD: return tf_kernels_mlp(c, 1);
    case TF_HEAD_FWD: return tf_kernels_head(c, 0);
    case TF_HEAD_BWD: return tf_kernels_head(c, 1);
    case TF_ATTN_CORE: return tf_kernels_attn_core(c);
    case TF_OPTIMIZER:
    case TF_OP_KINDS: break;
    }
    return tf_stream_seconds(&c->device, (double)cost.bytes);
}

uint64_t tf_op_micros(const struct tf_config *c, enum tf_op_kind kind, struct tf_cost cost)
{
    if (c->durations.set[kind])
        return c->durations.micros[kind];
    if (c->compute_model == TF_COMPUTE_ROOFLINE)
        return tf_duration_micros(c, cost);
    return tf_kernels_micros(kernel_seconds(c, kind, cost));
}
