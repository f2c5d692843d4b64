/*
 * jobs_spec.c - read a jobs file with libyaml's document loader (the form
 * of docs/jobs.md), then place its jobs on the physical NPUs.
 */
#include "cmd/jobs/jobs_spec.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "config/yaml_file.h"
#include "util/hash.h"
#include "util/msg_escape.h"
#include "util/or_die.h"

typedef struct reader {
    yaml_document_t *doc;
    jobs_spec *s;
    const char *dir;    /* the file's folder, "" or ending in '/' */
    char path[512];     /* escaped for messages */
    char *err;
    size_t err_len;
    job_spec *job;      /* the job being read, for messages */
} reader;

static int fail(reader *r, const yaml_node_t *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, const yaml_node_t *at, const char *fmt, ...)
{
    char msg[400], where[JOBS_NAME_MAX * 4 + 16] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->job && r->job->name[0]) {
        char shown[JOBS_NAME_MAX * 4 + 1];
        snprintf(where, sizeof where, "job '%s': ", msg_escape(r->job->name, shown, sizeof shown));
    }
    if (at)
        snprintf(r->err, r->err_len, "%s:%zu: %s%s", r->path, at->start_mark.line + 1, where, msg);
    else
        snprintf(r->err, r->err_len, "%s: %s%s", r->path, where, msg);
    return -1;
}

static void *xmalloc(size_t n)
{
    return or_die(malloc(n ? n : 1));
}

static const yaml_node_t *node(reader *r, int id)
{
    return yaml_document_get_node(r->doc, id);
}

/* A path of the file: absolute as written, else relative to its folder. */
static char *resolve(reader *r, const char *path)
{
    size_t d = path[0] == '/' ? 0 : strlen(r->dir);
    char *out = xmalloc(d + strlen(path) + 1);
    memcpy(out, r->dir, d);
    strcpy(out + d, path);
    return out;
}

/* A non-empty scalar for `key`, given once. */
static int take_string(reader *r, const char *key, const yaml_node_t *v, char **out)
{
    const char *text = yaml_scalar(v);
    if (!text || !text[0])
        return fail(r, v, "%s: expected a single value", key);
    if (*out)
        return fail(r, v, "%s: given twice", key);
    *out = xmalloc(strlen(text) + 1);
    strcpy(*out, text);
    return 0;
}

static int take_path(reader *r, const char *key, const yaml_node_t *v, char **out)
{
    if (*out)
        return fail(r, v, "%s: given twice", key);
    char *text = NULL;
    if (take_string(r, key, v, &text) != 0)
        return -1;
    *out = resolve(r, text);
    free(text);
    return 0;
}

/* A decimal unsigned integer, digits only, at most max. */
static int take_uint(reader *r, const char *key, const yaml_node_t *v, uint64_t max, uint64_t *out)
{
    const char *text = yaml_scalar(v);
    char shown[64];
    if (!text || !text[0])
        return fail(r, v, "%s: expected a non-negative integer", key);
    uint64_t x = 0;
    bool overflow = false;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return fail(r, v, "%s: '%s' is not a non-negative integer of at most %llu", key,
                        msg_escape(text, shown, sizeof shown), (unsigned long long)max);
        /* Exact: UINT64_MAX itself is a valid seed; only a digit past it overflows. */
        uint64_t digit = (uint64_t)(*c - '0');
        overflow = overflow || x > (UINT64_MAX - digit) / 10;
        x = overflow ? x : x * 10 + digit;
    }
    if (overflow || x > max)
        return fail(r, v, "%s: %s is out of range (at most %llu)", key, msg_escape(text, shown, sizeof shown),
                    (unsigned long long)max);
    *out = x;
    return 0;
}

