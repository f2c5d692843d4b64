/*
 * Test backends for the host side of ABI 1.1 and 1.2: a one-dimensional network of
 * `npus=N` NPUs (backend option, default 2) where every message takes 1000
 * ticks. Every event, the host's and the network's, runs through a
 * trampoline, so that after stop() no event runs, however many share its
 * tick: what the host sees of stop() is exact.
 *
 * The module is built once and copied under the name of each variant
 * (tests/sim.mk): the copy's file name picks its row of VARIANTS below.
 * A variant's minor is the descriptor's abi_minor: 0 a 1.0 backend (the
 * stop slot left zero), 2 a 1.2 one. Its fault:
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
 * With `options` the descriptor lists two options, `npus` and
 * `count` (`npus` with a faster value), in the 1.5 slot whatever
 * the minor says.
 * With `links` it keeps link statistics (VIMANA_CAP_LINK_STATS): link
 * k is NPU k -> the switch (device `npus`) and carries every message NPU k
 * sends, 1000 busy ticks each; the j-th message on a link (j = 1, 2, ...)
 * waited 100 x j ticks in its queue, so a link of m messages reports
 * max_queue_ticks 100 m and queue_ticks 50 m (m + 1) (in every variant: a
 * pre-1.2 host must not read them). With `names` it fills the
 * device_name slot whatever the minor says: NPU k is "gpuK", the switch
 * 'sw,"0"' (a comma and quotes, for the report's escaping).
 * Option `count=PATH`: fini() writes to PATH one line,
 *   "faults=F stopped=S ran_after_fault=R dropped=D"
 * (events run after the fault was injected, events dropped by stop()).
 */
#define _GNU_SOURCE   /* dladdr (module_name.h): which copy of the module this is */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "vimana/event_queue.h"
#include "vimana/network_api.h"

#include "module_name.h"

enum fault {
    NONE,
    FAILED,
    BAD_TOKEN,
    MULTI_DIM,
    CAP_NO_FN,
    FN_NO_CAP,
    BAD_BW,
    BAD_NAME,
    BAD_QUEUE,
    TOO_FAST,
    SLOW,
    SLOW_FIXED,
    BAD_OPTIONS,
};

/* Each variant: the module's name, its ABI minor, its fault, and whether it
 * keeps link statistics, names its devices, lists its options. */
#define VARIANTS(X)                                                                                                    \
    X(HOST11_OK, "host11_ok", 1, NONE, 0, 0, 0)                                                                        \
    X(HOST10_OK, "host10_ok", 0, NONE, 0, 0, 0)                                                                        \
    X(HOST11_FAILED, "host11_failed", 1, FAILED, 0, 0, 0)                                                              \
    X(HOST11_BAD_TOKEN, "host11_bad_token", 1, BAD_TOKEN, 0, 0, 0)                                                     \
    X(HOST10_BAD_TOKEN, "host10_bad_token", 0, BAD_TOKEN, 0, 0, 0)                                                     \
    X(HOST11_MULTI_DIM, "host11_multi_dim", 1, MULTI_DIM, 0, 0, 0)                                                     \
    X(HOST11_CAP_NO_FN, "host11_cap_no_fn", 1, CAP_NO_FN, 0, 0, 0)                                                     \
    X(HOST11_FN_NO_CAP, "host11_fn_no_cap", 1, FN_NO_CAP, 0, 0, 0)                                                     \
    X(HOST11_BAD_BW, "host11_bad_bw", 1, BAD_BW, 0, 0, 0)                                                              \
    X(HOST11_LINKS, "host11_links", 1, NONE, 1, 1, 0)                                                                  \
    X(HOST12_OK, "host12_ok", 2, NONE, 1, 1, 0)                                                                        \
    X(HOST12_BAD_NAME, "host12_bad_name", 2, BAD_NAME, 1, 1, 0)                                                        \
    X(HOST12_BAD_QUEUE, "host12_bad_queue", 2, BAD_QUEUE, 1, 0, 0)                                                     \
    X(HOST12_TOO_FAST, "host12_too_fast", 2, TOO_FAST, 1, 0, 0)                                                        \
    X(HOST12_SLOW, "host12_slow", 2, SLOW, 1, 0, 0)                                                                    \
    X(HOST12_SLOW_FIXED, "host12_slow_fixed", 2, SLOW_FIXED, 1, 0, 0)                                                  \
    X(HOST14_OPTIONS, "host14_options", 4, NONE, 0, 0, 1)                                                              \
    X(HOST15_OPTIONS, "host15_options", 5, NONE, 0, 0, 1)                                                              \
    X(HOST15_BAD_OPTIONS, "host15_bad_options", 5, BAD_OPTIONS, 0, 0, 0)

typedef struct variant {
    enum fault fault;
    bool links;
} variant;

