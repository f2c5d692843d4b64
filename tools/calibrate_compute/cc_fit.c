/* The GEMM fit (see the header). */
#include "calibrate_compute/cc_fit.h"

#include <math.h>

#include "transformer/tf_kernels.h"

#define K_FIXED_MAX 1024
#define K_FIXED_STEP 8
#define REFINE_TURNS 4

double cc_model_seconds(const struct tf_device *d, const cc_row *r)
{
    return tf_gemm_seconds(d, d->peak_flops, r->m, r->n, r->k, 2);
}

static double operands_seconds(const struct tf_device *d, const cc_row *r)
{
    double m = (double)r->m, n = (double)r->n, k = (double)r->k;
    return tf_stream_seconds(d, 2 * (m * k + k * n + m * n));
}

/* The efficiency that best explains the rows the compute bound governs
 * (at efficiency g_prev), in log terms; g_prev when none is. */
static double efficiency_for(const struct tf_device *d, const cc_table *t, double g_prev)
{
    double sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < t->n; i++) {
        const cc_row *r = &t->rows[i];
        double flops = 2.0 * (double)r->m * (double)r->n * (double)r->k;
        double at_full = flops / (d->peak_flops * tf_gemm_utilisation(d, r->m, r->n, r->k));
        if (at_full / g_prev < operands_seconds(d, r))
            continue;
        sum += log(at_full / r->seconds);
        used++;
    }
    return used ? exp(sum / (double)used) : g_prev;
}

static double cost(const struct tf_device *d, const cc_table *t)
{
    double sum = 0;
    for (size_t i = 0; i < t->n; i++) {
        double e = log(cc_model_seconds(d, &t->rows[i]) / t->rows[i].seconds);
        sum += e * e;
    }
    return sum;
}

double cc_fit(struct tf_device *d, const cc_table *t)
{
    struct tf_device best = *d, trial = *d;
    double best_cost = INFINITY;
    for (int kf = 0; kf <= K_FIXED_MAX; kf += K_FIXED_STEP) {
        trial.k_fixed = kf;
        double g = 1;
        for (int turn = 0; turn < REFINE_TURNS; turn++)
            g = efficiency_for(&trial, t, g);
        trial.gemm_efficiency = g;
        double c = cost(&trial, t);
        if (c < best_cost) {
            best_cost = c;
            best = trial;
        }
    }
    d->k_fixed = best.k_fixed;
    d->gemm_efficiency = best.gemm_efficiency;
    return t->n ? sqrt(best_cost / (double)t->n) : 0;
}
