/*
 * tf_write.h - writes one training iteration of the transformer of
 * tf_model.h: one ET per rank (streamed node by node through the ET
 * library) and the communicator-group JSON the simulator reads with
 * --comm-group-configuration.
 */
#ifndef VIMANA_TOOLS_TF_WRITE_H
#define VIMANA_TOOLS_TF_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "transformer/tf_model.h"
#include "vimana/et.h"

/* Writes rank `rank`'s ET to `path`; `b` is a reusable builder. Returns 0,
 * or -1 with one line in `err`. */
int tf_write_rank(const struct tf_config *c, uint64_t rank, const char *path, vet_builder *b, vet_error *err);

/* Writes {"<id>": [ranks], ...} for every TP and DP group of more than one
 * rank. Returns 0, or -1 with one line in `err`. */
int tf_write_groups(const struct tf_config *c, const char *path, vet_error *err);

#endif
