/*
 * fit_skeleton.h - the part of the synth model that `synth sample` replays
 * so that the sampled ranks stay in step (docs/synth.md, "The skeleton"):
 * per rank the ordered communication events (collectives by communicator,
 * sends and receives by peer offset) and, between them, the "steps" of
 * local nodes (compute, memory, metadata) with their mean count and summed
 * duration across ranks; the communicators (size and stride, or "all")
 * with their run-length compressed collective sequence; the per-rank
 * compute and node-count ratios to the mean. Learned from the first set.
 */
#ifndef VIMANA_SYNTH_FIT_SKELETON_H
#define VIMANA_SYNTH_FIT_SKELETON_H

#include <stddef.h>
#include <stdint.h>

#include "etcmd/sink.h"
#include "synth/comm_groups.h"
#include "vimana/et.h"

/* The local (non-communication) node kinds, in model order. */
enum { SK_LOCAL_KINDS = 6 };
/* Earlier events one event's dependencies are kept for. */
enum { SK_MAX_BACK = 8 };
/* Index of a fit_kind among the local kinds, or -1 for communication. */
int sk_local_index(int fit_kind);
/* The fit_kind of local index i. */
int sk_local_kind(int i);

typedef struct fit_skeleton fit_skeleton;

/* groups (may be NULL) gives the members of numbered communicators; the
 * process groups of METADATA nodes add those it does not name. */
fit_skeleton *fit_skeleton_new(const comm_groups *groups);
void fit_skeleton_free(fit_skeleton *k);

/* Starts rank `rank` of a set of n_ranks files; the file's peers are
 * shifted by peer_shift (a compact workload's role trace, written for
 * another rank: rank - that rank; else 0). Returns 0 or -1 (memory). */
int fit_skeleton_begin_file(fit_skeleton *k, size_t rank, size_t n_ranks, int64_t peer_shift);
/* Adds the next node of the file. Returns 0 or -1 (memory). */
int fit_skeleton_add(fit_skeleton *k, const vet_node *n, int fit_kind);
/* Ends the file (compares its events with rank 0's). Returns 0 or -1. */
int fit_skeleton_end_file(fit_skeleton *k);

/* Writes the skeleton's members of the model object (each starting with
 * ",\n  "). Returns 0, or -1 (nothing written) when out of memory. */
int fit_skeleton_write(fit_skeleton *k, sink *s);

#endif
