/* Configuration readers: good files parse to the right values; bad files
 * give the exact one-line error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vimana/network_yaml.h"
#include "config/comm_group_config.h"
#include "config/memory_config.h"
#include "config/system_config.h"
#include "system/algorithms/registry.h"

/* The system JSON's algorithm names, as the simulator resolves them. */
#define BUILTINS algo_registry_builtin_names()

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
    int rc = sys_config_load(write_file(text), scale, BUILTINS, cfg, err, 512, NULL, NULL);
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
    char name[48];
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][0].id, ALGO_RING);
    assert_string_equal(algo_registry_spec_name(NULL, &cfg.impl[COLL_ALL_REDUCE][0], name, sizeof name), "ring");
    assert_string_equal(algo_registry_spec_name(NULL, &cfg.impl[COLL_ALL_REDUCE][1], name, sizeof name), "direct8");
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][1].param, 8);
    assert_string_equal(algo_registry_spec_name(NULL, &cfg.impl[COLL_ALL_TO_ALL][0], name, sizeof name),
                        "oneHalvingDoubling");
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

/* One system JSON that must be refused with exactly this message. */
static void sys_refused(const char *text, double scale, const char *want)
{
    sys_config cfg;
    char err[512];
    assert_int_equal(load_sys(text, scale, &cfg, err), -1);
    expect_error(err, want);
    sys_config_free(&cfg);
}

static void test_system_errors(void **state)
{
    (void)state;
    sys_refused("{\"scheduling-policy\": \"LIFO\"}", 1,
                "key 'preferred-dataset-splits' is missing (required, greater than 0)");
    sys_refused("{\"preferred-dataset-splits\": 0}", 1,
                "key 'preferred-dataset-splits': 0 is out of range (1 to 4096 chunks per collective)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"scheduling-policy\": \"RANDOM\"}", 1,
                "key 'scheduling-policy': unknown value 'RANDOM' (expected LIFO, FIFO or EXPLICIT)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"all-gather-implementation\": [\"tree\"]}", 1,
                "key 'all-gather-implementation'[0]: unknown collective algorithm 'tree' (expected ring, "
                "oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling, "
                "doubleBinaryTree, nccl or oneNccl)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"all-reduce-implementation-custom\": [\"a\", \"b\"]}", 1,
                "key 'all-reduce-implementation-custom': There should be 1 Chakra ET only (a list with "
                "exactly one ET prefix)");
    sys_refused("{\"preferred-dataset-splits\": \"four\"}", 1,
                "key 'preferred-dataset-splits': expected a non-negative integer, got \"four\"");
    sys_refused("{\"preferred-dataset-splits\": 4,", 1,
                "line 1, column 32: expected a key in double quotes, got the end of the file");
}

/* What json-c alone lets through: repeated keys (the last won), text after
 * the object, NaN/Infinity, integers clamped to 64 bits, and its messages
 * had no position. */
