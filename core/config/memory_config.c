/* Remote-memory JSON reader (json-c, after config_json's strict checks).
 * The keys a memory type uses must be given; remote-mem-bw 0 is refused
 * only when a MEM node needs it, as the reference would only then divide. */
#include "config/memory_config.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"

static const char *const type_names[] = {"NO_MEMORY_EXPANSION", "PER_NPU_MEMORY_EXPANSION",
                                         "PER_NODE_MEMORY_EXPANSION", "MEMORY_POOL"};

const char *memory_type_name(enum memory_type t)
{
    return (size_t)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

/* One integer key: its limit, the types that need it, and where it goes. */
typedef struct {
    const char *key;
    uint64_t max;
    unsigned needed_by;  /* bit per enum memory_type */
    const char *meaning;
} int_key;

#define NEED(t) (1u << (t))
static const int_key int_keys[] = {
    {"num-nodes", UINT32_MAX, 0, "nodes"},
    {"num-npus-per-node", UINT32_MAX, NEED(MEM_PER_NODE), "NPUs per memory node"},
    {"remote-mem-latency", CONFIG_JSON_MAX_INT, NEED(MEM_PER_NPU) | NEED(MEM_PER_NODE) | NEED(MEM_POOL), "ns"},
    {"remote-mem-bw", CONFIG_JSON_MAX_INT, NEED(MEM_PER_NPU) | NEED(MEM_PER_NODE) | NEED(MEM_POOL), "bytes per ns"},
};

static uint64_t *int_key_field(mem_config *cfg, size_t i)
{
    uint64_t *fields[] = {&cfg->num_nodes, &cfg->num_npus_per_node, &cfg->latency_ns, &cfg->bytes_per_ns};
    return fields[i];
}

static int read_type(const char *path, json_object *root, mem_config *out, char *err, size_t len)
{
    json_object *type;
    if (!json_object_object_get_ex(root, "memory-type", &type) || !json_object_is_type(type, json_type_string)) {
        snprintf(err, len, "%s: key 'memory-type' is missing or not a string (expected "
                 "NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION or MEMORY_POOL)", path);
        return -1;
    }
    const char *name = json_object_get_string(type);
    for (size_t t = 0; t < sizeof type_names / sizeof type_names[0]; t++) {
        if (strcmp(type_names[t], name) == 0) {
            out->type = (enum memory_type)t;
            return 0;
        }
    }
    char shown[128];
    snprintf(err, len, "%s: Unsupported memory type: %s", path, msg_escape(name, shown, sizeof shown));
    return -1;
}

static int read_ints(const char *path, json_object *root, mem_config *out, char *err, size_t len)
{
    for (size_t i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++) {
        const int_key *k = &int_keys[i];
        json_object *v;
        if (json_object_object_get_ex(root, k->key, &v)) {
            if (config_json_uint(path, k->key, v, k->max, int_key_field(out, i), err, len) != 0)
                return -1;
        } else if (k->needed_by & NEED(out->type)) {
            /* The reference would take 0 without a word. */
            snprintf(err, len, "%s: key '%s' is missing (required for %s, in %s)", path, k->key,
                     type_names[out->type], k->meaning);
            return -1;
        }
    }
    return 0;
}

int mem_config_load(const char *path, mem_config *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(path);
    json_object *root = config_json_load(path, err, err_len);
    if (!root)
        return -1;
    int rc = read_type(path, root, out, err, err_len) == 0 && read_ints(path, root, out, err, err_len) == 0 ? 0 : -1;
    json_object_put(root);
    return rc;
}

void mem_config_free(mem_config *cfg)
{
    free(cfg->path);
    cfg->path = NULL;
}
