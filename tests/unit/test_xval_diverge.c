/* The comparison behind `vimana xval`'s divergence report on hand-made
 * reports: collectives matched by node id whatever order a backend lists
 * them in, the band |d - baseline| <= tolerance * baseline at its edges,
 * the first collective outside it, and the ranking and totals of links. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xval_diverge.h"
#include "sim/xval_diverge_output.h"

static xval_coll coll(uint64_t node, const char *name, uint64_t start, uint64_t duration)
{
    xval_coll c = {.node = node, .bytes = 1048576, .start = start, .duration = duration};
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.type, sizeof c.type, "ALL_TO_ALL");
    return c;
}

static xval_link link_rec(uint64_t src, uint64_t dst, uint64_t bytes, uint64_t busy, uint64_t queue)
{
    xval_link l = {.src_device = src, .dst_device = dst, .bytes = bytes, .busy_ticks = busy, .has_queue = true,
                   .max_queue_ticks = queue};
    snprintf(l.src, sizeof l.src, src < 8 ? "npu%llu" : "sw%llu", (unsigned long long)src);
    snprintf(l.dst, sizeof l.dst, dst < 8 ? "npu%llu" : "sw%llu", (unsigned long long)dst);
    return l;
}

/* base: no link statistics; b lists node 7 first and is at the band's
 * edge there (2100 = 1.05 x 2000: inside); c is one tick past it on node 7
 * (2101: outside), inside on node 5 (1049 against 1000), lacks node 9 and
 * alone has node 11. */
static xval_coll base_colls[3], b_colls[3], c_colls[3];
static xval_link b_links[3], c_links[3];
static xval_detail details[3];

static void fill(void)
{
    base_colls[0] = coll(5, "embed", 0, 1000);
    base_colls[1] = coll(7, "a2a", 1000, 2000);
    base_colls[2] = coll(9, "ag", 3000, 500);
    b_colls[0] = coll(7, "a2a", 1000, 2100);
    b_colls[1] = coll(5, "embed", 0, 1000);
    b_colls[2] = coll(9, "ag", 3100, 600);
    c_colls[0] = coll(5, "embed", 0, 1049);
    c_colls[1] = coll(7, "a2a", 1049, 2101);
    c_colls[2] = coll(11, "late", 10, 40);
    /* 0->8 busier in c (spread 2), 1->8 queues longer in c (diff 30), 8->2
     * used by b only and 8->3 by c only (routes differ: ranked first). */
    b_links[0] = link_rec(0, 8, 100, 10, 5);
    b_links[1] = link_rec(1, 8, 100, 10, 0);
    b_links[2] = link_rec(8, 2, 50, 5, 0);
    c_links[0] = link_rec(8, 3, 50, 5, 0);
    c_links[1] = link_rec(1, 8, 100, 10, 30);
    c_links[2] = link_rec(0, 8, 100, 20, 5);
    details[0] = (xval_detail){.ran = true, .colls = base_colls, .n_colls = 3};
    details[1] = (xval_detail){.ran = true, .colls = b_colls, .n_colls = 3, .has_links = true, .links = b_links,
                               .n_links = 3};
    details[2] = (xval_detail){.ran = true, .colls = c_colls, .n_colls = 3, .has_links = true, .links = c_links,
                               .n_links = 3};
}

static void test_collectives(void **state)
{
    (void)state;
    fill();
    xval_divergence v;
    assert_int_equal(xval_diverge(details, 3, 0, 0.05, &v), 0);
    assert_int_equal(v.n_rows, 4);
    /* the baseline's order (start), then node 11, which only c has */
    assert_int_equal(v.rows[0].what->node, 5);
    assert_int_equal(v.rows[1].what->node, 7);
    assert_int_equal(v.rows[2].what->node, 9);
    assert_int_equal(v.rows[3].what->node, 11);
    assert_int_equal(v.rows[1].duration[0], 2000);
    assert_int_equal(v.rows[1].duration[1], 2100);
    assert_int_equal(v.rows[1].duration[2], 2101);
    assert_false(v.rows[0].outside[2]);  /* 49 <= 50 */
    assert_false(v.rows[1].outside[1]);  /* 100 <= 100: the edge is inside */
    assert_true(v.rows[1].outside[2]);   /* 101 > 100 */
    assert_true(v.rows[2].outside[1]);   /* 600 against 500 */
    assert_false(v.rows[2].has[2]);
    assert_false(v.rows[3].has[0]);
    assert_false(v.rows[3].outside[2]);  /* no baseline duration: no band */
    assert_true(v.has_first);
    assert_int_equal(v.first, 1);
    xval_divergence_free(&v);

    /* A band of 0.2: node 9's 600 (1.2 times 500) is on its edge, node 7's
     * 2101 well inside: nothing outside. */
    assert_int_equal(xval_diverge(details, 3, 0, 0.2, &v), 0);
    assert_false(v.has_first);
    xval_divergence_free(&v);
    /* Band 0 (no --tolerance): the first difference, c's node 5. */
    assert_int_equal(xval_diverge(details, 3, 0, 0, &v), 0);
    assert_true(v.has_first);
    assert_int_equal(v.first, 0);
    xval_divergence_free(&v);
}

