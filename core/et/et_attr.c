/* Attribute lookup and typed reads with the simulator feeder's lenient
 * coercion rules (the reference's behaviour, docs/vimana-et.md). */
#include <string.h>

#include "vimana/et.h"

const vet_attr *vet_find_attr(const vet_attr *attrs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (attrs[i].name && strcmp(attrs[i].name, name) == 0)
            return &attrs[i];
    return NULL;
}

const vet_attr *vet_node_attr(const vet_node *node, const char *name)
{
    return vet_find_attr(node->attrs, node->n_attrs, name);
}

/* Integer kinds widen to a signed or an unsigned 64-bit value. Returns 1 for
 * signed (in *s), 2 for unsigned (in *u), 0 for a non-integer kind. */
static int integer_value(const vet_attr *a, int64_t *s, uint64_t *u)
{
    switch (a->kind) {
    case VET_INT32: case VET_SINT32: case VET_SFIXED32: *s = a->v.i32; return 1;
    case VET_INT64: case VET_SINT64: case VET_SFIXED64: *s = a->v.i64; return 1;
    case VET_UINT32: case VET_FIXED32: *u = a->v.u32; return 2;
    case VET_UINT64: case VET_FIXED64: *u = a->v.u64; return 2;
    case VET_BOOL: *u = a->v.b ? 1 : 0; return 2;
    default: return 0;
    }
}

enum vet_attr_status vet_attr_int64(const vet_attr *a, int64_t *out)
{
    int64_t s;
    uint64_t u;
    switch (integer_value(a, &s, &u)) {
    case 1: *out = s; return VET_ATTR_OK;
    case 2:
        if (u > (uint64_t)INT64_MAX)
            return VET_ATTR_BADTYPE;
        *out = (int64_t)u;
        return VET_ATTR_OK;
    default: return VET_ATTR_BADTYPE;
    }
}

enum vet_attr_status vet_attr_uint64(const vet_attr *a, uint64_t *out)
{
    int64_t s;
    uint64_t u;
    switch (integer_value(a, &s, &u)) {
    case 1:
        if (s < 0)
            return VET_ATTR_BADTYPE;
        *out = (uint64_t)s;
        return VET_ATTR_OK;
    case 2: *out = u; return VET_ATTR_OK;
    default: return VET_ATTR_BADTYPE;
    }
}

enum vet_attr_status vet_attr_bool(const vet_attr *a, bool *out)
{
    int64_t s;
    uint64_t u;
    switch (integer_value(a, &s, &u)) {
    case 1: *out = s != 0; return VET_ATTR_OK;
    case 2: *out = u != 0; return VET_ATTR_OK;
    default: return VET_ATTR_BADTYPE;
    }
}

enum vet_attr_status vet_attr_double(const vet_attr *a, double *out)
{
    int64_t s;
    uint64_t u;
    if (a->kind == VET_DOUBLE) {
        *out = a->v.d;
        return VET_ATTR_OK;
    }
    if (a->kind == VET_FLOAT) {
        *out = a->v.f;
        return VET_ATTR_OK;
    }
    switch (integer_value(a, &s, &u)) {
    case 1: *out = (double)s; return VET_ATTR_OK;
    case 2: *out = (double)u; return VET_ATTR_OK;
    default: return VET_ATTR_BADTYPE;
    }
}

enum vet_attr_status vet_attr_string(const vet_attr *a, const char **out)
{
    if (a->kind != VET_STRING)
        return VET_ATTR_BADTYPE;
    *out = a->v.s ? a->v.s : "";
    return VET_ATTR_OK;
}

#define NODE_GETTER(fn, type, reader)                                                  \
    enum vet_attr_status fn(const vet_node *n, const char *name, type dflt, type *out) \
    {                                                                                  \
        const vet_attr *a = vet_node_attr(n, name);                                    \
        if (!a) {                                                                      \
            *out = dflt;                                                               \
            return VET_ATTR_ABSENT;                                                    \
        }                                                                              \
        return reader(a, out);                                                         \
    }

NODE_GETTER(vet_node_int64, int64_t, vet_attr_int64)
NODE_GETTER(vet_node_uint64, uint64_t, vet_attr_uint64)
NODE_GETTER(vet_node_bool, bool, vet_attr_bool)
NODE_GETTER(vet_node_double, double, vet_attr_double)
NODE_GETTER(vet_node_string, const char *, vet_attr_string)
