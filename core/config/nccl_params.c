/* The "nccl" object of the system JSON (see the header; docs/nccl.md). */
#include "config/nccl_params.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"

#define P(field) offsetof(nccl_params, field)
#define MAX_NS 1e9      /* one second per call or step: far above any NCCL latency */
#define MAX_BYTES 9007199254740991.0

/* Defaults: NCCL's own constants where NCCL has one (payload shares, the
 * 8-byte-per-16 LL line, the 120-of-128 LL128 line), otherwise values of
 * the order NCCL's tuning tables give for NVLink (docs/nccl.md). */
static const nccl_param_info table[] = {
    {"launch-overhead-ns", "ns", "per call: kernel launch and setup", 0, MAX_NS, false, 6000, P(launch_ns)},
    {"ll-hop-latency-ns", "ns", "per ring or tree step, protocol LL", 0, MAX_NS, false, 600, P(hop_ns[NCCL_PROTO_LL])},
    {"ll128-hop-latency-ns", "ns", "per ring or tree step, protocol LL128", 0, MAX_NS, false, 1250,
     P(hop_ns[NCCL_PROTO_LL128])},
    {"simple-hop-latency-ns", "ns", "per ring or tree step, protocol Simple", 0, MAX_NS, false, 3400,
     P(hop_ns[NCCL_PROTO_SIMPLE])},
    {"nvls-hop-latency-ns", "ns", "per step, NVLS (Simple)", 0, MAX_NS, false, 10000, P(nvls_hop_ns)},
    {"nic-hop-latency-ns", "ns",
     "extra per ring or tree step on a NIC dimension (the proxy thread's RDMA post and completion)", 0, MAX_NS,
     false, 0, P(nic_hop_ns)},
    {"hop-overlap", "fraction",
     "share of a step's wait that runs while the step's message is still in the network (NCCL's chunk pipeline)", 0,
     1, false, 0, P(hop_overlap)},
    {"ll-payload", "fraction", "data share of an LL line (8 of 16 bytes)", 0.01, 1, false, 0.5,
     P(payload[NCCL_PROTO_LL])},
    {"ll128-payload", "fraction", "data share of an LL128 line (120 of 128 bytes)", 0.01, 1, false, 0.9375,
     P(payload[NCCL_PROTO_LL128])},
    {"simple-payload", "fraction", "data share of a Simple transfer", 0.01, 1, false, 1,
     P(payload[NCCL_PROTO_SIMPLE])},
    {"ll-rate-share", "fraction", "LL's data rate / Simple's on the same channels (threads polling flags)", 0.01,
     1, false, 1, P(ll_rate_share)},
    {"ll128-rate-share", "fraction", "LL128's data rate / Simple's on the same channels", 0.01, 1, false, 1,
     P(ll128_rate_share)},
    {"ll-max-bytes", "bytes", "calls up to this size use LL", 0, MAX_BYTES, true, 65536, P(ll_max_bytes)},
    {"ll128-max-bytes", "bytes", "calls up to this size (above ll-max-bytes) use LL128", 0, MAX_BYTES, true,
     4194304, P(ll128_max_bytes)},
    {"threshold-ranks", "count",
     "ll-max-bytes and ll128-max-bytes hold for calls over this many ranks, over n ranks they scale by n / this "
     "(0: they hold for every rank count)",
     0, 65536, true, 0, P(threshold_ranks)},
    {"nvls-min-bytes", "bytes", "all-reduces from this size on an NVLink dimension use NVLS", 0, MAX_BYTES, true,
     1048576, P(nvls_min_bytes)},
    {"tree-max-bytes", "bytes", "all-reduces below this size (not NVLS) use tree", 0, MAX_BYTES, true, 0,
     P(tree_max_bytes)},
    {"channels", "count", "channels of a call, each 1/channels of the link rate", 1, 64, true, 16,
     P(channels)},
    {"channel-min-bytes", "bytes", "bytes of a step each used channel carries at least", 1, MAX_BYTES, true,
     32768, P(channel_min_bytes)},
    {"nvls-channels", "count", "channels NVLS runs below nvls-wide-min-bytes (0: channels, no step)", 0, 64, true,
     0, P(nvls_channels)},
    {"nvls-wide-min-bytes", "bytes", "NVLS calls from this size run all channels", 0, MAX_BYTES, true, 0,
     P(nvls_wide_min_bytes)},
    {"nvlink-efficiency", "fraction", "achieved / nominal rate on NVLink and NVSwitch dimensions", 0.01, 1, false,
     0.8, P(nvlink_efficiency)},
    {"nvls-efficiency", "fraction", "achieved / nominal rate of NVLS steps (NVSwitch reduction and multicast)",
     0.01, 1, false, 0.5, P(nvls_efficiency)},
    {"nic-efficiency", "fraction", "achieved / nominal rate on the NIC dimensions", 0.01, 1, false, 0.9,
     P(nic_efficiency)},
    {"tree-efficiency", "fraction",
     "achieved rate of tree steps / that of ring steps on the same links (NCCL's tree runs its own channels "
     "and pipeline; above 1 where it sends less than the ring over a slower link the dimension hides)",
     0.01, 2, false, 1, P(tree_efficiency)},
    {"nvlink-dims", "count", "the first this many dimensions are NVLink / NVSwitch", 0, 16, true, 1,
     P(nvlink_dims)},
    {"nvls", "flag", "1: the NVLink dimensions have NVLink SHARP (NVSwitch multicast)", 0, 1, true, 1, P(nvls)},
    {"tuner", "flag",
     "1: each call runs the algorithm and protocol whose time the model estimates lowest on the links' "
     "bandwidths, as NCCL's tuner does (ll-max-bytes, ll128-max-bytes, threshold-ranks, tree-max-bytes and "
     "nvls-min-bytes are then unused); 0: those thresholds choose",
     0, 1, true, 0, P(tuner)},
};
#define N_PARAMS (sizeof table / sizeof table[0])

