/*
 * tf_model.h - the GPT-style transformer that `vimana-et generate
 * transformer` writes ETs for: its configuration, rank placement,
 * communicator groups, and the closed forms for FLOPs, bytes, parameters and
 * compute durations (docs/transformer.md derives every formula).
 * Pure arithmetic: nothing here reads or writes files.
 */
#ifndef VIMANA_TOOLS_TF_MODEL_H
#define VIMANA_TOOLS_TF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transformer/tf_device.h"


/* The compute operators whose duration the user may set (--durations). */
enum tf_op_kind {
    TF_ATTN_FWD, TF_ATTN_BWD, TF_MLP_FWD, TF_MLP_BWD, TF_HEAD_FWD, TF_HEAD_BWD, TF_OPTIMIZER,
    TF_ATTN_CORE, /* the attention core's forward again (--recompute selective) */
    TF_OP_KINDS
};

/* Durations in microseconds that replace the roofline's, per kind. */
struct tf_durations {
    bool set[TF_OP_KINDS];
    uint64_t micros[TF_OP_KINDS];
};

/* How compute durations are found: the kernel model (tf_kernels.h) or
 * the roofline max(FLOPs / (peak * E), bytes / bandwidth). */
enum tf_compute_model { TF_COMPUTE_KERNELS, TF_COMPUTE_ROOFLINE };

/* --recompute: none, full (each layer's forward again, with its TP
 * collectives) or selective (the attention core only, Korthikanti et al.). */
enum tf_recompute { TF_RECOMPUTE_NONE, TF_RECOMPUTE_FULL, TF_RECOMPUTE_SELECTIVE };

/* Mixture-of-experts layers (docs/transformer.md, "Mixture of experts");
 * experts == 0 is a dense model. */
struct tf_moe {
    uint64_t experts;        /* E */
    uint64_t top_k;          /* K: experts each token goes to */
    uint64_t ep;             /* expert parallelism, carved out of DP: divides --dp */
    uint64_t ffn;            /* an expert's FFN width (--moe-ffn, default --ffn) */
    double capacity_factor;  /* C > 0: a sender's tokens per expert capped at ceil(C*N*K/E); 0 dropless */
    double skew;             /* S: Zipf exponent of the experts' popularity, 0 uniform */
    uint64_t seed;           /* which experts are popular, per layer */
    uint64_t every;          /* layer l has experts when l % every == 0 */
};

struct tf_config {
    uint64_t layers, hidden, heads, ffn, seq, vocab;
    uint64_t micro_batch, global_batch;
    uint64_t tp, pp, dp;
    bool sp;              /* sequence parallelism: RS + AG instead of AR */
    bool gpipe;           /* all forwards then all backwards, not 1F1B */
    uint64_t virtual_stages; /* model chunks per rank (interleaved 1F1B), >= 1 */
    uint64_t dp_buckets;  /* DP gradient buckets per model chunk, >= 1 */
    bool dist_optimizer;  /* ZeRO-1: reduce-scatter grads, shard Adam, all-gather params */
    uint64_t dp_bucket_bytes; /* > 0: buckets closed at this many bytes instead of dp_buckets */
    enum tf_recompute recompute; /* activation recomputation before each layer's backward */
    bool tp_cross_entropy; /* the vocabulary-parallel cross-entropy's TP all-reduces */
    bool single_file;     /* output: one trace per pipeline stage and PREFIX.roles.json */
    uint64_t memory_capacity; /* > 0: refuse a rank whose memory (tf_memory.h) exceeds it, in bytes */
    bool pp_scatter_gather; /* without SP: pipeline messages of 1/T, all-gathered over TP */
    bool tp_comm_overlap; /* TP collectives overlapped with the compute beside them */
    bool overlap_grad_reduce;  /* DP buckets issued during the backward (else all after it) */
    bool overlap_param_gather; /* --dist-optimizer: the parameter all-gathers during the forward */
    bool tensors;         /* --tensors: nodes name the tensors they write and read (vimana --report) */
    uint64_t elem_bytes;  /* 2 for bf16 / fp16 */
    bool fp16;            /* --precision fp16: 16-bit gradients (bf16 and fp8 keep fp32 ones) */
    bool fp8;             /* --precision fp8: the GEMMs in FP8 (Transformer Engine) */
    struct tf_device device;
    enum tf_compute_model compute_model;
    double efficiency;    /* the roofline's fraction of peak FLOP/s, (0, 1] */
    struct tf_durations durations; /* user-supplied, override the roofline */
    struct tf_moe moe;
};

/* Where a rank sits: TP fastest, then DP, then PP. */
struct tf_coords {
    uint64_t t, d, p;
};

/* FLOPs and bytes moved of one operator on one rank. */
struct tf_cost {
    uint64_t flops, bytes;
};

/* Checks the divisibility and size rules. Returns 0, or -1 with one line
 * naming the flag in `msg`. */
int tf_config_check(const struct tf_config *c, char *msg, size_t len);

