/* Queue allocation, priority insertion and the running cap
 * (shared/spec/simulator.md sections 13.2 and 13.5), and how the system
 * layer reports back: every request's completion runs once, the phase hooks
 * run in pairs, and error messages name the node the request names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "sim_harness.h"
#include "system/remote_mem.h"

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

/* One ring of 4 NPUs, splits chunks per collective, room for nodes
 * requests per NPU. */
static void ring4(harness *h, uint64_t splits, uint32_t nodes)
{
    uint32_t dims[] = {4};
    const char *impl[] = {"ring"};
    harness_init(h, dims, 1, impl, 1, splits, nodes);
}

/* order[i] is want[i] for each of the 8 first streams. */
static void expect_order(const uint32_t *order, const uint32_t *want)
{
    for (int i = 0; i < 8; i++)
        assert_int_equal(order[i], want[i]);
}

/* n all-reduces started on every NPU under policy (collective c with the
 * node priority priority[c], when priority is not NULL): NPU 0 first uses
 * the streams in the order want. */
static void expect_stream_order(enum sched_policy policy, uint32_t n, const uint32_t *priority,
                                const uint32_t *want)
{
    harness h;
    uint32_t order[8];
    ring4(&h, 4, n);
    h.s.cfg.scheduling_policy = policy;
    for (uint32_t npu = 0; npu < 4; npu++) {
        for (uint32_t c = 0; c < n; c++) {
            if (priority)
                h.priority = priority[c];
            harness_start(&h, npu, c, COLL_ALL_REDUCE, 4096);
        }
    }
    harness_run(&h);
    assert_int_equal(stream_order(&h, order, 8), 8);
    expect_order(order, want);
    harness_fini(&h);
}

static void test_lifo_runs_newer_collective_first(void **state)
{
    (void)state;
    /* chunk 0 of the first collective already runs; the second collective's
     * chunks (higher priority) overtake the first's waiting ones */
    expect_stream_order(SCHED_LIFO, 2, NULL, (const uint32_t[]){0, 4, 5, 6, 7, 1, 2, 3});
}

/* EXPLICIT takes comm_priority from the node: a higher number runs first,
 * whatever the order of arrival. */
static void test_explicit_priority(void **state)
{
    (void)state;
    /* streams 0-3 (priority 1, chunk 0 already running), 4-7 (priority 0),
     * 8-11 (priority 5): 0, then 8-11, then 1-3, then 4-7 */
    expect_stream_order(SCHED_EXPLICIT, 3, (const uint32_t[]){1, 0, 5}, (const uint32_t[]){0, 8, 9, 10, 11, 1, 2, 3});
}

static void test_fifo_keeps_arrival_order(void **state)
{
    (void)state;
    expect_stream_order(SCHED_FIFO, 2, NULL, (const uint32_t[]){0, 1, 2, 3, 4, 5, 6, 7});
}

/* With one running slot the chunks of a collective never interleave; with
 * two, the first two run side by side. */
static void test_running_cap(void **state)
{
    (void)state;
    harness h;
    sent_msg got[64];
    ring4(&h, 4, 1);
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    uint32_t k = harness_sent_by(&h, 0, got, 64);
    assert_int_equal(k, 24);
    for (uint32_t i = 0; i < k; i++)
        assert_int_equal(got[i].tag, TAG0 + i / 6);
    harness_fini(&h);

    ring4(&h, 4, 1);
    h.s.cfg.active_chunks_per_dimension = 2;
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    harness_sent_by(&h, 0, got, 64);
    assert_int_equal(got[0].tag, TAG0 + 0);
    assert_int_equal(got[1].tag, TAG0 + 1);
    assert_int_equal(got[0].at, got[1].at);
    harness_fini(&h);
}

/* A 4 x 4 system of rings with 4 queues per dimension. */
static void ring4x4_four_queues(harness *h)
{
    uint32_t dims[] = {4, 4};
    const char *impl[] = {"ring", "ring"};
    harness_init(h, dims, 2, impl, 2, 1, 1);
    system_fini(&h->s);
    h->opt.queues_per_dim = 4;
    assert_int_equal(system_init(&h->s), 0);
}

