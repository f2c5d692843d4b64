/*
 * congestion_aware.so - link-level, store-and-forward analytical network
 * (the reference's behaviour, docs/simulator.md), on any number of Ring /
 * FullyConnected / Switch dimensions routed dimension-order, or on a
 * topology graph read from a file (vimana/topology_graph.h), routed by
 * shortest path with the toolkit's ECMP choice.
 *
 * Each directed link carries one message at a time and queues the others
 * in FIFO order. A message crosses its route hop by hop; on each hop it
 * arrives latency + size/bandwidth after it started and frees the link after
 * size/bandwidth (the arrival is scheduled first, which decides same-tick
 * order). Messages live in a pooled array, so a send allocates nothing once
 * the pool has grown.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "vimana/backend_toolkit.h"
#include "vimana/link_faults.h"
#include "vimana/net_layout.h"
#include "vimana/topology_graph.h"

#define NIL UINT32_MAX
/* Link state is kept per directed link; bounded so that FullyConnected
 * dimensions (n links per NPU) cannot exhaust memory. */
#define CA_MAX_FC_NPUS 4096u
#define CA_MAX_LINKS (CA_MAX_FC_NPUS * CA_MAX_FC_NPUS)

/* One message in flight. Kept at 48 bytes: an all-to-all of 1024 NPUs has
 * a million of them at once. A hop's times are computed when it starts on
 * its link (one division), not stored. */
typedef struct {
    uint64_t token;
    uint64_t bytes;
    vimana_tick queued_at;  /* when it asked for its current link: the wait is counted from here */
    /* Network YAML: the device the message is at. Topology graph: the node
     * the current hop leads to (set when the hop's link is chosen). */
    uint32_t cur;
    uint32_t dst;           /* destination NPU */
    union {
        struct {
            uint32_t target; /* the NPU where the crossing of the current dimension ends */
            uint32_t via;    /* Switch: the switch of the current dimension */
        };
        uint64_t ecmp;       /* topology graph: vimana_topo_next_link's ECMP state */
    };
    uint32_t next_pending;  /* link FIFO chain */
    uint8_t dim;            /* the dimension being crossed */
    int8_t step;            /* Ring: +1 or -1 */
} message;
_Static_assert(sizeof(message) == 48, "a message in flight must stay at 48 bytes");

/* The FIFO of a directed link; its counters are the toolkit's link table
 * (bt.links, same index). */
typedef struct {
    bool busy;
    uint32_t head, tail;    /* pending messages */
} link_state;

/* The toolkit keeps the network (bt.net), the clock, the path and the link
 * counters. */
typedef struct congestion_aware {
    vimana_bt bt;
    vimana_topo *topo;      /* a topology graph, or NULL for a network YAML */
    /* Graph: the slowest hop any route can have, per byte and fixed, and
     * the most hops (a shortest path visits a node at most once): a bound
     * that spares most sends the walk of graph_route_fits. */
    double worst_ns_per_byte, worst_latency_ns;
    uint32_t max_hops;
    uint32_t npus;
    uint32_t n_dims;
    vimana_net_layout lay;  /* network YAML: device and link numbering */
    link_state *links;
    uint32_t n_links;
    message *msgs;
    uint32_t n_msgs, cap_msgs, free_msgs;
    /* --network-faults (link_fault): per link its bandwidth factor now (1
     * as built, 0 down); the faults registered, to apply at their ticks;
     * the smallest factor any link will have (route_fits). NULL and 0
     * until a fault is registered. */
    double *factor;
    vimana_link_faults faults;
    double min_factor;
} congestion_aware;

static void log_error(congestion_aware *c, const char *msg)
{
    c->bt.host.log(c->bt.host.host, VIMANA_LOG_ERROR, msg);
}

/* ---- topology: link ids and routes ---------------------------------------- */
/*
 * Devices and links of a network YAML are numbered by the toolkit's
 * vimana/net_layout.h (the 1-D model's numbering with one dimension, so 1-D
 * link records do not change; ns3_shim and garnet number them the same way).
 */

