/*
 * system.h - the system layer's state: per-NPU event lists, queues,
 * collectives (datasets), their chunks (streams) and the phases each chunk
 * runs through (the reference's behaviour, docs/simulator.md).
 * Requests come from the layer above with a completion (sim_done, in
 * system/context.h) that runs once when they are done; this layer never
 * looks at who asked.
 */
#ifndef VIMANA_SYSTEM_SYSTEM_H
#define VIMANA_SYSTEM_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "system/context.h"

/* ---- per-NPU event coalescing (section 13.1) ----------------------------- */

typedef sim_event_fn npu_event_fn;

/* ---- phases -------------------------------------------------------------- */

enum ring_kind {
    RING_DIMENSION,  /* one physical dimension: members base + k * stride */
    RING_ALL,        /* oneRing & co: every NPU, index = NPU id */
    RING_GROUP,      /* a communicator group's local ring, JSON order */
};

struct algorithm;

/* What one phase of a chunk does, fixed when the chunk is generated. */
typedef struct phase_desc {
    /* read by every step of the phase (see struct stream's layout) */
    const struct algorithm *alg;  /* system/algorithms/algorithm.h: its plan and step rules */
    uint8_t coll;           /* enum coll_kind of this phase */
    uint8_t anticlockwise;
    uint8_t ring;           /* enum ring_kind */
    uint8_t tree;           /* doubleBinaryTree: 0 = max-rooted, 1 = min-rooted */
    uint8_t local_group;    /* communicator-group local ring (fixed bundle delay 10) */
    uint32_t n;             /* NPUs in the ring */
    uint32_t index;         /* this NPU's position in the ring */
    uint32_t base, stride;  /* RING_DIMENSION / RING_ALL: member k = base + k * stride */
    const uint32_t *members;/* RING_GROUP */
    /* read when the phase starts or ends */
    uint32_t queue;
    uint32_t dim;           /* logical dimension (queue allocators, trees) */
    uint32_t param;         /* the name's numeric suffix (directN: the window) */
    uint32_t custom_position; /* custom ET file position (group: index in sorted members) */
    uint64_t in_size;       /* bytes entering the phase */
} phase_desc;

typedef struct packet {
    uint32_t src, dst;      /* ring indices */
    uint64_t size;
} packet;

/* Run-time state of the phase a stream is in. The fields every message
 * touches come first, with a small inline packet ring, so that a step of a
 * phase stays within a couple of cache lines. */
#define PHASE_INLINE_PACKETS 4 /* a power of two: the ring indexes with a mask */
/* The slab object size of phase.c's bundle: a phase can have one per
 * packet in flight (n per NPU for direct), so it is kept at the struct's
 * size rather than a cache line. */
#define PHASE_BUNDLE_BYTES 32

typedef struct phase_run {
    /* packet engine (Ring, Direct, HalvingDoubling): what every bundle
     * and every received message reads or writes, then the packet ring */
    uint64_t stream_count;  /* sends left */
    uint64_t msg_size;
    uint64_t total_received;
    uint32_t free_packets;
    uint32_t zero, nonzero;
    uint32_t P, NZ;
    uint32_t sender, receiver;  /* ring indices */
    uint32_t bundles_out;       /* bundles not yet delivered */
    uint32_t send_hint, recv_hint;  /* msg_match channel hints: released by phase_release */
    uint32_t pk_head, pk_len, pk_cap;
    bool toggle;
    uint8_t pk_replay;          /* packet_engine.c: the queued packets are not stored */
    packet *packets;            /* pk_inline, or a heap ring when it overflows */
    packet pk_inline[PHASE_INLINE_PACKETS];  /* a replayed queue uses only the first */
    /* Direct */
    uint32_t M;
    union {                     /* per algorithm: one phase runs one */
        int64_t rank_offset;    /* HalvingDoubling */
        struct {                /* nccl */
            vimana_tick step_sent;        /* when the current step's messages left */
            uint8_t nccl_algo, nccl_proto; /* the call's choice, made at its start */
        };
    };
    double multiplier;
    /* doubleBinaryTree */
    uint8_t tree_role;
    uint8_t tree_state;
    uint8_t reductions_done;
    uint32_t parent, left, right;   /* NPU ids, UINT32_MAX = none */
    /* custom (Chakra ET) collective */
    struct custom_run *custom;
} phase_run;

/* ---- collectives and chunks ---------------------------------------------- */

enum dataset_kind { DATASET_COLLECTIVE, DATASET_BROADCAST };

/* One collective of one NPU: completes when all its streams have. */
typedef struct dataset {
    uint32_t npu;
    uint32_t node;          /* the requester's node index, named in messages */
    uint32_t expected;
    uint32_t finished;
    uint8_t kind;
    vimana_tick started;
    sim_done done;          /* the requester's completion */
} dataset;

/* The fields an event of a running phase touches - the phase's
 * description and the hot part of its state, the epoch, NPU and tag - lie
 * in the first three cache lines (a stream comes 64-byte aligned from its
 * slab), the queue and timeline fields after them: at scale every stream
 * is cold when its event comes, so each line it spans is a miss. */
