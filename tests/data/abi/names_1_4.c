/*
 * The versioned names of the ABI 1.2 to 1.4 headers, as a plugin of that
 * time could write them: the descriptor was struct vimana_backend_1_2
 * (1.4 added link_fault to it), the host struct vimana_host_1_1 (1.3
 * added will_deliver), the link counters struct vimana_link_stats_1_2.
 * tests/e2e/abi_plugin_1_0.sh compiles it against today's header (the
 * functions are declared only: it is compiled, not linked).
 */
#include <vimana/network_api.h>

int n_init(const vimana_backend_params *params, const struct vimana_host_1_1 *host, void **ctx, char *err,
           size_t err_len);
int n_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token);
int n_link_stats(void *ctx, uint32_t link, struct vimana_link_stats_1_2 *out);
int n_link_fault(void *ctx, uint32_t link, vimana_tick at, double bandwidth_factor, char *err, size_t err_len);

/* A 1.3 backend hinted the host's cache through the host struct it kept. */
void n_hint(const struct vimana_host_1_1 *host, uint64_t token);
void n_hint(const struct vimana_host_1_1 *host, uint64_t token)
{
    if (host->struct_size >= sizeof(struct vimana_host_1_1) && host->will_deliver)
        host->will_deliver(host->host, token, 0);
}

static const struct vimana_backend_1_2 names_1_4 = {
    VIMANA_BACKEND_HEADER_INIT, .name = "names_1_4",
    .init = n_init, .sim_send = n_send, .link_stats = n_link_stats, .link_fault = n_link_fault,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &names_1_4;
}
