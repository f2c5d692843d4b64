/*
 * Unit tests of core/trace: the trace loader shared by workload and
 * custom-collective traces (node order, records kept with their nodes,
 * child lists, every refusal with its details) and the ready set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "et_test_util.h"
#include "trace/ready_set.h"
#include "trace/trace_graph.h"
#include "vimana/et.h"

/* ---- building test traces ------------------------------------------------ */

/* One node of a test trace: deps end at 0 (ids in tests start at 1). */
typedef struct spec {
    uint64_t id;
    uint64_t duration;
    uint64_t data[4];
    uint64_t ctrl[4];
} spec;

/* Writes the nodes in the given (file) order; returns the path. */
static char *write_trace(const spec *nodes, size_t n)
{
    char *path = tu_temp_path(".et");
    vet_error err;
    vet_writer *w = vet_writer_open(path, &err);
    assert_non_null(w);
    vet_builder *b = vet_builder_new();
    vet_builder_reset(b, 0, "0.0.4", 0);
    assert_int_equal(vet_writer_put_metadata(w, vet_builder_metadata(b), &err), 0);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "n%llu", (unsigned long long)nodes[i].id);
        vet_builder_reset(b, nodes[i].id, name, VET_COMP_NODE);
        vet_builder_set_duration(b, nodes[i].duration);
        for (int k = 0; k < 4 && nodes[i].data[k]; k++)
            vet_builder_add_data_dep(b, nodes[i].data[k]);
        for (int k = 0; k < 4 && nodes[i].ctrl[k]; k++)
            vet_builder_add_ctrl_dep(b, nodes[i].ctrl[k]);
        assert_int_equal(vet_writer_put_node(w, vet_builder_node(b), &err), 0);
    }
    vet_builder_free(b);
    assert_int_equal(vet_writer_close(w, &err), 0);
    return path;
}

/* The caller's record in these tests: the node's duration and the order
 * in which the file gave it. */
typedef struct record {
    uint64_t duration;
    uint32_t file_order;
    char pad[44];          /* records are opaque blocks of any size */
} record;

typedef struct reader {
    uint32_t seen;
    uint32_t refuse_at;    /* refuse the node read in this position (1-based), 0: none */
} reader;

static int read_record(void *ctx, const vet_node *n, void *out)
{
    reader *r = ctx;
    record *rec = out;
    if (++r->seen == r->refuse_at)
        return -1;
    memset(rec, 0, sizeof *rec);
    rec->duration = n->duration_micros;
    rec->file_order = r->seen - 1;
    return 0;
}

/* Loads a trace written from `nodes`; returns the status. */
static enum trace_status load(const spec *nodes, size_t n, bool drop, trace_graph *g, trace_error *err)
{
    char *path = write_trace(nodes, n);
    reader r = {0, 0};
    trace_graph_init(g, sizeof(record));
    int rc = trace_graph_read(g, path, read_record, &r, err);
    if (rc == 0)
        rc = trace_graph_link(g, drop, err);
    unlink(path);
    free(path);
    assert_int_equal(rc == 0, err->status == TRACE_OK);
    return err->status;
}

static void assert_children(const trace_graph *g, uint32_t node, const uint32_t *want, uint32_t n)
{
    assert_int_equal(g->n_children[node], n);
    for (uint32_t k = 0; k < n; k++)
        assert_int_equal(g->children[g->child_start[node] + k], want[k]);
}

/* ---- the graph ----------------------------------------------------------- */

static void nodes_sorted_with_their_records(void **state)
{
    (void)state;
    /* written out of id order; 30 names 10 as a data and a control parent */
    const spec nodes[] = {
        {.id = 30, .duration = 300, .data = {10, 20}, .ctrl = {10}},
        {.id = 10, .duration = 100},
        {.id = 40, .duration = 400, .ctrl = {10}},
        {.id = 20, .duration = 200, .data = {10}},
    };
    trace_graph g;
    trace_error err;
    assert_int_equal(load(nodes, 4, false, &g, &err), TRACE_OK);
    assert_int_equal(g.n_nodes, 4);
    const uint64_t ids[] = {10, 20, 30, 40};
    const uint32_t file_order[] = {1, 3, 0, 2};
    const record *recs = g.records;
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(g.ids[i], ids[i]);
        assert_int_equal(recs[i].duration, ids[i] * 10);
        assert_int_equal(recs[i].file_order, file_order[i]);
    }
    assert_children(&g, 0, (const uint32_t[]){1, 2, 3}, 3);
    assert_children(&g, 1, (const uint32_t[]){2}, 1);
    assert_children(&g, 2, NULL, 0);
    assert_children(&g, 3, NULL, 0);
    const uint32_t parents[] = {0, 1, 2, 1};
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(g.n_parents[i], parents[i]);
    assert_int_equal(g.dropped_deps, 0);
    assert_null(g.deps);
    trace_graph_free(&g);
}

