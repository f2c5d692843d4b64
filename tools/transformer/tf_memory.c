/* A rank's memory (see the header; docs/transformer.md derives it). */
#include "transformer/tf_memory.h"

#include "transformer/tf_moe.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t saturate(u128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* A layer's activations with `sbf` for the dense MLP's split part (0 in a
 * MoE layer, whose experts' are counted apart). */
static u128 layer_activations(const struct tf_config *c, u128 sbf)
{
    u128 t = c->tp, sbh = (u128)c->seq * c->micro_batch * c->hidden;
    /* unfused attention (the roofline model's) keeps the softmax, its
     * dropout and mask, 5as^2b; FlashAttention (the kernel model's) keeps
     * no s x s tensor, only each row's fp32 log-sum-exp, 4asb */
    u128 core = c->compute_model == TF_COMPUTE_ROOFLINE ? (u128)5 * c->heads * c->seq * c->seq * c->micro_batch
                                                        : (u128)4 * c->heads * c->seq * c->micro_batch;
    switch (c->recompute) {
    case TF_RECOMPUTE_FULL:
        return c->sp ? 2 * sbh / t : 2 * sbh;
    case TF_RECOMPUTE_SELECTIVE:
        core = 0;
        break;
    case TF_RECOMPUTE_NONE:
    default:
        break;
    }
    /* the layer norms, the QKV and first MLP inputs and the two dropout
     * masks (10sbh) are whole on every TP rank unless SP splits them */
    u128 split = 8 * sbh + 4 * sbf + core;
    return c->sp ? (10 * sbh + split) / t : 10 * sbh + split / t;
}

uint64_t tf_layer_activations(const struct tf_config *c)
{
    return saturate(layer_activations(c, (u128)c->seq * c->micro_batch * c->ffn));
}

uint64_t tf_layer_activations_of(const struct tf_config *c, uint64_t layer)
{
    if (!tf_is_moe_layer(c, layer))
        return tf_layer_activations(c);
    u128 act = layer_activations(c, 0);
    if (c->recompute == TF_RECOMPUTE_FULL)
        return saturate(act);
    /* the router's fp32 scores, the experts' input tokens (whole on each
     * TP rank) and their two F'/T-wide activations */
    u128 n = tf_moe_tokens(c), m = tf_moe_memory_tokens(c);
    act += 4 * n * c->moe.experts + 2 * m * c->hidden + 4 * m * (c->moe.ffn / c->tp);
    return saturate(act);
}

/* Bytes a parameter costs in mixed precision (Megatron-LM's distributed
 * optimizer guide): 16-bit weights; fp32 gradients (bf16, fp8) or 16-bit
 * ones (fp16); the optimizer's fp32 master weights, Adam's two moments
 * and, with fp16, an fp32 copy of the gradient. */
static uint64_t grad_bytes(const struct tf_config *c)
{
    return c->fp16 ? 2 : 4;
}

static uint64_t optimizer_bytes(const struct tf_config *c)
{
    return c->fp16 ? 16 : 12;
}

uint64_t tf_embed_mask_bytes(const struct tf_config *c)
{
    u128 sbh = (u128)c->seq * c->micro_batch * c->hidden;
    return saturate(c->sp ? sbh / c->tp : sbh);
}

uint64_t tf_logits_bytes(const struct tf_config *c)
{
    return saturate((u128)4 * c->seq * c->micro_batch * (c->vocab / c->tp));
}

void tf_memory_of(const struct tf_config *c, uint64_t p, struct tf_memory *m)
{
    uint64_t params = tf_rank_params(c, p);
    m->params = params * 2;
    m->grads = params * grad_bytes(c);
    m->optimizer = tf_optimizer_params(c, p) * optimizer_bytes(c);
    /* every model chunk has the same layers (--moe-every divides them) */
    u128 chunk = 0;
    for (uint64_t i = 0; i < tf_layers_per_chunk(c); i++)
        chunk += tf_layer_activations_of(c, tf_chunk_first_layer(c, p, 0) + i);
    u128 act = chunk * tf_in_flight(c, p);
    if (p == 0)   /* the embedding's dropout mask, per micro-batch in flight */
        act += (u128)tf_embed_mask_bytes(c) * tf_in_flight(c, p);
    /* the vocabulary-parallel logits in fp32, from the LM head's forward to
     * its backward: one micro-batch at a time in 1F1B, all of them in GPipe
     * (vimana --report's simulated peak of --tensors traces showed it) */
    if (p + 1 == c->pp)
        act += (u128)tf_logits_bytes(c) * (c->gpipe ? tf_micro_batches(c) : 1);
    m->activations = saturate(act);
}

uint64_t tf_memory_total(const struct tf_memory *m)
{
    u128 sum = (u128)m->params + m->grads + m->optimizer + m->activations;
    return saturate(sum);
}
