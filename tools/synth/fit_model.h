/*
 * fit_model.h - the statistics `vimana-et synth fit` learns from ET sets
 * (docs/synth.md, "synth fit"): the node-kind mix, per kind the quantiles
 * of durations and sizes, the kind-to-kind transitions along file order,
 * the fan-in histogram and the quantiles of dependency distances. Nodes are
 * added one at a time; the model is written as JSON.
 */
#ifndef VIMANA_SYNTH_FIT_MODEL_H
#define VIMANA_SYNTH_FIT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "etcmd/sink.h"
#include "vimana/et.h"

/* Node kinds: the simulator's classes, collectives split by type. */
enum fit_kind {
    FIT_COMP_GPU, FIT_COMP_CPU, FIT_SEND, FIT_RECV, FIT_LOAD, FIT_STORE, FIT_METADATA, FIT_INVALID,
    FIT_COLL_FIRST, /* + enum vet_coll_type */
    FIT_COLL_OTHER = FIT_COLL_FIRST + VET_COLL_TYPE_MAX + 1,
    FIT_KINDS
};

/* Fan-in buckets 0 .. FIT_FANIN_MAX - 1, the last one "or more". */
#define FIT_FANIN_MAX 17
/* Quantiles written: 0 %, 5 %, ..., 100 %. */
#define FIT_QUANTILES 21

typedef struct fit_model fit_model;

fit_model *fit_model_new(void);
void fit_model_free(fit_model *m);

/* Starts the next file (the transition chain restarts); is_new_set for
 * the first file of a set. */
void fit_model_begin_file(fit_model *m, int is_new_set);
/* Adds one node. Returns 0, or -1 when out of memory. */
int fit_model_add(fit_model *m, const vet_node *n);
/* Writes the model as JSON (docs/synth.md). Sorts the samples. */
void fit_model_write(fit_model *m, sink *s);

/* The kind of a node and its name in the model ("comp_gpu", "coll_all_reduce"). */
enum fit_kind fit_kind_of(const vet_node *n);
const char *fit_kind_name(enum fit_kind k);

#endif
