/* The PyTorch converter's stages on hand-made traces (tests/data/pytorch)
 * and on small in-memory traces. Every expectation below was derived by
 * hand from the reference algorithm (shared/spec/chakra-tools.md §7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "pytorch/pt_graph.h"
#include "pytorch/pt_sim.h"
#include "pytorch/pt_trace.h"
#include "pytorch/pt_write.h"
#include "vimana/et.h"

#ifndef VIMANA_TEST_DATA
#define VIMANA_TEST_DATA "tests/data/pytorch"
#endif

/* ---- what a converted file holds ---------------------------------------- */

typedef struct out_node {
    uint64_t id;
    int type;
    uint64_t duration;
    size_t n_data, n_ctrl;
    uint64_t data[8], ctrl[4];
    bool is_cpu_op;
    bool has_stream, has_comm_type, has_comm_size, has_pg_name, has_src, has_dst, has_tag;
    int64_t stream, comm_type, comm_size;
    int64_t comm_src, comm_dst, comm_tag;
    char pg_name[32];
    char in_values[256], in_shapes[128], in_types[128];
} out_node;

typedef struct out_et {
    char schema[64];
    uint64_t pid;
    size_t n;
    out_node nodes[64];
} out_et;

static const out_node *find(const out_et *et, uint64_t id)
{
    for (size_t k = 0; k < et->n; k++)
        if (et->nodes[k].id == id)
            return &et->nodes[k];
    return NULL;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

static void read_node(const vet_node *n, out_node *o)
{
    memset(o, 0, sizeof *o);
    o->id = n->id;
    o->type = n->type;
    o->duration = n->duration_micros;
    o->n_data = n->n_data_deps < 8 ? n->n_data_deps : 8;
    if (o->n_data)
        memcpy(o->data, n->data_deps, o->n_data * sizeof *o->data);
    o->n_ctrl = n->n_ctrl_deps < 4 ? n->n_ctrl_deps : 4;
    if (o->n_ctrl)
        memcpy(o->ctrl, n->ctrl_deps, o->n_ctrl * sizeof *o->ctrl);
    if (n->inputs) {
        copy_str(o->in_values, sizeof o->in_values, n->inputs->values);
        copy_str(o->in_shapes, sizeof o->in_shapes, n->inputs->shapes);
        copy_str(o->in_types, sizeof o->in_types, n->inputs->types);
    }
    const char *pg;
    bool cpu = false;
    assert_int_equal(vet_node_bool(n, "is_cpu_op", false, &cpu), VET_ATTR_OK);
    o->is_cpu_op = cpu;
    o->has_stream = vet_node_int64(n, "stream", 0, &o->stream) == VET_ATTR_OK;
    o->has_comm_type = vet_node_int64(n, "comm_type", 0, &o->comm_type) == VET_ATTR_OK;
    o->has_comm_size = vet_node_int64(n, "comm_size", 0, &o->comm_size) == VET_ATTR_OK;
    o->has_src = vet_node_int64(n, "comm_src", 0, &o->comm_src) == VET_ATTR_OK;
    o->has_dst = vet_node_int64(n, "comm_dst", 0, &o->comm_dst) == VET_ATTR_OK;
    o->has_tag = vet_node_int64(n, "comm_tag", 0, &o->comm_tag) == VET_ATTR_OK;
    o->has_pg_name = vet_node_string(n, "pg_name", "", &pg) == VET_ATTR_OK;
    copy_str(o->pg_name, sizeof o->pg_name, pg);
}

static void read_et(const char *path, out_et *et)
{
    vet_error verr;
    vet_reader *r = vet_reader_open(path, &verr);
    if (!r)
        fail_msg("%s", verr.msg);
    memset(et, 0, sizeof *et);
    const vet_metadata *md = vet_reader_metadata(r);
    const char *schema = "";
    for (size_t k = 0; k < md->n_attrs; k++) {
        if (strcmp(md->attrs[k].name, "schema") == 0)
            schema = md->attrs[k].v.s;
        if (strcmp(md->attrs[k].name, "pid") == 0)
            et->pid = md->attrs[k].v.u64;
    }
    copy_str(et->schema, sizeof et->schema, schema);
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &verr)) == 1) {
        assert_true(et->n < 64);
        read_node(n, &et->nodes[et->n++]);
    }
    assert_int_equal(rc, 0);
    vet_reader_close(r);
}

