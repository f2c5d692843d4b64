/* The ET reader and writer at the byte level: length varints at their
 * edges, the 81-byte golden file of chakra-et-format.md section 2.3 read
 * field by field and rebuilt byte for byte, and every kind of bad input
 * refused with its exact one-line message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>
#include "unit_main.h"

#include "et_test_util.h"
#include "vimana/et.h"

/* all_reduce.0.et of ASTRA-sim's 4-NPU 1 MiB microbenchmark. */
static const uint8_t golden81[] = {
    0x07, 0x0a, 0x05, 0x30, 0x2e, 0x30, 0x2e, 0x34, 0x48, 0x12, 0x14, 0x61, 0x6c, 0x6c, 0x5f, 0x72,
    0x65, 0x64, 0x75, 0x63, 0x65, 0x5f, 0x34, 0x6e, 0x70, 0x75, 0x73, 0x5f, 0x31, 0x4d, 0x42, 0x18,
    0x07, 0x52, 0x0e, 0x0a, 0x09, 0x69, 0x73, 0x5f, 0x63, 0x70, 0x75, 0x5f, 0x6f, 0x70, 0xd8, 0x01,
    0x00, 0x52, 0x0d, 0x0a, 0x09, 0x63, 0x6f, 0x6d, 0x6d, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x48, 0x00,
    0x52, 0x0f, 0x0a, 0x09, 0x63, 0x6f, 0x6d, 0x6d, 0x5f, 0x73, 0x69, 0x7a, 0x65, 0x48, 0x80, 0x80,
    0x40,
};

/* The metadata record "0.0.4", 8 bytes, which most cases start with. */
#define MD_0_0_4 0x07, 0x0a, 0x05, 0x30, 0x2e, 0x30, 0x2e, 0x34

/* ---- helpers ------------------------------------------------------------- */

static vet_reader *open_bytes(const void *bytes, size_t len, char **path, vet_error *err)
{
    *path = tu_temp_file(bytes, len);
    assert_non_null(*path);
    return vet_reader_open(*path, err);
}

/* r has no node left; closes it. */
static void close_at_end(vet_reader *r)
{
    vet_error err;
    const vet_node *n;
    assert_int_equal(vet_reader_next(r, &n, &err), 0);
    vet_reader_close(r);
}

static void drop(char *path)
{
    unlink(path);
    free(path);
}

/* The file must fail to open with exactly "PATH: <rest>". */
static void expect_open_error(const void *bytes, size_t len, const char *rest)
{
    char *path, want[600];
    vet_error err;
    vet_reader *r = open_bytes(bytes, len, &path, &err);
    assert_null(r);
    snprintf(want, sizeof want, "%s: %s", path, rest);
    assert_string_equal(err.msg, want);
    drop(path);
}

/* The file opens; reading nodes must end in exactly "PATH: <rest>" after
 * `good` nodes. */
static void expect_next_error(const void *bytes, size_t len, int good, const char *rest)
{
    char *path, want[600];
    vet_error err;
    const vet_node *n;
    vet_reader *r = open_bytes(bytes, len, &path, &err);
    assert_non_null(r);
    for (int i = 0; i < good; i++)
        assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_int_equal(vet_reader_next(r, &n, &err), -1);
    snprintf(want, sizeof want, "%s: %s", path, rest);
    assert_string_equal(err.msg, want);
    vet_reader_close(r);
    drop(path);
}

/* A file with metadata "0.0.4" and one node record of `len` bytes whose
 * content is a name field padded to that length. */
static uint8_t *file_with_record_len(size_t len, size_t *file_len)
{
    uint8_t *b = malloc(len + 32);
    size_t n = 0;
    const uint8_t md[] = {MD_0_0_4};
    memcpy(b, md, sizeof md);
    n = sizeof md;
    size_t v = len; /* the record length varint */
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    if (len > 0) {
        /* name field: tag 0x12, a length varint, then 'x' bytes */
        size_t body = len - 2 - (len - 2 >= 0x80 ? 1 : 0);
        b[n++] = 0x12;
        if (body >= 0x80) {
            b[n++] = (uint8_t)((body & 0x7f) | 0x80);
            b[n++] = (uint8_t)(body >> 7);
        } else {
            b[n++] = (uint8_t)body;
        }
        memset(b + n, 'x', body);
        n += body;
    }
    *file_len = n;
    return b;
}

