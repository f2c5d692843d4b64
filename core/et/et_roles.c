/* The role map of a compact workload (vimana/et_roles.h). */
#include "vimana/et_roles.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_doc.h"
#include "util/msg_escape.h"
#include "util/path_msg.h"

/* Maps are a few lines per role: anything larger is not one. */
#define ROLES_MAX_BYTES (16u << 20)
#define NO_ROLE UINT32_MAX
#define MAX_ROLES 65536u
/* A map read without a rank count to check it against (ranks = 0) says
 * how many ranks there are: at most this many (64 MiB of role_of). */
#define MAX_RANKS (1u << 24)

typedef struct reader {
    const char *path;
    char *err;
    size_t err_len;
    uint32_t total;
} reader;

/* "PATH: reason", returning -1. */
static int fail(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(reader *rd, const char *fmt, ...)
{
    char shown[200];
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(rd->err, rd->err_len, msg_escape(rd->path, shown, sizeof shown), 0, 400, fmt, ap);
    va_end(ap);
    return rc;
}

/* A value as JSON, shortened and escaped for a message. */
static const char *value_text(json_object *v, char *buf, size_t len)
{
    return msg_escape(v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "null", buf, len);
}

/* A whole number in [0, max]. */
static int uint_value(reader *rd, json_object *v, const char *key, uint64_t max, uint64_t *out)
{
    char shown[80];
    int64_t x = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
    if (x < 0 || (uint64_t)x > max)
        return fail(rd, "key '%s': %s is not a whole number in [0, %llu]", key, value_text(v, shown, sizeof shown),
                    (unsigned long long)max);
    *out = (uint64_t)x;
    return 0;
}

/* A key the map does not know is refused: a misspelt "ranks" would
 * otherwise leave ranks without a role. */
static int only_keys(reader *rd, json_object *o, const char *where, const char *const *keys)
{
    json_object_object_foreach(o, key, val) {
        (void)val;
        bool known = false;
        for (const char *const *k = keys; *k && !known; k++)
            known = strcmp(*k, key) == 0;
        char shown[80];
        if (!known)
            return fail(rd, "%s: unknown key '%s'", where, msg_escape(key, shown, sizeof shown));
    }
    return 0;
}

static int rank_value(reader *rd, json_object *v, const char *where, uint32_t *out)
{
    char shown[80];
    int64_t x = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
    if (x < 0 || (uint64_t)x >= rd->total)
        return fail(rd, "%s: %s is not a rank in [0, %u)", where, value_text(v, shown, sizeof shown),
                    rd->total);
    *out = (uint32_t)x;
    return 0;
}

/* Role k's "ranks": each entry a rank or [first, last]. */
static int read_ranks(reader *rd, json_object *list, uint32_t k, vet_roles *m)
{
    char where[64];
    snprintf(where, sizeof where, "roles[%u].ranks", k);
    if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0)
        return fail(rd, "%s: expected a non-empty list of ranks and [first, last] ranges", where);
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *e = json_object_array_get_idx(list, i);
        uint32_t first, last;
        if (json_object_is_type(e, json_type_array)) {
            if (json_object_array_length(e) != 2)
                return fail(rd, "%s[%zu]: a range is [first, last]", where, i);
            if (rank_value(rd, json_object_array_get_idx(e, 0), where, &first) != 0 ||
                rank_value(rd, json_object_array_get_idx(e, 1), where, &last) != 0)
                return -1;
            if (last < first)
                return fail(rd, "%s[%zu]: the range [%u, %u] is empty", where, i, first, last);
        } else if (rank_value(rd, e, where, &first) != 0) {
            return -1;
        } else {
            last = first;
        }
        for (uint64_t x = first; x <= last; x++) {
            if (m->role_of[x] != NO_ROLE)
                return fail(rd, "%s: rank %llu is also in roles[%u]", where, (unsigned long long)x, m->role_of[x]);
            m->role_of[x] = k;
        }
    }
    return 0;
}

/* The trace's path: as written when absolute, else beside the map. */
static char *resolve(const char *map_path, const char *trace)
{
    const char *slash = strrchr(map_path, '/');
    size_t dir = trace[0] == '/' || !slash ? 0 : (size_t)(slash - map_path) + 1;
    char *p = malloc(dir + strlen(trace) + 1);
    if (p) {
        memcpy(p, map_path, dir);
        strcpy(p + dir, trace);
    }
    return p;
}

