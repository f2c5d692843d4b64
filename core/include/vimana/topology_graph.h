/*
 * vimana/topology_graph.h - a network graph read from a topology file, with
 * shortest-path routing (backend toolkit, libvimana_backend).
 *
 * The file is the upstream ns-3 topology .txt (docs/backends.md, "Topology
 * files"):
 *
 *   # comment lines are allowed (Vimana only; strip them for upstream ns-3)
 *   # vimana-dims: 8 4          optional logical dimensions of the NPUs
 *   <total_nodes> <switch_count> <link_count>
 *   <switch id> <switch id> ...
 *   <src> <dst> <rate, 400Gbps> <delay, 0.0005ms> <error_rate>    one per link
 *
 * Hosts are the ids that are not switches; NPU k is the k-th host id in
 * increasing order. One link line is two directed links, one each way:
 * directed link 2i goes from the src to the dst of the i-th link line,
 * 2i+1 back. Routes are shortest paths by hop count, ties broken by a hash
 * of (src NPU, dst NPU) (ECMP).
 *
 * A vimana_topo is not thread-safe: routing fills a per-destination cache.
 */
#ifndef VIMANA_TOPOLOGY_GRAPH_H
#define VIMANA_TOPOLOGY_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits on what a file may declare: nodes (NPUs + switches) and link
 * lines. The NPUs are also bounded by VIMANA_NET_MAX_NPUS. */
#define VIMANA_TOPO_MAX_NODES (1u << 22)
#define VIMANA_TOPO_MAX_LINK_LINES (1u << 24)
#define VIMANA_TOPO_MAX_DIMS 16
/* Default bound on the route cache (bytes of per-destination tables). */
#define VIMANA_TOPO_DEFAULT_ROUTE_CACHE (64u << 20)
#define VIMANA_TOPO_NONE UINT32_MAX

typedef struct vimana_topo vimana_topo;

/* One directed link. */
typedef struct vimana_topo_link {
    uint32_t src, dst;        /* node ids as in the file */
    double bandwidth_gbps;    /* GB/s, 1 GB = 2^30 bytes */
    double bytes_per_ns;      /* the same rate in bytes per tick (ns) */
    double latency_ns;        /* delay in ticks (ns) */
    double error_rate;        /* 0: the reader refuses a lossy link (no Vimana model drops packets) */
    uint32_t line;            /* the line of the file that declared it */
} vimana_topo_link;

/* Reads and validates a topology: an ns-3 .txt (its first word, after
 * blank and '#' lines, is the node count) or a network YAML with
 *
 *   topology: [ Custom ]
 *   topology-file: fat_tree_64.txt   # relative to the YAML's folder
 *   dims: [ 8, 8 ]                   # optional; replaces the file's vimana-dims
 *
 * Returns 0 and a graph to free with vimana_topo_free; 1 (nothing in err)
 * for a file that is not a topology (a network YAML that is not Custom, an
 * empty file, one that cannot be opened): read it with vimana_net_load,
 * which says what is wrong with it; or
 * -1 with ONE line in err: "PATH:LINE: what is wrong" (or "PATH: ..." when
 * no line is to blame). */
int vimana_topo_load(const char *path, vimana_topo **out, char *err, size_t err_len);
void vimana_topo_free(vimana_topo *t);

uint32_t vimana_topo_num_nodes(const vimana_topo *t);
uint32_t vimana_topo_num_npus(const vimana_topo *t);
uint32_t vimana_topo_num_switches(const vimana_topo *t);
uint32_t vimana_topo_num_links(const vimana_topo *t);   /* directed: 2 per line */

/* NPU <-> node id. node_npu returns VIMANA_TOPO_NONE for a switch. */
uint32_t vimana_topo_npu_node(const vimana_topo *t, uint32_t npu);
uint32_t vimana_topo_node_npu(const vimana_topo *t, uint32_t node);
/* The device id of the link-statistics ABI: NPUs first (by NPU index), then
 * switches in increasing node id. */
uint32_t vimana_topo_node_device(const vimana_topo *t, uint32_t node);
/* The inverse: the node id of device `device` (VIMANA_TOPO_NONE if none). */
uint32_t vimana_topo_device_node(const vimana_topo *t, uint32_t device);
/* "npu3" or "switch64" (the node id of the file): a name for reports. */
const char *vimana_topo_node_name(const vimana_topo *t, uint32_t node, char *buf, size_t len);

