/* Fuzz target: the Chakra ET reader (core/et) on one trace file, reading
 * every record and every attribute through the typed accessors. */
#include <stdbool.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "vimana/et.h"

static void touch_attrs(const vet_attr *attrs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t i64;
        uint64_t u64;
        bool b;
        double d;
        const char *s;
        vet_attr_int64(&attrs[i], &i64);
        vet_attr_uint64(&attrs[i], &u64);
        vet_attr_bool(&attrs[i], &b);
        vet_attr_double(&attrs[i], &d);
        vet_attr_string(&attrs[i], &s);
        vet_value_kind_name(attrs[i].kind);
    }
}

int fuzz_target_et_reader(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("trace.et", data, size, path);
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r)
        return 0;
    const vet_metadata *md = vet_reader_metadata(r);
    touch_attrs(md->attrs, md->n_attrs);
    /* The first byte picks whether unknown node types are accepted, so both
     * the simulator's (strict) and the tools' (lenient) paths are covered. */
    vet_reader_accept_unknown_types(r, size > 0 && (data[0] & 1));
    const vet_node *node;
    while (vet_reader_next(r, &node, &err) == 1) {
        vet_node_type_name(node->type);
        touch_attrs(node->attrs, node->n_attrs);
        uint64_t u;
        vet_node_uint64(node, "comm_size", 0, &u);
    }
    vet_reader_close(r);
    return 0;
}
