/*
 * template.so - a complete network backend, to copy and change.
 *
 * Model: every message costs latency + bytes / bandwidth, whoever sends it
 * and whatever the topology says (one hop between any two NPUs), truncated
 * to whole ticks (1 tick = 1 ns). It reads the same network YAML as the
 * shipped backends, one dimension:
 *
 *   topology: [ Ring ]      # named, but every pair is one hop here
 *   npus_count: [ 8 ]
 *   bandwidth: [ 50.0 ]     # GB/s, 1 GB = 2^30 bytes
 *   latency: [ 500.0 ]      # ns
 *
 * The backend toolkit (libvimana_backend) does the rest: event loop,
 * schedule/now/run/stop, num_dims/dim_size/dim_bandwidth, the YAML reader
 * and a link table. Each NPU's injection link (NPU i -> device npus, "the
 * network") counts bytes, messages and busy ticks for `vimana --report`.
 *
 * Build:  make            (cc ... $(pkg-config --cflags --libs vimana-backend))
 * Run:    vimana --network-backend=./template.so --network-configuration=network.yml ...
 */
#include <stdio.h>
#include <stdlib.h>

#include <vimana/backend_toolkit.h>

typedef struct template_net {
    vimana_bt bt; /* first: the toolkit's functions find it at the context's start */
    double latency_ns;
    double bytes_per_ns;
} template_net;

static void tn_fini(void *ctx)
{
    template_net *n = ctx;
    if (!n)
        return;
    vimana_bt_fini(&n->bt);
    free(n);
}

static int tn_init(const vimana_backend_params *params, const vimana_host *host, void **ctx, char *err,
                   size_t err_len)
{
    template_net *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    int rc = vimana_bt_init(&n->bt, params, host, err, err_len);
    if (rc == VIMANA_OK)
        rc = vimana_bt_load_network(&n->bt, err, err_len);
    if (rc == VIMANA_OK && n->bt.net.n_dims != 1) {
        snprintf(err, err_len, "%s: the template backend models one dimension; this network has %u",
                 params->network_config, n->bt.net.n_dims);
        rc = VIMANA_ERR_CONFIG;
    }
    uint32_t npus = n->bt.net.total_npus;
    if (rc == VIMANA_OK && vimana_bt_links_alloc(&n->bt, npus) != VIMANA_OK) {
        snprintf(err, err_len, "out of memory");
        rc = VIMANA_ERR_NOMEM;
    }
    if (rc != VIMANA_OK) {
        tn_fini(n);
        return rc;
    }
    for (uint32_t i = 0; i < npus; i++)
        vimana_bt_link_ends(&n->bt, i, i, npus);
    n->latency_ns = n->bt.net.dims[0].latency_ns;
    n->bytes_per_ns = n->bt.net.dims[0].bytes_per_ns;
    *ctx = n;
    return VIMANA_OK;
}

static int tn_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    template_net *n = ctx;
    (void)tag;
    uint32_t npus = n->bt.net.total_npus;
    if (src >= npus || dst >= npus || src == dst || bytes == 0) {
        vimana_bt_log(&n->bt, VIMANA_LOG_ERROR, "template: invalid message %u -> %u of %llu bytes", src, dst,
                      (unsigned long long)bytes);
        return VIMANA_ERR_ARGUMENT;
    }
    double serialization = (double)bytes / n->bytes_per_ns;
    double delay = n->latency_ns + serialization;
    /* Converting a double of 2^64 or more to a tick is undefined: refuse it. */
    if (!(delay < VIMANA_TICK_LIMIT)) {
        vimana_bt_log(&n->bt, VIMANA_LOG_ERROR, "template: a message of %llu bytes would arrive after 2^64-1 ns",
                      (unsigned long long)bytes);
        return VIMANA_ERR_ARGUMENT;
    }
    vimana_bt_link_count(&n->bt, src, bytes, (vimana_tick)serialization);
    return vimana_bt_deliver_after(&n->bt, (vimana_tick)delay, token);
}

static const vimana_backend template_backend = {
    VIMANA_BACKEND_HEADER_INIT, /* declares the ABI of the headers it is built with */
    .name = "template",
    .description = "template: latency + size / bandwidth per message, one dimension",
    .capabilities = VIMANA_CAP_LINK_STATS, /* not VIMANA_CAP_MULTI_DIM: init refuses more */
    .init = tn_init,
    .fini = tn_fini,
    .sim_send = tn_send,
    VIMANA_BT_DEFAULTS,
    VIMANA_BT_LINK_STATS,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &template_backend;
}
