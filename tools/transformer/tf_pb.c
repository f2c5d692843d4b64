/* Direct protobuf encoding of the generator's ET nodes (proto/et_def.proto:
 * Node and AttributeProto field numbers). */
#include "transformer/tf_pb.h"

#include <string.h>

#include "util/varint.h"

/* Keys: field number << 3 | wire type (0 varint, 2 length-delimited). */
enum {
    NODE_ID = 1 << 3 | 0,
    NODE_NAME = 2 << 3 | 2,
    NODE_TYPE = 3 << 3 | 0,
    NODE_DATA_DEPS = 5 << 3 | 2,
    NODE_DURATION = 7 << 3 | 0,
    NODE_ATTR = 10 << 3 | 2,
    ATTR_NAME = 1 << 3 | 2,
    ATTR_INT32 = 7 << 3 | 0,
    ATTR_INT64 = 9 << 3 | 0,
    ATTR_UINT64 = 13 << 3 | 0,
    ATTR_BOOL = 27 << 3 | 0,
    ATTR_STRING = 29 << 3 | 2,
    ATTR_STRING_LIST = 30 << 3 | 2,
    LIST_VALUES = 1 << 3 | 2,
};

static void varint(struct tf_pb_node *r, uint64_t v)
{
    r->n += varint_put(r->b + r->n, v);
}

static void bytes_field(struct tf_pb_node *r, uint64_t key, const char *s, size_t len)
{
    varint(r, key);
    varint(r, len);
    memcpy(r->b + r->n, s, len);
    r->n += len;
}

/* proto3 leaves scalar fields at their default (0) out. */
static void scalar_field(struct tf_pb_node *r, uint64_t key, uint64_t v)
{
    if (v == 0)
        return;
    varint(r, key);
    varint(r, v);
}

void tf_pb_node_start(struct tf_pb_node *r, uint64_t id, const char *name, size_t name_len, int type,
                      const uint64_t *deps, size_t n_deps, uint64_t duration_micros)
{
    r->n = 0;
    scalar_field(r, NODE_ID, id);
    if (name_len > 0)
        bytes_field(r, NODE_NAME, name, name_len);
    scalar_field(r, NODE_TYPE, (uint64_t)type);
    if (n_deps > 0) {
        size_t len = 0;
        for (size_t i = 0; i < n_deps; i++)
            len += varint_len(deps[i]);
        varint(r, NODE_DATA_DEPS);
        varint(r, len);
        for (size_t i = 0; i < n_deps; i++)
            varint(r, deps[i]);
    }
    scalar_field(r, NODE_DURATION, duration_micros);
}

/* An attribute sub-message: its name, then the value's key and varint
 * (a set oneof member is written even when 0). */
static void attr_varint(struct tf_pb_node *r, const char *name, uint64_t key, uint64_t v)
{
    size_t name_len = strlen(name);
    size_t len = 1 + varint_len(name_len) + name_len + varint_len(key) + varint_len(v);
    varint(r, NODE_ATTR);
    varint(r, len);
    bytes_field(r, ATTR_NAME, name, name_len);
    varint(r, key);
    varint(r, v);
}

void tf_pb_attr_bool(struct tf_pb_node *r, const char *name, int v)
{
    attr_varint(r, name, ATTR_BOOL, v != 0);
}

/* Negative int32 and int64 values are sign-extended to 10-byte varints. */
void tf_pb_attr_int32(struct tf_pb_node *r, const char *name, int32_t v)
{
    attr_varint(r, name, ATTR_INT32, (uint64_t)(int64_t)v);
}

void tf_pb_attr_int64(struct tf_pb_node *r, const char *name, int64_t v)
{
    attr_varint(r, name, ATTR_INT64, (uint64_t)v);
}

void tf_pb_attr_uint64(struct tf_pb_node *r, const char *name, uint64_t v)
{
    attr_varint(r, name, ATTR_UINT64, v);
}

void tf_pb_attr_string(struct tf_pb_node *r, const char *name, const char *v)
{
    size_t name_len = strlen(name), v_len = strlen(v);
    size_t len = 1 + varint_len(name_len) + name_len + varint_len(ATTR_STRING) + varint_len(v_len) + v_len;
    varint(r, NODE_ATTR);
    varint(r, len);
    bytes_field(r, ATTR_NAME, name, name_len);
    bytes_field(r, ATTR_STRING, v, v_len);
}

void tf_pb_attr_string_list(struct tf_pb_node *r, const char *name, const char *const *v, size_t n)
{
    size_t name_len = strlen(name), list_len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(v[i]);
        list_len += 1 + varint_len(l) + l;
    }
    size_t len = 1 + varint_len(name_len) + name_len + varint_len(ATTR_STRING_LIST) + varint_len(list_len) + list_len;
    varint(r, NODE_ATTR);
    varint(r, len);
    bytes_field(r, ATTR_NAME, name, name_len);
    varint(r, ATTR_STRING_LIST);
    varint(r, list_len);
    for (size_t i = 0; i < n; i++)
        bytes_field(r, LIST_VALUES, v[i], strlen(v[i]));
}

size_t tf_pb_frame(const struct tf_pb_node *r, uint8_t *out)
{
    size_t hdr = varint_put(out, r->n);
    memcpy(out + hdr, r->b, r->n);
    return hdr + r->n;
}
