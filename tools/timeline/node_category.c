/*
 * node_category.c - timeline row of a node, by name, then by type.
 */
#include "timeline/node_category.h"

#include <string.h>

/* Chakra NodeType numbers (chakra-et-format.md §1). */
enum {
    INVALID_NODE = 0,
    METADATA_NODE = 1,
    MEM_LOAD_NODE = 2,
    MEM_STORE_NODE = 3,
    COMP_NODE = 4,
    COMM_SEND_NODE = 5,
    COMM_RECV_NODE = 6,
    COMM_COLL_NODE = 7
};

/* Substring test on a name that need not be NUL-terminated. */
static bool contains(const char *name, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; n <= len && i <= len - n; i++)
        if (memcmp(name + i, word, n) == 0)
            return true;
    return false;
}

static node_category category_by_name(const char *name, size_t len)
{
    bool memory = contains(name, len, "MEM_LOAD_NODE") || contains(name, len, "MEM_STORE_NODE");
    if (memory && contains(name, len, "LOCAL_MEMORY"))
        return CATEGORY_LOCAL_MEMORY;
    if (memory && contains(name, len, "REMOTE_MEMORY"))
        return CATEGORY_REMOTE_MEMORY;
    if (contains(name, len, "COMP_NODE"))
        return CATEGORY_COMP;
    if (contains(name, len, "COMM_SEND_NODE") || contains(name, len, "COMM_RECV_NODE") ||
        contains(name, len, "COMM_COLL_NODE"))
        return CATEGORY_COMM;
    return CATEGORY_UNKNOWN;
}

static node_category category_by_type(uint64_t type)
{
    switch (type) {
    case INVALID_NODE:
    case METADATA_NODE:
        return CATEGORY_OTHER;
    case MEM_LOAD_NODE:
    case MEM_STORE_NODE:
        return CATEGORY_REMOTE_MEMORY;
    case COMP_NODE:
        return CATEGORY_COMP;
    case COMM_SEND_NODE:
    case COMM_RECV_NODE:
    case COMM_COLL_NODE:
        return CATEGORY_COMM;
    default:
        return CATEGORY_UNKNOWN;
    }
}

node_category node_category_of(const char *name, size_t name_len, bool has_type, uint64_t type)
{
    node_category by_name = category_by_name(name, name_len);
    if (by_name != CATEGORY_UNKNOWN || !has_type)
        return by_name;
    return category_by_type(type);
}
