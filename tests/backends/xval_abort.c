/* A backend whose run() aborts the process: `vimana xval` must show it as
 * an error row ("killed by signal 6") and go on with the other backends. */
#include <stdlib.h>

#include "vimana/network_api.h"

static int a_init(const vimana_backend_params *p, const vimana_host *h, void **ctx, char *err, size_t len)
{
    (void)p, (void)h, (void)err, (void)len;
    *ctx = NULL;
    return VIMANA_OK;
}
static void a_fini(void *ctx) { (void)ctx; }
static uint32_t a_num_dims(void *ctx) { (void)ctx; return 1; }
static uint32_t a_dim_size(void *ctx, uint32_t d) { (void)ctx, (void)d; return 2; }
static int a_send(void *ctx, uint32_t s, uint32_t d, uint64_t b, uint32_t t, uint64_t k)
{
    (void)ctx, (void)s, (void)d, (void)b, (void)t, (void)k;
    return VIMANA_OK;
}
static int a_schedule(void *ctx, vimana_tick d, vimana_event_fn f, void *a, uint64_t x)
{
    (void)ctx, (void)d, (void)f, (void)a, (void)x;
    return VIMANA_OK;
}
static vimana_tick a_now(void *ctx) { (void)ctx; return 0; }
static int a_run(void *ctx)
{
    (void)ctx;
    abort();
}

static const vimana_backend descriptor = {
    .abi_major = VIMANA_NETWORK_ABI_MAJOR,
    .abi_minor = VIMANA_NETWORK_ABI_MINOR,
    .struct_size = sizeof(vimana_backend),
    .name = "xval_abort",
    .description = "aborts in run()",
    .init = a_init, .fini = a_fini, .num_dims = a_num_dims, .dim_size = a_dim_size,
    .sim_send = a_send, .schedule = a_schedule, .now = a_now, .run = a_run,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);
VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &descriptor;
}
