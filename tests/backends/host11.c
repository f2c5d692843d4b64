/*
 * Test backends for the host side of ABI 1.1 and 1.2: a one-dimensional network of
 * `npus=N` NPUs (backend option, default 2) where every message takes 1000
 * ticks. Every event, the host's and the network's, runs through a
 * trampoline, so that after stop() no event runs, however many share its
 * tick: what the host sees of stop() is exact.
 *
 * HOST_MINOR is the descriptor's abi_minor: 0 builds a 1.0 backend (the
 * stop slot left zero), 2 a 1.2 one. HOST_FAULT picks the variant:
 *   NONE       a correct backend
 *   FAILED     calls host->failed() at the first arrival, then returns from
 *              run() with an error once stopped (or drained)
 *   BAD_TOKEN  delivers a token the host never issued at the first arrival
 *   MULTI_DIM  a 3-dimensional network (2 x 1 x 1), without the capability
 *   CAP_NO_FN  VIMANA_CAP_LINK_STATS without num_links() / link_stats()
 *   FN_NO_CAP  num_links() / link_stats() without VIMANA_CAP_LINK_STATS
 *   BAD_BW     dim_bandwidth() returns NaN
 *   BAD_NAME   device_name() gives the switch a name with a newline
 *   BAD_QUEUE  counts the longest wait but not the sum of waits
 *   TOO_FAST   reports 100 GB/s, yet a 1 GiB message takes 1000 ticks too
 *   SLOW       spends 2 ms of CPU per MiB a message carries in sim_send
 *              (backend-check sizes its messages to a slow backend)
 *   SLOW_FIXED spends 2 ms of CPU per message whatever its size (a slow
 *              fixed cost: backend-check keeps 1 GiB messages)
 *   BAD_OPTIONS an options table (1.5) with a key listed twice
 * With HOST_OPTIONS 1 the descriptor lists two options, `npus` and
 * `count` (`npus` with a faster value), in the 1.5 slot whatever
 * HOST_MINOR says.
 * With HOST_LINKS 1 it keeps link statistics (VIMANA_CAP_LINK_STATS): link
 * k is NPU k -> the switch (device `npus`) and carries every message NPU k
 * sends, 1000 busy ticks each; the j-th message on a link (j = 1, 2, ...)
 * waited 100 x j ticks in its queue, so a link of m messages reports
 * max_queue_ticks 100 m and queue_ticks 50 m (m + 1) (in every variant: a
 * pre-1.2 host must not read them). With HOST_NAMES 1 it fills the
 * device_name slot whatever HOST_MINOR says: NPU k is "gpuK", the switch
 * 'sw,"0"' (a comma and quotes, for the report's escaping).
 * Option `count=PATH`: fini() writes to PATH one line,
 *   "faults=F stopped=S ran_after_fault=R dropped=D"
 * (events run after the fault was injected, events dropped by stop()).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "vimana/event_queue.h"
#include "vimana/network_api.h"

#define NONE 0
#define FAILED 1
#define BAD_TOKEN 2
#define MULTI_DIM 3
#define CAP_NO_FN 4
#define FN_NO_CAP 5
#define BAD_BW 6
#define BAD_NAME 7
#define BAD_QUEUE 8
#define TOO_FAST 9
#define SLOW 10
#define SLOW_FIXED 11
#define BAD_OPTIONS 12

#ifndef HOST_LINKS
#define HOST_LINKS 0
#endif
#ifndef HOST_NAMES
#define HOST_NAMES 0
#endif
#ifndef HOST_OPTIONS
#define HOST_OPTIONS 0
#endif
#ifndef HOST_FAULT
#define HOST_FAULT NONE
#endif

typedef struct net {
    vimana_host host;
    vimana_evq *q;
    uint32_t npus;
    char count_path[512];
    bool stopped;               /* no event runs any more */
    bool stop_called;           /* by the host, through stop() */
    unsigned faults;
    uint64_t ran_after_fault, dropped;
    vimana_link_stats *links;   /* [npus] with HOST_LINKS */
} net;

