/*
 * custom_map.c - see custom_map.h. libyaml's event parser, kept flat: one
 * mapping whose keys and values are scalars or aliases of scalars.
 */
#include "config/custom_map.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/input_file.h"
#include "util/msg_escape.h"
#include "util/path_msg.h"
#include "util/sorted.h"

typedef struct {
    char *name;
    char *value;
} anchor;

typedef struct {
    char path[256];         /* escaped, for messages */
    char *err;
    size_t err_len;
    custom_by_node *items;
    size_t *lines;          /* line of each entry, for duplicate messages */
    size_t n, cap;
    anchor *anchors;
    size_t n_anchors;
    char *pending_key;      /* a key read, its value not yet */
    size_t pending_line;
} map_reader;

static int fail(map_reader *r, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(map_reader *r, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(r->err, r->err_len, r->path, line, 400, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---- anchors ------------------------------------------------------------ */

static int remember_anchor(map_reader *r, const char *name, const char *value, size_t line)
{
    if (r->n_anchors == CUSTOM_MAP_MAX_ANCHORS)
        return fail(r, line, "more than %d YAML anchors", CUSTOM_MAP_MAX_ANCHORS);
    if (!r->anchors) {
        r->anchors = calloc(CUSTOM_MAP_MAX_ANCHORS, sizeof *r->anchors);
        if (!r->anchors)
            return fail(r, line, "out of memory");
    }
    anchor *a = &r->anchors[r->n_anchors];
    a->name = strdup(name);
    a->value = strdup(value);
    r->n_anchors++;
    return a->name && a->value ? 0 : fail(r, line, "out of memory");
}

/* The value of the latest anchor of that name (YAML lets a name be reused;
 * an alias refers to the closest one before it), or NULL. */
static const char *resolve_alias(const map_reader *r, const char *name)
{
    for (size_t i = r->n_anchors; i-- > 0;)
        if (strcmp(r->anchors[i].name, name) == 0)
            return r->anchors[i].value;
    return NULL;
}

/* ---- entries ------------------------------------------------------------ */

static int parse_node_id(map_reader *r, const char *text, size_t line, uint64_t *id)
{
    char shown[100];
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    /* strtoull would also take "-1", " 1" and "+1". */
    if (!text[0] || strspn(text, "0123456789") != strlen(text) || errno)
        return fail(r, line, "node id '%s' is not a non-negative decimal integer (below 2^64)",
                    msg_escape(text, shown, sizeof shown));
    *id = v;
    return 0;
}

static int add_entry(map_reader *r, const char *value, size_t line)
{
    uint64_t id = 0;
    if (parse_node_id(r, r->pending_key, r->pending_line, &id) != 0)
        return -1;
    if (!value[0])
        return fail(r, line, "node %llu: the ET prefix is empty", (unsigned long long)id);
    /* Other modules quote the prefix (a custom ET that cannot be opened):
     * refused once here rather than escaped everywhere. */
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            char shown[100];
            return fail(r, line, "node %llu: the ET prefix '%s' holds a control character", (unsigned long long)id,
                        msg_escape(value, shown, sizeof shown));
        }
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        custom_by_node *items = realloc(r->items, cap * sizeof *items);
        if (items)
            r->items = items;
        size_t *lines = items ? realloc(r->lines, cap * sizeof *lines) : NULL;
        if (!lines)
            return fail(r, line, "out of memory");
        r->lines = lines;
        r->cap = cap;
    }
    char *prefix = strdup(value);
    if (!prefix)
        return fail(r, line, "out of memory");
    r->items[r->n] = (custom_by_node){.node_id = id, .prefix = prefix};
    r->lines[r->n] = r->pending_line;
    r->n++;
    free(r->pending_key);
    r->pending_key = NULL;
    return 0;
}

/* A key or value of the mapping, in file order. */
static int take_scalar(map_reader *r, const char *text, size_t line)
{
    if (r->pending_key)
        return add_entry(r, text, line);
    r->pending_key = strdup(text);
    r->pending_line = line;
    return r->pending_key ? 0 : fail(r, line, "out of memory");
}

/* A node id given twice would leave one of its prefixes unused without a
 * word; reports the first repetition in file order. */
static int check_duplicates(map_reader *r)
{
    if (r->n < 2)
        return 0;
    /* (node id, line): by id, each id's lines in file order */
    key_order *v = malloc(r->n * sizeof *v);
    if (!v)
        return fail(r, 0, "out of memory");
    for (size_t i = 0; i < r->n; i++)
        v[i] = (key_order){r->items[i].node_id, r->lines[i]};
    key_order_sort(v, r->n);
    const key_order *dup = NULL, *first = NULL;
    size_t group = 0;
    for (size_t i = 1; i < r->n; i++) {
        if (v[i].key != v[group].key) {
            group = i;
        } else if (!dup || v[i].index < dup->index) {
            dup = &v[i];
            first = &v[group];
        }
    }
    int rc = dup ? fail(r, dup->index, "node id %llu given twice (first on line %zu)", (unsigned long long)dup->key,
                        first->index)
                 : 0;
    free(v);
    return rc;
}

/* ---- events ------------------------------------------------------------- */

/* Handles one event; *done is set at the end of the stream. */
static int on_event(map_reader *r, const yaml_event_t *ev, int *depth, bool *done)
{
    size_t line = ev->start_mark.line + 1;
    char shown[100];
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        *done = true;
        return 0;
    case YAML_MAPPING_START_EVENT:
        if (++*depth == 1)
            return 0;
        return fail(r, line, "expected a flat mapping of node ids to ET prefixes");
    case YAML_SEQUENCE_START_EVENT:
        return fail(r, line, "expected a flat mapping of node ids to ET prefixes");
    case YAML_MAPPING_END_EVENT:
        --*depth;
        return 0;
    case YAML_SCALAR_EVENT: {
        const char *text = (const char *)ev->data.scalar.value;
        if (*depth != 1)
            return fail(r, line, "expected a mapping of node ids to ET prefixes, got '%s'",
                        msg_escape(text, shown, sizeof shown));
        if (ev->data.scalar.anchor && remember_anchor(r, (const char *)ev->data.scalar.anchor, text, line) != 0)
            return -1;
        return take_scalar(r, text, line);
    }
    case YAML_ALIAS_EVENT: {
        const char *name = (const char *)ev->data.alias.anchor;
        const char *value = resolve_alias(r, name);
        if (!value)
            return fail(r, line, "alias *%s refers to no anchor &%s before it (only plain values can be anchored "
                                 "here)", msg_escape(name, shown, sizeof shown), shown);
        if (*depth != 1)
            return fail(r, line, "expected a mapping of node ids to ET prefixes");
        return take_scalar(r, value, line);
    }
    default:
        return 0;
    }
}

