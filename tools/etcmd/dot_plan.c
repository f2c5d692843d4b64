/* See dot_plan.h. */
#include "etcmd/dot_plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/grow.h"

/* The layer number in a name: "layer", an optional 's', an optional
 * separator, then digits ("layer3", "layer_3", "layers.3"). Returns the
 * digits' offset and sets *len, or returns -1. */
static long layer_digits(const char *name, size_t *len)
{
    for (const char *p = name; *p; p++) {
        if (strncasecmp(p, "layer", 5) != 0)
            continue;
        const char *d = p + 5;
        d += *d == 's';
        d += *d == '_' || *d == '.' || *d == '-';
        size_t n = 0;
        while (isdigit((unsigned char)d[n]))
            n++;
        if (n) {
            *len = n;
            return (long)(d - name);
        }
    }
    return -1;
}

/* A node's name with its layer number replaced by '#' (NULL when it has
 * none), and the number. */
typedef struct layer_name {
    char *skeleton;
    unsigned long layer;
} layer_name;

static int layer_name_of(const char *name, layer_name *out)
{
    size_t len;
    long at = layer_digits(name, &len);
    out->skeleton = NULL;
    if (at < 0)
        return 0;
    out->layer = strtoul(name + at, NULL, 10);
    size_t total = strlen(name);
    out->skeleton = malloc(total - len + 2);
    if (!out->skeleton)
        return -1;
    memcpy(out->skeleton, name, (size_t)at);
    out->skeleton[at] = '#';
    memcpy(out->skeleton + at + 1, name + at + len, total - (size_t)at - len + 1);
    return 0;
}

static int append(dot_plan *p, const vet_node *n, bool kept)
{
    /* Both arrays grow alike, from the same capacity. */
    size_t cap_ids = p->cap, cap_kept = p->cap, need = p->n + 1;
    uint32_t first;
    if (grow_array((void **)&p->ids, &cap_ids, need, sizeof *p->ids, 256) != 0 ||
        grow_array((void **)&p->kept, &cap_kept, need, sizeof *p->kept, 256) != 0)
        return -1;
    p->cap = cap_ids;
    if (idmap_put(&p->index, n->id, (uint32_t)p->n, &first) < 0)
        return -1;
    p->ids[p->n] = n->id;
    p->kept[p->n++] = kept;
    return 0;
}

/* Whether the `len` kept nodes from at[j] repeat those from at[i], one
 * layer on: the same skeletons, one layer number of their own. */
static bool block_repeats(const size_t *at, size_t n, const layer_name *ln, size_t i, size_t j, size_t len)
{
    if (j + len > n || !ln[at[j]].skeleton || ln[at[j]].layer == ln[at[j - len]].layer)
        return false;
    for (size_t t = 0; t < len; t++) {
        const layer_name *a = &ln[at[i + t]], *b = &ln[at[j + t]];
        if (!b->skeleton || b->layer != ln[at[j]].layer || strcmp(a->skeleton, b->skeleton) != 0)
            return false;
    }
    return true;
}

/* Folds each run of repeated layers among the kept nodes (at[0..n)) into
 * its first layer. */
static void collapse(dot_plan *p, const size_t *at, size_t n, const layer_name *ln)
{
    uint32_t group = 0;
    for (size_t i = 0; i < n;) {
        if (!ln[at[i]].skeleton) {
            i++;
            continue;
        }
        size_t len = 0;
        while (i + len < n && ln[at[i + len]].skeleton && ln[at[i + len]].layer == ln[at[i]].layer)
            len++;
        size_t k = 1;
        while (block_repeats(at, n, ln, i, i + k * len, len))
            k++;
        if (k < 2) {
            i += len;
            continue;
        }
        group++;
        for (size_t b = 0; b < k; b++)
            for (size_t t = 0; t < len; t++) {
                size_t node = at[i + b * len + t];
                p->group[node] = group;
                p->block[node] = (uint32_t)b;
                p->shown_as[node] = p->ids[at[i + t]];
            }
        for (size_t t = 0; t < len; t++)
            p->times[at[i + t]] = (uint32_t)k;
        i += k * len;
    }
}

