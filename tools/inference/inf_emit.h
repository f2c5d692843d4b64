/*
 * inf_emit.h - the node emitter both inference writers build on: the
 * fixed-batch trace (inf_write.c) and the serving trace
 * (inf_serving_write.c) share the node layout - a chain of compute nodes,
 * Megatron's TP all-reduces, the pipeline's SEND/RECV - not their steps.
 * Nodes are encoded with the training generator's protobuf encoder
 * (tf_pb.h).
 */
#ifndef VIMANA_TOOLS_INF_EMIT_H
#define VIMANA_TOOLS_INF_EMIT_H

#include <stdint.h>
#include <stdio.h>

#include "inference/inf_model.h"
#include "transformer/tf_pb.h"
#include "vimana/et.h"

/* The rank being written: its place, the chain's last node, the file. */
struct inf_emit {
    const struct inf_config *c;
    uint64_t base;      /* the group's first rank: 0, or T * P for a disaggregated decode group */
    uint64_t t, p;      /* TP rank and pipeline stage in the group */
    char tp_pg[24];     /* the stage's TP communicator, "1 + p" (the decode group's "1 + P + p") */
    FILE *fp;
    struct tf_pb_node rec;
    uint64_t next_id, last;
    int has_last, failed;
};

/* Rank `rank` of c, writing to fp: the METADATA record first. 0, or -1.
 * Ranks from T * P on are a second group of the same layout (the decode
 * group of a disaggregated serving trace). */
int inf_emit_begin(struct inf_emit *e, const struct inf_config *c, uint64_t rank, FILE *fp);
/* The rank of this TP position at stage `stage` of the group. */
uint64_t inf_emit_rank(const struct inf_emit *e, uint64_t stage);
/* Starts a GPU node depending on the chain's last node. */
void inf_emit_start(struct inf_emit *e, const char *name, enum vet_node_type type, uint64_t micros);
/* Writes the node being built; `on_chain` makes it the next node's parent
 * (not a SEND, which travels while the stage computes on, nor a marker). */
void inf_emit_finish(struct inf_emit *e, int on_chain);
/* A compute node of `micros` with its FLOPs and bytes. */
void inf_emit_comp(struct inf_emit *e, const char *name, uint64_t micros, uint64_t flops, uint64_t bytes);
/* Megatron's all-reduce after the row-parallel GEMM of a block,
 * "tp_all_reduce_<what>"; none when T = 1. */
void inf_emit_tp_all_reduce(struct inf_emit *e, const char *what, uint64_t bytes);
/* A SEND to or RECV from `peer` (only a RECV joins the chain). */
void inf_emit_p2p(struct inf_emit *e, const char *name, enum vet_node_type type, uint64_t peer, uint64_t tag,
                  uint64_t bytes);

#endif
