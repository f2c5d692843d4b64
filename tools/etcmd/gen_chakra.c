/* chakra_generator's microbenchmarks (see the header). */
#include "etcmd/gen_chakra.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "vimana/et.h"

typedef struct gen {
    const struct gen_chakra_options *o;
    vet_builder *b;
    vet_writer *w;
    uint64_t next_id;      /* counted over every file, as the reference's one counter */
    vet_error err;
} gen;

static int put(gen *g)
{
    if (vet_builder_failed(g->b)) {
        snprintf(g->err.msg, sizeof g->err.msg, "out of memory");
        return -1;
    }
    return vet_writer_put_node(g->w, vet_builder_node(g->b), &g->err);
}

static void start(gen *g, const char *name, enum vet_node_type type)
{
    vet_builder_reset(g->b, g->next_id++, name, type);
}

/* ---- the test vector: one attribute of every value kind ------------------ */

static void attr(gen *g, const char *name, bool doc, enum vet_value_kind kind, vet_attr a)
{
    a.name = name;
    a.doc_string = doc ? name : "";
    a.kind = kind;
    vet_builder_add_attr(g->b, &a);
}

static void list(gen *g, const char *name, enum vet_value_kind kind, const void *items, size_t n)
{
    attr(g, name, false, kind, (vet_attr){.v.list = {.n = n, .items = items}});
}

static int metadata_node(gen *g)
{
    static const double doubles[] = {1.2345, 2.3456};
    static const float floats[] = {1.2345f, 2.3456f};
    static const int32_t i32s[] = {12345, 23456}, s32s[] = {12345, -23456};
    static const int64_t i64s[] = {9876543210, 1234567890}, s64s[] = {9876543210, -1234567890};
    static const uint32_t u32s[] = {12345, 23456};
    static const uint64_t u64s[] = {9876543210, 1234567890};
    static const int bools[] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    static const char *const strings[] = {"12345", "12346", "12347", "12348", "12349",
                                          "12350", "12351", "12352", "12353", "12354"};
    vet_bytes bytes[10];
    for (size_t i = 0; i < 10; i++)
        bytes[i] = (vet_bytes){.len = 5, .data = (const uint8_t *)strings[i]};
    start(g, "METADATA_NODE", VET_METADATA_NODE);
    attr(g, "double", true, VET_DOUBLE, (vet_attr){.v.d = 1.2345});
    list(g, "double_list", VET_DOUBLE_LIST, doubles, 2);
    attr(g, "float", true, VET_FLOAT, (vet_attr){.v.f = 1.2345f});
    list(g, "float_list", VET_FLOAT_LIST, floats, 2);
    attr(g, "int32", true, VET_INT32, (vet_attr){.v.i32 = 12345});
    list(g, "int32_list", VET_INT32_LIST, i32s, 2);
    attr(g, "int64", true, VET_INT64, (vet_attr){.v.i64 = 9876543210});
    list(g, "int64_list", VET_INT64_LIST, i64s, 2);
    attr(g, "uint32", true, VET_UINT32, (vet_attr){.v.u32 = 12345});
    list(g, "uint32_list", VET_UINT32_LIST, u32s, 2);
    attr(g, "uint64", true, VET_UINT64, (vet_attr){.v.u64 = 9876543210});
    list(g, "uint64_list", VET_UINT64_LIST, u64s, 2);
    attr(g, "sint32", true, VET_SINT32, (vet_attr){.v.i32 = -12345});
    list(g, "sint32_list", VET_SINT32_LIST, s32s, 2);
    attr(g, "sint64", true, VET_SINT64, (vet_attr){.v.i64 = -9876543210});
    list(g, "sint64_list", VET_SINT64_LIST, s64s, 2);
    attr(g, "fixed32", false, VET_FIXED32, (vet_attr){.v.u32 = 12345});
    list(g, "fixed32_list", VET_FIXED32_LIST, u32s, 2);
    attr(g, "fixed64", false, VET_FIXED64, (vet_attr){.v.u64 = 9876543210});
    list(g, "fixed64_list", VET_FIXED64_LIST, u64s, 2);
    attr(g, "sfixed32", false, VET_SFIXED32, (vet_attr){.v.i32 = -12345});
    list(g, "sfixed32_list", VET_SFIXED32_LIST, s32s, 2);
    attr(g, "sfixed64", false, VET_SFIXED64, (vet_attr){.v.i64 = -9876543210});
    list(g, "sfixed64_list", VET_SFIXED64_LIST, s64s, 2);
    attr(g, "bool", true, VET_BOOL, (vet_attr){.v.b = true});
    list(g, "bool_list", VET_BOOL_LIST, bools, 10);
    attr(g, "string", true, VET_STRING, (vet_attr){.v.s = "12345"});
    list(g, "string_list", VET_STRING_LIST, strings, 10);
    attr(g, "bytes", false, VET_BYTES, (vet_attr){.v.bytes = bytes[0]});
    list(g, "bytes_list", VET_BYTES_LIST, bytes, 10);
    return put(g);
}

