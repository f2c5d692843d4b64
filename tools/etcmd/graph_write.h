/*
 * graph_write.h - the text forms `vimana-et dot` writes one rank's
 * dependency graph in. The walk (cmd_dot.c) streams the nodes and calls a
 * writer: begin, then each node with the edges from its parents, then the
 * parents that are not in the file ("missing"), then end.
 */
#ifndef VIMANA_ETCMD_GRAPH_WRITE_H
#define VIMANA_ETCMD_GRAPH_WRITE_H

#include <stdint.h>

#include "etcmd/sink.h"
#include "vimana/et.h"

typedef struct graph_writer {
    void (*begin)(sink *s, const char *title);
    void (*node)(sink *s, const vet_node *n); /* the node and its in-edges */
    void (*missing)(sink *s, uint64_t id);    /* a parent absent from the file */
    void (*end)(sink *s);
} graph_writer;

/* Graphviz DOT: a box per node labelled with id, name, type and size or
 * duration; data edges solid, control edges dashed; missing parents
 * dotted. */
extern const graph_writer graph_write_dot;

/* GraphML: per node the data keys id, name and type (missing parents have
 * missing = true); per edge dependency = data or control, as Chakra's
 * visualiser spells it. */
extern const graph_writer graph_write_graphml;

#endif