static void read_record_of_len(size_t len)
{
    size_t flen;
    uint8_t *bytes = file_with_record_len(len, &flen);
    char *path;
    vet_error err;
    const vet_node *n;
    vet_reader *r = open_bytes(bytes, flen, &path, &err);
    assert_non_null(r);
    assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_int_equal(strlen(n->name), len == 0 ? 0 : len - 2 - (len - 2 >= 0x80 ? 1 : 0));
    assert_int_equal(vet_reader_record(r), 1);
    assert_int_equal(vet_reader_offset(r), 8);
    assert_int_equal(vet_reader_empty_records(r), len == 0 ? 1 : 0);
    close_at_end(r);
    drop(path);
    free(bytes);
}

/* ---- length varints --------------------------------------------------------- */

static void test_length_0(void **state)
{
    (void)state;
    read_record_of_len(0); /* an all-default node: id 0, nothing else */
}

static void test_length_127(void **state)
{
    (void)state;
    read_record_of_len(127); /* the largest one-byte length */
}

static void test_length_128(void **state)
{
    (void)state;
    read_record_of_len(128); /* the smallest two-byte length: 80 01 */
}

static void test_length_2_32_minus_1(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x00};
    expect_next_error(b, sizeof b, 0,
                      "record 1 (byte offset 8): truncated record: length says 4294967295 bytes but "
                      "only 2 remain");
}

static void test_length_over_32_bits(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00};
    expect_next_error(b, sizeof b, 0, "record 1 (byte offset 8): length varint exceeds 32 bits");
}

static void test_length_6_byte_varint(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00};
    expect_next_error(b, sizeof b, 0, "record 1 (byte offset 8): over-long length varint (more than 5 bytes)");
}

static void test_truncated_varint(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0x80, 0x80};
    expect_next_error(b, sizeof b, 0, "record 1 (byte offset 8): truncated length varint at end of file");
    const uint8_t only[] = {0x81};
    expect_open_error(only, sizeof only, "record 0 (byte offset 0): truncated length varint at end of file");
}

static void test_length_past_end(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0x0a, 0x08, 0x01, 0x18};
    expect_next_error(b, sizeof b, 0,
                      "record 1 (byte offset 8): truncated record: length says 10 bytes but only 3 remain");
    const uint8_t md[] = {0x07, 0x0a, 0x05, 0x30};
    expect_open_error(md, sizeof md,
                      "record 0 (byte offset 0): truncated record: length says 7 bytes but only 3 remain");
}

/* ---- bad content ---------------------------------------------------------------- */

static void test_empty_file(void **state)
{
    (void)state;
    expect_open_error("", 0, "empty file: a Chakra ET starts with a GlobalMetadata record");
}

static void test_garbage(void **state)
{
    (void)state;
    /* A metadata record holding an undefined wire type (7). */
    const uint8_t md[] = {0x03, 0x0f, 0xff, 0xff};
    expect_open_error(md, sizeof md, "record 0 (byte offset 0): cannot parse GlobalMetadata "
                                     "(corrupt record or not a Chakra ET)");
    /* A node whose id field (varint) carries a length-delimited value. */
    const uint8_t node[] = {MD_0_0_4, 0x02, 0x0a, 0x00, 0x02, 0x08, 0x05};
    expect_next_error(node, sizeof node, 0, "record 1 (byte offset 8): cannot parse Node (corrupt record)");
    /* Text is not an ET either. */
    const char text[] = "hello, world\n";
    expect_open_error(text, sizeof text - 1,
                      "record 0 (byte offset 0): truncated record: length says 104 bytes but only 12 remain");
}