/* ---- the others ----------------------------------------------------------- */

static int tensor_node(gen *g, const char *name, enum vet_node_type type)
{
    start(g, name, type);
    vet_builder_attr_bool(g->b, "is_cpu_op", false);
    vet_builder_attr_uint64(g->b, "tensor_size", g->o->tensor_size);
    return put(g);
}

static int comp_node(gen *g, bool after_previous)
{
    uint64_t previous = g->next_id - 1;
    start(g, "COMP_NODE", VET_COMP_NODE);
    vet_builder_set_duration(g->b, g->o->runtime_us);
    vet_builder_attr_bool(g->b, "is_cpu_op", false);
    if (after_previous)
        vet_builder_add_data_dep(g->b, previous);
    return put(g);
}

enum kind { K_METADATA, K_LOAD, K_STORE, K_COMP, K_TWO_INDEPENDENT, K_TWO_DEPENDENT, K_COLL, K_SEND, K_RECV };

static const struct {
    const char *file;
    enum kind kind;
    int64_t coll;
} files[] = {
    {"one_metadata_node_all_types", K_METADATA, 0},
    {"one_remote_mem_load_node", K_LOAD, 0},
    {"one_remote_mem_store_node", K_STORE, 0},
    {"one_comp_node", K_COMP, 0},
    {"two_comp_nodes_independent", K_TWO_INDEPENDENT, 0},
    {"two_comp_nodes_dependent", K_TWO_DEPENDENT, 0},
    {"ALL_REDUCE", K_COLL, VET_ALL_REDUCE},
    {"ALL_TO_ALL", K_COLL, VET_ALL_TO_ALL},
    {"ALL_GATHER", K_COLL, VET_ALL_GATHER},
    {"REDUCE_SCATTER", K_COLL, VET_REDUCE_SCATTER},
    {"BROADCAST", K_COLL, VET_BROADCAST},
    {"BARRIER", K_COLL, VET_BARRIER},
    {"one_comm_send_node", K_SEND, 0},
    {"one_comm_recv_node", K_RECV, 0},
};

static int nodes_of(gen *g, size_t f)
{
    switch (files[f].kind) {
    case K_METADATA: return metadata_node(g);
    case K_LOAD: return tensor_node(g, "MEM_LOAD_NODE", VET_MEM_LOAD_NODE);
    case K_STORE: return tensor_node(g, "MEM_STORE_NODE", VET_MEM_STORE_NODE);
    case K_COMP: return comp_node(g, false);
    case K_TWO_INDEPENDENT: return comp_node(g, false) != 0 ? -1 : comp_node(g, false);
    case K_TWO_DEPENDENT: return comp_node(g, false) != 0 ? -1 : comp_node(g, true);
    case K_SEND: return tensor_node(g, "COMM_SEND_NODE", VET_COMM_SEND_NODE);
    case K_RECV: return tensor_node(g, "COMM_RECV_NODE", VET_COMM_RECV_NODE);
    case K_COLL:
    default:
        start(g, files[f].file, VET_COMM_COLL_NODE);
        vet_builder_attr_bool(g->b, "is_cpu_op", false);
        vet_builder_attr_int64(g->b, "comm_type", files[f].coll);
        vet_builder_attr_int64(g->b, "comm_size", files[f].coll == VET_BARRIER ? 0 : (int64_t)g->o->comm_size);
        return put(g);
    }
}

static int write_file(gen *g, size_t f, uint64_t npu)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%" PRIu64 ".et", g->o->dir, files[f].file, npu);
    if (!(g->w = vet_writer_open(path, &g->err)))
        return -1;
    vet_metadata md = {.version = "1.0.0"};
    int rc = vet_writer_put_metadata(g->w, &md, &g->err);
    if (rc == 0)
        rc = nodes_of(g, f);
    vet_error close_err;
    if (vet_writer_close(g->w, rc == 0 ? &g->err : &close_err) != 0)
        rc = -1;
    g->w = NULL;
    return rc;
}

int gen_chakra_write(const char *prog, const struct gen_chakra_options *o)
{
    gen g = {.o = o, .b = vet_builder_new()};
    int rc = g.b ? 0 : -1;
    if (!g.b)
        snprintf(g.err.msg, sizeof g.err.msg, "out of memory");
    for (size_t f = 0; rc == 0 && f < sizeof files / sizeof files[0]; f++)
        for (uint64_t npu = 0; rc == 0 && npu < o->npus; npu++)
            rc = write_file(&g, f, npu);
    vet_builder_free(g.b);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", prog, g.err.msg);
    return rc;
}
