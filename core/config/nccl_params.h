/*
 * nccl_params.h - the parameters of the NCCL-aware collective model
 * (docs/nccl.md): the system JSON's optional "nccl" object. Every value is
 * named, has a unit, a default and a range; the table in nccl_params.c is
 * the one place that lists them (the reader, the calibrator's fit and the
 * preset writer all walk it).
 */
#ifndef VIMANA_CONFIG_NCCL_PARAMS_H
#define VIMANA_CONFIG_NCCL_PARAMS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NCCL's protocols, in the order of the per-protocol arrays below. */
enum nccl_proto { NCCL_PROTO_LL, NCCL_PROTO_LL128, NCCL_PROTO_SIMPLE, NCCL_PROTOS };
/* NCCL's algorithms. */
enum nccl_algo { NCCL_ALGO_RING, NCCL_ALGO_TREE, NCCL_ALGO_NVLS, NCCL_ALGOS };

typedef struct nccl_params {
    double launch_ns;                 /* per call: kernel launch and setup */
    double hop_ns[NCCL_PROTOS];       /* per step of ring and tree: protocol handshake (flag poll, fence) */
    double nvls_hop_ns;               /* per step of NVLS: multicast object and switch reduction */
    double nic_hop_ns;                /* extra per ring/tree step on a NIC dimension (network proxy, RDMA) */
    double hop_overlap;               /* share of a step's wait run while its message is in flight */
    double payload[NCCL_PROTOS];      /* data bytes / bytes on the wire: 0.5, 120/128, 1 */
    double ll_rate_share;             /* LL's throughput / Simple's on the same channels (flag polling) */
    double ll128_rate_share;          /* the same for LL128 */
    double ll_max_bytes;              /* call bytes up to this: LL */
    double ll128_max_bytes;           /* ... up to this: LL128, above: Simple */
    double threshold_ranks;           /* the two above hold over this many ranks (x n / this over n); 0: as is */
    double nvls_min_bytes;            /* all-reduce from this size on an NVLink dimension: NVLS */
    double tree_max_bytes;            /* all-reduce below this size (not NVLS): tree */
    double channels;                  /* channels of a call (each 1/channels of the link rate) */
    double channel_min_bytes;         /* a channel carries at least this much of a step */
    double nvls_channels;             /* NVLS's channels below nvls_wide_min_bytes (0: `channels`) */
    double nvls_wide_min_bytes;       /* NVLS calls from this size run all `channels` */
    double nvlink_efficiency;         /* achieved / nominal link rate, NVLink & NVSwitch dims */
    double nvls_efficiency;           /* the same for NVLS steps (switch-side reduction) */
    double nic_efficiency;            /* the same for the NIC (the other dims) */
    double tree_efficiency;           /* tree steps' rate / ring steps' on the same links */
    double nvlink_dims;               /* the first this many dimensions are NVLink / NVSwitch */
    double nvls;                      /* 1: the NVLink dimensions have NVLink SHARP switches */
    double tuner;                     /* 1: algorithm and protocol by the model's estimate (NCCL's tuner) */
} nccl_params;

/* One parameter of the table. */
typedef struct nccl_param_info {
    const char *key;     /* in the "nccl" object: "launch-overhead-ns" */
    const char *unit;    /* "ns", "bytes", "fraction", "count", "flag" */
    const char *meaning;
    double min, max;
    bool integer;
    double def;
    size_t offset;       /* into nccl_params */
} nccl_param_info;

/* The table: *n gets its length. */
const nccl_param_info *nccl_param_table(size_t *n);
/* The parameter's value in p (by table entry). */
double *nccl_param_ref(nccl_params *p, const nccl_param_info *info);
double nccl_param_get(const nccl_params *p, const nccl_param_info *info);
/* The table entry of `key`, or NULL. */
const nccl_param_info *nccl_param_find(const char *key);

/* Collectives the "nccl" object tunes one by one, in the order of enum
 * coll_kind (system_config.h checks it): NCCL picks algorithm, protocol
 * and channels per collective, and its kernels differ (a reduction or a
 * copy), so a preset may hold one parameter set per collective. */
#define NCCL_COLLS 4
/* "all-reduce", "reduce-scatter", "all-gather", "all-to-all": the key of
 * collective k's object inside "nccl". */
const char *nccl_coll_key(int k);

/* Every parameter at its default. */
void nccl_params_default(nccl_params *p);
/* Reads the "nccl" object `v` of system JSON `path` over per[] (one set
 * per collective): its parameter keys set every collective's value, then
 * an object under a collective's key ("all-gather": {...}) sets that
 * collective's own. Keys left out keep their value. Returns 0, or -1 with
 * one line "PATH: key 'nccl.KEY': ..." (or 'nccl.COLLECTIVE.KEY') in err. */
int nccl_params_parse(const char *path, json_object *v, nccl_params per[NCCL_COLLS], char *err, size_t err_len);
/* Checks relations between values (ll-max-bytes <= ll128-max-bytes);
 * `prefix` names the object in the message ("nccl" or "nccl.all-gather").
 * Returns 0, or -1 with one line naming path and key in err. */
int nccl_params_check(const char *path, const char *prefix, const nccl_params *p, char *err, size_t err_len);

#endif
