/*
 * gpu_launcher.h - which Kineto CPU op launched each GPU op
 * (chakra-tools.md §6 step 7).
 *
 * A GPU op's `correlation` names its launch call (cudaLaunchKernel...); the
 * GPU op takes that call's thread. Among the CPU ops of that thread that
 * started strictly before the call - skipping "nccl:coalesced" for NCCL
 * kernels - the launcher is the latest one with the GPU op's External id,
 * else simply the latest one.
 *
 * Hash maps from correlation and External id replace the reference's
 * backward scans, and each GPU op is attached to that one CPU op (the
 * reference files it under the op's External id, which is the same thing
 * unless External ids repeat).
 */
#ifndef VIMANA_TRACE_LINK_GPU_LAUNCHER_H
#define VIMANA_TRACE_LINK_GPU_LAUNCHER_H

#include <stddef.h>

#include "trace_link/diag.h"
#include "trace_link/kineto_trace.h"

typedef struct launcher_stats {
    size_t no_launch_call;   /* correlation matches no launch call */
    size_t no_cpu_op;        /* no CPU op before the call on its thread */
} launcher_stats;

/* Sets gpu[i].launcher; fails on a correlation shared by two launch calls
 * (as the reference does). */
int find_gpu_launchers(kineto_trace *k, launcher_stats *stats, tl_diag *d);

#endif
