/* Fuzz target: the network YAML reader shared by the analytical backends
 * (backends/common/network_yaml.c). */
#include "common/network_yaml.h"
#include "fuzz_input.h"

static void ignore_warning(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("network.yml", data, size, path);
    network_config cfg;
    char err[512];
    if (network_config_load(path, &cfg, err, sizeof err, ignore_warning, NULL) == 0) {
        for (uint32_t d = 0; d < cfg.n_dims; d++)
            network_topology_name(cfg.dims[d].topology);
        if (cfg.total_npus > 0)
            for (uint32_t d = 0; d < cfg.n_dims; d++)
                network_coord(&cfg, cfg.total_npus - 1, d);
    }
    return 0;
}
