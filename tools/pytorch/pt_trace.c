#include "pytorch/pt_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pytorch/pyjson.h"
#include "pytorch/pyvalue.h"

const char *const pt_supported_schemas[] = {
    "1.0.2-chakra.0.0.4", "1.0.3-chakra.0.0.4", "1.1.0-chakra.0.0.4",
    "1.1.1-chakra.0.0.4", "1.1.1-chakra.1.0.0", NULL,
};

/* How each field is filled: the node key it comes from (NULL: only from
 * attrs) and the attrs name that overrides it. */
static const struct {
    const char *key;
    const char *attr;
} field_source[PT_FIELD_COUNT] = {
    [PT_F_NAME] = {"name", "name"},
    [PT_F_PARENT] = {"ctrl_deps", "parent"},
    [PT_F_INPUTS] = {"inputs", "inputs"},
    [PT_F_OUTPUTS] = {"outputs", "outputs"},
    [PT_F_INCLUSIVE_DUR] = {"inclusive_dur", "inclusive_dur"},
    [PT_F_EXCLUSIVE_DUR] = {"exclusive_dur", "exclusive_dur"},
    [PT_F_TS] = {"ts", "ts"},
    [PT_F_INTER_THREAD_DEP] = {"inter_thread_dep", "inter_thread_dep"},
    [PT_F_SYNC_DEP] = {"sync_dep", "sync_dep"},
    [PT_F_CAT] = {"cat", "cat"},
    [PT_F_STREAM] = {"stream", "stream"},
    [PT_F_PG_NAME] = {"pg_name", "pg_name"},
    [PT_F_RF_ID] = {NULL, "rf_id"},
    [PT_F_FW_PARENT] = {NULL, "fw_parent"},
    [PT_F_SEQ_ID] = {NULL, "seq_id"},
    [PT_F_SCOPE] = {NULL, "scope"},
    [PT_F_TID] = {NULL, "tid"},
    [PT_F_FW_TID] = {NULL, "fw_tid"},
    [PT_F_OP_SCHEMA] = {NULL, "op_schema"},
};

/* Keys the reference reads with node_data[key] (KeyError when absent). */
static const enum pt_field_id required_fields[] = {PT_F_NAME, PT_F_PARENT, PT_F_INPUTS, PT_F_OUTPUTS};

const char *pt_field_name(enum pt_field_id f)
{
    return f == PT_F_PARENT ? "ctrl_deps" : field_source[f].attr;
}

uint32_t pt_trace_find(const pt_trace *t, uint64_t id)
{
    uint32_t i;
    return idmap_get(&t->index_of, id, &i) ? i : PT_NONE;
}

const pj_value *pt_node_attr(const pt_node *n, const char *name)
{
    const pj_value *found = NULL; /* the last entry wins, as with setattr() */
    size_t count = pj_len(n->attrs);
    for (size_t k = 0; k < count; k++) {
        const pj_value *entry = pj_at(n->attrs, k);
        const char *key = pj_str(pj_get(entry, "name"));
        if (key && strcmp(key, name) == 0)
            found = pj_get(entry, "value");
    }
    return found;
}

void pt_trace_free(pt_trace *t)
{
    pj_free(&t->doc);
    free(t->nodes);
    idmap_free(&t->index_of);
    free(t->by_id);
    free(t->child_off);
    free(t->child);
    free(t->gpu_child_off);
    free(t->gpu_child);
    memset(t, 0, sizeof *t);
}

/* ---- metadata ------------------------------------------------------------ */

static int get_key(const pt_trace *t, const pj_value *obj, const char *key, const pj_value **out, pt_error *err)
{
    if (!(*out = pj_get(obj, key)))
        return pt_fail(err, "%s: missing top-level key '%s'", t->path, key);
    return 0;
}

static int meta_string(const pt_trace *t, const char *key, const pj_value *v, const char **out, pt_error *err)
{
    if (!(*out = pj_str(v)))
        return pt_fail(err, "%s: top-level '%s' must be a string, got %s", t->path, key, pj_type_name(v));
    return 0;
}

