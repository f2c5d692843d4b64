/*
 * cc_fit.h - fits the kernel model's GEMM efficiency and per-CTA cost
 * (tools/transformer/tf_kernels.h) to measured GEMMs: for every per-CTA
 * cost on a grid (0 to 1024 steps of K, by 8), the efficiency that
 * minimises the squared log error of the rows the compute bound governs
 * has a closed form; the pair with the least error over all rows wins.
 */
#ifndef VIMANA_TOOLS_CC_FIT_H
#define VIMANA_TOOLS_CC_FIT_H

#include "calibrate_compute/cc_table.h"
#include "transformer/tf_device.h"

/* The model's time of the row's GEMM on d (16-bit operands). */
double cc_model_seconds(const struct tf_device *d, const cc_row *r);
/* Sets d->gemm_efficiency and d->k_fixed to the best fit of the rows; the
 * other fields are used as given. Returns the root-mean-square log error. */
double cc_fit(struct tf_device *d, const cc_table *t);

#endif