static void test_system_strict_json(void **state)
{
    (void)state;
    sys_refused("{\"preferred-dataset-splits\": 4, \"endpoint-delay\": 10,\n \"endpoint-delay\": 100}", 1,
                "line 2, column 2: duplicate key 'endpoint-delay' (first given at line 1, column 33)");
    sys_refused("{\"a\": 1, \"\\u0061\": 2}", 1, "line 1, column 10: duplicate key 'a' (first given at line 1, column 2)");
    sys_refused("{\"preferred-dataset-splits\": 4} xyz", 1,
                "line 1, column 33: unexpected text after the end of the JSON object: 'xyz'");
    sys_refused("{\"preferred-dataset-splits\": 4, \"local-mem-bw\": NaN}", 1,
                "line 1, column 49: key 'local-mem-bw': NaN is not a finite number");
    sys_refused("{\"preferred-dataset-splits\": 4, \"peak-perf\": -Infinity}", 1,
                "line 1, column 46: key 'peak-perf': -Infinity is not a finite number");
    sys_refused("{\"preferred-dataset-splits\": 4, \"peak-perf\": 1e400}", 1,
                "line 1, column 46: key 'peak-perf': 1e400 is out of range for a double");
    sys_refused("{\"preferred-dataset-splits\": 4, \"L\": 1e-400}", 1,
                "line 1, column 38: key 'L': 1e-400 is out of range for a double");
    sys_refused("{\"preferred-dataset-splits\": 99999999999999999999}", 1,
                "line 1, column 30: key 'preferred-dataset-splits': 99999999999999999999 is out of range for a 64-bit "
                "integer");
    sys_refused("", 1, "line 1, column 1: expected a JSON object ('{'), got the end of the file");
    sys_refused("[1]", 1, "line 1, column 1: expected a JSON object ('{'), got '['");
    sys_refused("{\"x\": [1, 2,]}", 1, "line 1, column 13: key 'x'[2]: expected a value, got ']'");
    sys_refused("{\"x\": 01}", 1, "line 1, column 7: key 'x': invalid number '01'");
    sys_refused("{\"x\": [tru]}", 1, "line 1, column 8: key 'x'[0]: expected a value, got 'tru'");
    sys_refused("{\"x\": \"a\nb\"}", 1, "line 1, column 9: control character \\n inside a string (write it as an escape)");
    sys_refused("{\"x\": \"\\u0000\"}", 1, "line 1, column 8: '\\u0000' (a NUL character) is not allowed in a string");
    sys_refused("{\"x\": \"\\q\"}", 1, "line 1, column 8: invalid escape '\\q' in a string");
    sys_refused("{\"x\": \"abc", 1, "line 1, column 7: unterminated string (no closing '\"')");
    sys_refused("{\"x\" 1}", 1, "line 1, column 6: expected ':' after key 'x', got '1'");
    sys_refused("{\"x\": 1 \"y\": 2}", 1, "line 1, column 9: expected ',' or '}' after the value of key 'x', got '\"'");
    /* columns count characters: "é" is two bytes, one column */
    sys_refused("{\"\xc3\xa9\": 1,\n  \"\xc3\xa9\": 2}", 1,
                "line 2, column 3: duplicate key '\xc3\xa9' (first given at line 1, column 2)");
    char deep[200] = "{\"x\": ";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    sys_refused(deep, 1, "line 1, column 38: nested deeper than 32 levels");
}

/* Values: finite, in range, and echoed on one line. */
static void test_system_ranges(void **state)
{
    (void)state;
    sys_refused("{\"preferred-dataset-splits\": 1000000000}", 1,
                "key 'preferred-dataset-splits': 1000000000 is out of range (1 to 4096 chunks per collective)");
    sys_refused("{\"preferred-dataset-splits\": 1e30}", 1,
                "key 'preferred-dataset-splits': 1e30 is out of range (1 to 4096 chunks per collective)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"local-mem-bw\": 1e-300}", 1,
                "key 'local-mem-bw': 1e-300 is out of range (0, or 1e-6 to 1000000000 GB/s)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"peak-perf\": 1e-300}", 1,
                "key 'peak-perf': 1e-300 is out of range (0, or 1e-6 to 1000000000 TFLOP/s)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"local-mem-bw\": -5}", 1,
                "key 'local-mem-bw': -5 is out of range (0, or 1e-6 to 1000000000 GB/s)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"G\": -1}", 1, "key 'G': -1 is out of range (0 to 1e15)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"endpoint-delay\": 1e300}", 1,
                "key 'endpoint-delay': 1e300 is out of range (0 to 9007199254740991)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"endpoint-delay\": 10}", 1e300,
                "key 'endpoint-delay': 10 x --injection-scale 1e300 is out of range (0 to 9007199254740991)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"active-chunks-per-dimension\": 4294967296}", 1,
                "key 'active-chunks-per-dimension': 4294967296 is out of range (0 to 4294967295)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"local-reduction-delay\": 2.5}", 1,
                "key 'local-reduction-delay': expected a non-negative integer, got 2.5");
    sys_refused("{\"preferred-dataset-splits\": 4, \"scheduling-policy\": \"L],\\n\"}", 1,
                "key 'scheduling-policy': unknown value 'L],\\n' (expected LIFO, FIFO or EXPLICIT)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"all-reduce-implementation\": [\"ring\\u001b[2J\"]}", 1,
                "key 'all-reduce-implementation'[0]: unknown collective algorithm 'ring\\x1b[2J' (expected ring, "
                "oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling, "
                "doubleBinaryTree, nccl or oneNccl)");
    sys_refused("{\"preferred-dataset-splits\": 4, \"all-reduce-implementation-custom\": [\"x\\ty\"]}", 1,
                "key 'all-reduce-implementation-custom': the path 'x\\ty' holds a control character");
    sys_refused("{\"preferred-dataset-splits\": 4, \"per-node-custom-implementation\": \"\"}", 1,
                "key 'per-node-custom-implementation': the path is empty");
    sys_config cfg;
    char err[512];
    assert_int_equal(load_sys("{\"preferred-dataset-splits\": 4096, \"local-mem-bw\": 1e9, \"peak-perf\": 1e-6, "
                              "\"L\": 1e15, \"endpoint-delay\": 9007199254740991}", 1, &cfg, err), 0);
    assert_int_equal(cfg.preferred_dataset_splits, 4096);
    assert_true(cfg.local_mem_bw_Bps == 1e18);
    assert_int_equal(cfg.endpoint_delay, 9007199254740991ull);
    sys_config_free(&cfg);
}

