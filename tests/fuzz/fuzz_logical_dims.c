/* Fuzz target: --logical-topology-configuration=FILE.json, checked against
 * a 128-NPU run (core/config/logical_dims.c). */
#include "config/logical_dims.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_logical_dims(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("logical.json", data, size, path);
    char err[600];
    (void)logical_dims_check(path, 128, err, sizeof err);
    return 0;
}