static void test_unknown_node_type(void **state)
{
    (void)state;
    const uint8_t b[] = {MD_0_0_4, 0x04, 0x08, 0x05, 0x18, 0x09};
    expect_next_error(b, sizeof b, 0, "record 1 (byte offset 8): node id 5 has unknown node type 9");
    /* Tools that report such nodes themselves can ask for them. */
    char *path;
    vet_error err;
    const vet_node *n;
    vet_reader *r = open_bytes(b, sizeof b, &path, &err);
    assert_non_null(r);
    vet_reader_accept_unknown_types(r, true);
    assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_int_equal(n->id, 5);
    assert_int_equal(n->type, 9);
    vet_reader_close(r);
    drop(path);
}

static void test_missing_file(void **state)
{
    (void)state;
    vet_error err;
    assert_null(vet_reader_open("/nonexistent/x.et", &err));
    assert_string_equal(err.msg, "/nonexistent/x.et: cannot open: No such file or directory");
}

static void test_old_schema(void **state)
{
    (void)state;
    /* The first record of a proto2-era file: a Node with type (field 3)
     * and an attribute (field 11). */
    const uint8_t b[] = {0x06, 0x08, 0x01, 0x18, 0x04, 0x5a, 0x00};
    expect_open_error(b, sizeof b, "record 0 (byte offset 0): pre-0.0.4 Chakra file (schema too old): the "
                                   "first record is a Node, not a GlobalMetadata; regenerate it with Chakra "
                                   "0.0.4 or later");
}

/* ---- accepted encodings ------------------------------------------------------------ */

static void test_packed_and_unpacked_deps(void **state)
{
    (void)state;
    /* data_deps packed [1, 300], then one unpacked 7; ctrl_deps unpacked 2;
     * an unknown field 15 (varint) and fields out of order. */
    const uint8_t b[] = {MD_0_0_4, 0x0d, 0x28, 0x07, 0x2a, 0x03, 0x01, 0xac, 0x02,
                         0x20, 0x02, 0x78, 0x05, 0x08, 0x09};
    char *path;
    vet_error err;
    const vet_node *n;
    vet_reader *r = open_bytes(b, sizeof b, &path, &err);
    assert_non_null(r);
    assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_int_equal(n->id, 9);
    assert_int_equal(n->n_data_deps, 3);
    assert_int_equal(n->data_deps[0], 7);
    assert_int_equal(n->data_deps[1], 1);
    assert_int_equal(n->data_deps[2], 300);
    assert_int_equal(n->n_ctrl_deps, 1);
    assert_int_equal(n->ctrl_deps[0], 2);
    vet_reader_close(r);
    drop(path);
}

static void test_gzip_input(void **state)
{
    (void)state;
    char *path = tu_temp_path(".et.gz");
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, golden81, sizeof golden81), (int)sizeof golden81);
    gzclose(gz);
    vet_error err;
    const vet_node *n;
    vet_reader *r = vet_reader_open(path, &err);
    assert_non_null(r);
    assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_string_equal(n->name, "all_reduce_4npus_1MB");
    close_at_end(r);
    unlink(path);
    free(path);
}

/* ---- the golden file ----------------------------------------------------------------- */

static void test_golden_read(void **state)
{
    (void)state;
    char *path;
    vet_error err;
    const vet_node *n;
    vet_reader *r = open_bytes(golden81, sizeof golden81, &path, &err);
    assert_non_null(r);
    const vet_metadata *md = vet_reader_metadata(r);
    assert_string_equal(md->version, "0.0.4");
    assert_int_equal(md->n_attrs, 0);
    assert_int_equal(vet_reader_next(r, &n, &err), 1);
    assert_int_equal(vet_reader_offset(r), 8);
    assert_int_equal(n->id, 0);
    assert_string_equal(n->name, "all_reduce_4npus_1MB");
    assert_int_equal(n->type, VET_COMM_COLL_NODE);
    assert_int_equal(n->n_ctrl_deps + n->n_data_deps, 0);
    assert_int_equal(n->duration_micros, 0);
    assert_null(n->inputs);
    assert_null(n->outputs);
    assert_int_equal(n->n_attrs, 3);
    assert_string_equal(n->attrs[0].name, "is_cpu_op");
    assert_int_equal(n->attrs[0].kind, VET_BOOL);
    assert_false(n->attrs[0].v.b);
    assert_string_equal(n->attrs[1].name, "comm_type");
    assert_int_equal(n->attrs[1].kind, VET_INT64);
    assert_int_equal(n->attrs[1].v.i64, VET_ALL_REDUCE);
    assert_string_equal(n->attrs[2].name, "comm_size");
    assert_int_equal(n->attrs[2].kind, VET_INT64);
    assert_int_equal(n->attrs[2].v.i64, 1048576);
    uint64_t size;
    assert_int_equal(vet_node_uint64(n, "comm_size", 0, &size), VET_ATTR_OK);
    assert_int_equal(size, 1048576);
    assert_int_equal(vet_reader_next(r, &n, &err), 0);
    assert_int_equal(vet_reader_record(r), 1);
    vet_reader_close(r);
    drop(path);
}

