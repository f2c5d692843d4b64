/* A collective algorithm that only this file knows: registered into a
 * run's registry, named in the system JSON, checked, planned and stepped
 * through the real system layer (docs/algorithms.md). */
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

#include "sim_harness.h"
#include "system/algorithms/algorithm.h"
#include "system/algorithms/registry.h"

/* ---- the test-only algorithm --------------------------------------------- */

/* "exchange" / "exchangeN": N rounds (default 1); in each, every NPU sends
 * in/n bytes to both ring neighbours and receives from both, then reduces
 * the two receipts in one bundle. Two distinct neighbours: 3 NPUs or more.
 * State: stream_count = rounds left, total_received = receipts this round. */
static int parse_rounds(const char *text, uint32_t *rounds)
{
    if (!*text) {
        *rounds = 0;
        return 0;
    }
    if (text[1] || text[0] < '1' || text[0] > '9')
        return -1;
    *rounds = (uint32_t)(text[0] - '0');
    return 0;
}

static int exchange_check(const phase_desc *p, char *msg, size_t len)
{
    if (p->n >= 3)
        return 0;
    snprintf(msg, len, "exchange needs 3 NPUs or more per dimension, not %u", p->n);
    return -1;
}

static void exchange_round(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    uint64_t size = p->in_size / p->n;
    uint32_t next = phase_ring_member(p, (p->index + 1) % p->n);
    uint32_t prev = phase_ring_member(p, (p->index + p->n - 1) % p->n);
    phase_send(s, st, next, size);
    phase_send(s, st, prev, size);
    phase_receive(s, st, next, size);
    phase_receive(s, st, prev, size);
}

static void exchange_start(sim *s, stream *st)
{
    st->run.stream_count = st->cur.param ? st->cur.param : 1;
    exchange_round(s, st);
}

static void exchange_step(sim *s, stream *st, enum phase_event ev)
{
    phase_run *r = &st->run;
    if (ev == PHASE_RECEIVED) {
        if (++r->total_received == 2) {
            r->total_received = 0;
            phase_bundle(s, st, 2 * (st->cur.in_size / st->cur.n), (bundle_flags){.processed = true});
        }
        return;
    }
    if (--r->stream_count == 0)
        phase_exit(s, st);
    else
        exchange_round(s, st);
}

static const algorithm exchange = {
    .name = "exchange",
    .param = "N",
    .parse_param = parse_rounds,
    .check = exchange_check,
    .start = exchange_start,
    .step = exchange_step,
};

/* ---- tests ----------------------------------------------------------------- */

typedef struct expect {
    uint32_t dst;
    uint64_t bytes;
    vimana_tick at;
} expect;

static void check_sends(const harness *h, uint32_t npu, const expect *want, uint32_t n)
{
    sent_msg got[16];
    assert_int_equal(harness_sent_by(h, npu, got, 16), n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(got[i].dst, want[i].dst);
        assert_int_equal(got[i].bytes, want[i].bytes);
        assert_int_equal(got[i].at, want[i].at);
    }
}

/* npus NPUs on one dimension, every collective by algo, the test's
 * exchange algorithm registered. */
static void one_dimension(harness *h, uint32_t npus, const char *algo)
{
    uint32_t dims[] = {npus};
    const char *impl[] = {algo};
    harness_init_with(h, &exchange, dims, 1, impl, 1, 1, 1);
}

static void test_runs_through_the_system_layer(void **state)
{
    (void)state;
    harness h;
    one_dimension(&h, 4, "exchange2");
    harness_run_collective(&h, COLL_ALL_REDUCE, 4096);
    /* round 1 at 0; the receipts arrive at 100 (the recorder's delay); the
     * bundle takes endpoint-delay 10 + 3 x 2048 B / 50 GB/s (40 each) =
     * 130; round 2 at 230 */
    expect n0[] = {{1, 1024, 0}, {3, 1024, 0}, {1, 1024, 230}, {3, 1024, 230}};
    check_sends(&h, 0, n0, 4);
    expect n2[] = {{3, 1024, 0}, {1, 1024, 0}, {3, 1024, 230}, {1, 1024, 230}};
    check_sends(&h, 2, n2, 4);
    assert_int_equal(h.n_sent, 16);
    harness_fini(&h);
}

static void test_on_a_second_dimension(void **state)
{
    (void)state;
    harness h;
    uint32_t dims[] = {2, 3};
    const char *impl[] = {"ring", "exchange"};
    harness_init_with(&h, &exchange, dims, 2, impl, 2, 1, 1);
    h.s.cfg.collective_optimization = COLL_OPT_BASELINE;
    harness_run_collective(&h, COLL_ALL_REDUCE, 6000);
    /* ring all-reduce on dim 0 (NPUs 0, 1: 2 x 3000 B), then one exchange
     * round on dim 1 (NPUs 0, 2, 4: stride 2, 2000 B each way) */
    sent_msg got[8];
    assert_int_equal(harness_sent_by(&h, 0, got, 8), 4);
    assert_int_equal(got[0].dst, 1);
    assert_int_equal(got[0].bytes, 3000);
    assert_int_equal(got[1].dst, 1);
    assert_int_equal(got[2].dst, 2);
    assert_int_equal(got[2].bytes, 2000);
    assert_int_equal(got[3].dst, 4);
    assert_int_equal(got[3].bytes, 2000);
    harness_fini(&h);
}

