/*
 * text_graphs.h - one NPU's node graph for each converted mode
 * (docs/convert-text.md describes every graph).
 */
#ifndef VIMANA_CONVERT_TEXT_GRAPHS_H
#define VIMANA_CONVERT_TEXT_GRAPHS_H

#include <stdbool.h>
#include <stdint.h>

#include "text_plan.h"
#include "text_workload.h"

/* Builds the plan of `passes` passes over the workload's layers. Returns 0,
 * or -1 with `err` set (out of memory) and nothing to free. */
int text_build_plan(const struct text_workload *w, uint64_t passes, bool omit_none, struct plan *p,
                    struct text_error *err);

#endif
