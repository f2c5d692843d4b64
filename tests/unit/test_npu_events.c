/* Per-NPU event lists (shared/spec/simulator.md section 13.1): work
 * registered for one tick of one NPU runs in registration order at the
 * place of the tick's first registration, work registered for the tick
 * while it runs joins its tail, and each piece counts as one system event,
 * however many ticks an NPU has pending (past the few kept inline). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "sim_harness.h"

typedef struct ran {
    uint32_t npu;
    uint64_t id;
    vimana_tick at;
} ran;

typedef struct run_log {
    ran ran[64];
    uint32_t n;
    uint32_t joiner_npu;         /* the NPU whose id 100 registers id 101 at its own tick */
} run_log;

static void record(sim *s, void *obj, uint64_t id)
{
    run_log *log = obj;
    assert_true(log->n < 64);
    uint32_t npu = (uint32_t)(id >> 32);
    log->ran[log->n++] = (ran){.npu = npu, .id = (uint32_t)id, .at = sim_now(s)};
    if ((uint32_t)id == 100)
        npu_register_event(s, npu, 0, record, log, (uint64_t)npu << 32 | 101);
}

static void reg(harness *h, run_log *log, uint32_t npu, vimana_tick delta, uint32_t id)
{
    npu_register_event(&h->s, npu, delta, record, log, (uint64_t)npu << 32 | id);
}

static void start(harness *h)
{
    uint32_t dims[] = {4};
    const char *impl[] = {"ring"};
    harness_init(h, dims, 1, impl, 1, 1, 1);
}

static void expect(const run_log *log, uint32_t i, uint32_t npu, uint32_t id, vimana_tick at)
{
    assert_int_equal(log->ran[i].npu, npu);
    assert_int_equal(log->ran[i].id, id);
    assert_int_equal(log->ran[i].at, at);
}

static void test_same_tick_runs_in_registration_order(void **state)
{
    (void)state;
    harness h;
    run_log log = {.n = 0};
    start(&h);
    reg(&h, &log, 0, 5, 100);   /* registers 101 for tick 5 while tick 5 runs */
    reg(&h, &log, 1, 5, 1);
    reg(&h, &log, 0, 5, 2);
    reg(&h, &log, 0, 3, 3);
    reg(&h, &log, 0, 5, 4);
    harness_run_events(&h);
    assert_int_equal(log.n, 6);
    expect(&log, 0, 0, 3, 3);
    /* NPU 0's tick 5 was scheduled before NPU 1's: all of it runs first */
    expect(&log, 1, 0, 100, 5);
    expect(&log, 2, 0, 2, 5);
    expect(&log, 3, 0, 4, 5);
    expect(&log, 4, 0, 101, 5);
    expect(&log, 5, 1, 1, 5);
    assert_int_equal(h.s.events, 6);
    harness_fini(&h);
}

static void test_many_pending_ticks_of_one_npu(void **state)
{
    (void)state;
    harness h;
    run_log log = {.n = 0};
    start(&h);
    /* 13 distinct ticks pending on NPU 2 (its lists move to the heap and
     * grow twice), a second registration on some, and NPU 3 alongside */
    for (uint32_t d = 13; d >= 1; d--) {
        reg(&h, &log, 2, d, d);
        if (d % 4 == 0)
            reg(&h, &log, 2, d, 1000 + d);
        if (d % 5 == 0)
            reg(&h, &log, 3, d, 2000 + d);
    }
    reg(&h, &log, 2, 7, 100);   /* the tick already has a registration: joins it, then 101 */
    harness_run_events(&h);
    assert_int_equal(log.n, 13 + 3 + 2 + 2);
    uint32_t i = 0;
    for (uint32_t d = 1; d <= 13; d++) {
        /* NPU 3's ticks were scheduled after NPU 2's of the same tick */
        expect(&log, i++, 2, d, d);
        if (d % 4 == 0)
            expect(&log, i++, 2, 1000 + d, d);
        if (d == 7) {
            expect(&log, i++, 2, 100, d);
            expect(&log, i++, 2, 101, d);
        }
        if (d % 5 == 0)
            expect(&log, i++, 3, 2000 + d, d);
    }
    assert_int_equal(i, log.n);
    assert_int_equal(h.s.events, log.n);
    harness_fini(&h);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_same_tick_runs_in_registration_order),
    cmocka_unit_test(test_many_pending_ticks_of_one_npu)
)
