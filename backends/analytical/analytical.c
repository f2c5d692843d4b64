/*
 * analytical.so - congestion-unaware analytical network.
 *
 * Every message is independent: it costs hops x latency + size / bandwidth
 * of the lowest dimension in which source and destination differ, truncated
 * once to whole ticks (shared/spec/simulator.md section 11). No link state.
 *
 * On a topology graph (vimana/topology_graph.h) the same idea follows the
 * route congestion_aware takes: the sum of its links' latencies plus size /
 * the slowest link's rate (the message streams through, nothing else is on
 * the links). On a star or a ring this is the network YAML's formula.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vimana/backend_toolkit.h"
#include "vimana/topology_graph.h"

/* The toolkit keeps the network (bt.net), the clock and the path; the model
 * itself has no state but the graph of a topology file (NULL otherwise). */
typedef struct analytical {
    vimana_bt bt;
    vimana_topo *topo;
} analytical;

/* A topology file (ns-3 .txt, or a Custom network YAML) is a graph; any
 * other network YAML is read as dimensions. */
static int load_network(analytical *a, char *err, size_t err_len)
{
    int rc = a->bt.network_path ? vimana_topo_load(a->bt.network_path, &a->topo, err, err_len) : 1;
    if (rc < 0)
        return VIMANA_ERR_CONFIG;
    if (rc > 0)
        return vimana_bt_load_network(&a->bt, err, err_len);
    vimana_topo_net_shape(a->topo, &a->bt.net);
    return VIMANA_OK;
}

static int cu_init(const vimana_backend_params *params, const vimana_host *host, void **ctx,
                   char *err, size_t err_len)
{
    analytical *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    int rc = vimana_bt_init(&a->bt, params, host, err, err_len);
    if (rc == VIMANA_OK)
        rc = load_network(a, err, err_len);
    /* the queue holds the host's events and the deliveries only */
    vimana_bt_use_lookahead(&a->bt);
    if (rc != VIMANA_OK) {
        vimana_bt_fini(&a->bt);
        vimana_topo_free(a->topo);
        free(a);
        return rc;
    }
    *ctx = a;
    return VIMANA_OK;
}

static void cu_fini(void *ctx)
{
    analytical *a = ctx;
    if (!a)
        return;
    vimana_bt_fini(&a->bt);
    vimana_topo_free(a->topo);
    free(a);
}

static uint32_t hops_in_block(const vimana_net_dim *d, uint32_t src, uint32_t dst)
{
    switch (d->topology) {
    case VIMANA_NET_RING: {
        uint32_t cw = (dst + d->npus - src) % d->npus;
        uint32_t ccw = d->npus - cw;
        return cw < ccw ? cw : ccw;
    }
    case VIMANA_NET_FULLY_CONNECTED: return 1;
    case VIMANA_NET_SWITCH: return 2;
    }
    return 1;
}

/* The error path of cu_send, kept out of line so the per-message path
 * carries no message buffers. */
static __attribute__((cold, noinline)) int report_late_arrival(analytical *a, uint32_t src, uint32_t dst,
                                                                uint64_t bytes, uint32_t dim)
{
    const vimana_net_dim *d = &a->bt.net.dims[dim];
    char where[200];
    vimana_bt_escape(a->bt.network_path, where, sizeof where);
    vimana_bt_log(&a->bt, VIMANA_LOG_ERROR,
                  "%s: a message of %llu bytes from NPU %u to NPU %u would arrive after 2^64-1 ns, "
                  "the longest time Vimana can simulate (bandwidth[%u] %g GB/s, latency[%u] %g ns)", where,
                  (unsigned long long)bytes, src, dst, dim, d->bandwidth_gbps, dim, d->latency_ns);
    return VIMANA_ERR_ARGUMENT;
}

/* A graph's message: the route's latencies plus size / its slowest rate,
 * truncated once. VIMANA_TOPO_NONE from next_link: the route cache could
 * not grow. */
