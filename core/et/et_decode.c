#include "et/et_decode.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "et/et_item_size.h"
#include "util/grow.h"

enum { WT_VARINT = 0, WT_64BIT = 1, WT_LEN = 2, WT_32BIT = 5 };

/* One field as framed on the wire. `data`/`len` is the payload (for WT_LEN
 * without its length prefix); `raw`/`raw_len` is everything after the tag,
 * which protobuf-c's bool parser reads whatever the wire type. */
typedef struct field {
    uint32_t num;
    int wt;
    const uint8_t *data, *raw;
    size_t len, raw_len;
} field;

typedef struct cursor {
    const uint8_t *p, *end;
} cursor;

/* A varint of at most `max` bytes; returns its byte count, 0 if it does
 * not end within the limit or the input. */
static inline size_t scan_varint(const uint8_t *p, size_t avail, size_t max)
{
    size_t n = avail < max ? avail : max;
    for (size_t i = 0; i < n; i++)
        if (!(p[i] & 0x80))
            return i + 1;
    return 0;
}

/* Value of a scanned varint (bits above 64 are dropped, as protobuf-c does). */
static inline uint64_t varint_value(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    return v;
}

/* Frames the next field. Returns 1, 0 at the end, -1 when malformed. */
static inline __attribute__((always_inline)) int next_field(cursor *c, field *f)
{
    size_t avail = (size_t)(c->end - c->p);
    if (avail == 0)
        return 0;
    const uint8_t *p = c->p;
    size_t n;
    if ((p[0] & 0xf8) == 0)
        return -1; /* protobuf-c refuses a tag whose first byte has no field bits */
    if (p[0] < 0x80) {
        n = 1;
    } else if (!(n = scan_varint(p, avail, 5))) {
        return -1;
    }
    f->num = (uint32_t)(varint_value(p, n) >> 3);
    f->wt = p[0] & 7;
    p += n;
    avail -= n;
    f->raw = p;
    switch (f->wt) {
    case WT_VARINT:
        if (avail && p[0] < 0x80)
            n = 1;
        else if (!(n = scan_varint(p, avail, 10)))
            return -1;
        f->data = p;
        f->len = n;
        break;
    case WT_64BIT:
    case WT_32BIT:
        n = f->wt == WT_64BIT ? 8 : 4;
        if (avail < n)
            return -1;
        f->data = p;
        f->len = n;
        break;
    case WT_LEN: {
        size_t hdr = scan_varint(p, avail, 5);
        if (!hdr)
            return -1;
        uint64_t body = varint_value(p, hdr);
        if (body > avail - hdr)
            return -1;
        f->data = p + hdr;
        f->len = body;
        n = hdr + body;
        break;
    }
    default:
        return -1; /* groups and undefined wire types */
    }
    f->raw_len = n;
    c->p = p + n;
    return 1;
}

static inline uint64_t f_varint(const field *f)
{
    return f->len == 1 ? f->data[0] : varint_value(f->data, f->len);
}

static inline int32_t unzigzag32(uint32_t v)
{
    return (int32_t)((v >> 1) ^ (0u - (v & 1)));
}

static inline int64_t unzigzag64(uint64_t v)
{
    return (int64_t)((v >> 1) ^ (0ull - (v & 1)));
}

static int raw_bool(const field *f)
{
    for (size_t i = 0; i < f->raw_len; i++)
        if (f->raw[i] & 0x7f)
            return 1;
    return 0;
}

/* Every string field costs at least a tag byte and a length byte besides
 * its text, so all of a record's strings with their NULs fit in a buffer of
 * the record's length + 1, taken once per record (begin_record). */
static inline const char *copy_string(et_decoder *d, const field *f)
{
    char *s = d->strings + d->strings_used;
    memcpy(s, f->data, f->len);
    s[f->len] = '\0';
    d->strings_used += f->len + 1;
    return s;
}

