/*
 * The backend toolkit's default descriptor functions, link table and host
 * messages (vimana/backend_toolkit.h). Everything here works on the
 * vimana_bt a backend puts first in its context.
 */
#include "vimana/backend_toolkit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/huge_pages.h"
#include "util/msg_escape.h"
#include "vimana/topology_graph.h"

static void deliver(void *arg, uint64_t token);

/* The queue's look-ahead: a delivery goes to the host by its token; any
 * other event is the host's or the backend's own (the host looks only at
 * the events it scheduled itself). */
static void look_ahead(void *ctx, vimana_event_fn fn, void *arg, uint64_t data, int stage)
{
    vimana_bt *bt = ctx;
    if (fn == deliver)
        bt->host.will_deliver(bt->host.host, data, stage);
    else
        bt->host.will_run(bt->host.host, fn, arg, data, stage);
}

int vimana_bt_init(vimana_bt *bt, const vimana_backend_params *params, const vimana_host *host, char *err,
                   size_t err_len)
{
    memset(bt, 0, sizeof *bt);
    bt->host = *host;
    bt->evq = vimana_evq_new();
    const char *path = params ? params->network_config : NULL;
    if (path)
        bt->network_path = strdup(path);
    if (!bt->evq || (path && !bt->network_path)) {
        vimana_bt_fini(bt);
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    return VIMANA_OK;
}

int vimana_bt_no_options(const vimana_backend_params *params, const char *name, char *err, size_t err_len)
{
    const char *o = params ? params->options : NULL;
    if (!o || !*o)
        return VIMANA_OK;
    snprintf(err, err_len, "%s: backend option '%.*s': %s takes no options", name, (int)strcspn(o, ","), o, name);
    return VIMANA_ERR_CONFIG;
}

void vimana_bt_use_lookahead(vimana_bt *bt)
{
    if (bt->evq && bt->host.will_deliver && bt->host.will_run)
        vimana_evq_set_lookahead(bt->evq, look_ahead, bt);
}

void vimana_bt_fini(vimana_bt *bt)
{
    vimana_evq_free(bt->evq);
    free(bt->network_path);
    free(bt->links);
    bt->evq = NULL;
    bt->network_path = NULL;
    bt->links = NULL;
    bt->n_links = 0;
}

static void forward_warning(void *ctx, const char *message)
{
    vimana_bt *bt = ctx;
    bt->host.log(bt->host.host, VIMANA_LOG_WARNING, message);
}

int vimana_bt_load_network_ext(vimana_bt *bt, const vimana_net_ext *ext, char *err, size_t err_len)
{
    if (!bt->network_path) {
        snprintf(err, err_len, "no network configuration given");
        return VIMANA_ERR_CONFIG;
    }
    if (vimana_net_load_ext(bt->network_path, ext, &bt->net, err, err_len, forward_warning, bt) != 0)
        return VIMANA_ERR_CONFIG;
    return VIMANA_OK;
}

int vimana_bt_load_network(vimana_bt *bt, char *err, size_t err_len)
{
    return vimana_bt_load_network_ext(bt, NULL, err, err_len);
}

int vimana_bt_graph_network(vimana_bt *bt, vimana_topo *topo, const char *backend, uint32_t max_links,
                            uint32_t *n_links, char *err, size_t err_len)
{
    uint32_t links = vimana_topo_num_links(topo);
    if (links > max_links) {
        snprintf(err, err_len, "%s: the topology has %u directed links, more than the %u the %s backend supports",
                 bt->network_path, links, max_links, backend);
        return VIMANA_ERR_CONFIG;
    }
    vimana_topo_net_shape(topo, &bt->net);
    *n_links = links;
    return VIMANA_OK;
}

int vimana_bt_load_graph_or_yaml(vimana_bt *bt, vimana_topo **topo, char *err, size_t err_len)
{
    int rc = bt->network_path ? vimana_topo_load(bt->network_path, topo, err, err_len) : 1;
    if (rc == 1)
        return vimana_bt_load_network(bt, err, err_len);
    return rc == 0 ? VIMANA_OK : VIMANA_ERR_CONFIG;
}

/* ---- descriptor defaults -------------------------------------------------- */

int vimana_bt_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    return vimana_evq_schedule(((vimana_bt *)ctx)->evq, delta, fn, arg, data);
}

vimana_tick vimana_bt_now(void *ctx)
{
    return vimana_evq_now(((vimana_bt *)ctx)->evq);
}

int vimana_bt_run(void *ctx)
{
    vimana_bt *bt = ctx;
    vimana_evq_run(bt->evq);
    return bt->failed ? VIMANA_ERR_INTERNAL : VIMANA_OK;
}