typedef struct call {
    net *n;
    vimana_event_fn fn;
    void *arg;
    uint64_t data;
} call;

static void trampoline(void *arg, uint64_t unused)
{
    (void)unused;
    call c = *(call *)arg;
    free(arg);
    if (c.n->stopped) {
        c.n->dropped++;
        return;
    }
    if (c.n->faults)
        c.n->ran_after_fault++;
    c.fn(c.arg, c.data);
}

static int enqueue(net *n, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    call *c = malloc(sizeof *c);
    if (!c)
        return VIMANA_ERR_NOMEM;
    *c = (call){n, fn, arg, data};
    int rc = vimana_evq_schedule(n->q, delta, trampoline, c, 0);
    if (rc != VIMANA_OK)
        free(c);
    return rc;
}

/* "npus=N,count=PATH", both optional. */
static int parse_options(net *n, const char *opts, char *err, size_t len)
{
    n->npus = 2;
    while (opts && *opts) {
        size_t k = strcspn(opts, ",");
        if (strncmp(opts, "npus=", 5) == 0)
            n->npus = (uint32_t)strtoul(opts + 5, NULL, 10);
        else if (strncmp(opts, "count=", 6) == 0)
            snprintf(n->count_path, sizeof n->count_path, "%.*s", (int)(k - 6), opts + 6);
        else {
            snprintf(err, len, "host11: unknown option '%.*s'", (int)k, opts);
            return -1;
        }
        opts += k + (opts[k] == ',');
    }
    if (n->npus < 2) {
        snprintf(err, len, "host11: npus must be at least 2");
        return -1;
    }
    return 0;
}

static int h_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    net *n = calloc(1, sizeof *n);
    if (!n || parse_options(n, p->options, err, len) != 0 || !(n->q = vimana_evq_new()) ||
        !(n->links = calloc(n->npus, sizeof *n->links))) {
        if (n)
            vimana_evq_free(n->q);
        free(n);
        return VIMANA_ERR_CONFIG;
    }
    for (uint32_t k = 0; k < n->npus; k++)
        n->links[k] = (vimana_link_stats){.src_device = k, .dst_device = n->npus};
    n->host = *h;
    *ctx = n;
    return VIMANA_OK;
}

static void h_fini(void *ctx)
{
    net *n = ctx;
    n->stopped = true;          /* frees the calls still queued */
    vimana_evq_run(n->q);
    vimana_evq_free(n->q);
    free(n->links);
    FILE *f = n->count_path[0] ? fopen(n->count_path, "w") : NULL;
    if (f) {
        fprintf(f, "faults=%u stopped=%d ran_after_fault=%llu dropped=%llu\n", n->faults, n->stop_called,
                (unsigned long long)n->ran_after_fault, (unsigned long long)n->dropped);
        fclose(f);
    }
    free(n);
}

static uint32_t h_num_dims(void *ctx)
{
    (void)ctx;
    return HOST_FAULT == MULTI_DIM ? 3 : 1;
}

static uint32_t h_dim_size(void *ctx, uint32_t d)
{
    return d == 0 ? ((net *)ctx)->npus : 1;
}

/* Fast enough that a message of up to 1 GiB (backend-check's largest)
 * may take 1000 ticks: 2 * 10^6 GB/s (backend-check's lower bound on a
 * delivery is its bytes over the NPU's links). */
static double h_dim_bandwidth(void *ctx, uint32_t d)
{
    (void)ctx, (void)d;
    return HOST_FAULT == BAD_BW ? strtod("nan", NULL) : HOST_FAULT == TOO_FAST ? 100.0 : 2e6;
}

static void arrive(void *arg, uint64_t token)
{
    net *n = arg;
    if (n->faults == 0 && (HOST_FAULT == FAILED || HOST_FAULT == BAD_TOKEN)) {
        n->faults++;
        if (HOST_FAULT == FAILED) {
            n->host.failed(n->host.host, "host11: link 0 lost its message\n(injected)");
            return;
        }
        token ^= 1ull << 40;
    }
    n->host.delivered(n->host.host, token);
}

