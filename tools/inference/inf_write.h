/*
 * inf_write.h - writes the inference workload of inf_model.h: one ET per
 * rank (the prefill chunks, then the decode iterations, each step through
 * the stage's layers with their TP all-reduces and the pipeline messages)
 * and the communicator-group JSON the simulator reads with
 * --comm-group-configuration.
 */
#ifndef VIMANA_TOOLS_INF_WRITE_H
#define VIMANA_TOOLS_INF_WRITE_H

#include "inference/inf_model.h"
#include "vimana/et.h"

/* The marker attribute: the LM head node that samples output token k
 * carries "output_token" = k (0: the first token, from the prefill; k =
 * 1..N: decode iteration k's), and its name ends in "first_token" or
 * "output_token<k>" (docs/inference.md, "Markers"). */
#define INF_MARKER_ATTR "output_token"
/* The markers also carry "batch" = B, the sequences the token is sampled
 * for, which the simulator's tokens/s needs. */
#define INF_BATCH_ATTR "batch"

/* Writes rank `rank`'s ET to `path`. 0, or -1 with one line in `err`. */
int inf_write_rank(const struct inf_config *c, uint64_t rank, const char *path, vet_error *err);

/* Writes {"<p+1>": [ranks of stage p]} for each stage when T > 1 ({} else),
 * for `groups` groups of T * P ranks one after the other (2: a
 * disaggregated serving trace's prefill and decode groups). 0, or -1 with
 * one line in `err`. */
int inf_write_groups(const struct inf_config *c, uint64_t groups, const char *path, vet_error *err);

#endif
