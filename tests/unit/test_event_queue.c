/* Event-queue ordering rules (shared/spec/simulator.md section 10). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "vimana/event_queue.h"

typedef struct trace {
    vimana_evq *q;
    uint64_t log[64];
    vimana_tick at[64];
    int n;
} trace;

static void record(void *arg, uint64_t data)
{
    trace *t = arg;
    t->at[t->n] = vimana_evq_now(t->q);
    t->log[t->n++] = data;
}

/* An event that schedules more work for the same tick and a later one. */
static void spawn(void *arg, uint64_t data)
{
    trace *t = arg;
    record(arg, data);
    assert_int_equal(vimana_evq_schedule(t->q, 0, record, t, data + 100), VIMANA_OK);
    assert_int_equal(vimana_evq_schedule(t->q, 5, record, t, data + 200), VIMANA_OK);
}

/* An event to queue: fn(t, data) at tick at. */
typedef struct at_event {
    vimana_tick at;
    void (*fn)(void *arg, uint64_t data);
    uint64_t data;
} at_event;

/* A new queue in t with the n events queued, in their order. */
static void queue_all(trace *t, const at_event *ev, size_t n)
{
    t->q = vimana_evq_new();
    for (size_t i = 0; i < n; i++)
        assert_int_equal(vimana_evq_schedule_at(t->q, ev[i].at, ev[i].fn, t, ev[i].data), VIMANA_OK);
}

/* The n events t recorded: want[i] at tick when[i]. */
static void expect_recorded(const trace *t, const uint64_t *want, const vimana_tick *when, int n)
{
    assert_int_equal(t->n, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(t->log[i], want[i]);
        assert_int_equal(t->at[i], when[i]);
    }
}

/* A new queue in t that has run one event (data 1) at tick at. */
static void run_one_at(trace *t, vimana_tick at)
{
    queue_all(t, &(const at_event){at, record, 1}, 1);
    vimana_evq_run(t->q);
}

static void test_ticks_in_order_fifo_within_tick(void **state)
{
    (void)state;
    trace t = {0};
    const at_event ev[] = {{30, record, 1}, {10, record, 2}, {30, record, 3}, {20, record, 4}, {10, record, 5}};
    queue_all(&t, ev, 5);
    vimana_evq_run(t.q);
    expect_recorded(&t, (const uint64_t[]){2, 5, 4, 1, 3}, (const vimana_tick[]){10, 10, 20, 30, 30}, 5);
    assert_int_equal(vimana_evq_executed(t.q), 5);
    assert_int_equal(vimana_evq_pending(t.q), 0);
    vimana_evq_free(t.q);
}

static void test_same_tick_appends_run_in_same_pass(void **state)
{
    (void)state;
    trace t = {0};
    queue_all(&t, (const at_event[]){{7, spawn, 1}, {7, record, 2}, {9, record, 3}}, 3);
    vimana_evq_run(t.q);
    /* 1 runs, appends 101 (tick 7) and 201 (tick 12); 2 was queued before
     * 101, so it runs first; then tick 9, then 12. */
    expect_recorded(&t, (const uint64_t[]){1, 2, 101, 3, 201}, (const vimana_tick[]){7, 7, 7, 9, 12}, 5);
    vimana_evq_free(t.q);
}

static void test_events_at_zero_before_run(void **state)
{
    (void)state;
    trace t = {.q = vimana_evq_new()};
    vimana_evq_schedule(t.q, 0, record, &t, 1);
    vimana_evq_schedule(t.q, 0, record, &t, 2);
    assert_int_equal(vimana_evq_step(t.q), 1);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.at[0], 0);
    assert_int_equal(vimana_evq_step(t.q), 0);
    vimana_evq_free(t.q);
}

static void test_past_tick_refused(void **state)
{
    (void)state;
    trace t = {0};
    run_one_at(&t, 50);
    assert_int_equal(vimana_evq_now(t.q), 50);
    assert_int_equal(vimana_evq_schedule_at(t.q, 49, record, &t, 2), VIMANA_ERR_ARGUMENT);
    assert_int_equal(vimana_evq_schedule_at(t.q, 50, record, &t, 3), VIMANA_OK);
    vimana_evq_run(t.q);
    assert_int_equal(t.log[1], 3);
    vimana_evq_free(t.q);
}

/* A delay that would pass the last tick is refused, never clamped: a
 * backend must learn that its arrival cannot be represented. */
static void test_delay_past_last_tick_refused(void **state)
{
    (void)state;
    trace t = {0};
    run_one_at(&t, 50);
    assert_int_equal(vimana_evq_schedule(t.q, UINT64_MAX - 50, record, &t, 2), VIMANA_OK);
    assert_int_equal(vimana_evq_schedule(t.q, UINT64_MAX - 49, record, &t, 3), VIMANA_ERR_ARGUMENT);
    vimana_evq_run(t.q);
    assert_int_equal(t.n, 2);
    assert_true(t.at[1] == UINT64_MAX);
    assert_int_equal(t.log[1], 2);
    vimana_evq_free(t.q);
}

