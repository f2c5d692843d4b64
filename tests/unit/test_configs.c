/* Configuration readers: good files parse to the right values; bad files
 * give the exact one-line error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/network_yaml.h"
#include "config/comm_group_config.h"
#include "config/memory_config.h"
#include "config/system_config.h"

static char path[64];

static const char *write_file(const char *text)
{
    if (path[0])
        unlink(path);
    strcpy(path, "/tmp/vimana-cfg-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void expect_error(const char *got, const char *suffix)
{
    /* every message starts with the file name */
    char want[1024];
    snprintf(want, sizeof want, "%s: %s", path, suffix);
    assert_string_equal(got, want);
}

/* ---- system JSON --------------------------------------------------------- */

static int load_sys(const char *text, double scale, sys_config *cfg, char *err)
{
    int rc = sys_config_load(write_file(text), scale, cfg, err, 512, NULL, NULL);
    unlink(path);
    return rc;
}

static void test_system_tutorial(void **state)
{
    (void)state;
    sys_config cfg;
    char err[512];
    assert_int_equal(load_sys("{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10, "
                              "\"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 4, "
                              "\"all-reduce-implementation\": [\"ring\", \"direct8\"], "
                              "\"all-to-all-implementation\": [\"oneHalvingDoubling\"], "
                              "\"collective-optimization\": \"localBWAware\", \"local-mem-bw\": 50, "
                              "\"boost-mode\": 0}", 2.0, &cfg, err), 0);
    assert_int_equal(cfg.scheduling_policy, SCHED_LIFO);
    assert_true(cfg.has_scheduling_policy);
    assert_int_equal(cfg.collective_optimization, COLL_OPT_LOCAL_BW_AWARE);
    assert_int_equal(cfg.endpoint_delay, 20); /* scaled by the injection scale */
    assert_int_equal(cfg.preferred_dataset_splits, 4);
    assert_true(cfg.local_mem_bw_Bps == 50e9);
    assert_int_equal(cfg.n_impl[COLL_ALL_REDUCE], 2);
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][0].kind, ALGO_RING);
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][1].kind, ALGO_DIRECT);
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][1].window, 8);
    assert_int_equal(cfg.impl[COLL_ALL_TO_ALL][0].kind, ALGO_HALVING_DOUBLING);
    assert_true(cfg.impl[COLL_ALL_TO_ALL][0].one);
    sys_config_free(&cfg);
}

static void test_system_defaults(void **state)
{
    (void)state;
    sys_config cfg;
    char err[512];
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 1}", 2.0, &cfg, err), 0);
    assert_int_equal(cfg.endpoint_delay, 10); /* the default is not scaled */
    assert_int_equal(cfg.active_chunks_per_dimension, 1);
    assert_false(cfg.has_scheduling_policy);
    assert_false(cfg.has_collective_optimization);
    sys_config_free(&cfg);
}

static void test_system_errors(void **state)
{
    (void)state;
    sys_config cfg;
    char err[512];
    assert_int_equal(load_sys("{\"scheduling-policy\": \"LIFO\"}", 1, &cfg, err), -1);
    expect_error(err, "key 'preferred-dataset-splits' is missing (required, greater than 0)");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 0}", 1, &cfg, err), -1);
    expect_error(err, "key 'preferred-dataset-splits': must be greater than 0");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 4, \"scheduling-policy\": \"RANDOM\"}", 1, &cfg, err), -1);
    expect_error(err, "key 'scheduling-policy': unknown value 'RANDOM' (expected LIFO, FIFO or EXPLICIT)");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 4, \"all-gather-implementation\": [\"tree\"]}", 1,
                              &cfg, err), -1);
    expect_error(err, "key 'all-gather-implementation'[0]: unknown collective algorithm 'tree' (expected ring, "
                      "oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling or "
                      "doubleBinaryTree)");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 4, \"all-reduce-implementation-custom\": [\"a\", "
                              "\"b\"]}", 1, &cfg, err), -1);
    expect_error(err, "key 'all-reduce-implementation-custom': There should be 1 Chakra ET only (a list with "
                      "exactly one ET prefix)");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": \"four\"}", 1, &cfg, err), -1);
    expect_error(err, "key 'preferred-dataset-splits': expected a number, got \"four\"");
    sys_config_free(&cfg);
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 4,", 1, &cfg, err), -1);
    assert_non_null(strstr(err, ": not valid JSON"));
    sys_config_free(&cfg);
}

/* ---- network YAML -------------------------------------------------------- */

static int load_net(const char *text, network_config *net, char *err)
{
    int rc = network_config_load(write_file(text), net, err, 512, NULL, NULL);
    unlink(path);
    return rc;
}