static int begin_record(et_decoder *d, size_t len)
{
    d->strings = arena_alloc(d->a, len + 1);
    d->strings_used = 0;
    return d->strings ? ET_DECODE_OK : ET_DECODE_NOMEM;
}

static inline bool is_list_kind(enum vet_value_kind kind)
{
    return kind % 2 == 0;
}

/* ---- repeated uint64 (deps) ---------------------------------------------- */

static int append_u64(uint64_t **items, size_t *n, size_t *cap, uint64_t v)
{
    if (grow_array((void **)items, cap, *n + 1, sizeof **items, 16) != 0)
        return ET_DECODE_NOMEM;
    (*items)[(*n)++] = v;
    return ET_DECODE_OK;
}

static int deps_field(const field *f, uint64_t **items, size_t *n, size_t *cap)
{
    if (f->wt == WT_VARINT)
        return append_u64(items, n, cap, f_varint(f));
    if (f->wt != WT_LEN)
        return ET_DECODE_BAD;
    const uint8_t *p = f->data, *end = f->data + f->len;
    /* Every byte without the continuation bit ends one value. */
    size_t count = 0;
    for (const uint8_t *q = p; q < end; q++)
        count += !(*q & 0x80);
    if (grow_array((void **)items, cap, *n + count, sizeof **items, 16) != 0)
        return ET_DECODE_NOMEM;
    while (p < end) {
        size_t k = p[0] < 0x80 ? 1 : scan_varint(p, (size_t)(end - p), 10);
        if (!k)
            return ET_DECODE_BAD;
        (*items)[(*n)++] = k == 1 ? p[0] : varint_value(p, k);
        p += k;
    }
    return ET_DECODE_OK;
}

/* ---- lists ---------------------------------------------------------------- */

enum elem { E_VARINT, E_FIXED32, E_FIXED64, E_BOOL, E_LEN };

static enum elem list_elem(enum vet_value_kind kind)
{
    switch (kind) {
    case VET_DOUBLE_LIST: case VET_FIXED64_LIST: case VET_SFIXED64_LIST: return E_FIXED64;
    case VET_FLOAT_LIST: case VET_FIXED32_LIST: case VET_SFIXED32_LIST: return E_FIXED32;
    case VET_BOOL_LIST: return E_BOOL;
    case VET_STRING_LIST: case VET_BYTES_LIST: return E_LEN;
    default: return E_VARINT;
    }
}

/* How many elements one `values` field contributes (pass 1). */
static int count_values(enum elem e, const field *f, size_t *count)
{
    if (f->wt != WT_LEN || e == E_LEN) {
        *count += 1;
        return ET_DECODE_OK;
    }
    if (e == E_FIXED32 || e == E_FIXED64) {
        size_t w = e == E_FIXED32 ? 4 : 8;
        if (f->len % w)
            return ET_DECODE_BAD;
        *count += f->len / w;
    } else {
        for (size_t i = 0; i < f->len; i++)
            *count += !(f->data[i] & 0x80);
    }
    return ET_DECODE_OK;
}

/* Stores a varint-coded element by list kind. */
static void put_varint(enum vet_value_kind kind, void *items, size_t i, uint64_t v)
{
    switch (kind) {
    case VET_INT32_LIST: ((int32_t *)items)[i] = (int32_t)(uint32_t)v; break;
    case VET_UINT32_LIST: ((uint32_t *)items)[i] = (uint32_t)v; break;
    case VET_SINT32_LIST: ((int32_t *)items)[i] = unzigzag32((uint32_t)v); break;
    case VET_SINT64_LIST: ((int64_t *)items)[i] = unzigzag64(v); break;
    case VET_INT64_LIST: ((int64_t *)items)[i] = (int64_t)v; break;
    default: ((uint64_t *)items)[i] = v; break;
    }
}

static void put_fixed(enum vet_value_kind kind, void *items, size_t i, const uint8_t *p)
{
    size_t w = list_elem(kind) == E_FIXED32 ? 4 : 8;
    memcpy((uint8_t *)items + i * w, p, w);
}

