/*
 * check_scenarios.h - the checks of `vimana backend-check`: the descriptor
 * (read only) and, per network configuration, scenarios run on a mock host
 * (cmd/backend_check/mock_host.h), each on a fresh context (init ... fini) so that a
 * fault in one cannot hide or fake a fault in the next:
 *   network   init, num_dims/dim_size against the configuration, dim_bandwidth
 *   schedule  a script of events (same tick, zero delay, scheduled while
 *             their tick runs, far in the future)
 *   delivery  invalid sends, then messages of many sizes between many NPU
 *             pairs, sent before run(), from events and from deliveries;
 *             then the link statistics (ABI 1.2: queueing counters and
 *             device names)
 *   stop      (ABI 1.1) stop() from inside an event ends run()
 * docs/backend-check.md describes every check.
 */
#ifndef VIMANA_CMD_BACKEND_CHECK_CHECK_SCENARIOS_H
#define VIMANA_CMD_BACKEND_CHECK_CHECK_SCENARIOS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/backend_check/check_report.h"
#include "vimana/network_api.h"

/* A network configuration and, for the built-in ones, what the backend
 * must report for it. */
typedef struct net_config {
    const char *scope;      /* in FAIL lines; NULL for the first one */
    const char *about;      /* for init failures */
    char about_buf[600];    /* `about` of the user's file */
    const char *yaml;       /* built-in text, NULL for the user's file */
    uint32_t n_dims;        /* 0 = not known (the user's file) */
    uint32_t dim_size[2];
    double bandwidth[2];
    char path[1024];
} net_config;

/* The backend under check and where its verdicts go. */
typedef struct check_target {
    check_report *rep;
    const vimana_backend *be;
    const char *options;          /* --backend-options, or NULL */
    bool full;                    /* --full: delivery's 1 GiB messages whatever the backend's speed */
    /* Called when run() storms and the backend has no stop(): gives the
     * verdict and ends the process (run() would never return). */
    void (*abandon)(void *user);
    void *user;
} check_target;

void check_descriptor(check_target *t);
/* Every scenario on one configuration; stop() is checked when `with_stop`. */
void check_network_config(check_target *t, const net_config *cfg, bool with_stop);

#endif
