/* Unit tests: the tensors a trace's nodes name and an NPU's peak live
 * tensor bytes (core/workload/tensor_mem.c; docs/simulator.md, "Peak
 * tensor memory"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "workload/tensor_mem.h"
#include "workload/workload.h"

/* Node `id` naming `n_in` input and `n_out` output strings (name, size, ...). */
static const vet_node *node(vet_builder *b, uint64_t id, const char *const *in, size_t n_in,
                            const char *const *out, size_t n_out)
{
    vet_builder_reset(b, id, "n", VET_COMP_NODE);
    if (in) {
        vet_attr a = {.name = "inputs", .doc_string = "", .kind = VET_STRING_LIST, .v.list = {n_in, in}};
        vet_builder_add_attr(b, &a);
    }
    if (out) {
        vet_attr a = {.name = "outputs", .doc_string = "", .kind = VET_STRING_LIST, .v.list = {n_out, out}};
        vet_builder_add_attr(b, &a);
    }
    assert_false(vet_builder_failed(b));
    return vet_builder_node(b);
}

/* A finished NPU of `n` nodes with these tensor offsets and ticks. */
typedef struct fake_npu {
    wl_trace trace;
    wl_node nodes[8];
    wl_node_run live[8];
    workload w;
} fake_npu;

static void fake_init(fake_npu *f, const wl_tensors *t, uint32_t n, const uint32_t *io, const vimana_tick *start,
                      const vimana_tick *end, vimana_tick finish)
{
    memset(f, 0, sizeof *f);
    f->trace.tensors = *t;
    for (uint32_t i = 0; i < n; i++) {
        f->nodes[i].io = io[i];
        f->live[i] = (wl_node_run){.start = start[i], .end = end[i], .state = WL_DONE};
    }
    f->trace.nodes = f->nodes;
    f->trace.n_nodes = n;
    f->w = (workload){.trace = &f->trace, .nodes = f->nodes, .n_nodes = n, .live = f->live, .finished = true,
                      .finish_tick = finish};
}

/* The builder takes the node (its tensors' ids in *io). */
static void add_ok(wl_tensor_builder *tb, const vet_node *n, uint32_t *io)
{
    char err[256];
    assert_int_equal(wl_tensor_builder_add(tb, n, io, err, sizeof err), 0);
}

/* The peak of f's live tensors. */
static uint64_t peak_of(const fake_npu *f)
{
    uint64_t peak;
    assert_int_equal(wl_tensor_peak(&f->w, &peak), 0);
    return peak;
}

/* Node 0 [0, 100] writes a (10 B); node 1 [100, 200] reads a, writes b
 * (20 B); node 2 [200, 300] reads b. a lives [0, 200] (its reader ends at
 * 200), b [100, 300]: both over [100, 200], the peak is 30. */
static void test_chain(void **state)
{
    (void)state;
    vet_builder *vb = vet_builder_new();
    wl_tensor_builder *tb = wl_tensor_builder_new();
    uint32_t io[3];
    const char *w_a[] = {"a", "10"}, *w_b[] = {"b", "20"};
    add_ok(tb, node(vb, 0, NULL, 0, w_a, 2), &io[0]);
    add_ok(tb, node(vb, 1, w_a, 2, w_b, 2), &io[1]);
    add_ok(tb, node(vb, 2, w_b, 2, NULL, 0), &io[2]);
    wl_tensors t;
    wl_tensor_builder_finish(tb, &t);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.size[0], 10);
    assert_int_equal(t.size[1], 20);
    fake_npu f;
    const vimana_tick start[] = {0, 100, 200}, end[] = {100, 200, 300};
    fake_init(&f, &t, 3, io, start, end, 300);
    assert_int_equal(peak_of(&f), 30);
    /* node 2 reading b no more: b lives to the finish (300) all the same */
    uint32_t io_short[] = {io[0], io[1], 0};
    fake_init(&f, &t, 3, io_short, start, end, 300);
    assert_int_equal(peak_of(&f), 30);
    wl_tensors_free(&t);
    wl_tensor_builder_free(tb);
    vet_builder_free(vb);
}

/* A tensor ending at a tick is gone when another starts there: a [0, 100]
 * (10 B), b written at 100 (20 B) by a node that does not read a: the
 * sum stays 20, not 30. A read that ended before the write started does
 * not end the tensor: c written at 150, read by a node that ended at 120,
 * lives to the finish (400): with b (to its reader's end, 300) 20 + 40. */
static void test_same_tick_and_early_read(void **state)
{
    (void)state;
    vet_builder *vb = vet_builder_new();
    wl_tensor_builder *tb = wl_tensor_builder_new();
    uint32_t io[5];
    const char *a[] = {"a", "10"}, *b[] = {"b", "20"}, *c[] = {"c", "40"};
    add_ok(tb, node(vb, 0, NULL, 0, a, 2), &io[0]);
    add_ok(tb, node(vb, 1, a, 2, NULL, 0), &io[1]);
    add_ok(tb, node(vb, 2, NULL, 0, b, 2), &io[2]);
    add_ok(tb, node(vb, 3, c, 2, b, 0), &io[3]);
    add_ok(tb, node(vb, 4, b, 2, c, 2), &io[4]);
    wl_tensors t;
    wl_tensor_builder_finish(tb, &t);
    fake_npu f;
    /* node 0 [0, 50] writes a, node 1 [50, 100] reads it, node 2 [100, 110]
     * writes b, node 3 [110, 120] reads c, node 4 [150, 300] reads b and
     * writes c */
    const vimana_tick start[] = {0, 50, 100, 110, 150}, end[] = {50, 100, 110, 120, 300};
    fake_init(&f, &t, 5, io, start, end, 400);
    assert_int_equal(peak_of(&f), 60);
    wl_tensors_free(&t);
    wl_tensor_builder_free(tb);
    vet_builder_free(vb);
}

