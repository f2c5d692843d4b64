#include "config/comm_group_config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_group(const char *path, const char *key, json_object *list, uint32_t total,
                       comm_group_def *g, char *err, size_t len)
{
    char *end;
    errno = 0;
    long long id = strtoll(key, &end, 10);
    if (!key[0] || *end || errno) {
        snprintf(err, len, "%s: group '%s': the key must be a decimal integer", path, key);
        return -1;
    }
    if (id <= 0) {
        snprintf(err, len, "%s: group '%s': ids must be greater than 0 (0 means all NPUs)", path, key);
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
                     json_object_to_json_string(v), total);
            return -1;
        }
        for (uint32_t j = 0; j < i; j++) {
            if (g->npus[j] == (uint32_t)npu) {
                snprintf(err, len, "%s: group %lld: NPU %lld listed twice", path, id, (long long)npu);
                return -1;
            }
        }
        g->npus[i] = (uint32_t)npu;
    }
    return 0;
}

int comm_group_config_load(const char *path, uint32_t total_npus, comm_group_config *out,
                           char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    json_object *root = json_object_from_file(path);
    if (!root) {
        FILE *fp = fopen(path, "rb");
        if (!fp)
            snprintf(err, err_len, "%s: Unable to open file: %s", path, strerror(errno));
        else {
            fclose(fp);
            snprintf(err, err_len, "%s: not valid JSON", path);
        }
        return -1;
    }
    int rc = 0;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, err_len, "%s: expected a JSON object of group id -> NPU list", path);
        rc = -1;
    } else {
        size_t n = (size_t)json_object_object_length(root);
        out->groups = calloc(n ? n : 1, sizeof *out->groups);
        json_object_object_foreach(root, key, val) {
            if (rc == 0 && parse_group(path, key, val, total_npus, &out->groups[out->n_groups], err, err_len) != 0)
                rc = -1;
            out->n_groups++;
        }
    }
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
