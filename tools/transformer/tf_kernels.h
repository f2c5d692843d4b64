/*
 * tf_kernels.h - the kernel-level compute model of `generate transformer`
 * (docs/transformer.md, "Compute model"): each compute node's duration is
 * the sum of the kernels Megatron-LM runs for it -- GEMMs whose efficiency
 * follows their shape (tile and wave quantization over the SMs, split-K for
 * small outputs, a per-tile fixed cost that penalises small K), causal
 * FlashAttention at its own efficiency, and the memory-bound kernels
 * (LayerNorm, bias+GeLU, bias+dropout+residual, softmax cross-entropy,
 * Adam) as bytes over the HBM bandwidth they reach.
 * Pure arithmetic over a device preset (struct tf_device).
 */
#ifndef VIMANA_TOOLS_TF_KERNELS_H
#define VIMANA_TOOLS_TF_KERNELS_H

#include <stdint.h>

#include "transformer/tf_model.h"

/* Seconds of one GEMM of (m x k) by (k x n) at `peak` FLOP/s: 2mnk FLOPs at
 * the device's GEMM efficiency times the shape's utilisation, or the time
 * to stream its operands once, whichever is longer. */
double tf_gemm_seconds(const struct tf_device *d, double peak, uint64_t m, uint64_t n, uint64_t k,
                       uint64_t elem_bytes);
/* The shape's utilisation in (0, 1]: the useful fraction of the tiles the
 * best launch (tile orientation, split-K) runs, times k / (k + k_fixed). */
double tf_gemm_utilisation(const struct tf_device *d, uint64_t m, uint64_t n, uint64_t k);
/* Seconds of a memory-bound kernel moving `bytes`. */
double tf_stream_seconds(const struct tf_device *d, double bytes);

/* The kernels of one compute node on one rank and micro-batch, in seconds:
 * the attention block (LayerNorm, QKV GEMM, causal FlashAttention, output
 * projection, bias+dropout+residual), the MLP block (LayerNorm, two GEMMs,
 * bias+GeLU, bias+dropout+residual), the LM head (final LayerNorm, logits
 * GEMM, the vocabulary-parallel softmax cross-entropy); `backward` gives the
 * backward pass (data- and weight-gradient GEMMs, FlashAttention's
 * backward, the kernels' gradients). */
double tf_kernels_attn(const struct tf_config *c, int backward);
double tf_kernels_mlp(const struct tf_config *c, int backward);
double tf_kernels_head(const struct tf_config *c, int backward);
/* The attention core alone (FlashAttention's forward): what selective
 * recomputation runs again before the backward. */
double tf_kernels_attn_core(const struct tf_config *c);

/* A MoE layer's router (LayerNorm, router GEMM, softmax and top-k) and
 * its local experts first .. first+n-1 given each expert's tokens
 * (tf_moe.h): per expert the permutation in and out, two GEMMs and the
 * GeLU, then bias + dropout + residual. */
double tf_kernels_router(const struct tf_config *c, int backward);
double tf_kernels_experts(const struct tf_config *c, const uint64_t *loads, uint64_t first, uint64_t n, int backward);

/* The building blocks of the nodes above, for the inference generator
 * (tools/inference/), which composes its own nodes from them so that both
 * generators share one compute model. Where a linear layer's activation
 * input comes from: a LayerNorm, whose Transformer Engine kernel writes the
 * FP8 copy itself, or another kernel (its bf16 output cast apart).
 * Megatron-Core's LM head and MoE router are not Transformer Engine
 * modules: their GEMMs stay 16-bit under FP8. */
enum tf_linear_input { TF_FROM_LAYER_NORM, TF_FROM_KERNEL, TF_NOT_FP8 };
/* A linear layer's forward (m x k by k x n), or its backward. */
double tf_kernels_linear(const struct tf_config *c, uint64_t m, uint64_t n, uint64_t k, enum tf_linear_input in,
                         int backward);
/* LayerNorm and the fused bias + dropout + residual add on the
 * micro-batch's b*s tokens (1/T of them with SP). */
double tf_kernels_layer_norm(const struct tf_config *c, int backward);
double tf_kernels_bias_dropout_add(const struct tf_config *c, int backward);

/* Whole microseconds, rounded up, at least 1 (the unit of duration_micros). */
uint64_t tf_kernels_micros(double seconds);

/* The duration of an operator whose FLOPs and bytes are `cost`: the
 * user's for its kind (--durations), else the kernel model's, or with
 * --compute-model roofline (or --efficiency) the roofline's. */
uint64_t tf_op_micros(const struct tf_config *c, enum tf_op_kind kind, struct tf_cost cost);

#endif
