/*
 * text_plan.h - the node graph of one NPU, as the mode graphs emit it.
 *
 * Every NPU's file has the same nodes; only the ids differ, because the
 * reference numbers nodes with one counter across all NPUs. So the graph is
 * built once as a plan (nodes in creation order, dependencies as plan
 * indices) and written once per NPU with the NPU's id offset.
 *
 * Emitting goes through references: a plan_ref names where the dependants
 * of a logical node must point. For a written node that is the node itself;
 * for a collective left out (--omit-none, or a HYBRID_CUSTOMIZED policy
 * that gives it no network dimension) it is whatever that collective would
 * have depended on, so dependants are rewired past it.
 */
#ifndef VIMANA_CONVERT_TEXT_PLAN_H
#define VIMANA_CONVERT_TEXT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "text_workload.h"

#define PLAN_DEPS_MAX 8

struct plan_ref {
    bool set;    /* false: no such node (yet), dependants skip it */
    uint8_t n;   /* number of plan indices a dependant takes on */
    uint32_t idx[PLAN_DEPS_MAX];
};

/* The dependencies of a node being emitted, in append order. */
struct plan_deps {
    uint8_t n;
    bool overflow;
    uint32_t idx[PLAN_DEPS_MAX];
};

struct plan_node {
    uint32_t layer;
    uint8_t phase;  /* enum text_phase */
    bool comm;      /* COMM_COLL_NODE (else COMP_NODE) */
    uint8_t n_deps;
    size_t deps_at; /* first dependency in plan.deps */
};

struct plan {
    const struct text_workload *w;
    bool omit_none;               /* leave out collectives typed NONE */
    const char *ig_comm_infix;    /* "" or "_IG_COMM_" after the layer name of IG collectives */
    struct plan_node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *deps;
    size_t n_deps, cap_deps;
    bool failed;                  /* out of memory, or too many nodes */
};

void text_plan_init(struct plan *p, const struct text_workload *w, bool omit_none);
void text_plan_free(struct plan *p);

/* Appends where `r` points (nothing when unset), skipping repeats. */
void text_plan_deps_add(struct plan_deps *d, const struct plan_ref *r);
/* Dependencies on up to three references, in order; NULL or unset ones are
 * skipped. */
struct plan_deps text_plan_deps_of(const struct plan_ref *a, const struct plan_ref *b, const struct plan_ref *c);

/* Emits the compute node of `layer` in `phase`. */
struct plan_ref text_plan_comp(struct plan *p, size_t layer, enum text_phase phase, const struct plan_deps *d);
/* Emits the collective of `layer` in `phase`, unless `needed` is false or
 * it is typed NONE under omit_none; then returns a reference to its
 * dependencies instead. */
struct plan_ref text_plan_comm(struct plan *p, size_t layer, enum text_phase phase, bool needed,
                          const struct plan_deps *d);

#endif
