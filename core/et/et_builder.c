/* Node builder: the C counterpart of constructing a ChakraNode in Python.
 * Copies everything it is given into memory it owns, reused across nodes. */
#include <stdlib.h>
#include <string.h>

#include "et/et_item_size.h"
#include "util/arena.h"
#include "util/grow.h"
#include "vimana/et.h"

struct vet_builder {
    arena strings;          /* copied strings and list items; reset per node */
    vet_node node;
    vet_metadata md;
    vet_io inputs, outputs;
    uint64_t *ctrl, *data;
    size_t n_ctrl, cap_ctrl, n_data, cap_data;
    vet_attr *attrs;
    size_t n_attrs, cap_attrs;
    int oom;                /* set when an allocation failed */
};

vet_builder *vet_builder_new(void)
{
    vet_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    arena_init(&b->strings, 8192);
    vet_builder_reset(b, 0, "", VET_INVALID_NODE);
    return b;
}

void vet_builder_free(vet_builder *b)
{
    if (!b)
        return;
    arena_free(&b->strings);
    free(b->ctrl);
    free(b->data);
    free(b->attrs);
    free(b);
}

const char *vet_builder_strdup(vet_builder *b, const char *s, size_t len)
{
    char *p = arena_alloc(&b->strings, len + 1);
    if (!p) {
        b->oom = 1;
        return "";
    }
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static const char *copy_str(vet_builder *b, const char *s)
{
    return vet_builder_strdup(b, s ? s : "", s ? strlen(s) : 0);
}

void vet_builder_reset(vet_builder *b, uint64_t id, const char *name, enum vet_node_type type)
{
    arena_reset(&b->strings);
    memset(&b->node, 0, sizeof b->node);
    b->n_ctrl = b->n_data = b->n_attrs = 0;
    b->oom = 0;
    b->node.id = id;
    b->node.name = copy_str(b, name);
    b->node.type = (int32_t)type;
}

void vet_builder_set_duration(vet_builder *b, uint64_t micros)
{
    b->node.duration_micros = micros;
}

void vet_builder_set_start_time(vet_builder *b, uint64_t micros)
{
    b->node.start_time_micros = micros;
}

void vet_builder_add_data_dep(vet_builder *b, uint64_t parent)
{
    if (grow_array((void **)&b->data, &b->cap_data, b->n_data + 1, sizeof *b->data, 8) != 0) {
        b->oom = 1;
        return;
    }
    b->data[b->n_data++] = parent;
}

void vet_builder_add_ctrl_dep(vet_builder *b, uint64_t parent)
{
    if (grow_array((void **)&b->ctrl, &b->cap_ctrl, b->n_ctrl + 1, sizeof *b->ctrl, 8) != 0) {
        b->oom = 1;
        return;
    }
    b->ctrl[b->n_ctrl++] = parent;
}

static void set_io(vet_builder *b, vet_io *io, const vet_io **slot, const char *values,
                   const char *shapes, const char *types)
{
    io->values = copy_str(b, values);
    io->shapes = copy_str(b, shapes);
    io->types = copy_str(b, types);
    *slot = io;
}

void vet_builder_set_inputs(vet_builder *b, const char *values, const char *shapes, const char *types)
{
    set_io(b, &b->inputs, &b->node.inputs, values, shapes, types);
}

void vet_builder_set_outputs(vet_builder *b, const char *values, const char *shapes, const char *types)
{
    set_io(b, &b->outputs, &b->node.outputs, values, shapes, types);
}

static const void *copy_list(vet_builder *b, enum vet_value_kind kind, const vet_list *l)
{
    size_t size = et_list_item_size(kind);
    if (l->n == 0)
        return NULL;
    void *items = arena_alloc(&b->strings, l->n * size);
    if (!items) {
        b->oom = 1;
        return NULL;
    }
    memcpy(items, l->items, l->n * size);
    if (kind == VET_STRING_LIST) {
        const char **s = items;
        for (size_t i = 0; i < l->n; i++)
            s[i] = copy_str(b, s[i]);
    } else if (kind == VET_BYTES_LIST) {
        vet_bytes *v = items;
        for (size_t i = 0; i < l->n; i++)
            v[i].data = (const uint8_t *)vet_builder_strdup(b, (const char *)v[i].data, v[i].len);
    }
    return items;
}

static vet_attr *new_attr(vet_builder *b, const char *name, enum vet_value_kind kind)
{
    if (grow_array((void **)&b->attrs, &b->cap_attrs, b->n_attrs + 1, sizeof *b->attrs, 8) != 0) {
        b->oom = 1;
        return NULL;
    }
    vet_attr *a = &b->attrs[b->n_attrs++];
    memset(a, 0, sizeof *a);
    a->name = copy_str(b, name);
    a->doc_string = "";
    a->kind = kind;
    return a;
}

void vet_builder_add_attr(vet_builder *b, const vet_attr *src)
{
    vet_attr *a = new_attr(b, src->name, src->kind);
    if (!a)
        return;
    a->doc_string = copy_str(b, src->doc_string);
    a->v = src->v;
    if (src->kind == VET_STRING)
        a->v.s = copy_str(b, src->v.s);
    else if (src->kind == VET_BYTES)
        a->v.bytes.data = (const uint8_t *)vet_builder_strdup(b, (const char *)src->v.bytes.data,
                                                              src->v.bytes.len);
    else if (vet_value_kind_is_list(src->kind))
        a->v.list.items = copy_list(b, src->kind, &src->v.list);
}

void vet_builder_attr_bool(vet_builder *b, const char *name, bool v)
{
    vet_attr *a = new_attr(b, name, VET_BOOL);
    if (a)
        a->v.b = v;
}

void vet_builder_attr_int32(vet_builder *b, const char *name, int32_t v)
{
    vet_attr *a = new_attr(b, name, VET_INT32);
    if (a)
        a->v.i32 = v;
}

void vet_builder_attr_int64(vet_builder *b, const char *name, int64_t v)
{
    vet_attr *a = new_attr(b, name, VET_INT64);
    if (a)
        a->v.i64 = v;
}

void vet_builder_attr_uint64(vet_builder *b, const char *name, uint64_t v)
{
    vet_attr *a = new_attr(b, name, VET_UINT64);
    if (a)
        a->v.u64 = v;
}

void vet_builder_attr_double(vet_builder *b, const char *name, double v)
{
    vet_attr *a = new_attr(b, name, VET_DOUBLE);
    if (a)
        a->v.d = v;
}

void vet_builder_attr_string(vet_builder *b, const char *name, const char *v)
{
    vet_attr *a = new_attr(b, name, VET_STRING);
    if (a)
        a->v.s = copy_str(b, v);
}

void vet_builder_attr_bool_list(vet_builder *b, const char *name, const bool *v, size_t n)
{
    vet_attr *a = new_attr(b, name, VET_BOOL_LIST);
    if (!a || n == 0)
        return;
    int *items = arena_alloc(&b->strings, n * sizeof *items);
    if (!items) {
        b->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        items[i] = v[i] ? 1 : 0;
    a->v.list.n = n;
    a->v.list.items = items;
}

const vet_node *vet_builder_node(const vet_builder *b)
{
    vet_builder *mb = (vet_builder *)b;
    mb->node.ctrl_deps = b->ctrl;
    mb->node.n_ctrl_deps = b->n_ctrl;
    mb->node.data_deps = b->data;
    mb->node.n_data_deps = b->n_data;
    mb->node.attrs = b->attrs;
    mb->node.n_attrs = b->n_attrs;
    return &b->node;
}

const vet_metadata *vet_builder_metadata(vet_builder *b)
{
    b->md.version = b->node.name;
    b->md.attrs = b->attrs;
    b->md.n_attrs = b->n_attrs;
    return &b->md;
}

bool vet_builder_failed(const vet_builder *b)
{
    return b->oom != 0;
}
