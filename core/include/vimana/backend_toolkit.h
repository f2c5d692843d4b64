/*
 * vimana/backend_toolkit.h - the glue every network backend needs, ready
 * made (libvimana_backend, `pkg-config --cflags --libs vimana-backend`).
 *
 * Put a `vimana_bt` FIRST in your backend's context; the toolkit's
 * descriptor functions receive that context and use the vimana_bt at its
 * start. Then a backend writes init (vimana_bt_init + its configuration),
 * sim_send (compute a delay, vimana_bt_deliver_after) and fini
 * (vimana_bt_fini), and fills the rest of its descriptor with
 * VIMANA_BT_DEFAULTS (examples/backend-template is a whole one; this
 * example, like every one in the installed headers, is compiled by
 * tests/e2e/header_examples.sh and scripts/test-install):
 *
 *   ```c
 *   #include <vimana/backend_toolkit.h>
 *   typedef struct mynet { vimana_bt bt; double ns_per_byte; } mynet;
 *   int my_init(const vimana_backend_params *params, const vimana_host *host, void **ctx,
 *               char *err, size_t err_len);
 *   void my_fini(void *ctx);
 *   int my_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag,
 *               uint64_t token);
 *   static const vimana_backend mynet_backend = {
 *       VIMANA_BACKEND_HEADER_INIT, .name = "mynet", .description = "...",
 *       .init = my_init, .fini = my_fini, .sim_send = my_send,
 *       VIMANA_BT_DEFAULTS,
 *   };
 *   VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
 *   {
 *       return &mynet_backend;
 *   }
 *   ```
 *
 * What the defaults do:
 *  - schedule/now/run/stop: the event queue of vimana/event_queue.h (FIFO
 *    within a tick). run() returns when the queue is empty, or after the
 *    event in progress once stop() or vimana_bt_fail() was called; it
 *    returns VIMANA_ERR_INTERNAL after vimana_bt_fail(), VIMANA_OK otherwise.
 *  - num_dims/dim_size/dim_bandwidth: read `bt.net` (fill it by hand, or
 *    with vimana_bt_load_network from a network YAML).
 *  - num_links/link_stats (VIMANA_BT_LINK_STATS, with
 *    VIMANA_CAP_LINK_STATS): the link table below (vimana_bt_link_count,
 *    and vimana_bt_link_queued for the 1.2 queueing counters). Device
 *    names: without a device_name() of its own, the host's default
 *    ("npuK", "switchJ") applies.
 *
 * Not thread-safe; one context per simulation. Every exported symbol
 * starts with vimana_bt_, vimana_evq_, vimana_net_ or vimana_topo_.
 *
 * The toolkit's ABI rule (libvimana_backend.so.0; the network ABI's own
 * rule is in vimana/network_api.h): a backend built against an older
 * toolkit header keeps working with a newer library of the same soname.
 * So what a backend compiles into itself never changes: the size and
 * layout of vimana_bt (it sits in the backend's own context), of
 * vimana_bt_link (the inline link functions index the table), of
 * vimana_net_config, vimana_net_layout and vimana_net_leg, and what the
 * inline functions compute; nor the signature and meaning of an exported
 * function. New functions may be added. A change to any of the rest takes
 * a new soname (libtool's -version-info), so that an old backend fails to
 * load, naming the library, instead of running wrong.
 */
#ifndef VIMANA_BACKEND_TOOLKIT_H
#define VIMANA_BACKEND_TOOLKIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/event_queue.h"
#include "vimana/network_api.h"
#include "vimana/network_yaml.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One link's counters in the toolkit's table: the ABI 1.0 fields, in their
 * 1.0 layout. The table's stride is compiled into every backend (the
 * inline functions below index it), so it never changes: a backend built
 * against an older toolkit keeps counting right with a newer library. The
 * 1.2 queueing counters live in a second array after this one, in the
 * same allocation (vimana_bt_links_alloc).
 */
typedef struct vimana_bt_link {
    uint32_t src_device, dst_device;
    uint64_t bytes;
    uint64_t messages;
    vimana_tick busy_ticks;
} vimana_bt_link;

typedef struct vimana_bt_link_queue {
    vimana_tick max_queue_ticks, queue_ticks;
} vimana_bt_link_queue;

