/*
 * remote_mem.h - the analytical remote-memory model for MEM_LOAD and
 * MEM_STORE nodes (the reference's behaviour, docs/simulator.md): per-NPU expansion
 * (unlimited concurrency), per-node expansion (one request at a time per
 * node) and a memory pool (one at a time in the whole system).
 */
#ifndef VIMANA_SYSTEM_REMOTE_MEM_H
#define VIMANA_SYSTEM_REMOTE_MEM_H

#include <stdint.h>

#include "system/context.h"

/* One access of `bytes` by NPU npu. */
typedef struct mem_access {
    uint32_t npu;
    uint64_t bytes;
    /* The requesting node, for error messages. */
    const char *trace;
    uint64_t node_id;
    const char *node_name;
    sim_done done;               /* runs when the access has finished */
} mem_access;

int remote_mem_init(sim *s);
void remote_mem_fini(sim *s);
/* Starts an access; a refused one fails the run (sim_fail) and never
 * completes. */
void remote_mem_issue(sim *s, const mem_access *a);

#endif
