/* Fuzz target: the topology graph of the backend toolkit
 * (backends/toolkit/topology_graph.c, topology_yaml.c): an ns-3 topology
 * .txt or a Custom network YAML; an accepted graph is routed both ways
 * between its first and last NPU, with a one-table route cache. */
#include "vimana/topology_graph.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_topology(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("topology.txt", data, size, path);
    vimana_topo *t = NULL;
    char err[512];
    if (vimana_topo_load(path, &t, err, sizeof err) == 0) {
        uint32_t n = vimana_topo_num_npus(t), links[64], dims = 1;
        char name[32];
        vimana_topo_set_route_cache_limit(t, 1);
        vimana_topo_route(t, 0, n - 1, links, 64);
        vimana_topo_route(t, n - 1, 0, links, 64);
        for (uint32_t d = 0; d < vimana_topo_num_dims(t); d++)
            dims *= vimana_topo_dim_size(t, d);
        if (dims != n)
            __builtin_trap();
        vimana_topo_node_name(t, vimana_topo_num_nodes(t) - 1, name, sizeof name);
        vimana_topo_free(t);
    }
    return 0;
}
