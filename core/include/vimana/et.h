/*
 * vimana/et.h - read, write and build Chakra execution traces (ETs).
 *
 * A Chakra ET file holds one NPU's work: a GlobalMetadata record followed by
 * Node records (messages of Chakra's et_def.proto), each preceded by its
 * length as a protobuf varint.
 * This API reads such files node by node (plain or gzip), writes them with
 * the exact bytes the reference Python tools produce, and gives typed,
 * leniently coerced access to node attributes.
 *
 * Memory rules: views returned by a reader (vet_node, vet_metadata and
 * everything they point to) belong to the reader and stay valid until the
 * next vet_reader_next() or vet_reader_close(). A builder owns the node it
 * builds until vet_builder_reset() or vet_builder_free().
 *
 * Errors: functions that can fail take a vet_error; on failure it holds one
 * line naming the file, the record (0 = metadata, k = k-th node) with its
 * byte offset, and what is wrong.
 */
#ifndef VIMANA_ET_H
#define VIMANA_ET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Node types (Chakra NodeType). */
enum vet_node_type {
    VET_INVALID_NODE = 0,
    VET_METADATA_NODE = 1,
    VET_MEM_LOAD_NODE = 2,
    VET_MEM_STORE_NODE = 3,
    VET_COMP_NODE = 4,
    VET_COMM_SEND_NODE = 5,
    VET_COMM_RECV_NODE = 6,
    VET_COMM_COLL_NODE = 7,
};
#define VET_NODE_TYPE_MAX VET_COMM_COLL_NODE

/* Collective types, carried by the `comm_type` attribute. */
enum vet_coll_type {
    VET_ALL_REDUCE = 0,
    VET_REDUCE = 1,
    VET_ALL_GATHER = 2,
    VET_GATHER = 3,
    VET_SCATTER = 4,
    VET_BROADCAST = 5,
    VET_ALL_TO_ALL = 6,
    VET_REDUCE_SCATTER = 7,
    VET_REDUCE_SCATTER_BLOCK = 8,
    VET_BARRIER = 9,
};
#define VET_COLL_TYPE_MAX VET_BARRIER

/* Which member of the attribute's value oneof is set. The numbers are the
 * protobuf field numbers, so they never change. */
enum vet_value_kind {
    VET_VALUE_NONE = 0,
    VET_DOUBLE = 3, VET_DOUBLE_LIST = 4,
    VET_FLOAT = 5, VET_FLOAT_LIST = 6,
    VET_INT32 = 7, VET_INT32_LIST = 8,
    VET_INT64 = 9, VET_INT64_LIST = 10,
    VET_UINT32 = 11, VET_UINT32_LIST = 12,
    VET_UINT64 = 13, VET_UINT64_LIST = 14,
    VET_SINT32 = 15, VET_SINT32_LIST = 16,
    VET_SINT64 = 17, VET_SINT64_LIST = 18,
    VET_FIXED32 = 19, VET_FIXED32_LIST = 20,
    VET_FIXED64 = 21, VET_FIXED64_LIST = 22,
    VET_SFIXED32 = 23, VET_SFIXED32_LIST = 24,
    VET_SFIXED64 = 25, VET_SFIXED64_LIST = 26,
    VET_BOOL = 27, VET_BOOL_LIST = 28,
    VET_STRING = 29, VET_STRING_LIST = 30,
    VET_BYTES = 31, VET_BYTES_LIST = 32,
};

/* A byte string (bytes_val and bytes_list elements). */
typedef struct vet_bytes {
    size_t len;
    const uint8_t *data;
} vet_bytes;

/* A list value: `n` elements of the C type the kind implies:
 * double, float, int32_t (INT32, SINT32, SFIXED32), int64_t (INT64, SINT64,
 * SFIXED64), uint32_t (UINT32, FIXED32), uint64_t (UINT64, FIXED64),
 * int (BOOL: 0 or 1), const char * (STRING), vet_bytes (BYTES). */
typedef struct vet_list {
    size_t n;
    const void *items;
} vet_list;

/* One named, typed attribute. `doc_string` is "" when absent. */
typedef struct vet_attr {
    const char *name;
    const char *doc_string;
    enum vet_value_kind kind;
    union {
        double d;        /* DOUBLE */
        float f;         /* FLOAT */
        int32_t i32;     /* INT32, SINT32, SFIXED32 */
        int64_t i64;     /* INT64, SINT64, SFIXED64 */
        uint32_t u32;    /* UINT32, FIXED32 */
        uint64_t u64;    /* UINT64, FIXED64 */
        bool b;          /* BOOL */
        const char *s;   /* STRING */
        vet_bytes bytes; /* BYTES */
        vet_list list;   /* every *_LIST kind */
    } v;
} vet_attr;