static int read_name(reader *r, const yaml_node_t *v, job_spec *j)
{
    const char *text = yaml_scalar(v);
    if (!text || !text[0])
        return fail(r, v, "name: expected a single value");
    if (j->name[0])
        return fail(r, v, "name: given twice");
    size_t n = strlen(text);
    bool ok = n <= JOBS_NAME_MAX;
    for (size_t i = 0; ok && i < n; i++)
        ok = (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
             (text[i] >= '0' && text[i] <= '9') || text[i] == '_' || text[i] == '-';
    char shown[JOBS_NAME_MAX * 4 + 1];
    if (!ok)
        return fail(r, v, "name: '%s' must be 1 to %d letters, digits, '_' or '-' (it names output files)",
                    msg_escape(text, shown, sizeof shown), JOBS_NAME_MAX);
    for (job_spec *o = r->s->jobs; o < j; o++)
        if (!strcmp(o->name, text))
            return fail(r, v, "name: '%s' is the name of an earlier job (line %zu)", text, o->line);
    strcpy(j->name, text);
    return 0;
}

/* One dimension of dims: at least 1, the product a usable NPU count. */
static int add_dim(reader *r, const yaml_node_t *v, job_spec *j, uint64_t *product)
{
    uint64_t d;
    if (j->n_dims == JOBS_MAX_DIMS)
        return fail(r, v, "dims: more than %d dimensions", JOBS_MAX_DIMS);
    if (take_uint(r, "dims", v, UINT32_MAX / 2, &d) != 0)
        return -1;
    if (d == 0)
        return fail(r, v, "dims: a dimension of 0 NPUs");
    if (*product > (UINT32_MAX / 2) / d)
        return fail(r, v, "dims: more than %u NPUs", UINT32_MAX / 2);
    *product *= d;
    j->dims[j->n_dims++] = (uint32_t)d;
    return 0;
}

/* dims: N or [N, M, ...], dimension 0 varying fastest, as in a network. */
static int read_dims(reader *r, const yaml_node_t *v, job_spec *j)
{
    if (j->n_dims)
        return fail(r, v, "dims: given twice");
    uint64_t product = 1;
    if (v->type == YAML_SCALAR_NODE) {
        if (add_dim(r, v, j, &product) != 0)
            return -1;
    } else if (v->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++)
            if (add_dim(r, node(r, *i), j, &product) != 0)
                return -1;
        if (j->n_dims == 0)
            return fail(r, v, "dims: an empty list");
    } else {
        return fail(r, v, "dims: expected a number of NPUs or a list of them, one per dimension");
    }
    j->n_npus = (uint32_t)product;
    return 0;
}

static int read_explicit(reader *r, const yaml_node_t *v, job_spec *j)
{
    size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
    if (n == 0)
        return fail(r, v, "placement: an empty list of NPUs");
    j->ids = xmalloc(n * sizeof *j->ids);
    for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++)
        if (take_uint(r, "placement", node(r, *i), UINT32_MAX, &j->ids[j->n_ids++]) != 0)
            return -1;
    j->rule = PLACE_EXPLICIT;
    return 0;
}

static int rule_of(reader *r, const yaml_node_t *v, place_rule *out)
{
    const char *text = yaml_scalar(v);
    char shown[64];
    if (text && !strcmp(text, "contiguous"))
        *out = PLACE_CONTIGUOUS;
    else if (text && !strcmp(text, "strided"))
        *out = PLACE_STRIDED;
    else if (text && !strcmp(text, "random"))
        *out = PLACE_RANDOM;
    else
        return fail(r, v, "placement: rule '%s' is unknown (contiguous, strided, random or a list of NPU ids)",
                    msg_escape(text ? text : "", shown, sizeof shown));
    return 0;
}

/* {rule: R, offset: N, stride: N, seed: N}: each key only where its rule
 * reads it, so that a misplaced one is not ignored silently. */
static int read_rule(reader *r, const yaml_node_t *v, job_spec *j)
{
    const yaml_node_t *rule = NULL, *offset = NULL, *stride = NULL, *seed = NULL;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(r, p->key), *val = node(r, p->value);
        const char *key = yaml_scalar(k);
        const yaml_node_t **slot = !key ? NULL : !strcmp(key, "rule") ? &rule : !strcmp(key, "offset") ? &offset
                                   : !strcmp(key, "stride") ? &stride : !strcmp(key, "seed") ? &seed : NULL;
        char shown[64];
        if (!slot)
            return fail(r, k, "placement: unknown key '%s' (rule, offset, stride, seed)",
                        msg_escape(key ? key : "", shown, sizeof shown));
        if (*slot)
            return fail(r, k, "placement: %s given twice", key);
        *slot = val;
    }
    if (!rule)
        return fail(r, v, "placement: no rule (contiguous, strided or random)");
    if (rule_of(r, rule, &j->rule) != 0)
        return -1;
    if (offset && j->rule == PLACE_RANDOM)
        return fail(r, offset, "placement: offset does not apply to rule random");
    if (stride && j->rule != PLACE_STRIDED)
        return fail(r, stride, "placement: stride applies to rule strided only");
    if (seed && j->rule != PLACE_RANDOM)
        return fail(r, seed, "placement: seed applies to rule random only");
    if (j->rule == PLACE_STRIDED && !stride)
        return fail(r, v, "placement: rule strided needs a stride");
    if (j->rule == PLACE_RANDOM && !seed)
        return fail(r, v, "placement: rule random needs a seed");
    j->stride = 1;
    if (offset && take_uint(r, "placement: offset", offset, UINT32_MAX, &j->offset) != 0)
        return -1;
    if (stride && take_uint(r, "placement: stride", stride, UINT32_MAX, &j->stride) != 0)
        return -1;
    if (stride && j->stride == 0)
        return fail(r, stride, "placement: stride must be at least 1");
    return seed ? take_uint(r, "placement: seed", seed, UINT64_MAX, &j->seed) : 0;
}