/* ---- running the stages ---------------------------------------------------- */

static const pt_options reference = {.sync_deps = false, .p2p_peers = false};
static const pt_options vimana = {.sync_deps = true, .p2p_peers = true};

typedef struct run_result {
    int rc;
    pt_error err;
    pt_sim_result sim;
    pt_stats stats;
    char warnings[1024];
} run_result;

static void collect_warning(void *ctx, const char *line)
{
    run_result *r = ctx;
    size_t len = strlen(r->warnings);
    snprintf(r->warnings + len, sizeof r->warnings - len, "%s\n", line);
}

static int run_stages(pt_trace *t, pt_options opt, out_et *et, run_result *r)
{
    pt_graph g;
    char path[] = "/tmp/vimana-pt-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int rc = pt_graph_init(&g, t, opt, &r->err);
    if (rc == 0) {
        if (pt_convert_nodes(&g, &r->err) != 0 ||
            (opt.p2p_peers && pt_derive_p2p(&g, collect_warning, r, &r->err) != 0) ||
            pt_add_data_deps(&g, &r->err) != 0 || pt_remove_dangling(&g, &r->err) != 0 ||
            pt_check_cycles(&g, &r->err) != 0 || pt_write_et(&g, path, &r->err) < 0 ||
            pt_simulate(&g, &r->sim, &r->err) != 0)
            rc = -1;
        r->stats = g.stats;
        pt_graph_free(&g);
    }
    if (rc == 0 && et)
        read_et(path, et);
    unlink(path);
    return rc;
}

/* Converts tests/data/pytorch/<name>. */
static run_result convert_file(const char *name, pt_options opt, out_et *et)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", VIMANA_TEST_DATA, name);
    run_result r;
    memset(&r, 0, sizeof r);
    pt_trace t;
    if (pt_trace_load(&t, path, &r.err) != 0) {
        r.rc = -1;
        return r;
    }
    r.rc = run_stages(&t, opt, et, &r);
    pt_trace_free(&t);
    return r;
}

/* convert_file, which must succeed (else the test fails with its message). */
static run_result convert_ok(const char *name, pt_options opt, out_et *et)
{
    run_result r = convert_file(name, opt, et);
    if (r.rc != 0)
        fail_msg("%s", r.err.msg);
    return r;
}

static run_result convert_text(const char *json, pt_options opt, out_et *et)
{
    run_result r;
    memset(&r, 0, sizeof r);
    pt_trace t;
    if (pt_trace_parse(&t, "mem.json", json, strlen(json), &r.err) != 0) {
        r.rc = -1;
        return r;
    }
    r.rc = run_stages(&t, opt, et, &r);
    pt_trace_free(&t);
    return r;
}

/* ---- checks ------------------------------------------------------------------ */

#define DEPS(...) ((const uint64_t[]){__VA_ARGS__}), (sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))
#define NO_DEPS NULL, 0

static void check_node(const out_et *et, uint64_t id, int type, const uint64_t *data, size_t n_data,
                       const uint64_t *ctrl, size_t n_ctrl, uint64_t duration)
{
    const out_node *n = find(et, id);
    if (!n)
        fail_msg("node %llu missing", (unsigned long long)id);
    assert_int_equal(n->type, type);
    assert_int_equal(n->n_data, n_data);
    for (size_t k = 0; k < n_data; k++)
        assert_true(n->data[k] == data[k]);
    assert_int_equal(n->n_ctrl, n_ctrl);
    for (size_t k = 0; k < n_ctrl; k++)
        assert_true(n->ctrl[k] == ctrl[k]);
    assert_true(n->duration == duration);
}

/* The data-parallel step (ddp_rank*.json, trace_link order = id order).
 * Thread 2 chains its CPU ops in pre-order; each GPU kernel depends on the
 * op just before it; thread 20's first op also depends on forward op 5
 * through inter_thread_dep; the process node 1 is dangling. */
