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
 * Invalid messages (an unknown NPU, src == dst, size 0) are refused, as
 * the contract asks, so that each module breaks one rule only.
 */
#include <stdbool.h>
#include <stdlib.h>

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

typedef struct bad_net {
    vimana_host host;
    vimana_evq *q;
    bool clock_reset;   /* BACKWARDS: now() returns 0 from the first delivery on */
    bool stopped;       /* LATE_STOP: stop() was called */
} bad_net;

static int b_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    (void)p, (void)err, (void)len;
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

static uint32_t b_num_dims(void *ctx)
{
    (void)ctx;
    return 1;
}

static uint32_t b_dim_size(void *ctx, uint32_t d)
{
    (void)ctx;
    return d == 0 ? 2 : 0;
}

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
static const vimana_backend descriptor = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = BACKEND_NAME,
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
