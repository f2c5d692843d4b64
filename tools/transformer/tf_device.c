/* The device presets (docs/validation.md, "Compute: sources"). */
#include "transformer/tf_device.h"

#include <stddef.h>
#include <string.h>

#include "transformer/tf_kernels.h"

/* A preset as published: the data sheet, then the best GEMM a
 * microbenchmark measured (its FLOP/s and shape) at boost clock, and the
 * ratio of the sustained (power-saturated) rate to that burst. The GEMM
 * efficiency is derived so that the model gives exactly the best GEMM
 * times that ratio; FlashAttention's published rates are bursts too and
 * take the same ratio. */
struct preset {
    struct tf_device d;
    double best_gemm_flops;
    uint64_t best_m, best_n, best_k;
    double sustained;
};

/* A100 SXM4 80 GB: 312 TFLOP/s dense bf16, 2.039 TB/s, 108 SMs; cuBLAS'
 * large bf16 GEMMs use 256 x 128 tiles. Best GEMM: 267.9 TFLOP/s at
 * 6912 x 16384 x 2048 (Bekman, ml-engineering, "Maximum Achievable Matmul
 * FLOPS", CUDA 12.1). Causal FlashAttention-2, head dim 128, 2K tokens:
 * about 0.62 of peak forward, 0.52 backward (Dao, 2023, fig. 4-6).
 * H100 SXM5: 989 TFLOP/s bf16, 1979 FP8, 3.35 TB/s, 132 SMs, 128 x 256
 * tiles; best GEMM 792.1 TFLOP/s at 6144 x 17920 x 2816 (the same table);
 * fused attention (cuDNN / FlashAttention-3, causal, head dim 128, 2K): about
 * 0.50 forward, 0.40 backward (Shah et al., 2024, fig. 5-7).
 * Sustained over burst: 702.9 / 828.0 TFLOP/s = 0.849, an H200 (the H100's
 * die and 700 W) measured alone (the same source's "MSMF" against "MAMF";
 * with all 8 GPUs of the node busy 701.3 / 825.8, the same 0.849); no A100
 * figure was found and it takes Hopper's.
 * H200 SXM: the H100's die and clocks (the same peaks, SMs, tiles, GEMM and
 * attention figures) with 4.8 TB/s of HBM3e.
 * Streaming kernels reach 0.85 of the HBM bandwidth on all three: on an
 * H200 here (bench/gpu/decode_bandwidth.py, docs/inference.md) a 2 GiB copy
 * reached 0.887, a decode layer's GEMMs 0.869 and a 70B-class model's whole
 * decode step 0.828 (batch 1) to 0.841 (batch 8). */
static const struct preset presets[] = {
    {{"a100", 312e12, 0, 2.039e12, 108, 256, 128, 64, 0, 0.62, 0.52, 0.85}, 267.9e12, 6912, 16384, 2048, 0.849},
    {{"h100", 989e12, 1979e12, 3.35e12, 132, 128, 256, 64, 0, 0.50, 0.40, 0.85}, 792.1e12, 6144, 17920, 2816, 0.849},
    {{"h200", 989e12, 1979e12, 4.8e12, 132, 128, 256, 64, 0, 0.50, 0.40, 0.85}, 792.1e12, 6144, 17920, 2816, 0.849},
};

int tf_device_lookup(const char *name, struct tf_device *out)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        const struct preset *p = &presets[i];
        if (strcmp(name, p->d.name) != 0)
            continue;
        *out = p->d;
        tf_device_calibrate(out, p->best_gemm_flops, p->best_m, p->best_n, p->best_k, p->sustained);
        return 0;
    }
    return -1;
}

double tf_device_calibrate(struct tf_device *d, double best_flops, uint64_t m, uint64_t n, uint64_t k,
                           double sustained)
{
    d->gemm_efficiency = best_flops * sustained / d->peak_flops / tf_gemm_utilisation(d, m, n, k);
    d->attn_fwd_efficiency *= sustained;
    d->attn_bwd_efficiency *= sustained;
    return d->gemm_efficiency;
}