/* Pass 2: decodes one `values` field into items[*n...]. */
static int fill_values(et_decoder *d, enum vet_value_kind kind, const field *f, void *items, size_t *n)
{
    enum elem e = list_elem(kind);
    if (e == E_LEN) {
        if (f->wt != WT_LEN)
            return ET_DECODE_BAD;
        if (kind == VET_STRING_LIST) {
            ((const char **)items)[(*n)++] = copy_string(d, f);
        } else {
            const uint8_t *b = f->len ? (const uint8_t *)copy_string(d, f) : NULL;
            ((vet_bytes *)items)[(*n)++] = (vet_bytes){f->len, b};
        }
        return ET_DECODE_OK;
    }
    if (f->wt != WT_LEN) {
        /* One unpacked element; bools take any wire type in protobuf-c. */
        if (e == E_BOOL)
            ((int *)items)[(*n)++] = raw_bool(f);
        else if (e == E_VARINT && f->wt == WT_VARINT)
            put_varint(kind, items, (*n)++, f_varint(f));
        else if ((e == E_FIXED32 && f->wt == WT_32BIT) || (e == E_FIXED64 && f->wt == WT_64BIT))
            put_fixed(kind, items, (*n)++, f->data);
        else
            return ET_DECODE_BAD;
        return ET_DECODE_OK;
    }
    const uint8_t *p = f->data, *end = f->data + f->len;
    if (e == E_BOOL) {
        /* Packed bools are varints; any payload bit makes one true. */
        while (p < end) {
            size_t k = scan_varint(p, (size_t)(end - p), 10);
            if (!k)
                return ET_DECODE_BAD;
            field one = {.raw = p, .raw_len = k};
            ((int *)items)[(*n)++] = raw_bool(&one);
            p += k;
        }
    } else if (e == E_FIXED32 || e == E_FIXED64) {
        size_t w = e == E_FIXED32 ? 4 : 8;
        for (; p < end; p += w)
            put_fixed(kind, items, (*n)++, p);
    } else {
        while (p < end) {
            size_t k = scan_varint(p, (size_t)(end - p), 10);
            if (!k)
                return ET_DECODE_BAD;
            put_varint(kind, items, (*n)++, varint_value(p, k));
            p += k;
        }
    }
    return ET_DECODE_OK;
}

/* A list wrapper message: field 1 `values`, anything else skipped. */
static int list_value(et_decoder *d, enum vet_value_kind kind, const field *msg, vet_list *out)
{
    cursor c = {msg->data, msg->data + msg->len};
    field f;
    int rc;
    size_t count = 0;
    enum elem e = list_elem(kind);
    while ((rc = next_field(&c, &f)) == 1)
        if (f.num == 1 && (rc = count_values(e, &f, &count)) != ET_DECODE_OK)
            return rc;
    if (rc < 0)
        return ET_DECODE_BAD;
    out->n = 0;
    out->items = NULL;
    /* Pass 2 runs even for no elements: a lone unterminated varint counts
     * as none but still makes the record invalid. */
    void *items = count ? arena_alloc(d->a, count * et_list_item_size(kind)) : NULL;
    if (count && !items)
        return ET_DECODE_NOMEM;
    c.p = msg->data;
    size_t n = 0;
    while (next_field(&c, &f) == 1)
        if (f.num == 1 && (rc = fill_values(d, kind, &f, items, &n)) != ET_DECODE_OK)
            return rc;
    out->n = n;
    out->items = n ? items : NULL;
    return ET_DECODE_OK;
}

/* ---- attributes ------------------------------------------------------------ */