static void name_link(void *ctx, uint32_t link, uint32_t dim, uint32_t a, uint32_t b)
{
    congestion_aware *c = ctx;
    (void)dim;
    vimana_bt_link_ends(&c->bt, link, a, b);
}

static void name_graph_links(congestion_aware *c);

static void init_links(congestion_aware *c)
{
    for (uint32_t i = 0; i < c->n_links; i++)
        c->links[i] = (link_state){.head = NIL, .tail = NIL};
    if (c->topo) {
        name_graph_links(c);
        return;
    }
    vimana_net_layout_links(&c->lay, name_link, c);
}

/* Hops a message makes in dimension d going from coordinate s to t. */
static uint32_t hops_in_dim(const congestion_aware *c, uint32_t d, uint32_t s, uint32_t t)
{
    int step;
    switch (c->bt.net.dims[d].topology) {
    case VIMANA_NET_RING: return vimana_net_layout_ring_hops(c->bt.net.dims[d].npus, s, t, &step);
    case VIMANA_NET_FULLY_CONNECTED: return 1;
    case VIMANA_NET_SWITCH: return 2;
    }
    return 1;
}

/* Dimension-order routing (the toolkit's legs): the message at NPU m->cur
 * starts crossing the lowest dimension in which it differs from its
 * destination. */
static void enter_next_dim(const congestion_aware *c, message *m)
{
    vimana_net_leg leg = vimana_net_layout_leg(&c->lay, m->cur, m->dst);
    m->dim = (uint8_t)leg.dim;
    m->target = leg.target;
    m->via = leg.via;
    m->step = (int8_t)leg.step;
}

static uint32_t next_device(const congestion_aware *c, const message *m)
{
    return vimana_net_layout_leg_next(&c->lay, m->dim, m->cur, m->target, m->via, m->step);
}

/* ---- message pool -------------------------------------------------------- */

static uint32_t msg_alloc(congestion_aware *c)
{
    if (c->free_msgs != NIL) {
        uint32_t i = c->free_msgs;
        c->free_msgs = c->msgs[i].next_pending;
        return i;
    }
    if (c->n_msgs == NIL ||
        vimana_bt_pool_grow((void **)&c->msgs, &c->cap_msgs, c->n_msgs, sizeof *c->msgs) != VIMANA_OK)
        return NIL;
    return c->n_msgs++;
}

static void msg_free(congestion_aware *c, uint32_t i)
{
    c->msgs[i].next_pending = c->free_msgs;
    c->free_msgs = i;
}

/* ---- events -------------------------------------------------------------- */

static void on_arrival(void *ctx, uint64_t msg_index);
static void on_link_free(void *ctx, uint64_t link_index);

/* The hop's times on `link`, truncated as the reference does: it arrives
 * trunc(latency + bytes / bandwidth) after it starts and holds the link
 * trunc(bytes / bandwidth). A network YAML link has its dimension's
 * figures; a graph link its own. */
static void hop_ticks(const congestion_aware *c, uint32_t link, const message *m, vimana_tick *arrive,
                      vimana_tick *release)
{
    double bytes_per_ns, latency_ns;
    if (c->topo) {
        const vimana_topo_link *tl = vimana_topo_link_info(c->topo, link);
        bytes_per_ns = tl->bytes_per_ns;
        latency_ns = tl->latency_ns;
    } else {
        bytes_per_ns = c->bt.net.dims[m->dim].bytes_per_ns;
        latency_ns = c->bt.net.dims[m->dim].latency_ns;
    }
    if (c->factor)
        bytes_per_ns *= c->factor[link];
    double serialization = (double)m->bytes / bytes_per_ns;
    *arrive = (vimana_tick)(latency_ns + serialization);
    *release = (vimana_tick)serialization;
}

static void start_on_link(congestion_aware *c, uint32_t link, uint32_t mi)
{
    link_state *l = &c->links[link];
    const message *m = &c->msgs[mi];
    vimana_tick arrive, release;
    hop_ticks(c, link, m, &arrive, &release);
    l->busy = true;
    vimana_bt_link_count(&c->bt, link, m->bytes, release);
    vimana_bt_link_queued(&c->bt, link, vimana_evq_now(c->bt.evq) - m->queued_at);
    if (vimana_evq_schedule(c->bt.evq, arrive, on_arrival, c, mi) != VIMANA_OK ||
        vimana_evq_schedule(c->bt.evq, release, on_link_free, c, link) != VIMANA_OK)
        log_error(c, "congestion_aware: out of memory scheduling an event");
}

