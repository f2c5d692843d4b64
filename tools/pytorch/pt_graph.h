/*
 * pt_graph.h - the Chakra nodes the PyTorch converter builds from a host
 * trace, one record per trace node (same index), filled by the stages of
 * the reference's behaviour, docs/vimana-et.md:
 *   pt_convert_nodes()   step 4: types, durations, attributes, comm fields
 *   pt_derive_p2p()      (Vimana) peers and tags of SEND/RECV nodes
 *   pt_add_data_deps()   step 5: control -> data dependencies
 *   pt_remove_dangling() step 6
 *   pt_check_cycles()    step 7
 *   pt_find_orphans()    (Vimana) nodes lost to broken ctrl_deps, for a warning
 *   pt_write_et()        step 8 (pt_write.h)
 *   pt_simulate()        step 9 (pt_sim.h)
 * Data dependencies live in one shared edge pool (no allocation per node).
 */
#ifndef VIMANA_PYTORCH_PT_GRAPH_H
#define VIMANA_PYTORCH_PT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pytorch/pt_error.h"
#include "pytorch/pt_trace.h"

/* The int64 attributes copied from the host trace, in output order. */
enum pt_host_attr { PT_RF_ID, PT_FW_PARENT, PT_SEQ_ID, PT_SCOPE, PT_TID, PT_FW_TID, PT_HOST_ATTR_COUNT };

typedef struct pt_chakra {
    bool converted;         /* in the reference's protobuf_node_map */
    bool removed;           /* dropped as dangling (step 6) */
    bool has_ctrl_dep;      /* ctrl_deps = [parent] */
    bool has_stream;
    bool has_pg_name;
    bool has_comm_src, has_comm_dst, has_comm_tag;
    uint8_t type;           /* enum vet_node_type */
    int32_t comm_src, comm_dst, comm_tag;
    uint64_t duration;
    int64_t host_attr[PT_HOST_ATTR_COUNT];
    int64_t stream;
    int64_t comm_type;
    int64_t comm_size;
    const char *op_schema;
    const char *pg_name;
    uint32_t dep_head;      /* first edge, or PT_NONE */
    uint32_t dep_tail;
    uint32_t n_deps;
} pt_chakra;

typedef struct pt_edge {
    uint64_t id;            /* the node depended on */
    uint32_t next;          /* next edge of the same node, or PT_NONE */
} pt_edge;

typedef struct pt_options {
    bool sync_deps;         /* apply trace_link's sync_dep when timestamps agree */
    bool p2p_peers;         /* give SEND/RECV nodes comm_src/comm_dst/comm_tag */
    bool drop_removed_ctrl_deps; /* no ctrl_deps on a node removed as dangling
                                  * (the reference keeps them, and its own
                                  * simulator then refuses the trace) */
} pt_options;

typedef struct pt_stats {
    uint32_t converted;
    uint32_t removed;
    uint32_t sync_added;
    uint32_t sync_skipped;  /* sync_dep entries not applied (no ts, or not earlier) */
    uint32_t p2p_derived;
    uint32_t p2p_unresolved;
    uint32_t ctrl_deps_dropped; /* ctrl_deps on removed nodes left out */
    uint32_t first_dropped;     /* node index of the first of them, or PT_NONE */
} pt_stats;

/* Nodes left out of the output because their ctrl_deps chain never reaches
 * a thread root (a parent id naming no node, a self-loop, a cycle). */
typedef struct pt_orphans {
    uint32_t count;
    uint32_t culprit;           /* node index where the first such chain breaks */
    uint8_t fault;              /* enum chain_fault */
} pt_orphans;

typedef struct pt_graph {
    const pt_trace *trace;
    pt_options opt;
    pt_chakra *out;         /* parallel to trace->nodes */
    uint32_t *order;        /* conversion order (the protobuf_node_map order) */
    uint32_t n_order;
    pt_edge *edges;
    uint32_t n_edges, cap_edges;
    pt_stats stats;
} pt_graph;

int pt_graph_init(pt_graph *g, const pt_trace *t, pt_options opt, pt_error *err);
void pt_graph_free(pt_graph *g);

/* Appends a data dependency; returns 0 or -1 when out of memory. */
int pt_graph_add_dep(pt_graph *g, uint32_t node, uint64_t dep_id);
bool pt_graph_has_dep(const pt_graph *g, uint32_t node, uint64_t dep_id);

/* Is node i in the output (converted and not removed)? */
static inline bool pt_graph_kept(const pt_graph *g, uint32_t i)
{
    return g->out[i].converted && !g->out[i].removed;
}

int pt_convert_nodes(pt_graph *g, pt_error *err);
/* Warnings (one line each) go to `warn` when not NULL. */
int pt_derive_p2p(pt_graph *g, void (*warn)(void *ctx, const char *line), void *ctx, pt_error *err);
int pt_add_data_deps(pt_graph *g, pt_error *err);
int pt_remove_dangling(pt_graph *g, pt_error *err);
int pt_check_cycles(pt_graph *g, pt_error *err);
/* After the steps above: counts the dropped nodes behind broken ctrl_deps. */
int pt_find_orphans(const pt_graph *g, pt_orphans *o, pt_error *err);

#endif