static int read_placement(reader *r, const yaml_node_t *v, job_spec *j, bool *seen)
{
    if (*seen)
        return fail(r, v, "placement: given twice");
    *seen = true;
    if (v->type == YAML_SEQUENCE_NODE)
        return read_explicit(r, v, j);
    if (v->type == YAML_MAPPING_NODE)
        return read_rule(r, v, j);
    j->stride = 1;
    return rule_of(r, v, &j->rule);
}

/* generate: {kind: K, size: S} (cmd/jobs/jobs_generate.h). */
static int read_generate(reader *r, const yaml_node_t *v, job_spec *j)
{
    if (j->gen != GEN_NONE)
        return fail(r, v, "generate: given twice");
    if (v->type != YAML_MAPPING_NODE)
        return fail(r, v, "generate: expected a mapping {kind: KIND, size: BYTES}");
    const yaml_node_t *kind = NULL, *size = NULL;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(r, p->key);
        const char *key = yaml_scalar(k);
        const yaml_node_t **slot = !key ? NULL : !strcmp(key, "kind") ? &kind : !strcmp(key, "size") ? &size : NULL;
        char shown[64];
        if (!slot)
            return fail(r, k, "generate: unknown key '%s' (kind, size)", msg_escape(key ? key : "", shown, sizeof shown));
        if (*slot)
            return fail(r, k, "generate: %s given twice", key);
        *slot = node(r, p->value);
    }
    if (!kind || !size)
        return fail(r, v, "generate: missing key '%s'", !kind ? "kind" : "size");
    char shown[64];
    const char *text = yaml_scalar(kind);
    if (!text || (j->gen = jobs_gen_kind(text)) == GEN_NONE)
        return fail(r, kind, "generate: kind '%s' is unknown (all-reduce, all-gather, reduce-scatter, all-to-all)",
                    msg_escape(text ? text : "", shown, sizeof shown));
    text = yaml_scalar(size);
    if (!text || jobs_gen_size(text, &j->gen_size) != 0)
        return fail(r, size, "generate: size '%s' is not a size (bytes, or a number with B, KiB, MiB or GiB; at "
                             "least 1)", msg_escape(text ? text : "", shown, sizeof shown));
    return 0;
}

static int read_job_key(reader *r, const char *key, const yaml_node_t *k, const yaml_node_t *v, job_spec *j,
                        bool *placed, bool *started)
{
    if (!strcmp(key, "name"))
        return read_name(r, v, j);
    if (!strcmp(key, "workload"))
        return take_path(r, "workload", v, &j->workload);
    if (!strcmp(key, "generate"))
        return read_generate(r, v, j);
    if (!strcmp(key, "system"))
        return take_path(r, "system", v, &j->system);
    if (!strcmp(key, "remote-memory"))
        return take_path(r, "remote-memory", v, &j->memory);
    if (!strcmp(key, "dims"))
        return read_dims(r, v, j);
    if (!strcmp(key, "placement"))
        return read_placement(r, v, j, placed);
    if (!strcmp(key, "start")) {
        if (*started)
            return fail(r, v, "start: given twice");
        *started = true;
        return take_uint(r, "start", v, UINT64_MAX >> 2, &j->start);
    }
    char shown[64];
    return fail(r, k, "unknown key '%s' (name, workload, generate, system, remote-memory, dims, placement, start)",
                msg_escape(key, shown, sizeof shown));
}

