/*
 * system_config.h - the system JSON (the reference's behaviour, docs/simulator.md):
 * scheduling, chunking, collective algorithms per dimension, memory and
 * compute rates. Every NPU uses the same parsed configuration.
 */
#ifndef VIMANA_CONFIG_SYSTEM_CONFIG_H
#define VIMANA_CONFIG_SYSTEM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/custom_map.h"
#include "config/nccl_params.h"

/* Limits of the system JSON's values (documented in docs/simulator.md).
 * Each collective is cut into preferred-dataset-splits chunks that all exist
 * at once, and the scheduling work grows with the square of their number
 * (4096 chunks of one all-reduce on 64 NPUs: about 5 s; 65536 on 2 NPUs:
 * minutes), so the count is bounded to keep a typo from running for ever. */
#define SYS_MAX_DATASET_SPLITS 4096
/* local-mem-bw (GB/s) and peak-perf (TFLOP/s): 0 (not given) or in
 * [SYS_MIN_RATE, SYS_MAX_RATE]; outside, the simulated times are either
 * beyond 64-bit ticks or rounded to nothing. */
#define SYS_MIN_RATE 1e-6
#define SYS_MAX_RATE 1e9
/* L, o, g (ns) and G (ns per byte) of model-shared-bus: 0 to this. */
#define SYS_MAX_LOGGP 1e15

enum sched_policy { SCHED_LIFO, SCHED_FIFO, SCHED_EXPLICIT };
enum coll_optimization { COLL_OPT_BASELINE, COLL_OPT_LOCAL_BW_AWARE };

/* The four collectives the system layer implements, as array indices. */
enum coll_kind { COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL, COLL_KINDS };

/* One entry of an "<coll>-implementation" list. The algorithms themselves
 * live in the system layer's registry (core/system/algorithms), above this
 * reader: `id` indexes that registry. */
typedef struct algo_spec {
    uint16_t id;       /* registry index (ALGO_RING, ... for the built-ins) */
    bool one;          /* oneRing / oneDirect / oneHalvingDoubling: one ring over all NPUs */
    uint32_t param;    /* numeric suffix of the name (directN: the window N), 0 = none */
} algo_spec;

/* How sys_config_load resolves the names of an implementation list: the
 * system layer passes its registry down (algo_registry_names). */
typedef struct sys_algo_names {
    const void *ctx;
    /* Fills *out and returns 0 when `name` is an algorithm, else -1. */
    int (*resolve)(const void *ctx, const char *name, algo_spec *out);
    /* Writes the accepted spellings, "ring, oneRing, ... or doubleBinaryTree". */
    void (*expected)(const void *ctx, char *buf, size_t len);
} sys_algo_names;

typedef struct sys_config {
    char *path;
    enum sched_policy scheduling_policy;
    enum coll_optimization collective_optimization;
    /* Both are required only where the simulation reads them: the
     * reference leaves them uninitialised when absent. */
    bool has_scheduling_policy;
    bool has_collective_optimization;
    uint64_t endpoint_delay;          /* already scaled by --injection-scale when given */
    uint32_t active_chunks_per_dimension;
    uint64_t preferred_dataset_splits;
    double local_mem_bw_Bps;          /* bytes per second (GB/s x 10^9) */
    double peak_perf_flops;           /* FLOP/s (TFLOP/s x 10^12) */
    bool roofline_enabled;
    bool model_shared_bus;
    bool trace_enabled;
    bool replay_only;
    bool track_local_mem;
    double L, o, g, G;
    uint64_t local_reduction_delay;
    char *local_mem_trace_filename;
    algo_spec *impl[COLL_KINDS];      /* native algorithm per dimension */
    uint32_t n_impl[COLL_KINDS];
    char *custom_impl[COLL_KINDS];    /* custom ET prefix, or NULL */
    char *per_node_custom_path;
    custom_by_node *per_node_custom;
    size_t n_per_node_custom;
    nccl_params nccl[COLL_KINDS];     /* the "nccl" object: the nccl algorithm's parameters, per collective */
} sys_config;

/* Reads the system JSON. injection_scale multiplies endpoint-delay when the
 * key is present; algorithm names are resolved through `algos`. Returns 0,
 * or -1 with a one-line message naming the file and the key. Warnings
 * (unknown keys) go to `warn` when not NULL. */
int sys_config_load(const char *path, double injection_scale, const sys_algo_names *algos, sys_config *out,
                    char *err, size_t err_len, void (*warn)(void *ctx, const char *msg), void *warn_ctx);
void sys_config_free(sys_config *cfg);

/* "all-reduce", "reduce-scatter", "all-gather", "all-to-all". */
const char *coll_kind_name(enum coll_kind k);
/* Custom ET prefix for a node, or NULL (per-node map first, then the
 * collective's global custom implementation). */
const char *sys_config_custom_for(const sys_config *cfg, enum coll_kind kind, uint64_t node_id);

#endif
