#include "etcmd/json_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/pyfloat.h"
#include "common/pyjson_string.h"
#include "etcmd/pyfmt.h"

/* Indentation and separators of json.dumps(indent=1): every member or
 * element on its own line, one space per nesting level, "key": value, and
 * empty containers as {} or []. A container is opened lazily so an empty
 * one can still close on the same line. */
typedef struct jw {
    sink *s;
    int depth;
    int count[16];   /* members written at each open level */
} jw;

static void indent(jw *w, int depth)
{
    sink_putc(w->s, '\n');
    for (int i = 0; i < depth; i++)
        sink_putc(w->s, ' ');
}

/* Starts the next member or element of the innermost open container. */
static void next_item(jw *w)
{
    if (w->count[w->depth]++ > 0)
        sink_putc(w->s, ',');
    indent(w, w->depth);
}

static void key(jw *w, const char *k)
{
    next_item(w);
    sink_putc(w->s, '"');
    sink_puts(w->s, k);
    sink_write(w->s, "\": ", 3);
}

static void open_c(jw *w, char bracket)
{
    sink_putc(w->s, bracket);
    w->depth++;
    w->count[w->depth] = 0;
}

static void close_c(jw *w, char bracket)
{
    int had = w->count[w->depth] > 0;
    w->depth--;
    if (had)
        indent(w, w->depth);
    sink_putc(w->s, bracket);
}

static void write_to_sink(void *s, const char *p, size_t n)
{
    sink_write(s, p, n);
}

/* Strings need not be UTF-8 (ET strings are bytes to the C library);
 * surrogateescape keeps every byte, and json_in turns it back. */
static void str(jw *w, const char *p)
{
    pyjson_write_string(write_to_sink, w->s, p, strlen(p), PYJSON_SURROGATEESCAPE);
}

static void u64_str(jw *w, uint64_t v)
{
    sink_printf(w->s, "\"%" PRIu64 "\"", v);
}

static void i64_str(jw *w, int64_t v)
{
    sink_printf(w->s, "\"%" PRId64 "\"", v);
}

/* Protobuf's JSON mapping writes NaN and the infinities as strings. */
static void double_val(jw *w, double v)
{
    char buf[PYFLOAT_MAX];
    if (isnan(v)) {
        sink_puts(w->s, "\"NaN\"");
        return;
    }
    if (isinf(v)) {
        sink_puts(w->s, v < 0 ? "\"-Infinity\"" : "\"Infinity\"");
        return;
    }
    sink_write(w->s, buf, pyfloat_repr(v, buf));
}

static void float_val(jw *w, float v)
{
    char buf[PYFLOAT_MAX];
    if (isnan(v) || isinf(v)) {
        double_val(w, v);
        return;
    }
    pyfmt_float32(v, buf);
    sink_puts(w->s, buf);
}

/* One element of a list value, by the list's kind. */
static void list_item(jw *w, enum vet_value_kind kind, const void *items, size_t i)
{
    switch (kind) {
    case VET_DOUBLE_LIST: double_val(w, ((const double *)items)[i]); break;
    case VET_FLOAT_LIST: float_val(w, ((const float *)items)[i]); break;
    case VET_INT32_LIST: case VET_SINT32_LIST: case VET_SFIXED32_LIST:
        sink_printf(w->s, "%" PRId32, ((const int32_t *)items)[i]);
        break;
    case VET_UINT32_LIST: case VET_FIXED32_LIST:
        sink_printf(w->s, "%" PRIu32, ((const uint32_t *)items)[i]);
        break;
    case VET_INT64_LIST: case VET_SINT64_LIST: case VET_SFIXED64_LIST:
        i64_str(w, ((const int64_t *)items)[i]);
        break;
    case VET_UINT64_LIST: case VET_FIXED64_LIST:
        u64_str(w, ((const uint64_t *)items)[i]);
        break;
    case VET_BOOL_LIST: sink_puts(w->s, ((const int *)items)[i] ? "true" : "false"); break;
    case VET_STRING_LIST: str(w, ((const char *const *)items)[i]); break;
    case VET_BYTES_LIST: {
        const vet_bytes *b = &((const vet_bytes *)items)[i];
        pyfmt_base64(w->s, b->data, b->len);
        break;
    }
    default: break;
    }
}

static void list_value(jw *w, enum vet_value_kind kind, const vet_list *l)
{
    open_c(w, '{');
    if (l->n > 0) {
        key(w, "values");
        open_c(w, '[');
        for (size_t i = 0; i < l->n; i++) {
            next_item(w);
            list_item(w, kind, l->items, i);
        }
        close_c(w, ']');
    }
    close_c(w, '}');
}

