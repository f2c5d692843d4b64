/*
 * fault_links.h - --network-faults handed to the backend: each fault of
 * the file (host/network_faults.h) resolved to the backend's directed links
 * (its link records: device ids, or names as device_name() gives them) and
 * passed to link_fault() (network_api.h, ABI 1.4) in the order of its tick.
 */
#ifndef VIMANA_HOST_FAULT_LINKS_H
#define VIMANA_HOST_FAULT_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "host/device_name.h"
#include "system/context.h"

#define FAULT_NO_LINK UINT32_MAX

/* One fault as applied: the link's two directions (FAULT_NO_LINK for a
 * direction the network does not have), its ends, tick and factor. */
typedef struct fault_link {
    uint32_t link[2];             /* end[0] -> end[1], end[1] -> end[0] */
    uint32_t device[2];
    char name[2][DEVICE_NAME_SIZE];
    vimana_tick at;
    double factor;                /* 0: down */
} fault_link;

/* Reads s->opt->network_faults (when set) and applies it: refuses a
 * backend without link_fault() or link records, a link the network does not
 * have, and whatever the backend refuses (a partition, a fault it cannot
 * model), each in one line naming the file and the fault's line. Fills
 * s->faults and s->n_faults. Returns 0, or -1 after sim_fail. */
int fault_links_apply(sim *s);
void fault_links_free(sim *s);

#endif
