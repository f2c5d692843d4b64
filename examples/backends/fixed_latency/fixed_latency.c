/*
 * fixed_latency.so - a minimal third-party network backend.
 *
 * It uses only the installed headers <vimana/network_api.h> and
 * <vimana/event_queue.h> and shows the whole contract: a versioned
 * descriptor behind one exported symbol, configuration read in init(),
 * time kept in the shared event queue, and host->delivered() called when a
 * message has fully arrived.
 *
 * Every message costs latency + bytes / bandwidth, whoever sends it: a
 * single-dimension fully connected network. Its configuration file is
 * key = value lines:
 *
 *   npus = 8
 *   latency_ns = 500
 *   bandwidth_gbps = 50      # GB/s with 1 GB = 2^30 bytes
 *
 * Build it out of tree with:
 *   cc -shared -fPIC -fvisibility=hidden fixed_latency.c -o fixed_latency.so \
 *      $(pkg-config --cflags vimana) $(pkg-config --variable=backend_libs vimana)
 * (backend_libs adds a run path to libvimana_evq, so that the module loads
 * from a Vimana installed outside the system folders)
 * and run: vimana --network-backend=./fixed_latency.so --network-configuration=net.conf ...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vimana/event_queue.h>
#include <vimana/network_api.h>

typedef struct fixed_net {
    vimana_host host;
    vimana_evq *q;
    uint32_t npus;
    double latency_ns;
    double bandwidth_gbps;
    double bytes_per_ns;
} fixed_net;

static int parse_line(fixed_net *n, const char *path, int line_no, char *line, char *err, size_t len)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char key[64], value[64], extra[2];
    int got = sscanf(line, " %63[a-z_] = %63s %1s", key, value, extra);
    if (got <= 0)
        return 0; /* blank or comment */
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (got != 2 || *end || errno || v < 0) {
        snprintf(err, len, "%s:%d: expected 'key = non-negative number'", path, line_no);
        return -1;
    }
    if (strcmp(key, "npus") == 0)
        n->npus = (uint32_t)v;
    else if (strcmp(key, "latency_ns") == 0)
        n->latency_ns = v;
    else if (strcmp(key, "bandwidth_gbps") == 0)
        n->bandwidth_gbps = v;
    else {
        snprintf(err, len, "%s:%d: unknown key '%s' (expected npus, latency_ns, bandwidth_gbps)", path, line_no, key);
        return -1;
    }
    return 0;
}

static int fl_init(const vimana_backend_params *params, const vimana_host *host, void **ctx, char *err, size_t len)
{
    FILE *f = fopen(params->network_config, "r");
    if (!f) {
        snprintf(err, len, "%s: cannot open: %s", params->network_config, strerror(errno));
        return VIMANA_ERR_CONFIG;
    }
    fixed_net *n = calloc(1, sizeof *n);
    if (!n) {
        fclose(f);
        snprintf(err, len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    n->host = *host;
    char line[256];
    int line_no = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f))
        rc = parse_line(n, params->network_config, ++line_no, line, err, len);
    fclose(f);
    if (rc == 0 && (n->npus < 2 || n->bandwidth_gbps <= 0)) {
        snprintf(err, len, "%s: needs npus >= 2 and bandwidth_gbps > 0", params->network_config);
        rc = -1;
    }
    if (rc == 0 && !(n->q = vimana_evq_new())) {
        snprintf(err, len, "out of memory");
        rc = -1;
    }
    if (rc != 0) {
        free(n);
        return VIMANA_ERR_CONFIG;
    }
    n->bytes_per_ns = n->bandwidth_gbps * (1 << 30) / 1e9;
    *ctx = n;
    return VIMANA_OK;
}

static void fl_fini(void *ctx)
{
    fixed_net *n = ctx;
    vimana_evq_free(n->q);
    free(n);
}

static uint32_t fl_num_dims(void *ctx)
{
    (void)ctx;
    return 1;
}

static uint32_t fl_dim_size(void *ctx, uint32_t dim)
{
    return dim == 0 ? ((fixed_net *)ctx)->npus : 0;
}

static double fl_dim_bandwidth(void *ctx, uint32_t dim)
{
    return dim == 0 ? ((fixed_net *)ctx)->bandwidth_gbps : 0;
}

static void arrive(void *arg, uint64_t token)
{
    fixed_net *n = arg;
    n->host.delivered(n->host.host, token);
}

static int fl_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    fixed_net *n = ctx;
    (void)tag;
    if (src >= n->npus || dst >= n->npus || src == dst || bytes == 0) {
        n->host.log(n->host.host, VIMANA_LOG_ERROR, "fixed_latency: invalid message");
        return VIMANA_ERR_ARGUMENT;
    }
    vimana_tick delay = (vimana_tick)(n->latency_ns + (double)bytes / n->bytes_per_ns);
    return vimana_evq_schedule(n->q, delay, arrive, n, token);
}

static int fl_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    return vimana_evq_schedule(((fixed_net *)ctx)->q, delta, fn, arg, data);
}

static vimana_tick fl_now(void *ctx)
{
    return vimana_evq_now(((fixed_net *)ctx)->q);
}

static int fl_run(void *ctx)
{
    vimana_evq_run(((fixed_net *)ctx)->q);
    return VIMANA_OK;
}

static const vimana_backend fixed_latency = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "fixed_latency",
    .description = "example: every message costs latency + size / bandwidth",
    .capabilities = 0,
    .init = fl_init,
    .fini = fl_fini,
    .num_dims = fl_num_dims,
    .dim_size = fl_dim_size,
    .dim_bandwidth = fl_dim_bandwidth,
    .sim_send = fl_send,
    .sim_recv = NULL,
    .schedule = fl_schedule,
    .now = fl_now,
    .run = fl_run,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &fixed_latency;
}
