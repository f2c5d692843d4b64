/*
 * synth_read.h - the one way synth fit and synth compare read an ET file:
 * every node in turn to a caller's function, with the same one-line
 * messages for a file that cannot be read and for memory running out.
 */
#ifndef VIMANA_SYNTH_SYNTH_READ_H
#define VIMANA_SYNTH_SYNTH_READ_H

#include "vimana/et.h"

/* Takes one node (valid only during the call); nonzero when out of memory. */
typedef int (*synth_node_fn)(void *ctx, const vet_node *n);

/* Calls `add` on each node of the ET file `path`. Returns 0, or -1 after
 * printing "PROG: error: WHY" (the file cannot be opened or read) or
 * "PROG: out of memory" (`add` failed; no further node is read). */
int synth_read_nodes(const char *prog, const char *path, synth_node_fn add, void *ctx);

#endif
