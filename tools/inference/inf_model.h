/*
 * inf_model.h - the LLM inference workload of `vimana-et generate
 * inference` (docs/inference.md): its configuration, rank placement, the
 * steps a rank runs (prefill chunks, then decode iterations), the compute
 * duration of each node from the training generator's kernel model
 * (transformer/tf_kernels.h: one source of truth) and a rank's memory
 * (weights plus the KV cache at the end of generation).
 * Pure arithmetic: nothing here reads or writes files.
 */
#ifndef VIMANA_TOOLS_INF_MODEL_H
#define VIMANA_TOOLS_INF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "transformer/tf_device.h"

struct inf_config {
    uint64_t layers, hidden, heads, kv_heads, ffn, vocab;
    uint64_t tp, pp;
    uint64_t batch, prompt_len, output_len;
    uint64_t prefill_chunk;   /* tokens of each sequence per prefill step (<= prompt_len) */
    uint64_t elem_bytes;      /* 2: bf16 / fp16 weights, activations and KV cache */
    int fp8;                  /* --precision fp8: the layers' GEMMs in FP8 (tf_kernels) */
    int swiglu;               /* --mlp swiglu: gate, up (h x F each) and down (F x h); else GeLU's 2 */
    uint64_t memory_capacity; /* > 0: refuse a rank needing more bytes */
    struct tf_device device;
};

/* One step of a rank: `tokens` new tokens of each of the batch's sequences
 * attending to `context` tokens already in the KV cache. Prefill chunk k
 * has tokens = min(C, S - kC), context = kC; decode iteration i (1..N) has
 * tokens = 1, context = S + i - 1. `last_prefill` marks the chunk whose LM
 * head gives the first token. */
struct inf_step {
    uint64_t tokens, context;
    int decode;        /* 0: a prefill chunk */
    uint64_t index;    /* the chunk's number, or the decode iteration (1..N) */
    int last_prefill;
};

/* A rank's memory at the end of generation. */
struct inf_memory {
    uint64_t weights, kv_cache; /* bytes */
};

/* The divisibility and size rules; 0, or -1 with one line naming the flag. */
int inf_config_check(const struct inf_config *c, char *msg, size_t len);

uint64_t inf_ranks(const struct inf_config *c);            /* T * P */
uint64_t inf_prefill_steps(const struct inf_config *c);    /* ceil(S / C) */
uint64_t inf_steps(const struct inf_config *c);            /* prefill steps + N */
/* Step k of inf_steps: the prefill chunks first, then the decode iterations. */
struct inf_step inf_step_of(const struct inf_config *c, uint64_t k);
/* KV heads one TP rank holds: G/T, or 1 when T > G (each replicated). */
uint64_t inf_kv_heads_per_rank(const struct inf_config *c);

/* Durations in seconds of the nodes of one layer in one step on one rank:
 * the attention block (LayerNorm, QKV GEMM of (A/T + 2 G/T) heads, the
 * attention core over the KV cache, the output projection, bias + residual)
 * and the MLP block (tf_kernels_mlp on the step's b x tokens); the LM head
 * (final LayerNorm and the logits GEMM of the batch's last tokens). */
double inf_attn_seconds(const struct inf_config *c, struct inf_step s);
double inf_mlp_seconds(const struct inf_config *c, struct inf_step s);
double inf_head_seconds(const struct inf_config *c);
/* The attention core alone: causal attention of the step's tokens over
 * context + tokens keys, FLOP-bound at FlashAttention's forward efficiency
 * or bound by reading the KV cache, whichever is longer. */
double inf_attn_core_seconds(const struct inf_config *c, struct inf_step s);
/* FLOPs of the attention and MLP nodes (num_ops) on one rank. */
uint64_t inf_attn_flops(const struct inf_config *c, struct inf_step s);
uint64_t inf_mlp_flops(const struct inf_config *c, struct inf_step s);

/* b * tokens * h * elem: one TP all-reduce or one pipeline message. */
uint64_t inf_activation_bytes(const struct inf_config *c, struct inf_step s);

/* Parameters a stage-p rank holds: its L/P layers' 1/T (attention
 * h*(A + 2G)*d/A + h*h, MLP 2hF (GeLU, the training generator's) or 3hF
 * (SwiGLU))
 * and on the first stage the embedding's, on the last the LM head's h*V/T. */
/* The K and V one token leaves in a rank's cache: its L/P layers' 2 (G/T) d
 * elements each (what the KV cache holds, and what a prefill group sends a
 * decode group per prompt token). */
uint64_t inf_kv_bytes_per_token(const struct inf_config *c);
uint64_t inf_rank_params(const struct inf_config *c, uint64_t p);
void inf_memory_of(const struct inf_config *c, uint64_t p, struct inf_memory *m);
/* --max-batch: the largest batch (at most INF_BATCH_MAX) whose ranks all
 * fit c->memory_capacity under inf_memory_of (the KV cache grows linearly
 * with the batch; c->batch is ignored), 0 when the weights alone do not
 * fit; *stage: the stage that bounds it (the first such). */
#define INF_BATCH_MAX (UINT64_C(1) << 20)
uint64_t inf_max_batch(const struct inf_config *c, uint64_t *stage);

#endif
