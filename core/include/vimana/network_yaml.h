/*
 * vimana/network_yaml.h - the network YAML reader of the backend toolkit
 * (libvimana_backend): the description the shipped analytical backends read
 * (docs/simulator.md, "The network YAML"), for any backend that wants the
 * same file format and the same error messages.
 *
 *   topology: [ Ring, FullyConnected, Switch ]
 *   npus_count: [ 2, 8, 4 ]
 *   bandwidth: [ 200.0, 100.0, 50.0 ]   # GB/s, 1 GB = 2^30 bytes
 *   latency: [ 50.0, 500.0, 2000.0 ]    # ns
 */
#ifndef VIMANA_NETWORK_YAML_H
#define VIMANA_NETWORK_YAML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VIMANA_NET_MAX_DIMS 16
/* At most this many NPUs in all (the product of npus_count): the simulator
 * keeps about half a kilobyte per NPU before it reads any trace. */
#define VIMANA_NET_MAX_NPUS (1u << 20)
/* An unknown key's value is skipped, but no deeper or longer than this. */
#define VIMANA_NET_YAML_MAX_DEPTH 64
#define VIMANA_NET_YAML_MAX_SKIPPED (1 << 20)
/* 2^64 as a double: no time in ticks (ns) reaches it. A computed time must
 * be below it before it is converted to vimana_tick. */
#define VIMANA_TICK_LIMIT 18446744073709551616.0

enum vimana_net_topology {
    VIMANA_NET_RING = 0,
    VIMANA_NET_FULLY_CONNECTED = 1,
    VIMANA_NET_SWITCH = 2,
};

typedef struct vimana_net_dim {
    enum vimana_net_topology topology;
    uint32_t npus;
    double bandwidth_gbps;   /* as written */
    double bytes_per_ns;     /* bandwidth_gbps * 2^30 / 10^9 */
    double latency_ns;
} vimana_net_dim;

typedef struct vimana_net_config {
    uint32_t n_dims;
    uint32_t total_npus;     /* product of the per-dimension counts */
    vimana_net_dim dims[VIMANA_NET_MAX_DIMS];
} vimana_net_config;

/* Reads and validates a network YAML. Returns 0, or -1 with a one-line
 * message in err naming the file and the problem. Unknown top-level keys
 * are reported through `warn` (may be NULL). Checks: bandwidth > 0,
 * latency >= 0, both finite and such that one byte over the longest route
 * of a dimension takes less than 2^64 ns; at most VIMANA_NET_MAX_NPUS NPUs. */
int vimana_net_load(const char *path, vimana_net_config *out, char *err, size_t err_len,
                        void (*warn)(void *ctx, const char *message), void *warn_ctx);

/* "Ring", "FullyConnected", "Switch". */
const char *vimana_net_topology_name(enum vimana_net_topology t);

/* Coordinate of `npu` in dimension d (dimension 0 varies fastest). */
uint32_t vimana_net_coord(const vimana_net_config *cfg, uint32_t npu, uint32_t dim);

#ifdef __cplusplus
}
#endif

#endif
