/*
 * dot_walk.h - one rank's ET streamed through a graph writer
 * (graph_write.h) for `vimana-et dot`: each node, then the edges into it,
 * then the parents missing from the file; with a plan (dot_plan.h), only
 * the nodes and edges the plan draws. Only node ids are kept.
 */
#ifndef VIMANA_ETCMD_DOT_WALK_H
#define VIMANA_ETCMD_DOT_WALK_H

#include <stddef.h>

#include "etcmd/dot_plan.h"
#include "etcmd/graph_write.h"

/* Reads `input` to its end; adds the nodes drawn (missing parents
 * included) to *drawn and their kinds (1 << graph_kind) to *kinds. plan
 * may be NULL: every node and edge. Returns 0, or -1 after printing one
 * line. */
int dot_walk(const graph_writer *w, const graph_out *o, const char *prog, const char *input, dot_plan *plan,
             size_t *drawn, unsigned *kinds);

#endif
