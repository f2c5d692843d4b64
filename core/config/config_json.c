/*
 * config_json.c - see config_json.h.
 */
#include "config/config_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/json_doc.h"
#include "util/path_msg.h"

json_object *config_json_load(const char *path, char *err, size_t err_len)
{
    json_object *root = NULL;
    json_doc_load(path, path, CONFIG_JSON_MAX_BYTES, "64 MiB, too large for a configuration file", JSON_DOC_OBJECT,
                  &root, err, err_len);
    return root;
}

/* ---- typed values --------------------------------------------------------- */

const char *config_json_format_double(double d, char *buf, size_t len)
{
    char raw[40], out[40];
    snprintf(raw, sizeof raw, "%.15g", d);
    /* C's exponent has a sign and two digits: "1e+09" -> "1e9", "1e-06" -> "1e-6". */
    size_t o = 0;
    for (const char *p = raw; *p; p++) {
        out[o++] = *p;
        if (*p != 'e')
            continue;
        if (*++p == '-')
            out[o++] = '-';
        while (p[1] == '0' && p[2])
            p++;
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

const char *config_json_value_text(json_object *v, char *buf, size_t len)
{
    /* json-c writes every control character of a string as an escape, so
     * the text is already one line; it is only cut to fit. */
    const char *text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!text)
        text = "?";
    if ((size_t)snprintf(buf, len, "%s", text) >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    return buf;
}

int config_json_number(const char *path, const char *key, json_object *v, double min, double max,
                       double *out, char *err, size_t err_len)
{
    char shown[128];
    double d;
    if (json_object_is_type(v, json_type_boolean))
        d = json_object_get_boolean(v) ? 1.0 : 0.0;
    else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
        d = json_object_get_double(v);
    else {
        snprintf(err, err_len, "%s: key '%s': expected a number, got %s", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (!isfinite(d)) {
        snprintf(err, err_len, "%s: key '%s': %s is not a finite number", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (d < min || d > max) {
        char lo[32], hi[32];
        snprintf(err, err_len, "%s: key '%s': %s is out of range (%s to %s)", path, key,
                 config_json_value_text(v, shown, sizeof shown), config_json_format_double(min, lo, sizeof lo),
                 config_json_format_double(max, hi, sizeof hi));
        return -1;
    }
    *out = d;
    return 0;
}

int config_json_uint(const char *path, const char *key, json_object *v, uint64_t max, uint64_t *out,
                     char *err, size_t err_len)
{
    char shown[128];
    uint64_t u = 0;
    bool integer = true;
    if (json_object_is_type(v, json_type_boolean)) {
        u = json_object_get_boolean(v) ? 1 : 0;
    } else if (json_object_is_type(v, json_type_int)) {
        integer = json_object_get_int64(v) >= 0;
        u = integer ? json_object_get_uint64(v) : 0;
    } else if (json_object_is_type(v, json_type_double)) {
        /* 2.0 is an integer; above 2^64 the conversion would be undefined. */
        double d = json_object_get_double(v);
        integer = d >= 0 && d == floor(d);
        if (integer && d >= 18446744073709551616.0)
            u = UINT64_MAX;
        else if (integer)
            u = (uint64_t)d;
    } else {
        integer = false;
    }
    if (!integer) {
        snprintf(err, err_len, "%s: key '%s': expected a non-negative integer, got %s", path, key,
                 config_json_value_text(v, shown, sizeof shown));
        return -1;
    }
    if (u > max) {
        snprintf(err, err_len, "%s: key '%s': %s is out of range (0 to %llu)", path, key,
                 config_json_value_text(v, shown, sizeof shown), (unsigned long long)max);
        return -1;
    }
    *out = u;
    return 0;
}

int config_json_fail(const char *path, char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(err, err_len, path, 0, 600, fmt, ap);
    va_end(ap);
    return rc;
}
