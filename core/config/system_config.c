/* System JSON reader (json-c). Keys, defaults and checks follow
 * shared/spec/simulator.md section 5 and section 18. */
#include "config/system_config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct {
    const char *path;
    char *err;
    size_t err_len;
} ctx;

static int fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx *c, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->err_len, "%s: %s", c->path, msg);
    return -1;
}

static const char *const coll_names[COLL_KINDS] = {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"};

const char *coll_kind_name(enum coll_kind k)
{
    return k < COLL_KINDS ? coll_names[k] : "?";
}

const char *algo_spec_name(const algo_spec *a, char *buf, size_t len)
{
    static const char *const base[] = {"Ring", "Direct", "HalvingDoubling", "doubleBinaryTree"};
    if (a->kind == ALGO_DOUBLE_BINARY_TREE) {
        snprintf(buf, len, "doubleBinaryTree");
    } else if (a->one) {
        snprintf(buf, len, "one%s", base[a->kind]);
    } else {
        snprintf(buf, len, "%c%s", base[a->kind][0] - 'A' + 'a', base[a->kind] + 1);
    }
    if (a->window && strlen(buf) + 12 < len)
        snprintf(buf + strlen(buf), len - strlen(buf), "%u", a->window);
    return buf;
}

/* ---- typed JSON reads ---------------------------------------------------- */

static int get_number(ctx *c, json_object *v, const char *key, double *out)
{
    if (json_object_is_type(v, json_type_int)) {
        *out = (double)json_object_get_int64(v);
        return 0;
    }
    if (json_object_is_type(v, json_type_double)) {
        *out = json_object_get_double(v);
        return 0;
    }
    if (json_object_is_type(v, json_type_boolean)) {
        *out = json_object_get_boolean(v) ? 1.0 : 0.0;
        return 0;
    }
    return fail(c, "key '%s': expected a number, got %s", key, json_object_to_json_string(v));
}

static int get_uint(ctx *c, json_object *v, const char *key, uint64_t *out)
{
    double d = 0;
    if (get_number(c, v, key, &d) != 0)
        return -1;
    if (d < 0 || d != floor(d) || d > 1.8e19)
        return fail(c, "key '%s': expected a non-negative integer, got %s", key, json_object_to_json_string(v));
    *out = (uint64_t)d;
    return 0;
}

static int get_bool(ctx *c, json_object *v, const char *key, bool *out)
{
    double d = 0;
    if (get_number(c, v, key, &d) != 0)
        return -1;
    *out = d != 0;
    return 0;
}

static int get_string(ctx *c, json_object *v, const char *key, const char **out)
{
    if (!json_object_is_type(v, json_type_string))
        return fail(c, "key '%s': expected a string, got %s", key, json_object_to_json_string(v));
    *out = json_object_get_string(v);
    return 0;
}

/* ---- algorithms ---------------------------------------------------------- */

static int parse_window(const char *digits, uint32_t *window)
{
    if (!*digits) {
        *window = 0;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(digits, &end, 10);
    if (*end || errno || v == 0 || v > UINT32_MAX)
        return -1;
    *window = (uint32_t)v;
    return 0;
}

static int parse_algo(const char *name, algo_spec *out)
{
    memset(out, 0, sizeof *out);
    if (strcmp(name, "ring") == 0) {
        out->kind = ALGO_RING;
    } else if (strcmp(name, "oneRing") == 0) {
        out->kind = ALGO_RING;
        out->one = true;
    } else if (strcmp(name, "doubleBinaryTree") == 0) {
        out->kind = ALGO_DOUBLE_BINARY_TREE;
    } else if (strcmp(name, "halvingDoubling") == 0) {
        out->kind = ALGO_HALVING_DOUBLING;
    } else if (strcmp(name, "oneHalvingDoubling") == 0) {
        out->kind = ALGO_HALVING_DOUBLING;
        out->one = true;
    } else if (strncmp(name, "oneDirect", 9) == 0) {
        out->kind = ALGO_DIRECT;
        out->one = true;
        return parse_window(name + 9, &out->window);
    } else if (strncmp(name, "direct", 6) == 0) {
        out->kind = ALGO_DIRECT;
        return parse_window(name + 6, &out->window);
    } else {
        return -1;
    }
    return 0;
}

static int parse_impl_list(ctx *c, json_object *v, const char *key, sys_config *cfg, enum coll_kind k)
{
    if (!json_object_is_type(v, json_type_array))
        return fail(c, "key '%s': expected a list of algorithm names", key);
    size_t n = json_object_array_length(v);
    if (n == 0)
        return fail(c, "key '%s': the list is empty", key);
    cfg->impl[k] = calloc(n, sizeof *cfg->impl[k]);
    if (!cfg->impl[k])
        return fail(c, "out of memory");
    cfg->n_impl[k] = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        json_object *item = json_object_array_get_idx(v, i);
        const char *name = NULL;
        if (get_string(c, item, key, &name) != 0)
            return -1;
        if (parse_algo(name, &cfg->impl[k][i]) != 0)
            return fail(c, "key '%s'[%zu]: unknown collective algorithm '%s' (expected ring, oneRing, "
                           "direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling "
                           "or doubleBinaryTree)", key, i, name);
    }
    return 0;
}

static int parse_custom(ctx *c, json_object *v, const char *key, sys_config *cfg, enum coll_kind k)
{
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != 1)
        return fail(c, "key '%s': There should be 1 Chakra ET only (a list with exactly one ET prefix)", key);
    const char *prefix = NULL;
    if (get_string(c, json_object_array_get_idx(v, 0), key, &prefix) != 0)
        return -1;
    cfg->custom_impl[k] = strdup(prefix);
    return cfg->custom_impl[k] ? 0 : fail(c, "out of memory");
}

