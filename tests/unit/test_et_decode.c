/* The reader's direct decoder (core/et/et_decode.c) against protobuf-c's
 * generic unpacker, which it replaced on the read path: on every record
 * both must agree on accept/refuse, and on the decoded values. Records
 * come from the corpus and golden ETs, from hand-made cases for the
 * protobuf-c quirks the decoder copies, and from seeded random mutations
 * (byte flips, insertions, deletions, truncations) of all of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include "unit_main.h"

#include "et/et_decode.h"
#include "et/et_pb.h"
#include "et_test_util.h"

#ifndef MUTANTS_PER_SEED
#define MUTANTS_PER_SEED 400
#endif

typedef struct record {
    uint8_t *bytes;
    size_t len;
} record;

typedef struct corpus {
    record *items;
    size_t n, cap;
} corpus;

static void add_record(corpus *c, const uint8_t *p, size_t len)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->items = realloc(c->items, c->cap * sizeof *c->items);
        assert_non_null(c->items);
    }
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, p, len);
    c->items[c->n++] = (record){copy, len};
}

static void free_corpus(corpus *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->items[i].bytes);
    free(c->items);
}

/* Splits a whole ET into its records (node records only: the first is the
 * metadata and goes to `md`). */
static void add_file_records(corpus *nodes, corpus *md, const char *path)
{
    size_t len, pos = 0, index = 0;
    uint8_t *b = tu_read_file(path, &len);
    if (!b)
        return;
    while (pos < len) {
        uint64_t v = 0;
        int shift = 0;
        while (pos < len && (b[pos] & 0x80) && shift < 35) {
            v |= (uint64_t)(b[pos++] & 0x7f) << shift;
            shift += 7;
        }
        if (pos >= len)
            break;
        v |= (uint64_t)(b[pos++] & 0x7f) << shift;
        if (v > len - pos)
            break;
        add_record(index++ == 0 ? md : nodes, b + pos, (size_t)v);
        pos += (size_t)v;
    }
    free(b);
}

/* ---- the two decoders -------------------------------------------------- */

typedef struct outcome {
    int ok;
    arena a;
    vet_node node;
    vet_metadata md;
    vet_io in_io, out_io;
    void *pb;
} outcome;

/* The record decoded by protobuf-c (as a node when is_node, else as the
 * metadata) into o. */
static void pb_decode(const record *r, int is_node, outcome *o)
{
    arena_init(&o->a, 4096);
    if (is_node) {
        ChakraProtoMsg__Node *pn = chakra_proto_msg__node__unpack(NULL, r->len, r->bytes);
        o->pb = pn;
        if (pn)
            assert_int_equal(et_pb_to_node(pn, &o->node, &o->in_io, &o->out_io, &o->a), 0);
    } else {
        ChakraProtoMsg__GlobalMetadata *pm = chakra_proto_msg__global_metadata__unpack(NULL, r->len, r->bytes);
        o->pb = pm;
        if (pm)
            assert_int_equal(et_pb_to_metadata(pm, &o->md, &o->a), 0);
    }
    o->ok = o->pb != NULL;
}

static void pb_free(outcome *o, int is_node)
{
    if (o->pb && is_node)
        chakra_proto_msg__node__free_unpacked(o->pb, NULL);
    else if (o->pb)
        chakra_proto_msg__global_metadata__free_unpacked(o->pb, NULL);
    arena_free(&o->a);
}

/* Returns 1 when both decoders agree on the record. */
static int agree(const record *r, int is_node, char *why, size_t cap)
{
    outcome ref = {0};
    arena a;
    et_decoder d;
    vet_node node;
    vet_metadata md;
    arena_init(&a, 4096);
    et_decoder_init(&d, &a);
    pb_decode(r, is_node, &ref);
    int rc = is_node ? et_decode_node(&d, r->bytes, r->len, &node) : et_decode_metadata(&d, r->bytes, r->len, &md);
    int same;
    if (rc == ET_DECODE_NOMEM) {
        snprintf(why, cap, "decoder ran out of memory");
        same = 0;
    } else if ((rc == ET_DECODE_OK) != ref.ok) {
        snprintf(why, cap, "protobuf-c %s, decoder %s", ref.ok ? "accepts" : "refuses",
                 rc == ET_DECODE_OK ? "accepts" : "refuses");
        same = 0;
    } else if (!ref.ok) {
        same = 1;
    } else {
        same = is_node ? tu_node_equal(&node, &ref.node, why, cap) : tu_metadata_equal(&md, &ref.md, why, cap);
    }
    pb_free(&ref, is_node);
    et_decoder_free(&d);
    arena_free(&a);
    return same;
}

static void hex(const record *r, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->len && n + 4 < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%02x ", r->bytes[i]);
}

static void check(const record *r, int is_node)
{
    char why[400] = "", bytes[600] = "";
    if (!agree(r, is_node, why, sizeof why)) {
        hex(r, bytes, sizeof bytes);
        fail_msg("%s record [%s]: %s", is_node ? "node" : "metadata", bytes, why);
    }
}

