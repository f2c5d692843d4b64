/*
 * Backends that break the network API contract, one way each, for the
 * host's contract checks. A two-NPU network where every message takes
 * 1000 ticks. The module is built once and copied under the name of each
 * violation (tests/sim.mk): the copy's file name, bad_<fault>.so, picks
 * it from the table FAULTS below:
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
 * the contract asks, so that each module breaks one rule only. A copy
 * under another name has no descriptor (the entry returns NULL).
 */
#define _GNU_SOURCE   /* dladdr (module_name.h): which copy of the module this is */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vimana/event_queue.h"
#include "vimana/network_api.h"

#include "module_name.h"

/* Each violation and the name of the module that commits it. */
#define FAULTS(X)                                                                                                      \
    X(TWICE, "bad_twice")                                                                                              \
    X(UNKNOWN, "bad_unknown")                                                                                          \
    X(BACKWARDS, "bad_backwards")                                                                                      \
    X(IN_SEND, "bad_in_send")                                                                                          \
    X(NEVER, "bad_never")                                                                                              \
    X(STORM, "bad_storm")                                                                                              \
    X(LATE_STOP, "bad_late_stop")                                                                                      \
    X(INLINE_ZERO, "bad_inline_zero")                                                                                  \
    X(DESCRIPTOR, "bad_descriptor")                                                                                    \
    X(NULL_NAME, "bad_null_name")                                                                                      \
    X(INIT_NO_NUL, "bad_init_no_nul")                                                                                  \
    X(DIMS_WRAP, "bad_dims_wrap")                                                                                      \
    X(MANY_LINKS, "bad_many_links")                                                                                    \
    X(EARLY, "bad_early")                                                                                              \
    X(LOG_NULL, "bad_log_null")                                                                                        \
    X(HANG, "bad_hang")
#define FAULT_ENUM(fault, name) fault,
#define FAULT_NAME(fault, name) name,
enum fault { FAULTS(FAULT_ENUM) N_FAULTS };
static const char *const fault_names[N_FAULTS] = {FAULTS(FAULT_NAME)};

/* The fault of this copy: its file's name (.../bad_twice.so: TWICE), or
 * -1 for a name not in FAULTS. */
static int module_fault(void)
{
    return module_name_index((void *)module_fault, fault_names, N_FAULTS);
}

typedef struct bad_net {
    vimana_host host;
    vimana_evq *q;
    int fault;
    bool clock_reset;   /* BACKWARDS: now() returns 0 from the first delivery on */
    bool stopped;       /* LATE_STOP: stop() was called */
} bad_net;

static int b_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    (void)p;
    int fault = module_fault();
    if (fault == INIT_NO_NUL) {
        memset(err, 'x', len);
        return VIMANA_ERR_CONFIG;
    }
    bad_net *n = calloc(1, sizeof *n);
    if (!n || !(n->q = vimana_evq_new())) {
        free(n);
        return VIMANA_ERR_NOMEM;
    }
    n->host = *h;
    n->fault = fault;
    *ctx = n;
    return VIMANA_OK;
}

static void b_fini(void *ctx)
{
    bad_net *n = ctx;
    vimana_evq_free(n->q);
    free(n);
}

/* DIMS_WRAP: three dimensions whose product is 2^64 + 4; else one of 2. */
static const uint32_t wrapping_dims[] = {3340214413u, 2761311370u, 2u};

static uint32_t b_num_dims(void *ctx)
{
    return ((bad_net *)ctx)->fault == DIMS_WRAP ? 3 : 1;
}

static uint32_t b_dim_size(void *ctx, uint32_t d)
{
    if (d >= b_num_dims(ctx))
        return 0;
    return ((bad_net *)ctx)->fault == DIMS_WRAP ? wrapping_dims[d] : 2u;
}

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

static void arrive(void *arg, uint64_t token)
{
    bad_net *n = arg;
    if (n->fault == UNKNOWN)
        token ^= 1ull << 40;
    n->host.delivered(n->host.host, token);
    if (n->fault == TWICE)
        n->host.delivered(n->host.host, token);
    n->clock_reset = n->fault == BACKWARDS;
    if (n->fault == STORM)
        vimana_evq_schedule(n->q, 1, arrive, n, token);
}

