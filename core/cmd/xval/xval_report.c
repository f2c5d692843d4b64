/*
 * xval_report.c - the collective and link records of a run's JSON report,
 * as docs/simulator.md ("Timeline and report JSON") describes them. The
 * report is this vimana's own output, so a missing field reads as 0 (or
 * an empty name) rather than as an error.
 */
#include "cmd/xval/xval_report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t field_u64(json_object *o, const char *key, bool *present)
{
    json_object *v = NULL;
    bool has = json_object_object_get_ex(o, key, &v) && v && !json_object_is_type(v, json_type_null);
    if (present)
        *present = has;
    return has ? json_object_get_uint64(v) : 0;
}

static void field_str(json_object *o, const char *key, char *buf, size_t len)
{
    json_object *v = NULL;
    const char *s = json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
                        ? json_object_get_string(v) : "";
    snprintf(buf, len, "%s", s);
}

static int read_collectives(json_object *root, uint32_t npu, xval_detail *d)
{
    json_object *arr = NULL;
    if (!json_object_object_get_ex(root, "collectives", &arr) || !json_object_is_type(arr, json_type_array))
        return 0;
    /* Every NPU's records are there: the chosen NPU's are counted first,
     * so that memory follows one NPU's collectives, not the whole report. */
    size_t n = json_object_array_length(arr), mine = 0;
    for (size_t i = 0; i < n; i++)
        mine += field_u64(json_object_array_get_idx(arr, i), "npu", NULL) == npu;
    d->colls = calloc(mine ? mine : 1, sizeof *d->colls);
    if (!d->colls)
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_object *r = json_object_array_get_idx(arr, i);
        if (field_u64(r, "npu", NULL) != npu)
            continue;
        xval_coll *c = &d->colls[d->n_colls++];
        c->node = field_u64(r, "node", NULL);
        field_str(r, "name", c->name, sizeof c->name);
        field_str(r, "type", c->type, sizeof c->type);
        c->bytes = field_u64(r, "bytes", NULL);
        c->start = field_u64(r, "start", NULL);
        c->duration = field_u64(r, "duration", NULL);
    }
    return 0;
}

static int read_links(json_object *root, xval_detail *d)
{
    json_object *arr = NULL;
    if (!json_object_object_get_ex(root, "links", &arr) || !json_object_is_type(arr, json_type_array))
        return 0;
    size_t n = json_object_array_length(arr);
    d->has_links = true;
    d->links = calloc(n ? n : 1, sizeof *d->links);
    if (!d->links)
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_object *r = json_object_array_get_idx(arr, i);
        xval_link *l = &d->links[d->n_links++];
        l->src_device = field_u64(r, "src_device", NULL);
        l->dst_device = field_u64(r, "dst_device", NULL);
        field_str(r, "src", l->src, sizeof l->src);
        field_str(r, "dst", l->dst, sizeof l->dst);
        l->bytes = field_u64(r, "bytes", NULL);
        l->busy_ticks = field_u64(r, "busy_ticks", NULL);
        l->max_queue_ticks = field_u64(r, "max_queue_ticks", &l->has_queue);
    }
    return 0;
}

int xval_report_read(const char *path, uint32_t npu, xval_detail *d)
{
    memset(d, 0, sizeof *d);
    json_object *root = json_object_from_file(path);
    if (!root)
        return -1;
    int rc = read_collectives(root, npu, d) != 0 || read_links(root, d) != 0 ? -1 : 0;
    json_object_put(root);
    if (rc != 0)
        xval_detail_free(d);
    d->ran = rc == 0;
    return rc;
}
