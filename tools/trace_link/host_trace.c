#include "trace_link/host_trace.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/sorted.h"

/* The layouts the Chakra converter parses (chakra-tools.md §7 step 2);
 * 1.1.1-chakra.1.0.0 is read like 1.1.1-chakra.0.0.4. */
const char *const host_supported_schemas[] = {
    "1.0.2-chakra.0.0.4", "1.0.3-chakra.0.0.4", "1.1.0-chakra.0.0.4",
    "1.1.1-chakra.0.0.4", "1.1.1-chakra.1.0.0", NULL,
};

/* Raw values of the node keys, before the schema says which ones matter. */
typedef struct node_fields {
    bool has_id, has_name, has_ctrl_deps, has_parent, has_flat_rf, has_attr_rf;
    int64_t id, ctrl_deps, parent, flat_rf, attr_rf;
    tl_span name;
} node_fields;

typedef struct host_parser {
    json_scan s;
    host_trace *h;
    size_t cap_nodes;
    node_fields *fields;   /* parallel to h->nodes while parsing */
    tl_diag *d;
} host_parser;

/* "node id N" when the id is known, else "nodes[k]". */
static void describe_node(char *out, size_t n, const node_fields *f, size_t index)
{
    if (f->has_id)
        snprintf(out, n, "node id %lld", (long long)f->id);
    else
        snprintf(out, n, "nodes[%zu]", index);
}

static int bad_number(host_parser *p, int status, const node_fields *f, size_t index, const char *key)
{
    if (status == JS_NUM_MALFORMED)
        return -1;
    char who[64];
    describe_node(who, sizeof who, f, index);
    return tl_fail(p->d, "%s: %s: '%s' %s", p->h->path, who, key, js_num_problem(status));
}

/* An integer at `value`, read with a scanner limited to that span. */
static int int_in_span(host_parser *p, tl_span value, int64_t *out)
{
    json_scan sub = p->s;
    sub.pos = value.off;
    sub.len = value.off + value.len;
    return js_read_int64(&sub, out);
}

/* attrs = [{"name": ..., "type": ..., "value": ...}, ...]; only rf_id is
 * needed (members may come in any order). */
static int read_attrs(host_parser *p, node_fields *f, size_t index)
{
    json_scan *s = &p->s;
    js_iter arr, obj;
    int more = js_array_or_skip(s, &arr);
    if (more != 1)
        return more;
    while ((more = js_array_next(s, &arr)) == 1) {
        int r = js_object_or_skip(s, &obj);
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        tl_span key, name = {0, 0}, value = {0, 0};
        bool has_name = false, has_value = false;
        while ((r = js_object_next(s, &obj, &key)) == 1) {
            if (js_span_equals(s->buf, key, "name") && js_peek(s) == '"') {
                if (js_string(s, &name) != 0)
                    return -1;
                has_name = true;
            } else {
                bool is_value = js_span_equals(s->buf, key, "value");
                if (js_skip_value(s, is_value ? &value : NULL) != 0)
                    return -1;
                has_value |= is_value;
            }
        }
        if (r < 0)
            return -1;
        if (has_name && has_value && js_span_equals(s->buf, name, "rf_id")) {
            int st = int_in_span(p, value, &f->attr_rf);
            if (st != JS_NUM_OK)
                return bad_number(p, st, f, index, "rf_id");
            f->has_attr_rf = true;
        }
    }
    return more;
}

static int read_int_key(host_parser *p, node_fields *f, size_t index, const char *key, int64_t *out, bool *has)
{
    int st = js_read_int64(&p->s, out);
    if (st != JS_NUM_OK)
        return bad_number(p, st, f, index, key);
    *has = true;
    return 0;
}

static int read_node(host_parser *p, size_t index, host_node *node, node_fields *f)
{
    json_scan *s = &p->s;
    memset(f, 0, sizeof *f);
    memset(node, 0, sizeof *node);
    js_iter it;
    tl_span key;
    int r;
    if (js_enter(s, &it, '{', "nodes[%zu]", index) != 0)
        return -1;
    node->off = s->pos - 1; /* the node's text, from its '{' */
    while ((r = js_object_next(s, &it, &key)) == 1) {
        const char *b = s->buf;
        int rc;
        if (js_span_equals(b, key, "id"))
            rc = read_int_key(p, f, index, "id", &f->id, &f->has_id);
        else if (js_span_equals(b, key, "ctrl_deps"))
            rc = read_int_key(p, f, index, "ctrl_deps", &f->ctrl_deps, &f->has_ctrl_deps);
        else if (js_span_equals(b, key, "parent"))
            rc = read_int_key(p, f, index, "parent", &f->parent, &f->has_parent);
        else if (js_span_equals(b, key, "rf_id"))
            rc = read_int_key(p, f, index, "rf_id", &f->flat_rf, &f->has_flat_rf);
        else if (js_span_equals(b, key, "attrs"))
            rc = read_attrs(p, f, index);
        else if (js_span_equals(b, key, "name") && js_peek(s) == '"') {
            rc = js_string(s, &f->name);
            f->has_name = rc == 0;
        } else
            rc = js_skip_value(s, NULL);
        if (rc != 0)
            return -1;
    }
    if (r < 0)
        return -1;
    node->len = s->pos - node->off;
    return 0;
}

