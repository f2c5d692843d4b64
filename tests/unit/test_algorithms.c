/* Step structure of every collective algorithm on small rings: who sends
 * to whom, how many bytes, in which order (shared/spec/simulator.md
 * sections 13.3 - 13.9), through the real system layer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "sim_harness.h"
#include "system/algorithms/algorithm.h"

#define TAG0 500000000u

typedef struct expect {
    uint32_t dst;
    uint64_t bytes;
} expect;

/* NPU npu sent exactly these messages, in this order. */
static void check_sends(const harness *h, uint32_t npu, const expect *want, uint32_t n)
{
    sent_msg got[64];
    uint32_t k = harness_sent_by(h, npu, got, 64);
    assert_int_equal(k, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(got[i].dst, want[i].dst);
        assert_int_equal(got[i].bytes, want[i].bytes);
    }
}

/* npus NPUs in one dimension, every collective by algo in splits chunks. */
static void one_dim(harness *h, uint32_t npus, const char *algo, uint64_t splits)
{
    uint32_t dims[] = {npus};
    const char *impl[] = {algo};
    harness_init(h, dims, 1, impl, 1, splits, 1);
}

/* One collective of 4096 bytes by algo on npus NPUs in one dimension: NPU
 * npu sends exactly want. */
static void run_on(const char *algo, uint32_t npus, enum coll_kind kind, uint32_t npu, const expect *want,
                   uint32_t n)
{
    harness h;
    one_dim(&h, npus, algo, 1);
    harness_run_collective(&h, kind, 4096);
    check_sends(&h, npu, want, n);
    harness_fini(&h);
}

static void run_1d(const char *algo, enum coll_kind kind, const expect *want0, uint32_t n0)
{
    run_on(algo, 4, kind, 0, want0, n0);
}

static void test_ring(void **state)
{
    (void)state;
    /* all-reduce: 2(n-1) messages of in/n to the clockwise neighbour */
    expect ar[] = {{1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}};
    run_1d("ring", COLL_ALL_REDUCE, ar, 6);
    expect rs[] = {{1, 1024}, {1, 1024}, {1, 1024}};
    run_1d("ring", COLL_REDUCE_SCATTER, rs, 3);
    /* all-gather forwards the whole chunk */
    expect ag[] = {{1, 4096}, {1, 4096}, {1, 4096}};
    run_1d("ring", COLL_ALL_GATHER, ag, 3);
    /* all-to-all: n(n-1)/2 messages of in/n */
    run_1d("ring", COLL_ALL_TO_ALL, ar, 6);
}

static void test_direct(void **state)
{
    (void)state;
    /* peers rotate +1, +2, +3 and start over, skipping the NPU itself */
    run_1d("direct", COLL_ALL_REDUCE,
           (const expect[]){{1, 1024}, {2, 1024}, {3, 1024}, {1, 1024}, {2, 1024}, {3, 1024}}, 6);
    const expect a2a[] = {{1, 1024}, {2, 1024}, {3, 1024}};
    run_1d("direct", COLL_ALL_TO_ALL, a2a, 3);
    run_1d("direct", COLL_ALL_GATHER, (const expect[]){{1, 4096}, {2, 4096}, {3, 4096}}, 3);
    /* a window of 1 keeps one packet in flight; the order is the same */
    run_1d("direct1", COLL_ALL_TO_ALL, a2a, 3);
}

/* NPU `npu` of a ring of 8: every send, in order. */
static void run_8(const char *algo, enum coll_kind kind, uint32_t npu, const expect *want, uint32_t n)
{
    run_on(algo, 8, kind, npu, want, n);
}

/* Windows longer than the inline packet ring: the engine keeps the queued
 * packets as the oldest one plus a count, and the order must not change. */
static void test_direct_long_window(void **state)
{
    (void)state;
    expect from5[] = {{6, 512}, {7, 512}, {0, 512}, {1, 512}, {2, 512}, {3, 512}, {4, 512}};
    run_8("direct", COLL_ALL_TO_ALL, 5, from5, 7);
    run_8("direct3", COLL_ALL_TO_ALL, 5, from5, 7);
    expect ar5[14];
    for (uint32_t i = 0; i < 14; i++)
        ar5[i] = from5[i % 7];
    run_8("direct", COLL_ALL_REDUCE, 5, ar5, 14);
    run_8("direct2", COLL_ALL_REDUCE, 5, ar5, 14);
    expect ring3[14];
    for (uint32_t i = 0; i < 14; i++)
        ring3[i] = (expect){4, 512};
    run_8("ring", COLL_ALL_REDUCE, 3, ring3, 14);
}

static void test_halving_doubling(void **state)
{
    (void)state;
    /* offsets 1, 2 then back 2, 1; sizes halve then double */
    expect ar[] = {{1, 2048}, {2, 1024}, {2, 1024}, {1, 2048}};
    run_1d("halvingDoubling", COLL_ALL_REDUCE, ar, 4);
    expect rs[] = {{1, 2048}, {2, 1024}};
    run_1d("halvingDoubling", COLL_REDUCE_SCATTER, rs, 2);
    /* all-gather starts at offset n/2 with the whole chunk */
    expect ag[] = {{2, 4096}, {1, 8192}};
    run_1d("halvingDoubling", COLL_ALL_GATHER, ag, 2);

    /* NPU 1 pairs anticlockwise first (its block parity is odd) */
    expect ar1[] = {{0, 2048}, {3, 1024}, {3, 1024}, {0, 2048}};
    run_on("halvingDoubling", 4, COLL_ALL_REDUCE, 1, ar1, 4);
}

