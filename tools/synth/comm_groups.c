#include "synth/comm_groups.h"

#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_input.h"
#include "util/msg_escape.h"
#include "util/sorted.h"

/* A groups file lists each communicator once; anything this big is not one. */
#define COMM_GROUPS_MAX_FILE_BYTES ((size_t)256 << 20)

static void insert_sorted(comm_groups *g, comm_group c);

static int cmp_group(const void *a, const void *b)
{
    const comm_group *x = a, *y = b;
    return (x->pg > y->pg) - (x->pg < y->pg);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t comm_groups_stride(const int64_t *m, size_t n)
{
    if (n == 1)
        return 1;
    if (m[1] <= m[0])
        return 0;
    uint64_t s = (uint64_t)(m[1] - m[0]);
    for (size_t k = 2; k < n; k++)
        if (m[k] - m[k - 1] != (int64_t)s)
            return 0;
    return (uint64_t)m[0] % (s * n) < s ? s : 0;
}

uint64_t comm_layout_index(uint64_t r, uint64_t g, uint64_t s)
{
    return r / (g * s) * s + r % s;
}

uint64_t comm_layout_member(uint64_t index, uint64_t k, uint64_t g, uint64_t s)
{
    return index / s * g * s + index % s + k * s;
}

/* A group number: a whole non-negative decimal (as the simulator reads
 * pg_name). Returns -1 otherwise. */
static int64_t group_number(const char *key)
{
    char *end;
    errno = 0;
    long long pg = strtoll(key, &end, 10);
    return *key == '\0' || *end || errno || pg < 0 ? -1 : pg;
}

/* Size and stride of a JSON list of ranks. Returns 0, or -1 with the
 * reason in why. */
static int group_layout(json_object *val, comm_group *out, const char **why)
{
    size_t n = json_object_is_type(val, json_type_array) ? json_object_array_length(val) : 0;
    *why = "expected a non-empty list of ranks";
    if (n == 0)
        return -1;
    int64_t *m = malloc(n * sizeof *m);
    if (!m) {
        *why = "out of memory";
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        json_object *r = json_object_array_get_idx(val, k);
        if (!json_object_is_type(r, json_type_int) || json_object_get_int64(r) < 0) {
            free(m);
            return -1;
        }
        m[k] = json_object_get_int64(r);
    }
    qsort(m, n, sizeof *m, cmp_i64);
    out->size = n;
    out->stride = comm_groups_stride(m, n);
    free(m);
    return 0;
}

/* One group: "KEY": [ranks]. Returns 0, or -1 with the reason in why. */
static int read_group(const char *key, json_object *val, comm_group *out, const char **why)
{
    if ((out->pg = group_number(key)) < 0) {
        *why = "is not a group number";
        return -1;
    }
    return group_layout(val, out, why);
}

int comm_groups_add_pytorch(comm_groups *g, const char *values)
{
    size_t len = strlen(values);
    if (len < 4)
        return 0;
    /* The simulator's framing: two characters off each end. */
    char *inner = strndup(values + 2, len - 4);
    if (!inner)
        return -1;
    json_object *root = json_tokener_parse(inner);
    free(inner);
    size_t n = root && json_object_is_type(root, json_type_array) ? json_object_array_length(root) : 0;
    comm_group *grown = n ? realloc(g->g, (g->n + n) * sizeof *g->g) : g->g;
    if (n && !grown) {
        json_object_put(root);
        return -1;
    }
    g->g = grown;
    for (size_t k = 0; k < n; k++) {
        json_object *item = json_object_array_get_idx(root, k), *name, *ranks;
        comm_group c;
        const char *why;
        /* Groups the simulator would not register are skipped, as it does. */
        if (!json_object_is_type(item, json_type_object) || !json_object_object_get_ex(item, "pg_name", &name) ||
            !json_object_object_get_ex(item, "ranks", &ranks) ||
            (c.pg = group_number(json_object_get_string(name))) < 0 || comm_groups_find(g, c.pg) ||
            group_layout(ranks, &c, &why) != 0)
            continue;
        insert_sorted(g, c);
    }
    json_object_put(root);
    return 0;
}

int comm_groups_read(const char *prog, const char *path, comm_groups *out)
{
    memset(out, 0, sizeof *out);
    /* json_doc refuses a group given twice (json-c would keep the last). */
    json_object *root;
    if (json_input_load(prog, path, COMM_GROUPS_MAX_FILE_BYTES, "256 MiB, not a groups file", &root) != 0)
        return -1;
    if (!json_object_is_type(root, json_type_object)) {
        cli_error(prog, "error: %s: expected a JSON object of groups", path);
        json_object_put(root);
        return -1;
    }
    out->g = calloc((size_t)json_object_object_length(root) + 1, sizeof *out->g);
    int rc = out->g ? 0 : -1;
    const char *why = "out of memory";
    json_object_object_foreach(root, key, val) {
        if (rc != 0)
            break;
        if ((rc = read_group(key, val, &out->g[out->n], &why)) == 0)
            out->n++;
        else {
            char name[128];
            msg_escape(key, name, sizeof name);
            cli_error(prog, "error: %s: group \"%s\": %s", path, name, why);
        }
    }
    if (!out->g)
        cli_error(prog, "out of memory");
    json_object_put(root);
    if (rc != 0)
        comm_groups_free(out);
    else
        qsort(out->g, out->n, sizeof *out->g, cmp_group); /* comm_groups_find searches it */
    return rc;
}

void comm_groups_free(comm_groups *g)
{
    free(g->g);
    g->g = NULL;
    g->n = 0;
}

const comm_group *comm_groups_find(const comm_groups *g, int64_t pg)
{
    size_t lo = lower_bound_i64(g->g, g->n, sizeof *g->g, offsetof(comm_group, pg), pg);
    return lo < g->n && g->g[lo].pg == pg ? &g->g[lo] : NULL;
}

/* Keeps the list sorted by group number (comm_groups_find searches it). */
static void insert_sorted(comm_groups *g, comm_group c)
{
    size_t at = g->n;
    while (at > 0 && g->g[at - 1].pg > c.pg) {
        g->g[at] = g->g[at - 1];
        at--;
    }
    g->g[at] = c;
    g->n++;
}