/* Topology graph: the link out of node m->cur toward m->dst (the ECMP
 * choice of vimana_topo_next_link); m->cur becomes the node at its far end. VIMANA_TOPO_NONE if the route cache cannot grow. */
static uint32_t graph_hop(congestion_aware *c, message *m)
{
    uint32_t link = vimana_topo_next_link(c->topo, m->cur, m->dst, &m->ecmp);
    if (link == VIMANA_TOPO_NONE)
        return link;
    m->cur = vimana_topo_link_info(c->topo, link)->dst;
    return link;
}

/* Puts the message on its next link, or in that link's FIFO. Returns -1 if
 * the route cache cannot grow (topology graph). */
static int forward(congestion_aware *c, uint32_t mi)
{
    message *m = &c->msgs[mi];
    uint32_t link = c->topo ? graph_hop(c, m) : vimana_net_layout_link_id(&c->lay, m->dim, m->cur, next_device(c, m));
    if (link == VIMANA_TOPO_NONE)
        return -1;
    link_state *l = &c->links[link];
    m->queued_at = vimana_evq_now(c->bt.evq);
    if (l->busy) {
        c->msgs[mi].next_pending = NIL;
        if (l->tail == NIL)
            l->head = mi;
        else
            c->msgs[l->tail].next_pending = mi;
        l->tail = mi;
        return 0;
    }
    start_on_link(c, link, mi);
    return 0;
}

static void on_link_free(void *ctx, uint64_t link_index)
{
    congestion_aware *c = ctx;
    link_state *l = &c->links[link_index];
    l->busy = false;
    if (l->head == NIL)
        return;
    uint32_t mi = l->head;
    l->head = c->msgs[mi].next_pending;
    if (l->head == NIL)
        l->tail = NIL;
    start_on_link(c, (uint32_t)link_index, mi);
}

/* A message at node m->cur has no link onward: links down (since it was
 * routed) cut the node off from its destination, or the route cache could
 * not grow. */
static void fail_no_route(congestion_aware *c, const message *m)
{
    char name[VIMANA_DEVICE_NAME_MAX + 1];
    vimana_topo_node_name(c->topo, m->cur, name, sizeof name);
    vimana_bt_fail(&c->bt, "congestion_aware: a message for NPU %u reached %s, which the links down cut off from it "
                   "(or the route cache cannot grow)", m->dst, name);
}

static void on_arrival(void *ctx, uint64_t msg_index)
{
    congestion_aware *c = ctx;
    uint32_t mi = (uint32_t)msg_index;
    message *m = &c->msgs[mi];
    if (c->topo) {
        if (m->cur != vimana_topo_npu_node(c->topo, m->dst)) {
            if (forward(c, mi) != 0)
                fail_no_route(c, m);
            return;
        }
    } else if ((m->cur = next_device(c, m)) != m->dst) {
        if (m->cur == m->target)
            enter_next_dim(c, m);
        forward(c, mi);
        return;
    }
    uint64_t token = m->token;
    msg_free(c, mi);
    c->bt.host.delivered(c->bt.host.host, token);
}

/* ---- vtable -------------------------------------------------------------- */

/* Frees a context whose init failed or whose run is over. */
static void ca_free(congestion_aware *c)
{
    vimana_bt_fini(&c->bt);
    vimana_topo_free(c->topo);
    free(c->factor);
    vimana_bt_faults_free(&c->faults);
    free(c->links);
    free(c->msgs);
    free(c);
}

/* ---- init: a network YAML --------------------------------------------------- */