static void test_queue_allocators(void **state)
{
    (void)state;
    harness h;
    ring4x4_four_queues(&h);
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

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

/* The per-NPU system state starts all zero and system_init writes none of
 * it, so an NPU that never runs (all but NPU 0 in the reduced simulation)
 * touches no page of it: NPU 0 running its allocators and a collective
 * leaves every other NPU's record, queues and counters zero bytes. */
static void test_idle_npus_state_stays_zero(void **state)
{
    (void)state;
    harness h;
    ring4x4_four_queues(&h);
    assert_int_equal(h.s.queues_per_npu, 8);
    bool ccw;
    assert_int_equal(scheduler_next_queue(&h.s, 0, 1, &ccw), 4);
    assert_int_equal(scheduler_first_queue(&h.s, 0, 1), 4);
    assert_int_equal(scheduler_last_queue(&h.s, 0, 0), 2);
    assert_int_equal(scheduler_last_queue(&h.s, 0, 0), 3);
    harness_start(&h, 0, 0, COLL_ALL_REDUCE, 4096);
    assert_false(all_zero(&h.s.sys[0], sizeof h.s.sys[0]));
    assert_false(all_zero(h.s.queue_ctr, 3 * h.s.queue_dims * sizeof *h.s.queue_ctr));
    for (uint32_t npu = 1; npu < 16; npu++) {
        assert_true(all_zero(&h.s.sys[npu], sizeof h.s.sys[npu]));
        assert_true(all_zero(npu_queues(&h.s, npu), h.s.queues_per_npu * sizeof(queue_state)));
        assert_true(all_zero(h.s.queue_ctr + (size_t)npu * 3 * h.s.queue_dims,
                             3 * h.s.queue_dims * sizeof *h.s.queue_ctr));
    }
    /* and a zero record is a fresh NPU: its last queues start at q/2 */
    assert_int_equal(scheduler_last_queue(&h.s, 1, 0), 2);
    harness_fini(&h);
}

/* ---- completions and hooks ----------------------------------------------- */

typedef struct phase_log {
    harness *h;
    uint32_t started, done;
    vimana_tick last_done[4];   /* per NPU */
} phase_log;

static void on_phase_started(void *ctx, stream *st)
{
    phase_log *l = ctx;
    (void)st;
    l->started++;
}

static void on_phase_done(void *ctx, stream *st)
{
    phase_log *l = ctx;
    l->done++;
    l->last_done[st->npu] = sim_now(&l->h->s);
}

/* A collective completes through its request's callback, once, when its
 * last chunk leaves its last phase; the phase hooks see every phase. */
static void test_collective_completion_and_phase_hooks(void **state)
{
    (void)state;
    harness h;
    ring4(&h, 4, 3);
    phase_log l = {.h = &h};
    h.s.hooks = (sim_hooks){.phase_started = on_phase_started, .phase_done = on_phase_done, .phase_ctx = &l};
    for (uint32_t npu = 0; npu < 4; npu++)
        harness_start(&h, npu, 2, COLL_ALL_REDUCE, 4096);
    harness_run(&h);
    /* 4 chunks of one phase (one dimension) on each of 4 NPUs */
    assert_int_equal(l.started, 16);
    assert_int_equal(l.done, 16);
    for (uint32_t npu = 0; npu < 4; npu++) {
        assert_int_equal(h.done_count[npu * 3 + 2], 1);
        assert_int_equal(h.done_count[npu * 3 + 0], 0);
        assert_true(h.done_at[npu * 3 + 2] > 0);
        assert_int_equal(h.done_at[npu * 3 + 2], l.last_done[npu]);
    }
    harness_fini(&h);
}

/* BROADCAST only takes time: its completion runs `delay` ticks later. */
static void test_timed_collective_completion(void **state)
{
    (void)state;
    harness h;
    ring4(&h, 1, 2);
    assert_int_equal(collective_start_timed(&h.s, 3, 1, 1234, harness_done(&h, 3, 1)), 0);
    assert_int_equal(collective_start_timed(&h.s, 0, 0, 7, harness_done(&h, 0, 0)), 0);
    harness_run(&h);
    assert_int_equal(h.done_count[3 * 2 + 1], 1);
    assert_int_equal(h.done_at[3 * 2 + 1], 1234);
    assert_int_equal(h.done_at[0], 7);
    assert_int_equal(h.n_sent, 0);
    harness_fini(&h);
}

static void use_memory(harness *h, enum memory_type type)
{
    remote_mem_fini(&h->s);
    h->s.mem = (mem_config){.path = "mem.json", .type = type, .num_npus_per_node = 2, .latency_ns = 100,
                            .bytes_per_ns = 10};
    assert_int_equal(remote_mem_init(&h->s), 0);
}

static void access_memory(harness *h, uint32_t npu, uint32_t node)
{
    mem_access a = {.npu = npu, .bytes = 1000, .trace = "test.et", .node_id = node, .node_name = "load",
                    .done = harness_done(h, npu, node)};
    remote_mem_issue(&h->s, &a);
}

/* Three accesses, by (npu, node), to the memory of that type; run. */
static void run_accesses(harness *h, enum memory_type type, const uint32_t npu_node[3][2])
{
    ring4(h, 1, 2);
    use_memory(h, type);
    for (int i = 0; i < 3; i++)
        access_memory(h, npu_node[i][0], npu_node[i][1]);
    harness_run(h);
}

/* A remote-memory access completes through its callback after latency +
 * bytes / bandwidth (100 + 1000 / 10); a pool serves one at a time. */
static void test_remote_memory_completion(void **state)
{
    (void)state;
    harness h;
    run_accesses(&h, MEM_PER_NPU, (const uint32_t[][2]){{0, 0}, {0, 1}, {3, 1}});
    assert_int_equal(h.done_at[0], 200);
    assert_int_equal(h.done_at[1], 200);
    assert_int_equal(h.done_at[3 * 2 + 1], 200);
    harness_fini(&h);

    run_accesses(&h, MEM_POOL, (const uint32_t[][2]){{0, 0}, {1, 0}, {2, 1}});
    assert_int_equal(h.done_at[0], 200);
    assert_int_equal(h.done_at[1 * 2 + 0], 400);
    assert_int_equal(h.done_at[2 * 2 + 1], 600);
    assert_int_equal(h.done_count[2 * 2 + 0], 0);
    harness_fini(&h);
}

/* A refused request fails the run with a message naming the node the
 * request names, and never completes. */
static void test_errors_name_the_requesting_node(void **state)
{
    (void)state;
    harness h;
    uint32_t dims[] = {3};
    const char *impl[] = {"halvingDoubling"};
    harness_init(&h, dims, 1, impl, 1, 1, 1);
    coll_request req = {.npu = 1, .trace = "dir/trace.1.et", .node = 0, .node_id = 42, .node_name = "grad_sync",
                        .kind = COLL_ALL_REDUCE, .size = 4096, .done = harness_done(&h, 1, 0)};
    assert_int_equal(collective_start(&h.s, &req), -1);
    assert_string_equal(h.s.error, "dir/trace.1.et: node 42 (grad_sync): halvingDoubling needs a power-of-two "
                                   "number of NPUs per dimension, not 3");
    assert_int_equal(h.done_count[1], 0);
    h.s.failed = false;
    h.s.error[0] = '\0';
    mem_access a = {.npu = 2, .bytes = 8, .trace = "dir/trace.2.et", .node_id = 7, .node_name = "load",
                    .done = harness_done(&h, 2, 0)};
    use_memory(&h, MEM_NO_EXPANSION);
    remote_mem_issue(&h.s, &a);
    assert_string_equal(h.s.error, "mem.json: Remote memory access is not supported in NO_MEMORY_EXPANSION (node 7 "
                                   "of dir/trace.2.et)");
    assert_int_equal(h.done_count[2], 0);
    harness_fini(&h);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_lifo_runs_newer_collective_first),
    cmocka_unit_test(test_fifo_keeps_arrival_order),
    cmocka_unit_test(test_explicit_priority),
    cmocka_unit_test(test_running_cap),
    cmocka_unit_test(test_queue_allocators),
    cmocka_unit_test(test_idle_npus_state_stays_zero),
    cmocka_unit_test(test_collective_completion_and_phase_hooks),
    cmocka_unit_test(test_timed_collective_completion),
    cmocka_unit_test(test_remote_memory_completion),
    cmocka_unit_test(test_errors_name_the_requesting_node)
)
