/* Network YAML reader: libyaml's event parser, turned into four lists. */
#include "vimana/network_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/input_file.h"
#include "util/msg_escape.h"
#include "util/path_msg.h"

enum list_key { KEY_TOPOLOGY, KEY_NPUS, KEY_BANDWIDTH, KEY_LATENCY, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"topology", "npus_count", "bandwidth", "latency"};

typedef struct {
    char *items[VIMANA_NET_MAX_DIMS + 1];
    size_t n;
    bool seen;
} scalar_list;

typedef struct {
    const char *path;
    char *err;
    size_t err_len;
    const vimana_net_ext *ext; /* NULL: none */
    bool ext_seen[VIMANA_NET_EXT_MAX];
} load_ctx;

static int fail(load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(load_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(c->err, c->err_len, c->path, 0, 400, fmt, ap);
    va_end(ap);
    return rc;
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

/* The error for an event that is not what `key` needs; an alias gets its
 * own words, as this reader does not resolve them. Deletes the event. */
static int wrong_event(load_ctx *c, yaml_event_t *ev, const char *name, const char *need)
{
    size_t line = ev->start_mark.line + 1;
    if (ev->type == YAML_ALIAS_EVENT) {
        char anchor[100];
        msg_escape((const char *)ev->data.alias.anchor, anchor, sizeof anchor);
        yaml_event_delete(ev);
        return fail(c, "line %zu: '%s': YAML aliases (*%s) are not supported; write the values out", line,
                    name, anchor);
    }
    yaml_event_delete(ev);
    return fail(c, "line %zu: '%s' must be %s", line, name, need);
}

/* Keeps the text of a scalar event (deleted here) in the list. */
static int add_item(load_ctx *c, yaml_event_t *ev, scalar_list *list)
{
    char *text = strdup((const char *)ev->data.scalar.value);
    yaml_event_delete(ev);
    if (!text)
        return fail(c, "out of memory");
    list->items[list->n++] = text;
    return 0;
}

/* Reads the value of a known key `name`: a sequence of scalars (or one
 * scalar), each key once. */
static int read_list(load_ctx *c, yaml_parser_t *p, const char *name, scalar_list *list)
{
    yaml_event_t ev;
    if (!yaml_parser_parse(p, &ev))
        return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
    if (list->seen) {
        yaml_event_delete(&ev);
        return fail(c, "key '%s' given twice", name);
    }
    list->seen = true;
    if (ev.type == YAML_SCALAR_EVENT)
        return add_item(c, &ev, list);
    if (ev.type != YAML_SEQUENCE_START_EVENT)
        return wrong_event(c, &ev, name, "a list");
    yaml_event_delete(&ev);
    for (;;) {
        if (!yaml_parser_parse(p, &ev))
            return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type != YAML_SCALAR_EVENT)
            return wrong_event(c, &ev, name, "a list of plain values");
        if (list->n == VIMANA_NET_MAX_DIMS + 1) {
            yaml_event_delete(&ev);
            return fail(c, "'%s' has more than %d entries", name, VIMANA_NET_MAX_DIMS);
        }
        if (add_item(c, &ev, list) != 0)
            return -1;
    }
}

/* Skips one value (scalar or nested collection) of an unknown key. The
 * walk is bounded: libyaml's work per event grows with the nesting, so a
 * value nested thousands of levels deep (or millions of items long) would
 * take minutes to skip. `key` is already escaped for messages. */
static int skip_value(load_ctx *c, yaml_parser_t *p, const char *key, size_t key_line)
{
    int depth = 0;
    size_t events = 0;
    do {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev))
            return fail(c, "line %zu: %s", p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
            depth--;
        size_t line = ev.start_mark.line + 1;
        yaml_event_delete(&ev);
        if (depth > VIMANA_NET_YAML_MAX_DEPTH)
            return fail(c, "line %zu: the value of key '%s' is nested deeper than %d levels", line, key,
                        VIMANA_NET_YAML_MAX_DEPTH);
        if (++events > VIMANA_NET_YAML_MAX_SKIPPED)
            return fail(c, "line %zu: the value of key '%s' has more than %d items", key_line, key,
                        VIMANA_NET_YAML_MAX_SKIPPED);
    } while (depth > 0);
    return 0;
}

