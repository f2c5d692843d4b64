/*
 * inter_thread.h - inter-thread order of Kineto CPU ops (chakra-tools.md §6
 * step 4).
 *
 * Within a thread, ops are grouped at its first op and after every idle gap
 * of more than 1000 us (ts - previous ts - previous dur > 1000). At each
 * group start the latest-starting CPU op of any other thread that started
 * strictly before it (and after time 0) is looked up; when it carries a
 * non-zero record-function id, every op of the group depends on it
 * (inter_rf). Ties go to the thread that appeared first, then to the
 * earlier op, as in the reference's dictionary walk.
 *
 * The reference scans all ops of all other threads per group; here each
 * other thread is binary-searched, O(groups x threads x log n).
 */
#ifndef VIMANA_TRACE_LINK_INTER_THREAD_H
#define VIMANA_TRACE_LINK_INTER_THREAD_H

#include "trace_link/diag.h"
#include "trace_link/kineto_trace.h"

#define INTER_THREAD_GAP_US 1000

int inter_thread_deps(kineto_trace *k, tl_diag *d);

#endif