static void test_check_refuses_a_phase(void **state)
{
    (void)state;
    harness h;
    one_dimension(&h, 2, "exchange");
    coll_request req = {.npu = 0, .trace = "test.et", .node = 0, .node_id = 0, .node_name = "coll",
                        .kind = COLL_ALL_REDUCE, .size = 4096};
    assert_int_equal(collective_start(&h.s, &req), -1);
    assert_string_equal(h.s.error, "test.et: node 0 (coll): exchange needs 3 NPUs or more per dimension, not 2");
    h.s.failed = false;
    harness_fini(&h);
}

static void test_names(void **state)
{
    (void)state;
    algo_registry r = {0};
    algo_spec a;
    char buf[400];
    assert_int_equal(algo_registry_resolve(&r, "exchange", &a), -1);
    assert_int_equal(algo_registry_add(&r, &exchange), 0);
    assert_int_equal(algo_registry_resolve(&r, "exchange3", &a), 0);
    assert_ptr_equal(algo_registry_get(&r, a.id), &exchange);
    assert_int_equal(a.param, 3);
    assert_false(a.one);
    assert_string_equal(algo_registry_spec_name(&r, &a, buf, sizeof buf), "exchange3");
    assert_int_equal(algo_registry_resolve(&r, "exchange0", &a), -1);
    assert_int_equal(algo_registry_resolve(&r, "oneExchange", &a), -1);
    /* the built-ins still resolve as before */
    assert_int_equal(algo_registry_resolve(&r, "oneDirect4", &a), 0);
    assert_true(a.one);
    assert_string_equal(algo_registry_spec_name(&r, &a, buf, sizeof buf), "oneDirect4");
    algo_registry_expected(&r, buf, sizeof buf);
    assert_string_equal(buf, "ring, oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, "
                             "oneHalvingDoubling, doubleBinaryTree, nccl, oneNccl, exchange or exchangeN");
    /* ids past the table are no algorithm, not a read out of bounds */
    assert_null(algo_registry_get(&r, a.id + 100));
    a.id = 999;
    assert_string_equal(algo_registry_spec_name(&r, &a, buf, sizeof buf), "?");
    /* a name taken, or an incomplete descriptor, is refused */
    assert_int_equal(algo_registry_add(&r, &exchange), -1);
    algorithm no_step = {.name = "noStep", .start = exchange_start};
    assert_int_equal(algo_registry_add(&r, &no_step), -1);
    algorithm clash = {.name = "other", .one_name = "oneRing", .start = exchange_start, .step = exchange_step};
    assert_int_equal(algo_registry_add(&r, &clash), -1);
}

static void test_registry_fills_up(void **state)
{
    (void)state;
    algo_registry r = {0};
    static const char *const names[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8",
                                        "a9", "a10", "a11", "a12", "a13", "a14", "a15", "a16"};
    algorithm algs[ALGO_MAX_EXTRA + 1];
    for (uint32_t i = 0; i <= ALGO_MAX_EXTRA; i++)
        algs[i] = (algorithm){.name = names[i], .start = exchange_start, .step = exchange_step};
    for (uint32_t i = 0; i < ALGO_MAX_EXTRA; i++)
        assert_int_equal(algo_registry_add(&r, &algs[i]), 0);
    assert_int_equal(algo_registry_add(&r, &algs[ALGO_MAX_EXTRA]), -1);
}

/* The system JSON names it once registered, and lists it when a name is
 * unknown. */
static void test_system_json(void **state)
{
    (void)state;
    char path[] = "/tmp/vimana-plugin-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "{\"preferred-dataset-splits\": 1, \"all-reduce-implementation\": [\"exchange2\", \"ring\"], "
                       "\"all-gather-implementation\": [\"exchanges\"]}";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    algo_registry r = {0};
    assert_int_equal(algo_registry_add(&r, &exchange), 0);
    sys_algo_names names = algo_registry_names(&r);
    sys_config cfg;
    char err[600], want[600];
    assert_int_equal(sys_config_load(path, 1, &names, &cfg, err, sizeof err, NULL, NULL), -1);
    snprintf(want, sizeof want, "%s: key 'all-gather-implementation'[0]: unknown collective algorithm 'exchanges' "
             "(expected ring, oneRing, direct, directN, oneDirect, oneDirectN, halvingDoubling, oneHalvingDoubling, "
             "doubleBinaryTree, nccl, oneNccl, exchange or exchangeN)", path);
    assert_string_equal(err, want);
    assert_int_equal(cfg.n_impl[COLL_ALL_REDUCE], 2);
    assert_ptr_equal(algo_registry_get(&r, cfg.impl[COLL_ALL_REDUCE][0].id), &exchange);
    assert_int_equal(cfg.impl[COLL_ALL_REDUCE][0].param, 2);
    sys_config_free(&cfg);
    unlink(path);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_runs_through_the_system_layer),
    cmocka_unit_test(test_on_a_second_dimension),
    cmocka_unit_test(test_check_refuses_a_phase),
    cmocka_unit_test(test_names),
    cmocka_unit_test(test_registry_fills_up),
    cmocka_unit_test(test_system_json)
)