static int meta_uint64(const pt_trace *t, const char *key, const pj_value *v, uint64_t *out, pt_error *err)
{
    if (pt_pyvalue_uint64(v, out) != 0)
        return pt_fail(err, "%s: top-level '%s' must be a non-negative integer", t->path, key);
    return 0;
}

static int check_schema(const pt_trace *t, const char *schema, pt_error *err)
{
    char list[256] = "";
    for (const char *const *s = pt_supported_schemas; *s; s++) {
        if (strcmp(schema, *s) == 0)
            return 0;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", s == pt_supported_schemas ? "" : ", ", *s);
    }
    if (strcmp(schema, "1.0.1") == 0)
        return pt_fail(err,
                       "%s: unsupported schema version '1.0.1' (the old flat host-trace format, "
                       "which the reference converter rejects too; supported: %s)",
                       t->path, list);
    return pt_fail(err, "%s: unsupported schema version '%s' (supported: %s)", t->path, schema, list);
}

/* Step 1: the five metadata keys (all required), then the schema check. */
static int read_metadata(pt_trace *t, pt_error *err)
{
    const pj_value *root = &t->doc.root;
    if (root->type != PJ_OBJECT)
        return pt_fail(err, "%s: the top level must be a JSON object, got %s", t->path, pj_type_name(root));
    const pj_value *schema, *pid, *time, *start_ts, *finish_ts;
    if (get_key(t, root, "schema", &schema, err) || get_key(t, root, "pid", &pid, err) ||
        get_key(t, root, "time", &time, err) || get_key(t, root, "start_ts", &start_ts, err) ||
        get_key(t, root, "finish_ts", &finish_ts, err))
        return -1;
    if (meta_string(t, "schema", schema, &t->meta.schema, err) || check_schema(t, t->meta.schema, err))
        return -1;
    if (meta_uint64(t, "pid", pid, &t->meta.pid, err) || meta_string(t, "time", time, &t->meta.time, err) ||
        meta_uint64(t, "start_ts", start_ts, &t->meta.start_ts, err) ||
        meta_uint64(t, "finish_ts", finish_ts, &t->meta.finish_ts, err))
        return -1;
    return 0;
}

/* ---- nodes --------------------------------------------------------------- */

static int node_fail(const pt_trace *t, size_t index, const pt_node *n, const char *what, pt_error *err)
{
    if (n && n->name)
        return pt_fail(err, "%s: node %llu (nodes[%zu]): %s", t->path, (unsigned long long)n->id, index, what);
    return pt_fail(err, "%s: nodes[%zu]: %s", t->path, index, what);
}

/* Applies the attrs list: each entry {"name": str, "value": any} sets the
 * field of that name (the reference sets every entry as an attribute). */
static int apply_attrs(const pt_trace *t, size_t index, const pj_value *obj, pt_node *n, pt_error *err)
{
    const pj_value *attrs = pj_get(obj, "attrs");
    if (!attrs)
        return 0;
    if (attrs->type != PJ_ARRAY)
        return node_fail(t, index, n, "'attrs' must be a list", err);
    n->attrs = attrs;
    for (size_t k = 0; k < attrs->n; k++) {
        const pj_value *entry = pj_at(attrs, k);
        const pj_value *name = pj_get(entry, "name"), *value = pj_get(entry, "value");
        if (!name || !value)
            return node_fail(t, index, n, "every attrs entry needs 'name' and 'value'", err);
        const char *s = pj_str(name);
        if (!s)
            return node_fail(t, index, n, "an attrs entry's 'name' must be a string", err);
        if (strcmp(s, "id") == 0)
            return node_fail(t, index, n, "an attrs entry named 'id' would replace the node id; not supported", err);
        for (int f = 0; f < PT_FIELD_COUNT; f++)
            if (strcmp(s, field_source[f].attr) == 0)
                n->field[f] = value;
    }
    return 0;
}

static bool is_thread_root_name(const char *name)
{
    return strcmp(name, "[pytorch|profiler|execution_graph|thread]") == 0 ||
           strcmp(name, "[pytorch|profiler|execution_trace|thread]") == 0;
}

