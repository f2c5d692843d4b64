/*
 * vimana/link_faults.h - what a backend keeps of the faults the host
 * registers with link_fault (network_api.h, ABI 1.4), and the checks every
 * backend makes of them (backend toolkit, libvimana_backend).
 */
#ifndef VIMANA_LINK_FAULTS_H
#define VIMANA_LINK_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/backend_toolkit.h"
#include "vimana/topology_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vimana_link_fault {
    uint32_t link;
    double factor; /* 0: down */
} vimana_link_fault;

/* The faults in the order registered, and per link the factor of its latest
 * one (for the partition check as of that fault's tick). All zero (NULL)
 * until the first fault, so a run without faults allocates nothing. */
typedef struct vimana_link_faults {
    vimana_link_fault *items;
    uint32_t n;
    double *registered;
} vimana_link_faults;

/* link_fault's arguments as every backend checks them: VIMANA_OK, or
 * VIMANA_ERR_ARGUMENT with "NAME: link L of N, bandwidth factor F: out of
 * range", or, for a link down in a network without a graph (`has_graph`
 * false: routes in dimension order, none around a link), VIMANA_ERR_CONFIG
 * with "NAME routes a network of dimensions in dimension order, ...". */
int vimana_bt_fault_check(const char *name, uint32_t link, uint32_t n_links, double factor, bool has_graph,
                          char *err, size_t err_len);

/* Registers the fault on link `link` of `n_links` and, for a link down,
 * checks that the links down as of `at` cut no NPU off in `topo`. Returns
 * VIMANA_OK with the fault appended (index f->n - 1), VIMANA_ERR_NOMEM
 * ("out of memory") or VIMANA_ERR_CONFIG (the partition, in err). */
int vimana_bt_fault_add(vimana_link_faults *f, vimana_topo *topo, uint32_t n_links, uint32_t link,
                        vimana_tick at, double factor, char *err, size_t err_len);

/* Schedules the event of fault k, fn(ctx, k), on the toolkit's queue at
 * the fault's tick `at`, or at the current tick when `at` has passed (it
 * then runs behind what is queued for now). Returns VIMANA_OK, or
 * VIMANA_ERR_NOMEM with "out of memory" in err. */
int vimana_bt_fault_schedule(vimana_bt *bt, vimana_tick at, vimana_event_fn fn, void *ctx, uint32_t k, char *err,
                             size_t err_len);

/* A fault reaching its tick, on the graph (none: nothing to do): takes the
 * link out of routing or back in. Returns 1 when the link went down (the
 * backend reroutes what waits for it), 0 otherwise, -1 after
 * vimana_bt_fail ("NAME: out of memory taking a link down"). */
int vimana_bt_fault_route(vimana_bt *bt, vimana_topo *topo, const char *name, const vimana_link_fault *fault);

void vimana_bt_faults_free(vimana_link_faults *f);

#ifdef __cplusplus
}
#endif

#endif
