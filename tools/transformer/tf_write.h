/*
 * tf_write.h - writes one training iteration of the transformer of
 * tf_model.h: one ET per rank (nodes encoded straight to protobuf bytes
 * and streamed through one fixed buffer) and the communicator-group JSON the
 * simulator reads with --comm-group-configuration.
 */
#ifndef VIMANA_TOOLS_TF_WRITE_H
#define VIMANA_TOOLS_TF_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "transformer/tf_model.h"
#include "vimana/et.h"

/* The output buffer tf_write_rank needs (free() it); NULL when out of memory. */
uint8_t *tf_write_buffer_new(void);

/* Writes rank `rank`'s ET to `path` through `buf`, a buffer of
 * tf_write_buffer_new reused across ranks. Returns 0, or -1 with one line
 * in `err`. */
int tf_write_rank(const struct tf_config *c, uint64_t rank, const char *path, uint8_t *buf, vet_error *err);

/* Writes {"<id>": [ranks], ...} for every TP and DP group of more than one
 * rank. Returns 0, or -1 with one line in `err`. */
int tf_write_groups(const struct tf_config *c, const char *path, vet_error *err);

/* The compact form's role map (core/config/role_map.h) to `path`: one role
 * per pipeline stage, its trace `stem`.stageP.et written for the stage's
 * first rank (t = d = 0) and run by all T*D ranks of the stage. */
int tf_write_roles(const struct tf_config *c, const char *path, const char *stem, vet_error *err);

#endif
