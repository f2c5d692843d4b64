/*
 * shim_topology.c - links and routes of the ns3_shim (see shim_topology.h).
 * The YAML layout and dimension-order walk are congestion_aware's, so that
 * link ids, device ids and routes match it one for one.
 */
#include "ns3_shim/shim_topology.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- a network YAML: dimensions ------------------------------------------ */

static void set_link(void *ctx, uint32_t link, uint32_t d, uint32_t a, uint32_t b)
{
    shim_topology *t = ctx;
    t->links[link] = (shim_link){.src_device = a, .dst_device = b, .bytes_per_ns = t->net->dims[d].bytes_per_ns,
                                 .latency_ns = t->net->dims[d].latency_ns};
}

static void yaml_links(shim_topology *t)
{
    vimana_net_layout_links(&t->lay, set_link, t);
}

static int yaml_layout(shim_topology *t, const char *path, char *err, size_t err_len)
{
    t->npus = t->net->total_npus;
    vimana_net_layout_init(&t->lay, t->net);
    if (t->lay.n_links > SHIM_MAX_LINKS) {
        snprintf(err, err_len, "%s: npus_count: this network needs more than %u links, more than the ns3 "
                 "backend supports", path, SHIM_MAX_LINKS);
        return VIMANA_ERR_CONFIG;
    }
    t->n_links = (uint32_t)t->lay.n_links;
    t->devices = t->npus + t->lay.n_switches;
    return VIMANA_OK;
}

/* Dimension-order route (the toolkit's legs, as congestion_aware and
 * garnet walk them hop by hop): the lowest differing dimension first. */
static long yaml_route(const shim_topology *t, uint32_t src, uint32_t dst, uint32_t *links, size_t max)
{
    size_t hops = 0;
    uint32_t cur = src;
    while (cur != dst) {
        vimana_net_leg leg = vimana_net_layout_leg(&t->lay, cur, dst);
        while (cur != leg.target) {
            uint32_t next = vimana_net_layout_leg_next(&t->lay, leg.dim, cur, leg.target, leg.via, leg.step);
            if (hops < max)
                links[hops] = vimana_net_layout_link_id(&t->lay, leg.dim, cur, next);
            hops++;
            cur = next;
        }
    }
    return (long)hops;
}

/* ---- a topology graph ------------------------------------------------------ */

static int graph_layout(shim_topology *t, vimana_bt *bt, char *err, size_t err_len)
{
    int rc = vimana_bt_graph_network(bt, t->topo, "ns3", SHIM_MAX_LINKS, &t->n_links, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    t->npus = bt->net.total_npus;
    t->devices = vimana_topo_num_nodes(t->topo);
    return VIMANA_OK;
}

static void graph_links(shim_topology *t)
{
    for (uint32_t l = 0; l < t->n_links; l++) {
        const vimana_topo_link *tl = vimana_topo_link_info(t->topo, l);
        t->links[l] = (shim_link){.src_device = vimana_topo_node_device(t->topo, tl->src),
                                  .dst_device = vimana_topo_node_device(t->topo, tl->dst),
                                  .bytes_per_ns = tl->bytes_per_ns, .latency_ns = tl->latency_ns};
    }
}

/* ---- the interface ----------------------------------------------------------- */

int shim_topology_load(shim_topology *t, vimana_bt *bt, char *err, size_t err_len)
{
    t->net = &bt->net;
    int rc = vimana_bt_load_graph_or_yaml(bt, &t->topo, err, err_len);
    if (rc == VIMANA_OK)
        rc = t->topo ? graph_layout(t, bt, err, err_len) : yaml_layout(t, bt->network_path, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    /* Unused slots (a Ring of 2 has one link each way; FullyConnected's
     * a -> a) stay src == dst with no rate: no channel is made for them. */
    t->links = calloc(t->n_links ? t->n_links : 1, sizeof *t->links);
    if (!t->links) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    if (t->topo)
        graph_links(t);
    else
        yaml_links(t);
    return VIMANA_OK;
}

void shim_topology_free(shim_topology *t)
{
    vimana_topo_free(t->topo);
    free(t->links);
    t->topo = NULL;
    t->links = NULL;
}

long shim_topology_route(shim_topology *t, uint32_t src, uint32_t dst, uint32_t *links, size_t max)
{
    if (t->topo)
        return vimana_topo_route(t->topo, src, dst, links, max);
    return yaml_route(t, src, dst, links, max);
}

uint32_t shim_topology_next_link(shim_topology *t, uint32_t device, uint32_t dst_npu, uint64_t *ecmp)
{
    return vimana_topo_next_link(t->topo, vimana_topo_device_node(t->topo, device), dst_npu, ecmp);
}

/* The toolkit's check and words, as every backend refuses a partition. */
int shim_topology_check_partition(shim_topology *t, const uint8_t *down, vimana_tick at, char *err, size_t err_len)
{
    int rc = vimana_topo_check_partition(t->topo, down, at, err, err_len);
    return rc == 0 ? VIMANA_OK : rc > 0 ? VIMANA_ERR_CONFIG : VIMANA_ERR_NOMEM;
}

const char *shim_topology_device_name(const shim_topology *t, uint32_t device, char *buf, size_t len)
{
    return vimana_topo_device_name(t->topo, t->npus, device, buf, len);
}