/* ---- mutations ----------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static void mutate(const record *src, record *out, uint8_t *buf)
{
    size_t len = src->len;
    memcpy(buf, src->bytes, len);
    int edits = 1 + (int)(rng() % 3);
    for (int e = 0; e < edits; e++) {
        size_t pos = len ? (size_t)(rng() % len) : 0;
        switch (rng() % 5) {
        case 0: /* flip bits */
            if (len)
                buf[pos] ^= (uint8_t)(1u << (rng() % 8));
            break;
        case 1: /* random byte */
            if (len)
                buf[pos] = (uint8_t)rng();
            break;
        case 2: /* insert */
            memmove(buf + pos + 1, buf + pos, len - pos);
            buf[pos] = (uint8_t)rng();
            len++;
            break;
        case 3: /* delete */
            if (len) {
                memmove(buf + pos, buf + pos + 1, len - pos - 1);
                len--;
            }
            break;
        default: /* truncate */
            len = pos;
            break;
        }
    }
    out->bytes = buf;
    out->len = len;
}

static void check_with_mutants(const record *r, int is_node)
{
    check(r, is_node);
    uint8_t *buf = malloc(r->len + 8);
    assert_non_null(buf);
    for (int i = 0; i < MUTANTS_PER_SEED; i++) {
        record m;
        mutate(r, &m, buf);
        check(&m, is_node);
    }
    free(buf);
}

/* ---- seeds ---------------------------------------------------------------- */

static void add_hex(corpus *c, const uint8_t *p, size_t len)
{
    add_record(c, p, len);
}

#define ADD(c, ...)                                              \
    do {                                                         \
        static const uint8_t bytes_[] = {__VA_ARGS__};           \
        add_hex(c, bytes_, sizeof bytes_);                       \
    } while (0)

