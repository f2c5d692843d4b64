/*
 * upstream_config.h - upstream astra-network-ns3's `config.txt`, read as
 * ns3_shim's network configuration.
 *
 * Users of ASTRA-sim's ns-3 backend give `--network-configuration=
 * config.txt`: "KEY value..." lines whose TOPOLOGY_FILE names the
 * topology .txt. ns3_shim accepts the same file unchanged: every key
 * upstream reads is either mapped onto the shim's backend options, accepted
 * with no effect (output files, traces: named in one note), or refused by
 * name when it asks for something the shim does not model. C, no ns-3:
 * tests/unit/test_ns3_upstream.c runs it without ns-3.
 */
#ifndef NS3_UPSTREAM_CONFIG_H
#define NS3_UPSTREAM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/topology_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS3_UPSTREAM_MAX_MAP 32
#define NS3_UPSTREAM_PATH_MAX 4096

/* One KMIN/KMAX/PMAX_MAP entry: a link rate and its value. */
typedef struct ns3_upstream_entry {
    uint64_t rate_bps;
    double value;
} ns3_upstream_entry;

typedef struct ns3_upstream_map {
    ns3_upstream_entry e[NS3_UPSTREAM_MAX_MAP];
    uint32_t n;
    uint32_t line; /* 0: not given */
} ns3_upstream_map;

/* What a config.txt says. A number below 0 (or line 0) is "not given". */
typedef struct ns3_upstream {
    char path[NS3_UPSTREAM_PATH_MAX];     /* the config.txt itself */
    char topology[NS3_UPSTREAM_PATH_MAX]; /* TOPOLOGY_FILE, resolved */
    long packet;                          /* PACKET_PAYLOAD_SIZE */
    long cc_mode;                         /* CC_MODE */
    long enable_qcn;                      /* ENABLE_QCN */
    double buffer_mb;                     /* BUFFER_SIZE, MiB per switch */
    double rate_ai_mbps, rate_hai_mbps, min_rate_mbps; /* RATE_AI, RATE_HAI, MIN_RATE */
    double ewma_gain, rp_timer_us, u_target;           /* EWMA_GAIN, RP_TIMER, U_TARGET */
    long mi_thresh;                                     /* MI_THRESH */
    ns3_upstream_map kmin, kmax, pmax;   /* KB (1000 bytes), KB, probability */
    char no_effect[512];                 /* "FLOW_FILE, TRACE_FILE, ...": keys read, nothing to do */
} ns3_upstream;

/* Whether the file at path looks like a config.txt: its first word (after
 * blank and '#' lines) is one of upstream's keys. A YAML or a topology
 * .txt is not. */
bool ns3_upstream_is_config(const char *path);

/* Reads and checks the file. 0, or -1 with one line in err
 * ("PATH:LINE: KEY: what is wrong"). TOPOLOGY_FILE is resolved against
 * the config's folder first (upstream's sample names
 * ../../scratch/topology/... from scratch/config/), then the working
 * directory (upstream's own rule). */
int ns3_upstream_read(const char *path, ns3_upstream *u, char *err, size_t err_len);

/* The backend options the config means on topology t ("packet=1000,
 * cc=dcqcn,..."), written to opts. 0, or -1 with one line in err (a map
 * without the rate of a link of t, thresholds that differ between the
 * rates of t's switch ports, ...). */
int ns3_upstream_options(const ns3_upstream *u, vimana_topo *t, char *opts, size_t opts_len, char *err,
                         size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
