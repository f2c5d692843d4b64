/*
 * pt_write.h - step 8 of the PyTorch converter: write the Chakra ET
 * (GlobalMetadata, then the kept nodes sorted by id) with the bytes the
 * reference Python converter writes.
 */
#ifndef VIMANA_PYTORCH_PT_WRITE_H
#define VIMANA_PYTORCH_PT_WRITE_H

#include "pytorch/pt_error.h"
#include "pytorch/pt_graph.h"

/* Writes `path` (gzip when it ends in ".gz"); returns the number of nodes
 * written, or -1 with err set. */
long pt_write_et(const pt_graph *g, const char *path, pt_error *err);

#endif
