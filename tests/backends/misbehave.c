/*
 * Backends that break the network API contract, one way each, for the
 * host's contract checks. A two-NPU network where every message takes
 * 1000 ticks; MISBEHAVE picks the violation:
 *   TWICE      delivers every message twice
 *   UNKNOWN    delivers a token the host never issued
 *   BACKWARDS  lets now() fall back to 0 after the first delivery
 *   IN_SEND    delivers from inside sim_send
 *   NEVER      accepts every message and never delivers it
 *   STORM      delivers every message again and again, for ever: run()
 *              would not return (it has no stop())
 *   LATE_STOP  has stop(), but finishes the tick in progress first
 *   INLINE_ZERO runs an event of delay 0 at once, inside schedule()
 *   DESCRIPTOR a descriptor with no name, an unknown capability bit,
 *              stop() and device_name() in an ABI 1.0 descriptor and a
 *              reserved slot set
 *              (the network is fine; LINK_STATS against its functions is
 *              the loader's check)
 * and the faults the host must refuse as backend-check does (issue 29 §5):
 *   NULL_NAME  a sound backend whose descriptor has no name
 *   INIT_NO_NUL init() fails and fills its whole error buffer with no NUL
 *   DIMS_WRAP  three dimensions (3340214413 x 2761311370 x 2, MULTI_DIM)
 *              whose product is 2^64 + 4: 4 NPUs to a 64-bit product
 *   MANY_LINKS LINK_STATS with num_links() = 2^32 - 1 on 2 NPUs
 *   EARLY      runs every event of delay d at d - 1
 *   LOG_NULL   calls host->log() with a NULL message from run()
 *   HANG       run() never returns (and never calls back)
 * Invalid messages (an unknown NPU, src == dst, size 0) are refused, as
 * the contract asks, so that each module breaks one rule only.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vimana/event_queue.h"
#include "vimana/network_api.h"

#define TWICE 1
#define UNKNOWN 2
#define BACKWARDS 3
#define IN_SEND 4
#define NEVER 5
#define STORM 6
#define LATE_STOP 7
#define INLINE_ZERO 8
#define DESCRIPTOR 9
#define NULL_NAME 10
#define INIT_NO_NUL 11
#define DIMS_WRAP 12
#define MANY_LINKS 13
#define EARLY 14
#define LOG_NULL 15
#define HANG 16

typedef struct bad_net {
    vimana_host host;
    vimana_evq *q;
    bool clock_reset;   /* BACKWARDS: now() returns 0 from the first delivery on */
    bool stopped;       /* LATE_STOP: stop() was called */
} bad_net;

static int b_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    (void)p, (void)err, (void)len;
#if MISBEHAVE == INIT_NO_NUL
    memset(err, 'x', len);
    return VIMANA_ERR_CONFIG;
#endif
    bad_net *n = calloc(1, sizeof *n);
    if (!n || !(n->q = vimana_evq_new())) {
        free(n);
        return VIMANA_ERR_NOMEM;
    }
    n->host = *h;
    *ctx = n;
    return VIMANA_OK;
}

static void b_fini(void *ctx)
{
    bad_net *n = ctx;
    vimana_evq_free(n->q);
    free(n);
}

#if MISBEHAVE == DIMS_WRAP
static const uint32_t dims[] = {3340214413u, 2761311370u, 2u};
#else
static const uint32_t dims[] = {2u};
#endif
#define N_DIMS (sizeof dims / sizeof dims[0])

static uint32_t b_num_dims(void *ctx)
{
    (void)ctx;
    return N_DIMS;
}

static uint32_t b_dim_size(void *ctx, uint32_t d)
{
    (void)ctx;
    return d < N_DIMS ? dims[d] : 0;
}

#if MISBEHAVE == MANY_LINKS
static uint32_t b_num_links(void *ctx)
{
    (void)ctx;
    return UINT32_MAX;
}

static int b_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    (void)ctx;
    out->src_device = link % 2;
    out->dst_device = 1 - link % 2;
    return VIMANA_OK;
}
#endif

