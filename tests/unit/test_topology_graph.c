/* The topology graph of the backend toolkit: the shipped topology files,
 * every refused input's exact message, units, routes and the ECMP hash,
 * and the bound on the route cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "vimana/backend_toolkit.h"
#include "vimana/topology_graph.h"

/* The source tree (set by tests/sim.mk, so a VPATH build finds the files). */
#ifndef TOPO_SRCDIR
#define TOPO_SRCDIR "."
#endif
#define NET TOPO_SRCDIR "/inputs/network/"
#define BAD TOPO_SRCDIR "/tests/data/topology/"

static vimana_topo *load_ok(const char *path)
{
    vimana_topo *t = NULL;
    char err[512] = "";
    int rc = vimana_topo_load(path, &t, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    assert_non_null(t);
    return t;
}

/* t has nodes nodes, npus of them NPUs (the rest switches), and
 * directed_links links. */
static void expect_counts(const vimana_topo *t, uint32_t nodes, uint32_t npus, uint32_t directed_links)
{
    assert_int_equal(vimana_topo_num_nodes(t), nodes);
    assert_int_equal(vimana_topo_num_npus(t), npus);
    assert_int_equal(vimana_topo_num_switches(t), nodes - npus);
    assert_int_equal(vimana_topo_num_links(t), directed_links);
}

static void expect_shape(const char *path, uint32_t nodes, uint32_t npus, uint32_t links, uint32_t dim0,
                         uint32_t dim1)
{
    vimana_topo *t = load_ok(path);
    expect_counts(t, nodes, npus, 2 * links);
    assert_int_equal(vimana_topo_num_dims(t), dim1 ? 2 : 1);
    assert_int_equal(vimana_topo_dim_size(t, 0), dim0);
    assert_int_equal(vimana_topo_dim_size(t, 1), dim1);
    vimana_topo_free(t);
}

static void test_shipped_files(void **state)
{
    (void)state;
    expect_shape(NET "fat_tree_64.txt", 76, 64, 96, 8, 8);
    expect_shape(NET "rail_32.txt", 46, 32, 80, 8, 4);
    expect_shape(NET "torus_4x4.txt", 16, 16, 32, 4, 4);
    expect_shape(NET "dgx1_cube_mesh.txt", 8, 8, 16, 8, 0);
}

static void expect_error(const char *file, const char *message)
{
    char path[256], want[512], err[512] = "";
    snprintf(path, sizeof path, BAD "%s", file);
    snprintf(want, sizeof want, BAD "%s%s", file, message);
    vimana_topo *t = (vimana_topo *)1;
    assert_int_equal(vimana_topo_load(path, &t, err, sizeof err), -1);
    assert_null(t);
    assert_string_equal(err, want);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("unknown_node.txt", ":6: link 2 -> 7: unknown node 7 (the topology has 4 nodes)");
    expect_error("no_link.txt", ":1: NPU 2 (node 2) has no link");
    expect_error("no_link_npu0.txt", ":2: NPU 0 (node 0) has no link");
    expect_error("disconnected.txt",
                 ":5: NPU 2 (node 2) cannot reach NPU 0 (node 0): the network is disconnected");
    expect_error("zero_bandwidth.txt", ":3: link 0 -> 2: rate '0Gbps' must be above zero");
    expect_error("negative_bandwidth.txt", ":3: link 0 -> 2: rate '-5Gbps' must be above zero");
    /* was "must be above zero" */
    expect_error("huge_rate.txt", ":4: link 1 -> 2: rate '1e300Tbps' is too large (at most 1000000000Tbps)");
    expect_error("bad_rate_unit.txt", ":4: link 1 -> 2: rate '100Gbit': unknown unit 'Gbit' (bps, Kbps, Mbps, "
                                      "Gbps, Tbps, Bps, KBps, MBps, GBps, TBps)");
    expect_error("bad_delay_unit.txt", ":4: link 1 -> 2: delay '1min': unknown unit 'min' (s, ms, us, ns, ps)");
    expect_error("duplicate.txt",
                 ":5: link 2 -> 0 is listed twice (first on line 3); a link line is both directions");
    expect_error("missing_link.txt", ":1: the header announces 3 links, the file has 2");
    expect_error("switch_count.txt", ":2: the header announces 2 switches, this line has 1");
    expect_error("too_many_npus.txt", ":1: 2000000 NPUs (nodes that are not switches) is above the limit of 1048576");
    expect_error("trailing.txt", ":5: unexpected 'extra' after the 2 links the header announces");
    expect_error("dims_mismatch.txt", ":1: vimana-dims 2 x 2 = 4 NPUs, but the topology has 2 NPUs");
    expect_error("self_loop.txt", ":4: link 1 -> 1 connects a node to itself");
    expect_error("short_link.txt", ":4: link 1: expected '<src> <dst> <rate> <delay> <error_rate>', found 4 words");
    expect_error("bad_error_rate.txt", ":4: link 1 -> 2: error rate '2' must be a number from 0 to 1");
    /* SimAI's header (six or seven words; its switch ids may span lines) */
    expect_error("simai_short_switches.txt", ":1: the header announces 7 NVSwitches and switches, the file lists 6");
    expect_error("simai_long_switches.txt", ":2: the header announces 7 NVSwitches and switches, the list has more");
    expect_error("simai_gpu_type.txt", ":1: GPU type '100' must be a name (A100, H100, ...), not a number");
    expect_error("lossy_link.txt", ":4: link 1 -> 2: error rate '0.001': no Vimana backend drops packets; write 0 "
                                   "(lossless)");
    /* Not a topology at all: left to vimana_net_load, which has the words
     * for an empty or missing network file. */
    vimana_topo *t = NULL;
    char err[64] = "x";
    assert_int_equal(vimana_topo_load(BAD "empty.txt", &t, err, sizeof err), 1);
    assert_null(t);
    assert_string_equal(err, "");
    assert_int_equal(vimana_topo_load(BAD "missing.txt", &t, err, sizeof err), 1);
    assert_int_equal(vimana_topo_load(BAD, &t, err, sizeof err), 1);
}

/* SimAI's topology header: 2 servers of 4 GPUs, an NVSwitch each, GPU g
 * on rail switch 10 + g % 4, the rails under one spine (14). NVSwitch and
 * switch ids span two lines, as a stream reader allows. Within a server
 * the NVSwitch is the shortest path (the GPUs are on different rails),
 * across servers on one rail the rail switch. */
static void test_simai_header(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(BAD "simai_rail_8.txt");
    expect_counts(t, 15, 8, 40); /* 7 switches */
    uint32_t r[8];
    assert_int_equal(vimana_topo_route(t, 0, 1, r, 8), 2);
    assert_int_equal(vimana_topo_link_info(t, r[0])->dst, 8);
    assert_int_equal(vimana_topo_route(t, 1, 5, r, 8), 2);
    assert_int_equal(vimana_topo_link_info(t, r[0])->dst, 11);
    assert_int_equal(vimana_topo_route(t, 0, 5, r, 8), 4);
    vimana_topo_free(t);
}

/* The network YAML form: topology: [ Custom ] + topology-file (+ dims). */
static void test_custom_yaml(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(BAD "custom.yml");
    assert_int_equal(vimana_topo_num_npus(t), 64);
    assert_int_equal(vimana_topo_num_links(t), 192);
    assert_int_equal(vimana_topo_num_dims(t), 2);
    assert_int_equal(vimana_topo_dim_size(t, 0), 16);
    assert_int_equal(vimana_topo_dim_size(t, 1), 4);
    vimana_topo_free(t);

    /* Not Custom: 1, for vimana_net_load to read. */
    char err[512] = "";
    t = (vimana_topo *)1;
    assert_int_equal(vimana_topo_load(NET "ring8.yml", &t, err, sizeof err), 1);
    assert_null(t);
    assert_string_equal(err, "");

    expect_error("custom_dims.yml", ":3: 'dims' 8 x 4 = 32 NPUs, but " BAD "../../../inputs/network/"
                                    "fat_tree_64.txt has 64 NPUs");
    expect_error("custom_twice.yml", ":3: key 'topology-file' given twice");
    expect_error("custom_no_file.yml", ":1: a Custom topology needs 'topology-file'");
    expect_error("custom_extra_key.yml", ":3: key 'bandwidth' does not apply to a Custom topology (its file gives "
                                         "the links; keys: topology, topology-file, dims)");
    char err2[512] = "";
    assert_int_equal(vimana_topo_load(BAD "custom_missing_target.yml", &t, err2, sizeof err2), -1);
    assert_string_equal(err2, BAD "nope.txt: cannot open: No such file or directory");
    assert_int_equal(vimana_topo_load(BAD "custom_bad_target.yml", &t, err2, sizeof err2), -1);
    assert_string_equal(err2, BAD "unknown_node.txt:6: link 2 -> 7: unknown node 7 (the topology has 4 nodes)");
}

/* 400Gbps = 5e10 bytes/s = 50 bytes per ns = 5e10 / 2^30 GB/s; 0.0005ms = 500 ns. */
static void test_units_and_names(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(NET "fat_tree_64.txt");
    const vimana_topo_link *l = vimana_topo_link_info(t, 1);
    assert_non_null(l);
    assert_int_equal(l->src, 64);
    assert_int_equal(l->dst, 0);
    assert_int_equal(l->line, 8);
    assert_true(l->bytes_per_ns == 50.0);
    assert_true(l->bandwidth_gbps == 5e10 / 1073741824.0);
    assert_true(l->latency_ns == 500.0);
    assert_null(vimana_topo_link_info(t, 192));
    char buf[32];
    assert_string_equal(vimana_topo_node_name(t, 63, buf, sizeof buf), "npu63");
    assert_string_equal(vimana_topo_node_name(t, 72, buf, sizeof buf), "switch72");
    assert_int_equal(vimana_topo_node_device(t, 72), 72);
    assert_int_equal(vimana_topo_node_npu(t, 72), VIMANA_TOPO_NONE);
    vimana_topo_free(t);

    /* Hosts after a switch: NPU k is the k-th non-switch id. */
    t = load_ok(NET "rail_32.txt");
    assert_int_equal(vimana_topo_npu_node(t, 31), 31);
    assert_int_equal(vimana_topo_node_device(t, 32), 32);
    const vimana_topo_link *nvl = vimana_topo_link_info(t, 0);
    assert_true(nvl->bytes_per_ns == 450.0);   /* 3600Gbps */
    assert_true(nvl->latency_ns == 250.0);
    vimana_topo_free(t);
}

/* Device ids are NPUs first, then switches by node id, whatever the file's
 * order; device_node inverts node_device. */
static void test_device_node(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(BAD "switch_first.txt");
    assert_int_equal(vimana_topo_node_device(t, 0), 2);
    assert_int_equal(vimana_topo_node_device(t, 1), 0);
    assert_int_equal(vimana_topo_device_node(t, 0), 1);
    assert_int_equal(vimana_topo_device_node(t, 1), 2);
    assert_int_equal(vimana_topo_device_node(t, 2), 0);
    assert_int_equal(vimana_topo_device_node(t, 3), VIMANA_TOPO_NONE);
    char buf[32];
    assert_string_equal(vimana_topo_node_name(t, vimana_topo_device_node(t, 2), buf, sizeof buf), "switch0");
    /* A backend's device_name: the file's node ids on a graph, the host's
     * default names on a network YAML (no graph). */
    assert_string_equal(vimana_topo_device_name(t, 2, 1, buf, sizeof buf), "npu1");
    assert_string_equal(vimana_topo_device_name(t, 2, 2, buf, sizeof buf), "switch0");
    assert_null(vimana_topo_device_name(t, 2, 3, buf, sizeof buf));
    assert_string_equal(vimana_topo_device_name(NULL, 8, 7, buf, sizeof buf), "npu7");
    assert_string_equal(vimana_topo_device_name(NULL, 8, 9, buf, sizeof buf), "switch1");
    vimana_topo_free(t);
}

/* The hash is splitmix64's finaliser of (src << 32 | dst): splitmix64
 * seeded with 0 outputs mix(0x9e3779b97f4a7c15) = 0xe220a8397b1dcdaf. */
static void test_ecmp_hash(void **state)
{
    (void)state;
    assert_true(vimana_topo_ecmp_hash(0x9e3779b9u, 0x7f4a7c15u) == 0xe220a8397b1dcdafull);
    assert_true(vimana_topo_ecmp_hash(0, 8) == 0xd56b1fbb9ceba9e8ull);
    assert_true(vimana_topo_ecmp_hash(1, 8) == 0xc0b19eed9d358255ull);
}

/* Fat-tree: link line i (from 0) is directed links 2i (as written) and
 * 2i+1 (back). NPU n -> leaf 64+n/8 is line n; leaf 64+j -> spine 72+s is
 * line 64+4j+s. NPU 0 -> NPU 8: up to leaf 64, to a spine, down to leaf 65,
 * to NPU 8. At leaf 64 four spines are equal; hash(0,8) % 4 = 0 and
 * hash(1,8) % 4 = 1, so the two flows take spines 72 and 73. */
static void test_fat_tree_routes(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(NET "fat_tree_64.txt");
    uint32_t r[8];
    assert_int_equal(vimana_topo_route(t, 0, 8, r, 8), 4);
    assert_int_equal(r[0], 0);        /* npu0 -> leaf64 (line 0) */
    assert_int_equal(r[1], 128);      /* leaf64 -> spine72 (line 64) */
    assert_int_equal(r[2], 137);      /* spine72 -> leaf65 (line 68, back) */
    assert_int_equal(r[3], 17);       /* leaf65 -> npu8 (line 8, back) */
    assert_int_equal(vimana_topo_link_info(t, r[1])->dst, 72);

    assert_int_equal(vimana_topo_route(t, 1, 8, r, 8), 4);
    assert_int_equal(r[0], 2);
    assert_int_equal(r[1], 130);      /* leaf64 -> spine73 (line 65) */
    assert_int_equal(r[2], 139);      /* spine73 -> leaf65 (line 69, back) */
    assert_int_equal(r[3], 17);
    assert_int_equal(vimana_topo_link_info(t, r[1])->dst, 73);

    /* Same leaf: two hops, no choice. Same NPU: none. */
    assert_int_equal(vimana_topo_route(t, 0, 7, r, 8), 2);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 15);
    assert_int_equal(vimana_topo_route(t, 5, 5, r, 8), 0);
    /* A short buffer: the hop count, the first links only. */
    uint32_t one[1];
    assert_int_equal(vimana_topo_route(t, 0, 8, one, 1), 4);
    assert_int_equal(one[0], 0);
    assert_int_equal(vimana_topo_route(t, 0, 64, r, 8), -1);
    vimana_topo_free(t);
}