static char warned[512];

static void keep_warning(void *ctx, const char *msg)
{
    (void)ctx;
    snprintf(warned, sizeof warned, "%s", msg);
}

static void test_system_unknown_key_escaped(void **state)
{
    (void)state;
    sys_config cfg;
    char err[512];
    assert_int_equal(sys_config_load(write_file("{\"preferred-dataset-splits\": 1, \"a\\nb\": 1}"), 1, BUILTINS, &cfg,
                                     err, sizeof err, keep_warning, NULL), 0);
    char want[512];
    snprintf(want, sizeof want, "%s: unknown key 'a\\nb' ignored", path);
    assert_string_equal(warned, want);
    sys_config_free(&cfg);
    unlink(path);
}

/* Every reader (system, memory, communicator groups, network) refuses
 * file with exactly the message want. */
static void every_reader_refuses(const char *file, const char *want)
{
    sys_config cfg;
    mem_config m;
    comm_group_config g;
    vimana_net_config net;
    char err[512];
    assert_int_equal(sys_config_load(file, 1, BUILTINS, &cfg, err, sizeof err, NULL, NULL), -1);
    assert_string_equal(err, want);
    sys_config_free(&cfg);
    assert_int_equal(mem_config_load(file, &m, err, sizeof err), -1);
    assert_string_equal(err, want);
    mem_config_free(&m);
    assert_int_equal(comm_group_config_load(file, 8, &g, err, sizeof err), -1);
    assert_string_equal(err, want);
    comm_group_config_free(&g);
    assert_int_equal(vimana_net_load(file, &net, err, sizeof err, NULL, NULL), -1);
    assert_string_equal(err, want);
}

/* Files that are not regular files are refused before any read: /dev/zero
 * was read for ever, a directory gave json-c's text. */
static void test_not_regular_files(void **state)
{
    (void)state;
    every_reader_refuses("/dev/zero", "/dev/zero: not a regular file (character device)");
    every_reader_refuses("/tmp", "/tmp: is a directory, expected a file");
    sys_config cfg;
    char err[512];
    assert_int_equal(sys_config_load("/nonexistent/sys.json", 1, BUILTINS, &cfg, err, sizeof err, NULL, NULL), -1);
    assert_string_equal(err, "/nonexistent/sys.json: cannot open: No such file or directory");
    sys_config_free(&cfg);
}

/* ---- per-node custom implementations (YAML map) --------------------------- */

static const char map_path[] = "/tmp/vimana-cfg-map.yml";

/* Loads a system JSON whose per-node map holds `map_text`. */
static int load_with_map(const char *map_text, sys_config *cfg, char *err)
{
    FILE *f = fopen(map_path, "w");
    assert_non_null(f);
    fputs(map_text, f);
    fclose(f);
    char json[200];
    snprintf(json, sizeof json, "{\"preferred-dataset-splits\": 1, \"per-node-custom-implementation\": \"%s\"}",
             map_path);
    int rc = load_sys(json, 1, cfg, err);
    unlink(map_path);
    return rc;
}

static void map_refused(const char *map_text, const char *want)
{
    sys_config cfg;
    char err[512], full[512];
    assert_int_equal(load_with_map(map_text, &cfg, err), -1);
    snprintf(full, sizeof full, "key 'per-node-custom-implementation': %s%s", map_path, want);
    expect_error(err, full);
    sys_config_free(&cfg);
}

