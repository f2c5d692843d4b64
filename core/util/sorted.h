/*
 * sorted.h - arrays of records kept sorted by integer keys: where a key
 * goes (lower bound), the (key, index) records that order items by a key
 * with ties in their original order, the order of records by several
 * keys in turn, and a min-heap of records by a key.
 *
 * The simulator, the tools and the trace linker each kept such arrays over
 * their own structs and wrote the same binary search and the same
 * key-by-key comparators for each; they share these instead.
 *
 * Header-only for the search (it runs inside per-node loops, and a call
 * into the shared library for each probe would cost more than the probe),
 * a libvimana_util function for the sort.
 */
#ifndef VIMANA_UTIL_SORTED_H
#define VIMANA_UTIL_SORTED_H

#include "util/exported_names.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The width and signedness of a record's key. */
typedef enum sorted_key_kind { SORTED_U32, SORTED_U64, SORTED_I64 } sorted_key_kind;

/* A signed key as an unsigned number in the same order (its sign bit
 * flipped), for sorted_lower_bound and keys_order. */
static inline uint64_t sorted_i64_key(int64_t key)
{
    return (uint64_t)key ^ (UINT64_C(1) << 63);
}

/* The key at `rec` as an unsigned number in the same order as the key
 * itself (a signed key has its sign bit flipped). */
static inline uint64_t sorted_key_at(const unsigned char *rec, sorted_key_kind kind)
{
    if (kind == SORTED_U32) {
        uint32_t v;
        memcpy(&v, rec, sizeof v);
        return v;
    }
    uint64_t v;
    memcpy(&v, rec, sizeof v);
    return kind == SORTED_I64 ? v ^ (UINT64_C(1) << 63) : v;
}

/* The first position in an array of n records, `stride` bytes apart and
 * sorted by the key of kind `kind` at byte `key_at` of each, whose key is
 * not below `key` (given as sorted_key_at gives it); n when every key is
 * below. Use lower_bound_u32/_u64/_i64. */
static inline size_t sorted_lower_bound(const void *base, size_t n, size_t stride, size_t key_at, sorted_key_kind kind,
                                        uint64_t key)
{
    /* An empty array may come as NULL, and NULL plus an offset is undefined. */
    if (n == 0)
        return 0;
    const unsigned char *first = (const unsigned char *)base + key_at;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted_key_at(first + mid * stride, kind) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* sorted_lower_bound for a uint32_t, uint64_t or int64_t key, e.g.
 * lower_bound_u64(nodes, n, sizeof *nodes, offsetof(node, id), id). */
static inline size_t lower_bound_u32(const void *base, size_t n, size_t stride, size_t key_at, uint32_t key)
{
    return sorted_lower_bound(base, n, stride, key_at, SORTED_U32, key);
}

static inline size_t lower_bound_u64(const void *base, size_t n, size_t stride, size_t key_at, uint64_t key)
{
    return sorted_lower_bound(base, n, stride, key_at, SORTED_U64, key);
}

static inline size_t lower_bound_i64(const void *base, size_t n, size_t stride, size_t key_at, int64_t key)
{
    return sorted_lower_bound(base, n, stride, key_at, SORTED_I64, sorted_i64_key(key));
}

/* The order of two records by several integer keys, the first key that
 * differs deciding: -1, 0 or 1 as qsort wants, from the records' keys
 * a[0..n) and b[0..n) (a signed key through sorted_i64_key). A qsort
 * comparator over (src, dst, size) is then
 *     uint64_t ka[] = {x->src, x->dst, x->size}, kb[] = {y->src, y->dst, y->size};
 *     return keys_order(ka, kb, 3);
 * Inline: it runs once per comparison of a sort. */
static inline int keys_order(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* A binary min-heap of records `size` bytes each, ordered by the uint64_t
 * key at byte `key_at` of each: the tools' queues of "the next thing to
 * end" (a stream's end, a node's join time). Inline for the same reason
 * as the search; equal keys come out in no promised order (the same one
 * for the same pushes and pops). */

/* Adds *item to the heap of n records at base (room for n + 1); returns
 * n + 1. */
static inline size_t min_heap_push(void *base, size_t n, size_t size, size_t key_at, const void *item)
{
    unsigned char *v = base;
    uint64_t key = sorted_key_at((const unsigned char *)item + key_at, SORTED_U64);
    size_t i = n;
    while (i > 0 && sorted_key_at(v + (i - 1) / 2 * size + key_at, SORTED_U64) > key) {
        memcpy(v + i * size, v + (i - 1) / 2 * size, size);
        i = (i - 1) / 2;
    }
    memcpy(v + i * size, item, size);
    return n + 1;
}

/* Takes the record of least key out of the heap of n > 0 records at base
 * into *top; returns n - 1. */
static inline size_t min_heap_pop(void *base, size_t n, size_t size, size_t key_at, void *top)
{
    unsigned char *v = base;
    memcpy(top, v, size);
    n--;
    /* The last record stays where it is until its place is found: the
     * sift below writes only before it. */
    const unsigned char *last = v + n * size;
    uint64_t key = sorted_key_at(last + key_at, SORTED_U64);
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n &&
            sorted_key_at(v + (c + 1) * size + key_at, SORTED_U64) < sorted_key_at(v + c * size + key_at, SORTED_U64))
            c++;
        if (sorted_key_at(v + c * size + key_at, SORTED_U64) >= key)
            break;
        memcpy(v + i * size, v + c * size, size);
        i = c;
    }
    if (n)
        memcpy(v + i * size, last, size);
    return n;
}

/* An item to order by a key: its key and its position before sorting. */
typedef struct key_order {
    uint64_t key;
    size_t index;
} key_order;

/* Sorts v[0..n) by key, equal keys by index: with the indices 0..n-1 as
 * filled, the order of the items by key with ties kept in their first
 * order (a stable sort, which qsort is not). */
void key_order_sort(key_order *v, size_t n);

#endif