/* A longer permutation (several cycles) keeps every record with its id. */
static void records_follow_a_long_permutation(void **state)
{
    (void)state;
    enum { N = 1000 };
    spec *nodes = calloc(N, sizeof *nodes);
    assert_non_null(nodes);
    for (uint32_t i = 0; i < N; i++) {
        nodes[i].id = 1 + (i * 7919u) % N; /* 7919 is prime: a permutation of 1..N */
        nodes[i].duration = nodes[i].id * 3;
    }
    trace_graph g;
    trace_error err;
    assert_int_equal(load(nodes, N, false, &g, &err), TRACE_OK);
    const record *recs = g.records;
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(g.ids[i], i + 1);
        assert_int_equal(recs[i].duration, (i + 1) * 3);
        assert_int_equal(nodes[recs[i].file_order].id, i + 1);
    }
    trace_graph_free(&g);
    free(nodes);
}

static void find_dense_and_sparse_ids(void **state)
{
    (void)state;
    const spec dense[] = {{.id = 5}, {.id = 6}, {.id = 7}};
    const spec sparse[] = {{.id = 3}, {.id = 1000}, {.id = 1u << 31}, {.id = UINT64_MAX}};
    trace_graph g;
    trace_error err;
    assert_int_equal(load(dense, 3, false, &g, &err), TRACE_OK);
    assert_int_equal(trace_graph_find(&g, 5), 0);
    assert_int_equal(trace_graph_find(&g, 7), 2);
    assert_int_equal(trace_graph_find(&g, 4), -1);
    assert_int_equal(trace_graph_find(&g, 8), -1);
    trace_graph_free(&g);
    assert_int_equal(load(sparse, 4, false, &g, &err), TRACE_OK);
    assert_int_equal(trace_graph_find(&g, 3), 0);
    assert_int_equal(trace_graph_find(&g, 1000), 1);
    assert_int_equal(trace_graph_find(&g, 1u << 31), 2);
    assert_int_equal(trace_graph_find(&g, UINT64_MAX), 3);
    assert_int_equal(trace_graph_find(&g, 4), -1);
    assert_int_equal(trace_graph_find(&g, 0), -1);
    trace_graph_free(&g);
}

static void empty_trace_refused(void **state)
{
    (void)state;
    trace_graph g;
    trace_error err;
    assert_int_equal(load(NULL, 0, false, &g, &err), TRACE_EMPTY);
    trace_graph_free(&g);
}

/* The nodes' graph is refused with rc; returns what the error names. */
static trace_error load_refused(const spec *nodes, size_t n, int rc)
{
    trace_graph g;
    trace_error err;
    assert_int_equal(load(nodes, n, false, &g, &err), rc);
    trace_graph_free(&g);
    return err;
}

static void duplicate_id_refused(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 4}, {.id = 9}, {.id = 2}, {.id = 9}};
    trace_error err = load_refused(nodes, 4, TRACE_DUPLICATE_ID);
    assert_int_equal(err.id, 9);
}

/* The first dependency on an absent id in file order is reported, with the
 * child's index in id order. */
static void missing_parent_refused(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 8, .data = {1}}, {.id = 3, .data = {1, 77}}, {.id = 1, .ctrl = {55}}};
    trace_error err = load_refused(nodes, 3, TRACE_MISSING_PARENT);
    assert_int_equal(err.id, 3);
    assert_int_equal(err.parent_id, 77);
    assert_int_equal(err.node, 1);
}

static void missing_parents_dropped_on_request(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 8, .data = {1}}, {.id = 3, .data = {1, 77}}, {.id = 1, .ctrl = {55}}};
    trace_graph g;
    trace_error err;
    assert_int_equal(load(nodes, 3, true, &g, &err), TRACE_OK);
    assert_int_equal(g.dropped_deps, 2);
    assert_children(&g, 0, (const uint32_t[]){1, 2}, 2);
    assert_int_equal(g.n_parents[0], 0);
    assert_int_equal(g.n_parents[1], 1);
    trace_graph_free(&g);
}

static void cycle_refused_in_execution_order(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 1, .data = {3}}, {.id = 2, .data = {1}}, {.id = 3, .ctrl = {2}}, {.id = 9}};
    trace_error err = load_refused(nodes, 4, TRACE_CYCLE);
    assert_string_equal(err.text, "1 -> 2 -> 3 -> 1");
}

static void self_loop_refused(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 1}, {.id = 4, .data = {1, 4}}};
    trace_error err = load_refused(nodes, 2, TRACE_CYCLE);
    assert_string_equal(err.text, "4 -> 4");
}