static int scalar_value(et_decoder *d, vet_attr *a, const field *f)
{
    enum vet_value_kind kind = (enum vet_value_kind)f->num;
    int need = -1; /* wire type the kind requires; -1: any (bool) */
    switch (kind) {
    case VET_DOUBLE: case VET_FIXED64: case VET_SFIXED64: need = WT_64BIT; break;
    case VET_FLOAT: case VET_FIXED32: case VET_SFIXED32: need = WT_32BIT; break;
    case VET_STRING: case VET_BYTES: need = WT_LEN; break;
    case VET_BOOL: break;
    default: need = WT_VARINT; break;
    }
    if (need >= 0 && f->wt != need)
        return ET_DECODE_BAD;
    memset(&a->v, 0, sizeof a->v);
    switch (kind) {
    case VET_DOUBLE: memcpy(&a->v.d, f->data, 8); break;
    case VET_FLOAT: memcpy(&a->v.f, f->data, 4); break;
    case VET_FIXED64: memcpy(&a->v.u64, f->data, 8); break;
    case VET_SFIXED64: memcpy(&a->v.i64, f->data, 8); break;
    case VET_FIXED32: memcpy(&a->v.u32, f->data, 4); break;
    case VET_SFIXED32: memcpy(&a->v.i32, f->data, 4); break;
    case VET_INT32: a->v.i32 = (int32_t)(uint32_t)f_varint(f); break;
    case VET_UINT32: a->v.u32 = (uint32_t)f_varint(f); break;
    case VET_SINT32: a->v.i32 = unzigzag32((uint32_t)f_varint(f)); break;
    case VET_INT64: a->v.i64 = (int64_t)f_varint(f); break;
    case VET_UINT64: a->v.u64 = f_varint(f); break;
    case VET_SINT64: a->v.i64 = unzigzag64(f_varint(f)); break;
    case VET_BOOL: a->v.b = raw_bool(f); break;
    case VET_STRING: a->v.s = copy_string(d, f); break;
    case VET_BYTES:
        a->v.bytes = (vet_bytes){f->len, f->len ? (const uint8_t *)copy_string(d, f) : NULL};
        break;
    default: break;
    }
    return ET_DECODE_OK;
}

static int attribute(et_decoder *d, const field *msg, vet_attr *a)
{
    cursor c = {msg->data, msg->data + msg->len};
    field f;
    int rc;
    memset(a, 0, sizeof *a);
    a->name = a->doc_string = "";
    while ((rc = next_field(&c, &f)) == 1) {
        if (f.num == 1 || f.num == 2) {
            if (f.wt != WT_LEN)
                return ET_DECODE_BAD;
            *(f.num == 1 ? &a->name : &a->doc_string) = copy_string(d, &f);
        } else if (f.num >= VET_DOUBLE && f.num <= VET_BYTES_LIST) {
            /* A oneof keeps only its last member. */
            enum vet_value_kind kind = (enum vet_value_kind)f.num;
            if (is_list_kind(kind)) {
                if (f.wt != WT_LEN)
                    return ET_DECODE_BAD;
                memset(&a->v, 0, sizeof a->v);
                rc = list_value(d, kind, &f, &a->v.list);
            } else {
                rc = scalar_value(d, a, &f);
            }
            if (rc != ET_DECODE_OK)
                return rc;
            a->kind = kind;
        }
    }
    return rc < 0 ? ET_DECODE_BAD : ET_DECODE_OK;
}

static int append_attr(et_decoder *d, const field *f)
{
    if (f->wt != WT_LEN)
        return ET_DECODE_BAD;
    if (grow_array((void **)&d->attrs, &d->cap_attrs, d->n_attrs + 1, sizeof *d->attrs, 16) != 0)
        return ET_DECODE_NOMEM;
    int rc = attribute(d, f, &d->attrs[d->n_attrs]);
    if (rc == ET_DECODE_OK)
        d->n_attrs++;
    return rc;
}

/* ---- IOInfo ------------------------------------------------------------------ */