/* Torus: NPU 0 -> NPU 10 (x 2, y 2) is 4 hops; every hop is a real link
 * and the route ends at NPU 10. */
static void test_torus_route(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(NET "torus_4x4.txt");
    uint32_t r[8];
    assert_int_equal(vimana_topo_route(t, 0, 10, r, 8), 4);
    uint32_t at = 0;
    for (int i = 0; i < 4; i++) {
        const vimana_topo_link *l = vimana_topo_link_info(t, r[i]);
        assert_int_equal(l->src, at);
        at = l->dst;
    }
    assert_int_equal(at, 10);
    vimana_topo_free(t);
}

/* The cache holds 3 tables of 76 nodes (912 bytes) at most, whatever the
 * number of destinations, and evicted tables give the same routes. */
static void test_route_cache_bounded(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(NET "fat_tree_64.txt");
    uint32_t first[64][4], r[4];
    for (uint32_t d = 0; d < 64; d++)
        assert_int_equal(vimana_topo_route(t, (d + 9) % 64, d, first[d], 4), d / 8 == ((d + 9) % 64) / 8 ? 2 : 4);
    assert_int_equal(vimana_topo_route_cache_bytes(t), 64 * 76 * 4);
    vimana_topo_set_route_cache_limit(t, 3 * 76 * 4);
    assert_int_equal(vimana_topo_route_cache_bytes(t), 0);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t d = 0; d < 64; d++) {
            long hops = vimana_topo_route(t, (d + 9) % 64, d, r, 4);
            assert_memory_equal(r, first[d], (size_t)hops * sizeof *r);
            assert_true(vimana_topo_route_cache_bytes(t) <= 3 * 76 * 4);
        }
    assert_int_equal(vimana_topo_route_cache_bytes(t), 3 * 76 * 4);
    /* A limit below one table still routes, with one table. */
    vimana_topo_set_route_cache_limit(t, 1);
    assert_int_equal(vimana_topo_route(t, 0, 8, r, 4), 4);
    assert_int_equal(vimana_topo_route_cache_bytes(t), 76 * 4);
    vimana_topo_free(t);
}

