/* Mixture-of-experts routing arithmetic (see the header). */
#include "transformer/tf_moe.h"

#include <math.h>
#include <stdlib.h>

#include "synth/jitter.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t saturate(u128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

uint64_t tf_moe_tokens(const struct tf_config *c)
{
    return c->micro_batch * c->seq;
}

uint64_t tf_moe_capacity(const struct tf_config *c)
{
    if (c->moe.capacity_factor == 0)
        return 0;
    double cap = ceil(c->moe.capacity_factor * (double)tf_moe_tokens(c) * (double)c->moe.top_k /
                      (double)c->moe.experts);
    return cap >= 0x1p63 ? (uint64_t)1 << 63 : (uint64_t)cap;
}

uint64_t tf_moe_a2a_bytes(const struct tf_config *c)
{
    u128 copies = c->moe.capacity_factor > 0 ? (u128)c->moe.experts * tf_moe_capacity(c)
                                             : (u128)tf_moe_tokens(c) * c->moe.top_k;
    return saturate(copies * c->hidden * c->elem_bytes);
}

uint64_t tf_moe_local_experts(const struct tf_config *c)
{
    return c->moe.experts / c->moe.ep;
}

uint64_t tf_moe_first_expert(const struct tf_config *c, uint64_t ep_index)
{
    return ep_index * tf_moe_local_experts(c);
}

/* The layer's popularity order: order[r] is the expert of popularity rank
 * r + 1, a Fisher-Yates shuffle drawn from (seed, layer). */
static void popularity_order(const struct tf_config *c, uint64_t layer, uint64_t *order)
{
    uint64_t n = c->moe.experts;
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    for (uint64_t i = n; i-- > 1;) {
        uint64_t j = (uint64_t)(jitter_uniform(c->moe.seed, layer, i) * (double)(i + 1));
        if (j > i)
            j = i;
        uint64_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* A popularity rank's exact share and its fractional part, for the
 * largest-remainder order. */
struct rank_share {
    double frac;
    uint64_t rank;
};

static int by_remainder(const void *pa, const void *pb)
{
    const struct rank_share *a = pa, *b = pb;
    if (a->frac != b->frac)
        return a->frac > b->frac ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

size_t tf_moe_scratch_bytes(const struct tf_config *c)
{
    return (size_t)c->moe.experts * (2 * sizeof(uint64_t) + sizeof(struct rank_share));
}

/* One sender's N*K assignments over the popularity ranks: share[r] for
 * rank r + 1, the floors of the exact shares, then the remainder one
 * token each to the largest fractional parts (ties to the more popular). */
static void apportion(const struct tf_config *c, uint64_t *share, struct rank_share *rs)
{
    uint64_t n = c->moe.experts, total = tf_moe_tokens(c) * c->moe.top_k, given = 0;
    double sum = 0;
    for (uint64_t r = 0; r < n; r++)
        sum += pow((double)(r + 1), -c->moe.skew);
    for (uint64_t r = 0; r < n; r++) {
        double exact = (double)total * pow((double)(r + 1), -c->moe.skew) / sum;
        share[r] = (uint64_t)floor(exact);
        if (share[r] > total - given)   /* rounding cannot hand out more than there is */
            share[r] = total - given;
        given += share[r];
        rs[r].frac = exact - floor(exact);
        rs[r].rank = r;
    }
    qsort(rs, n, sizeof *rs, by_remainder);
    uint64_t left = total - given;
    for (uint64_t k = 0; k < n && left > 0; k++, left--)
        share[rs[k].rank]++;
    share[0] += left;   /* only if floating point lost more than n tokens */
}

void tf_moe_loads(const struct tf_config *c, uint64_t layer, uint64_t *loads, void *scratch)
{
    uint64_t n = c->moe.experts, cap = tf_moe_capacity(c);
    uint64_t *order = scratch, *share = order + n;
    popularity_order(c, layer, order);
    apportion(c, share, (struct rank_share *)(share + n));
    for (uint64_t r = 0; r < n; r++) {
        uint64_t s = cap > 0 && share[r] > cap ? cap : share[r];
        loads[order[r]] = s * c->moe.ep;
    }
}

uint64_t tf_moe_memory_tokens(const struct tf_config *c)
{
    if (c->moe.capacity_factor > 0)
        return saturate((u128)c->moe.experts * tf_moe_capacity(c));
    return tf_moe_tokens(c) * c->moe.top_k;
}

struct tf_cost tf_router_fwd(const struct tf_config *c)
{
    uint64_t n = tf_moe_tokens(c), h = c->hidden, e = c->moe.experts;
    struct tf_cost cost = {
        .flops = 2 * n * h * e,
        .bytes = c->elem_bytes * (n * h + h * e) + 4 * n * e,
    };
    return cost;
}

struct tf_cost tf_experts_fwd(const struct tf_config *c, const uint64_t *loads, uint64_t ep_index)
{
    uint64_t h = c->hidden, ft = c->moe.ffn / c->tp, first = tf_moe_first_expert(c, ep_index);
    u128 flops = 0, bytes = 0;
    for (uint64_t e = first; e < first + tf_moe_local_experts(c); e++) {
        u128 m = loads[e];
        flops += 4 * m * h * ft;
        bytes += (u128)c->elem_bytes * (2 * (u128)h * ft + 2 * m * h + 2 * m * ft);
    }
    struct tf_cost cost = {saturate(flops), saturate(bytes)};
    return cost;
}
