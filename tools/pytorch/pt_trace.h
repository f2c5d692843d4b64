/*
 * pt_trace.h - a PyTorch host execution trace (or trace_link's "ET+"
 * output) as the reference converter sees it (the reference's behaviour, docs/vimana-et.md): the
 * metadata, every node with the fields the
 * converter reads (a node's `attrs` entries override same-named fields, as
 * the reference's setattr() does), its classification, and the parent /
 * child links.
 *
 * The parsed document stays alive inside the trace; nodes point into it.
 * Only what the reference checks for every node is checked here (required
 * keys, id, name); fields used only when a node is converted are checked by
 * the conversion, so traces the reference accepts are accepted.
 */
#ifndef VIMANA_PYTORCH_PT_TRACE_H
#define VIMANA_PYTORCH_PT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/idmap.h"
#include "pytorch/pt_error.h"
#include "pytorch/pyjson.h"

#define PT_NONE UINT32_MAX

/* The reference's PyTorchNodeType (LABEL never occurs: `outputs` is
 * required, so every non-GPU, non-metadata node is a CPU op). */
enum pt_op_kind {
    PT_CPU_OP = 1,
    PT_GPU_OP = 2,
    PT_METADATA_OP = 4,
};

/* Fields of a node, filled from the node's keys and then from its attrs. */
enum pt_field_id {
    PT_F_NAME,
    PT_F_PARENT, /* key "ctrl_deps", attr "parent" */
    PT_F_INPUTS,
    PT_F_OUTPUTS,
    PT_F_INCLUSIVE_DUR,
    PT_F_EXCLUSIVE_DUR,
    PT_F_TS,
    PT_F_INTER_THREAD_DEP,
    PT_F_SYNC_DEP,
    PT_F_CAT,
    PT_F_STREAM,
    PT_F_PG_NAME,
    PT_F_RF_ID,
    PT_F_FW_PARENT,
    PT_F_SEQ_ID,
    PT_F_SCOPE,
    PT_F_TID,
    PT_F_FW_TID,
    PT_F_OP_SCHEMA,
    PT_FIELD_COUNT
};

typedef struct pt_node {
    uint64_t id;
    const char *name;
    uint32_t parent;          /* index of the parent node, or PT_NONE */
    bool parent_missing;      /* ctrl_deps is an id that names no node */
    enum pt_op_kind kind;
    bool is_gpu;              /* has a non-null `cat` (is_cpu_op = !is_gpu) */
    bool is_record_param_comms;
    bool is_nccl;
    bool is_thread_root;
    const pj_value *attrs;    /* the raw `attrs` list, or NULL */
    const pj_value *field[PT_FIELD_COUNT]; /* NULL when absent */
} pt_node;

typedef struct pt_metadata {
    const char *schema;
    uint64_t pid;
    const char *time;
    uint64_t start_ts;
    uint64_t finish_ts;
} pt_metadata;

typedef struct pt_trace {
    const char *path;
    pj_doc doc;
    pt_metadata meta;
    pt_node *nodes;          /* in JSON order */
    uint32_t n_nodes;
    idmap index_of;             /* id -> index into nodes */
    uint32_t *by_id;         /* node indices in ascending id order */
    uint32_t *child_off;     /* n_nodes + 1 offsets into child */
    uint32_t *child;         /* children of each node, ascending id */
    uint32_t *gpu_child_off; /* n_nodes + 1 offsets into gpu_child */
    uint32_t *gpu_child;     /* GPU children of each node, JSON order */
    uint32_t n_cpu, n_gpu, n_metadata, n_thread_roots;
} pt_trace;

/* Field names as the reference spells them (for messages). */
const char *pt_field_name(enum pt_field_id f);

/* Loads `path` (JSON or gzip'd JSON). On failure the trace is left empty
 * and err holds one line naming the file and the record. */
int pt_trace_load(pt_trace *t, const char *path, pt_error *err);
/* Same from JSON text in memory; `path` names it in messages. */
int pt_trace_parse(pt_trace *t, const char *path, const char *text, size_t len, pt_error *err);
void pt_trace_free(pt_trace *t);

/* Index of the node with this id, or PT_NONE. */
uint32_t pt_trace_find(const pt_trace *t, uint64_t id);
/* The "value" of the node's last attrs entry named `name`, or NULL. */
const pj_value *pt_node_attr(const pt_node *n, const char *name);

/* The schema versions the reference lists as supported. */
extern const char *const pt_supported_schemas[];

#endif
