/* Internal to the toolkit: the network YAML that points at a topology file
 * (topology: [ Custom ], topology-file, dims). */
#ifndef VIMANA_TOOLKIT_TOPOLOGY_YAML_H
#define VIMANA_TOOLKIT_TOPOLOGY_YAML_H

#include <stddef.h>
#include <stdint.h>

#include "vimana/topology_graph.h"

/* A Custom network YAML is a few lines; a larger file is never one. */
#define TOPO_YAML_MAX_BYTES (64 * 1024)

typedef struct {
    char file[4096];          /* topology-file, relative to the YAML's folder */
    uint32_t n_dims;          /* 0: the topology file's own */
    uint32_t dims[VIMANA_TOPO_MAX_DIMS];
    size_t dims_line;
} topo_yaml;

/* Returns 0 for a Custom network YAML (filled in), 1 for a file that is not
 * one (no top-level 'topology: [ Custom ]'; read it with vimana_net_load),
 * 2 for a YAML that is no mapping at all (empty, one scalar, a list), -1
 * with one line "PATH:LINE: ..." in err for a Custom one that is wrong.
 * A file libyaml cannot parse, or larger than TOPO_YAML_MAX_BYTES, is 1:
 * vimana_net_load gives its own message for it. */
int topo_yaml_read(const char *path, topo_yaml *out, char *err, size_t err_len);

#endif
