/*
 * ctrl_chain.h - where does a node's chain of ctrl_deps (parent links) end?
 *
 * The PyTorch tools only use nodes whose parent chain reaches a root (a
 * thread root for the converter, node 1 for the linker); the others are
 * dropped. A chain that ends at an id naming no node, at a node naming
 * itself, or in a cycle is a defect of the trace, and the tools say how
 * many nodes it cost instead of dropping them without a word.
 */
#ifndef VIMANA_TOOLS_CTRL_CHAIN_H
#define VIMANA_TOOLS_CTRL_CHAIN_H

#include <stdint.h>

/* parent[] values besides a node index. */
#define CHAIN_ROOT UINT32_MAX            /* the chain ends here, correctly */
#define CHAIN_MISSING (UINT32_MAX - 1)   /* ctrl_deps names no node */

enum chain_fault {
    CHAIN_OK = 0,
    CHAIN_NO_PARENT,  /* ends at a ctrl_deps naming no node */
    CHAIN_SELF_LOOP,  /* ends at a node whose ctrl_deps names itself */
    CHAIN_CYCLE,      /* ends in a cycle of two or more nodes */
};

/* For each of the n nodes, fault[i] tells how its chain ends and culprit[i]
 * is the node where it goes wrong (the node naming a missing id or itself,
 * or the first cycle member reached). Returns 0, or -1 when out of memory. */
int ctrl_chain_check(const uint32_t *parent, uint32_t n, uint8_t *fault, uint32_t *culprit);

/* "names no node", "names the node itself", "forms a cycle". */
const char *ctrl_chain_fault_text(enum chain_fault f);

#endif