/* An alias was dropped, shifting every later key and value by one. */
static void test_per_node_map_aliases(void **state)
{
    (void)state;
    sys_config cfg;
    char err[512];
    assert_int_equal(load_with_map("1: &x /p/A\n2: *x\n3: /p/B\n&k 4: /p/C\n5: *k\n", &cfg, err), 0);
    assert_int_equal(cfg.n_per_node_custom, 5);
    assert_string_equal(sys_config_custom_for(&cfg, COLL_ALL_REDUCE, 1), "/p/A");
    assert_string_equal(sys_config_custom_for(&cfg, COLL_ALL_REDUCE, 2), "/p/A");
    assert_string_equal(sys_config_custom_for(&cfg, COLL_ALL_REDUCE, 3), "/p/B");
    assert_string_equal(sys_config_custom_for(&cfg, COLL_ALL_REDUCE, 4), "/p/C");
    assert_string_equal(sys_config_custom_for(&cfg, COLL_ALL_REDUCE, 5), "4"); /* an anchored key is a value too */
    sys_config_free(&cfg);
}

static void test_per_node_map_errors(void **state)
{
    (void)state;
    map_refused("1: *nope\n", ":1: alias *nope refers to no anchor &nope before it (only plain values can be anchored "
                               "here)");
    map_refused("1: a\n2: b\n1: c\n", ":3: node id 1 given twice (first on line 1)");
    map_refused("-1: a\n", ":1: node id '-1' is not a non-negative decimal integer (below 2^64)");
    map_refused("\"1\\n\": a\n", ":1: node id '1\\n' is not a non-negative decimal integer (below 2^64)");
    map_refused("1: [a]\n", ":1: expected a flat mapping of node ids to ET prefixes");
    map_refused("1: ''\n", ":1: node 1: the ET prefix is empty");
    map_refused("1: \"a\\nb\"\n", ":1: node 1: the ET prefix 'a\\nb' holds a control character");
    map_refused("just text\n", ":1: expected a mapping of node ids to ET prefixes, got 'just text'");
    sys_refused("{\"preferred-dataset-splits\": 1, \"per-node-custom-implementation\": \"/tmp\"}", 1,
                "key 'per-node-custom-implementation': /tmp: is a directory, expected a file");
}

/* ---- network YAML -------------------------------------------------------- */

static int load_net(const char *text, vimana_net_config *net, char *err)
{
    int rc = vimana_net_load(write_file(text), net, err, 512, NULL, NULL);
    unlink(path);
    return rc;
}

/* One network YAML that must be refused with exactly this message. */
static void net_refused(const char *text, const char *want)
{
    vimana_net_config net;
    char err[512];
    assert_int_equal(load_net(text, &net, err), -1);
    expect_error(err, want);
}

static void test_network_three_dims(void **state)
{
    (void)state;
    vimana_net_config net;
    char err[512];
    assert_int_equal(load_net("topology: [ Ring, FullyConnected, Switch ]\nnpus_count: [ 2, 8, 4 ]\n"
                              "bandwidth: [ 200.0, 100.0, 50.0 ]  # GB/s\nlatency: [ 50.0, 500.0, 936.25 ]\n",
                              &net, err), 0);
    assert_int_equal(net.n_dims, 3);
    assert_int_equal(net.total_npus, 64);
    assert_int_equal(net.dims[0].topology, VIMANA_NET_RING);
    assert_int_equal(net.dims[1].topology, VIMANA_NET_FULLY_CONNECTED);
    assert_int_equal(net.dims[2].topology, VIMANA_NET_SWITCH);
    assert_true(net.dims[2].bytes_per_ns == 50.0 * (1 << 30) / 1e9);
    assert_true(net.dims[2].latency_ns == 936.25);
    assert_int_equal(vimana_net_coord(&net, 37, 0), 1);
    assert_int_equal(vimana_net_coord(&net, 37, 1), 2);
    assert_int_equal(vimana_net_coord(&net, 37, 2), 2);
}

