#include "synth/pg_payload.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etcmd/sink.h"

bool pg_name_is_number(const char *s)
{
    if (*s == '\0')
        return false;
    char *end;
    (void)strtoll(s, &end, 10);
    return *end == '\0';
}

/* Appends ", " + {"pg_name": "N", "ranks": [..]} for a usable group. */
static void put_group(sink *s, json_object *item, bool *first)
{
    json_object *name, *ranks;
    if (!json_object_is_type(item, json_type_object) || !json_object_object_get_ex(item, "pg_name", &name) ||
        !json_object_object_get_ex(item, "ranks", &ranks) || !json_object_is_type(ranks, json_type_array))
        return;
    const char *pg = json_object_get_string(name);
    if (!pg_name_is_number(pg))
        return;
    /* The number's own text (digits, maybe a sign): no escapes needed. */
    sink_printf(s, "%s{\"pg_name\": \"%s\", \"ranks\": [", *first ? "" : ", ", pg);
    for (size_t r = 0; r < json_object_array_length(ranks); r++)
        sink_printf(s, "%s%d", r ? ", " : "", json_object_get_int(json_object_array_get_idx(ranks, r)));
    sink_printf(s, "]}");
    *first = false;
}

char *pg_payload_reduce(const char *values, int *oom)
{
    *oom = 0;
    size_t len = strlen(values);
    if (len < 4)
        return NULL;
    /* Same framing as the simulator: two characters off each end. */
    char *inner = strndup(values + 2, len - 4);
    if (!inner) {
        *oom = 1;
        return NULL;
    }
    json_object *root = json_tokener_parse(inner);
    free(inner);
    if (!root || !json_object_is_type(root, json_type_array)) {
        json_object_put(root);
        return NULL;
    }
    char *out = NULL;
    size_t out_len = 0;
    sink *s = sink_open_memory("vimana-et obfuscate", &out, &out_len);
    if (!s) {
        json_object_put(root);
        *oom = 1;
        return NULL;
    }
    bool first = true;
    sink_printf(s, "['[");
    for (size_t k = 0; k < json_object_array_length(root); k++)
        put_group(s, json_object_array_get_idx(root, k), &first);
    sink_printf(s, "]']");
    json_object_put(root);
    if (sink_close(s) != 0)
        *oom = 1;
    if (first || *oom) {
        free(out);
        return NULL;
    }
    return out;
}