/* Step 2 for one node: fields, attrs, classification. */
static int parse_node(pt_trace *t, size_t index, const pj_value *obj, pt_node *n, pt_error *err)
{
    memset(n, 0, sizeof *n);
    n->parent = PT_NONE;
    if (obj->type != PJ_OBJECT)
        return node_fail(t, index, NULL, "a node must be a JSON object", err);
    const pj_value *id = pj_get(obj, "id");
    if (!id)
        return node_fail(t, index, NULL, "missing key 'id'", err);
    if (id->type != PJ_INT || pt_pyvalue_uint64(id, &n->id) != 0)
        return node_fail(t, index, NULL, "'id' must be a non-negative integer", err);
    for (int f = 0; f < PT_FIELD_COUNT; f++)
        if (field_source[f].key)
            n->field[f] = pj_get(obj, field_source[f].key);
    for (size_t k = 0; k < sizeof required_fields / sizeof required_fields[0]; k++)
        if (!n->field[required_fields[k]]) {
            char what[64];
            snprintf(what, sizeof what, "missing key '%s'", field_source[required_fields[k]].key);
            return node_fail(t, index, NULL, what, err);
        }
    if (apply_attrs(t, index, obj, n, err) != 0)
        return -1;
    n->name = pj_str(n->field[PT_F_NAME]);
    if (!n->name)
        return node_fail(t, index, NULL, "'name' must be a string", err);
    n->is_gpu = n->field[PT_F_CAT] && n->field[PT_F_CAT]->type != PJ_NULL;
    n->kind = strstr(n->name, "process_group:init") ? PT_METADATA_OP : n->is_gpu ? PT_GPU_OP : PT_CPU_OP;
    n->is_record_param_comms = strstr(n->name, "record_param_comms") != NULL;
    n->is_nccl = strstr(n->name, "nccl:") != NULL;
    n->is_thread_root = is_thread_root_name(n->name);
    return 0;
}

/* The parent id: an integer (a bool counts as 0/1, as in Python) or null. */
static int resolve_parent(pt_trace *t, size_t index, pt_node *n, pt_error *err)
{
    const pj_value *v = n->field[PT_F_PARENT];
    int64_t s;
    uint64_t u;
    if (v->type == PJ_NULL)
        return 0;
    if (pt_pyvalue_uint64(v, &u) == 0)
        n->parent = pt_trace_find(t, u);
    else if (pt_pyvalue_int64(v, &s) != 0) /* a negative id names no node */
        return node_fail(t, index, n, "'ctrl_deps' (the parent id) must be an integer or null", err);
    n->parent_missing = n->parent == PT_NONE;
    return 0;
}

