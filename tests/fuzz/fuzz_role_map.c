/* Fuzz target: the role map of a compact workload
 * (core/et/et_roles.c, PREFIX.roles.json), for a 16-NPU network and, as
 * the tools read it, with the map's own rank count. */
#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "vimana/et_roles.h"

int fuzz_target_role_map(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("gpt.roles.json", data, size, path);
    vet_roles m;
    char err[600];
    for (uint32_t ranks = 0; ranks <= 16; ranks += 16)
        if (vet_roles_load(path, ranks, &m, err, sizeof err) == 0) {
            for (uint32_t x = 0; x < m.n_ranks; x++)
                (void)vet_roles_peer(&m, x, (int64_t)x - 1);
            vet_roles_free(&m);
        }
    return 0;
}
