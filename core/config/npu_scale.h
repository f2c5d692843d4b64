/*
 * npu_scale.h - per-NPU compute-time multipliers, vimana
 * --npu-compute-scale=FILE.json (docs/simulator.md, "Unequal NPUs"): one
 * JSON object whose keys are an NPU ("3") or a range of NPUs ("8-15",
 * both ends included) and whose values multiply the compute durations of
 * those NPUs (2.0: a straggler at half speed; 0.5: a GPU twice as fast):
 *
 *   {"3": 2.0, "8-15": 0.5}
 *
 * NPUs no key names keep 1. A value is a number in (0, 10^6]; an NPU named
 * twice, a key that is no NPU or range, or an NPU outside the system is an
 * error naming the file and the key.
 */
#ifndef VIMANA_CONFIG_NPU_SCALE_H
#define VIMANA_CONFIG_NPU_SCALE_H

#include <stddef.h>
#include <stdint.h>

#define NPU_SCALE_MAX 1e6

/* Reads `path` for a system of n_npus NPUs into *out ([n_npus], the caller
 * frees it). Returns 0, or -1 with one line in err. */
int npu_scale_load(const char *path, uint32_t n_npus, double **out, char *err, size_t err_len);

#endif
