/*
 * congestion_aware.so - link-level, store-and-forward analytical network
 * (shared/spec/simulator.md section 12).
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

#define NIL UINT32_MAX
/* Link state is kept per directed link; bounded so that a FullyConnected
 * network (n x n links) cannot exhaust memory. */
#define CA_MAX_FC_NPUS 4096u
#define CA_MAX_LINKS (CA_MAX_FC_NPUS * CA_MAX_FC_NPUS)

typedef struct {
    uint64_t token;
    uint64_t bytes;
    vimana_tick hop_ticks;  /* trunc(latency + bytes / bandwidth): arrival after a hop starts */
    vimana_tick busy_ticks; /* trunc(bytes / bandwidth): how long the hop holds its link */
    uint32_t cur, dst;      /* device the message is at, and its destination */
    int32_t step;           /* Ring: +1 or -1 */
    uint32_t next_pending;  /* link FIFO chain */
} message;

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
    vimana_net_dim dim;     /* the single dimension */
    uint32_t npus;
    link_state *links;
    uint32_t n_links;
    message *msgs;
    uint32_t n_msgs, cap_msgs, free_msgs;
} congestion_aware;

static void log_error(congestion_aware *c, const char *msg)
{
    c->bt.host.log(c->bt.host.host, VIMANA_LOG_ERROR, msg);
}

/* ---- topology: link ids and routes ---------------------------------------- */

static uint32_t switch_device(const congestion_aware *c)
{
    return c->npus;
}

/* The directed link from device a to its neighbour b. */
static uint32_t link_id(const congestion_aware *c, uint32_t a, uint32_t b)
{
    uint32_t n = c->npus;
    switch (c->dim.topology) {
    case VIMANA_NET_RING:
        /* Two links per device, one each way; with two NPUs both
         * neighbours are the same device, so one link each way. */
        return a * 2 + ((b == (a + 1) % n) ? 0u : 1u);
    case VIMANA_NET_FULLY_CONNECTED:
        return a * n + b;
    case VIMANA_NET_SWITCH:
        return a == switch_device(c) ? n + b : a;
    }
    return 0;
}

/* The link between two devices, named in the toolkit's table. */
static void name_link(congestion_aware *c, uint32_t a, uint32_t b)
{
    vimana_bt_link_ends(&c->bt, link_id(c, a, b), a, b);
}

static void init_links(congestion_aware *c)
{
    uint32_t n = c->npus;
    for (uint32_t i = 0; i < c->n_links; i++)
        c->links[i] = (link_state){.head = NIL, .tail = NIL};
    for (uint32_t a = 0; a < n; a++) {
        switch (c->dim.topology) {
        case VIMANA_NET_RING:
            name_link(c, a, (a + 1) % n);
            name_link(c, a, (a + n - 1) % n);
            break;
        case VIMANA_NET_FULLY_CONNECTED:
            for (uint32_t b = 0; b < n; b++)
                name_link(c, a, b);
            break;
        case VIMANA_NET_SWITCH:
            name_link(c, a, n);
            name_link(c, n, a);
            break;
        }
    }
}

static uint32_t next_device(const congestion_aware *c, const message *m)
{
    switch (c->dim.topology) {
    case VIMANA_NET_RING: return (uint32_t)(((int64_t)m->cur + m->step + c->npus) % c->npus);
    case VIMANA_NET_FULLY_CONNECTED: return m->dst;
    case VIMANA_NET_SWITCH: return m->cur == switch_device(c) ? m->dst : switch_device(c);
    }
    return m->dst;
}

/* ---- message pool -------------------------------------------------------- */

