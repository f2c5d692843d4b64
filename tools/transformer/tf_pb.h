/*
 * tf_pb.h - the protobuf bytes of the ET nodes `generate transformer`
 * writes, encoded straight into a fixed buffer (no allocation, no generic
 * attribute lists): the generator writes millions of nodes, and building each
 * through vet_builder + protobuf-c cost most of its time. The bytes are the
 * ones the ET library writes for the same node (proto3: ascending field
 * order, default scalars omitted, packed data_deps, a oneof value always
 * written); tests/unit/test_transformer_pb.c compares both.
 */
#ifndef VIMANA_TOOLS_TF_PB_H
#define VIMANA_TOOLS_TF_PB_H

#include <stddef.h>
#include <stdint.h>

/* Node names and strings are under 128 bytes and a node has at most
 * TF_PB_MAX_DEPS data deps and 4 attributes, so a node fits this. */
#define TF_PB_NODE_MAX 1024
#define TF_PB_MAX_DEPS 4
/* A framed record: the length varint (at most 10 bytes) and the node. */
#define TF_PB_RECORD_MAX (TF_PB_NODE_MAX + 10)

struct tf_pb_node {
    uint8_t b[TF_PB_NODE_MAX];
    size_t n;
};

/* Starts a node: id, name, type, data deps (in order) and duration; then
 * add its attributes in order with the calls below. */
void tf_pb_node_start(struct tf_pb_node *r, uint64_t id, const char *name, size_t name_len, int type,
                      const uint64_t *deps, size_t n_deps, uint64_t duration_micros);
void tf_pb_attr_bool(struct tf_pb_node *r, const char *name, int v);
void tf_pb_attr_int32(struct tf_pb_node *r, const char *name, int32_t v);
void tf_pb_attr_int64(struct tf_pb_node *r, const char *name, int64_t v);
void tf_pb_attr_uint64(struct tf_pb_node *r, const char *name, uint64_t v);
void tf_pb_attr_string(struct tf_pb_node *r, const char *name, const char *v);
/* A string_list attribute of n strings (the node must still fit TF_PB_NODE_MAX). */
void tf_pb_attr_string_list(struct tf_pb_node *r, const char *name, const char *const *v, size_t n);

/* Writes the record (length varint + node) to `out`, which has room for
 * TF_PB_RECORD_MAX bytes; returns the bytes written. */
size_t tf_pb_frame(const struct tf_pb_node *r, uint8_t *out);

#endif