/* vimana_topo_next_link, called hop by hop from the source with the hash
 * of (src, dst), gives exactly vimana_topo_route's links, for every pair
 * of the fat-tree (ECMP choices) and the torus (NPUs forward). */
static void walk_matches_route(const char *path)
{
    vimana_topo *t = load_ok(path);
    uint32_t n = vimana_topo_num_npus(t), r[16];
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++) {
            long hops = vimana_topo_route(t, s, d, r, 16);
            assert_true(hops >= 0 && hops <= 16);
            uint32_t at = vimana_topo_npu_node(t, s);
            uint64_t h = vimana_topo_ecmp_hash(s, d);
            for (long i = 0; i < hops; i++) {
                uint32_t l = vimana_topo_next_link(t, at, d, &h);
                assert_int_equal(l, r[i]);
                at = vimana_topo_link_info(t, l)->dst;
            }
            assert_int_equal(at, vimana_topo_npu_node(t, d));
            assert_int_equal(vimana_topo_next_link(t, at, d, &h), VIMANA_TOPO_NONE);
        }
    uint64_t h = 0;
    assert_int_equal(vimana_topo_next_link(t, vimana_topo_num_nodes(t), 0, &h), VIMANA_TOPO_NONE);
    assert_int_equal(vimana_topo_next_link(t, 0, n, &h), VIMANA_TOPO_NONE);
    vimana_topo_free(t);
}