static void test_network_errors(void **state)
{
    (void)state;
    net_refused("topology: [ Ring, Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1, 1 ]\nlatency: [ 1, 1 ]\n",
                "length of npus_count (1) doesn't match with dimensions (2)");
    net_refused("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1, 2 ]\nlatency: [ 1 ]\n",
                "length of bandwidth (2) doesn't match with dims_count (1)");
    net_refused("topology: [ Torus ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                "Topology name Torus not supported (expected Ring, FullyConnected or Switch)");
    net_refused("topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                "npus_count (1) should be larger than 1");
    net_refused("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ tbd ]\nlatency: [ 1 ]\n",
                "bandwidth[0]: expected a number, got 'tbd'");
    net_refused("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 0 ]\nlatency: [ 1 ]\n",
                "bandwidth (0) should be larger than 0");
    net_refused("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ -1 ]\n",
                "latency (-1) should be non-negative");
    net_refused("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\n", "missing key 'latency'");
    vimana_net_config net;
    char err[512];
    assert_int_equal(load_net("topology: [ Ring\nnpus_count: [ 4 ]\n", &net, err), -1);
    assert_non_null(strstr(err, ": line "));
}

/* A backend's own names and keys (vimana_net_ext): a "Mesh" dimension
 * gets VIMANA_NET_EXT_FIRST + 1; "vcs" and "routing" reach the backend's
 * callback with their values; its refusal gets the file and line. */
typedef struct seen_keys {
    char text[256];
} seen_keys;

static int own_key(void *ctx, const char *name, const char *const *values, size_t n, char *err, size_t err_len)
{
    seen_keys *seen = ctx;
    size_t used = strlen(seen->text);
    snprintf(seen->text + used, sizeof seen->text - used, "%s=", name);
    for (size_t i = 0; i < n; i++) {
        used = strlen(seen->text);
        snprintf(seen->text + used, sizeof seen->text - used, "%s%s", i ? "," : "", values[i]);
    }
    used = strlen(seen->text);
    snprintf(seen->text + used, sizeof seen->text - used, ";");
    if (strcmp(name, "vcs") == 0 && strcmp(values[0], "0") == 0) {
        snprintf(err, err_len, "must be at least 1");
        return -1;
    }
    return 0;
}

/* One network YAML that must be refused, with ext, with exactly this message. */
static void ext_refused(const vimana_net_ext *ext, const char *text, const char *want)
{
    vimana_net_config net;
    char err[512];
    assert_int_equal(vimana_net_load_ext(write_file(text), ext, &net, err, sizeof err, NULL, NULL), -1);
    expect_error(err, want);
}

static void test_network_backend_extension(void **state)
{
    (void)state;
    static const char *const names[] = {"Torus2D", "Mesh"};
    static const char *const keys[] = {"vcs", "routing"};
    seen_keys seen = {""};
    vimana_net_ext ext = {names, 2, keys, 2, own_key, &seen};
    vimana_net_config net;
    char err[512];
    const char *f = write_file("topology: [ Mesh, Switch ]\nnpus_count: [ 16, 2 ]\nbandwidth: [ 50, 25 ]\n"
                               "latency: [ 500, 1000 ]\nvcs: 4\nrouting: [ xy, minimal ]\n");
    assert_int_equal(vimana_net_load_ext(f, &ext, &net, err, sizeof err, NULL, NULL), 0);
    assert_int_equal(net.n_dims, 2);
    assert_int_equal(net.total_npus, 32);
    assert_int_equal((int)net.dims[0].topology, VIMANA_NET_EXT_FIRST + 1);
    assert_int_equal(net.dims[1].topology, VIMANA_NET_SWITCH);
    assert_string_equal(seen.text, "vcs=4;routing=xy,minimal;");
    /* without the extension: the name is refused as before */
    assert_int_equal(vimana_net_load(f, &net, err, sizeof err, NULL, NULL), -1);
    expect_error(err, "Topology name Mesh not supported (expected Ring, FullyConnected or Switch)");
    /* an unknown name lists the backend's own */
    ext_refused(&ext, "topology: [ Dragonfly ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                "Topology name Dragonfly not supported (expected Ring, FullyConnected, Torus2D, Mesh or Switch)");
    /* the backend's refusal, with its line; a key twice; a nested value */
    ext_refused(&ext, "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\nvcs: 0\n",
                "line 5: vcs: must be at least 1");
    ext_refused(&ext, "topology: [ Ring ]\nvcs: 2\nvcs: 3\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n",
                "key 'vcs' given twice");
    const char *nested = "topology: [ Ring ]\nrouting: { a: 1 }\nnpus_count: [ 4 ]\nbandwidth: [ 1 ]\nlatency: [ 1 ]\n";
    ext_refused(&ext, nested, "line 2: 'routing' must be a list");
    /* a backend that would shadow a built-in name */
    static const char *const bad[] = {"Ring"};
    vimana_net_ext shadow = {bad, 1, NULL, 0, NULL, NULL};
    ext_refused(&shadow, nested, "the backend's own topology name 0 is missing or built in");
    unlink(path);
}

/* A latency or bandwidth whose smallest message is beyond 2^64 ns gave
 * 0-cycle answers (undefined float-to-integer casts); a typo in npus_count
 * ended in "out of memory"; a deep value of an unknown key took minutes. */
static void test_network_ranges(void **state)
{
    (void)state;
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: [1e-300]\nlatency: [500]\n",
                "bandwidth (1e-300) is too small: one byte would take more than 2^64-1 ns, the longest time Vimana "
                "can simulate");
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: [50]\nlatency: [1e300]\n",
                "latency (1e300) is too large: a message over the longest route (1 hop) would take more than 2^64-1 "
                "ns, the longest time Vimana can simulate");
    /* 4 hops on a ring of 8: 5e18 ns each is beyond 2^64 in all */
    net_refused("topology: [Ring]\nnpus_count: [8]\nbandwidth: [50]\nlatency: [5e18]\n",
                "latency (5e18) is too large: a message over the longest route (4 hops) would take more than 2^64-1 "
                "ns, the longest time Vimana can simulate");
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: [50]\nlatency: [.nan]\n",
                "latency[0]: expected a number, got '.nan'");
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: [1e308]\nlatency: [1]\n",
                "bandwidth (1e308) is too large: not a finite number of bytes per ns");
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: [inf]\nlatency: [1]\n",
                "bandwidth[0]: expected a number, got 'inf'");
    net_refused("topology: [Ring]\nnpus_count: [1000000000]\nbandwidth: [50]\nlatency: [500]\n",
                "npus_count: 1000000000 NPUs in all is more than the 1048576 Vimana supports");
    net_refused("topology: [Ring, Ring]\nnpus_count: [1024, 2048]\nbandwidth: [50, 50]\nlatency: [500, 500]\n",
                "npus_count: 2097152 NPUs in all is more than the 1048576 Vimana supports");
    net_refused("topology: [ \"Ri\\nng\" ]\nnpus_count: [ 2 ]\nbandwidth: [ 5 ]\nlatency: [ 1 ]\n",
                "Topology name Ri\\nng not supported (expected Ring, FullyConnected or Switch)");
    net_refused("topology: [Ring]\nnpus_count: [\"2\\t\"]\nbandwidth: [5]\nlatency: [1]\n",
                "npus_count[0]: expected a number, got '2\\t'");
    net_refused("topology: [Ring]\nnpus_count: [2]\nbandwidth: &b [5]\nlatency: *b\n",
                "line 4: 'latency': YAML aliases (*b) are not supported; write the values out");
    char deep[400] = "topology: [Ring]\nnpus_count: [2]\nbandwidth: [5]\nlatency: [1]\nx: ";
    for (int i = 0; i < 100; i++)
        strcat(deep, "[");
    net_refused(deep, "line 5: the value of key 'x' is nested deeper than 64 levels");
    vimana_net_config net;
    char err[512];
    assert_int_equal(load_net("topology: [Ring]\nnpus_count: [1048576]\nbandwidth: [1e-9]\nlatency: [1e12]\n"
                              "x: [[[[1]]]]\n", &net, err), 0);
    assert_int_equal(net.total_npus, 1048576);
}