static int grow_nodes(host_parser *p)
{
    size_t cap = p->cap_nodes ? p->cap_nodes * 2 : 1024;
    host_node *n = realloc(p->h->nodes, cap * sizeof *n);
    if (!n)
        return tl_fail(p->d, "%s: out of memory", p->h->path);
    p->h->nodes = n;
    node_fields *f = realloc(p->fields, cap * sizeof *f);
    if (!f)
        return tl_fail(p->d, "%s: out of memory", p->h->path);
    p->fields = f;
    p->cap_nodes = cap;
    return 0;
}

static int read_nodes(host_parser *p)
{
    json_scan *s = &p->s;
    js_iter it;
    if (js_enter(s, &it, '[', "'nodes'") != 0)
        return -1;
    int more;
    while ((more = js_array_next(s, &it)) == 1) {
        host_trace *h = p->h;
        if (h->n_nodes == p->cap_nodes && grow_nodes(p) != 0)
            return -1;
        if (read_node(p, h->n_nodes, &h->nodes[h->n_nodes], &p->fields[h->n_nodes]) != 0)
            return -1;
        h->n_nodes++;
    }
    return more;
}

static int add_member(host_parser *p, tl_span key, tl_span value, size_t *cap)
{
    host_trace *h = p->h;
    if (grow_array((void **)&h->members, cap, h->n_members + 1, sizeof *h->members, 16) != 0)
        return tl_fail(p->d, "%s: out of memory", h->path);
    h->members[h->n_members].key = key;
    h->members[h->n_members].value = value;
    h->n_members++;
    return 0;
}

static int read_top_level(host_parser *p, bool *has_nodes, bool *has_schema)
{
    json_scan *s = &p->s;
    host_trace *h = p->h;
    js_iter it;
    tl_span key;
    size_t cap = 0;
    int r;
    if (js_enter(s, &it, '{', "the top-level JSON value") != 0)
        return -1;
    while ((r = js_object_next(s, &it, &key)) == 1) {
        tl_span value;
        size_t start = s->pos;
        if (js_span_equals(s->buf, key, "nodes")) {
            *has_nodes = true;
            if (read_nodes(p) != 0)
                return -1;
        } else if (js_span_equals(s->buf, key, "schema")) {
            if (js_peek(s) != '"')
                return tl_fail(p->d, "%s: 'schema' is not a string", h->path);
            if (js_string(s, &h->schema) != 0)
                return -1;
            *has_schema = true;
        } else if (js_skip_value(s, NULL) != 0) {
            return -1;
        }
        value.off = start;
        value.len = s->pos - start;
        if (add_member(p, key, value, &cap) != 0)
            return -1;
    }
    if (r < 0)
        return -1;
    return js_finish(s);
}

static int check_schema(host_trace *h, bool allow_flat, tl_diag *d)
{
    const char *b = h->text.data;
    for (size_t i = 0; host_supported_schemas[i]; i++)
        if (js_span_equals(b, h->schema, host_supported_schemas[i]))
            return 0;
    if (js_span_equals(b, h->schema, "1.0.1")) {
        h->flat_layout = true;
        if (allow_flat)
            return 0;
        return tl_fail(d,
                       "%s: host trace schema '1.0.1' is the old flat layout ('parent' instead of "
                       "'ctrl_deps', no attrs): it cannot be linked and the converter rejects it (chakra #198); "
                       "re-record it with PyTorch >= 2.1, or pass --allow-unlinked to renumber it the way "
                       "chakra_trace_link does",
                       h->path);
    }
    char list[256] = "";
    for (size_t i = 0; host_supported_schemas[i]; i++) {
        strcat(list, i ? ", " : "");
        strcat(list, host_supported_schemas[i]);
    }
    int n = h->schema.len > 64 ? 64 : (int)h->schema.len;
    return tl_fail(d, "%s: unsupported host trace schema '%.*s' (supported: %s)", h->path, n, b + h->schema.off,
                   list);
}

/* Turns the raw key values into the node fields the schema calls for. */
static int settle_fields(host_parser *p)
{
    host_trace *h = p->h;
    const char *parent_key = h->flat_layout ? "parent" : "ctrl_deps";
    for (size_t i = 0; i < h->n_nodes; i++) {
        host_node *n = &h->nodes[i];
        const node_fields *f = &p->fields[i];
        char who[64];
        describe_node(who, sizeof who, f, i);
        if (!f->has_id)
            return tl_fail(p->d, "%s: %s: missing required key 'id'", h->path, who);
        if (!f->has_name)
            return tl_fail(p->d, "%s: %s: missing required key 'name' (a string)", h->path, who);
        bool has_parent = h->flat_layout ? f->has_parent : f->has_ctrl_deps;
        if (!has_parent)
            return tl_fail(p->d, "%s: %s: missing required key '%s'", h->path, who, parent_key);
        n->id = f->id;
        n->parent = h->flat_layout ? f->parent : f->ctrl_deps;
        n->ctrl_deps = f->ctrl_deps;
        n->name_off = f->name.off;
        if (f->name.len > UINT32_MAX)
            return tl_fail(p->d, "%s: %s: name too long", h->path, who);
        n->name_len = (uint32_t)f->name.len;
        n->flags = HOST_HAS_PARENT | (f->has_ctrl_deps ? HOST_HAS_CTRL_DEPS : 0);
        bool has_rf = h->flat_layout ? f->has_flat_rf : f->has_attr_rf;
        if (has_rf) {
            n->rf_id = h->flat_layout ? f->flat_rf : f->attr_rf;
            n->flags |= HOST_HAS_RF;
        }
    }
    return 0;
}

