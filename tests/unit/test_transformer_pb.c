/*
 * The generator's direct protobuf encoder (tools/transformer/tf_pb.c) against
 * the ET library's writer (vet_builder + vet_encode_node): the same node must
 * give the same bytes, for ids, deps and values across the varint widths, a
 * node id 0 and duration 0 (left out), negative attribute values
 * (sign-extended varints) and an empty name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "transformer/tf_pb.h"
#include "vimana/et.h"

struct sample {
    uint64_t id;
    const char *name;
    enum vet_node_type type;
    uint64_t deps[3];
    size_t n_deps;
    uint64_t duration;
    int64_t i64;
    uint64_t u64;
    int32_t i32;
    const char *str;
};

/* The library's bytes for the sample's node. */
static void library_bytes(const struct sample *s, uint8_t **out, size_t *len)
{
    vet_builder *b = vet_builder_new();
    assert_non_null(b);
    vet_builder_reset(b, s->id, s->name, s->type);
    for (size_t i = 0; i < s->n_deps; i++)
        vet_builder_add_data_dep(b, s->deps[i]);
    vet_builder_set_duration(b, s->duration);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_bool(b, "flag", true);
    vet_builder_attr_int64(b, "num_ops", s->i64);
    vet_builder_attr_uint64(b, "tensor_size", s->u64);
    vet_builder_attr_int32(b, "comm_src", s->i32);
    vet_builder_attr_string(b, "pg_name", s->str);
    assert_false(vet_builder_failed(b));
    assert_int_equal(vet_encode_node(vet_builder_node(b), out, len), 0);
    vet_builder_free(b);
}

static void same_bytes(const struct sample *s)
{
    uint8_t *want;
    size_t want_len;
    library_bytes(s, &want, &want_len);
    struct tf_pb_node r;
    tf_pb_node_start(&r, s->id, s->name, strlen(s->name), (int)s->type, s->deps, s->n_deps, s->duration);
    tf_pb_attr_bool(&r, "is_cpu_op", 0);
    tf_pb_attr_bool(&r, "flag", 1);
    tf_pb_attr_int64(&r, "num_ops", s->i64);
    tf_pb_attr_uint64(&r, "tensor_size", s->u64);
    tf_pb_attr_int32(&r, "comm_src", s->i32);
    tf_pb_attr_string(&r, "pg_name", s->str);
    assert_int_equal(r.n, want_len);
    assert_memory_equal(r.b, want, want_len);
    /* The frame is the length varint, then the node. */
    uint8_t framed[TF_PB_RECORD_MAX];
    size_t n = tf_pb_frame(&r, framed);
    size_t hdr = want_len < 128 ? 1 : 2;
    assert_int_equal(n, hdr + want_len);
    assert_int_equal(framed[0] & 0x7f, want_len & 0x7f);
    assert_memory_equal(framed + hdr, want, want_len);
    free(want);
}

static void small_values(void **state)
{
    (void)state;
    struct sample s = {0, "fwd_mb0_layer0_attn", VET_COMP_NODE, {0}, 0, 0, 0, 0, 0, "1"};
    same_bytes(&s);
}

static void wide_values(void **state)
{
    (void)state;
    struct sample s = {
        16384, "tp_reduce_scatter_bwd_mb16777215_layer16777215_attn", VET_COMM_COLL_NODE,
        {127, 128, 1ull << 40}, 3, 4000000000ull, INT64_MAX, UINT64_MAX, 1 << 30, "1000000",
    };
    same_bytes(&s);
}

/* buf (size bytes) holds c repeated, as a string. */
static void repeated(char *buf, size_t size, char c)
{
    memset(buf, c, size - 1);
    buf[size - 1] = '\0';
}

static void negative_values(void **state)
{
    (void)state;
    struct sample s = {1, "", VET_COMM_SEND_NODE, {0}, 1, 1, -5, 300, -1, ""};
    same_bytes(&s);
}

/* A name long enough that the node needs a two-byte length. */
static void long_node(void **state)
{
    (void)state;
    char name[121];
    repeated(name, sizeof name, 'n');
    struct sample s = {99, name, VET_COMM_RECV_NODE, {98, 97}, 2, 12345, 1, 2, 3, "42"};
    same_bytes(&s);
}

/* A string_list attribute (the tensors a node names, --tensors): empty
 * strings, a list of one, and one whose message needs a two-byte length. */
static void string_lists(void **state)
{
    (void)state;
    char long_name[200];
    repeated(long_name, sizeof long_name, 't');
    const char *one[] = {"model_state"}, *pairs[] = {"act_mb3_layer7", "1572864", "", "0"},
               *wide[] = {long_name, "18446744073709551615"};
    const char *const *lists[] = {one, pairs, wide};
    const size_t counts[] = {1, 4, 2};
    for (size_t k = 0; k < 3; k++) {
        vet_builder *b = vet_builder_new();
        assert_non_null(b);
        vet_builder_reset(b, 5, "fwd_mb3_layer7_attn", VET_COMP_NODE);
        vet_builder_attr_bool(b, "is_cpu_op", false);
        vet_attr a = {.name = "outputs", .doc_string = "", .kind = VET_STRING_LIST,
                      .v.list = {counts[k], lists[k]}};
        vet_builder_add_attr(b, &a);
        assert_false(vet_builder_failed(b));
        uint8_t *want;
        size_t want_len;
        assert_int_equal(vet_encode_node(vet_builder_node(b), &want, &want_len), 0);
        vet_builder_free(b);
        struct tf_pb_node r;
        tf_pb_node_start(&r, 5, "fwd_mb3_layer7_attn", 19, VET_COMP_NODE, NULL, 0, 0);
        tf_pb_attr_bool(&r, "is_cpu_op", 0);
        tf_pb_attr_string_list(&r, "outputs", lists[k], counts[k]);
        assert_int_equal(r.n, want_len);
        assert_memory_equal(r.b, want, want_len);
        free(want);
    }
}

UNIT_TEST_MAIN(
    cmocka_unit_test(small_values),
    cmocka_unit_test(wide_values),
    cmocka_unit_test(negative_values),
    cmocka_unit_test(long_node),
    cmocka_unit_test(string_lists)
)