/* Builds the microbenchmark node of `rank` and returns the file's bytes. */
static uint8_t *build_golden(uint64_t rank, size_t *len)
{
    char *path = tu_temp_path(".et");
    vet_error err;
    vet_writer *w = vet_writer_open(path, &err);
    assert_non_null(w);
    vet_metadata md = {.version = "0.0.4"};
    assert_int_equal(vet_writer_put_metadata(w, &md, &err), 0);
    vet_builder *b = vet_builder_new();
    vet_builder_reset(b, rank, "all_reduce_4npus_1MB", VET_COMM_COLL_NODE);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_int64(b, "comm_type", VET_ALL_REDUCE);
    vet_builder_attr_int64(b, "comm_size", 1048576);
    assert_false(vet_builder_failed(b));
    assert_int_equal(vet_writer_put_node(w, vet_builder_node(b), &err), 0);
    vet_builder_free(b);
    assert_int_equal(vet_writer_close(w, &err), 0);
    uint8_t *bytes = tu_read_file(path, len);
    unlink(path);
    free(path);
    return bytes;
}

static void test_golden_write(void **state)
{
    (void)state;
    size_t len;
    uint8_t *bytes = build_golden(0, &len);
    assert_int_equal(len, sizeof golden81);
    assert_memory_equal(bytes, golden81, sizeof golden81);
    free(bytes);
    /* Rank 1 differs only by id = 1: node length 0x4a and "08 01" first. */
    bytes = build_golden(1, &len);
    assert_int_equal(len, sizeof golden81 + 2);
    assert_memory_equal(bytes, golden81, 8);
    const uint8_t head[] = {0x4a, 0x08, 0x01, 0x12};
    assert_memory_equal(bytes + 8, head, sizeof head);
    assert_memory_equal(bytes + 12, golden81 + 10, sizeof golden81 - 10);
    free(bytes);
}

static void test_encode_defaults(void **state)
{
    (void)state;
    /* proto3 defaults are omitted, a present-but-empty IOInfo is "42 00". */
    vet_io empty = {"", "", ""};
    vet_node n = {.name = "", .inputs = &empty};
    uint8_t *out;
    size_t len;
    assert_int_equal(vet_encode_node(&n, &out, &len), 0);
    const uint8_t want[] = {0x42, 0x00};
    assert_int_equal(len, sizeof want);
    assert_memory_equal(out, want, sizeof want);
    free(out);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_length_0),
    cmocka_unit_test(test_length_127),
    cmocka_unit_test(test_length_128),
    cmocka_unit_test(test_length_2_32_minus_1),
    cmocka_unit_test(test_length_over_32_bits),
    cmocka_unit_test(test_length_6_byte_varint),
    cmocka_unit_test(test_truncated_varint),
    cmocka_unit_test(test_length_past_end),
    cmocka_unit_test(test_empty_file),
    cmocka_unit_test(test_garbage),
    cmocka_unit_test(test_unknown_node_type),
    cmocka_unit_test(test_missing_file),
    cmocka_unit_test(test_old_schema),
    cmocka_unit_test(test_packed_and_unpacked_deps),
    cmocka_unit_test(test_gzip_input),
    cmocka_unit_test(test_golden_read),
    cmocka_unit_test(test_golden_write),
    cmocka_unit_test(test_encode_defaults)
)