/* Node.inputs / Node.outputs (Python str() renderings of host-trace lists). */
typedef struct vet_io {
    const char *values;
    const char *shapes;
    const char *types;
} vet_io;

/* One node. `type` is kept as read, so values outside enum vet_node_type
 * can be reported; the reader refuses them. inputs/outputs are NULL when the
 * record does not carry them. */
typedef struct vet_node {
    uint64_t id;
    const char *name;
    int32_t type;
    size_t n_ctrl_deps;
    const uint64_t *ctrl_deps;
    size_t n_data_deps;
    const uint64_t *data_deps;
    uint64_t start_time_micros;
    uint64_t duration_micros;
    const vet_io *inputs;
    const vet_io *outputs;
    size_t n_attrs;
    const vet_attr *attrs;
} vet_node;

/* The GlobalMetadata record that opens every file. */
typedef struct vet_metadata {
    const char *version;
    size_t n_attrs;
    const vet_attr *attrs;
} vet_metadata;

typedef struct vet_error {
    char msg[512];
} vet_error;

/* ---- names --------------------------------------------------------------- */

/* "COMP_NODE", ... or NULL for a value outside the enum. */
const char *vet_node_type_name(int32_t type);
/* Parses "COMP_NODE" (also "COMP"); returns -1 when unknown. */
int32_t vet_node_type_from_name(const char *name);
/* "ALL_REDUCE", ... or NULL. */
const char *vet_coll_type_name(int64_t type);
int64_t vet_coll_type_from_name(const char *name);
/* "int64_val", "bool_list", ... (the protobuf field name) or NULL. */
const char *vet_value_kind_name(enum vet_value_kind kind);
/* Parses a protobuf field name; VET_VALUE_NONE when unknown. */
enum vet_value_kind vet_value_kind_from_name(const char *name);
/* True for the *_LIST kinds. */
bool vet_value_kind_is_list(enum vet_value_kind kind);
/* The size of one element of a *_LIST kind's items array (the C type
 * vet_list gives it: int for bool_list, vet_bytes for bytes_list, ...);
 * 0 for a kind that is not a list. For code that builds a vet_list. */
size_t vet_list_item_size(enum vet_value_kind kind);

/* ---- reading ------------------------------------------------------------- */

typedef struct vet_reader vet_reader;

/* Opens a trace (gzip detected by its magic bytes) and reads its
 * GlobalMetadata. Returns NULL with `err` set on failure, including files
 * written with the pre-0.0.4 (proto2-era) schema, and paths that are not
 * regular files ("PATH: is a directory, expected a file", "PATH: not a
 * regular file (character device)"), which are refused before any read. */
vet_reader *vet_reader_open(const char *path, vet_error *err);
const vet_metadata *vet_reader_metadata(const vet_reader *r);
/* Reads the next node: 1 and *out set, 0 at a clean end of file, -1 on
 * error (truncation, corrupt record, unknown node type). */
int vet_reader_next(vet_reader *r, const vet_node **out, vet_error *err);
/* By default vet_reader_next() refuses a node whose type is outside enum
 * vet_node_type. Tools that report such nodes themselves (validate) or copy
 * them losslessly (json) turn that check off; node->type then holds the
 * value as read. */
void vet_reader_accept_unknown_types(vet_reader *r, bool accept);
/* Index of the last record read (0 = metadata, k = k-th node). */
uint64_t vet_reader_record(const vet_reader *r);
/* Byte offset (in the uncompressed stream) of the last record's length. */
uint64_t vet_reader_offset(const vet_reader *r);
/* Number of zero-length records read so far. They decode as all-default
 * nodes, but Python readers stop at them, so tools warn about them. */
uint64_t vet_reader_empty_records(const vet_reader *r);
void vet_reader_close(vet_reader *r);

/* ---- writing ------------------------------------------------------------- */

typedef struct vet_writer vet_writer;

/* Creates `path` (gzip-compressed when it ends in ".gz"). */
vet_writer *vet_writer_open(const char *path, vet_error *err);
int vet_writer_put_metadata(vet_writer *w, const vet_metadata *md, vet_error *err);
int vet_writer_put_node(vet_writer *w, const vet_node *node, vet_error *err);
/* Flushes and closes; returns -1 if any write failed. Frees `w` always. */
int vet_writer_close(vet_writer *w, vet_error *err);

/* Serialises one record (without the length prefix) into a malloc'd
 * buffer; the caller frees *out. Returns 0, or -1 on allocation failure. */
int vet_encode_node(const vet_node *node, uint8_t **out, size_t *len);
int vet_encode_metadata(const vet_metadata *md, uint8_t **out, size_t *len);

