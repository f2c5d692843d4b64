/* Reads a --network-faults file (see the header). */
#include "host/network_faults.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/yaml_file.h"
#include "util/msg_escape.h"
#include "vimana/network_api.h"

typedef struct reader {
    yaml_reader y;      /* the document, the path, the error buffer */
    net_faults *out;
} reader;

/* `text` escaped for a message, cut to fit. */
static const char *shown(const char *text, char *buf, size_t len)
{
    return msg_escape(text, buf, len);
}

/* A decimal tick: digits only, below 2^63 (room for the run after it). */
static int read_at(reader *r, const yaml_node_t *v, net_fault *f)
{
    const char *text = yaml_scalar(v);
    char buf[64];
    uint64_t x = 0;
    if (!text || !text[0])
        return yaml_reader_fail(&r->y, v, "at: expected a tick (a non-negative integer)");
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9' || x > ((UINT64_C(1) << 63) - 10) / 10)
            return yaml_reader_fail(&r->y, v, "at: expected a tick below 2^63, got '%s'", shown(text, buf, sizeof buf));
        x = x * 10 + (uint64_t)(*c - '0');
    }
    f->at = x;
    return 0;
}

static int read_factor(reader *r, const yaml_node_t *v, net_fault *f)
{
    const char *text = yaml_scalar(v);
    char buf[64], *end;
    double x = text && text[0] ? strtod(text, &end) : NAN;
    if (!text || !text[0] || *end != '\0' || !(x > 0 && x <= VIMANA_FAULT_MAX_FACTOR))
        return yaml_reader_fail(&r->y, v, "bandwidth-factor: expected a number in (0, 1000000], got '%s'",
                    text ? shown(text, buf, sizeof buf) : "(not a single value)");
    f->factor = x;
    return 0;
}

static int read_down(reader *r, const yaml_node_t *v, net_fault *f)
{
    const char *text = yaml_scalar(v);
    if (!text || strcmp(text, "true") != 0)
        return yaml_reader_fail(&r->y, v, "down: expected true (a link comes back with bandwidth-factor: 1)");
    f->factor = 0;
    return 0;
}

/* An end of the link: an id or a name, 1 to 63 printable characters. */
static int read_end(reader *r, const yaml_node_t *v, char out[NET_FAULT_END_MAX + 1])
{
    const char *text = yaml_scalar(v);
    char buf[80];
    size_t n = text ? strlen(text) : 0;
    bool printable = true;
    for (size_t i = 0; i < n; i++)
        printable = printable && text[i] >= 0x20 && text[i] <= 0x7e;
    if (n == 0 || n > NET_FAULT_END_MAX || !printable)
        return yaml_reader_fail(&r->y, v, "link: expected a device id or name (1 to %d printable characters), got '%s'",
                    NET_FAULT_END_MAX, text ? shown(text, buf, sizeof buf) : "(not a single value)");
    memcpy(out, text, n + 1);
    return 0;
}

static int read_link(reader *r, const yaml_node_t *v, net_fault *f)
{
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start != 2)
        return yaml_reader_fail(&r->y, v, "link: expected [SRC, DST], two device ids or names");
    for (int k = 0; k < 2; k++)
        if (read_end(r, yaml_reader_node(&r->y, v->data.sequence.items.start[k]), f->end[k]) != 0)
            return -1;
    if (strcmp(f->end[0], f->end[1]) == 0)
        return yaml_reader_fail(&r->y, v, "link: both ends are '%s'", f->end[0]);
    return 0;
}

/* Which keys a fault has read, so that each is given once. */
enum { HAS_LINK = 1, HAS_AT = 2, HAS_FACTOR = 4, HAS_DOWN = 8 };

static int read_key(reader *r, const yaml_node_t *k, const yaml_node_t *v, net_fault *f, unsigned *seen)
{
    static const struct {
        const char *name;
        unsigned bit;
        int (*read)(reader *, const yaml_node_t *, net_fault *);
    } keys[] = {
        {"link", HAS_LINK, read_link},
        {"at", HAS_AT, read_at},
        {"bandwidth-factor", HAS_FACTOR, read_factor},
        {"down", HAS_DOWN, read_down},
    };
    const char *name = yaml_scalar(k);
    char buf[64];
    for (size_t i = 0; name && i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(name, keys[i].name) != 0)
            continue;
        if (*seen & keys[i].bit)
            return yaml_reader_fail(&r->y, k, "%s: given twice", name);
        *seen |= keys[i].bit;
        return keys[i].read(r, v, f);
    }
    return yaml_reader_fail(&r->y, k, "unknown key '%s' (expected link, at, bandwidth-factor or down)",
                name ? shown(name, buf, sizeof buf) : "(not a single value)");
}

static int read_fault(reader *r, const yaml_node_t *n, net_fault *f)
{
    memset(f, 0, sizeof *f);
    f->line = n->start_mark.line + 1;
    if (n->type != YAML_MAPPING_NODE)
        return yaml_reader_fail(&r->y, n, "a fault is a mapping {link: [SRC, DST], at: TICK, bandwidth-factor: F | down: true}");
    unsigned seen = 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
        if (read_key(r, yaml_reader_node(&r->y, p->key), yaml_reader_node(&r->y, p->value), f,
                     &seen) != 0)
            return -1;
    if (!(seen & HAS_LINK))
        return yaml_reader_fail(&r->y, n, "a fault needs link: [SRC, DST]");
    if ((seen & HAS_FACTOR) && (seen & HAS_DOWN))
        return yaml_reader_fail(&r->y, n, "a fault has bandwidth-factor or down: true, not both");
    if (!(seen & (HAS_FACTOR | HAS_DOWN)))
        return yaml_reader_fail(&r->y, n, "a fault needs bandwidth-factor: F or down: true");
    return 0;
}

static int read_root(void *ctx, yaml_document_t *doc, const yaml_node_t *root)
{
    reader *r = ctx;
    r->y.doc = doc;
    /* an empty file holds no node at all */
    if (!root)
        return yaml_reader_fail(&r->y, NULL, "empty network faults file (expected a list of faults: - {link: [SRC, DST], at: TICK, bandwidth-factor: F})");
    if (root->type != YAML_SEQUENCE_NODE)
        return yaml_reader_fail(&r->y, root, "expected a list of faults (- {link: [SRC, DST], at: TICK, bandwidth-factor: F})");
    size_t n = (size_t)(root->data.sequence.items.top - root->data.sequence.items.start);
    if (n > NET_FAULTS_MAX)
        return yaml_reader_fail(&r->y, root, "%zu faults, more than %d", n, NET_FAULTS_MAX);
    r->out->items = calloc(n ? n : 1, sizeof *r->out->items);
    if (!r->out->items)
        return yaml_reader_fail(&r->y, root, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yaml_document_get_node(doc, root->data.sequence.items.start[i]);
        if (read_fault(r, item, &r->out->items[i]) != 0)
            return -1;
        r->out->n = i + 1;
    }
    return 0;
}

int net_faults_load(const char *path, net_faults *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    reader r = {.y = {.err = err, .err_len = err_len}, .out = out};
    msg_escape(path, r.y.path, sizeof r.y.path);
    return yaml_file_load(path, r.y.path, "a network faults file", read_root, &r, err, err_len);
}

void net_faults_free(net_faults *f)
{
    free(f->items);
    f->items = NULL;
    f->n = 0;
}