/* n tensors of 2^50 bytes written by one node: 16383 make 2^64 - 2^50
 * exactly, 16385 pass 2^64 and the peak saturates. */
static uint64_t peak_of_huge(int n)
{
    const char **out = calloc(2 * (size_t)n, sizeof *out);
    char *names = calloc((size_t)n, 8);
    assert_non_null(out);
    assert_non_null(names);
    for (int i = 0; i < n; i++) {
        snprintf(names + 8 * i, 8, "t%d", i);
        out[2 * i] = names + 8 * i;
        out[2 * i + 1] = "1125899906842624";
    }
    vet_builder *vb = vet_builder_new();
    wl_tensor_builder *tb = wl_tensor_builder_new();
    uint32_t io[1];
    add_ok(tb, node(vb, 0, NULL, 0, out, 2 * (size_t)n), &io[0]);
    wl_tensors t;
    wl_tensor_builder_finish(tb, &t);
    assert_int_equal(t.n, n);
    fake_npu f;
    const vimana_tick start[] = {0}, end[] = {10};
    fake_init(&f, &t, 1, io, start, end, 10);
    uint64_t peak;
    assert_int_equal(wl_tensor_peak(&f.w, &peak), 0);
    wl_tensors_free(&t);
    wl_tensor_builder_free(tb);
    vet_builder_free(vb);
    free(out);
    free(names);
    return peak;
}

static void test_saturates(void **state)
{
    (void)state;
    assert_true(peak_of_huge(16383) == (uint64_t)16383 << 50);
    assert_true(peak_of_huge(16385) == UINT64_MAX);
}

/* Each bad list: one line, no table. Tensors of 0 bytes are left out. */
static void test_errors(void **state)
{
    (void)state;
    vet_builder *vb = vet_builder_new();
    wl_tensor_builder *tb = wl_tensor_builder_new();
    char err[256];
    uint32_t io;
    const char *odd[] = {"a", "1", "b"};
    assert_int_equal(wl_tensor_builder_add(tb, node(vb, 0, odd, 3, NULL, 0), &io, err, sizeof err), -1);
    assert_string_equal(err, "attribute inputs: 3 strings, not tensor name and size pairs");
    const char *bad[] = {"a\n", "1e3"};
    assert_int_equal(wl_tensor_builder_add(tb, node(vb, 0, NULL, 0, bad, 2), &io, err, sizeof err), -1);
    assert_string_equal(err, "attribute outputs: tensor 'a\\n': size '1e3' is not a whole number of bytes up to 2^50");
    const char *zero[] = {"z", "0"};
    add_ok(tb, node(vb, 0, zero, 2, zero, 2), &io);
    assert_int_equal(io, 0);
    const char *twice[] = {"a", "4", "a", "4"};
    assert_int_equal(wl_tensor_builder_add(tb, node(vb, 0, NULL, 0, twice, 4), &io, err, sizeof err), -1);
    assert_string_equal(err, "attribute outputs: tensor 'a' is written more than once (by this node or an earlier one)");
    vet_builder_reset(vb, 0, "n", VET_COMP_NODE);
    vet_builder_attr_int64(vb, "outputs", 7);
    assert_int_equal(wl_tensor_builder_add(tb, vet_builder_node(vb), &io, err, sizeof err), -1);
    assert_string_equal(err, "attribute outputs must be a string list of tensor names and sizes");
    wl_tensor_builder_free(tb);
    vet_builder_free(vb);
}

/* Two traces' nodes name the same tensors when ids, sizes and directions
 * agree. */
static void test_same_io(void **state)
{
    (void)state;
    vet_builder *vb = vet_builder_new();
    wl_tensors t[3];
    uint32_t io[3];
    const char *sizes[] = {"8", "8", "16"};
    for (int k = 0; k < 3; k++) {
        wl_tensor_builder *tb = wl_tensor_builder_new();
        const char *x[] = {"x", sizes[k]};
        add_ok(tb, node(vb, 0, NULL, 0, x, 2), &io[k]);
        wl_tensor_builder_finish(tb, &t[k]);
        wl_tensor_builder_free(tb);
    }
    assert_true(wl_tensors_same_io(&t[0], io[0], &t[1], io[1]));
    assert_false(wl_tensors_same_io(&t[0], io[0], &t[2], io[2]));
    assert_false(wl_tensors_same_io(&t[0], io[0], &t[1], 0));
    assert_true(wl_tensors_same_io(&t[0], 0, &t[1], 0));
    for (int k = 0; k < 3; k++)
        wl_tensors_free(&t[k]);
    vet_builder_free(vb);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_chain),      cmocka_unit_test(test_same_tick_and_early_read),
    cmocka_unit_test(test_saturates),  cmocka_unit_test(test_errors),
    cmocka_unit_test(test_same_io)
)
