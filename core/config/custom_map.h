/*
 * custom_map.h - the YAML file named by the system JSON's
 * "per-node-custom-implementation": a flat mapping of Chakra node ids to
 * custom-collective ET prefixes,
 *
 *   1: path/to/allreduce_a
 *   7: path/to/allreduce_b
 *
 * YAML anchors and aliases of values (`1: &a p`, `2: *a`) are resolved.
 */
#ifndef VIMANA_CONFIG_CUSTOM_MAP_H
#define VIMANA_CONFIG_CUSTOM_MAP_H

#include <stddef.h>
#include <stdint.h>

/* At most this many anchors in one file (each alias is looked up among them). */
#define CUSTOM_MAP_MAX_ANCHORS 1024

/* "per-node-custom-implementation": Chakra node id -> custom ET prefix. */
typedef struct custom_by_node {
    uint64_t node_id;
    char *prefix;
} custom_by_node;

/* Reads the map. Returns 0 with *out (n entries, free with custom_map_free),
 * or -1 with "PATH:LINE: reason" (or "PATH: reason") in err. Refuses
 * nesting, node ids that are not decimal integers, a node id given twice,
 * an empty prefix and an alias with no anchor before it. */
int custom_map_load(const char *path, custom_by_node **out, size_t *n, char *err, size_t err_len);
void custom_map_free(custom_by_node *map, size_t n);

#endif