/* Lays out the dimensions' links and switches (vimana/net_layout.h). */
static int yaml_layout(congestion_aware *c, char *err, size_t err_len)
{
    c->n_dims = c->bt.net.n_dims;
    c->npus = c->bt.net.total_npus;
    vimana_net_layout_init(&c->lay, &c->bt.net);
    if (c->lay.n_links > CA_MAX_LINKS) {
        /* Every directed link has its own state: n links per NPU for a
         * FullyConnected dimension of n. */
        if (c->n_dims == 1)
            snprintf(err, err_len, "%s: npus_count (%u): a FullyConnected network of more than %u NPUs needs more "
                     "than %u links, more than the congestion_aware backend supports", c->bt.network_path,
                     c->npus, CA_MAX_FC_NPUS, CA_MAX_LINKS);
        else
            snprintf(err, err_len, "%s: npus_count: this network needs more than %u links, more than the "
                     "congestion_aware backend supports", c->bt.network_path, CA_MAX_LINKS);
        return VIMANA_ERR_CONFIG;
    }
    c->n_links = (uint32_t)c->lay.n_links;
    return VIMANA_OK;
}

/* ---- init: a topology graph -------------------------------------------------- */

static int graph_layout(congestion_aware *c, char *err, size_t err_len)
{
    uint32_t links;
    int rc = vimana_bt_graph_network(&c->bt, c->topo, "congestion_aware", CA_MAX_LINKS, &links, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    c->n_dims = c->bt.net.n_dims;
    c->npus = c->bt.net.total_npus;
    c->n_links = links;
    for (uint32_t l = 0; l < links; l++) {
        const vimana_topo_link *tl = vimana_topo_link_info(c->topo, l);
        if (1.0 / tl->bytes_per_ns > c->worst_ns_per_byte)
            c->worst_ns_per_byte = 1.0 / tl->bytes_per_ns;
        if (tl->latency_ns > c->worst_latency_ns)
            c->worst_latency_ns = tl->latency_ns;
    }
    c->max_hops = vimana_topo_num_nodes(c->topo) - 1;
    return VIMANA_OK;
}

/* Link i of the graph is link i of the table; devices are the graph's
 * (NPUs by index, then switches by node id). */
static void name_graph_links(congestion_aware *c)
{
    for (uint32_t l = 0; l < c->n_links; l++) {
        const vimana_topo_link *tl = vimana_topo_link_info(c->topo, l);
        vimana_bt_link_ends(&c->bt, l, vimana_topo_node_device(c->topo, tl->src),
                            vimana_topo_node_device(c->topo, tl->dst));
    }
}

/* ---- init ------------------------------------------------------------------ */

/* A topology file (ns-3 .txt, or a Custom network YAML) is a graph; any
 * other network YAML is read as dimensions. */
static int load_network(congestion_aware *c, char *err, size_t err_len)
{
    int rc = vimana_bt_load_graph_or_yaml(&c->bt, &c->topo, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    return c->topo ? graph_layout(c, err, err_len) : yaml_layout(c, err, err_len);
}

static int ca_init(const vimana_backend_params *params, const vimana_host *host, void **ctx,
                   char *err, size_t err_len)
{
    congestion_aware *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    c->free_msgs = NIL;
    c->min_factor = 1;
    int rc = vimana_bt_init(&c->bt, params, host, err, err_len);
    if (rc == VIMANA_OK)
        rc = vimana_bt_no_options(params, "congestion_aware", err, err_len);
    if (rc == VIMANA_OK)
        rc = load_network(c, err, err_len);
    if (rc != VIMANA_OK) {
        ca_free(c);
        return rc;
    }
    c->links = calloc(c->n_links ? c->n_links : 1, sizeof *c->links);
    if (!c->links || vimana_bt_links_alloc(&c->bt, c->n_links) != VIMANA_OK) {
        snprintf(err, err_len, "out of memory");
        ca_free(c);
        return VIMANA_ERR_NOMEM;
    }
    init_links(c);
    *ctx = c;
    return VIMANA_OK;
}

static void ca_fini(void *ctx)
{
    if (ctx)
        ca_free(ctx);
}
/* The error path of route_fits, out of line (it names the dimension whose
 * hops overflow). */
static __attribute__((cold, noinline)) int report_late_arrival(congestion_aware *c, uint32_t src, uint32_t dst,
                                                                uint64_t bytes, double gbps, double latency_ns)
{
    char msg[640], where[200];
    vimana_bt_escape(c->bt.network_path, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: a message of %llu bytes from NPU %u to NPU %u would arrive after 2^64-1 ns, the "
             "longest time Vimana can simulate (bandwidth %g GB/s, latency %g ns)", where, (unsigned long long)bytes,
             src, dst, gbps, latency_ns);
    log_error(c, msg);
    return -1;
}

/* The whole route, queueing aside, must end before the last representable
 * tick; every conversion to ticks is checked first (it is undefined beyond
 * 2^64). Hops are truncated one by one, as the reference does. */
static int route_fits(congestion_aware *c, uint32_t src, uint32_t dst, uint64_t bytes)
{
    vimana_tick route = 0;
    for (uint32_t d = 0; d < c->n_dims; d++) {
        uint32_t s = vimana_net_layout_coord(&c->lay, src, d), t = vimana_net_layout_coord(&c->lay, dst, d);
        if (s == t)
            continue;
        const vimana_net_dim *nd = &c->bt.net.dims[d];
        double arrive = nd->latency_ns + (double)bytes / (nd->bytes_per_ns * c->min_factor);
        vimana_tick dim_route;
        if (!(arrive < VIMANA_TICK_LIMIT) ||
            __builtin_mul_overflow((vimana_tick)arrive, (vimana_tick)hops_in_dim(c, d, s, t), &dim_route) ||
            __builtin_add_overflow(route, dim_route, &route) || route > UINT64_MAX - vimana_evq_now(c->bt.evq))
            return report_late_arrival(c, src, dst, bytes, nd->bandwidth_gbps, nd->latency_ns);
    }
    return 0;
}

/* route_fits on a topology graph: the route's hops, walked as the message
 * will take them (the bandwidth and latency named are the hop's that
 * passes the limit). */
static int graph_route_fits(congestion_aware *c, uint32_t src, uint32_t dst, uint64_t bytes)
{
    /* The bound is far (a factor 4) below the limit: the rounding of the
     * doubles cannot matter. Only a route that might pass it is walked. */
    double bound =
        c->max_hops * (c->worst_latency_ns + (double)bytes * c->worst_ns_per_byte / c->min_factor + 1.0);
    if (bound < 0x1p62 && (vimana_tick)bound <= UINT64_MAX - vimana_evq_now(c->bt.evq))
        return 0;
    uint32_t node = vimana_topo_npu_node(c->topo, src), end = vimana_topo_npu_node(c->topo, dst);
    uint64_t h = vimana_topo_ecmp_hash(src, dst);
    vimana_tick route = 0;
    while (node != end) {
        uint32_t link = vimana_topo_next_link(c->topo, node, dst, &h);
        if (link == VIMANA_TOPO_NONE) {
            log_error(c, "congestion_aware: out of memory for the route cache");
            return -1;
        }
        const vimana_topo_link *tl = vimana_topo_link_info(c->topo, link);
        double arrive = tl->latency_ns + (double)bytes / (tl->bytes_per_ns * c->min_factor);
        if (!(arrive < VIMANA_TICK_LIMIT) || __builtin_add_overflow(route, (vimana_tick)arrive, &route) ||
            route > UINT64_MAX - vimana_evq_now(c->bt.evq))
            return report_late_arrival(c, src, dst, bytes, tl->bandwidth_gbps, tl->latency_ns);
        node = tl->dst;
    }
    return 0;
}

static int ca_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    congestion_aware *c = ctx;
    (void)tag;
    if (src >= c->npus || dst >= c->npus || src == dst || bytes == 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "congestion_aware: invalid message %u -> %u of %llu bytes", src, dst,
                 (unsigned long long)bytes);
        log_error(c, msg);
        return VIMANA_ERR_ARGUMENT;
    }
    if ((c->topo ? graph_route_fits(c, src, dst, bytes) : route_fits(c, src, dst, bytes)) != 0)
        return VIMANA_ERR_ARGUMENT;
    uint32_t mi = msg_alloc(c);
    if (mi == NIL) {
        log_error(c, "congestion_aware: out of memory");
        return VIMANA_ERR_NOMEM;
    }
    c->msgs[mi] = (message){.token = token, .bytes = bytes, .cur = src, .dst = dst, .next_pending = NIL};
    if (c->topo) {
        c->msgs[mi].cur = vimana_topo_npu_node(c->topo, src);
        c->msgs[mi].ecmp = vimana_topo_ecmp_hash(src, dst);
    } else {
        enter_next_dim(c, &c->msgs[mi]);
    }
    if (forward(c, mi) != 0) {
        msg_free(c, mi);
        log_error(c, "congestion_aware: out of memory for the route cache");
        return VIMANA_ERR_NOMEM;
    }
    return VIMANA_OK;
}

