/* System JSON reader (json-c, after config_json's strict checks). Keys,
 * defaults and checks follow the reference's system configuration; value
 * ranges are documented in docs/simulator.md. */
#include "config/system_config.h"

#include <float.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"
#include "util/path_msg.h"

typedef struct {
    const char *path;
    const sys_algo_names *algos;
    char *err;
    size_t err_len;
} ctx;

static int fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(c->err, c->err_len, c->path, 0, 600, fmt, ap);
    va_end(ap);
    return rc;
}

/* nccl_params.c names the collectives of the "nccl" object in this order */
_Static_assert(NCCL_COLLS == COLL_KINDS, "nccl_coll_key follows enum coll_kind");

static const char *const coll_names[COLL_KINDS] = {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"};

const char *coll_kind_name(enum coll_kind k)
{
    return k < COLL_KINDS ? coll_names[k] : "?";
}

/* ---- typed JSON reads ---------------------------------------------------- */

static int get_number(ctx *c, json_object *v, const char *key, double min, double max, double *out)
{
    return config_json_number(c->path, key, v, min, max, out, c->err, c->err_len);
}

static int get_uint(ctx *c, json_object *v, const char *key, uint64_t max, uint64_t *out)
{
    return config_json_uint(c->path, key, v, max, out, c->err, c->err_len);
}

/* The reference tests value != 0, so any finite number is a boolean. */
static int get_bool(ctx *c, json_object *v, const char *key, bool *out)
{
    double d = 0;
    if (get_number(c, v, key, -DBL_MAX, DBL_MAX, &d) != 0)
        return -1;
    *out = d != 0;
    return 0;
}

static int get_string(ctx *c, json_object *v, const char *key, const char **out)
{
    char shown[128];
    if (!json_object_is_type(v, json_type_string))
        return fail(c, "key '%s': expected a string, got %s", key, config_json_value_text(v, shown, sizeof shown));
    *out = json_object_get_string(v);
    return 0;
}

/* A file name or ET prefix. It is quoted later in messages of other
 * modules (a custom ET that cannot be opened, ...), so a control character
 * in it is refused here, once, rather than escaped everywhere. */
static int get_path(ctx *c, json_object *v, const char *key, const char **out)
{
    char shown[128];
    if (get_string(c, v, key, out) != 0)
        return -1;
    if (!**out)
        return fail(c, "key '%s': the path is empty", key);
    for (const unsigned char *p = (const unsigned char *)*out; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return fail(c, "key '%s': the path '%s' holds a control character", key,
                        msg_escape(*out, shown, sizeof shown));
    return 0;
}

/* A rate: 0 means "not given" (an error only where it is used); anything
 * else must lie in [SYS_MIN_RATE, SYS_MAX_RATE]. */
static int get_rate(ctx *c, json_object *v, const char *key, const char *unit, double *out)
{
    char shown[128], lo[32], hi[32];
    if (get_number(c, v, key, -DBL_MAX, DBL_MAX, out) != 0)
        return -1;
    if (*out == 0 || (*out >= SYS_MIN_RATE && *out <= SYS_MAX_RATE))
        return 0;
    return fail(c, "key '%s': %s is out of range (0, or %s to %s %s)", key, config_json_value_text(v, shown, sizeof shown),
                config_json_format_double(SYS_MIN_RATE, lo, sizeof lo),
                config_json_format_double(SYS_MAX_RATE, hi, sizeof hi), unit);
}

/* ---- algorithms ---------------------------------------------------------- */

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
        char shown[128], expected[400];
        if (c->algos->resolve(c->algos->ctx, name, &cfg->impl[k][i]) != 0) {
            c->algos->expected(c->algos->ctx, expected, sizeof expected);
            return fail(c, "key '%s'[%zu]: unknown collective algorithm '%s' (expected %s)", key, i,
                        msg_escape(name, shown, sizeof shown), expected);
        }
    }
    return 0;
}

static int parse_custom(ctx *c, json_object *v, const char *key, sys_config *cfg, enum coll_kind k)
{
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != 1)
        return fail(c, "key '%s': There should be 1 Chakra ET only (a list with exactly one ET prefix)", key);
    const char *prefix = NULL;
    if (get_path(c, json_object_array_get_idx(v, 0), key, &prefix) != 0)
        return -1;
    cfg->custom_impl[k] = strdup(prefix);
    return cfg->custom_impl[k] ? 0 : fail(c, "out of memory");
}

/* ---- per-node custom implementations (YAML {node id: prefix}) ----------- */

