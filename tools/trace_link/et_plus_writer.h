/*
 * et_plus_writer.h - writes the linked trace ("ET+", chakra-tools.md §6
 * step 9) as the reference's json.dump(indent=4) would.
 *
 * The host trace's top-level members keep their order; "nodes" becomes the
 * host nodes in id order, each followed by its GPU op nodes. A node keeps
 * its keys in their original order with rewritten values in place (id,
 * ctrl_deps, and for GPU ops name, durations, ts ...) and new keys appended
 * in the order Python's dict would have them:
 *
 *   linked host node  ... inclusive_dur, exclusive_dur, ts, inter_thread_dep
 *                     [, sync_dep]
 *   GPU op node       the host node's keys (without sync_dep), then cat, ph,
 *                     stream [, pg_name for ncclDevKernel* with a process
 *                     group]; ctrl_deps = its host node
 */
#ifndef VIMANA_TRACE_LINK_ET_PLUS_WRITER_H
#define VIMANA_TRACE_LINK_ET_PLUS_WRITER_H

#include "trace_link/diag.h"
#include "trace_link/host_trace.h"
#include "trace_link/kineto_trace.h"
#include "trace_link/link_plan.h"
#include "trace_link/py_json_out.h"

void et_plus_write(tl_out *out, const host_trace *h, const kineto_trace *k, const link_plan *p);

#endif
