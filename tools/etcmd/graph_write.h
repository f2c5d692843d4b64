/*
 * graph_write.h - the text forms `vimana-et dot` writes one rank's
 * dependency graph in. The walk (cmd_dot.c) streams the nodes and calls a
 * writer: begin, then each node followed by the edges from its parents,
 * then the parents that are not in the file ("missing"), then end.
 */
#ifndef VIMANA_ETCMD_GRAPH_WRITE_H
#define VIMANA_ETCMD_GRAPH_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "etcmd/sink.h"
#include "vimana/et.h"

/* The kinds of node the drawing tells apart by colour (a bit each in
 * the mask that end() gets). */
typedef enum {
    GRAPH_KIND_COMPUTE,     /* COMP_NODE */
    GRAPH_KIND_P2P,         /* COMM_SEND_NODE, COMM_RECV_NODE */
    GRAPH_KIND_COLLECTIVE,  /* COMM_COLL_NODE */
    GRAPH_KIND_MEMORY,      /* MEM_LOAD_NODE, MEM_STORE_NODE */
    GRAPH_KIND_METADATA,    /* METADATA_NODE */
    GRAPH_KIND_OTHER,       /* INVALID_NODE and unknown types */
    GRAPH_KINDS
} graph_kind;

graph_kind graph_kind_of(int32_t type);

/* Where a writer writes, and the prefix of its node names: "" for one
 * rank (nodes n<ID>), "r<RANK>_" when several ranks share the picture. */
typedef struct graph_out {
    sink *s;
    char prefix[24];
} graph_out;

typedef struct graph_writer {
    void (*begin)(const graph_out *o, const char *title);
    /* A rank's nodes are written between these (several ranks only). */
    void (*rank_begin)(const graph_out *o, size_t rank);
    void (*rank_end)(const graph_out *o);
    /* The node; times > 1: it stands for that many repeated layers. */
    void (*node)(const graph_out *o, const vet_node *n, uint32_t times);
    void (*edge)(const graph_out *o, uint64_t parent, uint64_t child, bool ctrl);
    void (*missing)(const graph_out *o, uint64_t id);  /* a parent absent from the file */
    void (*end)(const graph_out *o, unsigned kinds);    /* kinds: 1 << graph_kind of the nodes drawn */
} graph_writer;

/* Graphviz DOT: a box per node labelled with id, name, type and size or
 * duration, filled with its kind's colour; data edges solid, control
 * edges dashed; missing parents dotted; a legend of the kinds drawn. */
extern const graph_writer graph_write_dot;

/* GraphML: per node the data keys id, name and type (missing parents have
 * missing = true; a collapsed node has repeat = its count); per edge
 * dependency = data or control, as Chakra's visualiser spells it. */
extern const graph_writer graph_write_graphml;

#endif
