/* Checked tick conversions (util/ticks), the dependency-cycle finder
 * (util/dep_links) shared by workload and custom-collective traces, and
 * the key order and min-heap of util/sorted, and the capacity bound of
 * util/grow's uint32_t pools. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "util/dep_links.h"
#include "util/grow.h"
#include "util/sorted.h"
#include "util/ticks.h"

static void test_ticks_from_us_edges(void **state)
{
    (void)state;
    static const uint64_t us[] = {0, 5, 18446744073709551ull}, ticks[] = {0, 5000, 18446744073709551000ull};
    for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
        uint64_t t = 7;
        assert_true(ticks_from_us(us[i], &t));
        assert_true(t == ticks[i]);
    }
    /* refused, leaving the result as it was */
    static const uint64_t too_many[] = {18446744073709552ull, UINT64_C(1) << 63, UINT64_MAX};
    for (size_t i = 0; i < sizeof too_many / sizeof too_many[0]; i++) {
        uint64_t t = 7;
        assert_false(ticks_from_us(too_many[i], &t));
        assert_int_equal(t, 7);
    }
}

static void test_ticks_from_ns_edges(void **state)
{
    (void)state;
    /* the largest double below 2^64 last */
    static const double ns[] = {0.0, 2.9, 18446744073709549568.0};
    static const uint64_t ticks[] = {0, 2, 18446744073709549568ull};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint64_t t = 7;
        assert_true(ticks_from_ns(ns[i], &t));
        assert_true(t == ticks[i]);
    }
    const double refused[] = {18446744073709551616.0, 1e297, -1.0, 0.0 / 0.0, 1.0 / 0.0};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        uint64_t t = 7;
        assert_false(ticks_from_ns(refused[i], &t));
        assert_int_equal(t, 7);
    }
}

/* A graph given as (parent, child) index pairs. */
typedef struct graph {
    uint32_t n;
    uint32_t *children, first[16], count[16], parents[16];
    uint64_t ids[16];
} graph;

static void build(graph *g, uint32_t n, const uint32_t (*edges)[2], size_t n_edges)
{
    uint64_t links[32];
    g->n = n;
    for (size_t e = 0; e < n_edges; e++)
        links[e] = dep_link(edges[e][0], edges[e][1]);
    for (uint32_t i = 0; i < n; i++)
        g->ids[i] = 10 * (i + 1);
    assert_int_equal(dep_links_build(links, n_edges, n, &g->children, g->first, g->count, g->parents), 0);
}

static uint64_t id_at(const void *ctx, uint32_t index)
{
    return ((const graph *)ctx)->ids[index];
}

/* The cycle found, as text, or "" for none. */
static void cycle_of(graph *g, char *text, size_t len)
{
    uint32_t cycle[16];
    int64_t k = dep_links_find_cycle(g->children, g->first, g->count, g->parents, g->n, cycle);
    assert_true(k >= 0);
    text[0] = '\0';
    if (k > 0)
        dep_links_cycle_text(cycle, (uint32_t)k, id_at, g, text, len);
    free(g->children);
}

/* The graph of n nodes and the edges has the cycle want ("" for none),
 * written in len bytes. */
static void expect_cycle(uint32_t n, const uint32_t (*edges)[2], size_t n_edges, size_t len, const char *want)
{
    graph g;
    char text[100];
    assert_true(len <= sizeof text);
    build(&g, n, edges, n_edges);
    cycle_of(&g, text, len);
    assert_string_equal(text, want);
}

static void test_acyclic(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {0, 2}, {3, 2}};
    expect_cycle(4, e, 4, 100, "");
}

/* The cycle starts at its lowest index and follows the dependencies. */
static void test_cycle_in_order(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{2, 0}, {0, 1}, {1, 2}};
    expect_cycle(4, e, 3, 100, "10 -> 20 -> 30 -> 10");
}

/* Nodes behind a cycle (blocked, but on no cycle, some without blocked
 * children) are not reported as part of it. */
static void test_cycle_behind_leaf(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{0, 1}, {3, 4}, {4, 3}, {4, 5}, {3, 2}};
    expect_cycle(6, e, 5, 100, "40 -> 50 -> 40");
}

static void test_self_loop(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{1, 1}};
    expect_cycle(2, e, 1, 100, "20 -> 20");
}