/* An event that stops the queue. */
static void halt(void *arg, uint64_t data)
{
    trace *t = arg;
    record(arg, data);
    vimana_evq_stop(t->q);
}

/* stop: the event in progress finishes, nothing else runs, for good. */
static void test_stop_after_current_event(void **state)
{
    (void)state;
    trace t = {0};
    queue_all(&t, (const at_event[]){{3, record, 1}, {3, halt, 2}, {3, record, 3}, {8, record, 4}}, 4);
    assert_int_equal(vimana_evq_stopped(t.q), 0);
    vimana_evq_run(t.q);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.log[1], 2);
    assert_int_equal(vimana_evq_stopped(t.q), 1);
    assert_int_equal(vimana_evq_pending(t.q), 2);
    assert_int_equal(vimana_evq_step(t.q), 0);
    assert_int_equal(vimana_evq_schedule(t.q, 0, record, &t, 5), VIMANA_OK);
    vimana_evq_run(t.q);
    assert_int_equal(t.n, 2);
    assert_int_equal(vimana_evq_now(t.q), 3);
    vimana_evq_free(t.q);
}

/* Many events on scrambled ticks come out sorted by tick, FIFO per tick. */
typedef struct order_check {
    vimana_evq *q;
    vimana_tick last_tick;
    uint64_t last_seq;
    uint64_t count;
    int bad;
} order_check;

static void check_order(void *arg, uint64_t seq)
{
    order_check *c = arg;
    vimana_tick now = vimana_evq_now(c->q);
    if (c->count && (now < c->last_tick || (now == c->last_tick && seq < c->last_seq)))
        c->bad++;
    if (now != (seq * 7919) % 1000)
        c->bad++;
    c->last_tick = now;
    c->last_seq = seq;
    c->count++;
}

/* The look-ahead hook sees the events queued behind the running one in
 * its tick: before event k runs, event k+4 with stage 0, then k+2 with
 * stage 1; never an event of another tick, and the events still run in
 * order. One log holds both: a run as (data, RAN), a hint as (data, stage). */
#define RAN 9
typedef struct hint_log {
    vimana_evq *q;
    int n;
    uint64_t data[64];
    int what[64];
} hint_log;

static void hint_log_add(hint_log *l, uint64_t data, int what)
{
    l->data[l->n] = data;
    l->what[l->n++] = what;
}

static void logged_run(void *arg, uint64_t data)
{
    hint_log_add(arg, data, RAN);
}

static void logged_hint(void *ctx, vimana_event_fn fn, void *arg, uint64_t data, int stage)
{
    hint_log *l = ctx;
    assert_ptr_equal(fn, logged_run);
    assert_ptr_equal(arg, l);
    hint_log_add(l, data, stage);
}

static void test_lookahead_hook(void **state)
{
    (void)state;
    hint_log l = {.q = vimana_evq_new()};
    vimana_evq_set_lookahead(l.q, logged_hint, &l);
    for (uint64_t d = 1; d <= 6; d++)
        vimana_evq_schedule_at(l.q, 10, logged_run, &l, d);
    vimana_evq_schedule_at(l.q, 20, logged_run, &l, 7);
    vimana_evq_schedule_at(l.q, 20, logged_run, &l, 8);
    vimana_evq_run(l.q);
    const uint64_t want_data[] = {3, 5, 1, 4, 6, 2, 5, 3, 6, 4, 5, 6, 7, 8};
    const int want_what[] = {1, 0, RAN, 1, 0, RAN, 1, RAN, 1, RAN, RAN, RAN, RAN, RAN};
    assert_int_equal(l.n, 14);
    for (int i = 0; i < 14; i++) {
        assert_int_equal(l.data[i], want_data[i]);
        assert_int_equal(l.what[i], want_what[i]);
    }
    /* removed again: no more hints */
    vimana_evq_set_lookahead(l.q, NULL, NULL);
    l.n = 0;
    for (uint64_t d = 1; d <= 6; d++)
        vimana_evq_schedule_at(l.q, 30, logged_run, &l, d);
    vimana_evq_run(l.q);
    assert_int_equal(l.n, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(l.what[i], RAN);
    vimana_evq_free(l.q);
}

static void test_many_events_sorted(void **state)
{
    (void)state;
    enum { N = 200000 };
    order_check c = {.q = vimana_evq_new()};
    for (uint64_t i = 0; i < N; i++)
        assert_int_equal(vimana_evq_schedule_at(c.q, (i * 7919) % 1000, check_order, &c, i), VIMANA_OK);
    assert_int_equal(vimana_evq_pending(c.q), N);
    vimana_evq_run(c.q);
    assert_int_equal(c.count, N);
    assert_int_equal(c.bad, 0);
    vimana_evq_free(c.q);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_ticks_in_order_fifo_within_tick),
    cmocka_unit_test(test_same_tick_appends_run_in_same_pass),
    cmocka_unit_test(test_events_at_zero_before_run),
    cmocka_unit_test(test_past_tick_refused),
    cmocka_unit_test(test_delay_past_last_tick_refused),
    cmocka_unit_test(test_many_events_sorted),
    cmocka_unit_test(test_stop_after_current_event),
    cmocka_unit_test(test_lookahead_hook)
)
