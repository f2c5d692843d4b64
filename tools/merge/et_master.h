/*
 * et_master.h - the master trace of a distributed ET set (the Chakra
 * paper's "merge"): every rank's ET in one file, losslessly.
 *
 * The master is itself an ET: a GlobalMetadata of version "vimana-master-1"
 * with the attribute vimana_master_ranks (uint64, the rank count), then per
 * rank a METADATA_NODE marker named "vimana.rank" (id = the rank; attributes
 * rank (uint64), node_count (uint64) and global_metadata (bytes: the rank
 * file's first record, its length varint included)) followed by the rank
 * file's node records as they were, length varints included. Splitting
 * writes each rank's record bytes back: the files of a prefix written
 * uncompressed come back byte for byte (a .et.gz comes back as its .et).
 */
#ifndef VIMANA_TOOLS_ET_MASTER_H
#define VIMANA_TOOLS_ET_MASTER_H

#include <stdbool.h>
#include <stddef.h>

#define ET_MASTER_VERSION "vimana-master-1"

/* Writes the master of `paths` (rank k's file is paths[k]) to `out`.
 * Returns 0, or -1 with one line in msg. */
int et_master_merge(char *const *paths, size_t n, const char *out, char *msg, size_t len);

/* Whether `path` is a master trace (its metadata's version). */
bool et_master_is(const char *path);

/* Writes PREFIX.0.et ... PREFIX.(N-1).et from the master at `path`; *n
 * gets the number of files written (N, or those before a failure).
 * Returns 0, or -1 with one line in msg. */
int et_master_split(const char *path, const char *prefix, size_t *n, char *msg, size_t len);

#endif