static void test_double_binary_tree(void **state)
{
    (void)state;
    harness h;
    one_dim(&h, 4, "doubleBinaryTree", 2);
    harness_run_collective(&h, COLL_ALL_REDUCE, 8192);
    /* chunk 1 on the max-rooted tree (3 <- 1 <- {0, 2}), chunk 2 on the
     * min-rooted one (0 <- 2 <- {1, 3}); whole chunks of 4096 bytes */
    expect n0[] = {{1, 4096}, {2, 4096}};
    check_sends(&h, 0, n0, 2);
    expect n1[] = {{3, 4096}, {0, 4096}, {2, 4096}, {2, 4096}};
    check_sends(&h, 1, n1, 4);
    expect n2[] = {{1, 4096}, {0, 4096}, {1, 4096}, {3, 4096}};
    check_sends(&h, 2, n2, 4);
    expect n3[] = {{1, 4096}, {2, 4096}};
    check_sends(&h, 3, n3, 2);
    harness_fini(&h);
}

static void test_two_dimensions(void **state)
{
    (void)state;
    uint32_t dims[] = {2, 2};
    const char *impl[] = {"ring", "ring"};
    harness h;
    /* localBWAware: RS on dim 0, AR on dim 1, AG on dim 0 */
    harness_init(&h, dims, 2, impl, 2, 1, 1);
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    expect lbw[] = {{1, 2048}, {2, 1024}, {2, 1024}, {1, 2048}};
    check_sends(&h, 0, lbw, 4);
    harness_fini(&h);
    /* baseline: a full all-reduce per dimension */
    harness_init(&h, dims, 2, impl, 2, 1, 1);
    h.s.cfg.collective_optimization = COLL_OPT_BASELINE;
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    expect base[] = {{1, 2048}, {1, 2048}, {2, 2048}, {2, 2048}};
    check_sends(&h, 0, base, 4);
    harness_fini(&h);
    /* all-gather walks the dimensions in reverse */
    harness_init(&h, dims, 2, impl, 2, 1, 1);
    harness_run_collective(&h, COLL_ALL_GATHER, 4096);
    expect ag[] = {{2, 4096}, {1, 8192}};
    check_sends(&h, 0, ag, 2);
    harness_fini(&h);
    /* oneRing: one ring over all four NPUs */
    const char *one[] = {"oneRing"};
    harness_init(&h, dims, 2, one, 1, 1, 1);
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    expect ring4[] = {{1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}, {1, 1024}};
    check_sends(&h, 0, ring4, 6);
    harness_fini(&h);
}

static void test_chunk_minimum(void **state)
{
    (void)state;
    /* 6 bytes in 4 splits: every chunk becomes total_nodes = 4 bytes */
    harness h;
    one_dim(&h, 4, "ring", 4);
    harness_run_collective(&h, COLL_ALL_REDUCE, 6);
    sent_msg got[64];
    assert_int_equal(harness_sent_by(&h, 0, got, 64), 4 * 6);
    assert_int_equal(got[0].bytes, 1);
    harness_fini(&h);
}

/* An algorithm's check refuses the phases it cannot run, naming the node. */
static void refused(const char *algo, uint32_t npus, enum coll_kind kind, const char *want)
{
    harness h;
    uint32_t dims[] = {npus};
    const char *impl[] = {algo};
    harness_init(&h, dims, 1, impl, 1, 1, 1);
    coll_request req = {.npu = 0, .trace = "test.et", .node = 0, .node_id = 0, .node_name = "coll",
                        .kind = kind, .size = 4096};
    assert_int_equal(collective_start(&h.s, &req), -1);
    assert_string_equal(h.s.error, want);
    h.s.failed = false;
    harness_fini(&h);
}

static void test_checks(void **state)
{
    (void)state;
    refused("halvingDoubling", 6, COLL_ALL_REDUCE,
            "test.et: node 0 (coll): halvingDoubling needs a power-of-two number of NPUs per dimension, not 6");
    refused("doubleBinaryTree", 12, COLL_ALL_GATHER,
            "test.et: node 0 (coll): doubleBinaryTree needs a power-of-two number of NPUs per dimension, not 12");
    refused("halvingDoubling", 4, COLL_ALL_TO_ALL,
            "test.et: node 0 (coll): halvingDoubling does not implement ALL_TO_ALL");
}

/* An event of a stream acts only while the run goes on and the stream is
 * still in the epoch that scheduled it; a stale one fails the run. */
static void test_phase_stream_current(void **state)
{
    (void)state;
    harness h;
    one_dim(&h, 4, "ring", 1);
    stream st = {.epoch = 7};
    assert_true(phase_stream_current(&h.s, &st, 7, "a test event outlived its stream"));
    assert_false(h.s.failed);
    assert_false(phase_stream_current(&h.s, &st, 6, "a test event outlived its stream"));
    assert_true(h.s.failed);
    assert_string_equal(h.s.error, "internal error: a test event outlived its stream");
    /* after a failure nothing acts, and the first error stays */
    assert_false(phase_stream_current(&h.s, &st, 7, "another"));
    assert_false(phase_stream_current(&h.s, &st, 6, "another"));
    assert_string_equal(h.s.error, "internal error: a test event outlived its stream");
    h.s.failed = false;
    harness_fini(&h);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_ring),
    cmocka_unit_test(test_direct),
    cmocka_unit_test(test_direct_long_window),
    cmocka_unit_test(test_halving_doubling),
    cmocka_unit_test(test_double_binary_tree),
    cmocka_unit_test(test_two_dimensions),
    cmocka_unit_test(test_chunk_minimum),
    cmocka_unit_test(test_checks),
    cmocka_unit_test(test_phase_stream_current)
)
