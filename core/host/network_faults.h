/*
 * network_faults.h - vimana --network-faults=FILE.yaml (docs/simulator.md,
 * "Network faults"): a YAML list of link faults,
 *
 *   - {link: [npu0, switch8], at: 5000, bandwidth-factor: 0.1}
 *   - {link: [switch64, switch72], at: 20000, down: true}
 *
 * A link is named by its two ends, each a device id of --report's link
 * records (NPUs first, then switches: an integer) or a device's name there
 * ("npu3", "switch64"); the fault applies to both directions of the link.
 * `at` is the tick it starts (default 0); `bandwidth-factor` a number in
 * (0, 10^6] multiplying the link's bandwidth, or `down: true` takes the
 * link out of the routes. This module reads the file only; network_host.c
 * resolves the names against the backend's links.
 */
#ifndef VIMANA_HOST_NETWORK_FAULTS_H
#define VIMANA_HOST_NETWORK_FAULTS_H

#include <stddef.h>
#include <stdint.h>

/* The most faults one file may list. */
#define NET_FAULTS_MAX 65536
/* The longest end name (a device name of the ABI, VIMANA_DEVICE_NAME_MAX). */
#define NET_FAULT_END_MAX 63

typedef struct net_fault {
    char end[2][NET_FAULT_END_MAX + 1]; /* as written: a device id or a device name */
    uint64_t at;                         /* tick */
    double factor;                       /* bandwidth factor; 0: down */
    size_t line;                         /* of the list item, for messages */
} net_fault;

typedef struct net_faults {
    net_fault *items;
    size_t n;
} net_faults;

/* Reads `path`. Returns 0, or -1 with one line in err naming the file, the
 * line and what is wrong ("F.yaml:3: bandwidth-factor: expected a number in
 * (0, 1000000], got 0"). Free with net_faults_free either way. */
int net_faults_load(const char *path, net_faults *out, char *err, size_t err_len);
void net_faults_free(net_faults *f);

#endif