/* ---- per-node custom implementations (YAML {node id: prefix}) ----------- */

static int load_per_node_custom(ctx *c, sys_config *cfg)
{
    const char *path = cfg->per_node_custom_path;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fail(c, "key 'per-node-custom-implementation': cannot open %s: %s", path, strerror(errno));
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, fp);
    int rc = 0, depth = 0;
    char *pending_key = NULL;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            rc = fail(c, "%s:%zu: %s", path, p.problem_mark.line + 1, p.problem ? p.problem : "YAML error");
            break;
        }
        yaml_event_type_t type = ev.type;
        if (type == YAML_MAPPING_START_EVENT || type == YAML_SEQUENCE_START_EVENT) {
            depth++;
            if (depth > 1 || type == YAML_SEQUENCE_START_EVENT) {
                rc = fail(c, "%s:%zu: expected a flat mapping of node ids to ET prefixes", path, ev.start_mark.line + 1);
                yaml_event_delete(&ev);
                break;
            }
        } else if (type == YAML_SCALAR_EVENT && depth == 1) {
            const char *text = (const char *)ev.data.scalar.value;
            if (!pending_key) {
                pending_key = strdup(text);
            } else {
                char *end;
                errno = 0;
                unsigned long long id = strtoull(pending_key, &end, 10);
                if (*end || errno || !pending_key[0]) {
                    rc = fail(c, "%s:%zu: node id '%s' is not an integer", path, ev.start_mark.line + 1, pending_key);
                    yaml_event_delete(&ev);
                    break;
                }
                custom_by_node *grown = realloc(cfg->per_node_custom, (cfg->n_per_node_custom + 1) * sizeof *grown);
                if (!grown) {
                    rc = fail(c, "out of memory");
                    yaml_event_delete(&ev);
                    break;
                }
                cfg->per_node_custom = grown;
                grown[cfg->n_per_node_custom].node_id = id;
                grown[cfg->n_per_node_custom].prefix = strdup(text);
                cfg->n_per_node_custom++;
                free(pending_key);
                pending_key = NULL;
            }
        } else if (type == YAML_MAPPING_END_EVENT) {
            depth--;
        }
        yaml_event_delete(&ev);
        if (type == YAML_STREAM_END_EVENT)
            break;
    }
    free(pending_key);
    yaml_parser_delete(&p);
    fclose(fp);
    return rc;
}