void vimana_bt_stop(void *ctx)
{
    vimana_evq_stop(((vimana_bt *)ctx)->evq);
}

uint32_t vimana_bt_num_dims(void *ctx)
{
    return ((vimana_bt *)ctx)->net.n_dims;
}

uint32_t vimana_bt_dim_size(void *ctx, uint32_t dim)
{
    const vimana_bt *bt = ctx;
    return dim < bt->net.n_dims ? bt->net.dims[dim].npus : 0;
}

double vimana_bt_dim_bandwidth(void *ctx, uint32_t dim)
{
    const vimana_bt *bt = ctx;
    return dim < bt->net.n_dims ? bt->net.dims[dim].bandwidth_gbps : 0.0;
}

uint32_t vimana_bt_num_links(void *ctx)
{
    return ((vimana_bt *)ctx)->n_links;
}

int vimana_bt_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    const vimana_bt *bt = ctx;
    if (link >= bt->n_links)
        return VIMANA_ERR_ARGUMENT;
    const vimana_bt_link *l = &bt->links[link];
    const vimana_bt_link_queue *q = (const vimana_bt_link_queue *)(bt->links + bt->n_links) + link;
    *out = (vimana_link_stats){.src_device = l->src_device, .dst_device = l->dst_device, .bytes = l->bytes,
                               .messages = l->messages, .busy_ticks = l->busy_ticks,
                               .max_queue_ticks = q->max_queue_ticks, .queue_ticks = q->queue_ticks};
    return VIMANA_OK;
}

/* ---- delivering ------------------------------------------------------------ */

static void deliver(void *arg, uint64_t token)
{
    vimana_bt *bt = arg;
    bt->host.delivered(bt->host.host, token);
}

int vimana_bt_deliver_after(vimana_bt *bt, vimana_tick delta, uint64_t token)
{
    return vimana_evq_schedule(bt->evq, delta, deliver, bt, token);
}

/* ---- link table ------------------------------------------------------------ */

/* The stride backends built against the 1.0/1.1 toolkit index the table
 * with: the 1.0 link counters. */
_Static_assert(sizeof(vimana_bt_link) == 32 && offsetof(vimana_bt_link, busy_ticks) == 24,
               "vimana_bt_link must keep the ABI 1.0 layout");

/* n_links counters, then n_links queueing counters (vimana_bt_link). */
int vimana_bt_links_alloc(vimana_bt *bt, uint32_t n_links)
{
    vimana_bt_link *links = calloc(n_links ? n_links : 1, sizeof *links + sizeof(vimana_bt_link_queue));
    if (!links)
        return VIMANA_ERR_NOMEM;
    free(bt->links);
    bt->links = links;
    bt->n_links = n_links;
    return VIMANA_OK;
}

/* ---- pools ------------------------------------------------------------------- */

int vimana_bt_pool_grow(void **items, uint32_t *cap, uint32_t used, size_t item_size)
{
    if (used < *cap)
        return VIMANA_OK;
    if (*cap == UINT32_MAX)
        return VIMANA_ERR_NOMEM;
    uint32_t n = *cap == 0 ? 1024 : *cap > UINT32_MAX / 2 ? UINT32_MAX : *cap * 2;
    if ((size_t)n > SIZE_MAX / item_size)
        return VIMANA_ERR_NOMEM;
    void *p = realloc(*items, (size_t)n * item_size);
    if (!p)
        return VIMANA_ERR_NOMEM;
    huge_pages_advise(p, (size_t)n * item_size);
    *items = p;
    *cap = n;
    return VIMANA_OK;
}

/* ---- messages ---------------------------------------------------------------- */

void vimana_bt_log(vimana_bt *bt, enum vimana_log_level level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bt->host.log(bt->host.host, level, msg);
}

/* host->failed exists from ABI 1.1 on; an older host left the slot zero
 * (or did not cover it with struct_size). */
static int host_has_failed(const vimana_host *h)
{
    return h->struct_size >= offsetof(vimana_host, failed) + sizeof h->failed && h->failed != NULL;
}

void vimana_bt_fail(vimana_bt *bt, const char *fmt, ...)
{
    vimana_evq_stop(bt->evq);
    if (bt->failed)
        return;
    bt->failed = 1;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (host_has_failed(&bt->host))
        bt->host.failed(bt->host.host, msg);
    else
        bt->host.log(bt->host.host, VIMANA_LOG_ERROR, msg);
}

const char *vimana_bt_escape(const char *s, char *buf, size_t len)
{
    return msg_escape(s, buf, len);
}

uint64_t vimana_bt_splitmix64(uint64_t *state)
{
    return hash_splitmix64(state);
}