#define VARIANT_ID(id, name, minor, fault, links, names, options) id,
#define VARIANT_NAME(id, name, minor, fault, links, names, options) name,
#define VARIANT_ROW(id, name, minor, fault, links, names, options) [id] = {fault, links},
enum { VARIANTS(VARIANT_ID) N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {VARIANTS(VARIANT_NAME)};
static const variant variants[N_VARIANTS] = {VARIANTS(VARIANT_ROW)};

typedef struct net {
    vimana_host host;
    vimana_evq *q;
    uint32_t npus;
    char count_path[512];
    bool stopped;               /* no event runs any more */
    bool stop_called;           /* by the host, through stop() */
    unsigned faults;
    uint64_t ran_after_fault, dropped;
    vimana_link_stats *links;   /* [npus]: counted in every variant, reported with `links` */
    const variant *v;
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

static int h_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len);

/* This copy's variant (its file's name, a row of VARIANTS), or -1. */
static int module_variant(void)
{
    return module_name_index((void *)h_init, variant_names, N_VARIANTS);
}

static int h_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    int id = module_variant();
    if (id < 0) {
        snprintf(err, len, "host11: not a variant's module");
        return VIMANA_ERR_CONFIG;
    }
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
    n->v = &variants[id];
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
    return ((net *)ctx)->v->fault == MULTI_DIM ? 3 : 1;
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
    (void)d;
    enum fault fault = ((net *)ctx)->v->fault;
    return fault == BAD_BW ? strtod("nan", NULL) : fault == TOO_FAST ? 100.0 : 2e6;
}

static void arrive(void *arg, uint64_t token)
{
    net *n = arg;
    if (n->faults == 0 && (n->v->fault == FAILED || n->v->fault == BAD_TOKEN)) {
        n->faults++;
        if (n->v->fault == FAILED) {
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
    if (n->v->fault != BAD_QUEUE)
        l->queue_ticks += 100 * l->messages;
}

static int h_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    net *n = ctx;
    (void)tag;
    if (src >= n->npus || dst >= n->npus || src == dst || bytes == 0)
        return VIMANA_ERR_ARGUMENT;
    count_message(n, src, bytes);
    if (n->v->fault == SLOW || n->v->fault == SLOW_FIXED) {
        double mib = n->v->fault == SLOW ? (double)bytes / 1048576.0 : 1.0;
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
    return n->v->fault == FAILED ? VIMANA_ERR_INTERNAL : VIMANA_OK;
}

static void h_stop(void *ctx)
{
    net *n = ctx;
    n->stopped = n->stop_called = true;
}

static uint32_t h_num_links(void *ctx)
{
    net *n = ctx;
    return n->v->links ? n->npus : 0;
}

static int h_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    net *n = ctx;
    if (!n->v->links || link >= n->npus)
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
    return n->v->fault == BAD_NAME ? "sw\n0" : "sw,\"0\"";
}

static const vimana_backend_option host_options[] = {
    {"npus", "2 to 1024", "2", "NPUs of the one-switch network", "2"},
    {"count", "a path", "none", "where fini() writes its counts", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};
/* BAD_OPTIONS: a key listed twice */
static const vimana_backend_option bad_options[] = {
    {"npus", "2 to 1024", "2", "NPUs of the one-switch network", "2"},
    {"npus", "a path", "none", "where fini() writes its counts", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define LINK_STATS(fault, links) ((fault) == CAP_NO_FN || (links) ? VIMANA_CAP_LINK_STATS : 0)
#define LINK_FNS(fault, links) ((fault) == FN_NO_CAP || (links))
#define VARIANT_DESCRIPTOR(id, name_, minor_, fault_, links_, names_, options_)                                             \
    [id] = {                                                                                                           \
        .abi_major = VIMANA_NETWORK_ABI_MAJOR,                                                                         \
        .abi_minor = minor_,                                                                                            \
        .struct_size = sizeof(vimana_backend),                                                                         \
        .name = name_,                                                                                                 \
        .description = "ABI 1.x host test backend",                                                                    \
        .capabilities = LINK_STATS(fault_, links_),                                                                      \
        .init = h_init, .fini = h_fini, .num_dims = h_num_dims, .dim_size = h_dim_size,                                \
        .dim_bandwidth = h_dim_bandwidth,                                                                              \
        .sim_send = h_send, .schedule = h_schedule, .now = h_now, .run = h_run,                                        \
        .num_links = LINK_FNS(fault_, links_) ? h_num_links : NULL,                                                      \
        .link_stats = LINK_FNS(fault_, links_) ? h_link_stats : NULL,                                                    \
        .stop = (minor_) >= 1 ? h_stop : NULL,                                                                          \
        .device_name = (names_) ? h_device_name : NULL,                                                                 \
        .options = (fault_) == BAD_OPTIONS ? bad_options : (options_) ? host_options : NULL,                             \
    },
static const vimana_backend descriptors[N_VARIANTS] = {VARIANTS(VARIANT_DESCRIPTOR)};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    int id = module_variant();
    return id < 0 ? NULL : &descriptors[id];
}
