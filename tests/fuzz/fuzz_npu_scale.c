/* Fuzz target: per-NPU compute-time multipliers, vimana
 * --npu-compute-scale=FILE.json (core/config/npu_scale.c), for a 16-NPU
 * system. */
#include <stdlib.h>

#include "config/npu_scale.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_npu_scale(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("scale.json", data, size, path);
    double *scale = NULL;
    char err[600];
    if (npu_scale_load(path, 16, &scale, err, sizeof err) == 0)
        free(scale);
    return 0;
}