/* A backend's device_name() for a network that is a graph (t) or a
 * network YAML's dimensions (t NULL, `npus` NPUs): the node's name of the
 * file ("npu3", "switch64") or the host's default ("npuK", "switchJ" with
 * J = K - npus). NULL for a device the graph does not have. */
const char *vimana_topo_device_name(const vimana_topo *t, uint32_t npus, uint32_t device, char *buf, size_t len);

const vimana_topo_link *vimana_topo_link_info(const vimana_topo *t, uint32_t link);

/* Logical dimensions for the system layer: the file's vimana-dims, or one
 * dimension of all NPUs. Their product is the NPU count. */
uint32_t vimana_topo_num_dims(const vimana_topo *t);
uint32_t vimana_topo_dim_size(const vimana_topo *t, uint32_t dim);

/* The directed links from NPU src to NPU dst, in order. Returns the number
 * of hops (0 when src == dst) and writes min(hops, max) link ids; a return
 * above `max` means the buffer was too small. Returns -1 for an NPU out of
 * range or if the route cache cannot be allocated. */
long vimana_topo_route(vimana_topo *t, uint32_t src_npu, uint32_t dst_npu, uint32_t *links, size_t max);

/* One hop of the same routes, for a backend that moves a message hop by
 * hop without storing its path: the link a message for NPU dst_npu takes
 * out of `node`. *ecmp starts as vimana_topo_ecmp_hash(src, dst) and is
 * updated at every choice, so calling this from the source node to the
 * destination gives exactly vimana_topo_route's links. Returns
 * VIMANA_TOPO_NONE at the destination, for an id out of range, or if the
 * route cache cannot be allocated. */
uint32_t vimana_topo_next_link(vimana_topo *t, uint32_t node, uint32_t dst_npu, uint64_t *ecmp);

/* Takes directed link `link` out of the routes (down != 0) or puts it
 * back: later routes are the shortest over the links that are up (a link
 * and its reverse, 2i and 2i+1, each count on their own). Drops the route
 * cache. Returns 0, or -1 for a link out of range or without memory. Once
 * links are down, vimana_topo_next_link returns VIMANA_TOPO_NONE from a
 * node they cut off from the destination. */
int vimana_topo_set_link_down(vimana_topo *t, uint32_t link, int down);

/* The NPUs that the links marked in `down` (one byte per directed link, 1
 * = down; a link counts as cut when either direction is) cut off from NPU
 * 0: writes the first `max` NPU indexes, in order, and returns how many
 * there are (0: connected), or -1 without memory. */
long vimana_topo_cut_off(vimana_topo *t, const uint8_t *down, uint32_t *npus, size_t max);

/* A backend's partition check for link_fault (network_api.h): 0 when the
 * links of `down` cut no NPU off; 1 with one line in err, "the links down
 * from tick AT cut NPUs 4, 5, 6, 7 off from NPU 0 (a partition: no route is
 * left between them)" (the first 8 named, then "and more"); -1 with "out of
 * memory". */
int vimana_topo_check_partition(vimana_topo *t, const uint8_t *down, uint64_t at, char *err, size_t err_len);

/* The same over the bandwidth factors a backend registered with link_fault:
 * registered[l] is link l's latest factor (an entry for every link of t; 1
 * with no fault, 0 down). */
int vimana_topo_check_registered(vimana_topo *t, const double *registered, uint64_t at, char *err, size_t err_len);

/* The route cache keeps one table of 4 bytes per node for each destination
 * routed to, until it holds `bytes`; then the oldest table is reused. */
void vimana_topo_set_route_cache_limit(vimana_topo *t, size_t bytes);
size_t vimana_topo_route_cache_bytes(const vimana_topo *t);

/* The graph as the system layer sees it, for a backend's bt.net (the
 * toolkit's num_dims / dim_size / dim_bandwidth read it): the logical
 * dimensions, each with topology Switch (never read for a graph) and, as
 * its bandwidth and latency for --report, those of the slowest link on the
 * route from NPU 0 to its neighbour in that dimension (coordinate 1 there,
 * 0 elsewhere): what a ring step of the dimension gets alone. A dimension of
 * size 1 takes the slowest link out of NPU 0; a lone NPU 1 GB/s, 0 ns. */
struct vimana_net_config;
void vimana_topo_net_shape(vimana_topo *t, struct vimana_net_config *net);

/* The ECMP hash: which of k equal-cost next hops a route takes. */
uint64_t vimana_topo_ecmp_hash(uint32_t src_npu, uint32_t dst_npu);

#ifdef __cplusplus
}
#endif

#endif
