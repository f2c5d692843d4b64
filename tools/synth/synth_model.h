/*
 * synth_model.h - a synth model (docs/synth.md) read back from its JSON for
 * `synth sample`: every number range-checked before it becomes a count,
 * size or duration, every key checked, so a bad model is refused with one
 * line naming the file and the key.
 */
#ifndef VIMANA_SYNTH_SYNTH_MODEL_H
#define VIMANA_SYNTH_SYNTH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "synth/dist.h"
#include "synth/fit_model.h"
#include "synth/fit_skeleton.h"

/* Limits on the numbers a model may hold (docs/synth.md). */
#define SM_MAX_DURATION (UINT64_C(1) << 40) /* us, about 12.7 days */
#define SM_MAX_SIZE (UINT64_C(1) << 50)     /* bytes, 1 PiB */
#define SM_MAX_RANKS 65536
#define SM_MAX_STEP_NODES 1000000           /* mean local nodes of one kind in one step */
#define SM_MAX_RATIO 1000.0

#define SM_MAX_TRANSITIONS (UINT64_C(1) << 50) /* one `next` count */

typedef struct sm_kind {
    bool present, has_size;
    dist duration, size;
    uint64_t next[FIT_KINDS]; /* how often a node of each kind follows one of this kind */
} sm_kind;

/* A run of one communicator's sequence: `repeat` collectives alike. */
typedef struct sm_run {
    int coll; /* enum vet_coll_type */
    uint64_t size, repeat, dims;
    uint8_t n_dims;
} sm_run;

typedef struct sm_comm {
    uint64_t size;   /* 0 for "all" */
    uint64_t stride; /* 0 when irregular or unknown */
    bool known;      /* size given */
} sm_comm;

/* One communicator's collectives as a role issues them. */
typedef struct sm_seq {
    sm_run *runs;
    size_t n_runs;
} sm_seq;

enum sm_event_type { SM_NONE, SM_COLL, SM_SEND, SM_RECV };

typedef struct sm_step {
    double count[SK_LOCAL_KINDS];
    double duration[SK_LOCAL_KINDS];
    enum sm_event_type type;
    uint64_t comm;   /* SM_COLL */
    int64_t offset;  /* SM_SEND / SM_RECV: peer - rank */
    uint64_t size;
    int64_t join;    /* -1: no local node waits for it */
    bool after_local; /* depends on the latest local node */
    uint32_t back[SK_MAX_BACK]; /* depends on the events this many events earlier */
    size_t n_back;
} sm_step;

/* Ranks that issue the same events. */
typedef struct sm_role {
    dist duration[SK_LOCAL_KINDS]; /* of its local nodes */
    bool has_duration[SK_LOCAL_KINDS];
    sm_seq *seq; /* per communicator */
    sm_step *steps;
    size_t n_steps;
} sm_role;

typedef struct synth_model {
    uint64_t ranks;
    double *ratio;     /* rank_compute_ratio, `ranks` of them */
    uint32_t *role_of; /* per rank */
    sm_kind kinds[FIT_KINDS];
    sm_comm *comms;
    size_t n_comms;
    sm_role *roles;
    size_t n_roles;
} synth_model;

/* Reads and checks PATH. Returns 0, or -1 after printing one line
 * "PROG: error: PATH: KEY: what is wrong". */
int synth_model_read(const char *prog, const char *path, synth_model *m);
void synth_model_free(synth_model *m);

/* The fit_kind named `name` ("comp_gpu", "coll_all_reduce", ...), or -1. */
int synth_kind_from_name(const char *name);

#endif