static void test_first_line(void **state)
{
    (void)state;
    fill();
    xval_row rows[3] = {{.backend = "analytical"}, {.backend = "garnet"}, {.backend = "ns3_shim"}};
    xval_table t = {.rows = rows, .n = 3, .baseline = "analytical", .has_tolerance = true, .tolerance = 0.05};
    xval_divergence v;
    assert_int_equal(xval_diverge(details, 3, 0, 0.05, &v), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    xval_diverge_first_line(f, &t, &v);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(buf, "first collective outside the band 0.05: node 7 'a2a' (ALL_TO_ALL, 1048576 bytes, "
                             "NPU 0): analytical 2000, garnet 2100 (1.050000), ns3_shim 2101 (1.050500)");
    free(buf);
    xval_divergence_free(&v);
}

static void test_links(void **state)
{
    (void)state;
    fill();
    xval_divergence v;
    assert_int_equal(xval_diverge(details, 3, 0, 0.05, &v), 0);
    assert_int_equal(v.n_link_backends, 2);
    assert_false(v.stats[0]);
    assert_int_equal(v.n_links, 4);
    /* used by one backend only, in link order; then the busy spread; then
     * the queue difference */
    assert_int_equal(v.links[0].what->src_device, 8);
    assert_int_equal(v.links[0].what->dst_device, 2);
    assert_false(v.links[0].used_by_all);
    assert_int_equal(v.links[0].per[2].bytes, 0); /* c did not use it */
    assert_int_equal(v.links[1].what->dst_device, 3);
    assert_int_equal(v.links[2].what->src_device, 0);
    assert_true(v.links[2].busy_spread == 2.0);
    assert_int_equal(v.links[2].queue_diff, 0);
    assert_int_equal(v.links[3].what->src_device, 1);
    assert_true(v.links[3].busy_spread == 1.0);
    assert_int_equal(v.links[3].queue_diff, 30);
    assert_int_equal(v.totals[1].links, 3);
    assert_int_equal(v.totals[1].bytes, 250);
    assert_int_equal(v.totals[1].busy_ticks, 25);
    assert_int_equal(v.totals[1].max_queue_ticks, 5);
    assert_int_equal(v.totals[2].busy_ticks, 35);
    assert_int_equal(v.totals[2].max_queue_ticks, 30);
    assert_int_equal(v.totals[0].links, 0);
    xval_divergence_free(&v);
}

/* A baseline that failed: durations but no band, nothing outside. */
static void test_failed_baseline(void **state)
{
    (void)state;
    fill();
    details[0].ran = false;
    xval_divergence v;
    assert_int_equal(xval_diverge(details, 3, 0, 0.05, &v), 0);
    assert_false(v.has_baseline);
    assert_false(v.has_first);
    assert_int_equal(v.n_rows, 4); /* b's order now: 5, 7, 9; then 11 */
    assert_int_equal(v.rows[0].what->node, 5);
    xval_divergence_free(&v);
}

static void test_ratio(void **state)
{
    (void)state;
    double r;
    assert_true(xval_diverge_ratio(3, 2, &r));
    assert_true(r == 1.5);
    assert_true(xval_diverge_ratio(0, 0, &r));
    assert_true(r == 1.0);
    assert_false(xval_diverge_ratio(5, 0, &r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collectives), cmocka_unit_test(test_first_line),
        cmocka_unit_test(test_links),       cmocka_unit_test(test_failed_baseline),
        cmocka_unit_test(test_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