uint64_t tf_ranks(const struct tf_config *c);
uint64_t tf_micro_batches(const struct tf_config *c);   /* B / (b * D) */
uint64_t tf_layers_per_stage(const struct tf_config *c);
/* Warm-up forwards of stage p over its M * V virtual micro-batches.
 * 1F1B (PipeDream-Flush, as Megatron-LM): min(P-1-p, M), so at most P-p
 * micro-batches are in flight on it. Interleaved: (P-1-p)*2 + (V-1)*P, or
 * all when M = P (Megatron-LM's forward_backward_pipelining_with_
 * interleaving). GPipe: all. */
uint64_t tf_warmup(const struct tf_config *c, uint64_t p);
/* The most virtual micro-batches whose activations stage p holds at once:
 * its warm-up forwards and the one after them (at most all of them). */
uint64_t tf_in_flight(const struct tf_config *c, uint64_t p);
/* L / (P * V): the layers of one model chunk. */
uint64_t tf_layers_per_chunk(const struct tf_config *c);
/* The first layer of chunk v on stage p: virtual stage v * P + p. */
uint64_t tf_chunk_first_layer(const struct tf_config *c, uint64_t p, uint64_t v);

uint64_t tf_rank_of(const struct tf_config *c, struct tf_coords at);
struct tf_coords tf_coords_of(const struct tf_config *c, uint64_t rank);

/* Communicator group ids (keys of PREFIX.groups.json); 0 when the group
 * has a single member and so no collective runs on it. */
uint64_t tf_tp_group(const struct tf_config *c, uint64_t d, uint64_t p);
uint64_t tf_dp_group(const struct tf_config *c, uint64_t t, uint64_t p);
/* Expert parallelism is carved out of DP: the EP group of a rank is the EP
 * consecutive DP ranks d = k*EP .. k*EP+EP-1 (its EP index d % EP); the
 * expert-data-parallel group the D/EP ranks of its EP index (d % EP equal),
 * which reduce the experts' gradients. Their ids follow the DP groups';
 * with EP = 1 the expert-DP group is the DP group. */
uint64_t tf_ep_group(const struct tf_config *c, struct tf_coords at);
uint64_t tf_edp_group(const struct tf_config *c, struct tf_coords at);

/* Forward costs per rank and micro-batch; backward is twice each. */
struct tf_cost tf_attn_fwd(const struct tf_config *c);
struct tf_cost tf_mlp_fwd(const struct tf_config *c);
struct tf_cost tf_head_fwd(const struct tf_config *c);
/* The attention core's forward (what selective recomputation repeats). */
struct tf_cost tf_attn_core_fwd(const struct tf_config *c);
/* The optimizer step over a rank's parameters. */
struct tf_cost tf_optimizer(const struct tf_config *c, uint64_t rank_params);

/* b * s * h * elem: one TP collective or one pipeline message. */
uint64_t tf_activation_bytes(const struct tf_config *c);
/* b * s * 4: one of the cross-entropy's TP all-reduces (an fp32 per token). */
uint64_t tf_cross_entropy_bytes(const struct tf_config *c);
/* Parameters held by the ranks of pipeline stage p (each TP rank),
 * experts included. */
uint64_t tf_rank_params(const struct tf_config *c, uint64_t p);
/* Parameters of DP bucket k of model chunk v on stage p (0 = the first
 * issued: the chunk's last layers, plus the LM head on the last virtual
 * stage; the embedding goes into the last bucket of the first virtual
 * stage). The buckets of a rank sum to tf_rank_params. */
uint64_t tf_bucket_params(const struct tf_config *c, uint64_t p, uint64_t v, uint64_t k);
/* Parameters of one dense layer on one rank: 4h*h/T + 2h*F/T. */
uint64_t tf_layer_params(const struct tf_config *c);
/* Whether layer l (0-based, of the whole model) has experts. */
bool tf_is_moe_layer(const struct tf_config *c, uint64_t layer);
/* The parameters of layer l on one rank whose gradients are reduced over
 * DP: a dense layer's, or a MoE layer's attention and router, 4h*h/T + h*E. */
uint64_t tf_layer_dp_params(const struct tf_config *c, uint64_t layer);
/* The parameters of layer l's local experts on one rank, reduced over the
 * expert-data-parallel group: (E/EP) * 2h*F_moe/T, 0 on a dense layer. */
uint64_t tf_layer_expert_params(const struct tf_config *c, uint64_t layer);
/* The expert parameters of a stage-p rank (its layers' sum). */
uint64_t tf_rank_expert_params(const struct tf_config *c, uint64_t p);
/* The word embedding's (or the LM head's) parameters on one rank: h*V/T. */
uint64_t tf_vocab_params(const struct tf_config *c);
/* The parameters the optimizer of a stage-p rank updates: all of the rank's,
 * or with the distributed optimizer its 1/D shard, ceil(params / D), of
 * the dense ones and ceil(expert params / (D/EP)) of the experts'. */
uint64_t tf_optimizer_params(const struct tf_config *c, uint64_t p);
/* Parameters of the whole model. */
uint64_t tf_model_params(const struct tf_config *c);

/* Roofline time of a cost, in whole microseconds rounded up (the unit of
 * duration_micros). */
uint64_t tf_duration_micros(const struct tf_config *c, struct tf_cost cost);
/* "attn_fwd", ..., "attn_core" (the --durations keys); NULL outside the enum. */
const char *tf_op_kind_name(enum tf_op_kind kind);

#endif
