/* Fuzz target: the network YAML reader shared by the analytical backends
 * (backends/toolkit/network_yaml.c). */
#include "vimana/network_yaml.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_network_yaml(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("network.yml", data, size, path);
    vimana_net_config cfg;
    char err[512];
    if (vimana_net_load(path, &cfg, err, sizeof err, fuzz_ignore_warning, NULL) == 0) {
        for (uint32_t d = 0; d < cfg.n_dims; d++)
            vimana_net_topology_name(cfg.dims[d].topology);
        if (cfg.total_npus > 0)
            for (uint32_t d = 0; d < cfg.n_dims; d++)
                vimana_net_coord(&cfg, cfg.total_npus - 1, d);
    }
    return 0;
}
