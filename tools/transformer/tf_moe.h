/*
 * tf_moe.h - the routing arithmetic of mixture-of-experts layers
 * (docs/transformer.md, "Mixture of experts"): how many tokens each expert
 * gets in a layer, what the dispatch and combine all-to-alls carry, and
 * the router's and the local experts' FLOPs and bytes.
 *
 * Every rank of an EP group routes the N = b*s tokens of its micro-batch
 * (each TP rank all of them: the experts are split over TP like the dense
 * MLP) to K of the E experts. The experts' popularity follows a Zipf law
 * of exponent S over a seeded random order of the experts, drawn per
 * layer: expert of popularity rank r (1 = most popular) gets the share
 * r^-S / sum_j j^-S of the N*K assignments of each sender, apportioned to
 * whole tokens by largest remainder (ties to the more popular). S = 0 is
 * uniform. With a capacity factor C a sender gives an expert at most
 * ceil(C*N*K/E) tokens and the rest are dropped. Pure arithmetic.
 */
#ifndef VIMANA_TOOLS_TF_MOE_H
#define VIMANA_TOOLS_TF_MOE_H

#include <stddef.h>
#include <stdint.h>

#include "transformer/tf_model.h"

/* N = b*s: the tokens a rank routes per micro-batch. */
uint64_t tf_moe_tokens(const struct tf_config *c);
/* ceil(C*N*K/E), a sender's most tokens per expert; 0 when dropless. */
uint64_t tf_moe_capacity(const struct tf_config *c);
/* comm_size of one dispatch (or combine) ALL_TO_ALL of a rank: its routed
 * token copies, N*K*h*elem, or with a capacity factor the padded buffer
 * E*ceil(C*N*K/E)*h*elem. */
uint64_t tf_moe_a2a_bytes(const struct tf_config *c);
/* The tokens each of the E experts of `layer` processes per micro-batch,
 * from the EP senders of its group: EP * (a sender's share, capped). Fills
 * loads[0 .. E-1]; `scratch` holds tf_moe_scratch_bytes(c), aligned as
 * malloc's. */
void tf_moe_loads(const struct tf_config *c, uint64_t layer, uint64_t *loads, void *scratch);
size_t tf_moe_scratch_bytes(const struct tf_config *c);
/* The local experts of EP index r: experts r*E/EP .. (r+1)*E/EP - 1. */
uint64_t tf_moe_first_expert(const struct tf_config *c, uint64_t ep_index);
uint64_t tf_moe_local_experts(const struct tf_config *c);

/* The router's forward on one rank and micro-batch: its GEMM (2NhE) and
 * its fp32 scores. */
struct tf_cost tf_router_fwd(const struct tf_config *c);
/* The forward of the local experts of `ep_index`, given the layer's
 * loads: per expert two GEMMs h -> F' -> h over its tokens (4mhF'/T) and
 * its weights and activations streamed. */
struct tf_cost tf_experts_fwd(const struct tf_config *c, const uint64_t *loads, uint64_t ep_index);
/* The tokens the local experts of one rank hold activations for, as the
 * memory model counts them: N*K (balanced routing), or with a capacity
 * factor the padded E*ceil(C*N*K/E). */
uint64_t tf_moe_memory_tokens(const struct tf_config *c);

#endif