static int read_job(reader *r, const yaml_node_t *n, job_spec *j)
{
    j->line = n->start_mark.line + 1;
    r->job = j;
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "a job is a mapping (name, workload, system, dims, placement, start)");
    /* The name first, so that every later message names the job. */
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const char *key = yaml_scalar(node(r, p->key));
        if (key && !strcmp(key, "name") && read_name(r, node(r, p->value), j) != 0)
            return -1;
    }
    if (!j->name[0])
        return fail(r, n, "a job without a name");
    bool placed = false, started = false;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(r, p->key);
        const char *key = yaml_scalar(k);
        if (!key)
            return fail(r, k, "a key must be a plain word");
        if (!strcmp(key, "name"))
            continue;
        if (read_job_key(r, key, k, node(r, p->value), j, &placed, &started) != 0)
            return -1;
    }
    if (j->workload && j->gen != GEN_NONE)
        return fail(r, n, "give either workload or generate, not both");
    if (!j->workload && j->gen == GEN_NONE)
        return fail(r, n, "missing key 'workload' (or 'generate')");
    const char *missing = !j->system ? "system" : !j->n_dims ? "dims"
                          : !placed ? "placement" : NULL;
    if (missing)
        return fail(r, n, "missing key '%s'", missing);
    if (j->rule == PLACE_EXPLICIT && j->n_ids != j->n_npus)
        return fail(r, n, "placement names %zu NPU%s but dims %s make %u", j->n_ids, j->n_ids == 1 ? "" : "s",
                    jobs_dims_text(j, (char[JOBS_DIMS_TEXT]){0}, JOBS_DIMS_TEXT), j->n_npus);
    r->job = NULL;
    return 0;
}

static int read_jobs(reader *r, const yaml_node_t *v)
{
    if (r->s->jobs)
        return fail(r, v, "jobs: given twice");
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start)
        return fail(r, v, "jobs: expected a non-empty list of jobs");
    size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
    r->s->jobs = calloc(n, sizeof *r->s->jobs);
    if (!r->s->jobs)
        return fail(r, v, "out of memory");
    for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++)
        if (read_job(r, node(r, *i), &r->s->jobs[r->s->n_jobs++]) != 0)
            return -1;
    return 0;
}

static int read_root(reader *r, const yaml_node_t *root)
{
    if (!root || root->type != YAML_MAPPING_NODE)
        return fail(r, root, "expected a mapping (network, backend, jobs)");
    jobs_spec *s = r->s;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(r, p->key), *v = node(r, p->value);
        const char *key = yaml_scalar(k);
        char shown[64];
        int rc;
        if (!key)
            return fail(r, k, "a key must be a plain word");
        if (!strcmp(key, "network"))
            rc = take_path(r, "network", v, &s->network);
        else if (!strcmp(key, "backend")) {
            rc = take_string(r, "backend", v, &s->backend);
            /* A path (it has a '/') is the file's; a name is searched for. */
            /* The reference's name for the analytical model, as on the command line. */
            if (rc == 0 && !strcmp(s->backend, "congestion_unaware"))
                strcpy(s->backend, "analytical");
            if (rc == 0 && strchr(s->backend, '/')) {
                char *path = resolve(r, s->backend);
                free(s->backend);
                s->backend = path;
            }
        } else if (!strcmp(key, "backend-options"))
            rc = take_string(r, "backend-options", v, &s->backend_options);
        else if (!strcmp(key, "jobs"))
            rc = read_jobs(r, v);
        else
            rc = fail(r, k, "unknown key '%s' (network, backend, backend-options, jobs)",
                      msg_escape(key, shown, sizeof shown));
        if (rc != 0)
            return -1;
    }
    if (!s->network)
        return fail(r, NULL, "missing key 'network'");
    if (!s->jobs)
        return fail(r, NULL, "missing key 'jobs'");
    return 0;
}

static int read_document(void *ctx, yaml_document_t *doc, const yaml_node_t *root)
{
    reader *r = ctx;
    r->doc = doc;
    return read_root(r, root);
}

int jobs_spec_load(const char *path, jobs_spec *s, char *err, size_t len)
{
    memset(s, 0, sizeof *s);
    s->path = xmalloc(strlen(path) + 1);
    strcpy(s->path, path);
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *dir = xmalloc(dlen + 1);
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    reader r = {.s = s, .dir = dir, .err = err, .err_len = len};
    msg_escape(path, r.path, sizeof r.path);
    int rc = yaml_file_load(path, r.path, "a jobs file", read_document, &r, err, len);
    if (rc == 0 && !s->backend) {
        s->backend = xmalloc(sizeof "analytical");
        strcpy(s->backend, "analytical");
    }
    free(dir);
    return rc;
}

