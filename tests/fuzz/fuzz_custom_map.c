/* Fuzz target: the per-node custom-collective map, the YAML file the system
 * JSON's "per-node-custom-implementation" names (core/config/custom_map.c). */
#include "config/custom_map.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_custom_map(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("custom_map.yaml", data, size, path);
    custom_by_node *map = NULL;
    size_t n = 0;
    char err[600];
    if (custom_map_load(path, &map, &n, err, sizeof err) == 0)
        custom_map_free(map, n);
    return 0;
}
