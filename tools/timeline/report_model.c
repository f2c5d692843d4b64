/*
 * report_model.c - loading and checking a vimana report.
 */
#include "timeline/report_model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "util/json_doc.h"

int report_fail(char err[REPORT_MSG_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, REPORT_MSG_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

/* The whole file, or as much as tells that it is too large for the JSON
 * reader; NULL with err set on failure. */
static char *read_file(const char *path, size_t *len, char err[REPORT_MSG_MAX])
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        report_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *text = input_file_read(f, (size_t)INT32_MAX + 1, len);
    bool bad = ferror(f);
    fclose(f);
    if (!text) {
        report_fail(err, "%s: out of memory", path);
        return NULL;
    }
    if (bad) {
        free(text);
        report_fail(err, "%s: read error", path);
        return NULL;
    }
    return text;
}

int report_get_u64(const char *path, const char *where, json_object *rec, const char *key, uint64_t *out,
                   char err[REPORT_MSG_MAX])
{
    json_object *v;
    if (!json_object_object_get_ex(rec, key, &v))
        return report_fail(err, "%s: %s: missing \"%s\"", path, where, key);
    if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
        return report_fail(err, "%s: %s: \"%s\" is not a non-negative integer", path, where, key);
    *out = json_object_get_uint64(v);
    return 0;
}

int report_record_where(const char *path, const char *array, size_t i, json_object *rec, char *where, size_t n,
                        char err[REPORT_MSG_MAX])
{
    snprintf(where, n, "%s[%zu]", array, i);
    if (!json_object_is_type(rec, json_type_object))
        return report_fail(err, "%s: %s is not an object", path, where);
    return 0;
}

static int load_collective(const char *path, json_object *rec, size_t i, report_collective *c, char err[REPORT_MSG_MAX])
{
    char where[48];
    if (report_record_where(path, "collectives", i, rec, where, sizeof where, err) != 0)
        return -1;
    json_object *name;
    if (!json_object_object_get_ex(rec, "name", &name))
        return report_fail(err, "%s: %s: missing \"name\"", path, where);
    if (!json_object_is_type(name, json_type_string))
        return report_fail(err, "%s: %s: \"name\" is not a string", path, where);
    c->name = json_object_get_string(name);
    c->name_len = (size_t)json_object_get_string_len(name);
    c->record = rec;
    c->index = i;
    if (report_get_u64(path, where, rec, "npu", &c->npu, err) != 0 ||
        report_get_u64(path, where, rec, "start", &c->start, err) != 0 ||
        report_get_u64(path, where, rec, "end", &c->end, err) != 0)
        return -1;
    if (c->end < c->start)
        return report_fail(err, "%s: %s: \"end\" %llu is before \"start\" %llu", path, where,
                           (unsigned long long)c->end, (unsigned long long)c->start);
    return 0;
}

static int load_npu(const char *path, json_object *rec, size_t i, report_npu *n, char err[REPORT_MSG_MAX])
{
    char where[48];
    if (report_record_where(path, "npus", i, rec, where, sizeof where, err) != 0)
        return -1;
    n->record = rec;
    if (report_get_u64(path, where, rec, "npu", &n->npu, err) != 0 ||
        report_get_u64(path, where, rec, "finish", &n->finish, err) != 0)
        return -1;
    return 0;
}

/* The array member `key`; NULL (not an error) when absent and optional. */
static int get_array(const char *path, json_object *root, const char *key, bool required, json_object **out,
                     char err[REPORT_MSG_MAX])
{
    *out = NULL;
    if (!json_object_object_get_ex(root, key, out))
        return required ? report_fail(err, "%s: not a vimana report: no \"%s\" array", path, key) : 0;
    if (!json_object_is_type(*out, json_type_array))
        return report_fail(err, "%s: not a vimana report: \"%s\" is not an array", path, key);
    return 0;
}

static const char *optional_string(json_object *root, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(root, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int load_members(const char *path, report *r, char err[REPORT_MSG_MAX])
{
    if (!json_object_is_type(r->root, json_type_object))
        return report_fail(err, "%s: not a vimana report: the document is not a JSON object", path);
    json_object *colls, *npus;
    if (get_array(path, r->root, "collectives", true, &colls, err) != 0 ||
        get_array(path, r->root, "npus", false, &npus, err) != 0)
        return -1;
    r->generator = optional_string(r->root, "generator");
    r->network_backend = optional_string(r->root, "network_backend");
    size_t nc = json_object_array_length(colls), nn = npus ? json_object_array_length(npus) : 0;
    r->collectives = calloc(nc ? nc : 1, sizeof *r->collectives);
    r->npus = calloc(nn ? nn : 1, sizeof *r->npus);
    if (!r->collectives || !r->npus)
        return report_fail(err, "%s: out of memory", path);
    for (size_t i = 0; i < nc; i++, r->n_collectives++)
        if (load_collective(path, json_object_array_get_idx(colls, i), i, &r->collectives[i], err) != 0)
            return -1;
    for (size_t i = 0; i < nn; i++, r->n_npus++)
        if (load_npu(path, json_object_array_get_idx(npus, i), i, &r->npus[i], err) != 0)
            return -1;
    return 0;
}

int report_load(const char *path, report *r, char err[REPORT_MSG_MAX])
{
    memset(r, 0, sizeof *r);
    size_t len;
    char *text = read_file(path, &len, err);
    if (!text)
        return -1;
    if (len > (size_t)INT32_MAX) {
        free(text);
        return report_fail(err, "%s: too large for the JSON reader (over 2 GiB)", path);
    }
    int rc = json_doc_parse(path, text, len, 0, &r->root, err, REPORT_MSG_MAX);
    free(text);
    if (rc != 0)
        return -1;
    return load_members(path, r, err);
}

void report_free(report *r)
{
    json_object_put(r->root);
    free(r->collectives);
    free(r->npus);
    memset(r, 0, sizeof *r);
}