static void check_ddp_graph(const out_et *et, bool sync)
{
    assert_int_equal(et->n, 19);
    assert_null(find(et, 1));
    check_node(et, 2, VET_COMP_NODE, NO_DEPS, DEPS(1), 0);
    check_node(et, 3, VET_METADATA_NODE, DEPS(2), DEPS(2), 0);
    check_node(et, 4, VET_COMP_NODE, DEPS(3), DEPS(2), 0);
    check_node(et, 5, VET_COMP_NODE, DEPS(4), DEPS(4), 10);
    check_node(et, 6, VET_COMP_NODE, DEPS(5), DEPS(5), 42); /* int(42.7) */
    check_node(et, 7, VET_COMP_NODE, DEPS(5), DEPS(4), 3);
    check_node(et, 8, VET_COMP_NODE, DEPS(7), DEPS(7), 5);
    check_node(et, 9, VET_COMP_NODE, DEPS(7), DEPS(4), 0);
    check_node(et, 10, VET_COMP_NODE, DEPS(9), DEPS(9), 0);
    check_node(et, 11, VET_COMP_NODE, DEPS(10), DEPS(10), 0);
    check_node(et, 12, VET_COMM_COLL_NODE, DEPS(11), DEPS(11), 120);
    if (sync) /* sync_dep 12 -> 13: ts 1200 < 1300 */
        check_node(et, 13, VET_COMP_NODE, DEPS(11, 12), DEPS(4), 0); /* Optimizer.step: 0 */
    else
        check_node(et, 13, VET_COMP_NODE, DEPS(11), DEPS(4), 0);
    check_node(et, 14, VET_COMP_NODE, DEPS(13), DEPS(13), 2);
    check_node(et, 15, VET_COMM_COLL_NODE, DEPS(14), DEPS(14), 80); /* sync_dep 16 is later: ignored */
    check_node(et, 16, VET_COMP_NODE, DEPS(14), DEPS(4), 1);
    check_node(et, 20, VET_COMP_NODE, NO_DEPS, DEPS(1), 0);
    check_node(et, 21, VET_COMP_NODE, DEPS(5, 20), DEPS(20), 4);
    check_node(et, 22, VET_COMP_NODE, DEPS(21), DEPS(21), 6);
    check_node(et, 23, VET_COMP_NODE, DEPS(22), DEPS(22), 30);

    const out_node *ar = find(et, 12), *bc = find(et, 15), *mm = find(et, 6), *cpu = find(et, 5);
    assert_false(ar->is_cpu_op);
    assert_true(ar->has_comm_type && ar->comm_type == VET_ALL_REDUCE);
    assert_true(ar->has_comm_size && ar->comm_size == 1024 * 4);
    assert_true(ar->has_pg_name);
    assert_string_equal(ar->pg_name, "0");
    assert_true(ar->has_stream && ar->stream == 20);
    assert_true(bc->comm_type == VET_BROADCAST);
    assert_true(bc->comm_size == 53 * 8 + 10 * 8); /* GenericList[Tensor] summed */
    assert_false(bc->has_pg_name);
    assert_false(mm->is_cpu_op);
    assert_false(mm->has_comm_type);
    assert_true(mm->has_stream && mm->stream == 7);
    assert_true(cpu->is_cpu_op);
    assert_true(cpu->has_stream && cpu->stream == 0); /* absent stream defaults to 0 */
    assert_string_equal(find(et, 3)->in_types, "['String']");
}

static void ddp_rank0_graph_and_comm_fields(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_ok("ddp_rank0.json", vimana, &et);
    assert_string_equal(et.schema, "1.1.0-chakra.0.0.4");
    assert_true(et.pid == 4242);
    check_ddp_graph(&et, true);
    assert_int_equal(r.stats.sync_added, 1);
    assert_int_equal(r.stats.sync_skipped, 1);
    const out_node *lin = find(&et, 5);
    assert_string_equal(lin->in_values, "[[40, 41, 0, 8192, 4, 'cuda:0'], [42, 43, 0, 4096, 4, 'cuda:0'], None, 1e-05]");
    assert_string_equal(lin->in_shapes, "[[64, 128], [32, 128], [], []]");
    assert_string_equal(lin->in_types, "['Tensor(float)', 'Tensor(float)', 'None', 'Double']");
}

static void ddp_rank0_reference_mode_ignores_sync_deps(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_ok("ddp_rank0.json", reference, &et);
    check_ddp_graph(&et, false);
    assert_int_equal(r.stats.sync_added, 0);
}