/* The backend's own key `k` (an index into ext->keys): its value read as
 * the built-in keys' are and handed to ext->key. */
static int read_ext_key(load_ctx *c, yaml_parser_t *p, size_t k, const char *name, size_t line)
{
    scalar_list list;
    memset(&list, 0, sizeof list);
    list.seen = c->ext_seen[k];
    c->ext_seen[k] = true;
    int rc = read_list(c, p, name, &list);
    if (rc == 0) {
        char why[300] = "";
        if (c->ext->key(c->ext->ctx, c->ext->keys[k], (const char *const *)list.items, list.n, why, sizeof why) != 0)
            rc = fail(c, "line %zu: %s: %s", line, name, why[0] ? why : "refused by the backend");
    }
    for (size_t i = 0; i < list.n; i++)
        free(list.items[i]);
    return rc;
}

/* The index of a backend's own key, or -1. */
static int ext_key_index(const load_ctx *c, const char *name)
{
    if (!c->ext || !c->ext->key)
        return -1;
    for (size_t k = 0; k < c->ext->n_keys; k++)
        if (strcmp(c->ext->keys[k], name) == 0)
            return (int)k;
    return -1;
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
            msg_escape((const char *)ev.data.scalar.value, name, sizeof name);
            size_t line = ev.start_mark.line + 1;
            yaml_event_delete(&ev);
            int key = key_index(name), own = ext_key_index(c, name);
            if (key >= 0) {
                if (read_list(c, p, key_names[key], &lists[key]) != 0)
                    return -1;
            } else if (own >= 0) {
                if (read_ext_key(c, p, (size_t)own, name, line) != 0)
                    return -1;
            } else {
                /* Skipped first, so that a value too deep to skip gives
                 * one line, not a warning and then the error. */
                if (skip_value(c, p, name, line) != 0)
                    return -1;
                if (warn) {
                    char msg[300];
                    snprintf(msg, sizeof msg, "%s:%zu: unknown key '%s' ignored", c->path, line, name);
                    warn(warn_ctx, msg);
                }
            }
            continue;
        } else if (type == YAML_MAPPING_END_EVENT || type == YAML_DOCUMENT_END_EVENT ||
                   type == YAML_STREAM_START_EVENT || type == YAML_DOCUMENT_START_EVENT) {
            /* structure only */
        } else {
            size_t line = ev.start_mark.line + 1;
            bool alias = type == YAML_ALIAS_EVENT;
            yaml_event_delete(&ev);
            return fail(c, "line %zu: expected a mapping of keys to lists%s", line,
                        alias ? " (YAML aliases are not supported)" : "");
        }
        yaml_event_delete(&ev);
    }
}

static int parse_number(load_ctx *c, const char *key, size_t i, const char *text, double *out)
{
    char *end, shown[100];
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v))
        return fail(c, "%s[%zu]: expected a number, got '%s'", key, i, msg_escape(text, shown, sizeof shown));
    *out = v;
    return 0;
}

static int parse_topology(load_ctx *c, const char *text, enum vimana_net_topology *out)
{
    static const char *const names[] = {"Ring", "FullyConnected", "Switch"};
    for (int t = 0; t < 3; t++) {
        if (strcmp(names[t], text) == 0) {
            *out = (enum vimana_net_topology)t;
            return 0;
        }
    }
    char shown[100], own[300] = "";
    for (size_t i = 0; c->ext && i < c->ext->n_topologies; i++) {
        if (strcmp(c->ext->topologies[i], text) == 0) {
            *out = (enum vimana_net_topology)(VIMANA_NET_EXT_FIRST + (int)i);
            return 0;
        }
        size_t used = strlen(own);
        snprintf(own + used, sizeof own - used, ", %s", c->ext->topologies[i]);
    }
    return fail(c, "Topology name %s not supported (expected Ring, FullyConnected%s or Switch)",
                msg_escape(text, shown, sizeof shown), own);
}