const nccl_param_info *nccl_param_table(size_t *n)
{
    *n = N_PARAMS;
    return table;
}

double *nccl_param_ref(nccl_params *p, const nccl_param_info *info)
{
    return (double *)(void *)((char *)p + info->offset);
}

double nccl_param_get(const nccl_params *p, const nccl_param_info *info)
{
    return *(const double *)(const void *)((const char *)p + info->offset);
}

const nccl_param_info *nccl_param_find(const char *key)
{
    for (size_t i = 0; i < N_PARAMS; i++)
        if (strcmp(table[i].key, key) == 0)
            return &table[i];
    return NULL;
}

void nccl_params_default(nccl_params *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < N_PARAMS; i++)
        *nccl_param_ref(p, &table[i]) = table[i].def;
}

const char *nccl_coll_key(int k)
{
    static const char *const keys[NCCL_COLLS] = {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"};
    return k >= 0 && k < NCCL_COLLS ? keys[k] : "?";
}

/* The collective whose key `key` is, or -1. */
static int coll_of_key(const char *key)
{
    for (int k = 0; k < NCCL_COLLS; k++)
        if (strcmp(key, nccl_coll_key(k)) == 0)
            return k;
    return -1;
}

/* `prefix`.KEY = v into *p. */
static int parse_one(const char *path, const char *prefix, const char *key, json_object *v, nccl_params *p,
                     char *err, size_t len)
{
    char shown[128], full[192];
    const nccl_param_info *info = nccl_param_find(key);
    snprintf(full, sizeof full, "%s.%s", prefix, msg_escape(key, shown, sizeof shown));
    if (!info) {
        snprintf(err, len, "%s: key '%s': unknown NCCL parameter (docs/nccl.md lists them)", path, full);
        return -1;
    }
    double d;
    if (config_json_number(path, full, v, info->min, info->max, &d, err, len) != 0)
        return -1;
    if (info->integer && d != floor(d)) {
        snprintf(err, len, "%s: key '%s': %s is not a whole number", path, full,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    *nccl_param_ref(p, info) = d;
    return 0;
}

/* The parameter keys of object `v` (named `prefix`) over *p; with
 * `collectives`, the collective keys are skipped (read afterwards). */
static int parse_keys(const char *path, const char *prefix, json_object *v, bool collectives, nccl_params *p,
                      char *err, size_t len)
{
    if (!json_object_is_type(v, json_type_object)) {
        snprintf(err, len, "%s: key '%s': expected an object of NCCL parameters", path, prefix);
        return -1;
    }
    json_object_object_foreach(v, key, val) {
        if (collectives && coll_of_key(key) >= 0)
            continue;
        if (parse_one(path, prefix, key, val, p, err, len) != 0)
            return -1;
    }
    return 0;
}

int nccl_params_parse(const char *path, json_object *v, nccl_params per[NCCL_COLLS], char *err, size_t err_len)
{
    /* the shared keys first, wherever they stand in the object: a
     * collective's own values override them */
    nccl_params shared = per[0];
    if (parse_keys(path, "nccl", v, true, &shared, err, err_len) != 0)
        return -1;
    for (int k = 0; k < NCCL_COLLS; k++)
        per[k] = shared;
    json_object_object_foreach(v, key, val) {
        int k = coll_of_key(key);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "nccl.%s", key);
        if (k >= 0 && parse_keys(path, prefix, val, false, &per[k], err, err_len) != 0)
            return -1;
    }
    if (nccl_params_check(path, "nccl", &shared, err, err_len) != 0)
        return -1;
    for (int k = 0; k < NCCL_COLLS; k++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "nccl.%s", nccl_coll_key(k));
        if (nccl_params_check(path, prefix, &per[k], err, err_len) != 0)
            return -1;
    }
    return 0;
}

int nccl_params_check(const char *path, const char *prefix, const nccl_params *p, char *err, size_t err_len)
{
    if (p->ll_max_bytes > p->ll128_max_bytes) {
        snprintf(err, err_len, "%s: key '%s.ll128-max-bytes': %.0f is below ll-max-bytes (%.0f)", path, prefix,
                 p->ll128_max_bytes, p->ll_max_bytes);
        return -1;
    }
    if (p->nvls_channels > p->channels) {
        snprintf(err, err_len, "%s: key '%s.nvls-channels': %.0f is above channels (%.0f)", path, prefix,
                 p->nvls_channels, p->channels);
        return -1;
    }
    return 0;
}
