/*
 * remote_mem.h - the analytical remote-memory model for MEM_LOAD and
 * MEM_STORE nodes (shared/spec/simulator.md section 7): per-NPU expansion
 * (unlimited concurrency), per-node expansion (one request at a time per
 * node) and a memory pool (one at a time in the whole system).
 */
#ifndef VIMANA_SYSTEM_REMOTE_MEM_H
#define VIMANA_SYSTEM_REMOTE_MEM_H

#include <stdint.h>

#include "sim/sim.h"

int remote_mem_init(sim *s);
void remote_mem_fini(sim *s);
/* Starts a request of `bytes` for workload node `node` of NPU npu; the node
 * completes through workload_node_done(). */
void remote_mem_issue(sim *s, uint32_t npu, uint64_t bytes, uint32_t node);

#endif
