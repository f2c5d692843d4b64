/*
 * pt_sim.h - the reference converter's --simulate (docs/vimana-et.md): a
 * list scheduler whose clock advances 1 µs
 * per step, running one CPU node at a time and one GPU node per stream.
 * Vimana computes the same schedule event by event, jumping over steps in
 * which nothing can change, so long traces take time linear in their size
 * rather than in their simulated length.
 *
 * The reference's rules, which this reproduces exactly:
 *   - each step first issues the head of the ready CPU list (if the CPU is
 *     free), then, scanning the ready GPU list in order, every node whose
 *     stream is free; then the clock advances by 1;
 *   - a node issued at s completes at the first step end t with
 *     t - s >= duration (so a 0 µs node still holds its slot for 1 µs);
 *   - the children of the nodes issued in a step are released at the end
 *     of that same step (at issue, not at completion), in the iteration
 *     order of a CPython set of the issued ids, and join the ready lists;
 *   - the ready lists start with the dependency-free nodes sorted by id.
 */
#ifndef VIMANA_PYTORCH_PT_SIM_H
#define VIMANA_PYTORCH_PT_SIM_H

#include <stdint.h>

#include "pytorch/pt_error.h"
#include "pytorch/pt_graph.h"

typedef struct pt_sim_result {
    uint64_t end_us;      /* the clock when nothing is ready or running */
    uint32_t cpu_nodes;   /* nodes issued on the CPU */
    uint32_t gpu_nodes;   /* nodes issued on GPU streams */
    uint32_t streams;     /* distinct streams */
} pt_sim_result;

/* Simulates the kept nodes of a graph that passed the cycle check. */
int pt_simulate(const pt_graph *g, pt_sim_result *res, pt_error *err);

#endif
