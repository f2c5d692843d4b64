/* Network YAML reader: libyaml's event parser, turned into four lists. */
#include "common/network_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

enum list_key { KEY_TOPOLOGY, KEY_NPUS, KEY_BANDWIDTH, KEY_LATENCY, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"topology", "npus_count", "bandwidth", "latency"};

typedef struct {
    char *items[NETWORK_MAX_DIMS + 1];
    size_t n;
    bool seen;
} scalar_list;

typedef struct {
    const char *path;
    char *err;
    size_t err_len;
} load_ctx;

static int fail(load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(load_ctx *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->err_len, "%s: %s", c->path, msg);
    return -1;
}

static void free_lists(scalar_list *lists)
{
    for (int k = 0; k < KEY_COUNT; k++)
        for (size_t i = 0; i < lists[k].n; i++)
            free(lists[k].items[i]);
}

static int key_index(const char *name)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (strcmp(key_names[k], name) == 0)
            return k;
    return -1;
}

/* Reads the value of a known key: a sequence of scalars (or one scalar). */
static int read_list(load_ctx *c, yaml_parser_t *p, int key, scalar_list *list)
{
    yaml_event_t ev;
    if (!yaml_parser_parse(p, &ev))
        return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
    if (list->seen) {
        yaml_event_delete(&ev);
        return fail(c, "key '%s' given twice", key_names[key]);
    }
    list->seen = true;
    if (ev.type == YAML_SCALAR_EVENT) {
        list->items[list->n++] = strdup((const char *)ev.data.scalar.value);
        yaml_event_delete(&ev);
        return 0;
    }
    if (ev.type != YAML_SEQUENCE_START_EVENT) {
        size_t line = ev.start_mark.line + 1;
        yaml_event_delete(&ev);
        return fail(c, "line %zu: '%s' must be a list", line, key_names[key]);
    }
    yaml_event_delete(&ev);
    for (;;) {
        if (!yaml_parser_parse(p, &ev))
            return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type != YAML_SCALAR_EVENT) {
            size_t line = ev.start_mark.line + 1;
            yaml_event_delete(&ev);
            return fail(c, "line %zu: '%s' must be a list of plain values", line, key_names[key]);
        }
        if (list->n == NETWORK_MAX_DIMS + 1) {
            yaml_event_delete(&ev);
            return fail(c, "'%s' has more than %d entries", key_names[key], NETWORK_MAX_DIMS);
        }
        list->items[list->n++] = strdup((const char *)ev.data.scalar.value);
        yaml_event_delete(&ev);
    }
}

/* Skips one value (scalar or nested collection) of an unknown key. */
static int skip_value(load_ctx *c, yaml_parser_t *p)
{
    int depth = 0;
    do {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev))
            return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
            depth--;
        yaml_event_delete(&ev);
    } while (depth > 0);
    return 0;
}

static int parse_document(load_ctx *c, yaml_parser_t *p, scalar_list *lists,
                          void (*warn)(void *, const char *), void *warn_ctx)
{
    yaml_event_t ev;
    bool in_map = false;
    for (;;) {
        if (!yaml_parser_parse(p, &ev))
            return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
        yaml_event_type_t type = ev.type;
        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            return in_map ? 0 : fail(c, "empty document: expected the keys topology, npus_count, bandwidth, latency");
        }
        if (type == YAML_MAPPING_START_EVENT && !in_map) {
            in_map = true;
        } else if (type == YAML_SCALAR_EVENT && in_map) {
            char name[128];
            snprintf(name, sizeof name, "%s", (const char *)ev.data.scalar.value);
            size_t line = ev.start_mark.line + 1;
            yaml_event_delete(&ev);
            int key = key_index(name);
            if (key >= 0) {
                if (read_list(c, p, key, &lists[key]) != 0)
                    return -1;
            } else {
                if (warn) {
                    char msg[300];
                    snprintf(msg, sizeof msg, "%s:%zu: unknown key '%s' ignored", c->path, line, name);
                    warn(warn_ctx, msg);
                }
                if (skip_value(c, p) != 0)
                    return -1;
            }
            continue;
        } else if (type == YAML_MAPPING_END_EVENT || type == YAML_DOCUMENT_END_EVENT ||
                   type == YAML_STREAM_START_EVENT || type == YAML_DOCUMENT_START_EVENT) {
            /* structure only */
        } else {
            size_t line = ev.start_mark.line + 1;
            yaml_event_delete(&ev);
            return fail(c, "line %zu: expected a mapping of keys to lists", line);
        }
        yaml_event_delete(&ev);
    }
}

