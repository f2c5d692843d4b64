/* Queue allocation, priority insertion and the running cap
 * (shared/spec/simulator.md sections 13.2 and 13.5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_harness.h"

#define TAG0 500000000u

/* The order in which NPU 0 first uses each stream tag. */
static uint32_t stream_order(const harness *h, uint32_t *order, uint32_t max)
{
    sent_msg got[256];
    uint32_t k = harness_sent_by(h, 0, got, 256), n = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t id = got[i].tag - TAG0;
        bool seen = false;
        for (uint32_t j = 0; j < n; j++)
            seen |= order[j] == id;
        if (!seen && n < max)
            order[n++] = id;
    }
    return n;
}

static void two_collectives(harness *h, enum sched_policy policy, uint32_t *order)
{
    uint32_t dims[] = {4};
    const char *impl[] = {"ring"};
    harness_init(h, dims, 1, impl, 1, 4, 2);
    h->s.cfg.scheduling_policy = policy;
    for (uint32_t npu = 0; npu < 4; npu++) {
        harness_start(h, npu, 0, COLL_ALL_REDUCE, 4096);
        harness_start(h, npu, 1, COLL_ALL_REDUCE, 4096);
    }
    harness_run(h);
    assert_int_equal(stream_order(h, order, 8), 8);
}

static void test_lifo_runs_newer_collective_first(void **state)
{
    (void)state;
    harness h;
    uint32_t order[8];
    two_collectives(&h, SCHED_LIFO, order);
    /* chunk 0 of the first collective already runs; the second collective's
     * chunks (higher priority) overtake the first's waiting ones */
    uint32_t want[] = {0, 4, 5, 6, 7, 1, 2, 3};
    for (int i = 0; i < 8; i++)
        assert_int_equal(order[i], want[i]);
    harness_fini(&h);
}

/* EXPLICIT takes comm_priority from the node: a higher number runs first,
 * whatever the order of arrival. */
static void test_explicit_priority(void **state)
{
    (void)state;
    harness h;
    uint32_t dims[] = {4};
    const char *impl[] = {"ring"};
    uint32_t order[8];
    harness_init(&h, dims, 1, impl, 1, 4, 3);
    h.s.cfg.scheduling_policy = SCHED_EXPLICIT;
    for (uint32_t npu = 0; npu < 4; npu++) {
        h.priority = 1;
        harness_start(&h, npu, 0, COLL_ALL_REDUCE, 4096);
        h.priority = 0;
        harness_start(&h, npu, 1, COLL_ALL_REDUCE, 4096);
        h.priority = 5;
        harness_start(&h, npu, 2, COLL_ALL_REDUCE, 4096);
    }
    harness_run(&h);
    /* streams 0-3 (priority 1, chunk 0 already running), 4-7 (priority 0),
     * 8-11 (priority 5): 0, then 8-11, then 1-3, then 4-7 */
    sent_msg got[512];
    uint32_t k = harness_sent_by(&h, 0, got, 512), n = 0;
    for (uint32_t i = 0; i < k && n < 8; i++) {
        uint32_t id = got[i].tag - TAG0;
        bool seen = false;
        for (uint32_t j = 0; j < n; j++)
            seen |= order[j] == id;
        if (!seen)
            order[n++] = id;
    }
    uint32_t want[] = {0, 8, 9, 10, 11, 1, 2, 3};
    for (int i = 0; i < 8; i++)
        assert_int_equal(order[i], want[i]);
    harness_fini(&h);
}

static void test_fifo_keeps_arrival_order(void **state)
{
    (void)state;
    harness h;
    uint32_t order[8];
    two_collectives(&h, SCHED_FIFO, order);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(order[i], i);
    harness_fini(&h);
}

/* With one running slot the chunks of a collective never interleave; with
 * two, the first two run side by side. */
static void test_running_cap(void **state)
{
    (void)state;
    harness h;
    uint32_t dims[] = {4};
    const char *impl[] = {"ring"};
    sent_msg got[64];
    harness_init(&h, dims, 1, impl, 1, 4, 1);
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    uint32_t k = harness_sent_by(&h, 0, got, 64);
    assert_int_equal(k, 24);
    for (uint32_t i = 0; i < k; i++)
        assert_int_equal(got[i].tag, TAG0 + i / 6);
    harness_fini(&h);

    harness_init(&h, dims, 1, impl, 1, 4, 1);
    h.s.cfg.active_chunks_per_dimension = 2;
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    harness_sent_by(&h, 0, got, 64);
    assert_int_equal(got[0].tag, TAG0 + 0);
    assert_int_equal(got[1].tag, TAG0 + 1);
    assert_int_equal(got[0].at, got[1].at);
    harness_fini(&h);
}

static void test_queue_allocators(void **state)
{
    (void)state;
    harness h;
    uint32_t dims[] = {4, 4};
    const char *impl[] = {"ring", "ring"};
    harness_init(&h, dims, 2, impl, 2, 1, 1);
    system_fini(&h.s);
    h.opt.queues_per_dim = 4;
    assert_int_equal(system_init(&h.s), 0);
    bool ccw;
    uint32_t want_q[] = {4, 5, 6, 7, 4};
    bool want_ccw[] = {false, false, true, true, false};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(scheduler_next_queue(&h.s, 0, 1, &ccw), want_q[i]);
        assert_int_equal(ccw, want_ccw[i]);
    }
    uint32_t first[] = {4, 5, 4};
    uint32_t last[] = {6, 7, 6};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(scheduler_first_queue(&h.s, 0, 1), first[i]);
        assert_int_equal(scheduler_last_queue(&h.s, 0, 1), last[i]);
    }
    /* allocators belong to the NPU: NPU 1 starts fresh */
    assert_int_equal(scheduler_first_queue(&h.s, 1, 1), 4);
    harness_fini(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lifo_runs_newer_collective_first),
        cmocka_unit_test(test_fifo_keeps_arrival_order),
        cmocka_unit_test(test_explicit_priority),
        cmocka_unit_test(test_running_cap),
        cmocka_unit_test(test_queue_allocators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
