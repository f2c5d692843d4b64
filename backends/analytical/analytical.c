/*
 * analytical.so - congestion-unaware analytical network.
 *
 * Every message is independent: it costs hops x latency + size / bandwidth
 * of the lowest dimension in which source and destination differ, truncated
 * once to whole ticks (shared/spec/simulator.md section 11). No link state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/network_yaml.h"
#include "util/msg_escape.h"
#include "vimana/event_queue.h"
#include "vimana/network_api.h"

typedef struct analytical {
    vimana_host host;
    network_config net;
    vimana_evq *evq;
    char *path;             /* the network YAML, for messages */
} analytical;

static void forward_warning(void *ctx, const char *message)
{
    analytical *a = ctx;
    a->host.log(a->host.host, VIMANA_LOG_WARNING, message);
}

static int cu_init(const vimana_backend_params *params, const vimana_host *host, void **ctx,
                   char *err, size_t err_len)
{
    analytical *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    a->host = *host;
    if (network_config_load(params->network_config, &a->net, err, err_len, forward_warning, a) != 0) {
        free(a);
        return VIMANA_ERR_CONFIG;
    }
    a->evq = vimana_evq_new();
    a->path = strdup(params->network_config);
    if (!a->evq || !a->path) {
        vimana_evq_free(a->evq);
        free(a->path);
        free(a);
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    *ctx = a;
    return VIMANA_OK;
}

static void cu_fini(void *ctx)
{
    analytical *a = ctx;
    if (!a)
        return;
    vimana_evq_free(a->evq);
    free(a->path);
    free(a);
}

static uint32_t cu_num_dims(void *ctx)
{
    return ((analytical *)ctx)->net.n_dims;
}

static uint32_t cu_dim_size(void *ctx, uint32_t dim)
{
    analytical *a = ctx;
    return dim < a->net.n_dims ? a->net.dims[dim].npus : 0;
}

static double cu_dim_bandwidth(void *ctx, uint32_t dim)
{
    analytical *a = ctx;
    return dim < a->net.n_dims ? a->net.dims[dim].bandwidth_gbps : 0.0;
}

static uint32_t hops_in_block(const network_dim *d, uint32_t src, uint32_t dst)
{
    switch (d->topology) {
    case NETWORK_RING: {
        uint32_t cw = (dst + d->npus - src) % d->npus;
        uint32_t ccw = d->npus - cw;
        return cw < ccw ? cw : ccw;
    }
    case NETWORK_FULLY_CONNECTED: return 1;
    case NETWORK_SWITCH: return 2;
    }
    return 1;
}

static void deliver(void *ctx, uint64_t token)
{
    analytical *a = ctx;
    a->host.delivered(a->host.host, token);
}

/* The error path of cu_send, kept out of line so the per-message path
 * carries no message buffers. */
static __attribute__((cold, noinline)) int report_late_arrival(analytical *a, uint32_t src, uint32_t dst,
                                                                uint64_t bytes, uint32_t dim)
{
    const network_dim *d = &a->net.dims[dim];
    char msg[640], where[200];
    msg_escape(a->path, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: a message of %llu bytes from NPU %u to NPU %u would arrive after 2^64-1 ns, "
             "the longest time Vimana can simulate (bandwidth[%u] %g GB/s, latency[%u] %g ns)", where,
             (unsigned long long)bytes, src, dst, dim, d->bandwidth_gbps, dim, d->latency_ns);
    a->host.log(a->host.host, VIMANA_LOG_ERROR, msg);
    return VIMANA_ERR_ARGUMENT;
}

static int cu_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    analytical *a = ctx;
    (void)tag;
    if (src >= a->net.total_npus || dst >= a->net.total_npus || src == dst || bytes == 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "analytical: invalid message %u -> %u of %llu bytes", src, dst,
                 (unsigned long long)bytes);
        a->host.log(a->host.host, VIMANA_LOG_ERROR, msg);
        return VIMANA_ERR_ARGUMENT;
    }
    /* Only the lowest differing dimension is charged: peel coordinates off
     * dimension by dimension until they differ. */
    uint32_t dim = 0, s_rest = src, d_rest = dst, s_coord, d_coord;
    for (;; dim++) {
        uint32_t n = a->net.dims[dim].npus;
        s_coord = s_rest % n;
        d_coord = d_rest % n;
        if (s_coord != d_coord)
            break;
        s_rest /= n;
        d_rest /= n;
    }
    const network_dim *d = &a->net.dims[dim];
    uint32_t hops = hops_in_block(d, s_coord, d_coord);
    double link_delay = hops * d->latency_ns;
    double serialization = (double)bytes / d->bytes_per_ns;
    double ticks = link_delay + serialization;
    /* Checked before the truncation, which is undefined beyond 2^64; the
     * queue refuses an arrival past the last tick. */
    if (!(ticks < NETWORK_TICK_LIMIT))
        return report_late_arrival(a, src, dst, bytes, dim);
    int rc = vimana_evq_schedule(a->evq, (vimana_tick)ticks, deliver, a, token);
    return rc == VIMANA_ERR_ARGUMENT ? report_late_arrival(a, src, dst, bytes, dim) : rc;
}

static int cu_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    return vimana_evq_schedule(((analytical *)ctx)->evq, delta, fn, arg, data);
}

static vimana_tick cu_now(void *ctx)
{
    return vimana_evq_now(((analytical *)ctx)->evq);
}

static int cu_run(void *ctx)
{
    vimana_evq_run(((analytical *)ctx)->evq);
    return VIMANA_OK;
}

static const vimana_backend analytical_backend = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "analytical",
    .description = "congestion-unaware analytical network (Ring, FullyConnected, Switch, multi-dimensional)",
    .capabilities = VIMANA_CAP_MULTI_DIM,
    .init = cu_init,
    .fini = cu_fini,
    .num_dims = cu_num_dims,
    .dim_size = cu_dim_size,
    .dim_bandwidth = cu_dim_bandwidth,
    .sim_send = cu_send,
    .sim_recv = NULL,
    .schedule = cu_schedule,
    .now = cu_now,
    .run = cu_run,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &analytical_backend;
}
