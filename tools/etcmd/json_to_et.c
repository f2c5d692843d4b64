#include "etcmd/json_to_et.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etcmd/pyfmt.h"
#include "util/msg_escape.h"

static bool fail(jconv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(jconv *c, const char *fmt, ...)
{
    char raw[sizeof c->err];
    int n = snprintf(raw, sizeof raw, "%s: ", c->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
    va_end(ap);
    /* Keys and values quoted from the JSON may hold newlines: escaped so
     * the message stays one line. */
    msg_escape(raw, c->err, sizeof c->err);
    return false;
}

/* Appends to the path; returns the old length for path_pop. */
static size_t path_push(jconv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t path_push(jconv *c, const char *fmt, ...)
{
    size_t old = c->path_len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->path + old, sizeof c->path - old, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->path_len = old + (size_t)n < sizeof c->path ? old + (size_t)n : sizeof c->path - 1;
    return old;
}

static void path_pop(jconv *c, size_t old)
{
    c->path_len = old;
    c->path[old] = '\0';
}

static void *alloc(jconv *c, size_t n, size_t size)
{
    size_t bytes = n * size;
    void *p = arena_alloc(c->a, bytes ? bytes : 1);
    if (!p)
        fail(c, "out of memory");
    return p;
}

static bool wrong_kind(jconv *c, const jv *v, const char *want)
{
    return fail(c, "expected %s, got %s", want, jv_kind_name(v->kind));
}

/* ---- scalars ------------------------------------------------------------ */

/* Integer text of a number or a string: strict "-?digits". */
static bool integer_text(jconv *c, const jv *v, const char **text)
{
    if (v->kind != JV_NUMBER && v->kind != JV_STRING)
        return wrong_kind(c, v, "an integer");
    const char *t = v->u.text;
    const char *p = t + (*t == '-');
    if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(t) != v->len)
        return fail(c, "expected an integer, got \"%s\"", t);
    *text = t;
    return true;
}

static bool get_u64(jconv *c, const jv *v, uint64_t *out)
{
    const char *t = NULL;
    if (!integer_text(c, v, &t))
        return false;
    errno = 0;
    unsigned long long x = strtoull(t, NULL, 10);
    if (*t == '-' || errno == ERANGE)
        return fail(c, "%s is out of range for an unsigned 64-bit integer", t);
    *out = x;
    return true;
}

static bool get_i64(jconv *c, const jv *v, int64_t *out)
{
    const char *t = NULL;
    if (!integer_text(c, v, &t))
        return false;
    errno = 0;
    long long x = strtoll(t, NULL, 10);
    if (errno == ERANGE)
        return fail(c, "%s is out of range for a signed 64-bit integer", t);
    *out = x;
    return true;
}

static bool get_i32(jconv *c, const jv *v, int32_t *out)
{
    int64_t x = 0;
    if (!get_i64(c, v, &x))
        return false;
    if (x < INT32_MIN || x > INT32_MAX)
        return fail(c, "%" PRId64 " is out of range for a signed 32-bit integer", x);
    *out = (int32_t)x;
    return true;
}

static bool get_u32(jconv *c, const jv *v, uint32_t *out)
{
    uint64_t x = 0;
    if (!get_u64(c, v, &x))
        return false;
    if (x > UINT32_MAX)
        return fail(c, "%" PRIu64 " is out of range for an unsigned 32-bit integer", x);
    *out = (uint32_t)x;
    return true;
}

static bool get_double(jconv *c, const jv *v, double *out)
{
    if (v->kind == JV_STRING) {
        if (strcmp(v->u.text, "NaN") == 0) {
            *out = NAN;
            return true;
        }
        if (strcmp(v->u.text, "Infinity") == 0 || strcmp(v->u.text, "-Infinity") == 0) {
            *out = v->u.text[0] == '-' ? -INFINITY : INFINITY;
            return true;
        }
    } else if (v->kind != JV_NUMBER) {
        return wrong_kind(c, v, "a number");
    }
    char *end;
    *out = strtod(v->u.text, &end);
    if (end == v->u.text || *end)
        return fail(c, "expected a number, got \"%s\"", v->u.text);
    return true;
}

static bool get_float(jconv *c, const jv *v, float *out)
{
    double d;
    if (!get_double(c, v, &d))
        return false;
    /* The shortest text of FLT_MAX, 3.4028235e+38, reads as a double just
     * above FLT_MAX; anything below FLT_MAX + half an ulp rounds to it. */
    if (isfinite(d) && fabs(d) > FLT_MAX) {
        if (fabs(d) >= 0x1.ffffffp+127)
            return fail(c, "%s is out of range for a float", v->u.text);
        *out = d > 0 ? FLT_MAX : -FLT_MAX;
        return true;
    }
    *out = (float)d;
    return true;
}

static bool get_bool(jconv *c, const jv *v, bool *out)
{
    if (v->kind != JV_BOOL)
        return wrong_kind(c, v, "true or false");
    *out = v->b;
    return true;
}

static bool get_string(jconv *c, const jv *v, const char **out)
{
    if (v->kind != JV_STRING)
        return wrong_kind(c, v, "a string");
    if (strlen(v->u.text) != v->len)
        return fail(c, "string contains a NUL character, which an ET string cannot hold");
    *out = v->u.text;
    return true;
}

static bool get_bytes(jconv *c, const jv *v, vet_bytes *out)
{
    if (v->kind != JV_STRING)
        return wrong_kind(c, v, "a base64 string");
    uint8_t *buf = alloc(c, v->len / 4 * 3 + 3, 1);
    if (!buf)
        return false;
    long n = pyfmt_base64_decode(v->u.text, v->len, buf);
    if (n < 0)
        return fail(c, "not valid base64: \"%s\"", v->u.text);
    out->data = buf;
    out->len = (size_t)n;
    return true;
}

/* ---- arrays ------------------------------------------------------------- */

/* Reads the JSON value `v` into items[i]; `arg` carries what else the
 * reader needs (a list value's kind). */
typedef bool (*item_reader)(jconv *c, const jv *v, void *items, size_t i, const void *arg);

/* The repeated fields (attributes, dependencies, list values): a JSON
 * array, or null for none, of values each read by `read` into one
 * arena-allocated array of `size`-byte items, the path naming the item
 * ("[i]") while it is read. `want` names the array in a wrong-kind error. */
static bool read_array(jconv *c, const jv *v, const char *want, size_t size, item_reader read, const void *arg,
                       const void **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (v->kind == JV_NULL)
        return true;
    if (v->kind != JV_ARRAY)
        return wrong_kind(c, v, want);
    void *items = alloc(c, v->len, size);
    if (!items)
        return false;
    for (size_t i = 0; i < v->len; i++) {
        size_t old = path_push(c, "[%zu]", i);
        if (!read(c, &v->u.items[i], items, i, arg))
            return false;
        path_pop(c, old);
    }
    *out = items;
    *n = v->len;
    return true;
}

/* ---- lists -------------------------------------------------------------- */

/* An item of a list value; `arg` points to the list's value kind. */
static bool list_item(jconv *c, const jv *v, void *items, size_t i, const void *arg)
{
    switch (*(const enum vet_value_kind *)arg) {
    case VET_DOUBLE_LIST: return get_double(c, v, &((double *)items)[i]);
    case VET_FLOAT_LIST: return get_float(c, v, &((float *)items)[i]);
    case VET_INT32_LIST: case VET_SINT32_LIST: case VET_SFIXED32_LIST:
        return get_i32(c, v, &((int32_t *)items)[i]);
    case VET_UINT32_LIST: case VET_FIXED32_LIST: return get_u32(c, v, &((uint32_t *)items)[i]);
    case VET_INT64_LIST: case VET_SINT64_LIST: case VET_SFIXED64_LIST:
        return get_i64(c, v, &((int64_t *)items)[i]);
    case VET_UINT64_LIST: case VET_FIXED64_LIST: return get_u64(c, v, &((uint64_t *)items)[i]);
    case VET_BOOL_LIST: {
        bool b = false;
        if (!get_bool(c, v, &b))
            return false;
        ((int *)items)[i] = b;
        return true;
    }
    case VET_STRING_LIST: return get_string(c, v, &((const char **)items)[i]);
    case VET_BYTES_LIST: return get_bytes(c, v, &((vet_bytes *)items)[i]);
    default: return false;
    }
}

/* A list value is {"values": [...]} or {} for an empty list. */
static bool list_value(jconv *c, enum vet_value_kind kind, const jv *v, vet_list *out)
{
    out->n = 0;
    out->items = NULL;
    if (v->kind != JV_OBJECT)
        return wrong_kind(c, v, "an object {\"values\": [...]}");
    for (size_t i = 0; i < v->len; i++) {
        const jmember *m = &v->u.members[i];
        if (strcmp(m->key, "values") != 0)
            return fail(c, "unknown key \"%s\" (a list holds only \"values\")", m->key);
    }
    const jv *values = jv_get(v, "values");
    if (!values || values->kind == JV_NULL)
        return true;
    size_t old = path_push(c, ".values");
    if (!read_array(c, values, "an array", vet_list_item_size(kind), list_item, &kind, &out->items, &out->n))
        return false;
    path_pop(c, old);
    return true;
}

/* ---- attributes --------------------------------------------------------- */

static bool scalar_value(jconv *c, vet_attr *a, const jv *v)
{
    switch (a->kind) {
    case VET_DOUBLE: return get_double(c, v, &a->v.d);
    case VET_FLOAT: return get_float(c, v, &a->v.f);
    case VET_INT32: case VET_SINT32: case VET_SFIXED32: return get_i32(c, v, &a->v.i32);
    case VET_UINT32: case VET_FIXED32: return get_u32(c, v, &a->v.u32);
    case VET_INT64: case VET_SINT64: case VET_SFIXED64: return get_i64(c, v, &a->v.i64);
    case VET_UINT64: case VET_FIXED64: return get_u64(c, v, &a->v.u64);
    case VET_BOOL: return get_bool(c, v, &a->v.b);
    case VET_STRING: return get_string(c, v, &a->v.s);
    case VET_BYTES: return get_bytes(c, v, &a->v.bytes);
    default: return false;
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool attr(jconv *c, const jv *v, vet_attr *a)
{
    memset(a, 0, sizeof *a);
    a->name = "";
    a->doc_string = "";
    if (v->kind != JV_OBJECT)
        return wrong_kind(c, v, "an object");
    const jmember *value_member = NULL;
    for (size_t i = 0; i < v->len; i++) {
        const jmember *m = &v->u.members[i];
        size_t old = path_push(c, ".%s", m->key);
        if (strcmp(m->key, "name") == 0) {
            if (m->value.kind != JV_NULL && !get_string(c, &m->value, &a->name))
                return false;
        } else if (strcmp(m->key, "doc_string") == 0) {
            if (m->value.kind != JV_NULL && !get_string(c, &m->value, &a->doc_string))
                return false;
        } else {
            path_pop(c, old);
            enum vet_value_kind kind = vet_value_kind_from_name(m->key);
            if (kind == VET_VALUE_NONE) {
                if (ends_with(m->key, "_val") || ends_with(m->key, "_list"))
                    return fail(c, "unknown value kind \"%s\"", m->key);
                return fail(c, "unknown key \"%s\"", m->key);
            }
            if (value_member)
                return fail(c, "two values, \"%s\" and \"%s\" (an attribute holds one)",
                            value_member->key, m->key);
            value_member = m;
            a->kind = kind;
        }
        path_pop(c, old);
    }
    if (!value_member)
        return true;
    size_t old = path_push(c, ".%s", value_member->key);
    bool ok = vet_value_kind_is_list(a->kind) ? list_value(c, a->kind, &value_member->value, &a->v.list)
                                              : scalar_value(c, a, &value_member->value);
    if (ok)
        path_pop(c, old);
    return ok;
}

static bool attr_item(jconv *c, const jv *v, void *items, size_t i, const void *arg)
{
    (void)arg;
    return attr(c, v, &((vet_attr *)items)[i]);
}

static bool attrs(jconv *c, const jv *v, const vet_attr **out, size_t *n)
{
    const void *list;
    bool ok = read_array(c, v, "an array", sizeof **out, attr_item, NULL, &list, n);
    *out = list;
    return ok;
}

/* ---- records ------------------------------------------------------------ */

/* Node ids read as the items of a uint64 list. */
static bool deps(jconv *c, const jv *v, const uint64_t **out, size_t *n)
{
    static const enum vet_value_kind id_kind = VET_UINT64_LIST;
    const void *ids;
    bool ok = read_array(c, v, "an array of node ids", sizeof **out, list_item, &id_kind, &ids, n);
    *out = ids;
    return ok;
}

static bool io(jconv *c, const jv *v, vet_io *io_out, const vet_io **slot)
{
    *slot = NULL;
    if (v->kind == JV_NULL)
        return true;
    if (v->kind != JV_OBJECT)
        return wrong_kind(c, v, "an object");
    io_out->values = io_out->shapes = io_out->types = "";
    for (size_t i = 0; i < v->len; i++) {
        const jmember *m = &v->u.members[i];
        const char **field = strcmp(m->key, "values") == 0   ? &io_out->values
                           : strcmp(m->key, "shapes") == 0 ? &io_out->shapes
                           : strcmp(m->key, "types") == 0  ? &io_out->types
                                                           : NULL;
        if (!field)
            return fail(c, "unknown key \"%s\" (expected values, shapes or types)", m->key);
        size_t old = path_push(c, ".%s", m->key);
        if (m->value.kind != JV_NULL && !get_string(c, &m->value, field))
            return false;
        path_pop(c, old);
    }
    *slot = io_out;
    return true;
}

static bool node_type(jconv *c, const jv *v, int32_t *out)
{
    if (v->kind == JV_STRING) {
        int32_t t = vet_node_type_from_name(v->u.text);
        if (t < 0)
            return fail(c, "unknown node type \"%s\"", v->u.text);
        *out = t;
        return true;
    }
    if (v->kind == JV_NUMBER)
        return get_i32(c, v, out); /* proto3 keeps enum numbers it does not know */
    return wrong_kind(c, v, "a node type name");
}

static bool node_member(jconv *c, const jmember *m, vet_node *n, vet_io *in_io, vet_io *out_io)
{
    const jv *v = &m->value;
    const char *k = m->key;
    if (strcmp(k, "id") == 0)
        return v->kind == JV_NULL || get_u64(c, v, &n->id);
    if (strcmp(k, "name") == 0)
        return v->kind == JV_NULL || get_string(c, v, &n->name);
    if (strcmp(k, "type") == 0)
        return v->kind == JV_NULL || node_type(c, v, &n->type);
    if (strcmp(k, "ctrl_deps") == 0)
        return deps(c, v, &n->ctrl_deps, &n->n_ctrl_deps);
    if (strcmp(k, "data_deps") == 0)
        return deps(c, v, &n->data_deps, &n->n_data_deps);
    if (strcmp(k, "start_time_micros") == 0)
        return v->kind == JV_NULL || get_u64(c, v, &n->start_time_micros);
    if (strcmp(k, "duration_micros") == 0)
        return v->kind == JV_NULL || get_u64(c, v, &n->duration_micros);
    if (strcmp(k, "inputs") == 0)
        return io(c, v, in_io, &n->inputs);
    if (strcmp(k, "outputs") == 0)
        return io(c, v, out_io, &n->outputs);
    if (strcmp(k, "attr") == 0)
        return attrs(c, v, &n->attrs, &n->n_attrs);
    return false;
}

static const char *const node_keys[] = {
    "id", "name", "type", "ctrl_deps", "data_deps", "start_time_micros",
    "duration_micros", "inputs", "outputs", "attr",
};

static bool known_key(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

static void set_path(jconv *c, const char *path)
{
    snprintf(c->path, sizeof c->path, "%s", path);
    c->path_len = strlen(c->path);
}

bool jconv_node(jconv *c, const char *path, const jv *v, vet_node *out, vet_io *in_io, vet_io *out_io)
{
    set_path(c, path);
    memset(out, 0, sizeof *out);
    out->name = "";
    if (v->kind != JV_OBJECT)
        return wrong_kind(c, v, "a node object");
    for (size_t i = 0; i < v->len; i++) {
        const jmember *m = &v->u.members[i];
        if (!known_key(m->key, node_keys, sizeof node_keys / sizeof node_keys[0]))
            return fail(c, "unknown key \"%s\"", m->key);
        if (jv_get(v, m->key) != &m->value)
            return fail(c, "duplicate key \"%s\"", m->key);
        size_t old = path_push(c, ".%s", m->key);
        if (!node_member(c, m, out, in_io, out_io))
            return false;
        path_pop(c, old);
    }
    return true;
}

bool jconv_metadata(jconv *c, const char *path, const jv *v, vet_metadata *out)
{
    set_path(c, path);
    memset(out, 0, sizeof *out);
    out->version = "";
    if (v->kind != JV_OBJECT)
        return wrong_kind(c, v, "an object");
    for (size_t i = 0; i < v->len; i++) {
        const jmember *m = &v->u.members[i];
        if (jv_get(v, m->key) != &m->value)
            return fail(c, "duplicate key \"%s\"", m->key);
        size_t old = path_push(c, ".%s", m->key);
        if (strcmp(m->key, "version") == 0) {
            if (m->value.kind != JV_NULL && !get_string(c, &m->value, &out->version))
                return false;
        } else if (strcmp(m->key, "attr") == 0) {
            if (!attrs(c, &m->value, &out->attrs, &out->n_attrs))
                return false;
        } else {
            path_pop(c, old);
            return fail(c, "unknown key \"%s\"", m->key);
        }
        path_pop(c, old);
    }
    return true;
}
