/*
 * shim_topology.h - the ns3_shim's network as a list of directed links and
 * the route of every message, in C on the backend toolkit (no ns-3 here).
 *
 * The network is either a network YAML (Ring / FullyConnected / Switch
 * dimensions, dimension-order routing) or a topology file (shortest paths
 * with the toolkit's ECMP choice, vimana_topo_route). Devices, link ids and
 * routes are exactly congestion_aware's, so the two backends' --report link
 * records and ECMP choices agree: devices are NPUs 0..N-1, then switches;
 * each directed link has a source and a destination device, a rate and a
 * delay.
 */
#ifndef NS3_SHIM_TOPOLOGY_H
#define NS3_SHIM_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "vimana/backend_toolkit.h"
#include "vimana/net_layout.h"
#include "vimana/topology_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many directed links: each is an ns-3 channel with two
 * devices and their queues, about 4 KiB (a FullyConnected dimension of n
 * NPUs has n*n; 2^18 links are about a GiB). */
#define SHIM_MAX_LINKS (1u << 18)

typedef struct shim_link {
    uint32_t src_device, dst_device;
    double bytes_per_ns; /* rate, bytes per tick (ns), > 0 */
    double latency_ns;   /* propagation delay, ticks (ns), >= 0 */
} shim_link;

typedef struct shim_topology {
    vimana_topo *topo;          /* a topology graph, or NULL for a network YAML */
    const vimana_net_config *net;
    uint32_t npus, devices;
    uint32_t n_links;
    shim_link *links;
    vimana_net_layout lay;      /* network YAML: congestion_aware's numbering (vimana/net_layout.h) */
} shim_topology;

/* Reads bt->network_path (a topology file, or else a network YAML into
 * bt->net; for a graph, bt->net gets the logical dimensions and each
 * dimension's bandwidth as congestion_aware reports it) and builds the link
 * list. VIMANA_OK, or an error status with one line in err. */
int shim_topology_load(shim_topology *t, vimana_bt *bt, char *err, size_t err_len);
void shim_topology_free(shim_topology *t);

/* The directed links from NPU src to NPU dst (src != dst, both < npus).
 * Returns the hop count, writing min(hops, max) link ids; -1 if the route
 * cache cannot grow. */
long shim_topology_route(shim_topology *t, uint32_t src, uint32_t dst, uint32_t *links, size_t max);

/* Topology file only: the link a packet for NPU dst_npu takes out of
 * device `device` over the links that are up now (vimana_topo_next_link;
 * *ecmp is its ECMP state, started with vimana_topo_ecmp_hash). UINT32_MAX
 * when the links down cut the device off from dst_npu, or the route cache
 * cannot grow. */
uint32_t shim_topology_next_link(shim_topology *t, uint32_t device, uint32_t dst_npu, uint64_t *ecmp);

/* Topology file only: whether the links marked in `down` (one byte per
 * directed link) cut NPUs off from NPU 0. VIMANA_OK; VIMANA_ERR_CONFIG with
 * congestion_aware's line naming them and the tick `at`; VIMANA_ERR_NOMEM. */
int shim_topology_check_partition(shim_topology *t, const uint8_t *down, vimana_tick at, char *err, size_t err_len);

/* "npu3", "switch0" (YAML) or the topology file's node name. */
const char *shim_topology_device_name(const shim_topology *t, uint32_t device, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