/* ---- attributes ---------------------------------------------------------- */

enum vet_attr_status {
    VET_ATTR_OK = 0,
    VET_ATTR_ABSENT = 1,  /* no attribute of that name: the default was stored */
    VET_ATTR_BADTYPE = 2, /* present, but its kind cannot be read as asked */
};

/* First attribute named `name`, or NULL. */
const vet_attr *vet_node_attr(const vet_node *node, const char *name);
const vet_attr *vet_find_attr(const vet_attr *attrs, size_t n, const char *name);

/* Typed reads with the feeder's coercion rules: any integer kind (bool
 * included) converts to any integer type; integers and floats convert to
 * double; floats never convert to integers; strings only read as strings.
 * A negative value read as unsigned, or an out-of-range value, is BADTYPE. */
enum vet_attr_status vet_attr_int64(const vet_attr *a, int64_t *out);
enum vet_attr_status vet_attr_uint64(const vet_attr *a, uint64_t *out);
enum vet_attr_status vet_attr_bool(const vet_attr *a, bool *out);
enum vet_attr_status vet_attr_double(const vet_attr *a, double *out);
enum vet_attr_status vet_attr_string(const vet_attr *a, const char **out);

/* Same, looked up by name on a node; `dflt` is stored when absent. */
enum vet_attr_status vet_node_int64(const vet_node *n, const char *name, int64_t dflt, int64_t *out);
enum vet_attr_status vet_node_uint64(const vet_node *n, const char *name, uint64_t dflt, uint64_t *out);
enum vet_attr_status vet_node_bool(const vet_node *n, const char *name, bool dflt, bool *out);
enum vet_attr_status vet_node_double(const vet_node *n, const char *name, double dflt, double *out);
enum vet_attr_status vet_node_string(const vet_node *n, const char *name, const char *dflt, const char **out);

/* ---- building ------------------------------------------------------------ */

/* A builder assembles one node (or one metadata record) in memory it owns;
 * strings and arrays passed in are copied. Reuse it with vet_builder_reset()
 * to build many nodes without further allocation. */
typedef struct vet_builder vet_builder;

vet_builder *vet_builder_new(void);
void vet_builder_free(vet_builder *b);
/* Starts a new node; everything added before is dropped. */
void vet_builder_reset(vet_builder *b, uint64_t id, const char *name, enum vet_node_type type);
void vet_builder_set_duration(vet_builder *b, uint64_t micros);
void vet_builder_set_start_time(vet_builder *b, uint64_t micros);
void vet_builder_add_data_dep(vet_builder *b, uint64_t parent);
void vet_builder_add_ctrl_dep(vet_builder *b, uint64_t parent);
void vet_builder_set_inputs(vet_builder *b, const char *values, const char *shapes, const char *types);
void vet_builder_set_outputs(vet_builder *b, const char *values, const char *shapes, const char *types);
/* Appends a deep copy of any attribute (attribute order is kept on write). */
void vet_builder_add_attr(vet_builder *b, const vet_attr *a);
void vet_builder_attr_bool(vet_builder *b, const char *name, bool v);
void vet_builder_attr_int32(vet_builder *b, const char *name, int32_t v);
void vet_builder_attr_int64(vet_builder *b, const char *name, int64_t v);
void vet_builder_attr_uint64(vet_builder *b, const char *name, uint64_t v);
void vet_builder_attr_double(vet_builder *b, const char *name, double v);
void vet_builder_attr_string(vet_builder *b, const char *name, const char *v);
void vet_builder_attr_bool_list(vet_builder *b, const char *name, const bool *v, size_t n);
/* The node as built so far; valid until the next reset or free. */
const vet_node *vet_builder_node(const vet_builder *b);
/* Metadata built from the builder's name (as version) and attributes:
 * vet_builder_reset(b, 0, "0.0.4", 0) then add attributes. */
const vet_metadata *vet_builder_metadata(vet_builder *b);
/* True when an allocation failed since the last reset (the node is then
 * incomplete and must not be written). */
bool vet_builder_failed(const vet_builder *b);
/* Copies a string into the builder's memory (lives until reset/free). */
const char *vet_builder_strdup(vet_builder *b, const char *s, size_t len);

/* ---- sizes --------------------------------------------------------------- */

/* Parses "1048576", "1MiB", "64KiB", "1MB", "2GB", "512B" into bytes
 * (KiB/MiB/GiB = 2^10.., KB/MB/GB = 10^3..; K/M/G alone = binary).
 * Returns 0 on success, -1 if malformed or out of range. */
int vet_parse_size(const char *text, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* VIMANA_ET_H */