static int read_events(map_reader *r, yaml_parser_t *p)
{
    int depth = 0;
    bool done = false;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev))
            return fail(r, p->problem_mark.line + 1, "%s", p->problem ? p->problem : "YAML error");
        int rc = on_event(r, &ev, &depth, &done);
        yaml_event_delete(&ev);
        if (rc != 0)
            return -1;
    }
    return check_duplicates(r);
}

static void reader_free(map_reader *r)
{
    for (size_t i = 0; i < r->n_anchors; i++) {
        free(r->anchors[i].name);
        free(r->anchors[i].value);
    }
    free(r->anchors);
    free(r->lines);
    free(r->pending_key);
}

int custom_map_load(const char *path, custom_by_node **out, size_t *n, char *err, size_t err_len)
{
    map_reader r = {.err = err, .err_len = err_len};
    msg_escape(path, r.path, sizeof r.path);
    *out = NULL;
    *n = 0;
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0)
        return fail(&r, 0, "%s", why);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fail(&r, 0, "cannot open: %s", strerror(errno));
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        fclose(fp);
        return fail(&r, 0, "out of memory");
    }
    yaml_parser_set_input_file(&p, fp);
    int rc = read_events(&r, &p);
    yaml_parser_delete(&p);
    fclose(fp);
    reader_free(&r);
    if (rc != 0) {
        custom_map_free(r.items, r.n);
        return -1;
    }
    *out = r.items;
    *n = r.n;
    return 0;
}

void custom_map_free(custom_by_node *map, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(map[i].prefix);
    free(map);
}
