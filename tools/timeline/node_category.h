/*
 * node_category.h - which timeline row (trace-event "tid") a node goes to.
 *
 * The reference decides from substrings of the node name only and fails on
 * any other name. Vimana keeps that rule first, so every log the reference
 * accepts gives the same rows, then falls back on the record's node->type
 * (the Chakra NodeType number), which real workloads need: their nodes are
 * named "aten::mm" or "All-Reduce-1MB", not "COMP_NODE_…".
 */
#ifndef VIMANA_TIMELINE_NODE_CATEGORY_H
#define VIMANA_TIMELINE_NODE_CATEGORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    CATEGORY_UNKNOWN = 0,
    CATEGORY_LOCAL_MEMORY = 1,
    CATEGORY_REMOTE_MEMORY = 2,
    CATEGORY_COMP = 3,
    CATEGORY_COMM = 4,
    CATEGORY_OTHER = 5 /* METADATA_NODE and INVALID_NODE: finish at issue */
} node_category;

/* By name: MEM_LOAD_NODE or MEM_STORE_NODE with LOCAL_MEMORY (1) or
 * REMOTE_MEMORY (2), else COMP_NODE (3), else COMM_SEND_NODE,
 * COMM_RECV_NODE or COMM_COLL_NODE (4). By type when the name says
 * nothing: MEM_LOAD/MEM_STORE (2, 3) -> REMOTE_MEMORY, as the simulator
 * sends every memory node to its remote-memory model; COMP (4) -> COMP;
 * COMM_SEND/RECV/COLL (5-7) -> COMM; INVALID/METADATA (0, 1) -> OTHER.
 * CATEGORY_UNKNOWN when neither decides (no type, or a type above 7). */
node_category node_category_of(const char *name, size_t name_len, bool has_type, uint64_t type);

#endif
