/* Per-NPU compute-time multipliers (see the header). */
#include "config/npu_scale.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_json.h"
#include "util/msg_escape.h"

/* A whole number of decimal digits only, below 2^32. */
static bool npu_number(const char *text, size_t len, uint32_t *out)
{
    if (len == 0 || len > 10)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    if (v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "N" or "A-B" with A <= B. */
static bool npu_range(const char *key, uint32_t *first, uint32_t *last)
{
    const char *dash = strchr(key, '-');
    if (!dash)
        return npu_number(key, strlen(key), first) && (*last = *first, true);
    return npu_number(key, (size_t)(dash - key), first) && npu_number(dash + 1, strlen(dash + 1), last) &&
           *first <= *last;
}

static int read_entry(const char *path, const char *key, json_object *val, uint32_t n_npus, double *scale,
                      const char **named_by, char *err, size_t err_len)
{
    char shown[80];
    msg_escape(key, shown, sizeof shown);
    uint32_t first, last;
    if (!npu_range(key, &first, &last))
        return config_json_fail(path, err, err_len, "key '%s': expected an NPU (\"3\") or a range of NPUs (\"8-15\")",
                                shown);
    if (last >= n_npus)
        return config_json_fail(path, err, err_len, "key '%s': NPU %u is not in this %u-NPU system", shown, last,
                                n_npus);
    double v;
    if (!json_object_is_type(val, json_type_double) && !json_object_is_type(val, json_type_int)) {
        char text[80];
        return config_json_fail(path, err, err_len, "key '%s': %s is not a number in (0, 1e6]", shown,
                                config_json_value_text(val, text, sizeof text));
    }
    v = json_object_get_double(val);
    if (!(v > 0 && v <= NPU_SCALE_MAX)) {
        char text[80];
        return config_json_fail(path, err, err_len, "key '%s': %s is not a number in (0, 1e6]", shown,
                                config_json_value_text(val, text, sizeof text));
    }
    for (uint64_t x = first; x <= last; x++) {
        if (named_by[x]) {
            char other[80];
            return config_json_fail(path, err, err_len, "key '%s': NPU %llu is also in key '%s'", shown,
                                    (unsigned long long)x, msg_escape(named_by[x], other, sizeof other));
        }
        named_by[x] = key;
        scale[x] = v;
    }
    return 0;
}

int npu_scale_load(const char *path, uint32_t n_npus, double **out, char *err, size_t err_len)
{
    *out = NULL;
    json_object *root = config_json_load(path, err, err_len);
    if (!root)
        return -1;
    int rc = 0;
    double *scale = malloc((n_npus ? n_npus : 1) * sizeof *scale);
    const char **named_by = calloc(n_npus ? n_npus : 1, sizeof *named_by);
    if (!scale || !named_by)
        rc = config_json_fail(path, err, err_len, "out of memory");
    for (uint32_t x = 0; rc == 0 && x < n_npus; x++)
        scale[x] = 1.0;
    if (rc == 0) {
        json_object_object_foreach(root, key, val) {
            if ((rc = read_entry(path, key, val, n_npus, scale, named_by, err, err_len)) != 0)
                break;
        }
    }
    free(named_by);
    json_object_put(root);
    if (rc != 0) {
        free(scale);
        return -1;
    }
    *out = scale;
    return 0;
}
