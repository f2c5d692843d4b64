/*
 * int_map.h - open-addressing hash map from int64 keys to uint32 values.
 *
 * The linker looks records up by id many millions of times (host node ids,
 * record-function ids, correlation ids, external ids); a flat table with
 * linear probing keeps that to one or two cache misses per lookup and one
 * allocation per map.
 */
#ifndef VIMANA_TRACE_LINK_INT_MAP_H
#define VIMANA_TRACE_LINK_INT_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct int_map_slot {
    int64_t key;
    uint32_t value;
    uint32_t used;
} int_map_slot;

typedef struct int_map {
    int_map_slot *slots;
    size_t cap;     /* power of two */
    size_t count;
} int_map;

/* Sized for about `expected` keys (it grows when needed). Returns -1 when
 * out of memory. */
int int_map_init(int_map *m, size_t expected);
void int_map_free(int_map *m);

/* The value slot of `key`, inserting it (with *inserted = true and value 0)
 * when absent; NULL when out of memory. */
uint32_t *int_map_upsert(int_map *m, int64_t key, bool *inserted);
/* Stores key -> value, replacing an earlier value. */
int int_map_put(int_map *m, int64_t key, uint32_t value);
bool int_map_get(const int_map *m, int64_t key, uint32_t *value);

#endif