static void ddp_rank1_matches_rank0_collectives(void **state)
{
    (void)state;
    out_et et;
    convert_ok("ddp_rank1.json", vimana, &et);
    assert_true(et.pid == 4243);
    check_ddp_graph(&et, true);
    assert_string_equal(find(&et, 5)->in_values,
                        "[[40, 41, 0, 8192, 4, 'cuda:1'], [42, 43, 0, 4096, 4, 'cuda:1'], None, 1e-05]");
}

/* simulate.json: A (10 us) launches K1 (stream 7, 100 us); B (5 us)
 * launches K2 (stream 7, 50 us) and K3 (stream 9, 20 us). Issue times: root
 * 0, A 1, K1 2, B 11, K3 12; K2 waits for stream 7 until K1 ends at 102 and
 * ends at 152. */
static void simulate_follows_the_reference_schedule(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_ok("simulate.json", reference, &et);
    assert_true(r.sim.end_us == 152);
    assert_int_equal(r.sim.cpu_nodes, 3);
    assert_int_equal(r.sim.gpu_nodes, 3);
    assert_int_equal(r.sim.streams, 2);
    check_node(&et, 7, VET_COMP_NODE, DEPS(5), DEPS(5), 20);
}

/* p2p_rank0.json: rank 0 of 4. Sends to rank 1 (group "0", strided) get
 * tags 0 and 1; the receive in group "1" = ranks [2, 0] from local rank 0
 * comes from global rank 2; the own rank 0 comes from the all-reduce's
 * record_param_comms. The last receive has no record_param_comms above it. */
static void p2p_nodes_get_peers_and_tags(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_ok("p2p_rank0.json", vimana, &et);
    assert_string_equal(et.schema, "1.1.1-chakra.1.0.0");
    const out_node *s1 = find(&et, 10), *s2 = find(&et, 14), *r1 = find(&et, 17), *r2 = find(&et, 20);
    assert_int_equal(s1->type, VET_COMM_SEND_NODE);
    assert_int_equal(s2->type, VET_COMM_SEND_NODE);
    assert_int_equal(r1->type, VET_COMM_RECV_NODE);
    assert_int_equal(r2->type, VET_COMM_RECV_NODE);
    assert_true(s1->has_src && s1->comm_src == 0 && s1->has_dst && s1->comm_dst == 1 && s1->comm_tag == 0);
    assert_true(s2->has_src && s2->comm_src == 0 && s2->has_dst && s2->comm_dst == 1 && s2->comm_tag == 1);
    assert_true(r1->has_src && r1->comm_src == 2 && r1->has_dst && r1->comm_dst == 0 && r1->has_tag && r1->comm_tag == 0);
    assert_false(r2->has_src || r2->has_dst || r2->has_tag);
    assert_true(s1->comm_size == 1024 && s2->comm_size == 512 && r1->comm_size == 256 && r2->comm_size == 128);
    assert_false(s1->has_comm_type);
    assert_true(s1->has_pg_name); /* inherited from record_param_comms */
    assert_string_equal(s1->pg_name, "0");
    assert_false(s2->has_pg_name);
    assert_int_equal(r.stats.p2p_derived, 3);
    assert_int_equal(r.stats.p2p_unresolved, 1);
    assert_string_equal(r.warnings,
                        VIMANA_TEST_DATA "/p2p_rank0.json: node 20 (ncclDevKernel_SendRecv): RECV node written without "
                                         "comm_src/comm_dst/comm_tag: no record_param_comms op above the kernel\n");
    check_node(&et, 20, VET_COMM_RECV_NODE, DEPS(19), DEPS(19), 5);
    check_node(&et, 2, VET_COMP_NODE, NO_DEPS, NO_DEPS, 0); /* parent 1 comes later in the file */
    assert_null(find(&et, 1));
}

static void p2p_reference_mode_writes_no_peers(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_ok("p2p_rank0.json", reference, &et);
    for (size_t k = 0; k < et.n; k++)
        assert_false(et.nodes[k].has_src || et.nodes[k].has_dst || et.nodes[k].has_tag);
    assert_string_equal(r.warnings, "");
}

static void cycles_are_reported_with_ids_and_names(void **state)
{
    (void)state;
    run_result r = convert_file("cycle.json", vimana, NULL);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, VIMANA_TEST_DATA
                        "/cycle.json: cyclic data dependency: 3 (aten::a) -> 4 (aten::b) -> 3 (aten::a)");
}