/* Hops of the longest route inside one building block. */
static double longest_route(const vimana_net_dim *d)
{
    switch (d->topology) {
    case VIMANA_NET_RING: return (double)(d->npus / 2);
    case VIMANA_NET_FULLY_CONNECTED: return 1;
    case VIMANA_NET_SWITCH: return 2;
    }
    return (double)d->npus; /* a backend's own: at most every NPU of the dimension */
}

/* Range checks of one dimension. The time of a message is truncated to a
 * 64-bit tick count, so a latency or bandwidth that makes even the
 * smallest message longer than 2^64 - 1 ns can never give a true answer. */
static int check_dim(load_ctx *c, const vimana_net_dim *d, double npus, const char *const texts[KEY_COUNT])
{
    char shown[100];
    if (npus != floor(npus) || npus > (double)UINT32_MAX)
        return fail(c, "npus_count: expected an integer, got '%s'", msg_escape(texts[KEY_NPUS], shown, sizeof shown));
    if (npus <= 1)
        return fail(c, "npus_count (%s) should be larger than 1", msg_escape(texts[KEY_NPUS], shown, sizeof shown));
    if (d->bandwidth_gbps <= 0)
        return fail(c, "bandwidth (%s) should be larger than 0", msg_escape(texts[KEY_BANDWIDTH], shown, sizeof shown));
    if (d->latency_ns < 0)
        return fail(c, "latency (%s) should be non-negative", msg_escape(texts[KEY_LATENCY], shown, sizeof shown));
    if (!isfinite(d->bytes_per_ns))
        return fail(c, "bandwidth (%s) is too large: not a finite number of bytes per ns",
                    msg_escape(texts[KEY_BANDWIDTH], shown, sizeof shown));
    if (1.0 / d->bytes_per_ns >= VIMANA_TICK_LIMIT)
        return fail(c, "bandwidth (%s) is too small: one byte would take more than 2^64-1 ns, the longest time "
                       "Vimana can simulate", msg_escape(texts[KEY_BANDWIDTH], shown, sizeof shown));
    if (d->latency_ns * longest_route(d) >= VIMANA_TICK_LIMIT)
        return fail(c, "latency (%s) is too large: a message over the longest route (%.0f hop%s) would take more "
                       "than 2^64-1 ns, the longest time Vimana can simulate",
                    msg_escape(texts[KEY_LATENCY], shown, sizeof shown), longest_route(d),
                    longest_route(d) == 1 ? "" : "s");
    return 0;
}

static int build_dim(load_ctx *c, scalar_list *lists, size_t i, vimana_net_dim *d)
{
    const char *texts[KEY_COUNT];
    for (int k = 0; k < KEY_COUNT; k++)
        texts[k] = lists[k].items[i];
    double npus = 0;
    if (parse_topology(c, texts[KEY_TOPOLOGY], &d->topology) != 0 ||
        parse_number(c, "npus_count", i, texts[KEY_NPUS], &npus) != 0 ||
        parse_number(c, "bandwidth", i, texts[KEY_BANDWIDTH], &d->bandwidth_gbps) != 0 ||
        parse_number(c, "latency", i, texts[KEY_LATENCY], &d->latency_ns) != 0)
        return -1;
    d->npus = npus >= 0 && npus <= (double)UINT32_MAX ? (uint32_t)npus : 0;
    d->bytes_per_ns = d->bandwidth_gbps * (1 << 30) / 1000000000.0;
    return check_dim(c, d, npus, texts);
}

