/* The role map of a compact workload (see the header). */
#include "config/role_map.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"

#define NO_ROLE UINT32_MAX
#define ROLE_MAP_MAX_ROLES 65536u

typedef struct reader {
    const char *path;
    char *err;
    size_t err_len;
    uint32_t total;
} reader;

/* "PATH: reason", returning -1. */
#define fail(rd, ...) config_json_fail((rd)->path, (rd)->err, (rd)->err_len, __VA_ARGS__)

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
        return fail(rd, "%s: %s is not a rank in [0, %u)", where, config_json_value_text(v, shown, sizeof shown),
                    rd->total);
    *out = (uint32_t)x;
    return 0;
}

/* Role k's "ranks": each entry a rank or [first, last]. */
static int read_ranks(reader *rd, json_object *list, uint32_t k, role_map *m)
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

static int read_role(reader *rd, json_object *o, uint32_t k, role_map *m)
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

static int read_map(reader *rd, json_object *root, role_map *m)
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
    if (config_json_uint(rd->path, "version", v, 1000, &version, rd->err, rd->err_len) != 0)
        return -1;
    if (version != 1)
        return fail(rd, "key 'version': version %llu is newer than this vimana reads (1)", (unsigned long long)version);
    if (!json_object_object_get_ex(root, "npus", &v))
        return fail(rd, "key 'npus': missing");
    if (config_json_uint(rd->path, "npus", v, UINT32_MAX, &npus, rd->err, rd->err_len) != 0)
        return -1;
    if (npus != rd->total)
        return fail(rd, "key 'npus': the workload has %llu NPUs but the network %u", (unsigned long long)npus,
                    rd->total);
    json_object *roles;
    if (!json_object_object_get_ex(root, "roles", &roles) || !json_object_is_type(roles, json_type_array) ||
        json_object_array_length(roles) == 0 || json_object_array_length(roles) > ROLE_MAP_MAX_ROLES)
        return fail(rd, "key 'roles': expected a list of 1 to %u roles", ROLE_MAP_MAX_ROLES);
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

int role_map_load(const char *path, uint32_t total_npus, role_map *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    reader rd = {.path = path, .err = err, .err_len = err_len, .total = total_npus};
    json_object *root = config_json_load(path, err, err_len);
    if (!root)
        return -1;
    out->n_npus = total_npus;
    out->role_of = malloc((size_t)(total_npus ? total_npus : 1) * sizeof *out->role_of);
    int rc = out->role_of ? 0 : fail(&rd, "out of memory");
    for (uint32_t x = 0; rc == 0 && x < total_npus; x++)
        out->role_of[x] = NO_ROLE;
    if (rc == 0)
        rc = read_map(&rd, root, out);
    json_object_put(root);
    if (rc != 0)
        role_map_free(out);
    return rc;
}

void role_map_free(role_map *m)
{
    for (uint32_t k = 0; m->roles && k < m->n_roles; k++)
        free(m->roles[k].trace);
    free(m->roles);
    free(m->role_of);
    memset(m, 0, sizeof *m);
}