/* ---- in-memory traces ------------------------------------------------------- */

#define ATTRS(rf) "\"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": " #rf "}, " \
    "{\"name\": \"fw_parent\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"seq_id\", \"type\": \"int64\", \"value\": -1}, " \
    "{\"name\": \"scope\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"tid\", \"type\": \"uint64\", \"value\": 1}, " \
    "{\"name\": \"fw_tid\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"op_schema\", \"type\": \"string\", \"value\": \"\"}"
#define IO "\"inputs\": {\"values\": [], \"shapes\": [], \"types\": []}, \"outputs\": {\"values\": [], \"shapes\": [], \"types\": []}"
#define NODE(id, name, parent, extra) \
    "{\"id\": " #id ", \"name\": \"" name "\", \"ctrl_deps\": " #parent ", " IO ", " ATTRS(id) "]" extra "}"
#define TRACE(schema, nodes) \
    "{\"schema\": \"" schema "\", \"pid\": 7, \"time\": \"t\", \"start_ts\": 1, \"nodes\": [" nodes "], \"finish_ts\": 2}"
#define THREAD NODE(2, "[pytorch|profiler|execution_trace|thread]", 1, "")

static void expect_error(const char *json, const char *want)
{
    run_result r = convert_text(json, vimana, NULL);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.err.msg, want);
}

static void host_order_gives_ctrl_deps_only_to_converted_parents(void **state)
{
    (void)state;
    out_et et;
    /* exit order: children first, so only the GPU child (emitted right
     * after its parent) gets a ctrl_dep */
    run_result r = convert_text(TRACE("1.0.2-chakra.0.0.4",
                                      NODE(4, "aten::b", 3, "") ", "
                                      NODE(5, "k", 3, ", \"cat\": \"kernel\", \"stream\": null, \"exclusive_dur\": 2.9") ", "
                                      NODE(3, "aten::a", 2, ", \"exclusive_dur\": 7") ", " THREAD),
                                reference, &et);
    assert_int_equal(r.rc, 0);
    check_node(&et, 2, VET_COMP_NODE, NO_DEPS, NO_DEPS, 0);
    check_node(&et, 3, VET_COMP_NODE, DEPS(2), NO_DEPS, 7);
    check_node(&et, 4, VET_COMP_NODE, DEPS(3), NO_DEPS, 0);
    check_node(&et, 5, VET_COMP_NODE, DEPS(4), DEPS(3), 2); /* visited after 4 (ids ascending) */
    assert_false(find(&et, 5)->has_stream); /* "stream": null: no attribute */
    assert_false(find(&et, 5)->is_cpu_op);
}

static void gpu_ops_are_emitted_only_through_cpu_parents(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_text(TRACE("1.1.1-chakra.0.0.4",
                                      THREAD ", " NODE(3, "aten::a", 2, "") ", "
                                      NODE(4, "k1", 3, ", \"cat\": \"kernel\"") ", "
                                      NODE(5, "k2", 4, ", \"cat\": \"kernel\"") ", "
                                      NODE(6, "k3", 99, ", \"cat\": \"kernel\"")),
                                reference, &et);
    assert_int_equal(r.rc, 0);
    assert_int_equal(et.n, 3);
    assert_null(find(&et, 5)); /* child of a GPU op */
    assert_null(find(&et, 6)); /* parent unknown */
}

static void attrs_override_node_keys(void **state)
{
    (void)state;
    out_et et;
    run_result r = convert_text(TRACE("1.1.0-chakra.0.0.4",
                                      THREAD ", " NODE(3, "aten::a", 2, "") ", "
                                      "{\"id\": 4, \"name\": \"ncclDevKernel_AllGather\", \"ctrl_deps\": 3, \"cat\": \"kernel\", "
                                      "\"pg_name\": \"top\", " IO ", " ATTRS(4) ", {\"name\": \"pg_name\", \"value\": \"7\"}, "
                                      "{\"name\": \"stream\", \"value\": 5}]}"),
                                reference, &et);
    assert_int_equal(r.rc, 0);
    const out_node *k = find(&et, 4);
    assert_int_equal(k->type, VET_COMM_COLL_NODE);
    assert_true(k->comm_type == VET_ALL_GATHER && k->comm_size == 0);
    assert_string_equal(k->pg_name, "7");
    assert_true(k->stream == 5);
}