#define STREAM_HOT_BYTES 192
typedef struct stream {
    phase_desc cur;              /* copy of phases[next_phase - 1], kept next to its state */
    uint64_t epoch;              /* changes whenever the slot is reused */
    uint32_t npu;
    uint32_t tag;
    phase_run run;               /* state of the current phase */
    /* cold */
    const phase_desc *phases;
    uint32_t next_phase;         /* phases[next_phase..] are still to go */
    uint32_t n_phases;
    struct stream *prev, *next;  /* queue list */
    dataset *ds;
    uint64_t id;
    int64_t priority;
    int32_t queue;               /* -1 before the first phase */
    bool initialized;
    bool custom;                 /* runs a Chakra-ET custom algorithm */
    uint16_t lane;
    const char *custom_prefix;
    vimana_tick chunk_start, phase_start;  /* for the timeline */
} stream;
_Static_assert(offsetof(stream, run.pk_inline) + sizeof(packet) <= STREAM_HOT_BYTES,
               "a stream's hot fields fit in its first STREAM_HOT_BYTES");

typedef struct queue_state {
    stream *head, *tail;
    uint32_t running;
} queue_state;

/* A communicator group as one NPU sees it. */
typedef struct npu_group {
    int64_t key;             /* pg_name / JSON id */
    int64_t internal_id;     /* key (JSON) or key + 1 (METADATA node) */
    uint32_t *members;       /* JSON order */
    uint32_t n_members;
    uint32_t my_index;       /* UINT32_MAX when this NPU is not a member */
    uint64_t num_streams;    /* starts at internal_id * 1000000 */
    bool borrowed;           /* members are the configuration's (it outlives the run), not a copy */
    /* plan cached per collective on first use (section 13.12) */
    bool plan_cached[COLL_KINDS];
    const char *plan_custom[COLL_KINDS];
} npu_group;

/* One NPU's system state. Every field starts at zero, and so do its
 * queues and queue counters (npu_queues, scheduler.c): system_init
 * allocates them all zeroed for every NPU and writes nothing per NPU, so
 * the pages of NPUs that never run (all but NPU 0 in the reduced
 * simulation) are never touched and cost no memory. */
typedef struct npu_sys {
    uint32_t dbt_next[COLL_KINDS][SIM_MAX_DIMS];  /* tree alternation */
    uint64_t num_streams;
    int64_t priority_counter;
    npu_group *groups;
    uint32_t n_groups;
    uint32_t **retired;     /* member lists of replaced groups, still referenced by phases */
    uint32_t n_retired;
} npu_sys;

/* NPU npu's queues: s->queues_per_npu of them, queue dimension d's at
 * d * queues-per-dim. */
static inline queue_state *npu_queues(const sim *s, uint32_t npu)
{
    return &s->queues[(size_t)npu * s->queues_per_npu];
}

/* ---- module entry points ------------------------------------------------- */

/* npu_events.c */
int system_events_init(sim *s);
void system_events_fini(sim *s);
/* The backend's host->will_run hint (vimana/network_api.h) for the
 * events npu_register_event scheduled (others are ignored): stage 0
 * starts loading the NPU's lists, stage 1 the objects of their first
 * registrations. Changes nothing. */
void npu_events_look_ahead(vimana_event_fn fn, void *arg, uint64_t data, int stage);
/* Runs fn(s, obj, data) on NPU npu's event list at now + delta. */
void npu_register_event(sim *s, uint32_t npu, vimana_tick delta, npu_event_fn fn, void *obj, uint64_t data);

/* system.c */
int system_init(sim *s);
void system_fini(sim *s);

/* collective.c: starts a collective for NPU npu; req->done runs when every
 * chunk of it has finished. Returns 0, or -1 after sim_fail(). */
typedef struct coll_request {
    uint32_t npu;
    /* The requesting node, for error messages ("<trace>: node <id> (<name>):
     * ...") and for choosing a custom algorithm by node id. */
    const char *trace;
    uint32_t node;               /* its index in the trace */
    uint64_t node_id;
    const char *node_name;
    enum coll_kind kind;
    uint64_t size;
    int64_t priority;            /* comm_priority attribute */
    const bool *involved;        /* NULL = all dimensions */
    uint32_t n_involved;
    npu_group *group;            /* NULL = all NPUs */
    sim_done done;
} coll_request;
int collective_start(sim *s, const coll_request *req);
/* BROADCAST: a timed collective of node index `node` that only waits
 * `delay` ticks, then runs done. */
int collective_start_timed(sim *s, uint32_t npu, uint32_t node, vimana_tick delay, sim_done done);

/* scheduler.c: queues and phase-to-phase movement (section 13.5) */
void scheduler_enter_first_phase(sim *s, stream *st);
void scheduler_phase_done(sim *s, stream *st);
uint32_t scheduler_next_queue(sim *s, uint32_t npu, uint32_t dim, bool *anticlockwise);
uint32_t scheduler_first_queue(sim *s, uint32_t npu, uint32_t dim);
uint32_t scheduler_last_queue(sim *s, uint32_t npu, uint32_t dim);

/* phase.c: runs the phases (the algorithms: system/algorithms/) */
void phase_start(sim *s, stream *st);      /* StreamInit */
void phase_release(sim *s, stream *st);    /* frees run-time buffers */
uint64_t phase_out_size(const phase_desc *p);

/* system.c: communicator groups. An NPU holds the groups it is a member
 * of (from the configuration) and those METADATA nodes declared on it. */
npu_group *system_find_group(sim *s, uint32_t npu, int64_t key);
/* Whether the communicator-group configuration declares group `key`. */
bool system_group_declared(const sim *s, int64_t key);
int system_add_group(sim *s, uint32_t npu, int64_t key, int64_t internal_id, const uint32_t *members,
                     uint32_t n_members);

#endif