static int cmp_id_index(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Node indices in ascending id order (ids are unique by now). */
static int sort_by_id(pt_trace *t, pt_error *err)
{
    uint64_t *pairs = malloc(((size_t)t->n_nodes + 1) * 2 * sizeof *pairs);
    t->by_id = malloc(((size_t)t->n_nodes + 1) * sizeof *t->by_id);
    if (!pairs || !t->by_id) {
        free(pairs);
        return pt_fail(err, "%s: out of memory", t->path);
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        pairs[2 * i] = t->nodes[i].id;
        pairs[2 * i + 1] = i;
    }
    qsort(pairs, t->n_nodes, 2 * sizeof *pairs, cmp_id_index);
    for (uint32_t i = 0; i < t->n_nodes; i++)
        t->by_id[i] = (uint32_t)pairs[2 * i + 1];
    free(pairs);
    return 0;
}

/* Step 3: children lists as offset tables. All children in ascending id
 * order (the order the dependency pass visits them); GPU children in JSON
 * order (the order the reference appends and emits them). */
static int link_children(pt_trace *t, pt_error *err)
{
    size_t n = t->n_nodes;
    t->child_off = calloc(n + 1, sizeof *t->child_off);
    t->gpu_child_off = calloc(n + 1, sizeof *t->gpu_child_off);
    t->child = malloc((n + 1) * sizeof *t->child);
    t->gpu_child = malloc((n + 1) * sizeof *t->gpu_child);
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    uint32_t *gpu_fill = calloc(n + 1, sizeof *gpu_fill);
    int rc = 0;
    if (!t->child_off || !t->gpu_child_off || !t->child || !t->gpu_child || !fill || !gpu_fill) {
        rc = pt_fail(err, "%s: out of memory", t->path);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t p = t->nodes[i].parent;
        if (p == PT_NONE)
            continue;
        t->child_off[p + 1]++;
        if (t->nodes[i].is_gpu)
            t->gpu_child_off[p + 1]++;
    }
    for (size_t i = 0; i < n; i++) {
        t->child_off[i + 1] += t->child_off[i];
        t->gpu_child_off[i + 1] += t->gpu_child_off[i];
    }
    for (size_t k = 0; k < n; k++) {
        uint32_t i = t->by_id[k], p = t->nodes[i].parent;
        if (p != PT_NONE)
            t->child[t->child_off[p] + fill[p]++] = i;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = t->nodes[i].parent;
        if (p != PT_NONE && t->nodes[i].is_gpu)
            t->gpu_child[t->gpu_child_off[p] + gpu_fill[p]++] = i;
    }
out:
    free(fill);
    free(gpu_fill);
    return rc;
}

static void count_kinds(pt_trace *t)
{
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const pt_node *n = &t->nodes[i];
        t->n_cpu += n->kind == PT_CPU_OP;
        t->n_gpu += n->kind == PT_GPU_OP;
        t->n_metadata += n->kind == PT_METADATA_OP;
        t->n_thread_roots += n->is_thread_root;
    }
}

/* Parses every node and indexes it by id. Unlike the reference, which keeps
 * the last of several nodes with one id, a repeated id is an error. */
static int read_nodes(pt_trace *t, pt_error *err)
{
    const pj_value *nodes;
    if (get_key(t, &t->doc.root, "nodes", &nodes, err) != 0)
        return -1;
    if (nodes->type != PJ_ARRAY)
        return pt_fail(err, "%s: top-level 'nodes' must be a list", t->path);
    size_t count = nodes->n;
    if (count >= PT_NONE)
        return pt_fail(err, "%s: too many nodes (%zu)", t->path, count);
    t->nodes = malloc((count + 1) * sizeof *t->nodes);
    if (!t->nodes || idmap_init(&t->index_of, count) != 0)
        return pt_fail(err, "%s: out of memory", t->path);
    t->n_nodes = (uint32_t)count;
    for (size_t i = 0; i < count; i++) {
        pt_node *n = &t->nodes[i];
        if (parse_node(t, i, pj_at(nodes, i), n, err) != 0)
            return -1;
        uint32_t first;
        int put = idmap_put(&t->index_of, n->id, (uint32_t)i, &first);
        if (put < 0)
            return pt_fail(err, "%s: out of memory", t->path);
        if (put == 0)
            return pt_fail(err, "%s: node id %llu appears twice (nodes[%u] and nodes[%zu])", t->path,
                           (unsigned long long)n->id, first, i);
    }
    for (size_t i = 0; i < count; i++)
        if (resolve_parent(t, i, &t->nodes[i], err) != 0)
            return -1;
    count_kinds(t);
    if (sort_by_id(t, err) != 0)
        return -1;
    return link_children(t, err);
}

/* Steps 1-3 on a parsed document (already in t->doc). */
static int build(pt_trace *t, pt_error *err)
{
    if (read_metadata(t, err) != 0 || read_nodes(t, err) != 0) {
        pt_trace_free(t);
        return -1;
    }
    return 0;
}

int pt_trace_parse(pt_trace *t, const char *path, const char *text, size_t len, pt_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    if (pj_parse(&t->doc, path, text, len, err) != 0)
        return -1;
    return build(t, err);
}

int pt_trace_load(pt_trace *t, const char *path, pt_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    if (pj_load(&t->doc, path, err) != 0)
        return -1;
    return build(t, err);
}