static int load_per_node_custom(ctx *c, sys_config *cfg)
{
    char err[700];
    if (custom_map_load(cfg->per_node_custom_path, &cfg->per_node_custom, &cfg->n_per_node_custom, err,
                        sizeof err) != 0)
        return fail(c, "key 'per-node-custom-implementation': %s", err);
    return 0;
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

/* A string that names one of a few values: *index is its position among
 * `words` (in the order of the enum it picks from); `expected` lists them
 * for the message. */
static int get_word(ctx *c, json_object *v, const char *key, const char *const *words, size_t n_words,
                    const char *expected, int *index)
{
    const char *s = NULL;
    char shown[128];
    if (get_string(c, v, key, &s) != 0)
        return -1;
    for (size_t i = 0; i < n_words; i++)
        if (strcmp(s, words[i]) == 0) {
            *index = (int)i;
            return 0;
        }
    return fail(c, "key '%s': unknown value '%s' (expected %s)", key, msg_escape(s, shown, sizeof shown), expected);
}

static int parse_policy(ctx *c, json_object *v, const char *key, sys_config *cfg)
{
    static const char *const words[] = {[SCHED_LIFO] = "LIFO", [SCHED_FIFO] = "FIFO", [SCHED_EXPLICIT] = "EXPLICIT"};
    int k = 0;
    if (get_word(c, v, key, words, sizeof words / sizeof words[0], "LIFO, FIFO or EXPLICIT", &k) != 0)
        return -1;
    cfg->scheduling_policy = (enum sched_policy)k;
    cfg->has_scheduling_policy = true;
    return 0;
}

static int parse_optimization(ctx *c, json_object *v, const char *key, sys_config *cfg)
{
    static const char *const words[] = {[COLL_OPT_BASELINE] = "baseline", [COLL_OPT_LOCAL_BW_AWARE] = "localBWAware"};
    int k = 0;
    if (get_word(c, v, key, words, sizeof words / sizeof words[0], "baseline or localBWAware", &k) != 0)
        return -1;
    cfg->collective_optimization = (enum coll_optimization)k;
    cfg->has_collective_optimization = true;
    return 0;
}

/* endpoint-delay x --injection-scale, truncated as the reference does; the
 * product must stay an exact integer tick count. */
static int parse_endpoint_delay(ctx *c, json_object *v, const char *key, double injection_scale, sys_config *cfg)
{
    uint64_t u;
    if (get_uint(c, v, key, CONFIG_JSON_MAX_INT, &u) != 0)
        return -1;
    double scaled = (double)u * injection_scale;
    char scale[32];
    if (!(scaled <= (double)CONFIG_JSON_MAX_INT))
        return fail(c, "key 'endpoint-delay': %llu x --injection-scale %s is out of range (0 to %llu)",
                    (unsigned long long)u, config_json_format_double(injection_scale, scale, sizeof scale),
                    (unsigned long long)CONFIG_JSON_MAX_INT);
    cfg->endpoint_delay = (uint64_t)scaled;
    return 0;
}

static int parse_counts(ctx *c, const char *key, json_object *v, sys_config *cfg, bool *handled)
{
    uint64_t u;
    *handled = true;
    if (strcmp(key, "active-chunks-per-dimension") == 0) {
        if (get_uint(c, v, key, UINT32_MAX, &u) != 0)
            return -1;
        if (u == 0)
            return fail(c, "key 'active-chunks-per-dimension': must be at least 1");
        cfg->active_chunks_per_dimension = (uint32_t)u;
    } else if (strcmp(key, "preferred-dataset-splits") == 0) {
        if (get_uint(c, v, key, UINT64_MAX, &u) != 0)
            return -1;
        char shown[128];
        if (u == 0 || u > SYS_MAX_DATASET_SPLITS)
            return fail(c, "key 'preferred-dataset-splits': %s is out of range (1 to %d chunks per collective)",
                        config_json_value_text(v, shown, sizeof shown), SYS_MAX_DATASET_SPLITS);
        cfg->preferred_dataset_splits = u;
    } else if (strcmp(key, "local-reduction-delay") == 0) {
        return get_uint(c, v, key, CONFIG_JSON_MAX_INT, &cfg->local_reduction_delay);
    } else {
        *handled = false;
    }
    return 0;
}

static int parse_reals(ctx *c, const char *key, json_object *v, sys_config *cfg, bool *handled)
{
    static const char *const loggp[] = {"L", "o", "g", "G"};
    double *loggp_out[] = {&cfg->L, &cfg->o, &cfg->g, &cfg->G};
    double d = 0;
    *handled = true;
    if (strcmp(key, "local-mem-bw") == 0) {
        if (get_rate(c, v, key, "GB/s", &d) != 0)
            return -1;
        cfg->local_mem_bw_Bps = d * 1e9;
        return 0;
    }
    if (strcmp(key, "peak-perf") == 0) {
        if (get_rate(c, v, key, "TFLOP/s", &d) != 0)
            return -1;
        cfg->peak_perf_flops = d * 1e12;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        if (strcmp(key, loggp[i]) == 0)
            return get_number(c, v, key, 0, SYS_MAX_LOGGP, loggp_out[i]);
    *handled = false;
    return 0;
}

static int parse_flags(ctx *c, const char *key, json_object *v, sys_config *cfg, bool *handled)
{
    static const char *const names[] = {"roofline-enabled", "model-shared-bus", "trace-enabled", "replay-only",
                                        "track-local-mem"};
    bool *outs[] = {&cfg->roofline_enabled, &cfg->model_shared_bus, &cfg->trace_enabled, &cfg->replay_only,
                    &cfg->track_local_mem};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(key, names[i]) == 0) {
            *handled = true;
            return get_bool(c, v, key, outs[i]);
        }
    }
    *handled = false;
    return 0;
}