/* ---- network faults (link_fault, ABI 1.4) ---------------------------------- */

/* A link that just went down: the messages waiting for it go back to the
 * node they were leaving and take the shortest remaining route from there
 * (the one crossing it still arrives). */
static void reroute_waiting(congestion_aware *c, uint32_t link)
{
    link_state *l = &c->links[link];
    uint32_t mi = l->head, from = vimana_topo_link_info(c->topo, link)->src;
    l->head = l->tail = NIL;
    while (mi != NIL) {
        uint32_t next = c->msgs[mi].next_pending;
        c->msgs[mi].cur = from;
        if (forward(c, mi) != 0) {
            fail_no_route(c, &c->msgs[mi]);
            return;
        }
        mi = next;
    }
}

/* Fault k reaches its tick. */
static void on_fault(void *ctx, uint64_t k)
{
    congestion_aware *c = ctx;
    const vimana_link_fault *f = &c->faults.items[k];
    c->factor[f->link] = f->factor;
    if (vimana_bt_fault_route(&c->bt, c->topo, "congestion_aware", f) == 1)
        reroute_waiting(c, f->link);
}

/* Every link's factor now: 1 (as built) until its first fault is due. */
static int factors_alloc(congestion_aware *c)
{
    if (c->factor)
        return 0;
    c->factor = malloc(c->n_links * sizeof *c->factor);
    if (!c->factor)
        return -1;
    for (uint32_t l = 0; l < c->n_links; l++)
        c->factor[l] = 1;
    return 0;
}