const char *sys_config_custom_for(const sys_config *cfg, enum coll_kind kind, uint64_t node_id)
{
    for (size_t i = 0; i < cfg->n_per_node_custom; i++)
        if (cfg->per_node_custom[i].node_id == node_id)
            return cfg->per_node_custom[i].prefix;
    return cfg->custom_impl[kind];
}

/* ---- the document -------------------------------------------------------- */

static int impl_key(const char *key, enum coll_kind *k, bool *custom)
{
    for (int i = 0; i < COLL_KINDS; i++) {
        size_t n = strlen(coll_names[i]);
        if (strncmp(key, coll_names[i], n) != 0)
            continue;
        if (strcmp(key + n, "-implementation") == 0) {
            *k = (enum coll_kind)i;
            *custom = false;
            return 1;
        }
        if (strcmp(key + n, "-implementation-custom") == 0) {
            *k = (enum coll_kind)i;
            *custom = true;
            return 1;
        }
    }
    return 0;
}

static int parse_key(ctx *c, const char *key, json_object *v, sys_config *cfg, double injection_scale,
                     bool *seen_policy, bool *seen_opt, bool *seen_splits,
                     void (*warn)(void *, const char *), void *warn_ctx)
{
    const char *s = NULL;
    double d = 0;
    uint64_t u;
    enum coll_kind k;
    bool custom;
    if (strcmp(key, "scheduling-policy") == 0) {
        if (get_string(c, v, key, &s) != 0)
            return -1;
        if (strcmp(s, "LIFO") == 0) cfg->scheduling_policy = SCHED_LIFO;
        else if (strcmp(s, "FIFO") == 0) cfg->scheduling_policy = SCHED_FIFO;
        else if (strcmp(s, "EXPLICIT") == 0) cfg->scheduling_policy = SCHED_EXPLICIT;
        else return fail(c, "key 'scheduling-policy': unknown value '%s' (expected LIFO, FIFO or EXPLICIT)", s);
        *seen_policy = true;
    } else if (strcmp(key, "collective-optimization") == 0) {
        if (get_string(c, v, key, &s) != 0)
            return -1;
        if (strcmp(s, "baseline") == 0) cfg->collective_optimization = COLL_OPT_BASELINE;
        else if (strcmp(s, "localBWAware") == 0) cfg->collective_optimization = COLL_OPT_LOCAL_BW_AWARE;
        else return fail(c, "key 'collective-optimization': unknown value '%s' (expected baseline or localBWAware)", s);
        *seen_opt = true;
    } else if (strcmp(key, "endpoint-delay") == 0) {
        if (get_uint(c, v, key, &u) != 0)
            return -1;
        cfg->endpoint_delay = (uint64_t)((double)u * injection_scale);
    } else if (strcmp(key, "active-chunks-per-dimension") == 0) {
        if (get_uint(c, v, key, &u) != 0)
            return -1;
        if (u == 0 || u > UINT32_MAX)
            return fail(c, "key 'active-chunks-per-dimension': must be at least 1");
        cfg->active_chunks_per_dimension = (uint32_t)u;
    } else if (strcmp(key, "preferred-dataset-splits") == 0) {
        if (get_uint(c, v, key, &u) != 0)
            return -1;
        if (u == 0)
            return fail(c, "key 'preferred-dataset-splits': must be greater than 0");
        cfg->preferred_dataset_splits = u;
        *seen_splits = true;
    } else if (strcmp(key, "local-mem-bw") == 0) {
        if (get_number(c, v, key, &d) != 0)
            return -1;
        if (d < 0)
            return fail(c, "key 'local-mem-bw': must not be negative");
        cfg->local_mem_bw_Bps = d * 1e9;
    } else if (strcmp(key, "peak-perf") == 0) {
        if (get_number(c, v, key, &d) != 0)
            return -1;
        if (d < 0)
            return fail(c, "key 'peak-perf': must not be negative");
        cfg->peak_perf_flops = d * 1e12;
    } else if (strcmp(key, "roofline-enabled") == 0) {
        return get_bool(c, v, key, &cfg->roofline_enabled);
    } else if (strcmp(key, "model-shared-bus") == 0) {
        return get_bool(c, v, key, &cfg->model_shared_bus);
    } else if (strcmp(key, "trace-enabled") == 0) {
        return get_bool(c, v, key, &cfg->trace_enabled);
    } else if (strcmp(key, "replay-only") == 0) {
        return get_bool(c, v, key, &cfg->replay_only);
    } else if (strcmp(key, "track-local-mem") == 0) {
        return get_bool(c, v, key, &cfg->track_local_mem);
    } else if (strcmp(key, "L") == 0) {
        return get_number(c, v, key, &cfg->L);
    } else if (strcmp(key, "o") == 0) {
        return get_number(c, v, key, &cfg->o);
    } else if (strcmp(key, "g") == 0) {
        return get_number(c, v, key, &cfg->g);
    } else if (strcmp(key, "G") == 0) {
        return get_number(c, v, key, &cfg->G);
    } else if (strcmp(key, "local-reduction-delay") == 0) {
        return get_uint(c, v, key, &cfg->local_reduction_delay);
    } else if (strcmp(key, "local-mem-trace-filename") == 0) {
        if (get_string(c, v, key, &s) != 0)
            return -1;
        free(cfg->local_mem_trace_filename);
        cfg->local_mem_trace_filename = strdup(s);
    } else if (strcmp(key, "per-node-custom-implementation") == 0) {
        if (get_string(c, v, key, &s) != 0)
            return -1;
        cfg->per_node_custom_path = strdup(s);
    } else if (impl_key(key, &k, &custom)) {
        return custom ? parse_custom(c, v, key, cfg, k) : parse_impl_list(c, v, key, cfg, k);
    } else if (strcmp(key, "boost-mode") == 0) {
        /* accepted and ignored, as by the reference */
    } else if (warn) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: unknown key '%s' ignored", c->path, key);
        warn(warn_ctx, msg);
    }
    return 0;
}

