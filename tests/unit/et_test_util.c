/* mkstemps is a BSD/GNU extension. */
#define _DEFAULT_SOURCE
#include "et_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/grow.h"

char *tu_temp_path(const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    size_t cap = strlen(dir ? dir : "/tmp") + strlen(suffix) + 32;
    char *path = malloc(cap);
    if (!path)
        return NULL;
    snprintf(path, cap, "%s/vimana-et-XXXXXX%s", dir ? dir : "/tmp", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) {
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

char *tu_temp_file(const void *bytes, size_t len)
{
    char *path = tu_temp_path(".et");
    FILE *f = path ? fopen(path, "wb") : NULL;
    if (!f || (len && fwrite(bytes, 1, len, f) != len)) {
        if (f)
            fclose(f);
        free(path);
        return NULL;
    }
    fclose(f);
    return path;
}

uint8_t *tu_read_file(const char *path, size_t *len)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return NULL;
    size_t cap = 0, n = 0;
    uint8_t *buf = NULL;
    for (;;) {
        if (grow_array((void **)&buf, &cap, n + 1, 1, 1 << 16) != 0) {
            free(buf);
            buf = NULL;
            break;
        }
        int got = gzread(gz, buf + n, (unsigned)(cap - n));
        if (got < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(gz);
    *len = n;
    return buf;
}

const char *tu_shared(void)
{
    const char *shared = getenv("VIMANA_SHARED");
    char probe[4096];
    struct stat st;
    if (!shared)
        return NULL;
    snprintf(probe, sizeof probe, "%s/golden", shared);
    return stat(probe, &st) == 0 && S_ISDIR(st.st_mode) ? shared : NULL;
}

const char *tu_ref(void)
{
    static char data[4096];
    const char *shared = tu_shared();
    const char *src = getenv("VIMANA_SRCDIR");
    if (shared)
        return shared;
    snprintf(data, sizeof data, "%s/tests/data", src ? src : ".");
    return data;
}

static int bytes_equal(vet_bytes x, vet_bytes y)
{
    return x.len == y.len && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
}

static int list_equal(enum vet_value_kind kind, const vet_list *x, const vet_list *y)
{
    if (x->n != y->n)
        return 0;
    for (size_t i = 0; i < x->n; i++) {
        if (kind == VET_STRING_LIST) {
            if (strcmp(((const char *const *)x->items)[i], ((const char *const *)y->items)[i]) != 0)
                return 0;
        } else if (kind == VET_BYTES_LIST) {
            if (!bytes_equal(((const vet_bytes *)x->items)[i], ((const vet_bytes *)y->items)[i]))
                return 0;
        } else {
            size_t w = vet_list_item_size(kind);
            if (memcmp((const char *)x->items + i * w, (const char *)y->items + i * w, w) != 0)
                return 0;
        }
    }
    return 1;
}

static int scalar_equal(const vet_attr *a, const vet_attr *b)
{
    switch (a->kind) {
    case VET_VALUE_NONE: return 1;
    case VET_DOUBLE: return memcmp(&a->v.d, &b->v.d, sizeof a->v.d) == 0;
    case VET_FLOAT: return memcmp(&a->v.f, &b->v.f, sizeof a->v.f) == 0;
    case VET_INT32: case VET_SINT32: case VET_SFIXED32: return a->v.i32 == b->v.i32;
    case VET_UINT32: case VET_FIXED32: return a->v.u32 == b->v.u32;
    case VET_INT64: case VET_SINT64: case VET_SFIXED64: return a->v.i64 == b->v.i64;
    case VET_UINT64: case VET_FIXED64: return a->v.u64 == b->v.u64;
    case VET_BOOL: return a->v.b == b->v.b;
    case VET_STRING: return strcmp(a->v.s, b->v.s) == 0;
    case VET_BYTES: return bytes_equal(a->v.bytes, b->v.bytes);
    default: return 0;
    }
}

int tu_attr_equal(const vet_attr *a, const vet_attr *b, char *why, size_t cap)
{
    if (strcmp(a->name, b->name) != 0 || strcmp(a->doc_string, b->doc_string) != 0) {
        snprintf(why, cap, "attribute name/doc \"%s\"/\"%s\" vs \"%s\"/\"%s\"", a->name, a->doc_string,
                 b->name, b->doc_string);
        return 0;
    }
    if (a->kind != b->kind) {
        snprintf(why, cap, "attribute %s: kind %d vs %d", a->name, (int)a->kind, (int)b->kind);
        return 0;
    }
    int same = vet_value_kind_is_list(a->kind) ? list_equal(a->kind, &a->v.list, &b->v.list) : scalar_equal(a, b);
    if (!same)
        snprintf(why, cap, "attribute %s: values differ", a->name);
    return same;
}

static int attrs_equal(const vet_attr *a, size_t na, const vet_attr *b, size_t nb, char *why, size_t cap)
{
    if (na != nb) {
        snprintf(why, cap, "%zu vs %zu attributes", na, nb);
        return 0;
    }
    for (size_t i = 0; i < na; i++)
        if (!tu_attr_equal(&a[i], &b[i], why, cap))
            return 0;
    return 1;
}

static int io_equal(const vet_io *a, const vet_io *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a->values, b->values) == 0 && strcmp(a->shapes, b->shapes) == 0 &&
           strcmp(a->types, b->types) == 0;
}

static int deps_equal(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

int tu_node_equal(const vet_node *a, const vet_node *b, char *why, size_t cap)
{
    if (a->id != b->id || strcmp(a->name, b->name) != 0 || a->type != b->type ||
        a->start_time_micros != b->start_time_micros || a->duration_micros != b->duration_micros) {
        snprintf(why, cap, "node header differs (id %llu vs %llu)", (unsigned long long)a->id,
                 (unsigned long long)b->id);
        return 0;
    }
    if (!deps_equal(a->ctrl_deps, a->n_ctrl_deps, b->ctrl_deps, b->n_ctrl_deps) ||
        !deps_equal(a->data_deps, a->n_data_deps, b->data_deps, b->n_data_deps)) {
        snprintf(why, cap, "node %llu: dependencies differ", (unsigned long long)a->id);
        return 0;
    }
    if (!io_equal(a->inputs, b->inputs) || !io_equal(a->outputs, b->outputs)) {
        snprintf(why, cap, "node %llu: inputs/outputs differ", (unsigned long long)a->id);
        return 0;
    }
    return attrs_equal(a->attrs, a->n_attrs, b->attrs, b->n_attrs, why, cap);
}

int tu_metadata_equal(const vet_metadata *a, const vet_metadata *b, char *why, size_t cap)
{
    if (strcmp(a->version, b->version) != 0) {
        snprintf(why, cap, "version \"%s\" vs \"%s\"", a->version, b->version);
        return 0;
    }
    return attrs_equal(a->attrs, a->n_attrs, b->attrs, b->n_attrs, why, cap);
}

int tu_set_list(vet_attr *a, const tu_lists *lists)
{
    const vet_list *l;
    switch (a->kind) {
    case VET_DOUBLE_LIST: l = &lists->doubles; break;
    case VET_FLOAT_LIST: l = &lists->floats; break;
    case VET_INT32_LIST: case VET_SINT32_LIST: case VET_SFIXED32_LIST: l = &lists->i32s; break;
    case VET_UINT32_LIST: case VET_FIXED32_LIST: l = &lists->u32s; break;
    case VET_INT64_LIST: case VET_SINT64_LIST: case VET_SFIXED64_LIST: l = &lists->i64s; break;
    case VET_UINT64_LIST: case VET_FIXED64_LIST: l = &lists->u64s; break;
    case VET_BOOL_LIST: l = &lists->bools; break;
    case VET_STRING_LIST: l = &lists->strings; break;
    case VET_BYTES_LIST: l = &lists->bytes; break;
    default: return 0;
    }
    a->v.list = *l;
    return 1;
}

size_t tu_all_kinds(vet_attr *out, char names[][40], const char *doc, const tu_scalars *scalars,
                    const tu_lists *lists)
{
    size_t n = 0;
    for (int k = VET_DOUBLE; k <= VET_BYTES_LIST; k++) {
        enum vet_value_kind kind = (enum vet_value_kind)k;
        for (int dflt = 0; dflt <= 1; dflt++) {
            vet_attr *a = &out[n];
            snprintf(names[n], 40, "%s%s", vet_value_kind_name(kind), dflt ? "_default" : "");
            memset(a, 0, sizeof *a);
            a->name = names[n++];
            a->doc_string = dflt ? "" : doc;
            a->kind = kind;
            if (dflt) {
                if (kind == VET_STRING)
                    a->v.s = "";
                continue; /* zeroed: 0, false, empty bytes, empty list */
            }
            switch (kind) {
            case VET_DOUBLE: a->v.d = scalars->d; break;
            case VET_FLOAT: a->v.f = scalars->f; break;
            case VET_INT32: case VET_SFIXED32: a->v.i32 = scalars->i32; break;
            case VET_SINT32: a->v.i32 = scalars->sint32; break;
            case VET_INT64: case VET_SFIXED64: a->v.i64 = scalars->i64; break;
            case VET_SINT64: a->v.i64 = scalars->sint64; break;
            case VET_UINT32: case VET_FIXED32: a->v.u32 = scalars->u32; break;
            case VET_UINT64: case VET_FIXED64: a->v.u64 = scalars->u64; break;
            case VET_BOOL: a->v.b = scalars->b; break;
            case VET_STRING: a->v.s = scalars->s; break;
            case VET_BYTES: a->v.bytes = scalars->bytes; break;
            default: tu_set_list(a, lists); break;
            }
        }
    }
    return n;
}
