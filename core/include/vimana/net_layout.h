/*
 * vimana/net_layout.h - devices and directed links of a network YAML's
 * Ring / FullyConnected / Switch dimensions (backend toolkit).
 *
 * The link-level backends (congestion_aware, ns3_shim, garnet) number them
 * the same way, so their --report link records compare one to one:
 *
 *  - devices: NPUs 0..N-1 (dimension 0 varies fastest), then the switches of
 *    each Switch dimension d, one per value of the other coordinates;
 *  - links of dimension d start at dim[d].link_base: Ring, two per NPU
 *    (2a toward coordinate +1, 2a+1 toward -1); FullyConnected, n per NPU
 *    (a*n + the peer's coordinate; the link to itself is never used);
 *    Switch, N up-links (a) then N down-links (N + a).
 *
 * With one dimension this is the 1-D model's numbering. The coordinate
 * helpers are inline: they are on the per-hop path.
 */
#ifndef VIMANA_NET_LAYOUT_H
#define VIMANA_NET_LAYOUT_H

#include <stdint.h>

#include "vimana/network_yaml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vimana_net_layout_dim {
    uint32_t link_base;     /* first link of the dimension */
    uint32_t switch_base;   /* first switch (counted after the NPUs) of a Switch dimension */
    uint32_t stride;        /* product of the sizes of the lower dimensions */
} vimana_net_layout_dim;

typedef struct vimana_net_layout {
    const vimana_net_config *net;
    uint32_t npus;
    uint32_t n_switches;
    /* All directed links; when above UINT32_MAX the layout is unusable (the
     * bases of the later dimensions are not filled): check it first. */
    uint64_t n_links;
    vimana_net_layout_dim dim[VIMANA_NET_MAX_DIMS];
} vimana_net_layout;

/* Lays out `net` (which must outlive the layout). */
void vimana_net_layout_init(vimana_net_layout *l, const vimana_net_config *net);

/* Calls fn(ctx, link, dim, from_device, to_device) once for every link in
 * use (FullyConnected links of an NPU to itself are skipped). */
void vimana_net_layout_links(const vimana_net_layout *l,
                             void (*fn)(void *ctx, uint32_t link, uint32_t dim, uint32_t from, uint32_t to),
                             void *ctx);

/* NPU npu's coordinate in dimension d. */
static inline uint32_t vimana_net_layout_coord(const vimana_net_layout *l, uint32_t npu, uint32_t d)
{
    return (npu / l->dim[d].stride) % l->net->dims[d].npus;
}

/* The NPU that differs from npu only in dimension d, where it has coordinate k. */
static inline uint32_t vimana_net_layout_with_coord(const vimana_net_layout *l, uint32_t npu, uint32_t d, uint32_t k)
{
    return npu - vimana_net_layout_coord(l, npu, d) * l->dim[d].stride + k * l->dim[d].stride;
}

/* The switch (a device id) of Switch dimension d that npu hangs from. */
static inline uint32_t vimana_net_layout_switch_of(const vimana_net_layout *l, uint32_t npu, uint32_t d)
{
    uint32_t stride = l->dim[d].stride, span = stride * l->net->dims[d].npus;
    return l->npus + l->dim[d].switch_base + (npu / span) * stride + npu % stride;
}

/* The directed link of dimension d from device a to its neighbour b. */
static inline uint32_t vimana_net_layout_link_id(const vimana_net_layout *l, uint32_t d, uint32_t a, uint32_t b)
{
    const vimana_net_layout_dim *ld = &l->dim[d];
    uint32_t n = l->net->dims[d].npus;
    switch (l->net->dims[d].topology) {
    case VIMANA_NET_RING:
        /* With two NPUs both neighbours are the same device: one link each way. */
        return ld->link_base + a * 2 + (vimana_net_layout_coord(l, b, d) == (vimana_net_layout_coord(l, a, d) + 1) % n ? 0u : 1u);
    case VIMANA_NET_FULLY_CONNECTED:
        return ld->link_base + a * n + vimana_net_layout_coord(l, b, d);
    case VIMANA_NET_SWITCH:
        return a >= l->npus ? ld->link_base + l->npus + b : ld->link_base + a;
    }
    return 0;
}

/* Ring hops from coordinate s to t on a ring of n, the shorter way round
 * (a tie goes clockwise); *step is +1 (clockwise) or -1. */
static inline uint32_t vimana_net_layout_ring_hops(uint32_t n, uint32_t s, uint32_t t, int *step)
{
    uint32_t cw = (t + n - s) % n;
    *step = cw <= n - cw ? 1 : -1;
    return cw <= n - cw ? cw : n - cw;
}

/*
 * Dimension-order routing, the link-level backends' one rule: a message
 * crosses the lowest dimension in which it differs from its destination,
 * then the next. A leg is one dimension's crossing; a backend keeps its
 * fields in its own message (packed as it likes) and asks for the next
 * device at each hop.
 */
typedef struct vimana_net_leg {
    uint32_t dim;    /* the dimension crossed */
    uint32_t target; /* the NPU where the crossing ends: dst's coordinate in dim */
    uint32_t via;    /* Switch: the switch of dim that the NPU hangs from; else target */
    int step;        /* Ring: +1 or -1 (vimana_net_layout_ring_hops); else 0 */
} vimana_net_leg;

/* The leg an NPU cur (not dst) starts toward dst. */
static inline vimana_net_leg vimana_net_layout_leg(const vimana_net_layout *l, uint32_t cur, uint32_t dst)
{
    uint32_t d = 0;
    while (vimana_net_layout_coord(l, cur, d) == vimana_net_layout_coord(l, dst, d))
        d++;
    uint32_t to = vimana_net_layout_coord(l, dst, d);
    /* Field by field: C++ (ns3_shim) includes this header too. */
    vimana_net_leg leg;
    leg.dim = d;
    leg.target = vimana_net_layout_with_coord(l, cur, d, to);
    leg.via = leg.target;
    leg.step = 0;
    if (l->net->dims[d].topology == VIMANA_NET_RING)
        vimana_net_layout_ring_hops(l->net->dims[d].npus, vimana_net_layout_coord(l, cur, d), to, &leg.step);
    if (l->net->dims[d].topology == VIMANA_NET_SWITCH)
        leg.via = vimana_net_layout_switch_of(l, cur, d);
    return leg;
}

/* The device after cur (an NPU, or the switch of a Switch leg) on the leg
 * of dimension d with those target, via and step: the next NPU round the
 * ring; the target (FullyConnected); the switch, then the target (Switch). */
static inline uint32_t vimana_net_layout_leg_next(const vimana_net_layout *l, uint32_t d, uint32_t cur, uint32_t target,
                                                  uint32_t via, int step)
{
    switch (l->net->dims[d].topology) {
    case VIMANA_NET_RING: {
        uint32_t n = l->net->dims[d].npus;
        return vimana_net_layout_with_coord(l, cur, d, (uint32_t)(((int64_t)vimana_net_layout_coord(l, cur, d) + step + n) % n));
    }
    case VIMANA_NET_FULLY_CONNECTED: return target;
    case VIMANA_NET_SWITCH: return cur >= l->npus ? target : via;
    }
    return target;
}

#ifdef __cplusplus
}
#endif

#endif