static int parse_paths(ctx *c, const char *key, json_object *v, sys_config *cfg, bool *handled)
{
    const char *s = NULL;
    char **out = strcmp(key, "local-mem-trace-filename") == 0         ? &cfg->local_mem_trace_filename
                 : strcmp(key, "per-node-custom-implementation") == 0 ? &cfg->per_node_custom_path
                                                                      : NULL;
    *handled = out != NULL;
    if (!out)
        return 0;
    if (get_path(c, v, key, &s) != 0)
        return -1;
    free(*out);
    *out = strdup(s);
    return *out ? 0 : fail(c, "out of memory");
}

static int parse_key(ctx *c, const char *key, json_object *v, sys_config *cfg, double injection_scale,
                     void (*warn)(void *, const char *), void *warn_ctx)
{
    enum coll_kind k;
    bool custom, handled = false;
    if (strcmp(key, "scheduling-policy") == 0)
        return parse_policy(c, v, key, cfg);
    if (strcmp(key, "collective-optimization") == 0)
        return parse_optimization(c, v, key, cfg);
    if (strcmp(key, "endpoint-delay") == 0)
        return parse_endpoint_delay(c, v, key, injection_scale, cfg);
    if (impl_key(key, &k, &custom))
        return custom ? parse_custom(c, v, key, cfg, k) : parse_impl_list(c, v, key, cfg, k);
    /* Each group of keys says whether the key was one of its own. */
    int (*const groups[])(ctx *, const char *, json_object *, sys_config *, bool *) = {parse_counts, parse_reals,
                                                                                      parse_flags, parse_paths};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        int rc = groups[i](c, key, v, cfg, &handled);
        if (handled)
            return rc;
    }
    if (strcmp(key, "nccl") == 0)
        return nccl_params_parse(c->path, v, cfg->nccl, c->err, c->err_len);
    if (strcmp(key, "boost-mode") == 0)
        return 0; /* accepted and ignored, as by the reference */
    if (warn) {
        char msg[400], shown[128];
        snprintf(msg, sizeof msg, "%s: unknown key '%s' ignored", c->path, msg_escape(key, shown, sizeof shown));
        warn(warn_ctx, msg);
    }
    return 0;
}

int sys_config_load(const char *path, double injection_scale, const sys_algo_names *algos, sys_config *cfg,
                    char *err, size_t err_len, void (*warn)(void *ctx, const char *msg), void *warn_ctx)
{
    ctx c = {path, algos, err, err_len};
    memset(cfg, 0, sizeof *cfg);
    cfg->path = strdup(path);
    cfg->endpoint_delay = 10;
    cfg->active_chunks_per_dimension = 1;
    cfg->local_reduction_delay = 1;
    cfg->local_mem_trace_filename = strdup("local_mem_trace");
    for (int k = 0; k < COLL_KINDS; k++)
        nccl_params_default(&cfg->nccl[k]);

    json_object *root = config_json_load(path, err, err_len);
    if (!root)
        return -1;
    int rc = 0;
    json_object_object_foreach(root, key, val) {
        if (parse_key(&c, key, val, cfg, injection_scale, warn, warn_ctx) != 0) {
            rc = -1;
            break;
        }
    }
    json_object_put(root);
    if (rc != 0)
        return -1;
    if (cfg->preferred_dataset_splits == 0)
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
    custom_map_free(cfg->per_node_custom, cfg->n_per_node_custom);
    free(cfg->per_node_custom_path);
    memset(cfg, 0, sizeof *cfg);
}
