/*
 * analytical.so - congestion-unaware analytical network.
 *
 * Every message is independent: it costs hops x latency + size / bandwidth
 * of the lowest dimension in which source and destination differ, truncated
 * once to whole ticks (the reference's behaviour, docs/simulator.md). No link state.
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
    /* Dimensions: stride[d] is the product of the counts below d; the
     * coordinates of two NPUs agree below d + 1 iff their difference is a
     * multiple of stride[d + 1], which divides_magic[d] tests with one
     * multiplication (multiple_of) instead of four divisions per
     * dimension, a tenth of a message's time at thousands of NPUs. */
    uint32_t stride[VIMANA_NET_MAX_DIMS];
    uint64_t divides_magic[VIMANA_NET_MAX_DIMS];
    /* A Ring dimension's hops come from the coordinates' difference,
     * |src - dst| / stride[d] mod npus (exact: the coordinates below d
     * agree), with one multiplication each instead of a division, which
     * took a third of this model's time on a 64-NPU ring. */
    uint64_t stride_magic[VIMANA_NET_MAX_DIMS], npus_magic[VIMANA_NET_MAX_DIMS];
} analytical;

/* Lemire, Kaser and Kurz, "Faster remainder by direct computation"
 * (2019): for 32-bit n and d > 0, n % d == 0 iff n * c <= c - 1 in 64-bit
 * arithmetic, c = 2^64 / d rounded up (0 for d = 1: every n passes). */
static uint64_t divides_magic(uint32_t d)
{
    return UINT64_MAX / d + 1;
}

static int multiple_of(uint32_t n, uint64_t magic)
{
    return n * magic <= magic - 1;
}

/* The same paper: n / d is the high 64 bits of c * n, and n % d those of
 * (c * n mod 2^64) * d, for 32-bit n and 1 < d (fast_div) or 0 < d. */
__extension__ typedef unsigned __int128 u128;

static uint32_t fast_div(uint32_t n, uint64_t magic)
{
    return (uint32_t)(((u128)magic * n) >> 64);
}

static uint32_t fast_mod(uint32_t n, uint64_t magic, uint32_t d)
{
    return (uint32_t)(((u128)(magic * n) * d) >> 64);
}

static void precompute_dims(analytical *a)
{
    const vimana_net_config *net = &a->bt.net;
    uint64_t stride = 1;
    for (uint32_t d = 0; d < net->n_dims; d++) {
        a->stride[d] = (uint32_t)stride;
        stride *= net->dims[d].npus;   /* at most total_npus, a uint32_t */
        a->divides_magic[d] = divides_magic((uint32_t)stride);
        a->stride_magic[d] = divides_magic(a->stride[d]);
        a->npus_magic[d] = divides_magic(net->dims[d].npus);
    }
}

/* A topology file (ns-3 .txt, or a Custom network YAML) is a graph; any
 * other network YAML is read as dimensions. */
static int load_network(analytical *a, char *err, size_t err_len)
{
    int rc = vimana_bt_load_graph_or_yaml(&a->bt, &a->topo, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    if (a->topo)
        vimana_topo_net_shape(a->topo, &a->bt.net);
    else
        precompute_dims(a);
    return VIMANA_OK;
}

#define LOOKAHEAD_MIN_NPUS 4096

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
        rc = vimana_bt_no_options(params, "analytical", err, err_len);
    if (rc == VIMANA_OK)
        rc = load_network(a, err, err_len);
    /* The queue holds the host's events and the deliveries only, so the
     * host's look-ahead hints reach all of them. They pay when the host's
     * records of the NPUs outgrow the core's caches, and cost about 3 ns
     * an event when they do not: measured on 4096 NPUs, +7 % for a 1 MiB
     * ring all-reduce on one Switch, -7 % for a 64 MiB one on 8x8x64;
     * on 16384 NPUs (8x8x256) -30 %. */
    if (rc == VIMANA_OK && a->bt.net.total_npus > LOOKAHEAD_MIN_NPUS)
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

/* Hops between two NPUs `delta` = |src - dst| apart whose lowest differing
 * dimension is `dim`: on a Ring the shorter way round, the same in both
 * directions. */
static uint32_t hops_in_dim(const analytical *a, uint32_t dim, uint32_t delta)
{
    const vimana_net_dim *d = &a->bt.net.dims[dim];
    switch (d->topology) {
    case VIMANA_NET_RING: {
        uint32_t steps = a->stride[dim] == 1 ? delta : fast_div(delta, a->stride_magic[dim]);
        uint32_t one_way = fast_mod(steps, a->npus_magic[dim], d->npus);
        uint32_t other_way = d->npus - one_way;
        return one_way < other_way ? one_way : other_way;
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
    /* Only the lowest differing dimension is charged: the first d whose
     * coordinates differ, i.e. whose stride[d + 1] does not divide the
     * difference (the last one's, total_npus, never does). */
    uint32_t delta = src > dst ? src - dst : dst - src, dim = 0;
    while (multiple_of(delta, a->divides_magic[dim]))
        dim++;
    const vimana_net_dim *d = &net->dims[dim];
    uint32_t hops = hops_in_dim(a, dim, delta);
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
