/*
 * link_model.c - loading and checking the link records of a vimana report.
 * The document itself is read by the timeline's report reader (one JSON
 * reader for reports, one set of messages for a malformed file).
 */
#include "linkmap/link_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/msg_escape.h"

/* A required non-negative integer member of record `where`. */
static int get_u64(const char *path, const char *where, json_object *rec, const char *key, uint64_t *out,
                   char err[LM_MSG_MAX])
{
    if (report_get_u64(path, where, rec, key, out, err) != 0)
        return -1;
    /* json-c stores a number of 2^64 or more as 2^64 - 1 without a word:
     * refuse that value rather than draw a silently wrong count. */
    if (*out == UINT64_MAX)
        return report_fail(err, "%s: %s: \"%s\" is out of range (2^64 - 1 or more)", path, where, key);
    return 0;
}

/* A required finite number member (an integer or not); *out is its value. */
static int get_number(const char *path, const char *where, json_object *rec, const char *key, double *out,
                      char err[LM_MSG_MAX])
{
    json_object *v;
    if (!json_object_object_get_ex(rec, key, &v))
        return report_fail(err, "%s: %s: missing \"%s\"", path, where, key);
    if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
        return report_fail(err, "%s: %s: \"%s\" is not a number", path, where, key);
    *out = json_object_get_double(v);
    if (!isfinite(*out))
        return report_fail(err, "%s: %s: \"%s\" is not a finite number", path, where, key);
    return 0;
}

/* An optional string member: *out stays NULL when it is absent. */
static int get_name(const char *path, const char *where, json_object *rec, const char *key, const char **out,
                    char err[LM_MSG_MAX])
{
    json_object *v;
    if (!json_object_object_get_ex(rec, key, &v))
        return 0;
    if (!json_object_is_type(v, json_type_string))
        return report_fail(err, "%s: %s: \"%s\" is not a string", path, where, key);
    *out = json_object_get_string(v);
    return 0;
}

/* An optional count that may be null; *known says whether it holds one. */
static int get_optional_u64(const char *path, const char *where, json_object *rec, const char *key,
                            uint64_t *out, bool *known, char err[LM_MSG_MAX])
{
    json_object *v;
    *known = json_object_object_get_ex(rec, key, &v) && v != NULL;
    return *known ? get_u64(path, where, rec, key, out, err) : 0;
}

/* The ABI 1.2 fields of a link record: names and queueing delay. */
static int load_link_extras(const char *path, const char *where, json_object *rec, lm_link *l,
                            char err[LM_MSG_MAX])
{
    bool max_known, sum_known;
    if (get_name(path, where, rec, "src", &l->src_name, err) != 0 ||
        get_name(path, where, rec, "dst", &l->dst_name, err) != 0 ||
        get_optional_u64(path, where, rec, "max_queue_ticks", &l->max_queue_ticks, &max_known, err) != 0 ||
        get_optional_u64(path, where, rec, "queue_ticks", &l->queue_ticks, &sum_known, err) != 0)
        return -1;
    if (max_known != sum_known)
        return report_fail(err, "%s: %s: \"%s\" is given but \"%s\" is missing or null (both or neither)", path,
                           where, max_known ? "max_queue_ticks" : "queue_ticks",
                           max_known ? "queue_ticks" : "max_queue_ticks");
    if (max_known && l->max_queue_ticks > l->queue_ticks)
        return report_fail(err, "%s: %s: \"max_queue_ticks\" (%llu) is more than \"queue_ticks\" (%llu)", path, where,
                           (unsigned long long)l->max_queue_ticks, (unsigned long long)l->queue_ticks);
    l->has_queue = max_known;
    return 0;
}

static int load_dimension(const char *path, json_object *rec, size_t i, lm_dimension *d, char err[LM_MSG_MAX])
{
    char where[64];
    if (report_record_where(path, "network.dimensions", i, rec, where, sizeof where, err) != 0)
        return -1;
    if (get_u64(path, where, rec, "npus", &d->npus, err) != 0)
        return -1;
    if (d->npus == 0)
        return report_fail(err, "%s: %s: \"npus\" is 0", path, where);
    json_object *bw;
    if (json_object_object_get_ex(rec, "bandwidth_gbps", &bw) && bw == NULL)
        return 0; /* null: the backend reports no bandwidth */
    if (get_number(path, where, rec, "bandwidth_gbps", &d->bandwidth_gbps, err) != 0)
        return -1;
    if (d->bandwidth_gbps <= 0)
        return report_fail(err, "%s: %s: \"bandwidth_gbps\" is not greater than 0", path, where);
    d->has_bandwidth = true;
    return 0;
}

