/* --device PATH: a device file (see the header). */
#include "transformer/tf_device_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "common/fail_msg.h"
#include "util/json_doc.h"
#include "util/msg_escape.h"

/* A device file is a dozen keys; anything bigger is a wrong file. */
#define MAX_FILE_BYTES (64u * 1024)
#define MAX_DIM (1u << 24)

/* The file itself: PATH, or PATH/device.json when PATH is a folder. */
static void file_of(const char *path, char *out, size_t len)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(out, len, "%s/device.json", path);
    else
        snprintf(out, len, "%s", path);
}

/* The member `key` of `obj` (shown as `where`) as a number in (lo, hi]
 * (or [lo, hi] when `closed`). */
static int number(const char *path, json_object *obj, const char *key, const char *where, double lo, double hi,
                  int closed, double *out, char *msg, size_t len)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v))
        return fail_msg(msg, len, "%s: missing \"%s\"", path, where);
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return fail_msg(msg, len, "%s: \"%s\": expected a number", path, where);
    double d = json_object_get_double(v);
    if (!isfinite(d) || d > hi || (closed ? d < lo : d <= lo))
        return fail_msg(msg, len, "%s: \"%s\": expected a number %s %g to %g, got %g", path, where,
                    closed ? "from" : "above", lo, hi, d);
    *out = d;
    return 0;
}

static int whole(const char *path, json_object *obj, const char *key, const char *where, uint64_t lo, uint64_t hi,
                 uint64_t *out, char *msg, size_t len)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v))
        return fail_msg(msg, len, "%s: missing \"%s\"", path, where);
    int64_t i = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
    if (i < (int64_t)lo || (uint64_t)i > hi)
        return fail_msg(msg, len, "%s: \"%s\": expected a whole number from %llu to %llu", path, where,
                    (unsigned long long)lo, (unsigned long long)hi);
    *out = (uint64_t)i;
    return 0;
}

static int object(const char *path, json_object *obj, const char *key, json_object **out, char *msg, size_t len)
{
    if (!json_object_object_get_ex(obj, key, out))
        return fail_msg(msg, len, "%s: missing \"%s\"", path, key);
    if (!json_object_is_type(*out, json_type_object))
        return fail_msg(msg, len, "%s: \"%s\": expected an object", path, key);
    return 0;
}

static int name_of(const char *path, json_object *root, struct tf_device *d, char *msg, size_t len)
{
    json_object *v;
    if (!json_object_object_get_ex(root, "name", &v))
        return fail_msg(msg, len, "%s: missing \"name\"", path);
    const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
    if (!s || !*s || strlen(s) >= TF_DEVICE_NAME_MAX)
        return fail_msg(msg, len, "%s: \"name\": expected a string of 1 to %d characters", path, TF_DEVICE_NAME_MAX - 1);
    snprintf(d->name, sizeof d->name, "%s", s);
    return 0;
}

static int tile_of(const char *path, json_object *root, struct tf_device *d, char *msg, size_t len)
{
    json_object *v;
    if (!json_object_object_get_ex(root, "gemm-tile", &v))
        return fail_msg(msg, len, "%s: missing \"gemm-tile\"", path);
    int64_t t[2] = {-1, -1};
    if (json_object_is_type(v, json_type_array) && json_object_array_length(v) == 2)
        for (size_t i = 0; i < 2; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            t[i] = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : -1;
        }
    if (t[0] < 8 || t[0] > 1024 || t[1] < 8 || t[1] > 1024)
        return fail_msg(msg, len, "%s: \"gemm-tile\": expected [rows, columns], each a whole number from 8 to 1024", path);
    d->tile_m = (uint32_t)t[0];
    d->tile_n = (uint32_t)t[1];
    return 0;
}

