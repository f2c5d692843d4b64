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

struct tf_device {
    const char *name;
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

/* Finds a preset ("h100", "a100"); -1 when unknown. */
int tf_device_lookup(const char *name, struct tf_device *out);

#endif
