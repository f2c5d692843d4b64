/*
 * kineto_trace.h - the Kineto device trace (chakra-tools.md §5) reduced to
 * the events the linker uses, classified as the reference does (§6 step 2):
 *
 *   CPU op     cat cpu_op or user_annotation, name without "ProfilerStep"
 *   launch     cat cuda_runtime/cuda_driver, name a kernel-launch or memcpy
 *              call (cudaLaunchKernel, cuLaunchKernelEx, hipLaunchKernel...)
 *   GPU op     cat kernel or gpu_memcpy (gpu_memset is counted, not used)
 *   sync       cat cuda_runtime/cuda_driver, a device/stream/event
 *              synchronize call (input of the sync-dependency rule)
 *
 * CPU and GPU ops are sorted by ts, ties in file order (Python's stable sort
 * of the reference). Thread ids are numbered densely; the CPU ops of each
 * thread are also listed per thread.
 */
#ifndef VIMANA_TRACE_LINK_KINETO_TRACE_H
#define VIMANA_TRACE_LINK_KINETO_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_link/diag.h"
#include "trace_link/input_file.h"
#include "trace_link/json_scan.h"
#include "trace_link/pynum.h"

#define K_NONE UINT32_MAX

enum {
    K_HAS_RF = 1u << 0,       /* args "Record function id" */
    K_HAS_EXT = 1u << 1,      /* args "External id" */
    K_HAS_INTER = 1u << 2,    /* inter_rf is set (inter-thread dependency) */
    K_COALESCED = 1u << 3,    /* CPU op named nccl:coalesced */
    K_NCCL = 1u << 4,         /* GPU op whose name contains "nccl" (any case) */
    K_NCCL_DEV = 1u << 5,     /* GPU op whose name contains "ncclDevKernel" */
};

typedef struct k_cpu_op {
    pynum ts, dur, excl;      /* excl: exclusive duration (exclusive_dur.c) */
    int64_t rf_id, ext_id;
    int64_t inter_rf;         /* rf id of the inter-thread dependency */
    size_t name_off;
    uint32_t name_len;
    uint32_t tid;             /* dense thread index */
    uint32_t seq;             /* index in traceEvents */
    uint32_t flags;
    uint32_t host;            /* host node linked to this op (link_plan.c) */
    tl_span input_dims, input_types;   /* args "Input Dims", "Input type" as JSON text; len 0 = absent */
} k_cpu_op;

typedef struct k_launch {
    pynum ts;
    int64_t correlation;
    uint32_t tid;
    uint32_t seq;
} k_launch;

typedef struct k_gpu_op {
    pynum ts, dur;
    int64_t correlation, ext_id;
    size_t name_off;
    uint32_t name_len;
    uint32_t seq;
    uint32_t flags;
    uint32_t launcher;        /* CPU op index (gpu_launcher.c), or K_NONE */
    bool is_memcpy;           /* cat gpu_memcpy (else kernel) */
    tl_span ph, stream, pg_name;   /* raw values; len 0 = absent */
} k_gpu_op;

typedef struct k_sync {
    pynum ts, dur;
    uint32_t tid;
    uint32_t seq;
    bool device_wide;         /* device synchronize: waits for every stream */
    tl_span stream;           /* args stream, when the event names one */
} k_sync;

typedef struct kineto_trace {
    const char *path;
    tl_buffer text;
    k_cpu_op *cpu;
    size_t n_cpu;
    k_launch *launch;
    size_t n_launch;
    k_gpu_op *gpu;
    size_t n_gpu;
    k_sync *sync;
    size_t n_sync;
    size_t n_threads;
    uint32_t *thread_begin;   /* n_threads + 1 offsets into thread_ops */
    uint32_t *thread_ops;     /* CPU op indices, per thread, in ts order */
    uint32_t *thread_rank;    /* order of first appearance among CPU ops */
    size_t n_events;
    size_t n_cpu_with_rf;
    size_t n_memset;          /* gpu_memset events (not linked) */
    bool has_profiler_step;
    bool has_rank;
    int64_t rank;             /* distributedInfo.rank */
} kineto_trace;

int kineto_trace_load(kineto_trace *k, const char *path, tl_diag *d);
void kineto_trace_free(kineto_trace *k);

/* Printable name of an event ("" when absent), at most `max` bytes. */
int kineto_name_width(uint32_t len, int max);

/* The CPU ops of thread `tid` (indices into cpu, in ts order); *n gets
 * their number, 0 for a tid that has no CPU op. */
const uint32_t *kineto_thread_ops(const kineto_trace *k, uint32_t tid, size_t *n);
/* Position of the first of ops[0..n) (CPU ops in ts order) whose ts is
 * not below t; n when there is none. */
size_t kineto_ops_lower_bound(const kineto_trace *k, const uint32_t *ops, size_t n, pynum t);

#endif
