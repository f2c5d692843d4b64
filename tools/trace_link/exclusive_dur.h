/*
 * exclusive_dur.h - exclusive durations of Kineto CPU ops (chakra-tools.md
 * §6 step 3).
 *
 * Per thread, ops are ordered by (ts, dur) (ties in ts order). An op's
 * exclusive duration is its duration minus the length of the union of the
 * intervals of the ops *after it in that order* that lie inside it. (So a
 * child that starts at the same ts as its parent, being shorter, sorts first
 * and is not subtracted from the parent: a reference quirk kept for equal
 * numbers.) Arithmetic follows Python's int/float rules in the reference's
 * order.
 *
 * The reference scans every later op that starts inside each op; here each
 * op's range of contained ops is computed once and skipped over as a whole
 * when it is properly nested, which makes the pass linear on real traces
 * (whose CPU ops on one thread nest like a call stack) while giving the same
 * result on any input.
 */
#ifndef VIMANA_TRACE_LINK_EXCLUSIVE_DUR_H
#define VIMANA_TRACE_LINK_EXCLUSIVE_DUR_H

#include "trace_link/diag.h"
#include "trace_link/kineto_trace.h"

/* Sets excl of every CPU op; fails (like the reference) when a result is
 * negative. */
int exclusive_durations(kineto_trace *k, tl_diag *d);

#endif
