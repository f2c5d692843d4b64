/*
 * dist.h - empirical distributions of non-negative integers as the synth
 * model stores them (docs/synth.md, "Distributions"): the exact values with
 * their counts when there are few distinct values, else the 101 nearest-rank
 * quantiles 0 %, 1 %, ..., 100 %. Also the inverse CDF that `synth sample`
 * draws from and the two-sample Kolmogorov-Smirnov distance that
 * `synth compare` reports.
 */
#ifndef VIMANA_SYNTH_DIST_H
#define VIMANA_SYNTH_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "synth/jitter.h"

/* Up to this many distinct values are kept exactly as (value, count). */
#define DIST_MAX_PAIRS 64
/* Quantile points otherwise: 0 %, 1 %, ..., 100 %. */
#define DIST_QUANTILES 101

typedef struct dist {
    /* Exactly one representation: n_pairs > 0 (value[i] occurs count[i]
     * times, values ascending) or n_pairs == 0 and quantile[] filled. */
    size_t n_pairs;
    uint64_t value[DIST_MAX_PAIRS];
    uint64_t count[DIST_MAX_PAIRS];
    uint64_t total; /* sum of the counts */
    uint64_t quantile[DIST_QUANTILES];
} dist;

/* A growing list of the values a distribution is made from (durations,
 * sizes, distances), which `synth fit`, its skeleton and `synth compare`
 * each collect. The owner frees v. */
typedef struct dist_values {
    uint64_t *v;
    size_t n, cap;
} dist_values;

/* Adds x at the end of s; 0, or -1 when memory runs out (s unchanged). */
int dist_values_push(dist_values *s, uint64_t x);

/* Summarises n sorted values (n >= 1). */
void dist_from_sorted(dist *d, const uint64_t *sorted, size_t n);

/* The value at cumulative probability u in [0, 1): for pairs the value
 * whose cumulative count first passes u * total; for quantiles linear
 * interpolation between the two neighbouring points, rounded to nearest. */
uint64_t dist_inverse(const dist *d, double u);

/* n values by stratified inverse-CDF sampling: value i at probability
 * (i + U_i) / n with U_i from the stream, so the n values follow the
 * distribution as closely as n points can; ascending. */
void dist_stratified(const dist *d, sample_rng *r, uint64_t *out, uint64_t n);

/* Nearest-rank quantile index: round(q * (n - 1) / steps) without
 * overflow (q in 0..steps). */
size_t dist_rank(size_t n, size_t q, size_t steps);

/* The two-sample Kolmogorov-Smirnov distance sup |F_a(x) - F_b(x)| of two
 * sorted samples; 0 when either is empty. */
double dist_ks(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* Sorts values ascending. */
void dist_sort(uint64_t *v, size_t n);

#endif