static int by_id(const void *a, const void *b)
{
    const host_node *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

size_t host_trace_find(const host_trace *h, int64_t id)
{
    size_t lo = lower_bound_i64(h->nodes, h->n_nodes, sizeof *h->nodes, offsetof(host_node, id), id);
    return lo < h->n_nodes && h->nodes[lo].id == id ? lo : SIZE_MAX;
}

/* Marks every node reachable from the root through parent links (the
 * root's own self-reference is not a link), iteratively. */
static int mark_tree(host_trace *h, tl_diag *d)
{
    h->root = host_trace_find(h, 1);
    if (h->root == SIZE_MAX)
        return 0;
    size_t n = h->n_nodes;
    uint32_t *first = malloc((n + 1) * sizeof *first);
    uint32_t *child = malloc((n ? n : 1) * sizeof *child);
    uint32_t *parent_of = malloc((n ? n : 1) * sizeof *parent_of);
    if (!first || !child || !parent_of) {
        free(first);
        free(child);
        free(parent_of);
        return tl_fail(d, "%s: out of memory", h->path);
    }
    memset(first, 0, (n + 1) * sizeof *first);
    for (size_t i = 0; i < n; i++) {
        size_t p = h->nodes[i].id == 1 ? SIZE_MAX : host_trace_find(h, h->nodes[i].parent);
        parent_of[i] = p == SIZE_MAX ? UINT32_MAX : (uint32_t)p;
        if (p != SIZE_MAX)
            first[p + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    /* Fill children lists (first[] ends up shifted by one entry). */
    for (size_t i = 0; i < n; i++)
        if (parent_of[i] != UINT32_MAX)
            child[first[parent_of[i]]++] = (uint32_t)i;
    /* first[p] now points past p's children; they start at first[p-1]. The
     * stack reuses parent_of (no longer needed) as storage. */
    uint32_t *stack = parent_of;
    size_t top = 0;
    stack[top++] = (uint32_t)h->root;
    h->nodes[h->root].flags |= HOST_IN_TREE;
    while (top > 0) {
        uint32_t v = stack[--top];
        size_t begin = v == 0 ? 0 : first[v - 1], end = first[v];
        for (size_t c = begin; c < end; c++) {
            host_node *kid = &h->nodes[child[c]];
            if (!(kid->flags & HOST_IN_TREE)) {
                kid->flags |= HOST_IN_TREE;
                stack[top++] = child[c];
            }
        }
    }
    free(first);
    free(child);
    free(parent_of);
    return 0;
}

int host_trace_load(host_trace *h, const char *path, bool allow_flat, tl_diag *d)
{
    memset(h, 0, sizeof *h);
    h->path = path;
    h->root = SIZE_MAX;
    if (tl_buffer_load(path, &h->text, d) != 0)
        return -1;
    host_parser p = {.h = h, .d = d};
    js_init(&p.s, h->text.data, h->text.len, path, d);
    bool has_nodes = false, has_schema = false;
    int rc = read_top_level(&p, &has_nodes, &has_schema);
    if (rc == 0 && !has_schema)
        rc = tl_fail(d, "%s: missing required key 'schema'", path);
    if (rc == 0 && !has_nodes)
        rc = tl_fail(d, "%s: missing required key 'nodes'", path);
    if (rc == 0)
        rc = check_schema(h, allow_flat, d);
    if (rc == 0 && h->n_nodes >= UINT32_MAX)
        rc = tl_fail(d, "%s: too many nodes", path);
    if (rc == 0)
        rc = settle_fields(&p);
    free(p.fields);
    if (rc != 0)
        return -1;
    if (h->n_nodes > 1)
        qsort(h->nodes, h->n_nodes, sizeof *h->nodes, by_id);
    for (size_t i = 1; i < h->n_nodes; i++)
        if (h->nodes[i].id == h->nodes[i - 1].id)
            return tl_fail(d, "%s: duplicate node id %lld", path, (long long)h->nodes[i].id);
    return mark_tree(h, d);
}

void host_trace_free(host_trace *h)
{
    tl_buffer_free(&h->text);
    free(h->members);
    free(h->nodes);
    h->members = NULL;
    h->nodes = NULL;
    h->n_members = h->n_nodes = 0;
}
