/*
 * jitter.h - seeded, order-independent multiplicative jitter of durations.
 *
 * The factor for one node depends only on (seed, rank, node id), so the
 * result does not depend on the order files or nodes are processed in and
 * two runs with the same seed give the same bytes. The factor is uniform
 * in [1 - F, 1 + F] (F in [0, 1)); the jittered value is the product
 * rounded to the nearest integer, so |new - old| <= F * old + 0.5.
 */
#ifndef VIMANA_SYNTH_JITTER_H
#define VIMANA_SYNTH_JITTER_H

#include <stdint.h>

/* A well-mixed 64-bit hash (SplitMix64's finaliser). */
uint64_t jitter_mix(uint64_t x);

/* A uniform double in [0, 1) for (seed, rank, id). */
double jitter_uniform(uint64_t seed, uint64_t rank, uint64_t id);

/* `value` times a factor uniform in [1 - f, 1 + f], rounded to nearest,
 * saturated at UINT64_MAX. f == 0 returns `value` unchanged. */
uint64_t jitter_apply(uint64_t value, double f, uint64_t seed, uint64_t rank, uint64_t id);

/* A counter-based stream of uniform doubles in [0, 1): draw k of stream
 * `stream` is jitter_uniform(seed, stream, k), so streams (one per rank)
 * never depend on each other or on the order they are drawn in. */
typedef struct sample_rng {
    uint64_t seed, stream, counter;
} sample_rng;
double sample_rng_next(sample_rng *r);

#endif
