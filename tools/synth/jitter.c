#include "synth/jitter.h"

#include <math.h>

#include "util/hash.h"

uint64_t jitter_mix(uint64_t x)
{
    /* One step of splitmix64 from state x. */
    return hash_splitmix64(&x);
}

double jitter_uniform(uint64_t seed, uint64_t rank, uint64_t id)
{
    /* Chained mixing: each input changes every bit of the next stage. */
    uint64_t h = jitter_mix(jitter_mix(jitter_mix(seed) ^ rank) ^ id);
    return (double)(h >> 11) * 0x1.0p-53;
}

uint64_t jitter_apply(uint64_t value, double f, uint64_t seed, uint64_t rank, uint64_t id)
{
    if (f == 0.0 || value == 0)
        return value;
    double factor = 1.0 + f * (2.0 * jitter_uniform(seed, rank, id) - 1.0);
    double scaled = floor((double)value * factor + 0.5);
    /* 2^64 is the first double above UINT64_MAX. */
    if (scaled >= 0x1.0p64)
        return UINT64_MAX;
    return (uint64_t)scaled;
}

double sample_rng_next(sample_rng *r)
{
    return jitter_uniform(r->seed, r->stream, r->counter++);
}
