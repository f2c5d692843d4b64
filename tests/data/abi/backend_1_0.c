/*
 * A network backend written against the ABI 1.0 header
 * (tests/data/abi/1.0/vimana/network_api.h, the header of the first
 * release), the way that header let a plugin spell things: the versioned
 * names (struct vimana_backend_1_0, struct vimana_host_1_0, struct
 * vimana_link_stats_1_0) mixed with the unversioned typedefs. It uses
 * nothing but that header and libc, so it keeps its 1.0 source unchanged:
 * tests/e2e/abi_plugin_1_0.sh compiles it against the 1.0 header and
 * against today's, and runs what today's header builds.
 *
 * The model: one dimension of `npus=N` NPUs (backend option, default 8);
 * a message from src to dst takes trunc(500 + bytes / 50 GB/s) ticks (the
 * backend template's one hop, so the tutorial all-reduce ends at 117780
 * cycles) on the directed link src -> dst (link src * N + dst), whose
 * counters are the 1.0 ones: bytes, messages, busy ticks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vimana/network_api.h>

typedef struct event {
    vimana_tick at;
    uint64_t seq; /* FIFO within a tick */
    vimana_event_fn fn;
    void *arg;
    uint64_t data;
} event;

typedef struct plugin {
    const struct vimana_host_1_0 *host;
    uint32_t npus;
    vimana_tick now;
    uint64_t seq;
    event *heap;
    size_t n, cap;
    struct vimana_link_stats_1_0 *links;
} plugin;

static int earlier(const event *a, const event *b)
{
    return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static int push(plugin *p, event e)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        event *h = realloc(p->heap, cap * sizeof *h);
        if (!h)
            return VIMANA_ERR_NOMEM;
        p->heap = h;
        p->cap = cap;
    }
    size_t i = p->n++;
    while (i > 0 && earlier(&e, &p->heap[(i - 1) / 2])) {
        p->heap[i] = p->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    p->heap[i] = e;
    return VIMANA_OK;
}

static event pop(plugin *p)
{
    event top = p->heap[0], last = p->heap[--p->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= p->n)
            break;
        if (c + 1 < p->n && earlier(&p->heap[c + 1], &p->heap[c]))
            c++;
        if (!earlier(&p->heap[c], &last))
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (p->n)
        p->heap[i] = last;
    return top;
}

static int p_init(const vimana_backend_params *params, const vimana_host *host, void **ctx, char *err,
                  size_t err_len)
{
    unsigned long npus = 8;
    if (params->options && *params->options) {
        char *end;
        if (strncmp(params->options, "npus=", 5) != 0 ||
            (npus = strtoul(params->options + 5, &end, 10), *end) || npus < 2 || npus > 4096) {
            snprintf(err, err_len, "plugin_1_0: unknown option '%s' (it takes npus=2..4096)", params->options);
            return VIMANA_ERR_CONFIG;
        }
    }
    plugin *p = calloc(1, sizeof *p);
    if (p)
        p->links = calloc((size_t)npus * npus, sizeof *p->links);
    if (!p || !p->links) {
        free(p);
        snprintf(err, err_len, "plugin_1_0: out of memory");
        return VIMANA_ERR_NOMEM;
    }
    p->host = host;
    p->npus = (uint32_t)npus;
    *ctx = p;
    return VIMANA_OK;
}

static void p_fini(void *ctx)
{
    plugin *p = ctx;
    free(p->heap);
    free(p->links);
    free(p);
}

static uint32_t p_num_dims(void *ctx)
{
    (void)ctx;
    return 1;
}

static uint32_t p_dim_size(void *ctx, uint32_t dim)
{
    (void)dim;
    return ((plugin *)ctx)->npus;
}

static double p_dim_bandwidth(void *ctx, uint32_t dim)
{
    (void)ctx;
    (void)dim;
    return 50;
}

static void arrive(void *arg, uint64_t token)
{
    plugin *p = arg;
    p->host->delivered(p->host->host, token);
}

static int p_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    plugin *p = ctx;
    (void)tag;
    if (src >= p->npus || dst >= p->npus || src == dst || bytes == 0)
        return VIMANA_ERR_ARGUMENT;
    vimana_tick delay = (vimana_tick)(500 + (double)bytes / (50.0 * 1073741824.0 / 1e9));
    struct vimana_link_stats_1_0 *l = &p->links[(size_t)src * p->npus + dst];
    l->src_device = src;
    l->dst_device = dst;
    l->bytes += bytes;
    l->messages++;
    l->busy_ticks += delay;
    return push(p, (event){p->now + delay, p->seq++, arrive, p, token});
}

static int p_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    plugin *p = ctx;
    return push(p, (event){p->now + delta, p->seq++, fn, arg, data});
}

static vimana_tick p_now(void *ctx)
{
    return ((plugin *)ctx)->now;
}

static int p_run(void *ctx)
{
    plugin *p = ctx;
    while (p->n) {
        event e = pop(p);
        p->now = e.at;
        e.fn(e.arg, e.data);
    }
    return VIMANA_OK;
}

static uint32_t p_num_links(void *ctx)
{
    plugin *p = ctx;
    return p->npus * p->npus;
}

static int p_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    plugin *p = ctx;
    if (link >= p->npus * p->npus)
        return VIMANA_ERR_ARGUMENT;
    /* The 1.0 fields only: this source knows no others. */
    const struct vimana_link_stats_1_0 *l = &p->links[link];
    out->src_device = link / p->npus;
    out->dst_device = link % p->npus;
    out->bytes = l->bytes;
    out->messages = l->messages;
    out->busy_ticks = l->busy_ticks;
    return VIMANA_OK;
}

static const struct vimana_backend_1_0 plugin_1_0 = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "plugin_1_0", .description = "a 1.0-era plugin source: one hop, 500 ns + 50 GB/s",
    .capabilities = VIMANA_CAP_LINK_STATS,
    .init = p_init, .fini = p_fini, .num_dims = p_num_dims, .dim_size = p_dim_size, .dim_bandwidth = p_dim_bandwidth,
    .sim_send = p_send, .schedule = p_schedule, .now = p_now, .run = p_run,
    .num_links = p_num_links, .link_stats = p_link_stats,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &plugin_1_0;
}