typedef struct vimana_bt {
    vimana_host host;         /* a copy of what init() was given */
    vimana_evq *evq;          /* the simulation's clock and events */
    vimana_net_config net;    /* the shape the default num_dims/dim_size/dim_bandwidth report */
    char *network_path;       /* the configuration file (vimana_bt_init), for messages */
    vimana_bt_link *links;    /* per directed link counters (vimana_bt_links_alloc) */
    uint32_t n_links;
    int failed;               /* vimana_bt_fail was called */
} vimana_bt;

/* Fills the descriptor fields the toolkit implements (designated
 * initialisers; list it after your own fields). */
#define VIMANA_BT_DEFAULTS                                                               \
    .num_dims = vimana_bt_num_dims, .dim_size = vimana_bt_dim_size,                     \
    .dim_bandwidth = vimana_bt_dim_bandwidth, .schedule = vimana_bt_schedule,           \
    .now = vimana_bt_now, .run = vimana_bt_run, .stop = vimana_bt_stop
/* Add this one too when the backend keeps a link table. */
#define VIMANA_BT_LINK_STATS .num_links = vimana_bt_num_links, .link_stats = vimana_bt_link_stats

/* ---- life cycle --------------------------------------------------------- */

/* Copies the host, creates the event queue and keeps a copy of the
 * configuration path (params->network_config, may be NULL). Returns
 * VIMANA_OK, or VIMANA_ERR_NOMEM with "out of memory" in err. */
int vimana_bt_init(vimana_bt *bt, const vimana_backend_params *params, const vimana_host *host, char *err,
                   size_t err_len);
/* Shows the host the events queued behind the running one (ABI 1.3
 * will_deliver/will_run, through vimana_evq_set_lookahead), so that it
 * loads what they will touch ahead of time; nothing when the host has
 * no such hints. Call it after vimana_bt_init when the queue holds mostly
 * deliveries and the host's own events (analytical): each event then
 * costs two calls more, which a backend with many events of its own
 * (congestion_aware: a hop and a link release per message and link) pays
 * without a gain. Results are the same either way. */
void vimana_bt_use_lookahead(vimana_bt *bt);
/* Frees what the toolkit allocated (not bt itself). Safe on a zeroed bt. */
void vimana_bt_fini(vimana_bt *bt);

/* For a backend that takes no --backend-options: VIMANA_OK when
 * params->options is NULL or empty, else VIMANA_ERR_CONFIG with "NAME:
 * backend option 'FIRST': NAME takes no options" in err (FIRST: the first
 * comma-separated item), so that an option meant for another backend is
 * refused rather than ignored. */
int vimana_bt_no_options(const vimana_backend_params *params, const char *name, char *err, size_t err_len);

/* Reads the network YAML at bt->network_path into bt->net (see
 * vimana/network_yaml.h); unknown keys become host warnings. Returns
 * VIMANA_OK, or VIMANA_ERR_CONFIG with the one-line reason in err. */
int vimana_bt_load_network(vimana_bt *bt, char *err, size_t err_len);

/* The same with the backend's own topology names and keys
 * (vimana_net_ext, vimana/network_yaml.h). */
int vimana_bt_load_network_ext(vimana_bt *bt, const vimana_net_ext *ext, char *err, size_t err_len);

/* For a backend that reads a topology graph (vimana/topology_graph.h) and
 * keeps state for at most max_links directed links: checks the graph's
 * link count against that limit, then fills bt->net from the graph
 * (vimana_topo_net_shape) and sets *n_links. Returns VIMANA_OK, or
 * VIMANA_ERR_CONFIG with "PATH: the topology has N directed links, more
 * than the MAX the BACKEND backend supports" in err (the same words for
 * every backend, so that one check serves them all). */
struct vimana_topo;
int vimana_bt_graph_network(vimana_bt *bt, struct vimana_topo *topo, const char *backend, uint32_t max_links,
                            uint32_t *n_links, char *err, size_t err_len);

/* For a backend that takes either kind of network file: reads the file at
 * bt->network_path as a topology graph when it is one (vimana_topo_load:
 * *topo set, to free with vimana_topo_free), else as a network YAML into
 * bt->net (vimana_bt_load_network; *topo stays NULL, as is when there is no
 * network file). Returns VIMANA_OK, or VIMANA_ERR_CONFIG with the one-line
 * reason in err. */
int vimana_bt_load_graph_or_yaml(vimana_bt *bt, struct vimana_topo **topo, char *err, size_t err_len);

/* ---- the descriptor's defaults (ctx starts with a vimana_bt) ------------ */