/* ---- remote memory and communicator groups ------------------------------ */

/* One memory JSON that must be refused with exactly this message. */
static void mem_refused(const char *text, const char *want)
{
    mem_config m;
    char err[512];
    assert_int_equal(mem_config_load(write_file(text), &m, err, sizeof err), -1);
    expect_error(err, want);
    mem_config_free(&m);
    unlink(path);
}

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
    unlink(path);
    mem_refused("{\"memory-type\": \"CXL\"}", "Unsupported memory type: CXL");
}

/* Values beyond uint64 were cast unchecked; a missing key was taken as 0. */
static void test_memory_ranges(void **state)
{
    (void)state;
    mem_refused("{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", \"remote-mem-latency\": 1e25, \"remote-mem-bw\": 1}",
                "key 'remote-mem-latency': 1e25 is out of range (0 to 9007199254740991)");
    mem_refused("{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", \"remote-mem-latency\": 5, \"remote-mem-bw\": "
                "Infinity}", "line 1, column 87: key 'remote-mem-bw': Infinity is not a finite number");
    mem_refused("{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", \"remote-mem-latency\": 5, \"remote-mem-bw\": 1.5}",
                "key 'remote-mem-bw': expected a non-negative integer, got 1.5");
    mem_refused("{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", \"remote-mem-bw\": 5}",
                "key 'remote-mem-latency' is missing (required for PER_NPU_MEMORY_EXPANSION, in ns)");
    mem_refused("{\"memory-type\": \"MEMORY_POOL\", \"remote-mem-latency\": 5}",
                "key 'remote-mem-bw' is missing (required for MEMORY_POOL, in bytes per ns)");
    mem_refused("{\"memory-type\": \"PER_NODE_MEMORY_EXPANSION\", \"remote-mem-latency\": 5, \"remote-mem-bw\": 1}",
                "key 'num-npus-per-node' is missing (required for PER_NODE_MEMORY_EXPANSION, in NPUs per memory node)");
    mem_refused("{\"memory-type\": \"PER_NODE_MEMORY_EXPANSION\", \"num-npus-per-node\": 4294967296, "
                "\"remote-mem-latency\": 5, \"remote-mem-bw\": 1}",
                "key 'num-npus-per-node': 4294967296 is out of range (0 to 4294967295)");
    mem_refused("{\"memory-type\": \"X\\n\"}", "Unsupported memory type: X\\n");
    mem_refused("{\"memory-type\": \"NO_MEMORY_EXPANSION\", \"memory-type\": \"MEMORY_POOL\"}",
                "line 1, column 40: duplicate key 'memory-type' (first given at line 1, column 2)");
    mem_refused("", "line 1, column 1: expected a JSON object ('{'), got the end of the file");
    mem_config m;
    char err[512];
    assert_int_equal(mem_config_load(write_file("{\"memory-type\": \"NO_MEMORY_EXPANSION\"}"), &m, err, sizeof err),
                     0);
    assert_int_equal(m.type, MEM_NO_EXPANSION);
    mem_config_free(&m);
    unlink(path);
}

