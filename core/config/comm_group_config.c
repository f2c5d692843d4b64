#include "config/comm_group_config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"

/* seen[npu] == stamp: npu is already a member of this group (a stamp per
 * group, so that the check costs the group's size, not its square). */
static int parse_group(const char *path, const char *key, json_object *list, uint32_t total,
                       comm_group_def *g, uint32_t *seen, uint32_t stamp, char *err, size_t len)
{
    char *end, shown[128];
    errno = 0;
    long long id = strtoll(key, &end, 10);
    /* Only the plain form: with "01" or "+1" beside "1" two keys would name
     * one group. */
    if (!key[0] || *end || errno || !(key[0] >= '0' && key[0] <= '9') || (key[0] == '0' && key[1])) {
        snprintf(err, len, "%s: group '%s': the key must be a decimal integer (digits only, no leading zero)", path,
                 msg_escape(key, shown, sizeof shown));
        return -1;
    }
    if (id <= 0) {
        snprintf(err, len, "%s: group '%s': ids must be greater than 0 (0 means all NPUs)", path,
                 msg_escape(key, shown, sizeof shown));
        return -1;
    }
    if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0) {
        snprintf(err, len, "%s: group %lld: expected a non-empty list of NPU ids", path, id);
        return -1;
    }
    g->id = id;
    g->n_npus = (uint32_t)json_object_array_length(list);
    g->npus = calloc(g->n_npus, sizeof *g->npus);
    if (!g->npus) {
        snprintf(err, len, "%s: out of memory", path);
        return -1;
    }
    for (uint32_t i = 0; i < g->n_npus; i++) {
        json_object *v = json_object_array_get_idx(list, i);
        int64_t npu = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
        if (npu < 0 || (uint64_t)npu >= total) {
            snprintf(err, len, "%s: group %lld: member %s is not an NPU id in [0, %u)", path, id,
                     config_json_value_text(v, shown, sizeof shown), total);
            return -1;
        }
        if (seen[npu] == stamp) {
            snprintf(err, len, "%s: group %lld: NPU %lld listed twice", path, id, (long long)npu);
            return -1;
        }
        seen[npu] = stamp;
        g->npus[i] = (uint32_t)npu;
    }
    return 0;
}

int comm_group_config_load(const char *path, uint32_t total_npus, comm_group_config *out,
                           char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    json_object *root = config_json_load(path, err, err_len);
    if (!root)
        return -1;
    int rc = 0;
    size_t n = (size_t)json_object_object_length(root);
    out->groups = calloc(n ? n : 1, sizeof *out->groups);
    uint32_t *seen = calloc(total_npus ? total_npus : 1, sizeof *seen);
    if (!out->groups || !seen) {
        snprintf(err, err_len, "%s: out of memory", path);
        rc = -1;
    }
    json_object_object_foreach(root, key, val) {
        if (rc != 0)
            break;
        rc = parse_group(path, key, val, total_npus, &out->groups[out->n_groups], seen,
                         (uint32_t)out->n_groups + 1, err, err_len);
        out->n_groups++;
    }
    free(seen);
    json_object_put(root);
    return rc;
}

void comm_group_config_free(comm_group_config *cfg)
{
    for (size_t i = 0; i < cfg->n_groups; i++)
        free(cfg->groups[i].npus);
    free(cfg->groups);
    memset(cfg, 0, sizeof *cfg);
}
