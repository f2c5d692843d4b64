#include "config/logical_dims.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_doc.h"
#include "util/msg_escape.h"

#define MAX_DIM (1ull << 31)
#define MAX_FILE (1u << 20)

/* One dimension's size: an integer or a string of digits, 1 to 2^31. */
static int dim_size(json_object *v, uint64_t *out)
{
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        *out = (uint64_t)i;
        return i >= 1 && (uint64_t)i <= MAX_DIM ? 0 : -1;
    }
    if (!json_object_is_type(v, json_type_string))
        return -1;
    const char *s = json_object_get_string(v);
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long u = strtoull(s, &end, 10);
    *out = u;
    return *end == '\0' && errno == 0 && u >= 1 && u <= MAX_DIM ? 0 : -1;
}

static int check_dims(const char *path, json_object *dims, uint32_t n_npus, char *err, size_t err_len)
{
    size_t n = json_object_array_length(dims);
    if (n == 0) {
        snprintf(err, err_len, "%s: logical-dims: expected a list of dimension sizes, got an empty one", path);
        return -1;
    }
    uint64_t product = 1;
    char shown[256] = "";
    for (size_t i = 0; i < n; i++) {
        uint64_t size;
        if (dim_size(json_object_array_get_idx(dims, i), &size) != 0) {
            char esc[128];
            msg_escape(json_object_to_json_string(json_object_array_get_idx(dims, i)), esc, sizeof esc);
            snprintf(err, err_len, "%s: logical-dims[%zu]: expected a size from 1 to 2147483648, got %s", path, i,
                     esc);
            return -1;
        }
        product = product > UINT32_MAX ? product : product * size; /* stays above any NPU count once past it */
        size_t used = strlen(shown);
        snprintf(shown + used, sizeof shown - used, "%s%llu", i ? " x " : "", (unsigned long long)size);
    }
    if (product != n_npus) {
        char npus[32] = "more than 2^32";
        if (product <= UINT32_MAX)
            snprintf(npus, sizeof npus, "%llu", (unsigned long long)product);
        snprintf(err, err_len, "%s: logical-dims: %s is %s NPUs, the run has %u", path, shown, npus, n_npus);
        return -1;
    }
    return 0;
}

int logical_dims_check(const char *path, uint32_t n_npus, char *err, size_t err_len)
{
    json_object *root;
    if (json_doc_load(path, path, MAX_FILE, "1 MiB, not a logical topology file", 0, &root, err, err_len) != 0)
        return -1;
    int rc = -1;
    json_object *dims = NULL;
    if (!json_object_is_type(root, json_type_object))
        snprintf(err, err_len, "%s: expected an object such as {\"logical-dims\": [\"8\", \"8\"]}", path);
    else if (json_object_object_length(root) != 1 || !json_object_object_get_ex(root, "logical-dims", &dims)) {
        json_object_object_foreach(root, key, val) {
            (void)val;
            if (strcmp(key, "logical-dims") != 0) {
                char esc[128];
                msg_escape(key, esc, sizeof esc);
                snprintf(err, err_len, "%s: unknown key '%s' (the file holds \"logical-dims\" only)", path, esc);
                break;
            }
        }
        if (!dims && json_object_object_length(root) == 0)
            snprintf(err, err_len, "%s: missing \"logical-dims\"", path);
    } else if (!json_object_is_type(dims, json_type_array))
        snprintf(err, err_len, "%s: logical-dims: expected a list of dimension sizes", path);
    else
        rc = check_dims(path, dims, n_npus, err, err_len);
    json_object_put(root);
    return rc;
}