static void test_network_three_dims(void **state)
{
    (void)state;
    network_config net;
    char err[512];
    assert_int_equal(load_net("topology: [ Ring, FullyConnected, Switch ]\nnpus_count: [ 2, 8, 4 ]\n"
                              "bandwidth: [ 200.0, 100.0, 50.0 ]  # GB/s\nlatency: [ 50.0, 500.0, 936.25 ]\n",
                              &net, err), 0);
    assert_int_equal(net.n_dims, 3);
    assert_int_equal(net.total_npus, 64);
    assert_int_equal(net.dims[0].topology, NETWORK_RING);
    assert_int_equal(net.dims[1].topology, NETWORK_FULLY_CONNECTED);
    assert_int_equal(net.dims[2].topology, NETWORK_SWITCH);
    assert_true(net.dims[2].bytes_per_ns == 50.0 * (1 << 30) / 1e9);
    assert_true(net.dims[2].latency_ns == 936.25);
    assert_int_equal(network_coord(&net, 37, 0), 1);
    assert_int_equal(network_coord(&net, 37, 1), 2);
    assert_int_equal(network_coord(&net, 37, 2), 2);
}

static void test_network_errors(void **state)
{
    (void)state;
    network_config net;
    char err[512];
    assert_int_equal(load_net("topology: [ Ring, Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1, 1 ]\nlatency: [ 1, 1 ]\n",
                              &net, err), -1);
    expect_error(err, "length of npus_count (1) doesn't match with dimensions (2)");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1, 2 ]\nlatency: [ 1 ]\n",
                              &net, err), -1);
    expect_error(err, "length of bandwidth (2) doesn't match with dims_count (1)");
    assert_int_equal(load_net("topology: [ Torus ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                              &net, err), -1);
    expect_error(err, "Topology name Torus not supported (expected Ring, FullyConnected or Switch)");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                              &net, err), -1);
    expect_error(err, "npus_count (1) should be larger than 1");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ tbd ]\nlatency: [ 1 ]\n",
                              &net, err), -1);
    expect_error(err, "bandwidth[0]: expected a number, got 'tbd'");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 0 ]\nlatency: [ 1 ]\n",
                              &net, err), -1);
    expect_error(err, "bandwidth (0) should be larger than 0");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ -1 ]\n",
                              &net, err), -1);
    expect_error(err, "latency (-1) should be non-negative");
    assert_int_equal(load_net("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\n", &net, err), -1);
    expect_error(err, "missing key 'latency'");
    assert_int_equal(load_net("topology: [ Ring\nnpus_count: [ 4 ]\n", &net, err), -1);
    assert_non_null(strstr(err, ": line "));
}

/* ---- remote memory and communicator groups ------------------------------ */

static void test_memory(void **state)
{
    (void)state;
    mem_config m;
    char err[512];
    assert_int_equal(mem_config_load(write_file("{\"memory-type\": \"PER_NODE_MEMORY_EXPANSION\", \"num-nodes\": 2, "
                                                "\"num-npus-per-node\": 4, \"remote-mem-latency\": 100, "
                                                "\"remote-mem-bw\": 50}"), &m, err, sizeof err), 0);
    assert_int_equal(m.type, MEM_PER_NODE);
    assert_int_equal(m.num_npus_per_node, 4);
    assert_int_equal(m.latency_ns, 100);
    assert_int_equal(m.bytes_per_ns, 50);
    mem_config_free(&m);
    assert_int_equal(mem_config_load(write_file("{\"memory-type\": \"CXL\"}"), &m, err, sizeof err), -1);
    expect_error(err, "Unsupported memory type: CXL");
    mem_config_free(&m);
    unlink(path);
}

static void test_comm_groups(void **state)
{
    (void)state;
    comm_group_config g;
    char err[512];
    assert_int_equal(comm_group_config_load(write_file("{\"1\": [3, 2, 1, 0], \"2\": [4, 5, 6, 7]}"), 8, &g, err,
                                            sizeof err), 0);
    assert_int_equal(g.n_groups, 2);
    assert_int_equal(g.groups[0].id, 1);
    assert_int_equal(g.groups[0].npus[0], 3); /* JSON order is kept */
    comm_group_config_free(&g);
    assert_int_equal(comm_group_config_load(write_file("{\"0\": [0, 1]}"), 8, &g, err, sizeof err), -1);
    expect_error(err, "group '0': ids must be greater than 0 (0 means all NPUs)");
    comm_group_config_free(&g);
    assert_int_equal(comm_group_config_load(write_file("{\"3\": [0, 9]}"), 8, &g, err, sizeof err), -1);
    expect_error(err, "group 3: member 9 is not an NPU id in [0, 8)");
    comm_group_config_free(&g);
    assert_int_equal(comm_group_config_load(write_file("{\"3\": [1, 1]}"), 8, &g, err, sizeof err), -1);
    expect_error(err, "group 3: NPU 1 listed twice");
    comm_group_config_free(&g);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_tutorial),
        cmocka_unit_test(test_system_defaults),
        cmocka_unit_test(test_system_errors),
        cmocka_unit_test(test_network_three_dims),
        cmocka_unit_test(test_network_errors),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_comm_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
