/*
 * sim.h - the simulation context: configuration, the loaded network
 * backend, and the per-NPU system and workload state. Every core module
 * takes it explicitly; there is no global state.
 */
#ifndef VIMANA_SIM_SIM_H
#define VIMANA_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/comm_group_config.h"
#include "config/memory_config.h"
#include "config/system_config.h"
#include "util/slab.h"
#include "vimana/network_api.h"

#define SIM_MAX_DIMS 16

typedef struct sim_options {
    const char *workload;        /* ET prefix */
    const char *system;
    const char *network;
    const char *memory;
    const char *comm_group;      /* NULL when none */
    const char *backend;         /* name or path */
    const char *backend_options;
    uint32_t queues_per_dim;
    double injection_scale;
    double compute_scale;        /* multiplies compute durations (1 = as in the trace) */
    double comm_scale;           /* multiplies message and collective sizes (1 = as in the trace) */
    bool rendezvous;
    bool drop_missing_deps;      /* ignore dependencies on absent node ids */
    const char *timeline;        /* Chrome trace output, or NULL */
    const char *report;          /* JSON/CSV report output, or NULL */
    bool progress;
    bool run_stats;              /* print message and event counts and the run's speed */
    const char *logging_folder;  /* --logging-folder: log.log and err.log there, or NULL */
} sim_options;

struct npu_sys;
struct workload;
struct msg_table;
struct remote_mem;
struct npu_event_pool;
struct custom_cache;
struct shared_bus;
struct outputs;

typedef struct sim {
    const sim_options *opt;
    sys_config cfg;
    mem_config mem;
    comm_group_config groups;
    bool have_groups;

    const vimana_backend *be;
    void *be_ctx;
    uint32_t n_npus;
    uint32_t n_dims;
    uint32_t dim_size[SIM_MAX_DIMS];

    struct npu_sys *sys;         /* [n_npus] */
    struct workload *wl;         /* [n_npus] */
    struct msg_table *msgs;
    struct remote_mem *rmem;
    struct npu_event_pool *npu_events;
    struct custom_cache *custom;
    struct shared_bus *bus;      /* NULL unless model-shared-bus */
    struct outputs *outputs;     /* NULL unless --timeline or --report */
    uint64_t stream_epoch;

    slab streams, datasets, bundles, rdv;
    uint32_t finished_npus;
    vimana_tick now;             /* refreshed wherever the backend calls in */
    uint64_t events;             /* system-layer events run */
    uint64_t messages;           /* messages sent through the backend */
    uint64_t progress_at;        /* messages count of the next --progress check */
    double progress_t0, progress_last;   /* wall seconds: start, last line */

    bool failed;
    bool backend_said_error;     /* the backend logged an error line itself */
    /* Installed by the driver, NULL when none: called once, when the first
     * error is recorded, so that the driver can stop the backend's event
     * loop at once instead of draining it behind `failed` guards. */
    void (*on_fail)(void *arg);
    void *on_fail_arg;
    char error[1024];
    FILE *out;                   /* report lines */
    FILE *log;                   /* warnings and errors */
    FILE *err_log;               /* err.log of --logging-folder, or NULL */
} sim;

/* Records the first error of the run (later ones are dropped) so that the
 * run can wind down and main() can print one line and exit non-zero. */
void sim_fail(sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_warn(sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A backend call failed. When the backend already explained why on its error
 * log, the run fails without a second line; otherwise with this one. */
void sim_fail_backend(sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The current tick. Host code runs only inside the backend's callbacks
 * (sim_enter marks each one), so the tick is read from the backend once per
 * callback instead of at every use. */
static inline vimana_tick sim_now(const sim *s)
{
    return s->now;
}

/* Records the backend's clock running backwards (a contract violation). */
void sim_time_went_back(sim *s, vimana_tick t);

static inline void sim_enter(sim *s)
{
    vimana_tick t = s->be->now(s->be_ctx);
    if (t < s->now) {
        sim_time_went_back(s, t);
        return;
    }
    s->now = t;
}

/* x * scale rounded to the nearest integer (halves away from zero) into
 * *out; -1 when the result exceeds max. Scale 1 returns x unchanged. */
int sim_scale_u64(uint64_t x, double scale, uint64_t max, uint64_t *out);

/* A compute node's duration in ticks under --compute-scale: scaled and
 * rounded as sim_scale_u64, at least one tick when ticks is not 0. On
 * overflow records an error naming the node and returns 0. */
vimana_tick sim_compute_ticks(sim *s, vimana_tick ticks, const char *trace, uint64_t node_id);

/* Schedules a host function on the backend's event loop. The function
 * must start with sim_enter(s): it is an entry from the backend. */
void sim_schedule(sim *s, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data);

#endif