int vimana_bt_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data);
vimana_tick vimana_bt_now(void *ctx);
int vimana_bt_run(void *ctx);
void vimana_bt_stop(void *ctx);
uint32_t vimana_bt_num_dims(void *ctx);
uint32_t vimana_bt_dim_size(void *ctx, uint32_t dim);
double vimana_bt_dim_bandwidth(void *ctx, uint32_t dim);
uint32_t vimana_bt_num_links(void *ctx);
int vimana_bt_link_stats(void *ctx, uint32_t link, vimana_link_stats *out);

/* ---- delivering messages ------------------------------------------------ */

/* Calls host->delivered(token) `delta` ticks from now. Returns VIMANA_OK,
 * VIMANA_ERR_ARGUMENT when that tick is past the last one the clock holds,
 * or VIMANA_ERR_NOMEM. */
int vimana_bt_deliver_after(vimana_bt *bt, vimana_tick delta, uint64_t token);

/* ---- pools --------------------------------------------------------------- */

/* Makes room for one more item in a pooled array (*items of *cap items of
 * item_size bytes; NULL and 0 at first) when *cap == used: the capacity
 * doubles from 1024, up to UINT32_MAX items. Large pools are hinted to use
 * huge pages (a million messages in flight are visited in arrival order,
 * one page each). VIMANA_OK, or VIMANA_ERR_NOMEM with the pool unchanged. */
int vimana_bt_pool_grow(void **items, uint32_t *cap, uint32_t used, size_t item_size);

/* ---- link table --------------------------------------------------------- */

/* Makes n_links zeroed counters (links 0..n_links-1). VIMANA_OK or
 * VIMANA_ERR_NOMEM. Device ids: NPUs 0..npus-1, then switches. */
int vimana_bt_links_alloc(vimana_bt *bt, uint32_t n_links);
/* Names the devices link `link` connects (for --report). */
static inline void vimana_bt_link_ends(vimana_bt *bt, uint32_t link, uint32_t src_device, uint32_t dst_device)
{
    bt->links[link].src_device = src_device;
    bt->links[link].dst_device = dst_device;
}
/* Counts one message of `bytes` that holds `link` for `busy` ticks. Inline:
 * it is on the per-hop path. */
static inline void vimana_bt_link_count(vimana_bt *bt, uint32_t link, uint64_t bytes, vimana_tick busy)
{
    vimana_bt_link *l = &bt->links[link];
    l->bytes += bytes;
    l->messages++;
    l->busy_ticks += busy;
}
/* Counts the time one message waited in `link`'s queue before it started
 * crossing the link (call it once per message and link, 0 included):
 * raises max_queue_ticks and adds to queue_ticks (ABI 1.2 counters; the
 * sum saturates at 2^64 - 1 rather than wrap). Inline: per-hop path. */
static inline void vimana_bt_link_queued(vimana_bt *bt, uint32_t link, vimana_tick waited)
{
    vimana_bt_link_queue *l = (vimana_bt_link_queue *)(bt->links + bt->n_links) + link;
    if (waited > l->max_queue_ticks)
        l->max_queue_ticks = waited;
    l->queue_ticks = waited > UINT64_MAX - l->queue_ticks ? UINT64_MAX : l->queue_ticks + waited;
}

/* ---- messages to the host ------------------------------------------------ */

/* One line to host->log (printf format, truncated to 1 KiB). */
void vimana_bt_log(vimana_bt *bt, enum vimana_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A fatal error inside run(): reports it through host->failed (ABI 1.1
 * hosts; host->log at error level for older ones), stops the queue after
 * the event in progress and makes run() return VIMANA_ERR_INTERNAL. Only
 * the first failure is reported. */
void vimana_bt_fail(vimana_bt *bt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies s into buf (len > 0) with control bytes written as \n, \t or \xNN,
 * so a value quoted from a file cannot break a one-line message. Returns
 * buf. */
const char *vimana_bt_escape(const char *s, char *buf, size_t len);

/* ---- random numbers ------------------------------------------------------ */

/* The next number of the splitmix64 generator whose state is *state (seed
 * it with any value). A backend that draws its own stream from it gives
 * the same run on every platform, whatever other libraries' generators
 * do; it is the one the simulator uses (random job placements). */
uint64_t vimana_bt_splitmix64(uint64_t *state);

#ifdef __cplusplus
}
#endif

#endif