static int ca_link_fault(void *ctx, uint32_t link, vimana_tick at, double factor, char *err, size_t err_len)
{
    congestion_aware *c = ctx;
    int rc = vimana_bt_fault_check("congestion_aware", link, c->n_links, factor, c->topo != NULL, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    if (factors_alloc(c) != 0) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    rc = vimana_bt_fault_add(&c->faults, c->topo, c->n_links, link, at, factor, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    if (factor > 0 && factor < c->min_factor)
        c->min_factor = factor;
    uint32_t k = c->faults.n - 1;
    /* A fault of the current tick holds for the sends the host makes before
     * run() too: applied now, not queued behind them. */
    if (at <= vimana_evq_now(c->bt.evq)) {
        on_fault(c, k);
        return c->bt.failed ? VIMANA_ERR_NOMEM : VIMANA_OK;
    }
    return vimana_bt_fault_schedule(&c->bt, at, on_fault, c, k, err, err_len);
}

/* Devices of a topology graph are named as its file numbers them
 * ("switch64"); a network YAML's get the host's default names. */
static const char *ca_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    const congestion_aware *c = ctx;
    return vimana_topo_device_name(c->topo, c->npus, device, buf, len);
}

static const vimana_backend congestion_aware_backend = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "congestion_aware",
    .description = "congestion-aware analytical network: store-and-forward, one FIFO per directed link, "
                   "dimension-order routing, or shortest paths (ECMP) on a topology file",
    .capabilities = VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM,
    .init = ca_init,
    .fini = ca_fini,
    .sim_send = ca_send,
    VIMANA_BT_DEFAULTS,
    VIMANA_BT_LINK_STATS,
    .device_name = ca_device_name,
    .link_fault = ca_link_fault,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &congestion_aware_backend;
}
