/*
 * workload.h - the workload layer: one Chakra ET per NPU, walked in
 * dependency order with per-NPU hardware slots (the reference's behaviour, docs/simulator.md), and the
 * per-NPU finish report.
 *
 * The layer sits on the system layer: it hands every collective, message
 * and remote-memory access down with a completion (sim_done) that brings
 * the node back here. Its state is a wl_run, which the driver creates and
 * watches through wl_hooks; the layer never calls the driver.
 */
#ifndef VIMANA_WORKLOAD_WORKLOAD_H
#define VIMANA_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vimana/et_roles.h"
#include "system/context.h"
#include "trace/ready_set.h"
#include "workload/tensor_mem.h"

/* Hardware slots: at most one node in flight per slot. */
enum wl_slot { SLOT_CPU, SLOT_GPU, SLOT_COMM, SLOT_NONE, SLOT_COUNT };

/* Statistics kinds, in report order. */
enum wl_kind { KIND_CPU, KIND_GPU, KIND_COMM, KIND_REMOTE_MEM, KIND_REPLAY, KIND_INVALID, KIND_COUNT, KIND_NONE = 255 };

enum wl_state { WL_WAITING, WL_FREE, WL_RUNNING, WL_DONE };

#define WL_NO_GROUP INT64_MIN

/* One node, reduced to what the simulation needs. Nodes are sorted by id,
 * so index order is id order. Nothing here changes while the simulation
 * runs (the per-NPU progress is in wl_node_run), so NPUs that run the same
 * trace share one copy. */
/* (sim/symmetry.c, nodes_alike, compares every field but the id and the
 * offsets: a field added here belongs there too.) */
typedef struct wl_node {
    uint64_t id;
    uint32_t name;              /* offset in wl_trace.names */
    uint8_t type;               /* enum vet_node_type */
    uint8_t slot;               /* enum wl_slot */
    uint8_t kind;               /* enum wl_kind */
    bool is_cpu;
    uint8_t n_involved;         /* 0 = attribute absent */
    bool recompute;             /* is_recomputation (read for --breakdown): FLOPs not the model's */
    uint32_t n_parents;
    uint32_t child_start, n_children;
    uint64_t duration_us;
    int64_t comm_type;
    uint64_t comm_size;
    int32_t comm_src, comm_dst, comm_tag, comm_priority;
    uint64_t involved;          /* bit d = involved_dim[d] (first 64 entries) */
    int64_t pg;                 /* communicator group, WL_NO_GROUP = all NPUs */
    uint64_t num_ops, tensor_size;
    uint32_t meta;              /* METADATA: offset of inputs.values in names, else 0 */
    uint32_t io;                /* offset of its tensors in wl_trace.tensors (--report only), else 0 */
} wl_node;

/* One node's progress on one NPU. */
typedef struct wl_node_run {
    vimana_tick start, end;
    uint32_t parents_left;
    uint8_t state;              /* enum wl_state */
} wl_node_run;

/* An inference marker (docs/inference.md, "Markers"): the node that
 * samples output token `token` (its int attribute output_token; 0 = the
 * first token, from the prefill) of `batch` sequences (its attribute
 * batch, 0 when absent). Read at load so that the report after the run
 * reads each marker's end tick from the NPU's progress (wl_node_run). */
typedef struct wl_marker {
    uint32_t node;              /* index in wl_trace.nodes */
    uint32_t token;
    uint64_t batch;
} wl_marker;

#define WL_MARKER_ATTR "output_token"
#define WL_MARKER_BATCH_ATTR "batch"

/* One parsed trace file, read-only once loaded. Every NPU whose trace has
 * the same bytes (the single-file form PREFIX.et, or byte-identical
 * PREFIX.i.et) points to one wl_trace; a trace with SEND or RECV nodes is
 * parsed for each NPU, since its checks depend on the NPU running it. */
typedef struct wl_trace {
    char *path;                 /* the file it was parsed from */
    wl_node *nodes;
    uint32_t n_nodes;
    uint32_t *children;
    char *names;                /* NUL-separated node names and METADATA payloads */
    size_t names_len;
    bool has_p2p;               /* SEND or RECV nodes: never shared */
    uint64_t empty_records;     /* per-file warnings, repeated for each file sharing it */
    uint64_t dropped_deps;
    uint32_t n_invalid, first_invalid;  /* INVALID_NODE nodes (count, first index) */
    wl_tensors tensors;         /* what the nodes write and read (read for --report; empty otherwise) */
    wl_marker *markers;         /* inference markers in node order (sim/inference_report.h) */
    uint32_t n_markers;
} wl_trace;

struct wl_run;

typedef struct workload {
    struct wl_run *run;         /* back-pointer: a workload is its nodes' completion argument */
    uint32_t npu;
    const char *path;           /* this NPU's trace file (messages name it) */
    bool owns_path;
    const wl_trace *trace;      /* shared, read-only */
    const wl_node *nodes;       /* = trace->nodes, ... (one load less on the event path) */
    uint32_t n_nodes;
    const uint32_t *children;
    const char *names;
    wl_node_run *live;          /* [n_nodes]: this NPU's progress through the trace */
    ready_set free_nodes[SLOT_COUNT];   /* free nodes per slot, lowest id first */
    uint32_t *deferred;         /* freed while the issue loop runs */
    uint32_t n_deferred, cap_deferred;
    bool issuing;
    bool slot_busy[SLOT_COUNT];
    uint32_t ongoing;
    uint64_t tics_gpu_ops, tics_cpu_ops;
    bool finished;
    vimana_tick finish_tick;
} workload;