static int graph_send(analytical *a, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t token)
{
    uint32_t node = vimana_topo_npu_node(a->topo, src), end = vimana_topo_npu_node(a->topo, dst);
    uint64_t h = vimana_topo_ecmp_hash(src, dst);
    double latency = 0.0, slowest = 0.0;
    while (node != end) {
        uint32_t l = vimana_topo_next_link(a->topo, node, dst, &h);
        if (l == VIMANA_TOPO_NONE) {
            vimana_bt_log(&a->bt, VIMANA_LOG_ERROR, "analytical: out of memory for the route cache");
            return VIMANA_ERR_NOMEM;
        }
        const vimana_topo_link *tl = vimana_topo_link_info(a->topo, l);
        latency += tl->latency_ns;
        if (slowest == 0.0 || tl->bytes_per_ns < slowest)
            slowest = tl->bytes_per_ns;
        node = tl->dst;
    }
    double ticks = latency + (double)bytes / slowest;
    int rc = ticks < VIMANA_TICK_LIMIT ? vimana_bt_deliver_after(&a->bt, (vimana_tick)ticks, token)
                                       : VIMANA_ERR_ARGUMENT;
    if (rc == VIMANA_ERR_ARGUMENT) {
        char where[200];
        vimana_bt_escape(a->bt.network_path, where, sizeof where);
        vimana_bt_log(&a->bt, VIMANA_LOG_ERROR,
                      "%s: a message of %llu bytes from NPU %u to NPU %u would arrive after 2^64-1 ns, the "
                      "longest time Vimana can simulate (slowest link on its route %g GB/s)", where,
                      (unsigned long long)bytes, src, dst, slowest * 1e9 / 1073741824.0);
    }
    return rc;
}

static int cu_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    analytical *a = ctx;
    (void)tag;
    const vimana_net_config *net = &a->bt.net;
    if (src >= net->total_npus || dst >= net->total_npus || src == dst || bytes == 0) {
        vimana_bt_log(&a->bt, VIMANA_LOG_ERROR, "analytical: invalid message %u -> %u of %llu bytes", src, dst,
                      (unsigned long long)bytes);
        return VIMANA_ERR_ARGUMENT;
    }
    if (a->topo)
        return graph_send(a, src, dst, bytes, token);
    /* Only the lowest differing dimension is charged: peel coordinates off
     * dimension by dimension until they differ. */
    uint32_t dim = 0, s_rest = src, d_rest = dst, s_coord, d_coord;
    for (;; dim++) {
        uint32_t n = net->dims[dim].npus;
        s_coord = s_rest % n;
        d_coord = d_rest % n;
        if (s_coord != d_coord)
            break;
        s_rest /= n;
        d_rest /= n;
    }
    const vimana_net_dim *d = &net->dims[dim];
    uint32_t hops = hops_in_block(d, s_coord, d_coord);
    double link_delay = hops * d->latency_ns;
    double serialization = (double)bytes / d->bytes_per_ns;
    double ticks = link_delay + serialization;
    /* Checked before the truncation, which is undefined beyond 2^64; the
     * queue refuses an arrival past the last tick. */
    if (!(ticks < VIMANA_TICK_LIMIT))
        return report_late_arrival(a, src, dst, bytes, dim);
    int rc = vimana_bt_deliver_after(&a->bt, (vimana_tick)ticks, token);
    return rc == VIMANA_ERR_ARGUMENT ? report_late_arrival(a, src, dst, bytes, dim) : rc;
}

static const vimana_backend analytical_backend = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "analytical",
.description = "congestion-unaware analytical network (Ring, FullyConnected, Switch, multi-dimensional, "
                   "or the routes of a topology file)",
    .capabilities = VIMANA_CAP_MULTI_DIM,
    .init = cu_init,
    .fini = cu_fini,
    .sim_send = cu_send,
    VIMANA_BT_DEFAULTS,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &analytical_backend;
}
