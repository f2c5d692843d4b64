/*
 * tf_memory.h - what one rank of the transformer holds at its peak
 * (docs/transformer.md, "Memory"): parameters, gradients and optimizer
 * states as Megatron-LM keeps them in mixed precision (the distributed
 * optimizer shards the optimizer over DP), and activations by Korthikanti
 * et al., "Reducing Activation Recomputation in Large Transformer Models"
 * (2022), per layer and micro-batch, times the layers of a model chunk and
 * the micro-batches the pipeline schedule keeps in flight. Pure arithmetic.
 */
#ifndef VIMANA_TOOLS_TF_MEMORY_H
#define VIMANA_TOOLS_TF_MEMORY_H

#include <stdint.h>

#include "transformer/tf_model.h"

struct tf_memory {
    uint64_t params, grads, optimizer, activations;   /* bytes */
};

/* One layer's activations for one micro-batch on one rank, in bytes
 * (16-bit tensors, 1-byte dropout masks), with s tokens, b sequences,
 * hidden h, FFN f, a heads, T-way TP:
 *   no recomputation:    10sbh + (8sbh + 4sbf + 5as^2b)/T, with SP all of it / T
 *   selective:           10sbh + (8sbh + 4sbf)/T,          with SP (18sbh + 4sbf)/T
 *   full:                2sbh (the layer's input),         with SP 2sbh/T
 * (f = 4h gives the paper's sbh(10 + 24/T + 5as/(hT)) and sbh(34 + 5as/h)/T). */
uint64_t tf_layer_activations(const struct tf_config *c);
/* Layer l's: a dense layer's as above; a MoE layer's has, instead of the
 * 4sbf/T of the dense MLP, 4NE (the router's fp32 scores) + 2mh (the
 * experts' input tokens) + 4mF'/T, with m = tf_moe_memory_tokens (N*K,
 * or the capacity's padded E*ceil(C*N*K/E)); full recomputation keeps the
 * layer's input only, 2sbh (/T with SP), as in a dense layer. */
uint64_t tf_layer_activations_of(const struct tf_config *c, uint64_t layer);

/* The embedding's dropout mask of one micro-batch (1 byte an element, the
 * rank's 1/T with SP), held by stage 0 while the micro-batch is in flight. */
uint64_t tf_embed_mask_bytes(const struct tf_config *c);
/* The vocabulary-parallel logits of one micro-batch in fp32, held by the
 * last stage from the LM head's forward to its backward. */
uint64_t tf_logits_bytes(const struct tf_config *c);

/* A rank of pipeline stage p (every rank of a stage holds the same). */
void tf_memory_of(const struct tf_config *c, uint64_t p, struct tf_memory *m);
uint64_t tf_memory_total(const struct tf_memory *m);

#endif
