/*
 * network_host.h - the host side of the backend boundary (network_api.h):
 * loads the backend and hands it the host callbacks (log, delivered,
 * failed); reads the topology it built and checks it against what the
 * backend declares (capabilities, dimension bandwidths); runs its event
 * loop, asking a 1.1 backend to stop at the run's first error; releases it.
 */
#ifndef VIMANA_HOST_NETWORK_HOST_H
#define VIMANA_HOST_NETWORK_HOST_H

#include <stdbool.h>

#include "host/backend_loader.h"
#include "system/context.h"

typedef struct network_host {
    sim *s;
    loaded_backend lb;
    vimana_host callbacks;   /* given to init(); the ABI keeps it valid until fini() */
    vimana_stop_fn stop;     /* the backend's stop(); NULL for a 1.0 backend or one without */
    bool running;            /* inside the backend's run() */
} network_host;

/* Loads s->opt->backend, lets it read s->opt->network and fills s->be,
 * s->be_ctx, s->n_dims, s->dim_size and s->n_npus. Refuses (one line, via
 * sim_fail) a topology the host cannot use: 0 or more than SIM_MAX_DIMS
 * dimensions, several dimensions on a backend without
 * VIMANA_CAP_MULTI_DIM, no NPU or too many, a dimension bandwidth that is
 * not finite and greater than 0. Returns 0, or -1 after sim_fail. Call
 * network_host_fini in both cases. */
int network_host_init(network_host *nh, sim *s);

/* The backend's run(). When the run fails inside it (sim_fail, or the
 * backend's host->failed) and the backend has stop(), the host calls stop()
 * so that run() returns after the event in progress; with a 1.0 backend the
 * queue drains behind the host's `failed` guards. A non-OK status of a run
 * that had not failed fails it naming the backend. */
void network_host_run(network_host *nh);

/* The backend's num_links() (it has VIMANA_CAP_LINK_STATS), checked
 * against the most links a network of s's dimensions can have
 * (backend_validate.h): 0 with *n set, or -1 after sim_fail naming the
 * backend, before anything loops over a count it made up. */
int network_host_num_links(sim *s, uint32_t *n);

/* Releases the backend (fini) and unloads its module. */
void network_host_fini(network_host *nh);

#endif