/* The per-node arrays once the nodes are known. */
static int lay_out(dot_plan *p, const dot_plan_options *o, layer_name *ln)
{
    size_t n = p->n ? p->n : 1;
    p->shown_as = malloc(n * sizeof *p->shown_as);
    p->times = malloc(n * sizeof *p->times);
    p->group = calloc(n, sizeof *p->group);
    p->block = calloc(n, sizeof *p->block);
    size_t *at = malloc(n * sizeof *at), n_at = 0;
    if (!p->shown_as || !p->times || !p->group || !p->block || !at) {
        free(at);
        return -1;
    }
    for (size_t i = 0; i < p->n; i++) {
        p->shown_as[i] = p->ids[i];
        p->times[i] = 1;
        if (p->kept[i])
            at[n_at++] = i;
    }
    if (o->collapse)
        collapse(p, at, n_at, ln);
    free(at);
    for (size_t i = 0; i < p->n; i++)
        p->drawn += dot_plan_draws(p, i);
    return 0;
}

int dot_plan_build(const char *input, vet_reader *r, const dot_plan_options *o, dot_plan *p)
{
    memset(p, 0, sizeof *p);
    layer_name *ln = NULL;
    size_t cap = 0;
    vet_error err;
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        bool kept = !o->name || strstr(n->name, o->name);
        size_t at = p->n;
        if (append(p, n, kept) != 0 || grow_array((void **)&ln, &cap, at + 1, sizeof *ln, 256) != 0 ||
            layer_name_of(kept && o->collapse ? n->name : "", &ln[at]) != 0) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && lay_out(p, o, ln) != 0) {
        snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
        rc = -1;
    }
    if (rc != 0)
        fprintf(stderr, "%s\n", err.msg);
    for (size_t i = 0; i < p->n && ln; i++)
        free(ln[i].skeleton);
    free(ln);
    return rc;
}

void dot_plan_free(dot_plan *p)
{
    idmap_free(&p->index);
    free(p->ids);
    free(p->shown_as);
    free(p->kept);
    free(p->times);
    free(p->group);
    free(p->block);
    free(p->edges);
    idmap_free(&p->edges_into);
}

bool dot_plan_draws(const dot_plan *p, size_t i)
{
    return p->kept[i] && p->shown_as[i] == p->ids[i];
}

/* Records an edge that touches a collapsed run; false when it was given
 * before. */
static bool first_time(dot_plan *p, uint64_t from, uint64_t to, bool ctrl)
{
    uint32_t head = 0;
    idmap_get(&p->edges_into, to, &head);
    for (uint32_t e = head; e; e = p->edges[e - 1].next)
        if (p->edges[e - 1].from == from && p->edges[e - 1].ctrl == ctrl)
            return false;
    if (p->n_edges >= UINT32_MAX - 1 ||
        grow_array((void **)&p->edges, &p->cap_edges, p->n_edges + 1, sizeof *p->edges, 64) != 0 ||
        idmap_set(&p->edges_into, to, (uint32_t)p->n_edges + 1) != 0)
        return true;    /* out of memory: a duplicate edge at worst */
    p->edges[p->n_edges++] = (dot_plan_edge){from, ctrl, head};
    return true;
}

bool dot_plan_edge_of(dot_plan *p, size_t i, uint64_t parent, bool ctrl, uint64_t *from, uint64_t *to,
                      bool *absent)
{
    uint32_t q;
    *to = p->shown_as[i];
    *absent = !idmap_get(&p->index, parent, &q);
    if (!p->kept[i])
        return false;
    if (*absent) {
        *from = parent;
        return true;
    }
    if (!p->kept[q])
        return false;
    *from = p->shown_as[q];
    bool same_run = p->group[q] && p->group[q] == p->group[i];
    /* Inside a run only the first layer's own edges are drawn; the links
     * from one layer to the next would loop the drawn layer onto itself. */
    if (*from == *to || (same_run && (p->block[q] != p->block[i] || p->block[i] != 0)))
        return false;
    return p->group[i] || p->group[q] ? first_time(p, *from, *to, ctrl) : true;
}