/* One groups JSON that must be refused (8 NPUs) with exactly this message. */
static void group_refused(const char *text, const char *want)
{
    comm_group_config g;
    char err[512];
    assert_int_equal(comm_group_config_load(write_file(text), 8, &g, err, sizeof err), -1);
    expect_error(err, want);
    comm_group_config_free(&g);
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
    unlink(path);
    group_refused("{\"0\": [0, 1]}", "group '0': ids must be greater than 0 (0 means all NPUs)");
    group_refused("{\"3\": [0, 9]}", "group 3: member 9 is not an NPU id in [0, 8)");
    group_refused("{\"3\": [1, 1]}", "group 3: NPU 1 listed twice");
}

/* A repeated group id silently kept the last list. */
static void test_comm_group_errors(void **state)
{
    (void)state;
    group_refused("{\"1\": [0,1,2,3], \"1\": [4,5,6,7]}", "line 1, column 18: duplicate key '1' (first given at line 1, column 2)");
    group_refused("{\"1\": [0, 1], \"01\": [2, 3]}",
                  "group '01': the key must be a decimal integer (digits only, no leading zero)");
    group_refused("{\"1\\n\": [0, 1]}", "group '1\\n': the key must be a decimal integer (digits only, no leading zero)");
    group_refused("{\"1\": []}", "group 1: expected a non-empty list of NPU ids");
    group_refused("{\"1\": [0, \"a\\nb\"]}", "group 1: member \"a\\nb\" is not an NPU id in [0, 8)");
    group_refused("{\"1\": [0, 1]} ]", "line 1, column 15: unexpected text after the end of the JSON object: ']'");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_system_tutorial),
    cmocka_unit_test(test_system_defaults),
    cmocka_unit_test(test_system_errors),
    cmocka_unit_test(test_system_strict_json),
    cmocka_unit_test(test_system_ranges),
    cmocka_unit_test(test_system_unknown_key_escaped),
    cmocka_unit_test(test_not_regular_files),
    cmocka_unit_test(test_per_node_map_aliases),
    cmocka_unit_test(test_per_node_map_errors),
    cmocka_unit_test(test_network_three_dims),
    cmocka_unit_test(test_network_errors),
    cmocka_unit_test(test_network_backend_extension),
    cmocka_unit_test(test_network_ranges),
    cmocka_unit_test(test_memory),
    cmocka_unit_test(test_memory_ranges),
    cmocka_unit_test(test_comm_group_errors),
    cmocka_unit_test(test_comm_groups)
)