static int parse_number(load_ctx *c, const char *key, size_t i, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v))
        return fail(c, "%s[%zu]: expected a number, got '%s'", key, i, text);
    *out = v;
    return 0;
}

static int parse_topology(load_ctx *c, size_t i, const char *text, enum network_topology *out)
{
    static const char *const names[] = {"Ring", "FullyConnected", "Switch"};
    for (int t = 0; t < 3; t++) {
        if (strcmp(names[t], text) == 0) {
            *out = (enum network_topology)t;
            return 0;
        }
    }
    (void)i;
    return fail(c, "Topology name %s not supported (expected Ring, FullyConnected or Switch)", text);
}

static int build_config(load_ctx *c, scalar_list *lists, network_config *out)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (!lists[k].seen)
            return fail(c, "missing key '%s'", key_names[k]);
    size_t dims = lists[KEY_TOPOLOGY].n;
    if (dims == 0)
        return fail(c, "'topology' is empty");
    if (dims > NETWORK_MAX_DIMS)
        return fail(c, "more than %d dimensions", NETWORK_MAX_DIMS);
    if (lists[KEY_NPUS].n != dims)
        return fail(c, "length of npus_count (%zu) doesn't match with dimensions (%zu)", lists[KEY_NPUS].n, dims);
    if (lists[KEY_BANDWIDTH].n != dims)
        return fail(c, "length of bandwidth (%zu) doesn't match with dims_count (%zu)", lists[KEY_BANDWIDTH].n, dims);
    if (lists[KEY_LATENCY].n != dims)
        return fail(c, "length of latency (%zu) doesn't match with dims_count (%zu)", lists[KEY_LATENCY].n, dims);
    memset(out, 0, sizeof *out);
    out->n_dims = (uint32_t)dims;
    uint64_t total = 1;
    for (size_t i = 0; i < dims; i++) {
        network_dim *d = &out->dims[i];
        double npus = 0;
        if (parse_topology(c, i, lists[KEY_TOPOLOGY].items[i], &d->topology) != 0 ||
            parse_number(c, "npus_count", i, lists[KEY_NPUS].items[i], &npus) != 0 ||
            parse_number(c, "bandwidth", i, lists[KEY_BANDWIDTH].items[i], &d->bandwidth_gbps) != 0 ||
            parse_number(c, "latency", i, lists[KEY_LATENCY].items[i], &d->latency_ns) != 0)
            return -1;
        if (npus != floor(npus) || npus > (double)UINT32_MAX)
            return fail(c, "npus_count[%zu]: expected an integer, got '%s'", i, lists[KEY_NPUS].items[i]);
        if (npus <= 1)
            return fail(c, "npus_count (%s) should be larger than 1", lists[KEY_NPUS].items[i]);
        if (d->bandwidth_gbps <= 0)
            return fail(c, "bandwidth (%s) should be larger than 0", lists[KEY_BANDWIDTH].items[i]);
        if (d->latency_ns < 0)
            return fail(c, "latency (%s) should be non-negative", lists[KEY_LATENCY].items[i]);
        d->npus = (uint32_t)npus;
        d->bytes_per_ns = d->bandwidth_gbps * (1 << 30) / 1000000000.0;
        total *= d->npus;
        if (total > INT32_MAX)
            return fail(c, "too many NPUs (the product of npus_count exceeds %d)", INT32_MAX);
    }
    out->total_npus = (uint32_t)total;
    return 0;
}

int network_config_load(const char *path, network_config *out, char *err, size_t err_len,
                        void (*warn)(void *ctx, const char *message), void *warn_ctx)
{
    load_ctx c = {path, err, err_len};
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fail(&c, "cannot open: %s", strerror(errno));
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fclose(fp);
        return fail(&c, "out of memory");
    }
    yaml_parser_set_input_file(&parser, fp);
    scalar_list lists[KEY_COUNT];
    memset(lists, 0, sizeof lists);
    int rc = parse_document(&c, &parser, lists, warn, warn_ctx);
    if (rc == 0)
        rc = build_config(&c, lists, out);
    free_lists(lists);
    yaml_parser_delete(&parser);
    fclose(fp);
    return rc;
}

const char *network_topology_name(enum network_topology t)
{
    switch (t) {
    case NETWORK_RING: return "Ring";
    case NETWORK_FULLY_CONNECTED: return "FullyConnected";
    case NETWORK_SWITCH: return "Switch";
    }
    return "?";
}

uint32_t network_coord(const network_config *cfg, uint32_t npu, uint32_t dim)
{
    uint32_t stride = 1;
    for (uint32_t d = 0; d < dim; d++)
        stride *= cfg->dims[d].npus;
    return (npu / stride) % cfg->dims[dim].npus;
}