static void test_next_link_walks_route(void **state)
{
    (void)state;
    walk_matches_route(NET "fat_tree_64.txt");
    walk_matches_route(NET "torus_4x4.txt");
    walk_matches_route(NET "rail_32.txt");
}

/* Links down (vimana_topo_set_link_down) on tests/data/topology/fat_tree_8.txt:
 * link line i is directed links 2i and 2i+1; lines 0-7 join NPU k to its
 * leaf (8 or 9), line 8 is leaf 8 - spine 10 (links 16, 17), 9 leaf 8 -
 * spine 11 (18, 19), 10 leaf 9 - spine 10 (20, 21), 11 leaf 9 - spine 11
 * (22, 23). NPU 0 to NPU 4 goes 0, 16, 21, 9 (spine 10, the ECMP choice of
 * (0, 4)); with link 16 down it goes over spine 11: 0, 18, 23, 9, and back
 * when 16 comes up. */
static void test_links_down(void **state)
{
    (void)state;
    vimana_topo *t = load_ok(BAD "fat_tree_8.txt");
    uint32_t links[8];
    assert_int_equal(vimana_topo_route(t, 0, 4, links, 8), 4);
    assert_int_equal(links[1], 16);
    assert_int_equal(links[2], 21);
    assert_int_equal(vimana_topo_set_link_down(t, 16, 1), 0);
    assert_int_equal(vimana_topo_route(t, 0, 4, links, 8), 4);
    uint32_t want[4] = {0, 18, 23, 9};
    assert_memory_equal(links, want, sizeof want);
    /* only 8 -> 10 is down: 4 -> 0 may still come down 10 -> 8 (link 17) */
    assert_int_equal(vimana_topo_route(t, 4, 0, links, 8), 4);
    assert_int_equal(vimana_topo_set_link_down(t, 16, 0), 0);
    assert_int_equal(vimana_topo_route(t, 0, 4, links, 8), 4);
    assert_int_equal(links[1], 16);
    assert_int_equal(vimana_topo_set_link_down(t, 24, 1), -1);
    /* the partition check: both spine links of leaf 8 cut NPUs 4-7 off
     * from NPU 0; NPU 0's own link cuts every other NPU off */
    uint8_t down[24] = {0};
    uint32_t cut[8];
    assert_int_equal(vimana_topo_cut_off(t, down, cut, 8), 0);
    down[16] = down[17] = down[18] = down[19] = 1;
    assert_int_equal(vimana_topo_cut_off(t, down, cut, 8), 4);
    uint32_t far[4] = {4, 5, 6, 7};
    assert_memory_equal(cut, far, sizeof far);
    memset(down, 0, sizeof down);
    down[1] = 1; /* one direction is enough */
    assert_int_equal(vimana_topo_cut_off(t, down, cut, 2), 7);
    assert_int_equal(cut[0], 1);
    assert_int_equal(cut[1], 2);
    /* the same over registered bandwidth factors (0: down), in one line */
    double factor[24];
    for (int l = 0; l < 24; l++)
        factor[l] = 1;
    char err[200] = "";
    factor[16] = 0.5;
    assert_int_equal(vimana_topo_check_registered(t, factor, 7, err, sizeof err), 0);
    factor[16] = factor[17] = factor[18] = factor[19] = 0;
    assert_int_equal(vimana_topo_check_registered(t, factor, 7, err, sizeof err), 1);
    assert_string_equal(err, "the links down from tick 7 cut NPUs 4, 5, 6, 7 off from NPU 0 (a partition: no route "
                             "is left between them)");
    /* with NPU 0 cut off, a route from it has no next link */
    assert_int_equal(vimana_topo_set_link_down(t, 0, 1), 0);
    assert_int_equal(vimana_topo_set_link_down(t, 1, 1), 0);
    assert_int_equal(vimana_topo_route(t, 0, 4, links, 8), -1);
    vimana_topo_free(t);
}

