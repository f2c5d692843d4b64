/*
 * The device and link numbering of a network YAML's dimensions
 * (vimana/net_layout.h), computed once per network.
 */
#include "vimana/net_layout.h"

/* Links of dimension d: n per NPU for FullyConnected, 2 per NPU otherwise
 * (uint64_t: a FullyConnected dimension of n has N * n). */
static uint64_t links_of_dim(const vimana_net_config *net, uint32_t d)
{
    const vimana_net_dim *nd = &net->dims[d];
    return nd->topology == VIMANA_NET_FULLY_CONNECTED ? (uint64_t)net->total_npus * nd->npus
                                                      : 2ull * net->total_npus;
}

void vimana_net_layout_init(vimana_net_layout *l, const vimana_net_config *net)
{
    *l = (vimana_net_layout){.net = net, .npus = net->total_npus};
    uint64_t links = 0;
    uint32_t stride = 1;
    for (uint32_t d = 0; d < net->n_dims; d++) {
        l->dim[d] = (vimana_net_layout_dim){.link_base = (uint32_t)links, .switch_base = l->n_switches,
                                            .stride = stride};
        links += links_of_dim(net, d);
        if (links > UINT32_MAX)
            break;
        if (net->dims[d].topology == VIMANA_NET_SWITCH)
            l->n_switches += net->total_npus / net->dims[d].npus;
        stride *= net->dims[d].npus;
    }
    l->n_links = links;
}

void vimana_net_layout_links(const vimana_net_layout *l,
                             void (*fn)(void *ctx, uint32_t link, uint32_t dim, uint32_t from, uint32_t to),
                             void *ctx)
{
    for (uint32_t d = 0; d < l->net->n_dims; d++) {
        uint32_t n = l->net->dims[d].npus;
        for (uint32_t a = 0; a < l->npus; a++) {
            uint32_t k = vimana_net_layout_coord(l, a, d);
            switch (l->net->dims[d].topology) {
            case VIMANA_NET_RING: {
                uint32_t next = vimana_net_layout_with_coord(l, a, d, (k + 1) % n);
                uint32_t prev = vimana_net_layout_with_coord(l, a, d, (k + n - 1) % n);
                fn(ctx, vimana_net_layout_link_id(l, d, a, next), d, a, next);
                fn(ctx, vimana_net_layout_link_id(l, d, a, prev), d, a, prev);
                break;
            }
            case VIMANA_NET_FULLY_CONNECTED:
                for (uint32_t b = 0; b < n; b++) {
                    uint32_t peer = vimana_net_layout_with_coord(l, a, d, b);
                    if (b != k)
                        fn(ctx, vimana_net_layout_link_id(l, d, a, peer), d, a, peer);
                }
                break;
            case VIMANA_NET_SWITCH: {
                uint32_t sw = vimana_net_layout_switch_of(l, a, d);
                fn(ctx, vimana_net_layout_link_id(l, d, a, sw), d, a, sw);
                fn(ctx, vimana_net_layout_link_id(l, d, sw, a), d, sw, a);
                break;
            }
            }
        }
    }
}
