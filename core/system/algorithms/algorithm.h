/*
 * algorithm.h - what a collective algorithm is to the system layer
 * (the reference's behaviour, docs/simulator.md): its names in the system
 * JSON, how it checks and plans a phase, and its step rules. Each family
 * defines one descriptor in its own file (ring.c, direct.c, ...) and
 * registry.c lists the built-ins; docs/algorithms.md says how to add one.
 *
 * A phase runs as events: start() once (StreamInit), then step() for every
 * bundle that comes back (PHASE_GENERAL) and every receive that completes
 * (PHASE_RECEIVED), until the algorithm calls phase_exit(). Its state
 * lives in st->run (system.h's phase_run, zeroed at each start; its
 * counters are free for any algorithm to use). The helpers below are the
 * phase core's (phase.c): bundles, messages, the exit.
 */
#ifndef VIMANA_SYSTEM_ALGORITHMS_ALGORITHM_H
#define VIMANA_SYSTEM_ALGORITHMS_ALGORITHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "system/system.h"

/* What woke a phase up. */
enum phase_event {
    PHASE_GENERAL,   /* one of its bundles came back (endpoint delay or memory bus, then the reduction) */
    PHASE_RECEIVED,  /* one of its receives completed */
};

/* How an algorithm's schedule treats the NPUs of one dimension: what the
 * symmetry reduction (sim/symmetry.c) may rely on. */
enum algo_symmetry {
    ALGO_ASYMMETRIC = 0,   /* NPUs play different parts (a tree's root and leaves), or unknown */
    ALGO_ROTATION,         /* every NPU's peers are its own index shifted: NPU i mirrors NPU 0 by rotation */
    ALGO_XOR_POWER_OF_TWO, /* peers are the index XOR a mask, on a power-of-two dimension (else asymmetric) */
};

typedef struct algorithm {
    /* ---- names ---- */
    const char *name;      /* "ring": in the system JSON, --report and --timeline */
    const char *one_name;  /* "oneRing": the variant on one ring over every NPU, or NULL */
    const char *param;     /* "N": the names take a numeric suffix (directN), or NULL */
    /* Reads the suffix after the name ("" when absent) into *value, 0
     * meaning none. Returns 0, or -1 when it is not one. Needed with param. */
    int (*parse_param)(const char *text, uint32_t *value);

    /* ---- properties ---- */
    enum algo_symmetry symmetry; /* on one dimension (the one* variants cross dimensions: never) */
    /* Its times come from the NCCL cost model (system/nccl_model), whose
     * parameters `vimana calibrate` fits: calibrate keeps a system JSON's
     * per-dimension composition only of such algorithms. */
    bool nccl_model;

    /* ---- phase plan: when a chunk's phases are built ---- */
    /* Refuses a phase it cannot run (ring size, collective type): returns
     * -1 with the reason in msg. NULL: runs any phase. */
    int (*check)(const phase_desc *p, char *msg, size_t len);
    /* Per-NPU choices fixed once the phase is built (doubleBinaryTree's
     * tree alternation); kind is the whole collective's. NULL: none. */
    void (*plan)(sim *s, uint32_t npu, enum coll_kind kind, phase_desc *p);
    /* Bytes leaving the phase. NULL: the collective's rule (phase_out_size). */
    uint64_t (*out_size)(const phase_desc *p);

    /* ---- steps ---- */
    void (*start)(sim *s, stream *st);                       /* st->run is zeroed */
    void (*step)(sim *s, stream *st, enum phase_event ev);   /* never after phase_exit */
    void (*release)(sim *s, stream *st);                     /* NULL: nothing beyond st->run's packets */
} algorithm;

/* The Chakra-ET custom collective (custom.c). Not in the registry: the
 * system JSON names it by its -implementation-custom keys. */
extern const algorithm algorithm_custom;

/* ---- the phase core (phase.c) -------------------------------------------- */

/* The NPU at ring index `index` of the phase (inline: every message asks). */
static inline uint32_t phase_ring_member(const phase_desc *p, uint32_t index)
{
    return p->ring == RING_GROUP ? p->members[index] : p->base + index * p->stride;
}

/* How a bundle crosses the memory: only the shared-bus model looks at
 * send_back and npu_to_ma (the reference's send_to_MA()). */
typedef struct bundle_flags {
    bool processed;     /* reduce the data: bus processing and the 3-term reduction cost */
    bool send_back;     /* the data crosses the bus once more */
    bool npu_to_ma;     /* enters at the NPU side, else at the memory side */
} bundle_flags;

/* Hands `size` bytes to a bundle; the phase gets PHASE_GENERAL when it is back. */
void phase_bundle(sim *s, stream *st, uint64_t size, bundle_flags f);
/* `count` bundles handed over one after another with nothing in between:
 * the same as count phase_bundle calls (same events, same order), kept in
 * one record when their timing allows (a packet engine's start). */
void phase_bundles(sim *s, stream *st, uint64_t size, bundle_flags f, uint32_t count);
/* Sends to / receives from NPU `peer` under the stream's tag; a receive
 * ends in PHASE_RECEIVED. A zero-byte message fails the run. */
void phase_send(sim *s, stream *st, uint32_t peer, uint64_t size);
void phase_receive(sim *s, stream *st, uint32_t peer, uint64_t size);
/* The phase is over: the stream moves on to its next phase. */
void phase_exit(sim *s, stream *st);
/* For an event that a stream scheduled in its epoch `epoch`: whether it may
 * still act on the stream. false once the run has failed, and false (failing
 * the run with "internal error: <what>") when the stream has since moved on,
 * which no event may outlive (inline: every message and bundle asks). */
static inline bool phase_stream_current(sim *s, const stream *st, uint64_t epoch, const char *what)
{
    if (s->failed)
        return false;
    if (st->epoch != epoch) {
        sim_fail(s, "internal error: %s", what);
        return false;
    }
    return true;
}

/* For check(): -1 with "<name> needs a power-of-two number of NPUs per
 * dimension, not N" unless p->n is a power of two. */
int algorithm_need_power_of_two(const phase_desc *p, const char *name, char *msg, size_t len);
/* log2 of a power of two */
uint32_t algorithm_log2(uint32_t n);

#endif