static int read_role(reader *rd, json_object *o, uint32_t k, vet_roles *m)
{
    static const char *const keys[] = {"trace", "rank", "ranks", NULL};
    char where[32];
    snprintf(where, sizeof where, "roles[%u]", k);
    if (!json_object_is_type(o, json_type_object))
        return fail(rd, "%s: expected an object with trace, rank and ranks", where);
    if (only_keys(rd, o, where, keys) != 0)
        return -1;
    json_object *trace, *rank, *ranks;
    if (!json_object_object_get_ex(o, "trace", &trace) || !json_object_is_type(trace, json_type_string) ||
        json_object_get_string_len(trace) == 0)
        return fail(rd, "%s.trace: expected the trace's file name", where);
    if (!json_object_object_get_ex(o, "rank", &rank))
        return fail(rd, "%s.rank: missing (the rank the trace was written for)", where);
    if (!json_object_object_get_ex(o, "ranks", &ranks))
        return fail(rd, "%s.ranks: missing (the ranks that run the trace)", where);
    snprintf(where, sizeof where, "roles[%u].rank", k);
    if (rank_value(rd, rank, where, &m->roles[k].rank) != 0 || read_ranks(rd, ranks, k, m) != 0)
        return -1;
    if (m->role_of[m->roles[k].rank] != k)
        return fail(rd, "roles[%u].rank: rank %u does not run the role's trace (it is not in roles[%u].ranks)", k,
                    m->roles[k].rank, k);
    m->roles[k].trace = resolve(rd->path, json_object_get_string(trace));
    return m->roles[k].trace ? 0 : fail(rd, "out of memory");
}

static int alloc_role_of(reader *rd, uint32_t ranks, vet_roles *m);

static int read_map(reader *rd, json_object *root, vet_roles *m)
{
    static const char *const keys[] = {"format", "version", "npus", "roles", NULL};
    if (only_keys(rd, root, "the map", keys) != 0)
        return -1;
    json_object *v;
    if (!json_object_object_get_ex(root, "format", &v) || !json_object_is_type(v, json_type_string) ||
        strcmp(json_object_get_string(v), "vimana-roles") != 0)
        return fail(rd, "key 'format': expected \"vimana-roles\"");
    uint64_t version, npus;
    if (!json_object_object_get_ex(root, "version", &v))
        return fail(rd, "key 'version': missing");
    if (uint_value(rd, v, "version", 1000, &version) != 0)
        return -1;
    if (version != 1)
        return fail(rd, "key 'version': version %llu is newer than this vimana reads (1)", (unsigned long long)version);
    if (!json_object_object_get_ex(root, "npus", &v))
        return fail(rd, "key 'npus': missing");
    if (uint_value(rd, v, "npus", rd->total ? UINT32_MAX : MAX_RANKS, &npus) != 0)
        return -1;
    if (rd->total && npus != rd->total)
        return fail(rd, "key 'npus': the workload has %llu NPUs but the network %u", (unsigned long long)npus,
                    rd->total);
    if (npus == 0)
        return fail(rd, "key 'npus': a workload of no ranks");
    if (!rd->total && alloc_role_of(rd, (uint32_t)npus, m) != 0)
        return -1;
    json_object *roles;
    if (!json_object_object_get_ex(root, "roles", &roles) || !json_object_is_type(roles, json_type_array) ||
        json_object_array_length(roles) == 0 || json_object_array_length(roles) > MAX_ROLES)
        return fail(rd, "key 'roles': expected a list of 1 to %u roles", MAX_ROLES);
    m->n_roles = (uint32_t)json_object_array_length(roles);
    m->roles = calloc(m->n_roles, sizeof *m->roles);
    if (!m->roles)
        return fail(rd, "out of memory");
    for (uint32_t k = 0; k < m->n_roles; k++)
        if (read_role(rd, json_object_array_get_idx(roles, k), k, m) != 0)
            return -1;
    for (uint32_t x = 0; x < rd->total; x++)
        if (m->role_of[x] == NO_ROLE)
            return fail(rd, "key 'roles': rank %u is in no role", x);
    return 0;
}

static int alloc_role_of(reader *rd, uint32_t ranks, vet_roles *m)
{
    rd->total = ranks;
    m->n_ranks = ranks;
    m->role_of = malloc((size_t)ranks * sizeof *m->role_of);
    if (!m->role_of)
        return fail(rd, "out of memory");
    for (uint32_t x = 0; x < ranks; x++)
        m->role_of[x] = NO_ROLE;
    return 0;
}

int vet_roles_load(const char *path, uint32_t ranks, vet_roles *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    reader rd = {.path = path, .err = err, .err_len = err_len, .total = ranks};
    char shown[200];
    json_object *root;
    if (json_doc_load(path, msg_escape(path, shown, sizeof shown), ROLES_MAX_BYTES, "16 MiB, not a role map", 0, &root,
                      err, err_len) != 0)
        return -1;
    int rc = 0;
    if (!json_object_is_type(root, json_type_object))
        rc = fail(&rd, "expected an object with format, version, npus and roles");
    if (rc == 0 && ranks)
        rc = alloc_role_of(&rd, ranks, out);
    if (rc == 0)
        rc = read_map(&rd, root, out);
    json_object_put(root);
    if (rc != 0)
        vet_roles_free(out);
    return rc;
}

void vet_roles_free(vet_roles *m)
{
    for (uint32_t k = 0; m->roles && k < m->n_roles; k++)
        free(m->roles[k].trace);
    free(m->roles);
    free(m->role_of);
    memset(m, 0, sizeof *m);
}

int64_t vet_roles_peer(const vet_roles *m, uint32_t x, int64_t peer)
{
    if (x >= m->n_ranks || peer < 0 || peer >= (int64_t)m->n_ranks)
        return -1;
    int64_t p = peer + (int64_t)x - (int64_t)m->roles[m->role_of[x]].rank;
    return p >= 0 && p < (int64_t)m->n_ranks ? p : -1;
}