static int check_lengths(load_ctx *c, scalar_list *lists)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (!lists[k].seen)
            return fail(c, "missing key '%s'", key_names[k]);
    size_t dims = lists[KEY_TOPOLOGY].n;
    if (dims == 0)
        return fail(c, "'topology' is empty");
    if (dims > VIMANA_NET_MAX_DIMS)
        return fail(c, "more than %d dimensions", VIMANA_NET_MAX_DIMS);
    if (lists[KEY_NPUS].n != dims)
        return fail(c, "length of npus_count (%zu) doesn't match with dimensions (%zu)", lists[KEY_NPUS].n, dims);
    if (lists[KEY_BANDWIDTH].n != dims)
        return fail(c, "length of bandwidth (%zu) doesn't match with dims_count (%zu)", lists[KEY_BANDWIDTH].n, dims);
    if (lists[KEY_LATENCY].n != dims)
        return fail(c, "length of latency (%zu) doesn't match with dims_count (%zu)", lists[KEY_LATENCY].n, dims);
    return 0;
}

static int build_config(load_ctx *c, scalar_list *lists, vimana_net_config *out)
{
    if (check_lengths(c, lists) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->n_dims = (uint32_t)lists[KEY_TOPOLOGY].n;
    uint64_t total = 1;
    for (size_t i = 0; i < out->n_dims; i++) {
        if (build_dim(c, lists, i, &out->dims[i]) != 0)
            return -1;
        /* Checked before anyone allocates per-NPU state: a typo such as
         * 1000000000 would otherwise end in a bare "out of memory". Each
         * factor is below 2^32 and total below 2^21, so this cannot wrap. */
        total *= out->dims[i].npus;
        if (total > VIMANA_NET_MAX_NPUS)
            return fail(c, "npus_count: %llu NPUs in all is more than the %u Vimana supports",
                        (unsigned long long)total, VIMANA_NET_MAX_NPUS);
    }
    out->total_npus = (uint32_t)total;
    return 0;
}

/* A backend's additions that would shadow a built-in name, or too many. */
static int check_ext(load_ctx *c, const vimana_net_ext *ext)
{
    static const char *const builtin[] = {"Ring", "FullyConnected", "Switch"};
    if (ext->n_topologies > VIMANA_NET_EXT_MAX || ext->n_keys > VIMANA_NET_EXT_MAX)
        return fail(c, "the backend declares more than %d topology names or keys of its own", VIMANA_NET_EXT_MAX);
    for (size_t i = 0; i < ext->n_topologies; i++)
        for (size_t b = 0; b < 3; b++)
            if (!ext->topologies[i] || strcmp(ext->topologies[i], builtin[b]) == 0)
                return fail(c, "the backend's own topology name %zu is missing or built in", i);
    for (size_t k = 0; k < ext->n_keys; k++)
        if (!ext->keys[k] || key_index(ext->keys[k]) >= 0)
            return fail(c, "the backend's own key %zu is missing or built in", k);
    return 0;
}

int vimana_net_load_ext(const char *path, const vimana_net_ext *ext, vimana_net_config *out, char *err,
                        size_t err_len, void (*warn)(void *ctx, const char *message), void *warn_ctx)
{
    load_ctx c = {path, err, err_len, ext, {false}};
    char why[128];
    if (ext && check_ext(&c, ext) != 0)
        return -1;
    if (input_file_check(path, why, sizeof why) != 0)
        return fail(&c, "%s", why);
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

int vimana_net_load(const char *path, vimana_net_config *out, char *err, size_t err_len,
                        void (*warn)(void *ctx, const char *message), void *warn_ctx)
{
    return vimana_net_load_ext(path, NULL, out, err, err_len, warn, warn_ctx);
}

const char *vimana_net_topology_name(enum vimana_net_topology t)
{
    switch (t) {
    case VIMANA_NET_RING: return "Ring";
    case VIMANA_NET_FULLY_CONNECTED: return "FullyConnected";
    case VIMANA_NET_SWITCH: return "Switch";
    }
    return "?";
}

uint32_t vimana_net_coord(const vimana_net_config *cfg, uint32_t npu, uint32_t dim)
{
    uint32_t stride = 1;
    for (uint32_t d = 0; d < dim; d++)
        stride *= cfg->dims[d].npus;
    return (npu / stride) % cfg->dims[dim].npus;
}