/* The keys of the root, in the order the header shows them. */
static int fill(const char *path, json_object *root, struct tf_device *d, char *msg, size_t len)
{
    double peak, fp8 = 0, hbm, kfixed, tflops = 0, sustained = 1, fwd, bwd, mem, gemm = 0;
    uint64_t sms, m = 1, n = 1, k = 1;
    json_object *best = NULL, *attn;
    /* a fitted device (vimana-et calibrate-compute) gives its GEMM
     * efficiency itself; a described one, its best measured GEMM */
    int fitted = json_object_object_get_ex(root, "gemm-efficiency", NULL);
    if (name_of(path, root, d, msg, len) || number(path, root, "peak-tflops", "peak-tflops", 0, 1e6, 0, &peak, msg, len) ||
        (json_object_object_get_ex(root, "fp8-peak-tflops", NULL) &&
         number(path, root, "fp8-peak-tflops", "fp8-peak-tflops", 0, 1e7, 0, &fp8, msg, len)) ||
        number(path, root, "hbm-tbps", "hbm-tbps", 0, 1e3, 0, &hbm, msg, len) ||
        whole(path, root, "sms", "sms", 1, 100000, &sms, msg, len) || tile_of(path, root, d, msg, len) ||
        number(path, root, "gemm-k-fixed", "gemm-k-fixed", 0, 1e5, 1, &kfixed, msg, len) ||
        (fitted && number(path, root, "gemm-efficiency", "gemm-efficiency", 0, 1, 0, &gemm, msg, len)) ||
        (!fitted && (object(path, root, "best-gemm", &best, msg, len) ||
                     number(path, best, "tflops", "best-gemm.tflops", 0, peak, 0, &tflops, msg, len) ||
                     whole(path, best, "m", "best-gemm.m", 1, MAX_DIM, &m, msg, len) ||
                     whole(path, best, "n", "best-gemm.n", 1, MAX_DIM, &n, msg, len) ||
                     whole(path, best, "k", "best-gemm.k", 1, MAX_DIM, &k, msg, len) ||
                     number(path, root, "sustained-ratio", "sustained-ratio", 0, 1, 0, &sustained, msg, len))) ||
        object(path, root, "attention-efficiency", &attn, msg, len) ||
        number(path, attn, "forward", "attention-efficiency.forward", 0, 1, 0, &fwd, msg, len) ||
        number(path, attn, "backward", "attention-efficiency.backward", 0, 1, 0, &bwd, msg, len) ||
        number(path, root, "memory-efficiency", "memory-efficiency", 0, 1, 0, &mem, msg, len))
        return -1;
    d->peak_flops = peak * 1e12;
    d->peak_fp8 = fp8 * 1e12;
    d->mem_bw = hbm * 1e12;
    d->sms = (uint32_t)sms;
    d->k_fixed = kfixed;
    d->attn_fwd_efficiency = fwd;
    d->attn_bwd_efficiency = bwd;
    d->mem_efficiency = mem;
    if (fitted) {
        d->gemm_efficiency = gemm;
        return 0;
    }
    if (tf_device_calibrate(d, tflops * 1e12, m, n, k, sustained) > 1)
        return fail_msg(msg, len, "%s: \"best-gemm\": %g TFLOP/s at %llu x %llu x %llu is more than the %g peak allows "
                    "with that shape's tiles, waves and K", path, tflops, (unsigned long long)m,
                    (unsigned long long)n, (unsigned long long)k, peak);
    return 0;
}

int tf_device_load(const char *path, struct tf_device *out, char *msg, size_t len)
{
    char file[4200], shown[512];
    json_object *root;
    int rc;
    memset(out, 0, sizeof *out);
    file_of(path, file, sizeof file);
    msg_escape(file, shown, sizeof shown);
    if (json_doc_load(file, shown, MAX_FILE_BYTES, "64 KiB, not a device file", 0, &root, msg, len) != 0)
        return -1;
    if (!json_object_is_type(root, json_type_object))
        rc = fail_msg(msg, len, "%s: expected a JSON object describing a device (docs/transformer.md, \"Device files\")",
                  shown);
    else
        rc = fill(shown, root, out, msg, len);
    json_object_put(root);
    return rc;
}