/* Hand-made node records for the corners of protobuf-c's behaviour. */
static void quirk_nodes(corpus *c)
{
    add_record(c, (const uint8_t *)"", 0);
    ADD(c, 0x52, 0x03, 0xd9, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00); /* truncated */
    /* bool_val as 64-bit, 32-bit and length-delimited wire types */
    ADD(c, 0x52, 0x0a, 0xd9, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02);
    ADD(c, 0x52, 0x06, 0xdd, 0x01, 0x00, 0x00, 0x00, 0x00);
    ADD(c, 0x52, 0x04, 0xda, 0x01, 0x01, 0x00);
    /* packed bool_list with a byte > 1; unpacked bools; empty list */
    ADD(c, 0x52, 0x06, 0xe2, 0x01, 0x03, 0x0a, 0x01, 0x02);
    ADD(c, 0x52, 0x08, 0xe2, 0x01, 0x05, 0x08, 0x05, 0x08, 0x80, 0x00);
    ADD(c, 0x52, 0x03, 0xe2, 0x01, 0x00);
    /* oneof: the last member wins, lists are not merged */
    ADD(c, 0x52, 0x0c, 0x48, 0x05, 0xe2, 0x01, 0x03, 0x0a, 0x01, 0x01, 0xe2, 0x01, 0x03, 0x0a, 0x01, 0x00);
    /* inputs twice: merged field by field */
    ADD(c, 0x42, 0x03, 0x0a, 0x01, 'a', 0x42, 0x03, 0x12, 0x01, 'b', 0x42, 0x02, 0x0a, 0x00);
    /* packed fixed32 list with a length that is not a multiple of 4 */
    ADD(c, 0x52, 0x07, 0xa2, 0x01, 0x04, 0x0a, 0x02, 0x01, 0x02);
    /* unknown fields of every wire type, and groups (refused) */
    ADD(c, 0x78, 0x01, 0x79, 1, 2, 3, 4, 5, 6, 7, 8, 0x7a, 0x01, 0x00, 0x7d, 1, 2, 3, 4);
    ADD(c, 0x7b, 0x7c);
    /* a field number 0 */
    ADD(c, 0x00, 0x01);
    ADD(c, 0x80, 0x00, 0x01);
    /* a 6-byte tag; an 11-byte varint; a 6-byte length prefix */
    ADD(c, 0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01);
    ADD(c, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
    ADD(c, 0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
    /* a 5-byte length prefix beyond 2^32 */
    ADD(c, 0x12, 0x81, 0x80, 0x80, 0x80, 0x10, 'x');
    /* negative type, 10-byte varints into 32-bit fields */
    ADD(c, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    ADD(c, 0x52, 0x0c, 0x78, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x38, 0x01);
    /* packed deps with a truncated last varint, and wrong wire types */
    ADD(c, 0x2a, 0x02, 0x01, 0x80);
    ADD(c, 0x29, 0, 0, 0, 0, 0, 0, 0, 0);
    ADD(c, 0x0a, 0x00);
    /* string list with a varint element, bytes list */
    ADD(c, 0x52, 0x05, 0xf2, 0x01, 0x02, 0x08, 0x01);
    ADD(c, 0x52, 0x09, 0x82, 0x02, 0x06, 0x0a, 0x00, 0x0a, 0x02, 0xff, 0x00);
}

/* A record holding every kind, written by our own writer. */
static void rich_node(corpus *c)
{
    static const double d[] = {1.5, -0.0};
    static const int32_t i32[] = {-1, 7};
    static const uint64_t u64[] = {UINT64_MAX, 3};
    static const int b[] = {1, 0};
    static const char *const s[] = {"a", ""};
    vet_attr attrs[] = {
        {.name = "d", .doc_string = "doc", .kind = VET_DOUBLE, .v.d = 2.5},
        {.name = "f", .doc_string = "", .kind = VET_FLOAT, .v.f = -1.0f},
        {.name = "i", .doc_string = "", .kind = VET_SINT64, .v.i64 = -5},
        {.name = "x", .doc_string = "", .kind = VET_SFIXED32, .v.i32 = -5},
        {.name = "y", .doc_string = "", .kind = VET_FIXED64, .v.u64 = 9},
        {.name = "s", .doc_string = "", .kind = VET_STRING, .v.s = "str"},
        {.name = "by", .doc_string = "", .kind = VET_BYTES, .v.bytes = {2, (const uint8_t *)"\x00\x01"}},
        {.name = "dl", .doc_string = "", .kind = VET_DOUBLE_LIST, .v.list = {2, d}},
        {.name = "il", .doc_string = "", .kind = VET_SINT32_LIST, .v.list = {2, i32}},
        {.name = "ul", .doc_string = "", .kind = VET_UINT64_LIST, .v.list = {2, u64}},
        {.name = "bl", .doc_string = "", .kind = VET_BOOL_LIST, .v.list = {2, b}},
        {.name = "sl", .doc_string = "", .kind = VET_STRING_LIST, .v.list = {2, s}},
    };
    static const uint64_t deps[] = {1, 300, 70000};
    vet_io io = {"v", "s", "t"};
    vet_node n = {.id = 77, .name = "rich", .type = VET_COMP_NODE, .n_ctrl_deps = 1, .ctrl_deps = deps,
                  .n_data_deps = 3, .data_deps = deps, .start_time_micros = 5, .duration_micros = 6,
                  .inputs = &io, .outputs = &io, .n_attrs = sizeof attrs / sizeof attrs[0], .attrs = attrs};
    uint8_t *out;
    size_t len;
    assert_int_equal(vet_encode_node(&n, &out, &len), 0);
    add_record(c, out, len);
    free(out);
}

static void add_shared_files(corpus *nodes, corpus *md)
{
    const char *shared = tu_ref();
    static const char *const files[] = {
        "corpus/et/astra-sim-custom-collectives/custom_allreduce.0.et",
        "corpus/et/chakra-generator/one_metadata_node_all_types.0.et",
        "corpus/et/micro2024-demo2/MLP_ModelParallel.0.et",
        "corpus/et/micro2024-demo1/allreduce.0.et",
        "golden/inputs/workload/hoti_3nodes_8/hoti_3nodes_8.0.et",
        "golden/inputs/workload/send_0to1_1MiB_8/send_0to1_1MiB_8.1.et",
        "corpus/et/chakra-tests/chakra.0.et",
    };
    char path[4096];
    for (size_t i = 0; shared && i < sizeof files / sizeof files[0]; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", shared, files[i]);
        if (stat(path, &st) != 0) /* tests/data keeps large files gzip'd */
            strcat(path, ".gz");
        add_file_records(nodes, md, path);
    }
}

/* Every record the tests check: the hand-made nodes, and the files'. */
static void seed_corpus(corpus *nodes, corpus *md)
{
    quirk_nodes(nodes);
    rich_node(nodes);
    add_shared_files(nodes, md);
}

static void test_agree_on_seeds(void **state)
{
    (void)state;
    corpus nodes = {0}, md = {0};
    seed_corpus(&nodes, &md);
    for (size_t i = 0; i < nodes.n; i++)
        check(&nodes.items[i], 1);
    for (size_t i = 0; i < md.n; i++)
        check(&md.items[i], 0);
    /* Quirk and rich records are also valid metadata-shaped input. */
    for (size_t i = 0; i < nodes.n && i < 40; i++)
        check(&nodes.items[i], 0);
    free_corpus(&nodes);
    free_corpus(&md);
}

static void test_agree_on_mutants(void **state)
{
    (void)state;
    corpus nodes = {0}, md = {0};
    seed_corpus(&nodes, &md);
    /* Every hand-made record, and a spread of the file records (the big
     * PyTorch trace alone has thousands). */
    size_t step = nodes.n > 120 ? nodes.n / 120 : 1;
    for (size_t i = 0; i < nodes.n; i += i < 40 ? 1 : step)
        check_with_mutants(&nodes.items[i], 1);
    for (size_t i = 0; i < md.n; i++)
        check_with_mutants(&md.items[i], 0);
    free_corpus(&nodes);
    free_corpus(&md);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_agree_on_seeds),
    cmocka_unit_test(test_agree_on_mutants)
)