static int b_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    bad_net *n = ctx;
    (void)tag;
    if (src > 1 || dst > 1 || src == dst || bytes == 0)
        return VIMANA_ERR_ARGUMENT;
    if (n->fault == IN_SEND)
        n->host.delivered(n->host.host, token);
    if (n->fault == NEVER)
        return VIMANA_OK;
    return vimana_evq_schedule(n->q, 1000, arrive, n, token);
}

static int b_schedule(void *ctx, vimana_tick d, vimana_event_fn f, void *a, uint64_t x)
{
    bad_net *n = ctx;
    if (n->fault == INLINE_ZERO && d == 0) {
        f(a, x);
        return VIMANA_OK;
    }
    if (n->fault == EARLY)
        d = d ? d - 1 : 0;
    return vimana_evq_schedule(n->q, d, f, a, x);
}

static vimana_tick b_now(void *ctx)
{
    bad_net *n = ctx;
    return n->clock_reset ? 0 : vimana_evq_now(n->q);
}

static int b_run(void *ctx)
{
    bad_net *n = ctx;
    if (n->fault == LOG_NULL)
        n->host.log(n->host.host, VIMANA_LOG_WARNING, NULL);
    if (n->fault == HANG)
        for (;;)
            pause();
    /* LATE_STOP checks for stop() between ticks only, so the events queued
     * behind the one that called it for the same tick still run. */
    while (!n->stopped && vimana_evq_step(n->q))
        ;
    return VIMANA_OK;
}

static void b_stop(void *ctx)
{
    ((bad_net *)ctx)->stopped = true;
}

static const char reserved_marker[] = "not zero";
static const char *b_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    (void)ctx, (void)device, (void)buf, (void)len;
    return "dev";
}

/* The descriptor of each violation: the network's functions, and what a
 * violation changes of the descriptor itself. */
#define NETWORK                                                                                                        \
    .description = "breaks the network API contract (test)", .init = b_init, .fini = b_fini,                          \
    .num_dims = b_num_dims, .dim_size = b_dim_size, .sim_send = b_send, .schedule = b_schedule, .now = b_now,         \
    .run = b_run
static const vimana_backend descriptors[N_FAULTS] = {
    [TWICE] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_twice", NETWORK},
    [UNKNOWN] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_unknown", NETWORK},
    [BACKWARDS] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_backwards", NETWORK},
    [IN_SEND] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_in_send", NETWORK},
    [NEVER] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_never", NETWORK},
    [STORM] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_storm", NETWORK},
    [LATE_STOP] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_late_stop", NETWORK, .stop = b_stop},
    [INLINE_ZERO] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_inline_zero", NETWORK},
    /* no name, an unknown capability bit, stop() and device_name() in an
     * ABI 1.0 descriptor, a reserved slot set */
    [DESCRIPTOR] = {.abi_major = VIMANA_NETWORK_ABI_MAJOR, .abi_minor = 0, .struct_size = sizeof(vimana_backend),
                    .name = NULL, .capabilities = 1u << 7, NETWORK, .stop = b_stop, .device_name = b_device_name,
                    .reserved = {[2] = (void *)reserved_marker}},
    [NULL_NAME] = {VIMANA_BACKEND_HEADER_INIT, .name = NULL, NETWORK},
    [INIT_NO_NUL] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_init_no_nul", NETWORK},
    [DIMS_WRAP] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_dims_wrap", .capabilities = VIMANA_CAP_MULTI_DIM, NETWORK},
    [MANY_LINKS] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_many_links", .capabilities = VIMANA_CAP_LINK_STATS,
                    NETWORK, .num_links = b_num_links, .link_stats = b_link_stats},
    [EARLY] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_early", NETWORK},
    [LOG_NULL] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_log_null", NETWORK},
    [HANG] = {VIMANA_BACKEND_HEADER_INIT, .name = "bad_hang", NETWORK},
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    int fault = module_fault();
    return fault < 0 ? NULL : &descriptors[fault];
}
