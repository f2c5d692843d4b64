/* Names of the schema's enums and value kinds, and size parsing. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vimana/et.h"

#include "et/et_item_size.h"

static const char *const node_type_names[] = {
    "INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE",
    "COMP_NODE", "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE",
};

static const char *const coll_type_names[] = {
    "ALL_REDUCE", "REDUCE", "ALL_GATHER", "GATHER", "SCATTER",
    "BROADCAST", "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER",
};

static const char *const value_kind_names[] = {
    [VET_DOUBLE] = "double_val", [VET_DOUBLE_LIST] = "double_list",
    [VET_FLOAT] = "float_val", [VET_FLOAT_LIST] = "float_list",
    [VET_INT32] = "int32_val", [VET_INT32_LIST] = "int32_list",
    [VET_INT64] = "int64_val", [VET_INT64_LIST] = "int64_list",
    [VET_UINT32] = "uint32_val", [VET_UINT32_LIST] = "uint32_list",
    [VET_UINT64] = "uint64_val", [VET_UINT64_LIST] = "uint64_list",
    [VET_SINT32] = "sint32_val", [VET_SINT32_LIST] = "sint32_list",
    [VET_SINT64] = "sint64_val", [VET_SINT64_LIST] = "sint64_list",
    [VET_FIXED32] = "fixed32_val", [VET_FIXED32_LIST] = "fixed32_list",
    [VET_FIXED64] = "fixed64_val", [VET_FIXED64_LIST] = "fixed64_list",
    [VET_SFIXED32] = "sfixed32_val", [VET_SFIXED32_LIST] = "sfixed32_list",
    [VET_SFIXED64] = "sfixed64_val", [VET_SFIXED64_LIST] = "sfixed64_list",
    [VET_BOOL] = "bool_val", [VET_BOOL_LIST] = "bool_list",
    [VET_STRING] = "string_val", [VET_STRING_LIST] = "string_list",
    [VET_BYTES] = "bytes_val", [VET_BYTES_LIST] = "bytes_list",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *vet_node_type_name(int32_t type)
{
    return type >= 0 && (size_t)type < COUNT(node_type_names) ? node_type_names[type] : NULL;
}

int32_t vet_node_type_from_name(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < COUNT(node_type_names); i++) {
        const char *full = node_type_names[i];
        /* Accept the short form without the "_NODE" suffix too. */
        if (strcmp(full, name) == 0 || (len + 5 == strlen(full) && strncmp(full, name, len) == 0))
            return (int32_t)i;
    }
    return -1;
}

const char *vet_coll_type_name(int64_t type)
{
    return type >= 0 && (uint64_t)type < COUNT(coll_type_names) ? coll_type_names[type] : NULL;
}

int64_t vet_coll_type_from_name(const char *name)
{
    for (size_t i = 0; i < COUNT(coll_type_names); i++)
        if (strcmp(coll_type_names[i], name) == 0)
            return (int64_t)i;
    return -1;
}

const char *vet_value_kind_name(enum vet_value_kind kind)
{
    return (size_t)kind < COUNT(value_kind_names) ? value_kind_names[kind] : NULL;
}

enum vet_value_kind vet_value_kind_from_name(const char *name)
{
    for (size_t i = 0; i < COUNT(value_kind_names); i++)
        if (value_kind_names[i] && strcmp(value_kind_names[i], name) == 0)
            return (enum vet_value_kind)i;
    return VET_VALUE_NONE;
}

bool vet_value_kind_is_list(enum vet_value_kind kind)
{
    return kind >= VET_DOUBLE_LIST && kind <= VET_BYTES_LIST && kind % 2 == 0;
}

size_t vet_list_item_size(enum vet_value_kind kind)
{
    return et_list_item_size(kind);
}

int vet_parse_size(const char *text, uint64_t *out)
{
    static const struct {
        const char *suffix;
        uint64_t mult;
    } units[] = {
        {"", 1}, {"B", 1},
        {"K", 1ull << 10}, {"KiB", 1ull << 10}, {"KB", 1000ull},
        {"M", 1ull << 20}, {"MiB", 1ull << 20}, {"MB", 1000000ull},
        {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"GB", 1000000000ull},
        {"T", 1ull << 40}, {"TiB", 1ull << 40}, {"TB", 1000000000000ull},
    };
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -1;
    for (size_t i = 0; i < COUNT(units); i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            if (value > UINT64_MAX / units[i].mult)
                return -1;
            *out = value * units[i].mult;
            return 0;
        }
    }
    return -1;
}