static uint32_t msg_alloc(congestion_aware *c)
{
    if (c->free_msgs != NIL) {
        uint32_t i = c->free_msgs;
        c->free_msgs = c->msgs[i].next_pending;
        return i;
    }
    if (c->n_msgs == c->cap_msgs) {
        uint32_t cap = c->cap_msgs ? c->cap_msgs * 2 : 1024;
        message *p = realloc(c->msgs, (size_t)cap * sizeof *p);
        if (!p)
            return NIL;
        c->msgs = p;
        c->cap_msgs = cap;
    }
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

static void start_on_link(congestion_aware *c, uint32_t link, uint32_t mi)
{
    link_state *l = &c->links[link];
    const message *m = &c->msgs[mi];
    vimana_tick arrive = m->hop_ticks;
    vimana_tick release = m->busy_ticks;
    l->busy = true;
    vimana_bt_link_count(&c->bt, link, m->bytes, release);
    if (vimana_evq_schedule(c->bt.evq, arrive, on_arrival, c, mi) != VIMANA_OK ||
        vimana_evq_schedule(c->bt.evq, release, on_link_free, c, link) != VIMANA_OK)
        log_error(c, "congestion_aware: out of memory scheduling an event");
}

static void forward(congestion_aware *c, uint32_t mi)
{
    uint32_t link = link_id(c, c->msgs[mi].cur, next_device(c, &c->msgs[mi]));
    link_state *l = &c->links[link];
    if (l->busy) {
        c->msgs[mi].next_pending = NIL;
        if (l->tail == NIL)
            l->head = mi;
        else
            c->msgs[l->tail].next_pending = mi;
        l->tail = mi;
        return;
    }
    start_on_link(c, link, mi);
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

static void on_arrival(void *ctx, uint64_t msg_index)
{
    congestion_aware *c = ctx;
    uint32_t mi = (uint32_t)msg_index;
    message *m = &c->msgs[mi];
    m->cur = next_device(c, m);
    if (m->cur != m->dst) {
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
    free(c->links);
    free(c->msgs);
    free(c);
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
    int rc = vimana_bt_init(&c->bt, params, host, err, err_len);
    if (rc == VIMANA_OK)
        rc = vimana_bt_load_network(&c->bt, err, err_len);
    if (rc != VIMANA_OK) {
        ca_free(c);
        return rc;
    }
    /* One dimension only: the descriptor does not claim VIMANA_CAP_MULTI_DIM,
     * and an older host that does not check it gets this line. */
    if (c->bt.net.n_dims != 1) {
        snprintf(err, err_len, "%s: only support 1-dim topology (the congestion-aware backend "
                 "models one dimension; this network has %u)", params->network_config, c->bt.net.n_dims);
        ca_free(c);
        return VIMANA_ERR_CONFIG;
    }
    c->dim = c->bt.net.dims[0];
    c->npus = c->dim.npus;
    uint64_t links = c->dim.topology == VIMANA_NET_FULLY_CONNECTED ? (uint64_t)c->npus * c->npus : 2ull * c->npus;
    if (links > CA_MAX_LINKS) {
        /* Every directed link has its own state: n x n of them for a
         * FullyConnected network. */
        snprintf(err, err_len, "%s: npus_count (%u): a FullyConnected network of more than %u NPUs needs more than "
                 "%u links, more than the congestion_aware backend supports", params->network_config, c->npus,
                 CA_MAX_FC_NPUS, CA_MAX_LINKS);
        ca_free(c);
        return VIMANA_ERR_CONFIG;
    }
    c->n_links = (uint32_t)links;
    c->links = calloc(c->n_links, sizeof *c->links);
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
/* Every hop of a message costs the same (one dimension, identical links),
 * so its times are computed once, truncated as the reference does, and
 * checked before the conversion, which is undefined beyond 2^64: the whole
 * route, queueing aside, must end before the last representable tick. */
/* The error path of hop_times, out of line (see above). */
static __attribute__((cold, noinline)) int report_late_arrival(congestion_aware *c, uint32_t src, uint32_t dst,
                                                                uint64_t bytes)
{
    char msg[640], where[200];
    vimana_bt_escape(c->bt.network_path, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: a message of %llu bytes from NPU %u to NPU %u would arrive after 2^64-1 ns, the "
             "longest time Vimana can simulate (bandwidth %g GB/s, latency %g ns)", where, (unsigned long long)bytes,
             src, dst, c->dim.bandwidth_gbps, c->dim.latency_ns);
    log_error(c, msg);
    return -1;
}

static int hop_times(congestion_aware *c, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t hops,
                     vimana_tick *hop_ticks, vimana_tick *busy_ticks)
{
    double serialization = (double)bytes / c->dim.bytes_per_ns;
    double arrive = c->dim.latency_ns + serialization;
    vimana_tick route;
    /* arrive * hops <= 2^64-1 - now, without a division per message. */
    if (arrive < VIMANA_TICK_LIMIT && !__builtin_mul_overflow((vimana_tick)arrive, (vimana_tick)hops, &route) &&
        route <= UINT64_MAX - vimana_evq_now(c->bt.evq)) {
        *hop_ticks = (vimana_tick)arrive;
        *busy_ticks = (vimana_tick)serialization;
        return 0;
    }
    return report_late_arrival(c, src, dst, bytes);
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
    int32_t step = 1;
    uint32_t hops = c->dim.topology == VIMANA_NET_SWITCH ? 2 : 1;
    if (c->dim.topology == VIMANA_NET_RING) {
        /* Shortest way round; a tie goes clockwise. */
        uint32_t cw = (dst + c->npus - src) % c->npus;
        step = cw <= c->npus - cw ? 1 : -1;
        hops = cw <= c->npus - cw ? cw : c->npus - cw;
    }
    vimana_tick hop_ticks = 0, busy_ticks = 0;
    if (hop_times(c, src, dst, bytes, hops, &hop_ticks, &busy_ticks) != 0)
        return VIMANA_ERR_ARGUMENT;
    uint32_t mi = msg_alloc(c);
    if (mi == NIL) {
        log_error(c, "congestion_aware: out of memory");
        return VIMANA_ERR_NOMEM;
    }
    c->msgs[mi] = (message){.token = token, .bytes = bytes, .hop_ticks = hop_ticks, .busy_ticks = busy_ticks,
                            .cur = src, .dst = dst, .step = step, .next_pending = NIL};
    forward(c, mi);
    return VIMANA_OK;
}

static const vimana_backend congestion_aware_backend = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "congestion_aware",
    .description = "congestion-aware analytical network: store-and-forward, one FIFO per directed link (1-D)",
    /* No VIMANA_CAP_MULTI_DIM: init refuses a network of more than one
     * dimension. */
    .capabilities = VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS,
    .init = ca_init,
    .fini = ca_fini,
    .sim_send = ca_send,
    VIMANA_BT_DEFAULTS,
    VIMANA_BT_LINK_STATS,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &congestion_aware_backend;
}