static int load_network(const char *path, link_model *m, char err[LM_MSG_MAX])
{
    json_object *net, *dims, *n;
    if (!json_object_object_get_ex(m->rep.root, "network", &net))
        return report_fail(err, "%s: no \"network\" record (was it written by vimana --report?)", path);
    if (!json_object_is_type(net, json_type_object))
        return report_fail(err, "%s: \"network\" is not an object", path);
    if (!json_object_object_get_ex(net, "dimensions", &dims) || !json_object_is_type(dims, json_type_array))
        return report_fail(err, "%s: network: \"dimensions\" is missing or not an array", path);
    m->n_dims = json_object_array_length(dims);
    if (m->n_dims == 0)
        return report_fail(err, "%s: network: \"dimensions\" is empty", path);
    m->dims = calloc(m->n_dims, sizeof *m->dims);
    if (!m->dims)
        return report_fail(err, "%s: out of memory", path);
    m->n_npus = 1;
    for (size_t i = 0; i < m->n_dims; i++) {
        if (load_dimension(path, json_object_array_get_idx(dims, i), i, &m->dims[i], err) != 0)
            return -1;
        if (m->n_npus > UINT32_MAX / m->dims[i].npus)
            return report_fail(err, "%s: network: the dimensions hold more than %u NPUs", path, UINT32_MAX);
        m->n_npus *= m->dims[i].npus;
    }
    if (json_object_object_get_ex(net, "num_links", &n)) {
        m->has_num_links = true;
        return get_u64(path, "network", net, "num_links", &m->num_links, err);
    }
    return 0;
}

static int load_link(const char *path, json_object *rec, size_t i, lm_link *l, char err[LM_MSG_MAX])
{
    char where[48];
    if (report_record_where(path, "links", i, rec, where, sizeof where, err) != 0)
        return -1;
    l->index = i;
    if (get_u64(path, where, rec, "src_device", &l->src, err) != 0 ||
        get_u64(path, where, rec, "dst_device", &l->dst, err) != 0 ||
        get_u64(path, where, rec, "bytes", &l->bytes, err) != 0 ||
        get_u64(path, where, rec, "messages", &l->messages, err) != 0 ||
        get_u64(path, where, rec, "busy_ticks", &l->busy_ticks, err) != 0 ||
        get_number(path, where, rec, "utilisation", &l->utilisation, err) != 0)
        return -1;
    if (l->utilisation < 0)
        return report_fail(err, "%s: %s: \"utilisation\" is negative", path, where);
    return load_link_extras(path, where, rec, l, err);
}

static int load_links(const char *path, link_model *m, char err[LM_MSG_MAX])
{
    json_object *links;
    if (!json_object_object_get_ex(m->rep.root, "links", &links)) {
        char name[160];
        return report_fail(err,
                           "%s: no \"links\" records: network backend '%s' keeps no link statistics "
                           "(run with one that does, e.g. congestion_aware)",
                           path, msg_escape(m->backend, name, sizeof name));
    }
    if (!json_object_is_type(links, json_type_array))
        return report_fail(err, "%s: \"links\" is not an array", path);
    m->n_links = json_object_array_length(links);
    if (m->n_links == 0)
        return report_fail(err, "%s: \"links\" is empty: no link carried a message", path);
    m->links = calloc(m->n_links, sizeof *m->links);
    if (!m->links)
        return report_fail(err, "%s: out of memory", path);
    for (size_t i = 0; i < m->n_links; i++)
        if (load_link(path, json_object_array_get_idx(links, i), i, &m->links[i], err) != 0)
            return -1;
    return 0;
}

int link_model_load(const char *path, link_model *m, char err[LM_MSG_MAX])
{
    memset(m, 0, sizeof *m);
    if (report_load(path, &m->rep, err) != 0)
        return -1;
    m->backend = m->rep.network_backend ? m->rep.network_backend : "?";
    if (load_network(path, m, err) != 0 || load_links(path, m, err) != 0)
        return -1;
    return 0;
}

static int busiest_first(const void *a, const void *b)
{
    const lm_link *x = a, *y = b;
    if (x->utilisation != y->utilisation)
        return x->utilisation > y->utilisation ? -1 : 1;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void link_model_sort(link_model *m)
{
    if (m->n_links > 1)
        qsort(m->links, m->n_links, sizeof *m->links, busiest_first);
}

void link_model_free(link_model *m)
{
    report_free(&m->rep);
    free(m->dims);
    free(m->links);
    memset(m, 0, sizeof *m);
}