static void scalar_value(jw *w, const vet_attr *a)
{
    switch (a->kind) {
    case VET_DOUBLE: double_val(w, a->v.d); break;
    case VET_FLOAT: float_val(w, a->v.f); break;
    case VET_INT32: case VET_SINT32: case VET_SFIXED32: sink_printf(w->s, "%" PRId32, a->v.i32); break;
    case VET_UINT32: case VET_FIXED32: sink_printf(w->s, "%" PRIu32, a->v.u32); break;
    case VET_INT64: case VET_SINT64: case VET_SFIXED64: i64_str(w, a->v.i64); break;
    case VET_UINT64: case VET_FIXED64: u64_str(w, a->v.u64); break;
    case VET_BOOL: sink_puts(w->s, a->v.b ? "true" : "false"); break;
    case VET_STRING: str(w, a->v.s ? a->v.s : ""); break;
    case VET_BYTES: pyfmt_base64(w->s, a->v.bytes.data, a->v.bytes.len); break;
    default: break;
    }
}

static void attr(jw *w, const vet_attr *a)
{
    open_c(w, '{');
    if (a->name && a->name[0]) {
        key(w, "name");
        str(w, a->name);
    }
    if (a->doc_string && a->doc_string[0]) {
        key(w, "doc_string");
        str(w, a->doc_string);
    }
    const char *kind = vet_value_kind_name(a->kind);
    if (kind) {
        key(w, kind);
        if (vet_value_kind_is_list(a->kind))
            list_value(w, a->kind, &a->v.list);
        else
            scalar_value(w, a);
    }
    close_c(w, '}');
}

static void attrs(jw *w, const vet_attr *list, size_t n)
{
    if (n == 0)
        return;
    key(w, "attr");
    open_c(w, '[');
    for (size_t i = 0; i < n; i++) {
        next_item(w);
        attr(w, &list[i]);
    }
    close_c(w, ']');
}

static void deps(jw *w, const char *name, const uint64_t *ids, size_t n)
{
    if (n == 0)
        return;
    key(w, name);
    open_c(w, '[');
    for (size_t i = 0; i < n; i++) {
        next_item(w);
        u64_str(w, ids[i]);
    }
    close_c(w, ']');
}

static void io_field(jw *w, const char *name, const char *value)
{
    if (value && value[0]) {
        key(w, name);
        str(w, value);
    }
}

static void io(jw *w, const char *name, const vet_io *v)
{
    if (!v)
        return;
    key(w, name);
    open_c(w, '{');
    io_field(w, "values", v->values);
    io_field(w, "shapes", v->shapes);
    io_field(w, "types", v->types);
    close_c(w, '}');
}

static void node_type(jw *w, int32_t type)
{
    const char *name = vet_node_type_name(type);
    if (name)
        str(w, name);
    else
        sink_printf(w->s, "%" PRId32, type); /* proto3 keeps unknown enum numbers */
}

static void node(jw *w, const vet_node *n)
{
    open_c(w, '{');
    if (n->id) {
        key(w, "id");
        u64_str(w, n->id);
    }
    if (n->name && n->name[0]) {
        key(w, "name");
        str(w, n->name);
    }
    if (n->type) {
        key(w, "type");
        node_type(w, n->type);
    }
    deps(w, "ctrl_deps", n->ctrl_deps, n->n_ctrl_deps);
    deps(w, "data_deps", n->data_deps, n->n_data_deps);
    if (n->start_time_micros) {
        key(w, "start_time_micros");
        u64_str(w, n->start_time_micros);
    }
    if (n->duration_micros) {
        key(w, "duration_micros");
        u64_str(w, n->duration_micros);
    }
    io(w, "inputs", n->inputs);
    io(w, "outputs", n->outputs);
    attrs(w, n->attrs, n->n_attrs);
    close_c(w, '}');
}

/* The document is { "global_metadata": {...}, "nodes": [ ... ] }; the
 * writer state lives in the sink between calls, so each call re-creates a
 * jw positioned inside the "nodes" array. */
void json_out_begin(json_out *j, sink *s, const vet_metadata *md)
{
    jw w = {.s = s};
    j->s = s;
    j->nodes = 0;
    open_c(&w, '{');
    key(&w, "global_metadata");
    open_c(&w, '{');
    if (md->version && md->version[0]) {
        key(&w, "version");
        str(&w, md->version);
    }
    attrs(&w, md->attrs, md->n_attrs);
    close_c(&w, '}');
    key(&w, "nodes");
    sink_putc(s, '[');
}

void json_out_node(json_out *j, const vet_node *n)
{
    jw w = {.s = j->s, .depth = 2};
    w.count[2] = j->nodes > 0;
    next_item(&w);
    node(&w, n);
    j->nodes++;
}

void json_out_end(json_out *j)
{
    if (j->nodes > 0)
        sink_puts(j->s, "\n ");
    sink_puts(j->s, "]\n}\n");
}
