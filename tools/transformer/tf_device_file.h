/*
 * tf_device_file.h - `generate transformer --device PATH`: a GPU described
 * by its data sheet and published microbenchmarks, in a JSON file (or a
 * folder holding device.json), for devices Vimana has no preset for
 * (docs/transformer.md, "Device files"):
 *
 *   {"name": "h200", "peak-tflops": 989, "fp8-peak-tflops": 1979,
 *    "hbm-tbps": 4.8, "sms": 132, "gemm-tile": [128, 256], "gemm-k-fixed": 64,
 *    "best-gemm": {"tflops": 792.1, "m": 6144, "n": 17920, "k": 2816},
 *    "sustained-ratio": 0.849,
 *    "attention-efficiency": {"forward": 0.5, "backward": 0.4},
 *    "memory-efficiency": 0.85}
 *
 * Every key but fp8-peak-tflops is required; every number is range-checked.
 * A fitted device (vimana-et calibrate-compute) gives "gemm-efficiency"
 * (its fraction of peak at full utilisation, sustained) instead of
 * best-gemm and sustained-ratio, and attention efficiencies as sustained.
 */
#ifndef VIMANA_TOOLS_TF_DEVICE_FILE_H
#define VIMANA_TOOLS_TF_DEVICE_FILE_H

#include <stddef.h>

#include "transformer/tf_device.h"

/* Fills *out from the file (or DIR/device.json). Returns 0, or -1 with one
 * line in `msg` naming the file and the key. */
int tf_device_load(const char *path, struct tf_device *out, char *msg, size_t len);

#endif
