#include "et/et_pb.h"

#include <string.h>

_Static_assert(sizeof(ProtobufCBinaryData) == sizeof(vet_bytes), "vet_bytes mirrors ProtobufCBinaryData");
_Static_assert(offsetof(ProtobufCBinaryData, len) == offsetof(vet_bytes, len), "vet_bytes.len");
_Static_assert(offsetof(ProtobufCBinaryData, data) == offsetof(vet_bytes, data), "vet_bytes.data");
_Static_assert(sizeof(protobuf_c_boolean) == sizeof(int), "bool list items are int");
_Static_assert((int)CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BYTES_LIST == (int)VET_BYTES_LIST,
               "value kinds are protobuf field numbers");

/* Every list wrapper message has the same shape: base, n_values, values. */
typedef struct {
    ProtobufCMessage base;
    size_t n_values;
    void *values;
} pb_any_list;

static const ProtobufCMessageDescriptor *list_descriptor(enum vet_value_kind kind)
{
    switch (kind) {
    case VET_DOUBLE_LIST: return &chakra_proto_msg__double_list__descriptor;
    case VET_FLOAT_LIST: return &chakra_proto_msg__float_list__descriptor;
    case VET_INT32_LIST: return &chakra_proto_msg__int32_list__descriptor;
    case VET_INT64_LIST: return &chakra_proto_msg__int64_list__descriptor;
    case VET_UINT32_LIST: return &chakra_proto_msg__uint32_list__descriptor;
    case VET_UINT64_LIST: return &chakra_proto_msg__uint64_list__descriptor;
    case VET_SINT32_LIST: return &chakra_proto_msg__sint32_list__descriptor;
    case VET_SINT64_LIST: return &chakra_proto_msg__sint64_list__descriptor;
    case VET_FIXED32_LIST: return &chakra_proto_msg__fixed32_list__descriptor;
    case VET_FIXED64_LIST: return &chakra_proto_msg__fixed64_list__descriptor;
    case VET_SFIXED32_LIST: return &chakra_proto_msg__sfixed32_list__descriptor;
    case VET_SFIXED64_LIST: return &chakra_proto_msg__sfixed64_list__descriptor;
    case VET_BOOL_LIST: return &chakra_proto_msg__bool_list__descriptor;
    case VET_STRING_LIST: return &chakra_proto_msg__string_list__descriptor;
    case VET_BYTES_LIST: return &chakra_proto_msg__bytes_list__descriptor;
    default: return NULL;
    }
}

/* The list sub-message of a list-kind attribute (all members of the union
 * are pointers to list wrappers, so any of them reads the pointer). */
static const pb_any_list *attr_list(const ChakraProtoMsg__AttributeProto *pa)
{
    return (const pb_any_list *)pa->double_list;
}

static void attr_to_view(const ChakraProtoMsg__AttributeProto *pa, vet_attr *out)
{
    out->name = pa->name ? pa->name : "";
    out->doc_string = pa->doc_string ? pa->doc_string : "";
    out->kind = (enum vet_value_kind)pa->value_case;
    memset(&out->v, 0, sizeof out->v);
    switch (pa->value_case) {
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_DOUBLE_VAL: out->v.d = pa->double_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FLOAT_VAL: out->v.f = pa->float_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL: out->v.i32 = pa->int32_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT32_VAL: out->v.i32 = pa->sint32_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SFIXED32_VAL: out->v.i32 = pa->sfixed32_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL: out->v.i64 = pa->int64_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT64_VAL: out->v.i64 = pa->sint64_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SFIXED64_VAL: out->v.i64 = pa->sfixed64_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT32_VAL: out->v.u32 = pa->uint32_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FIXED32_VAL: out->v.u32 = pa->fixed32_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL: out->v.u64 = pa->uint64_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FIXED64_VAL: out->v.u64 = pa->fixed64_val; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_VAL: out->v.b = pa->bool_val != 0; break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL:
        out->v.s = pa->string_val ? pa->string_val : "";
        break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BYTES_VAL:
        out->v.bytes.len = pa->bytes_val.len;
        out->v.bytes.data = pa->bytes_val.data;
        break;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE__NOT_SET:
        break;
    default: {
        const pb_any_list *l = attr_list(pa);
        out->v.list.n = l ? l->n_values : 0;
        out->v.list.items = l ? l->values : NULL;
        break;
    }
    }
}

static int attrs_to_view(ChakraProtoMsg__AttributeProto *const *pattrs, size_t n,
                         const vet_attr **out, arena *a)
{
    *out = NULL;
    if (n == 0)
        return 0;
    vet_attr *attrs = arena_alloc(a, n * sizeof *attrs);
    if (!attrs)
        return -1;
    for (size_t i = 0; i < n; i++)
        attr_to_view(pattrs[i], &attrs[i]);
    *out = attrs;
    return 0;
}

static const vet_io *io_to_view(const ChakraProtoMsg__IOInfo *pio, vet_io *io)
{
    if (!pio)
        return NULL;
    io->values = pio->values ? pio->values : "";
    io->shapes = pio->shapes ? pio->shapes : "";
    io->types = pio->types ? pio->types : "";
    return io;
}

int et_pb_to_node(const ChakraProtoMsg__Node *pn, vet_node *out, vet_io *in_io, vet_io *out_io, arena *a)
{
    out->id = pn->id;
    out->name = pn->name ? pn->name : "";
    out->type = (int32_t)pn->type;
    out->n_ctrl_deps = pn->n_ctrl_deps;
    out->ctrl_deps = pn->ctrl_deps;
    out->n_data_deps = pn->n_data_deps;
    out->data_deps = pn->data_deps;
    out->start_time_micros = pn->start_time_micros;
    out->duration_micros = pn->duration_micros;
    out->inputs = io_to_view(pn->inputs, in_io);
    out->outputs = io_to_view(pn->outputs, out_io);
    out->n_attrs = pn->n_attr;
    return attrs_to_view(pn->attr, pn->n_attr, &out->attrs, a);
}