/* The backends' one reader of either kind of network file: a topology
 * file gives a graph, a network YAML fills bt.net and gives none, and a
 * refused file or no file at all gives the reader's own message. */
static void test_load_graph_or_yaml(void **state)
{
    (void)state;
    vimana_bt bt;
    memset(&bt, 0, sizeof bt);
    vimana_topo *t = NULL;
    char err[512] = "", torus[] = NET "torus_4x4.txt", ring[] = NET "ring8.yml", bad[] = BAD "bad_rate_unit.txt";
    bt.network_path = torus;
    assert_int_equal(vimana_bt_load_graph_or_yaml(&bt, &t, err, sizeof err), VIMANA_OK);
    assert_non_null(t);
    assert_int_equal(vimana_topo_num_npus(t), 16);
    vimana_topo_free(t);

    t = NULL;
    bt.network_path = ring;
    assert_int_equal(vimana_bt_load_graph_or_yaml(&bt, &t, err, sizeof err), VIMANA_OK);
    assert_null(t);
    assert_int_equal(bt.net.n_dims, 1);
    assert_int_equal(bt.net.dims[0].npus, 8);

    bt.network_path = bad;
    assert_int_equal(vimana_bt_load_graph_or_yaml(&bt, &t, err, sizeof err), VIMANA_ERR_CONFIG);
    assert_null(t);
    char want[512];
    assert_int_equal(vimana_topo_load(bt.network_path, &t, want, sizeof want), -1);
    assert_string_equal(err, want);

    bt.network_path = NULL;
    assert_int_equal(vimana_bt_load_graph_or_yaml(&bt, &t, err, sizeof err), VIMANA_ERR_CONFIG);
    assert_null(t);
    assert_string_equal(err, "no network configuration given");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_shipped_files),   cmocka_unit_test(test_bad_inputs), cmocka_unit_test(test_simai_header),
    cmocka_unit_test(test_custom_yaml),
    cmocka_unit_test(test_units_and_names), cmocka_unit_test(test_device_node),
    cmocka_unit_test(test_ecmp_hash),
    cmocka_unit_test(test_fat_tree_routes), cmocka_unit_test(test_torus_route),
    cmocka_unit_test(test_route_cache_bounded), cmocka_unit_test(test_next_link_walks_route),
    cmocka_unit_test(test_links_down), cmocka_unit_test(test_load_graph_or_yaml)
)
