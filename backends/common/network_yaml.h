/*
 * network_yaml.h - the analytical network description (network YAML of
 * shared/spec/simulator.md section 6), shared by the analytical backends.
 *
 *   topology: [ Ring, FullyConnected, Switch ]
 *   npus_count: [ 2, 8, 4 ]
 *   bandwidth: [ 200.0, 100.0, 50.0 ]   # GB/s, 1 GB = 2^30 bytes
 *   latency: [ 50.0, 500.0, 2000.0 ]    # ns
 */
#ifndef VIMANA_BACKENDS_NETWORK_YAML_H
#define VIMANA_BACKENDS_NETWORK_YAML_H

#include <stddef.h>
#include <stdint.h>

#define NETWORK_MAX_DIMS 16
/* At most this many NPUs in all (the product of npus_count): the simulator
 * keeps about half a kilobyte per NPU before it reads any trace. */
#define NETWORK_MAX_NPUS (1u << 20)
/* An unknown key's value is skipped, but no deeper or longer than this. */
#define NETWORK_YAML_MAX_DEPTH 64
#define NETWORK_YAML_MAX_SKIPPED (1 << 20)
/* 2^64 as a double: no time in ticks (ns) reaches it. */
#define NETWORK_TICK_LIMIT 18446744073709551616.0

enum network_topology {
    NETWORK_RING = 0,
    NETWORK_FULLY_CONNECTED = 1,
    NETWORK_SWITCH = 2,
};

typedef struct network_dim {
    enum network_topology topology;
    uint32_t npus;
    double bandwidth_gbps;   /* as written */
    double bytes_per_ns;     /* bandwidth_gbps * 2^30 / 10^9 */
    double latency_ns;
} network_dim;

typedef struct network_config {
    uint32_t n_dims;
    uint32_t total_npus;     /* product of the per-dimension counts */
    network_dim dims[NETWORK_MAX_DIMS];
} network_config;

/* Reads and validates a network YAML. Returns 0, or -1 with a one-line
 * message in err naming the file and the problem. Unknown top-level keys
 * are reported through `warn` (may be NULL). Checks: bandwidth > 0,
 * latency >= 0, both finite and such that one byte over the longest route
 * of a dimension takes less than 2^64 ns; at most NETWORK_MAX_NPUS NPUs. */
int network_config_load(const char *path, network_config *out, char *err, size_t err_len,
                        void (*warn)(void *ctx, const char *message), void *warn_ctx);

/* "Ring", "FullyConnected", "Switch". */
const char *network_topology_name(enum network_topology t);

/* Coordinate of `npu` in dimension d (dimension 0 varies fastest). */
uint32_t network_coord(const network_config *cfg, uint32_t npu, uint32_t dim);

#endif
