/* Fuzz target: the master trace of vimana-et merge (tools/merge/et_master.c):
 * recognised by its metadata, split into rank files in the scratch folder
 * (removed after each input). */
#include <stdio.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "merge/et_master.h"

int fuzz_target_et_master(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX], prefix[FUZZ_PATH_MAX], rank[FUZZ_PATH_MAX + 32];
    fuzz_write("master.et", data, size, path);
    fuzz_path("rank", prefix);
    size_t n = 0;
    char msg[800];
    if (et_master_is(path))
        (void)et_master_split(path, prefix, &n, msg, sizeof msg);
    for (size_t k = 0; k < n; k++) {
        snprintf(rank, sizeof rank, "%s.%zu.et", prefix, k);
        remove(rank);
    }
    return 0;
}