static void refused_node_stops_reading(void **state)
{
    (void)state;
    const spec nodes[] = {{.id = 1}, {.id = 2}, {.id = 3}};
    char *path = write_trace(nodes, 3);
    trace_graph g;
    trace_error err;
    reader r = {0, 2};
    trace_graph_init(&g, sizeof(record));
    assert_int_equal(trace_graph_read(&g, path, read_record, &r, &err), -1);
    assert_int_equal(err.status, TRACE_NODE_REFUSED);
    assert_int_equal(r.seen, 2);
    assert_int_equal(g.n_nodes, 1);
    trace_graph_free(&g);
    unlink(path);
    free(path);
}

static void unreadable_files_refused_with_the_reader_message(void **state)
{
    (void)state;
    trace_graph g;
    trace_error err;
    reader r = {0, 0};
    trace_graph_init(&g, sizeof(record));
    assert_int_equal(trace_graph_read(&g, "/nonexistent/t.0.et", read_record, &r, &err), -1);
    assert_int_equal(err.status, TRACE_OPEN_FAILED);
    assert_string_equal(err.text, "/nonexistent/t.0.et: cannot open: No such file or directory");
    trace_graph_free(&g);

    /* a file cut inside its second node */
    const spec nodes[] = {{.id = 1, .duration = 5}, {.id = 2, .duration = 6}};
    char *path = write_trace(nodes, 2);
    size_t len;
    uint8_t *bytes = tu_read_file(path, &len);
    assert_non_null(bytes);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len - 3, f), len - 3);
    fclose(f);
    trace_graph_init(&g, sizeof(record));
    assert_int_equal(trace_graph_read(&g, path, read_record, &r, &err), -1);
    assert_int_equal(err.status, TRACE_READ_FAILED);
    char want[300];
    snprintf(want, sizeof want, "%s: record 2 (byte offset 19): truncated record: length says 10 bytes but only 7 remain", path);
    assert_string_equal(err.text, want);
    assert_int_equal(g.n_nodes, 1);
    trace_graph_free(&g);
    unlink(path);
    free(path);
    free(bytes);
}

/* ---- the ready set ------------------------------------------------------- */

static void ready_set_pops_in_index_order(void **state)
{
    (void)state;
    ready_set r = {0};
    const uint32_t in[] = {42, 7, 19, 3, 99, 7, 0, 64, 18, 5, 77, 1, 2, 50, 33, 8, 21, 60};
    size_t n = sizeof in / sizeof in[0];
    for (size_t i = 0; i < n; i++)
        assert_true(ready_set_push(&r, in[i]));
    assert_int_equal(r.len, n);
    assert_int_equal(r.cap, 32); /* 16, then doubled once */
    const uint32_t out[] = {0, 1, 2, 3, 5, 7, 7, 8, 18, 19, 21, 33, 42, 50, 60, 64, 77, 99};
    for (size_t i = 0; i < n; i++) {
        assert_false(ready_set_empty(&r));
        assert_int_equal(ready_set_min(&r), out[i]);
        assert_int_equal(ready_set_pop(&r), out[i]);
    }
    assert_true(ready_set_empty(&r));
    ready_set_free(&r);
    assert_null(r.items);
}

/* Pushes between pops (children freed by a completion) still come out
 * lowest first, checked against a plain presence table; a reserved set
 * never reallocates. */
static void ready_set_interleaved_without_allocation(void **state)
{
    (void)state;
    enum { N = 5000 };
    ready_set r = {0};
    bool *present = calloc(N, sizeof *present);
    assert_non_null(present);
    assert_true(ready_set_reserve(&r, N));
    const uint32_t *items = r.items;
    uint32_t lowest = 0, popped = 0;
    for (uint32_t i = 0; i < N || !ready_set_empty(&r); i++) {
        if (i < N) {
            uint32_t v = (i * 2749u) % N; /* 2749 is prime: every index once, scrambled */
            present[v] = true;
            assert_true(ready_set_push(&r, v));
        }
        if (i % 3 != 2 && i < N)
            continue;
        for (lowest = 0; !present[lowest]; lowest++)
            ;
        assert_int_equal(ready_set_pop(&r), lowest);
        present[lowest] = false;
        popped++;
    }
    assert_int_equal(popped, N);
    assert_ptr_equal(r.items, items);
    assert_int_equal(r.cap, N);
    ready_set_free(&r);
    free(present);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(nodes_sorted_with_their_records),
    cmocka_unit_test(records_follow_a_long_permutation),
    cmocka_unit_test(find_dense_and_sparse_ids),
    cmocka_unit_test(empty_trace_refused),
    cmocka_unit_test(duplicate_id_refused),
    cmocka_unit_test(missing_parent_refused),
    cmocka_unit_test(missing_parents_dropped_on_request),
    cmocka_unit_test(cycle_refused_in_execution_order),
    cmocka_unit_test(self_loop_refused),
    cmocka_unit_test(refused_node_stops_reading),
    cmocka_unit_test(unreadable_files_refused_with_the_reader_message),
    cmocka_unit_test(ready_set_pops_in_index_order),
    cmocka_unit_test(ready_set_interleaved_without_allocation)
)