/* A second occurrence merges into the first: fields it carries win. */
static int io_info(et_decoder *d, const field *msg, vet_io *io, const vet_io **slot)
{
    if (msg->wt != WT_LEN)
        return ET_DECODE_BAD;
    if (!*slot)
        io->values = io->shapes = io->types = "";
    cursor c = {msg->data, msg->data + msg->len};
    field f;
    int rc;
    while ((rc = next_field(&c, &f)) == 1) {
        if (f.num < 1 || f.num > 3)
            continue;
        if (f.wt != WT_LEN)
            return ET_DECODE_BAD;
        *(f.num == 1 ? &io->values : f.num == 2 ? &io->shapes : &io->types) = copy_string(d, &f);
    }
    if (rc < 0)
        return ET_DECODE_BAD;
    *slot = io;
    return ET_DECODE_OK;
}

/* ---- records ------------------------------------------------------------------ */

void et_decoder_init(et_decoder *d, arena *a)
{
    memset(d, 0, sizeof *d);
    d->a = a;
}

void et_decoder_free(et_decoder *d)
{
    free(d->ctrl);
    free(d->data);
    free(d->attrs);
    memset(d, 0, sizeof *d);
}

static int node_field(et_decoder *d, const field *f, vet_node *out)
{
    switch (f->num) {
    case 1: case 3: case 6: case 7: {
        if (f->wt != WT_VARINT)
            return ET_DECODE_BAD;
        uint64_t v = f_varint(f);
        if (f->num == 1)
            out->id = v;
        else if (f->num == 3)
            out->type = (int32_t)(uint32_t)v;
        else if (f->num == 6)
            out->start_time_micros = v;
        else
            out->duration_micros = v;
        return ET_DECODE_OK;
    }
    case 2:
        if (f->wt != WT_LEN)
            return ET_DECODE_BAD;
        out->name = copy_string(d, f);
        return ET_DECODE_OK;
    case 4: return deps_field(f, &d->ctrl, &d->n_ctrl, &d->cap_ctrl);
    case 5: return deps_field(f, &d->data, &d->n_data, &d->cap_data);
    case 8: return io_info(d, f, &d->inputs, &out->inputs);
    case 9: return io_info(d, f, &d->outputs, &out->outputs);
    case 10: return append_attr(d, f);
    default: return ET_DECODE_OK; /* unknown fields are skipped */
    }
}

int et_decode_node(et_decoder *d, const uint8_t *p, size_t len, vet_node *out)
{
    cursor c = {p, p + len};
    field f;
    int rc;
    memset(out, 0, sizeof *out);
    out->name = "";
    d->n_ctrl = d->n_data = d->n_attrs = 0;
    if (begin_record(d, len) != ET_DECODE_OK)
        return ET_DECODE_NOMEM;
    while ((rc = next_field(&c, &f)) == 1)
        if ((rc = node_field(d, &f, out)) != ET_DECODE_OK)
            return rc;
    if (rc < 0)
        return ET_DECODE_BAD;
    out->n_ctrl_deps = d->n_ctrl;
    out->ctrl_deps = d->n_ctrl ? d->ctrl : NULL;
    out->n_data_deps = d->n_data;
    out->data_deps = d->n_data ? d->data : NULL;
    out->n_attrs = d->n_attrs;
    out->attrs = d->n_attrs ? d->attrs : NULL;
    return ET_DECODE_OK;
}

int et_decode_metadata(et_decoder *d, const uint8_t *p, size_t len, vet_metadata *out)
{
    cursor c = {p, p + len};
    field f;
    int rc;
    out->version = "";
    d->n_attrs = 0;
    if (begin_record(d, len) != ET_DECODE_OK)
        return ET_DECODE_NOMEM;
    while ((rc = next_field(&c, &f)) == 1) {
        if (f.num == 1) {
            if (f.wt != WT_LEN)
                return ET_DECODE_BAD;
            out->version = copy_string(d, &f);
        } else if (f.num == 2 && (rc = append_attr(d, &f)) != ET_DECODE_OK) {
            return rc;
        }
    }
    if (rc < 0)
        return ET_DECODE_BAD;
    out->n_attrs = d->n_attrs;
    out->attrs = d->n_attrs ? d->attrs : NULL;
    return ET_DECODE_OK;
}
