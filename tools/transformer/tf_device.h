/*
 * tf_device.h - the compute devices of `generate transformer` (--device):
 * data-sheet peaks and bandwidth for the roofline, and for the kernel model
 * (tf_kernels.h) the SM count, the GEMM tile and the published
 * microbenchmarks it is calibrated from (docs/validation.md lists each
 * source).
 */
#ifndef VIMANA_TOOLS_TF_DEVICE_H
#define VIMANA_TOOLS_TF_DEVICE_H

#include <stdint.h>

#define TF_DEVICE_NAME_MAX 32

struct tf_device {
    char name[TF_DEVICE_NAME_MAX];
    double peak_flops;       /* dense tensor-core FLOP/s, bf16 / fp16 */
    double peak_fp8;         /* dense FP8 FLOP/s; 0: no FP8 */
    double mem_bw;           /* HBM bytes/s (data sheet) */
    /* the kernel model */
    uint32_t sms;            /* streaming multiprocessors: one CTA each per wave */
    uint32_t tile_m, tile_n; /* output tile of cuBLAS' large 16-bit GEMMs */
    double k_fixed;          /* a CTA's fixed cost in steps of K */
    double gemm_efficiency;  /* fraction of peak at full utilisation, from the GEMM benchmark */
    double attn_fwd_efficiency, attn_bwd_efficiency; /* causal FlashAttention, fraction of peak */
    double mem_efficiency;   /* fraction of mem_bw reached by streaming kernels */
};

/* Finds a preset ("h100", "h200", "a100"); -1 when unknown. */
int tf_device_lookup(const char *name, struct tf_device *out);

/* Sets d->gemm_efficiency from the best GEMM a benchmark measured (FLOP/s
 * at boost clock, its shape) and the sustained-over-burst ratio, so that
 * the model gives that measurement times the ratio at that shape; scales
 * the attention efficiencies (published bursts too) by the ratio. Returns
 * the derived efficiency (above 1 when the measurement is faster than the
 * shape's utilisation allows). */
double tf_device_calibrate(struct tf_device *d, double best_flops, uint64_t m, uint64_t n, uint64_t k,
                           double sustained);

#endif
