/* Remote-memory JSON reader. The rates a MEM node needs are checked when
 * the model is used, so a config that is never exercised may leave them 0. */
#include "config/memory_config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {"NO_MEMORY_EXPANSION", "PER_NPU_MEMORY_EXPANSION",
                                         "PER_NODE_MEMORY_EXPANSION", "MEMORY_POOL"};

const char *memory_type_name(enum memory_type t)
{
    return (size_t)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

static int read_uint(const char *path, json_object *root, const char *key, uint64_t *out, char *err, size_t len)
{
    json_object *v;
    if (!json_object_object_get_ex(root, key, &v))
        return 0;
    double d = json_object_is_type(v, json_type_int) ? (double)json_object_get_int64(v)
               : json_object_is_type(v, json_type_double) ? json_object_get_double(v)
                                                          : -1;
    if (d < 0 || d != floor(d)) {
        snprintf(err, len, "%s: key '%s': expected a non-negative integer, got %s", path, key,
                 json_object_to_json_string(v));
        return -1;
    }
    *out = (uint64_t)d;
    return 0;
}

int mem_config_load(const char *path, mem_config *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(path);
    json_object *root = json_object_from_file(path);
    if (!root) {
        FILE *fp = fopen(path, "rb");
        if (!fp) {
            snprintf(err, err_len, "%s: Unable to open file: %s", path, strerror(errno));
            return -1;
        }
        fclose(fp);
        snprintf(err, err_len, "%s: not valid JSON", path);
        return -1;
    }
    int rc = -1;
    json_object *type;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, err_len, "%s: expected a JSON object at the top level", path);
        goto done;
    }
    if (!json_object_object_get_ex(root, "memory-type", &type) || !json_object_is_type(type, json_type_string)) {
        snprintf(err, err_len, "%s: key 'memory-type' is missing or not a string (expected "
                 "NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION or MEMORY_POOL)", path);
        goto done;
    }
    const char *name = json_object_get_string(type);
    size_t t;
    for (t = 0; t < sizeof type_names / sizeof type_names[0]; t++)
        if (strcmp(type_names[t], name) == 0)
            break;
    if (t == sizeof type_names / sizeof type_names[0]) {
        snprintf(err, err_len, "%s: Unsupported memory type: %s", path, name);
        goto done;
    }
    out->type = (enum memory_type)t;
    if (read_uint(path, root, "num-nodes", &out->num_nodes, err, err_len) != 0 ||
        read_uint(path, root, "num-npus-per-node", &out->num_npus_per_node, err, err_len) != 0 ||
        read_uint(path, root, "remote-mem-latency", &out->latency_ns, err, err_len) != 0 ||
        read_uint(path, root, "remote-mem-bw", &out->bytes_per_ns, err, err_len) != 0)
        goto done;
    rc = 0;
done:
    json_object_put(root);
    return rc;
}

void mem_config_free(mem_config *cfg)
{
    free(cfg->path);
    cfg->path = NULL;
}
