/*
 * fit_model.h - the statistics `vimana-et synth fit` learns from ET sets
 * (docs/synth.md, "synth fit"): the node-kind mix, per kind the quantiles
 * of durations and sizes, the kind-to-kind transitions along file order,
 * the fan-in histogram and the quantiles of dependency distances. Nodes are
 * added one at a time; the model is written as JSON.
 */
#ifndef VIMANA_SYNTH_FIT_MODEL_H
#define VIMANA_SYNTH_FIT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "etcmd/sink.h"
#include "synth/comm_groups.h"
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
/* The model format's version (docs/synth.md). */
#define FIT_MODEL_VERSION 2

typedef struct fit_model fit_model;

/* groups (may be NULL, kept by reference) gives communicator members. */
fit_model *fit_model_new(const comm_groups *groups);
void fit_model_free(fit_model *m);

/* Starts rank `rank` of a set of n_ranks files (the transition chain
 * restarts; rank 0 starts a new set), its peers shifted by peer_shift
 * (fit_skeleton.h). Returns 0, or -1 when out of memory. */
int fit_model_begin_file(fit_model *m, size_t rank, size_t n_ranks, int64_t peer_shift);
/* Adds one node. Returns 0, or -1 when out of memory. */
int fit_model_add(fit_model *m, const vet_node *n);
/* Ends the current file. Returns 0, or -1 when out of memory. */
int fit_model_end_file(fit_model *m);
/* Writes the model as JSON (docs/synth.md). Sorts the samples. Returns 0,
 * or -1 when out of memory. */
int fit_model_write(fit_model *m, sink *s);

/* Writes n values (n >= 1; sorted in place) as a model distribution:
 * {"values": [[v, count], ...]} or {"quantiles": [101 points]}. */
void fit_write_dist(sink *s, uint64_t *v, size_t n);

/* The kind of a node and its name in the model ("comp_gpu", "coll_all_reduce"). */
enum fit_kind fit_kind_of(const vet_node *n);
const char *fit_kind_name(enum fit_kind k);
/* The size a node moves: comm_size for communication, tensor_size for
 * memory nodes; false when it has none. */
bool fit_node_size(const vet_node *n, enum fit_kind k, uint64_t *size);

#endif