int et_pb_to_metadata(const ChakraProtoMsg__GlobalMetadata *pm, vet_metadata *out, arena *a)
{
    out->version = pm->version ? pm->version : "";
    out->n_attrs = pm->n_attr;
    return attrs_to_view(pm->attr, pm->n_attr, &out->attrs, a);
}

/* ---- view -> protobuf-c -------------------------------------------------- */

static int attr_from_view(const vet_attr *va, ChakraProtoMsg__AttributeProto *pa, arena *a)
{
    chakra_proto_msg__attribute_proto__init(pa);
    pa->name = (char *)(va->name ? va->name : "");
    pa->doc_string = (char *)(va->doc_string ? va->doc_string : "");
    pa->value_case = (ChakraProtoMsg__AttributeProto__ValueCase)va->kind;
    switch (va->kind) {
    case VET_VALUE_NONE: break;
    case VET_DOUBLE: pa->double_val = va->v.d; break;
    case VET_FLOAT: pa->float_val = va->v.f; break;
    case VET_INT32: pa->int32_val = va->v.i32; break;
    case VET_SINT32: pa->sint32_val = va->v.i32; break;
    case VET_SFIXED32: pa->sfixed32_val = va->v.i32; break;
    case VET_INT64: pa->int64_val = va->v.i64; break;
    case VET_SINT64: pa->sint64_val = va->v.i64; break;
    case VET_SFIXED64: pa->sfixed64_val = va->v.i64; break;
    case VET_UINT32: pa->uint32_val = va->v.u32; break;
    case VET_FIXED32: pa->fixed32_val = va->v.u32; break;
    case VET_UINT64: pa->uint64_val = va->v.u64; break;
    case VET_FIXED64: pa->fixed64_val = va->v.u64; break;
    case VET_BOOL: pa->bool_val = va->v.b; break;
    case VET_STRING: pa->string_val = (char *)(va->v.s ? va->v.s : ""); break;
    case VET_BYTES:
        pa->bytes_val.len = va->v.bytes.len;
        pa->bytes_val.data = (uint8_t *)va->v.bytes.data;
        break;
    default: {
        const ProtobufCMessageDescriptor *d = list_descriptor(va->kind);
        if (!d)
            return -1;
        pb_any_list *l = arena_alloc(a, d->sizeof_message);
        if (!l)
            return -1;
        protobuf_c_message_init(d, l);
        l->n_values = va->v.list.n;
        l->values = (void *)va->v.list.items;
        /* Any union member stores the pointer; they all alias. */
        pa->double_list = (ChakraProtoMsg__DoubleList *)l;
        break;
    }
    }
    return 0;
}

static int attrs_from_view(const vet_attr *attrs, size_t n, ChakraProtoMsg__AttributeProto ***out, arena *a)
{
    *out = NULL;
    if (n == 0)
        return 0;
    ChakraProtoMsg__AttributeProto **ptrs = arena_alloc(a, n * sizeof *ptrs);
    ChakraProtoMsg__AttributeProto *pas = arena_alloc(a, n * sizeof *pas);
    if (!ptrs || !pas)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (attr_from_view(&attrs[i], &pas[i], a) != 0)
            return -1;
        ptrs[i] = &pas[i];
    }
    *out = ptrs;
    return 0;
}

static ChakraProtoMsg__IOInfo *io_from_view(const vet_io *io, arena *a)
{
    if (!io)
        return NULL;
    ChakraProtoMsg__IOInfo *p = arena_alloc(a, sizeof *p);
    if (!p)
        return NULL;
    chakra_proto_msg__ioinfo__init(p);
    p->values = (char *)(io->values ? io->values : "");
    p->shapes = (char *)(io->shapes ? io->shapes : "");
    p->types = (char *)(io->types ? io->types : "");
    return p;
}

int et_pb_from_node(const vet_node *n, ChakraProtoMsg__Node *pn, arena *a)
{
    chakra_proto_msg__node__init(pn);
    pn->id = n->id;
    pn->name = (char *)(n->name ? n->name : "");
    pn->type = (ChakraProtoMsg__NodeType)n->type;
    pn->n_ctrl_deps = n->n_ctrl_deps;
    pn->ctrl_deps = (uint64_t *)n->ctrl_deps;
    pn->n_data_deps = n->n_data_deps;
    pn->data_deps = (uint64_t *)n->data_deps;
    pn->start_time_micros = n->start_time_micros;
    pn->duration_micros = n->duration_micros;
    if (n->inputs && !(pn->inputs = io_from_view(n->inputs, a)))
        return -1;
    if (n->outputs && !(pn->outputs = io_from_view(n->outputs, a)))
        return -1;
    pn->n_attr = n->n_attrs;
    return attrs_from_view(n->attrs, n->n_attrs, &pn->attr, a);
}

int et_pb_from_metadata(const vet_metadata *m, ChakraProtoMsg__GlobalMetadata *pm, arena *a)
{
    chakra_proto_msg__global_metadata__init(pm);
    pm->version = (char *)(m->version ? m->version : "");
    pm->n_attr = m->n_attrs;
    return attrs_from_view(m->attrs, m->n_attrs, &pm->attr, a);
}
