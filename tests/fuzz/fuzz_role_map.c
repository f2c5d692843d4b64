/* Fuzz target: the role map of a compact workload
 * (core/config/role_map.c, PREFIX.roles.json), for a 16-NPU network. */
#include "config/role_map.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("gpt.roles.json", data, size, path);
    role_map m;
    char err[600];
    if (role_map_load(path, 16, &m, err, sizeof err) == 0)
        role_map_free(&m);
    return 0;
}
