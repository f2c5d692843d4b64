/* Checked tick conversions (util/ticks) and the dependency-cycle finder
 * (util/dep_links) shared by workload and custom-collective traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "util/dep_links.h"
#include "util/ticks.h"

static void test_ticks_from_us_edges(void **state)
{
    (void)state;
    uint64_t t = 7;
    assert_true(ticks_from_us(0, &t));
    assert_int_equal(t, 0);
    assert_true(ticks_from_us(5, &t));
    assert_int_equal(t, 5000);
    assert_true(ticks_from_us(18446744073709551ull, &t));
    assert_true(t == 18446744073709551000ull);
    t = 7;
    assert_false(ticks_from_us(18446744073709552ull, &t));
    assert_false(ticks_from_us(UINT64_C(1) << 63, &t));
    assert_false(ticks_from_us(UINT64_MAX, &t));
    assert_int_equal(t, 7);
}

static void test_ticks_from_ns_edges(void **state)
{
    (void)state;
    uint64_t t = 7;
    assert_true(ticks_from_ns(0.0, &t));
    assert_int_equal(t, 0);
    assert_true(ticks_from_ns(2.9, &t));
    assert_int_equal(t, 2);
    /* the largest double below 2^64 */
    assert_true(ticks_from_ns(18446744073709549568.0, &t));
    assert_true(t == 18446744073709549568ull);
    t = 7;
    assert_false(ticks_from_ns(18446744073709551616.0, &t));
    assert_false(ticks_from_ns(1e297, &t));
    assert_false(ticks_from_ns(-1.0, &t));
    assert_false(ticks_from_ns(0.0 / 0.0, &t));
    assert_false(ticks_from_ns(1.0 / 0.0, &t));
    assert_int_equal(t, 7);
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

static void test_acyclic(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {0, 2}, {3, 2}};
    graph g;
    char text[100];
    build(&g, 4, e, 4);
    cycle_of(&g, text, sizeof text);
    assert_string_equal(text, "");
}

/* The cycle starts at its lowest index and follows the dependencies. */
static void test_cycle_in_order(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{2, 0}, {0, 1}, {1, 2}};
    graph g;
    char text[100];
    build(&g, 4, e, 3);
    cycle_of(&g, text, sizeof text);
    assert_string_equal(text, "10 -> 20 -> 30 -> 10");
}

/* Nodes behind a cycle (blocked, but on no cycle, some without blocked
 * children) are not reported as part of it. */
static void test_cycle_behind_leaf(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{0, 1}, {3, 4}, {4, 3}, {4, 5}, {3, 2}};
    graph g;
    char text[100];
    build(&g, 6, e, 5);
    cycle_of(&g, text, sizeof text);
    assert_string_equal(text, "40 -> 50 -> 40");
}

static void test_self_loop(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{1, 1}};
    graph g;
    char text[100];
    build(&g, 2, e, 1);
    cycle_of(&g, text, sizeof text);
    assert_string_equal(text, "20 -> 20");
}

/* A long cycle is shortened to fit, and still closes on its first node. */
static void test_cycle_text_truncated(void **state)
{
    (void)state;
    uint32_t e[16][2];
    for (uint32_t i = 0; i < 16; i++)
        e[i][0] = i, e[i][1] = (i + 1) % 16;
    graph g;
    char text[80];
    build(&g, 16, (const uint32_t (*)[2])e, 16);
    cycle_of(&g, text, sizeof text);
    assert_string_equal(text, "10 -> 20 -> 30 -> 40 -> ... -> 10");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_ticks_from_us_edges), cmocka_unit_test(test_ticks_from_ns_edges),
    cmocka_unit_test(test_acyclic),             cmocka_unit_test(test_cycle_in_order),
    cmocka_unit_test(test_cycle_behind_leaf),   cmocka_unit_test(test_self_loop),
    cmocka_unit_test(test_cycle_text_truncated)
)
