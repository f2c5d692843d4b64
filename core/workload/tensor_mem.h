/*
 * tensor_mem.h - the tensors a trace's nodes write and read, and an NPU's
 * peak live tensor bytes after the run (docs/simulator.md, "Peak tensor
 * memory").
 *
 * A node names them in its "inputs" (read) and "outputs" (written)
 * attributes, string lists of name and size in bytes, in turn, as
 * Symbolic-Tensor-Graph traces carry them. A tensor is live from the start
 * of the node that writes it (from t = 0 when none does) to the end of the
 * last node that reads it (to the NPU's finish when none does); an NPU's
 * peak is the most bytes live at one tick, the tensors ending at a tick
 * already gone - what the reference's local-memory tracker measures.
 *
 * Names are interned per trace into dense ids while it loads; the run
 * itself touches none of this (the peak is computed from the nodes' start
 * and end ticks once the NPU has finished).
 */
#ifndef VIMANA_WORKLOAD_TENSOR_MEM_H
#define VIMANA_WORKLOAD_TENSOR_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/et.h"

struct workload;

/* A trace's tensors. A node's `io` offset (0: it names none) points into
 * `io` at its count, then that many entries tensor << 1 | written. */
typedef struct wl_tensors {
    uint32_t *io;
    uint32_t io_len;
    uint64_t *size;      /* [n]: bytes, as the writer (else the first reader) gives it */
    uint32_t n;
} wl_tensors;

/* At most this many bytes a tensor (2^50: a PiB), so that sums stay exact. */
#define WL_TENSOR_MAX_BYTES (1ull << 50)

typedef struct wl_tensor_builder wl_tensor_builder;

/* NULL when out of memory. */
wl_tensor_builder *wl_tensor_builder_new(void);
void wl_tensor_builder_free(wl_tensor_builder *b);
/* Reads node n's "inputs" and "outputs" into the table; *io gets the
 * node's offset (0 when it names no tensor). Returns 0, or -1 with one
 * line in err ("attribute outputs: ..."; the caller names file and node). */
int wl_tensor_builder_add(wl_tensor_builder *b, const vet_node *n, uint32_t *io, char *err, size_t err_len);
/* Hands the table over to *out (empty when no node named a tensor) and
 * resets the builder. */
void wl_tensor_builder_finish(wl_tensor_builder *b, wl_tensors *out);
void wl_tensors_free(wl_tensors *t);
/* Whether nodes naming tensors at offsets ia of a and ib of b name the
 * same ones (ids, sizes and directions). */
bool wl_tensors_same_io(const wl_tensors *a, uint32_t ia, const wl_tensors *b, uint32_t ib);

/* The peak live tensor bytes of NPU w, which has finished (its nodes'
 * start and end ticks stamped). Returns 0, or -1 when out of memory. */
int wl_tensor_peak(const struct workload *w, uint64_t *peak);

#endif
