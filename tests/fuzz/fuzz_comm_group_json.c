/* Fuzz target: the communicator-group JSON reader
 * (core/config/comm_group_config.c), for an 8-NPU network. */
#include "config/comm_group_config.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_comm_group_json(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("comm_group.json", data, size, path);
    comm_group_config cfg;
    char err[512];
    /* The simulator frees the configuration after a failed load too. */
    if (comm_group_config_load(path, 8, &cfg, err, sizeof err) != 0) {
        comm_group_config_free(&cfg);
        return 0;
    }
    comm_group_config_free(&cfg);
    return 0;
}