int sys_config_load(const char *path, double injection_scale, sys_config *cfg, char *err,
                    size_t err_len, void (*warn)(void *ctx, const char *msg), void *warn_ctx)
{
    ctx c = {path, err, err_len};
    memset(cfg, 0, sizeof *cfg);
    cfg->path = strdup(path);
    cfg->endpoint_delay = 10;
    cfg->active_chunks_per_dimension = 1;
    cfg->local_reduction_delay = 1;
    cfg->local_mem_trace_filename = strdup("local_mem_trace");

    json_object *root = json_object_from_file(path);
    if (!root) {
        FILE *fp = fopen(path, "rb");
        if (!fp)
            return fail(&c, "Unable to open file: %s", strerror(errno));
        fclose(fp);
        return fail(&c, "not valid JSON: %s", json_util_get_last_err() ? json_util_get_last_err() : "parse error");
    }
    if (!json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        return fail(&c, "expected a JSON object at the top level");
    }
    bool seen_policy = false, seen_opt = false, seen_splits = false;
    int rc = 0;
    json_object_object_foreach(root, key, val) {
        if (parse_key(&c, key, val, cfg, injection_scale, &seen_policy, &seen_opt, &seen_splits, warn, warn_ctx) != 0) {
            rc = -1;
            break;
        }
    }
    json_object_put(root);
    if (rc != 0)
        return -1;
    cfg->has_scheduling_policy = seen_policy;
    cfg->has_collective_optimization = seen_opt;
    if (!seen_splits)
        return fail(&c, "key 'preferred-dataset-splits' is missing (required, greater than 0)");
    if (cfg->per_node_custom_path && load_per_node_custom(&c, cfg) != 0)
        return -1;
    return 0;
}

void sys_config_free(sys_config *cfg)
{
    free(cfg->path);
    free(cfg->local_mem_trace_filename);
    for (int k = 0; k < COLL_KINDS; k++) {
        free(cfg->impl[k]);
        free(cfg->custom_impl[k]);
    }
    for (size_t i = 0; i < cfg->n_per_node_custom; i++)
        free(cfg->per_node_custom[i].prefix);
    free(cfg->per_node_custom);
    free(cfg->per_node_custom_path);
    memset(cfg, 0, sizeof *cfg);
}