const char *jobs_dims_text(const job_spec *j, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "[");
    for (uint32_t k = 0; k < j->n_dims && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%u", k ? ", " : "", j->dims[k]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

/* ---- placement ----------------------------------------------------------- */

static int place_fail(const jobs_spec *s, const job_spec *j, char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int place_fail(const jobs_spec *s, const job_spec *j, char *err, size_t len, const char *fmt, ...)
{
    char msg[400], path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, len, "%s:%zu: job '%s': %s", msg_escape(s->path, path, sizeof path), j->line, j->name, msg);
    return -1;
}

/* The ids a rule gives, before any check (they may be out of range). */
static int rule_ids(const jobs_spec *s, job_spec *j, uint32_t n_npus, const int32_t *owner, uint64_t *ids,
                    char *err, size_t len)
{
    if (j->rule == PLACE_EXPLICIT) {
        memcpy(ids, j->ids, j->n_npus * sizeof *ids);
        return 0;
    }
    if (j->rule != PLACE_RANDOM) {
        for (uint32_t i = 0; i < j->n_npus; i++)
            ids[i] = j->offset + (uint64_t)i * j->stride;
        return 0;
    }
    /* Fisher-Yates over the NPUs no earlier job took, in id order, with
     * splitmix64(seed); the job takes the first n_npus of the shuffle. */
    uint32_t *free_ids = xmalloc((size_t)n_npus * sizeof *free_ids);
    uint32_t n_free = 0;
    for (uint32_t i = 0; i < n_npus; i++)
        if (owner[i] < 0)
            free_ids[n_free++] = i;
    if (n_free < j->n_npus) {
        free(free_ids);
        return place_fail(s, j, err, len, "placement: random needs %u NPUs but only %u of the network's %u are "
                                          "left by earlier jobs", j->n_npus, n_free, n_npus);
    }
    /* The documented generator of random placements: splitmix64 from the
     * job's seed (docs/jobs.md), a Fisher-Yates shuffle of the free NPUs. */
    uint64_t state = j->seed;
    for (uint32_t i = n_free; i > 1; i--) {
        uint32_t k = (uint32_t)(hash_splitmix64(&state) % i), t = free_ids[i - 1];
        free_ids[i - 1] = free_ids[k];
        free_ids[k] = t;
    }
    for (uint32_t i = 0; i < j->n_npus; i++)
        ids[i] = free_ids[i];
    free(free_ids);
    return 0;
}

static int place_job(const jobs_spec *s, job_spec *j, uint32_t n_npus, int32_t *owner, char *err, size_t len)
{
    uint64_t *ids = xmalloc((size_t)j->n_npus * sizeof *ids);
    int rc = rule_ids(s, j, n_npus, owner, ids, err, len);
    j->npus = rc == 0 ? xmalloc((size_t)j->n_npus * sizeof *j->npus) : NULL;
    for (uint32_t i = 0; rc == 0 && i < j->n_npus; i++) {
        if (ids[i] >= n_npus) {
            rc = place_fail(s, j, err, len, "placement: NPU %llu (rank %u) is out of range: the network %s has "
                                            "NPUs 0 to %u", (unsigned long long)ids[i], i, s->network, n_npus - 1);
        } else if (owner[ids[i]] == (int32_t)(j - s->jobs)) {
            rc = place_fail(s, j, err, len, "placement: NPU %llu is named twice", (unsigned long long)ids[i]);
        } else if (owner[ids[i]] >= 0) {
            rc = place_fail(s, j, err, len, "placement: NPU %llu is taken by job '%s' (line %zu): jobs may "
                                            "not share an NPU", (unsigned long long)ids[i], s->jobs[owner[ids[i]]].name,
                            s->jobs[owner[ids[i]]].line);
        } else {
            owner[ids[i]] = (int32_t)(j - s->jobs);
            j->npus[i] = (uint32_t)ids[i];
        }
    }
    free(ids);
    return rc;
}

int jobs_spec_place(jobs_spec *s, uint32_t n_npus, char *err, size_t len)
{
    int32_t *owner = xmalloc((size_t)n_npus * sizeof *owner);
    for (uint32_t i = 0; i < n_npus; i++)
        owner[i] = -1;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < s->n_jobs; k++) {
        job_spec *j = &s->jobs[k];
        if (j->n_npus > n_npus)
            rc = place_fail(s, j, err, len, "dims make %u NPUs but the network %s has %u", j->n_npus, s->network,
                            n_npus);
        else
            rc = place_job(s, j, n_npus, owner, err, len);
    }
    free(owner);
    return rc;
}

void jobs_spec_free(jobs_spec *s)
{
    for (size_t k = 0; k < s->n_jobs; k++) {
        free(s->jobs[k].workload);
        free(s->jobs[k].system);
        free(s->jobs[k].memory);
        free(s->jobs[k].ids);
        free(s->jobs[k].npus);
    }
    free(s->jobs);
    free(s->path);
    free(s->network);
    free(s->backend);
    free(s->backend_options);
    memset(s, 0, sizeof *s);
}
