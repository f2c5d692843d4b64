/*
 * text_groups.h - the communicator groups of HYBRID_TRANSFORMER and
 * HYBRID_TRANSFORMER_FWD_IN_BCKWD.
 *
 * With --model-parallel-npu-group N over P NPUs, the NPUs form P/N
 * model-parallel groups of N consecutive ranks ({0..N-1}, {N..2N-1}, ...)
 * and N data-parallel groups of the ranks with the same index in every
 * model-parallel group ({0, N, 2N, ...}, {1, N+1, ...}, ...). Forward and
 * input-gradient collectives run on the NPU's model-parallel group,
 * weight-gradient collectives on its data-parallel group. Group ids (the
 * `pg_name` of a collective and the keys of PREFIX.groups.json): 1 .. P/N
 * for the model-parallel groups, P/N + 1 .. P/N + N for the data-parallel
 * ones.
 */
#ifndef VIMANA_CONVERT_TEXT_GROUPS_H
#define VIMANA_CONVERT_TEXT_GROUPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "text_workload.h"

/* Takes the model-parallel group size from line 1's
 * `model_parallel_NPU_group: G` (ASTRA-sim 1.0's own key) when
 * --model-parallel-npu-group was not given; warns on `warnings` when both
 * are given and differ (the option wins). Needs w->npus. Returns 0, or -1
 * with `err` set (a malformed G, or a G that does not divide the NPUs). */
int text_groups_resolve(struct text_workload *w, FILE *warnings, struct text_error *err);
/* Checks that the HYBRID_TRANSFORMER modes have a model-parallel group
 * size and no other mode has one. Returns 0, or -1 with `err` set. */
int text_groups_check(const struct text_workload *w, struct text_error *err);
/* Whether the workload's collectives run on communicator groups. */
bool text_groups_used(const struct text_workload *w);
/* Members of the group a collective of `phase` runs on (the same for every
 * NPU); a group of one NPU needs no collective. */
uint64_t text_group_size(const struct text_workload *w, enum text_phase phase);
/* Id of the group NPU `npu` runs the collectives of `phase` on. */
uint64_t text_group_id(const struct text_workload *w, enum text_phase phase, uint64_t npu);
/* Writes PREFIX.groups.json with every group of two or more NPUs. Returns 0,
 * or -1 with `err` set and no file left behind. */
int text_groups_write(const struct text_workload *w, const char *prefix, struct text_error *err);
/* "PREFIX.groups.json" (malloc'ed), or NULL when out of memory. */
char *text_groups_path(const char *prefix);

#endif
