/*
 * cc_kineto.h - GEMM measurements from a Kineto trace (PyTorch profiler,
 * record_shapes=True): each aten::mm / aten::addmm of 16-bit inputs with
 * its shape from "Input Dims" and its time, the summed duration of the GPU
 * kernels it launched (a split-K GEMM's reduction kernel included). Calls
 * of one shape become one row, the median of their times, named by the
 * traceEvents index of the first call.
 */
#ifndef VIMANA_TOOLS_CC_KINETO_H
#define VIMANA_TOOLS_CC_KINETO_H

#include <stddef.h>

#include "calibrate_compute/cc_table.h"

typedef struct cc_kineto_stats {
    size_t calls;          /* 16-bit GEMM calls used */
    size_t shapes;         /* rows they became */
    size_t other_dtype;    /* GEMM calls of other types (fp32, fp8...): not fitted */
    size_t no_shape;       /* GEMM calls without usable Input Dims (record_shapes off?) */
} cc_kineto_stats;

/* Whether `path` names a Kineto trace (.json or .json.gz), not a CSV table. */
int cc_kineto_is_trace(const char *path);

/* Appends the rows of the trace at `path`. Returns 0, or -1 with one line
 * in msg (the trace's own errors, or "no 16-bit GEMM with its shape"). */
int cc_kineto_read(const char *path, cc_table *t, cc_kineto_stats *st, char *msg, size_t len);

#endif