static void count_message(net *n, uint32_t src, uint64_t bytes)
{
    vimana_link_stats *l = &n->links[src];
    l->messages++;
    l->bytes += bytes;
    l->busy_ticks += 1000;
    l->max_queue_ticks = 100 * l->messages;
    if (HOST_FAULT != BAD_QUEUE)
        l->queue_ticks += 100 * l->messages;
}

static int h_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    net *n = ctx;
    (void)tag;
    if (src >= n->npus || dst >= n->npus || src == dst || bytes == 0)
        return VIMANA_ERR_ARGUMENT;
    count_message(n, src, bytes);
    if (HOST_FAULT == SLOW || HOST_FAULT == SLOW_FIXED) {
        double mib = HOST_FAULT == SLOW ? (double)bytes / 1048576.0 : 1.0;
        clock_t until = clock() + (clock_t)(mib * 0.002 * CLOCKS_PER_SEC);
        while (clock() < until)
            ;
    }
    return enqueue(ctx, 1000, arrive, ctx, token);
}

static int h_schedule(void *ctx, vimana_tick d, vimana_event_fn f, void *a, uint64_t x)
{
    return enqueue(ctx, d, f, a, x);
}

static vimana_tick h_now(void *ctx)
{
    return vimana_evq_now(((net *)ctx)->q);
}

static int h_run(void *ctx)
{
    net *n = ctx;
    while (!n->stopped && vimana_evq_step(n->q))
        ;
    return HOST_FAULT == FAILED ? VIMANA_ERR_INTERNAL : VIMANA_OK;
}

static void h_stop(void *ctx)
{
    net *n = ctx;
    n->stopped = n->stop_called = true;
}

static uint32_t h_num_links(void *ctx)
{
    return HOST_LINKS ? ((net *)ctx)->npus : 0;
}

static int h_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    net *n = ctx;
    if (!HOST_LINKS || link >= n->npus)
        return VIMANA_ERR_ARGUMENT;
    *out = n->links[link];
    return VIMANA_OK;
}

static const char *h_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    net *n = ctx;
    if (device < n->npus) {
        snprintf(buf, len, "gpu%u", device);
        return buf;
    }
    return HOST_FAULT == BAD_NAME ? "sw\n0" : "sw,\"0\"";
}

static const vimana_backend_option host_options[] = {
    {"npus", "2 to 1024", "2", "NPUs of the one-switch network", "2"},
    {HOST_FAULT == BAD_OPTIONS ? "npus" : "count", "a path", "none", "where fini() writes its counts", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const vimana_backend descriptor = {
    .abi_major = VIMANA_NETWORK_ABI_MAJOR,
    .abi_minor = HOST_MINOR,
    .struct_size = sizeof(vimana_backend),
    .name = BACKEND_NAME,
    .description = "ABI 1.x host test backend",
    .capabilities = HOST_FAULT == CAP_NO_FN || HOST_LINKS ? VIMANA_CAP_LINK_STATS : 0,
    .init = h_init, .fini = h_fini, .num_dims = h_num_dims, .dim_size = h_dim_size,
    .dim_bandwidth = h_dim_bandwidth,
    .sim_send = h_send, .schedule = h_schedule, .now = h_now, .run = h_run,
    .num_links = HOST_FAULT == FN_NO_CAP || HOST_LINKS ? h_num_links : NULL,
    .link_stats = HOST_FAULT == FN_NO_CAP || HOST_LINKS ? h_link_stats : NULL,
    .stop = HOST_MINOR >= 1 ? h_stop : NULL,
    .device_name = HOST_NAMES ? h_device_name : NULL,
    .options = HOST_OPTIONS || HOST_FAULT == BAD_OPTIONS ? host_options : NULL,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &descriptor;
}