/* A long cycle is shortened to fit, and still closes on its first node. */
static void test_cycle_text_truncated(void **state)
{
    (void)state;
    uint32_t e[16][2];
    for (uint32_t i = 0; i < 16; i++)
        e[i][0] = i, e[i][1] = (i + 1) % 16;
    expect_cycle(16, (const uint32_t (*)[2])e, 16, 80, "10 -> 20 -> 30 -> 40 -> ... -> 10");
}

/* keys_order: the first differing key decides; a signed key keeps its
 * order through sorted_i64_key. */
static void test_keys_order(void **state)
{
    (void)state;
    uint64_t a[] = {1, 2, 3}, b[] = {1, 2, 4}, c[] = {1, 3, 0};
    assert_int_equal(keys_order(a, a, 3), 0);
    assert_int_equal(keys_order(a, b, 3), -1);
    assert_int_equal(keys_order(b, a, 3), 1);
    assert_int_equal(keys_order(b, c, 3), -1);
    assert_int_equal(keys_order(a, b, 2), 0);
    uint64_t neg[] = {sorted_i64_key(-5)}, zero[] = {sorted_i64_key(0)}, pos[] = {sorted_i64_key(INT64_MAX)},
             low[] = {sorted_i64_key(INT64_MIN)};
    assert_int_equal(keys_order(neg, zero, 1), -1);
    assert_int_equal(keys_order(pos, zero, 1), 1);
    assert_int_equal(keys_order(low, neg, 1), -1);
}

/* min_heap_push / min_heap_pop: records (key not first) come out by key,
 * whatever order they went in, with the rest of each record intact. */
typedef struct heap_rec {
    uint32_t tag;
    uint64_t key;
} heap_rec;

static void test_min_heap(void **state)
{
    (void)state;
    static const uint64_t keys[] = {9, 3, 7, 3, 0, UINT64_MAX, 12, 5, 1, 8, 2};
    enum { N = sizeof keys / sizeof keys[0] };
    heap_rec heap[N];
    size_t n = 0;
    for (size_t i = 0; i < N; i++) {
        heap_rec r = {(uint32_t)(100 + i), keys[i]};
        n = min_heap_push(heap, n, sizeof r, offsetof(heap_rec, key), &r);
    }
    assert_int_equal(n, N);
    uint64_t prev = 0;
    for (size_t i = 0; i < N; i++) {
        heap_rec top;
        n = min_heap_pop(heap, n, sizeof top, offsetof(heap_rec, key), &top);
        assert_true(top.key >= prev);
        assert_true(keys[top.tag - 100] == top.key);
        prev = top.key;
    }
    assert_int_equal(n, 0);
    assert_true(prev == UINT64_MAX);
}

/* grow_array_u32 doubles from first_cap and refuses, leaving the array as
 * it was, a capacity past `max`. */
static void test_grow_u32_bound(void **state)
{
    (void)state;
    uint32_t *v = NULL, cap = 0;
    assert_int_equal(grow_array_u32((void **)&v, &cap, 1, sizeof *v, 16, 40), 0);
    assert_int_equal(cap, 16);
    assert_int_equal(grow_array_u32((void **)&v, &cap, 16, sizeof *v, 16, 40), 0);
    assert_int_equal(cap, 16);
    assert_int_equal(grow_array_u32((void **)&v, &cap, 17, sizeof *v, 16, 40), 0);
    assert_int_equal(cap, 32);
    uint32_t *before = v;
    assert_int_equal(grow_array_u32((void **)&v, &cap, 33, sizeof *v, 16, 40), -1);
    assert_true(v == before);
    assert_int_equal(cap, 32);
    free(v);
    v = NULL;
    cap = 0;
    assert_int_equal(grow_array_u32((void **)&v, &cap, 1, sizeof *v, 64, 40), -1);
    assert_null(v);
    assert_int_equal(cap, 0);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_ticks_from_us_edges), cmocka_unit_test(test_ticks_from_ns_edges),
    cmocka_unit_test(test_acyclic),             cmocka_unit_test(test_cycle_in_order),
    cmocka_unit_test(test_cycle_behind_leaf),   cmocka_unit_test(test_self_loop),
    cmocka_unit_test(test_cycle_text_truncated), cmocka_unit_test(test_keys_order),
    cmocka_unit_test(test_min_heap),            cmocka_unit_test(test_grow_u32_bound)
)