#if MISBEHAVE != NEVER
static void arrive(void *arg, uint64_t token)
{
    bad_net *n = arg;
#if MISBEHAVE == UNKNOWN
    token ^= 1ull << 40;
#endif
    n->host.delivered(n->host.host, token);
#if MISBEHAVE == TWICE
    n->host.delivered(n->host.host, token);
#endif
    n->clock_reset = MISBEHAVE == BACKWARDS;
#if MISBEHAVE == STORM
    vimana_evq_schedule(n->q, 1, arrive, n, token);
#endif
}
#endif

static int b_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    bad_net *n = ctx;
    (void)tag;
    if (src > 1 || dst > 1 || src == dst || bytes == 0)
        return VIMANA_ERR_ARGUMENT;
#if MISBEHAVE == IN_SEND
    n->host.delivered(n->host.host, token);
#endif
#if MISBEHAVE == NEVER
    (void)n, (void)token;
    return VIMANA_OK;
#else
    return vimana_evq_schedule(n->q, 1000, arrive, n, token);
#endif
}

static int b_schedule(void *ctx, vimana_tick d, vimana_event_fn f, void *a, uint64_t x)
{
#if MISBEHAVE == INLINE_ZERO
    if (d == 0) {
        f(a, x);
        return VIMANA_OK;
    }
#endif
#if MISBEHAVE == EARLY
    d = d ? d - 1 : 0;
#endif
    return vimana_evq_schedule(((bad_net *)ctx)->q, d, f, a, x);
}

static vimana_tick b_now(void *ctx)
{
    bad_net *n = ctx;
    return n->clock_reset ? 0 : vimana_evq_now(n->q);
}

static int b_run(void *ctx)
{
    bad_net *n = ctx;
#if MISBEHAVE == LOG_NULL
    n->host.log(n->host.host, VIMANA_LOG_WARNING, NULL);
#endif
#if MISBEHAVE == HANG
    for (;;)
        pause();
#endif
    /* LATE_STOP checks for stop() between ticks only, so the events queued
     * behind the one that called it for the same tick still run. */
    while (!n->stopped && vimana_evq_step(n->q))
        ;
    return VIMANA_OK;
}

#if MISBEHAVE == LATE_STOP || MISBEHAVE == DESCRIPTOR
static void b_stop(void *ctx)
{
    ((bad_net *)ctx)->stopped = true;
}
#define STOP_FN b_stop
#else
#define STOP_FN NULL
#endif

#if MISBEHAVE == DESCRIPTOR
static const char reserved_marker[] = "not zero";
static const char *b_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    (void)ctx, (void)device, (void)buf, (void)len;
    return "dev";
}
static const vimana_backend descriptor = {
    .abi_major = VIMANA_NETWORK_ABI_MAJOR, .abi_minor = 0, .struct_size = sizeof(vimana_backend),
    .name = NULL,
    .description = "breaks the network API contract (test)",
    .capabilities = 1u << 7,
    .init = b_init, .fini = b_fini, .num_dims = b_num_dims, .dim_size = b_dim_size,
    .sim_send = b_send, .schedule = b_schedule, .now = b_now, .run = b_run, .stop = STOP_FN,
    .device_name = b_device_name,
    .reserved = {[2] = (void *)reserved_marker},
};
#else
#if MISBEHAVE == DIMS_WRAP
#define CAPABILITIES VIMANA_CAP_MULTI_DIM
#elif MISBEHAVE == MANY_LINKS
#define CAPABILITIES VIMANA_CAP_LINK_STATS
#else
#define CAPABILITIES 0
#endif
static const vimana_backend descriptor = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = MISBEHAVE == NULL_NAME ? NULL : BACKEND_NAME,
    .capabilities = CAPABILITIES,
#if MISBEHAVE == MANY_LINKS
    .num_links = b_num_links, .link_stats = b_link_stats,
#endif
    .description = "breaks the network API contract (test)",
    .init = b_init, .fini = b_fini, .num_dims = b_num_dims, .dim_size = b_dim_size,
    .sim_send = b_send, .schedule = b_schedule, .now = b_now, .run = b_run, .stop = STOP_FN,
};
#endif

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &descriptor;
}