struct npu_stats;

/* What the driver watches (the timeline and the report); NULL = nothing. */
typedef struct wl_hooks {
    void (*node_done)(void *ctx, const workload *w, uint32_t node);  /* after the node's end is stamped */
    void (*npu_finished)(void *ctx, const workload *w, const struct npu_stats *st);  /* after its report */
    void *ctx;
} wl_hooks;

/* The workload of one run: every NPU's trace and progress. */
typedef struct wl_run {
    sim *s;
    workload *wl;               /* [s->n_npus] */
    wl_trace **traces;          /* the distinct parsed traces */
    uint32_t n_traces;
    bool single_file;           /* PREFIX.et for every NPU */
    /* The single file's trace when every NPU shares it: NPUs 1.. are
     * attached to it when they first run (workload_npu); until then their
     * records are zero. NULL: every NPU is attached at load. */
    const wl_trace *shared;
    /* A compact workload (PREFIX.roles.json, vimana/et_roles.h): NPU x runs
     * traces[roles.role_of[x]], written for another rank and relabelled
     * (workload_peer, workload_group); NPUs are attached when they first
     * run, as with `shared`. roles.n_roles is 0 otherwise. */
    vet_roles roles;
    struct wl_families *families;
    uint32_t finished_npus;
    uint64_t nodes_done;        /* nodes completed so far, every NPU that runs (--progress) */
    FILE *out;                  /* the finish report (stdout) */
    vimana_tick origin;         /* the run's time 0 for its reports: a job's start under --jobs, else 0 */
    wl_hooks hooks;
} wl_run;

/* Loads <prefix>.<npu>.et for every NPU of r->s, or <prefix>.et for all
 * of them when only that file exists (docs/simulator.md, "Workload").
 * Returns 0, or -1 after sim_fail(). */
int workload_load_all(wl_run *r);
void workload_free_all(wl_run *r);
/* NPU npu's workload, attached to r->shared first if it was not yet;
 * NULL after sim_fail() when out of memory. */
workload *workload_npu(wl_run *r, uint32_t npu);
/* The trace NPU npu runs (attached or not). */
const wl_trace *workload_npu_trace(const wl_run *r, uint32_t npu);
/* Issues every NPU's dependency-free nodes at t = 0, in NPU order. */
void workload_fire_all(wl_run *r);
const char *workload_node_name(const workload *w, uint32_t node);

/* The roofline figures of a node (the reference's behaviour, docs/simulator.md). */
typedef struct wl_roofline {
    double intensity, perf, compute_util, mem_util;
    bool memory_bound;
} wl_roofline;
/* Whether the node runs under the roofline model (a GPU compute node with
 * a tensor, roofline-enabled, not replay-only) and, if so, its figures
 * (peak-perf and local-mem-bw must be positive). */
bool workload_roofline(const sys_config *cfg, const wl_node *n, wl_roofline *out);
/* After a reduced simulation (sim->reduced) that succeeded: every NPU's
 * finish report, with its representative's figures, in NPU order. */
void workload_print_reduced(wl_run *r);
/* A SEND's destination or a RECV's source `peer`, as written in NPU npu's
 * trace, as NPU npu names it: peer + (npu - the rank the trace was written
 * for) in a compact workload, else peer. */
int64_t workload_peer(const wl_run *r, uint32_t npu, int32_t peer);
/* Communicator group `pg` of NPU npu's trace as NPU npu names it: in a
 * compact workload, the group of pg's family that holds npu. */
int64_t workload_group(const wl_run *r, uint32_t npu, int64_t pg);

/* Whether NPU npu runs its trace: every NPU, or in a reduced simulation
 * NPU 0 alone or (over roles, sim->roles) each class's representative. */
bool workload_npu_runs(const sim *s, uint32_t npu);
/* The NPU whose figures are npu's: itself, or its representative. */
uint32_t workload_representative(const sim *s, uint32_t npu);
/* After the run: reports NPUs that never finished. Returns their count. */
uint32_t workload_report_unfinished(wl_run *r);

/* report.c: the per-NPU figures behind the finish report. */
typedef struct npu_stats {
    vimana_tick finish;
    vimana_tick exposed;            /* finish - replayed/roofline GPU time (wraps as in the reference) */
    vimana_tick wall;
    bool has_kind[KIND_COUNT];
    vimana_tick kind_time[KIND_COUNT];
    vimana_tick overlap;            /* GPU time overlapped by communication */
    bool roofline;
    double compute_bound, compute_util, memory_util, intensity;
    bool has_tensors;               /* the trace names tensors (read with --report) */
    uint64_t peak_tensor_bytes;     /* the most bytes of them live at one tick (tensor_mem.h) */
} npu_stats;

int workload_compute_stats(sim *s, const workload *w, npu_stats *out);
void workload_print_report(sim *s, workload *w);
/* NPU npu's report from w's figures `st` (a reduced run: w is npu's
 * representative, whose figures are computed once for its class). */
void workload_print_report_as(sim *s, const workload *w, uint32_t npu, const npu_stats *st);
extern const char *const wl_kind_labels[KIND_COUNT];

/* Runs of at least this many NPUs end their finish lines with one summary
 * line: thousands of per-NPU lines say nothing at a glance. */
#define WL_SUMMARY_MIN_NPUS 64
/* After a successful run: "summary: N NPUs finished: min A, median B, max
 * C cycles; exposed communication min D, median E, max F cycles." (the
 * lower median of an even count), when N >= WL_SUMMARY_MIN_NPUS. */
void workload_print_summary(wl_run *r, FILE *out);

#endif
