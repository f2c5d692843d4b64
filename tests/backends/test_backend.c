/* Test backends for the ABI checks and xval: one source, built four ways.
 * The descriptor's version fields come from TEST_MAJOR / TEST_MINOR; with
 * TEST_NO_ENTRY the module exports no entry symbol at all; with
 * TEST_RUN_ABORTS its run() aborts the process (`vimana xval` must show an
 * error row, "killed by signal 6", and go on with the other backends). */
#include <stdlib.h>

#include "vimana/network_api.h"

static int t_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    (void)p, (void)h, (void)err, (void)len;
    *ctx = 0;
    return VIMANA_OK;
}
static void t_fini(void *ctx) { (void)ctx; }
static uint32_t t_num_dims(void *ctx) { (void)ctx; return 1; }
static uint32_t t_dim_size(void *ctx, uint32_t d) { (void)ctx, (void)d; return 2; }
static int t_send(void *ctx, uint32_t s, uint32_t d, uint64_t b, uint32_t t, uint64_t k)
{
    (void)ctx, (void)s, (void)d, (void)b, (void)t, (void)k;
    return VIMANA_OK;
}
static int t_schedule(void *ctx, vimana_tick d, vimana_event_fn f, void *a, uint64_t x)
{
    (void)ctx, (void)d, (void)f, (void)a, (void)x;
    return VIMANA_OK;
}
static vimana_tick t_now(void *ctx) { (void)ctx; return 0; }
static int t_run(void *ctx)
{
    (void)ctx;
#ifdef TEST_RUN_ABORTS
    abort();
#else
    return VIMANA_OK;
#endif
}

static const vimana_backend descriptor = {
    .abi_major = TEST_MAJOR,
    .abi_minor = TEST_MINOR,
    .struct_size = sizeof(vimana_backend),
    .name = "test",
    .description = "ABI test backend",
    .init = t_init, .fini = t_fini, .num_dims = t_num_dims, .dim_size = t_dim_size,
    .sim_send = t_send, .schedule = t_schedule, .now = t_now, .run = t_run,
};

#ifdef TEST_NO_ENTRY
const vimana_backend *test_backend_descriptor(void);
const vimana_backend *test_backend_descriptor(void)
#else
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
#endif
{
    return &descriptor;
}
