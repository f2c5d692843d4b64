/* --durations FILE: user-supplied operator durations (docs/transformer.md). */
#include "transformer/tf_durations.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/fail_msg.h"
#include "util/json_doc.h"
#include "util/msg_escape.h"

/* A durations file is a handful of keys; anything bigger is a wrong file. */
#define MAX_FILE_BYTES (1u << 20)

static int kind_of(const char *key)
{
    for (int k = 0; k < TF_OP_KINDS; k++)
        if (strcmp(key, tf_op_kind_name((enum tf_op_kind)k)) == 0)
            return k;
    return -1;
}

/* One member: a known kind and a whole number of microseconds in range. */
static int load_member(const char *path, const char *key, json_object *v, struct tf_durations *out, char *msg,
                       size_t len)
{
    char shown[96];
    int kind = kind_of(key);
    if (kind < 0)
        return fail_msg(msg, len, "%s: unknown key \"%s\" (expected attn_fwd, attn_bwd, mlp_fwd, mlp_bwd, head_fwd,"
                    " head_bwd, optimizer or attn_core)", path, msg_escape(key, shown, sizeof shown));
    int is_int = json_object_is_type(v, json_type_int);
    int64_t micros = is_int ? json_object_get_int64(v) : -1;
    if (micros < 0 || (uint64_t)micros > TF_DURATION_MAX) {
        /* json_doc refused integers beyond 64 bits, so json-c clamped
         * none: the text is the number the file holds. */
        const char *text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
        return fail_msg(msg, len, "%s: \"%s\": expected a whole number of microseconds from 0 to %llu, got %s", path,
                    key, TF_DURATION_MAX, msg_escape(text ? text : "?", shown, sizeof shown));
    }
    out->set[kind] = true;
    out->micros[kind] = (uint64_t)micros;
    return 0;
}

int tf_durations_load(const char *path, struct tf_durations *out, char *msg, size_t len)
{
    json_object *root;
    memset(out, 0, sizeof *out);
    if (json_doc_load(path, path, MAX_FILE_BYTES, "1 MiB, not a durations file", 0, &root, msg, len) != 0)
        return -1;
    int rc = 0;
    if (!json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        return fail_msg(msg, len, "%s: expected a JSON object of durations in microseconds, e.g. {\"attn_fwd\": 120}",
                    path);
    }
    json_object_object_foreach(root, key, v) {
        if (load_member(path, key, v, out, msg, len) != 0) {
            rc = -1;
            break;
        }
    }
    json_object_put(root);
    return rc;
}
