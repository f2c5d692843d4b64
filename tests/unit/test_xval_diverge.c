/* The comparison behind `vimana xval`'s divergence report on hand-made
 * reports: collectives matched by node id whatever order a backend lists
 * them in, the band |d - baseline| <= tolerance * baseline at its edges,
 * the first collective outside it, and the ranking and totals of links. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/xval/xval_diverge.h"
#include "cmd/xval/xval_diverge_output.h"
#include "cmd/xval/xval_diverge_plot.h"
#include "expect_text.h"

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

/* The divergence of the fixture in the band 0.05. */
static void diverged(xval_divergence *v)
{
    fill();
    assert_int_equal(xval_diverge(details, 3, 0, 0.05, v), 0);
}

static void test_collectives(void **state)
{
    (void)state;
    xval_divergence v;
    diverged(&v);
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

/* What writer writes for the fixture (three backends, band 0.05), as a
 * NUL-terminated string the caller frees. */
static char *written(void (*writer)(FILE *, const xval_table *, const xval_divergence *))
{
    xval_row rows[3] = {{.backend = "analytical"}, {.backend = "garnet"}, {.backend = "ns3_shim"}};
    xval_table t = {.rows = rows, .n = 3, .baseline = "analytical", .has_tolerance = true, .tolerance = 0.05};
    xval_divergence v;
    diverged(&v);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    writer(f, &t, &v);
    assert_int_equal(fclose(f), 0);
    xval_divergence_free(&v);
    return buf;
}

static void expect_written(void (*writer)(FILE *, const xval_table *, const xval_divergence *), const char *want)
{
    expect_text(written(writer), want);
}

static void test_first_line(void **state)
{
    (void)state;
    expect_written(xval_diverge_first_line, "first collective outside the band 0.05: node 7 'a2a' (ALL_TO_ALL, "
                                            "1048576 bytes, NPU 0): analytical 2000, garnet 2100 (1.050000), "
                                            "ns3_shim 2101 (1.050500)");
}

static void text_top2(FILE *f, const xval_table *t, const xval_divergence *v)
{
    xval_diverge_write_text(f, t, v, 2);
}

/* The three parts; '*' on the ratios outside the band; "-" where a
 * backend has no record or no ratio; the two links used by one backend
 * only, then the totals over all links. */
static void test_text(void **state)
{
    (void)state;
    expect_written(text_top2,
                   "\n"
                   "collectives of NPU 0: duration in ticks per backend, ratio to analytical (* outside the band 0.05)"
                   "\n"
                   "node  name   type          bytes  analytical  garnet  ratio      ns3_shim  ratio\n"
                   "   5  embed  ALL_TO_ALL  1048576        1000    1000  1.000000       1049  1.049000\n"
                   "   7  a2a    ALL_TO_ALL  1048576        2000    2100  1.050000       2101  1.050500*\n"
                   "   9  ag     ALL_TO_ALL  1048576         500     600  1.200000*         -  -\n"
                   "  11  late   ALL_TO_ALL  1048576           -       -  -                40  -\n"
                   "first collective outside the band 0.05: node 7 'a2a' (ALL_TO_ALL, 1048576 bytes, NPU 0): analytical"
                   " 2000, garnet 2100 (1.050000), ns3_shim 2101 (1.050500)\n"
                   "\n"
                   "links: the 2 of 4 that differ most (busy-ticks spread, then worst-queue difference); analytical: no"
                   " link statistics\n"
                   "link       backend   bytes  busy_ticks  max_queue  busy_spread  queue_diff\n"
                   "sw8->npu2  garnet       50           5          0            -           0\n"
                   "           ns3_shim      0           0          0\n"
                   "sw8->npu3  garnet        0           0          0            -           0\n"
                   "           ns3_shim     50           5          0\n"
                   "total      garnet      250          25          5\n"
                   "           ns3_shim    250          35         30\n");
}

static void test_csv(void **state)
{
    (void)state;
    expect_written(xval_diverge_write_collectives_csv,
                   "npu,node,name,type,bytes,backend,duration,ratio,outside\n"
                   "0,5,embed,ALL_TO_ALL,1048576,analytical,1000,1.000000,\n"
                   "0,5,embed,ALL_TO_ALL,1048576,garnet,1000,1.000000,no\n"
                   "0,5,embed,ALL_TO_ALL,1048576,ns3_shim,1049,1.049000,no\n"
                   "0,7,a2a,ALL_TO_ALL,1048576,analytical,2000,1.000000,\n"
                   "0,7,a2a,ALL_TO_ALL,1048576,garnet,2100,1.050000,no\n"
                   "0,7,a2a,ALL_TO_ALL,1048576,ns3_shim,2101,1.050500,yes\n"
                   "0,9,ag,ALL_TO_ALL,1048576,analytical,500,1.000000,\n"
                   "0,9,ag,ALL_TO_ALL,1048576,garnet,600,1.200000,yes\n"
                   "0,9,ag,ALL_TO_ALL,1048576,ns3_shim,,,\n"
                   "0,11,late,ALL_TO_ALL,1048576,analytical,,,\n"
                   "0,11,late,ALL_TO_ALL,1048576,garnet,,,\n"
                   "0,11,late,ALL_TO_ALL,1048576,ns3_shim,40,,\n");
    expect_written(xval_diverge_write_links_csv,
                   "rank,src_device,dst_device,src,dst,backend,bytes,busy_ticks,max_queue_ticks,busy_spread,queue_diff"
                   "\n"
                   "1,8,2,sw8,npu2,garnet,50,5,0,,0\n"
                   "1,8,2,sw8,npu2,ns3_shim,0,0,0,,0\n"
                   "2,8,3,sw8,npu3,garnet,0,0,0,,0\n"
                   "2,8,3,sw8,npu3,ns3_shim,50,5,0,,0\n"
                   "3,0,8,npu0,sw8,garnet,100,10,5,2.000000,0\n"
                   "3,0,8,npu0,sw8,ns3_shim,100,20,5,2.000000,0\n"
                   "4,1,8,npu1,sw8,garnet,100,10,0,1.000000,30\n"
                   "4,1,8,npu1,sw8,ns3_shim,100,10,30,1.000000,30\n");
}

static void test_json(void **state)
{
    (void)state;
    expect_written(xval_diverge_write_json,
                   "\"divergence\": {\n"
                   "\"npu\": 0,\n"
                   "\"band\": 0.05,\n"
                   "\"collectives\": [\n"
                   "{\"node\": 5, \"name\": \"embed\", \"type\": \"ALL_TO_ALL\", \"bytes\": 1048576, \"durations\": [10"
                   "00, 1000, 1049], \"ratios\": [1.000000, 1.000000, 1.049000], \"outside\": [false, false, false]},\n"
                   "{\"node\": 7, \"name\": \"a2a\", \"type\": \"ALL_TO_ALL\", \"bytes\": 1048576, \"durations\": [2000"
                   ", 2100, 2101], \"ratios\": [1.000000, 1.050000, 1.050500], \"outside\": [false, false, true]},\n"
                   "{\"node\": 9, \"name\": \"ag\", \"type\": \"ALL_TO_ALL\", \"bytes\": 1048576, \"durations\": [500, "
                   "600, null], \"ratios\": [1.000000, 1.200000, null], \"outside\": [false, true, false]},\n"
                   "{\"node\": 11, \"name\": \"late\", \"type\": \"ALL_TO_ALL\", \"bytes\": 1048576, \"durations\": [nu"
                   "ll, null, 40], \"ratios\": [null, null, null], \"outside\": [false, false, false]}\n"
                   "],\n"
                   "\"first_outside\": {\"index\": 1, \"node\": 7},\n"
                   "\"link_totals\": [{\"backend\": \"garnet\", \"bytes\": 250, \"busy_ticks\": 25, \"max_queue_ticks\""
                   ": 5}, {\"backend\": \"ns3_shim\", \"bytes\": 250, \"busy_ticks\": 35, \"max_queue_ticks\": 30}],\n"
                   "\"links\": [\n"
                   "{\"src_device\": 8, \"dst_device\": 2, \"src\": \"sw8\", \"dst\": \"npu2\", \"busy_spread\": null, "
                   "\"queue_diff\": 0, \"backends\": [{\"backend\": \"garnet\", \"bytes\": 50, \"busy_ticks\": 5, \"max"
                   "_queue_ticks\": 0}, {\"backend\": \"ns3_shim\", \"bytes\": 0, \"busy_ticks\": 0, \"max_queue_ticks"
                   "\": 0}]},\n"
                   "{\"src_device\": 8, \"dst_device\": 3, \"src\": \"sw8\", \"dst\": \"npu3\", \"busy_spread\": null, "
                   "\"queue_diff\": 0, \"backends\": [{\"backend\": \"garnet\", \"bytes\": 0, \"busy_ticks\": 0, \"max_"
                   "queue_ticks\": 0}, {\"backend\": \"ns3_shim\", \"bytes\": 50, \"busy_ticks\": 5, \"max_queue_ticks"
                   "\": 0}]},\n"
                   "{\"src_device\": 0, \"dst_device\": 8, \"src\": \"npu0\", \"dst\": \"sw8\", \"busy_spread\": 2.0000"
                   "00, \"queue_diff\": 0, \"backends\": [{\"backend\": \"garnet\", \"bytes\": 100, \"busy_ticks\": 10,"
                   " \"max_queue_ticks\": 5}, {\"backend\": \"ns3_shim\", \"bytes\": 100, \"busy_ticks\": 20, \"max_que"
                   "ue_ticks\": 5}]},\n"
                   "{\"src_device\": 1, \"dst_device\": 8, \"src\": \"npu1\", \"dst\": \"sw8\", \"busy_spread\": 1.0000"
                   "00, \"queue_diff\": 30, \"backends\": [{\"backend\": \"garnet\", \"bytes\": 100, \"busy_ticks\": 10"
                   ", \"max_queue_ticks\": 0}, {\"backend\": \"ns3_shim\", \"bytes\": 100, \"busy_ticks\": 10, \"max_qu"
                   "eue_ticks\": 30}]}\n"
                   "]\n"
                   "}");
}

/* Node 11 only in ns3_shim: the others' lines stop at node 9, and it has
 * no ratio (no baseline duration), so ns3_shim's ratio line stops at node
 * 7 and node 11 is a lone dot on the durations. The ratio panel's top is
 * 2 (largest ratio 1.2); the band 0.95 .. 1.05 is y 475 .. 464. The dashed
 * mark at node 7, the second of four collectives (x = 90 + 480 / 3). */
static void test_plot(void **state)
{
    (void)state;
    expect_written(xval_diverge_plot_write,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"820\" height=\"640\" viewBox=\"0 0 820 640\" font"
                   "-family=\"sans-serif\" font-size=\"12\">\n"
                   "<rect width=\"820\" height=\"640\" fill=\"#ffffff\"/>\n"
                   "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Collective durations of NPU 0 per net"
                   "work backend</text>\n"
                   "<text x=\"16\" y=\"46\">ticks (1 tick = 1 ns), then the ratio to analytical's (the tolerance band 0"
                   ".05 shaded)</text>\n"
                   "<path d=\"M90 60V280H570\" fill=\"none\" stroke=\"#000000\"/>\n"
                   "<text x=\"84\" y=\"284\" text-anchor=\"end\">0</text>\n"
                   "<text x=\"84\" y=\"229\" text-anchor=\"end\">1250</text>\n"
                   "<text x=\"84\" y=\"174\" text-anchor=\"end\">2500</text>\n"
                   "<text x=\"84\" y=\"119\" text-anchor=\"end\">3750</text>\n"
                   "<text x=\"84\" y=\"64\" text-anchor=\"end\">5000</text>\n"
                   "<text x=\"96\" y=\"74\" font-weight=\"bold\">duration (ticks)</text>\n"
                   "<text x=\"90\" y=\"296\" text-anchor=\"middle\">5</text>\n"
                   "<text x=\"250\" y=\"296\" text-anchor=\"middle\">7</text>\n"
                   "<text x=\"410\" y=\"296\" text-anchor=\"middle\">9</text>\n"
                   "<text x=\"570\" y=\"296\" text-anchor=\"middle\">11</text>\n"
                   "<rect x=\"90\" y=\"464\" width=\"480\" height=\"11\" fill=\"#e0e0e0\"/>\n"
                   "<line x1=\"90\" y1=\"470\" x2=\"570\" y2=\"470\" stroke=\"#7f7f7f\" stroke-dasharray=\"2 2\"/>\n"
                   "<path d=\"M90 360V580H570\" fill=\"none\" stroke=\"#000000\"/>\n"
                   "<text x=\"84\" y=\"584\" text-anchor=\"end\">0</text>\n"
                   "<text x=\"84\" y=\"529\" text-anchor=\"end\">0.5</text>\n"
                   "<text x=\"84\" y=\"474\" text-anchor=\"end\">1</text>\n"
                   "<text x=\"84\" y=\"419\" text-anchor=\"end\">1.5</text>\n"
                   "<text x=\"84\" y=\"364\" text-anchor=\"end\">2</text>\n"
                   "<text x=\"96\" y=\"374\" font-weight=\"bold\">ratio to the baseline</text>\n"
                   "<text x=\"90\" y=\"596\" text-anchor=\"middle\">5</text>\n"
                   "<text x=\"250\" y=\"596\" text-anchor=\"middle\">7</text>\n"
                   "<text x=\"410\" y=\"596\" text-anchor=\"middle\">9</text>\n"
                   "<text x=\"570\" y=\"596\" text-anchor=\"middle\">11</text>\n"
                   "<text x=\"330\" y=\"616\" text-anchor=\"middle\">collective (node id), in the baseline's order</tex"
                   "t>\n"
                   "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"90,236 250,192 410,258\"/>\n"
                   "<circle cx=\"90\" cy=\"236\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<circle cx=\"250\" cy=\"192\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<circle cx=\"410\" cy=\"258\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"90,470 250,470 410,470\"/>\n"
                   "<circle cx=\"90\" cy=\"470\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<circle cx=\"250\" cy=\"470\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<circle cx=\"410\" cy=\"470\" r=\"3\" fill=\"#1f77b4\"/>\n"
                   "<line x1=\"600\" y1=\"64\" x2=\"620\" y2=\"64\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n"
                   "<text x=\"626\" y=\"68\">analytical</text>\n"
                   "<polyline fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"2\" points=\"90,236 250,188 410,254\"/>\n"
                   "<circle cx=\"90\" cy=\"236\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<circle cx=\"250\" cy=\"188\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<circle cx=\"410\" cy=\"254\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<polyline fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"2\" points=\"90,470 250,464 410,448\"/>\n"
                   "<circle cx=\"90\" cy=\"470\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<circle cx=\"250\" cy=\"464\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<circle cx=\"410\" cy=\"448\" r=\"3\" fill=\"#ff7f0e\"/>\n"
                   "<line x1=\"600\" y1=\"82\" x2=\"620\" y2=\"82\" stroke=\"#ff7f0e\" stroke-width=\"2\"/>\n"
                   "<text x=\"626\" y=\"86\">garnet</text>\n"
                   "<polyline fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"2\" points=\"90,234 250,188\"/>\n"
                   "<circle cx=\"90\" cy=\"234\" r=\"3\" fill=\"#2ca02c\"/>\n"
                   "<circle cx=\"250\" cy=\"188\" r=\"3\" fill=\"#2ca02c\"/>\n"
                   "<circle cx=\"570\" cy=\"278\" r=\"3\" fill=\"#2ca02c\"/>\n"
                   "<polyline fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"2\" points=\"90,465 250,464\"/>\n"
                   "<circle cx=\"90\" cy=\"465\" r=\"3\" fill=\"#2ca02c\"/>\n"
                   "<circle cx=\"250\" cy=\"464\" r=\"3\" fill=\"#2ca02c\"/>\n"
                   "<line x1=\"600\" y1=\"100\" x2=\"620\" y2=\"100\" stroke=\"#2ca02c\" stroke-width=\"2\"/>\n"
                   "<text x=\"626\" y=\"104\">ns3_shim</text>\n"
                   "<line x1=\"250\" y1=\"60\" x2=\"250\" y2=\"580\" stroke=\"#d7191c\" stroke-dasharray=\"4 3\"/>\n"
                   "<text x=\"254\" y=\"56\" fill=\"#d7191c\">first outside: node 7</text>\n"
                   "</svg>\n");
}

static void test_links(void **state)
{
    (void)state;
    xval_divergence v;
    diverged(&v);
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

UNIT_TEST_MAIN(
    cmocka_unit_test(test_collectives), cmocka_unit_test(test_first_line),
    cmocka_unit_test(test_links),       cmocka_unit_test(test_failed_baseline),
    cmocka_unit_test(test_ratio),       cmocka_unit_test(test_text),
    cmocka_unit_test(test_csv),         cmocka_unit_test(test_json),
    cmocka_unit_test(test_plot)
)
