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

/*
 * A backend's own additions to the file (vimana_net_load_ext): topology
 * names and top-level keys of its own, for a model the three built-in
 * building blocks do not describe (a mesh, a dragonfly, a router's VC
 * count). Without it, an unknown name is refused and an unknown key is
 * warned about and skipped.
 */
#define VIMANA_NET_EXT_FIRST 16 /* the topology value of topologies[0] */
#define VIMANA_NET_EXT_MAX 16   /* at most this many names, and keys */
typedef struct vimana_net_ext {
    /* A dimension named topologies[i] gets the topology value
     * VIMANA_NET_EXT_FIRST + i (cast to enum vimana_net_topology). Its
     * npus_count, bandwidth and latency are read and checked as any
     * dimension's; the longest route is taken to be npus_count hops. The
     * toolkit's layout helpers (vimana/net_layout.h) know only Ring,
     * FullyConnected and Switch: a backend lays out its own names itself. */
    const char *const *topologies;
    size_t n_topologies;
    /* Top-level keys the backend reads. The value of keys[i] (one plain
     * value, or a list of them) is handed to `key` with the key's name;
     * key() returns 0, or -1 with the reason in err, which the reader
     * prefixes with "PATH: line N: NAME: ". Each key at most once. */
    const char *const *keys;
    size_t n_keys;
    int (*key)(void *ctx, const char *name, const char *const *values, size_t n_values, char *err,
               size_t err_len);
    void *ctx;
} vimana_net_ext;

/* vimana_net_load with a backend's additions (ext may be NULL: the same as
 * vimana_net_load). A name or key that is also a built-in one is refused. */
int vimana_net_load_ext(const char *path, const vimana_net_ext *ext, vimana_net_config *out, char *err,
                        size_t err_len, void (*warn)(void *ctx, const char *message), void *warn_ctx);

/* "Ring", "FullyConnected", "Switch"; "?" for a backend's own. */
const char *vimana_net_topology_name(enum vimana_net_topology t);

/* Coordinate of `npu` in dimension d (dimension 0 varies fastest). */
uint32_t vimana_net_coord(const vimana_net_config *cfg, uint32_t npu, uint32_t dim);

#ifdef __cplusplus
}
#endif

#endif
