/*
 * context.h - the simulation context of the system layer: configuration,
 * the loaded network backend, the system layer's per-NPU state and pools,
 * the clock and the first error of the run. Every core module takes it
 * explicitly; there is no global state.
 *
 * The context names no type of the layers above it. The workload keeps its
 * own state (workload/workload.h: wl_run) and hears of finished requests
 * through the completion each request carries (sim_done); the driver
 * (core/sim) watches the run through the hooks it installs here.
 */
#ifndef VIMANA_SYSTEM_CONTEXT_H
#define VIMANA_SYSTEM_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/comm_group_config.h"
#include "config/memory_config.h"
#include "config/run_options.h"
#include "config/system_config.h"
#include "system/algorithms/registry.h"
#include "util/slab.h"
#include "vimana/network_api.h"

#define SIM_MAX_DIMS 16

struct npu_sys;
struct npu_relabel;
struct msg_table;
struct remote_mem;
struct npu_event_pool;
struct custom_cache;
struct shared_bus;
struct stream;
struct sim;

/* Every callback of the system layer has this shape: NPU events, message
 * arrivals and the completion of a request. */
typedef void (*sim_event_fn)(struct sim *s, void *obj, uint64_t data);

/* A completion: the layer above hands one down with each request (a
 * collective, a message, a remote-memory access) and the system layer calls
 * fn(s, obj, data) once, when the request is done. fn NULL = nothing to do. */
typedef struct sim_done {
    sim_event_fn fn;
    void *obj;
    uint64_t data;
} sim_done;

/* Runs a completion (if any). */
static inline void sim_done_run(struct sim *s, sim_done d)
{
    if (d.fn)
        d.fn(s, d.obj, d.data);
}

/* What the driver watches while the system layer runs (the timeline and
 * --progress). A hook left NULL costs one test where it would be called. */
typedef struct sim_hooks {
    void (*phase_started)(void *ctx, struct stream *st);  /* a chunk starts a phase */
    void (*phase_done)(void *ctx, struct stream *st);     /* ... and ends it */
    void *phase_ctx;
    /* Runs when s->messages reaches messages_at; the hook moves messages_at
     * on. The message path pays one comparison; 0 (the counter is bumped
     * before it is compared) or UINT64_MAX: never. */
    void (*messages_reached)(void *ctx);
    void *messages_ctx;
    uint64_t messages_at;
    /* Called once, when the first error is recorded (NULL: none), so that
     * the driver can stop the backend's event loop at once instead of
     * draining it behind `failed` guards. */
    void (*failed)(void *ctx);
    void *failed_ctx;
} sim_hooks;

typedef struct sim {
    const sim_options *opt;
    algo_registry algorithms;    /* the built-ins, + any added before cfg is read */
    sys_config cfg;
    mem_config mem;
    comm_group_config groups;

    const vimana_backend *be;
    void *be_ctx;
    uint32_t n_npus;
    uint32_t n_dims;
    uint32_t dim_size[SIM_MAX_DIMS];
    double dim_bytes_per_ns[SIM_MAX_DIMS];   /* the backend's dim_bandwidth as bytes/ns; 0: it reports none */

    struct npu_sys *sys;         /* [n_npus] */
    struct queue_state *queues;  /* [n_npus * queues_per_npu]: system.h npu_queues */
    uint32_t *queue_ctr;         /* [n_npus][3][queue_dims]: scheduler.c's queue counters */
    uint32_t queues_per_npu, queue_dims;
    struct msg_table *msgs;
    struct remote_mem *rmem;
    struct npu_event_pool *npu_events;
    struct custom_cache *custom;
    struct shared_bus *bus;      /* NULL unless model-shared-bus */
    uint64_t stream_epoch;
    /* The reduced simulation (docs/symmetry.md): only NPU 0 runs, and each
     * of its sends goes to the backend as its mirror image: the message
     * that, by symmetry, another NPU sends NPU 0 at that tick (fe_send).
     * Set by the driver before time starts. mirror_xor: bit d set when
     * dimension d runs halving-doubling, whose mirror image is the XOR of
     * coordinates, not the negation (ring, direct). */
    bool reduced;
    uint32_t mirror_xor;
    /* The reduced simulation over roles (system/relabel.h): NULL, or the
     * classes of NPUs; one representative per class runs, and a send to
     * dst arrives at dst's representative as the relabelling that takes
     * dst there makes it. */
    const struct npu_relabel *roles;
    /* --npu-compute-scale: [n_npus] multipliers of each NPU's compute
     * durations (on top of --compute-scale), or NULL: all 1. Freed with
     * the configurations. */
    double *npu_scale;
    /* --network-faults, as handed to the backend (host/fault_links.h), for
     * --report; NULL and 0 without. */
    struct fault_link *faults;
    size_t n_faults;

    slab streams, datasets, bundles, rdv;
    sim_hooks hooks;
    vimana_tick now;             /* refreshed wherever the backend calls in */
    uint64_t events;             /* system-layer events run */
    uint64_t messages;           /* messages sent through the backend */

    bool failed;
    bool backend_said_error;     /* the backend logged an error line itself */
    char error[1024];
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

/* A compute node's duration in ticks on NPU `npu` under --compute-scale
 * and --npu-compute-scale: times their product (a double), rounded as
 * sim_scale_u64, at least one tick when ticks is not 0. On overflow
 * records an error naming the node and returns 0. */
vimana_tick sim_compute_ticks(sim *s, uint32_t npu, vimana_tick ticks, const char *trace, uint64_t node_id);

/* Schedules a host function on the backend's event loop. The function
 * must start with sim_enter(s): it is an entry from the backend. */
void sim_schedule(sim *s, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data);

/* The phase hooks, for the system layer's call sites. */
static inline void sim_phase_started(sim *s, struct stream *st)
{
    if (s->hooks.phase_started)
        s->hooks.phase_started(s->hooks.phase_ctx, st);
}

static inline void sim_phase_done(sim *s, struct stream *st)
{
    if (s->hooks.phase_done)
        s->hooks.phase_done(s->hooks.phase_ctx, st);
}

#endif