static void schema_errors_are_one_line(void **state)
{
    (void)state;
    expect_error(TRACE("1.0.1", ""),
                 "mem.json: unsupported schema version '1.0.1' (the old flat host-trace format, which the reference "
                 "converter rejects too; supported: 1.0.2-chakra.0.0.4, 1.0.3-chakra.0.0.4, 1.1.0-chakra.0.0.4, "
                 "1.1.1-chakra.0.0.4, 1.1.1-chakra.1.0.0)");
    expect_error(TRACE("2.0.0-chakra.1.0.0", ""),
                 "mem.json: unsupported schema version '2.0.0-chakra.1.0.0' (supported: 1.0.2-chakra.0.0.4, "
                 "1.0.3-chakra.0.0.4, 1.1.0-chakra.0.0.4, 1.1.1-chakra.0.0.4, 1.1.1-chakra.1.0.0)");
    expect_error("{\"schema\": \"1.0.2-chakra.0.0.4\", \"pid\": 1, \"time\": \"t\", \"start_ts\": 1, \"nodes\": []}",
                 "mem.json: missing top-level key 'finish_ts'");
    expect_error("{\"schema\": \"1.0.2-chakra.0.0.4\", \"pid\": -1, \"time\": \"t\", \"start_ts\": 1, \"nodes\": [], "
                 "\"finish_ts\": 2}",
                 "mem.json: top-level 'pid' must be a non-negative integer");
    expect_error("[]", "mem.json: the top level must be a JSON object, got list");
}

static void node_errors_name_the_node(void **state)
{
    (void)state;
    expect_error(TRACE("1.0.2-chakra.0.0.4", THREAD ", {\"id\": 3, \"name\": \"x\", " IO "}"),
                 "mem.json: nodes[1]: missing key 'ctrl_deps'");
    expect_error(TRACE("1.0.2-chakra.0.0.4", THREAD ", " THREAD),
                 "mem.json: node id 2 appears twice (nodes[0] and nodes[1])");
    expect_error(TRACE("1.0.2-chakra.0.0.4", "{\"id\": \"3\"}"), "mem.json: nodes[0]: 'id' must be a non-negative integer");
    expect_error(TRACE("1.0.2-chakra.0.0.4",
                       THREAD ", {\"id\": 3, \"name\": \"a\", \"ctrl_deps\": 2, " IO ", \"attrs\": []}"),
                 "mem.json: node 3 (a): 'rf_id' must be an integer attribute in the int64 range, got nothing");
    expect_error(TRACE("1.0.2-chakra.0.0.4", THREAD ", " NODE(3, "a", 2, ", \"exclusive_dur\": -2")),
                 "mem.json: node 3 (a): 'exclusive_dur' must be a number of microseconds >= 0, got int");
    expect_error(TRACE("1.0.2-chakra.0.0.4", THREAD ", " NODE(3, "a", 2, "") ", "
                       NODE(4, "ncclDevKernel_Barrier", 3, ", \"cat\": \"kernel\"")),
                 "mem.json: node 4 (ncclDevKernel_Barrier): cannot tell the collective type from the kernel name "
                 "(expected allreduce, alltoall, allgather, reducescatter or broadcast in it)");
    expect_error(TRACE("1.0.2-chakra.0.0.4", THREAD ", " NODE(3, "a", 2, ", \"inter_thread_dep\": 77")),
                 "mem.json: node 3 (a): depends on node 77, which is not in the converted trace");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(ddp_rank0_graph_and_comm_fields),
    cmocka_unit_test(ddp_rank0_reference_mode_ignores_sync_deps),
    cmocka_unit_test(ddp_rank1_matches_rank0_collectives),
    cmocka_unit_test(simulate_follows_the_reference_schedule),
    cmocka_unit_test(p2p_nodes_get_peers_and_tags),
    cmocka_unit_test(p2p_reference_mode_writes_no_peers),
    cmocka_unit_test(cycles_are_reported_with_ids_and_names),
    cmocka_unit_test(host_order_gives_ctrl_deps_only_to_converted_parents),
    cmocka_unit_test(gpu_ops_are_emitted_only_through_cpu_parents),
    cmocka_unit_test(attrs_override_node_keys),
    cmocka_unit_test(schema_errors_are_one_line),
    cmocka_unit_test(node_errors_name_the_node)
)
