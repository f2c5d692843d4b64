/*
 * Link faults as the backends keep and check them (vimana/link_faults.h).
 */
#include "vimana/link_faults.h"

#include <stdio.h>
#include <stdlib.h>

int vimana_bt_fault_check(const char *name, uint32_t link, uint32_t n_links, double factor, bool has_graph,
                          char *err, size_t err_len)
{
    if (link >= n_links || !(factor == 0 || (factor > 0 && factor <= VIMANA_FAULT_MAX_FACTOR))) {
        snprintf(err, err_len, "%s: link %u of %u, bandwidth factor %g: out of range", name, link, n_links,
                 factor);
        return VIMANA_ERR_ARGUMENT;
    }
    if (factor == 0 && !has_graph) {
        snprintf(err, err_len, "%s routes a network of dimensions in dimension order, with no other path for "
                 "a link that is down: give the network as a topology file, or a bandwidth-factor", name);
        return VIMANA_ERR_CONFIG;
    }
    return VIMANA_OK;
}

/* Every link at factor 1 (as built) until its first fault. */
static int registered_alloc(vimana_link_faults *f, uint32_t n_links)
{
    if (f->registered)
        return 0;
    f->registered = malloc((n_links ? n_links : 1) * sizeof *f->registered);
    if (!f->registered)
        return -1;
    for (uint32_t l = 0; l < n_links; l++)
        f->registered[l] = 1;
    return 0;
}

int vimana_bt_fault_add(vimana_link_faults *f, vimana_topo *topo, uint32_t n_links, uint32_t link,
                        vimana_tick at, double factor, char *err, size_t err_len)
{
    vimana_link_fault *grown = realloc(f->items, (f->n + 1) * sizeof *f->items);
    if (grown)
        f->items = grown;
    if (!grown || registered_alloc(f, n_links) != 0) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    f->registered[link] = factor;
    if (factor == 0) {
        int rc = vimana_topo_check_registered(topo, f->registered, at, err, err_len);
        if (rc != 0)
            return rc > 0 ? VIMANA_ERR_CONFIG : VIMANA_ERR_NOMEM;
    }
    f->items[f->n++] = (vimana_link_fault){link, factor};
    return VIMANA_OK;
}

int vimana_bt_fault_schedule(vimana_bt *bt, vimana_tick at, vimana_event_fn fn, void *ctx, uint32_t k, char *err,
                             size_t err_len)
{
    vimana_tick now = vimana_evq_now(bt->evq);
    if (vimana_evq_schedule_at(bt->evq, at > now ? at : now, fn, ctx, k) != VIMANA_OK) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    return VIMANA_OK;
}

int vimana_bt_fault_route(vimana_bt *bt, vimana_topo *topo, const char *name, const vimana_link_fault *fault)
{
    if (!topo)
        return 0;
    if (vimana_topo_set_link_down(topo, fault->link, fault->factor == 0) != 0) {
        vimana_bt_fail(bt, "%s: out of memory taking a link down", name);
        return -1;
    }
    return fault->factor == 0;
}

void vimana_bt_faults_free(vimana_link_faults *f)
{
    free(f->items);
    free(f->registered);
    f->items = NULL;
    f->registered = NULL;
    f->n = 0;
}
