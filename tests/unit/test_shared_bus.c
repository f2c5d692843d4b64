/* The LogGP shared-bus model of "model-shared-bus": 1
 * (shared/spec/simulator.md section 13.8), first request by request through
 * its API, then under the real algorithms on the recording fake network
 * (every message arrives 100 ticks after it is sent).
 *
 * Parameters unless a test says otherwise: L = 10, o = 2, g = 1, G = 0.25,
 * local-reduction-delay 1, local-mem-bw 50 GB/s. With g < o the gap rule
 * always yields offset = o. For a transfer of `size` bytes, truncating each
 * registered delay on its own as the reference does:
 *   outer bus (G = 0.25), size 100: receive done after
 *     trunc(o + 99 * 0.25 + L + o) = trunc(38.75) = 38, sender free after
 *     trunc(o + 24.75) = 26;
 *   nested bus (G = 0.0038), size 100: receive trunc(2 + 0.3762 + 12) = 14,
 *     sender free after trunc(2.3762) = 2;
 *   processing: (100 / 100) * 1 + 50 = 51.
 * So for one isolated request of 100 bytes:
 *   enters at NPU, plain:          MEM2->NPU2 14 + NPU->MA 38             = 52
 *   enters at NPU, processed:      14 + 38 + MA processing 51             = 103
 *   enters at NPU, send_back:      14 + 38 + MA->NPU 38 + retire NPU2->MEM2 14 = 104
 *   enters at MA, plain:           MA->NPU 38 + retire 14                 = 52
 *   enters at MA, send_back:       38 + nested round trip 28 + NPU->MA 38 = 104
 *   enters at MA, processed:       38 + round trip 28 + 51 + retire 14    = 131
 *   enters at MA, both:            38 + 28 + 51 + round trip 28 + 38      = 183
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"

#include "sim_harness.h"
#include "system/shared_bus.h"

#define MAX_DONE 16

typedef struct recorder {
    vimana_tick at[MAX_DONE];
    uint32_t n;
} recorder;

static void record_done(sim *s, void *obj, uint64_t which)
{
    recorder *r = obj;
    assert_true(which < MAX_DONE);
    r->at[which] = sim_now(s);
    r->n++;
}

static void bus_params(harness *h, double L, double o, double g, double G)
{
    sys_config *c = &h->s.cfg;
    c->model_shared_bus = true;
    c->L = L;
    c->o = o;
    c->g = g;
    c->G = G;
    c->local_reduction_delay = 1;
}

/* npus NPUs on one dimension, every collective by algo, the shared bus
 * given L, o, g and G (set up on first use). */
static void bus_system(harness *h, uint32_t npus, const char *algo, double L, double o, double g, double G)
{
    uint32_t dims[] = {npus};
    const char *impl[] = {algo};
    harness_init(h, dims, 1, impl, 1, 1, 1);
    bus_params(h, L, o, g, G);
}

static void init_bus_harness(harness *h, uint32_t npus)
{
    bus_system(h, npus, "ring", 10, 2, 1, 0.25);
    assert_int_equal(shared_bus_init(&h->s), 0);
}

typedef struct bus_case {
    bool npu_to_ma, processed, send_back;
    vimana_tick want;
} bus_case;

static void test_single_request_paths(void **state)
{
    (void)state;
    /* one request per NPU at t = 0: every NPU has its own bus */
    static const bus_case cases[] = {
        {true, false, false, 52},   {true, true, false, 103},  {true, false, true, 104},
        {false, false, false, 52},  {false, false, true, 104}, {false, true, false, 131},
        {false, true, true, 183},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    harness h;
    recorder rec = {0};
    init_bus_harness(&h, 8);
    for (uint32_t i = 0; i < N; i++)
        shared_bus_request(&h.s, i, cases[i].npu_to_ma, 100, cases[i].processed, cases[i].send_back, record_done,
                           &rec, i);
    harness_run_events(&h);
    assert_int_equal(rec.n, N);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(rec.at[i], cases[i].want);
    harness_fini(&h);
}

/* After more than THRESHOLD = 8 sends in a row an endpoint lets a partner
 * with pending sends go first.
 * At t = 0 NPU 0 gets one plain request entering at the NPU side (#0), then
 * ten entering at the MA side (#1 .. #10). #0 crosses MEM2 -> NPU2 and
 * reaches the NPU side's send queue at 14, but the NPU side is receiving
 * from then on: the MA side sends #k at 26(k-1) (back to back, each sender
 * busy 26), and each receive (38) overlaps the next, so the NPU side never
 * becomes free. #k is received at 26(k-1) + 38 and retired over the nested
 * bus (+14): done at 52 + 26(k-1) for k = 1 .. 9, the last at 260.
 * At 234 the MA side finishes its 9th send in a row (9 > 8); the NPU side
 * has #0 waiting and has sent nothing (0 <= 8), so the MA side keeps #10
 * and, the NPU side being busy receiving, waits. At 246 the NPU side
 * finishes receiving #9, is free and sends #0: received at 246 + 38 = 284,
 * done. Only then does the MA side, free again, send #10: received at
 * 284 + 38 = 322, retired at 336.
 * (Without the rule, #10 would go at 234 and be done at 286, and #0 would
 * wait until 272 and be done at 310.) */
static void test_threshold_alternation(void **state)
{
    (void)state;
    harness h;
    recorder rec = {0};
    init_bus_harness(&h, 2);
    shared_bus_request(&h.s, 0, true, 100, false, false, record_done, &rec, 0);
    for (uint32_t k = 1; k <= 10; k++)
        shared_bus_request(&h.s, 0, false, 100, false, false, record_done, &rec, k);
    harness_run_events(&h);
    assert_int_equal(rec.n, 11);
    for (uint32_t k = 1; k <= 9; k++)
        assert_int_equal(rec.at[k], 52 + 26 * (k - 1));
    assert_int_equal(rec.at[0], 284);
    assert_int_equal(rec.at[10], 336);
    harness_fini(&h);
}

typedef struct late_request {
    harness *h;
    recorder *rec;
} late_request;

static void issue_late(void *arg, uint64_t which)
{
    late_request *l = arg;
    sim_enter(&l->h->s); /* a host callback entered from the backend's loop */
    shared_bus_request(&l->h->s, 0, false, 100, false, false, record_done, l->rec, which);
}

/* g = 30 > o = 2: an endpoint that sent last waits out the gap.
 * #1 (t = 0): offset o: received at 38, retired at 52.
 * #2 (t = 0, queued): sent at 26 when #1's send ends, 0 ticks later:
 *   o + 0 <= g, so offset = g - 0 = 30; received after
 *   trunc(30 + 24.75 + 12) = 66, at 92 (sender busy trunc(54.75) = 54, to
 *   80); retired at 106 (the nested sender last sent at 40, long enough ago).
 * #3 (issued at 90): 10 ticks after the last send ended: o + 10 <= g, so
 *   offset = g - 10 = 20; received after trunc(20 + 24.75 + 12) = 56, at
 *   146; retired at 160. */
static void test_gap_between_sends(void **state)
{
    (void)state;
    harness h;
    recorder rec = {0};
    bus_system(&h, 2, "ring", 10, 2, 30, 0.25);
    late_request late = {&h, &rec};
    shared_bus_request(&h.s, 0, false, 100, false, false, record_done, &rec, 1);
    shared_bus_request(&h.s, 0, false, 100, false, false, record_done, &rec, 2);
    sim_schedule(&h.s, 90, issue_late, &late, 3);
    harness_run_events(&h);
    assert_int_equal(rec.n, 3);
    assert_int_equal(rec.at[1], 52);
    assert_int_equal(rec.at[2], 106);
    assert_int_equal(rec.at[3], 160);
    harness_fini(&h);
}

/* The reference stores G as a float: 0.7 becomes 0.699999988..., so an
 * 11-byte transfer is received after trunc(2 + 10 * 0.699999988 + 12) =
 * trunc(20.99999988) = 20 (21 with a double 0.7), and retired over the
 * nested bus after trunc(2 + 10 * 0.0038 + 12) = 14 more: 34. */
static void test_G_is_a_float(void **state)
{
    (void)state;
    harness h;
    recorder rec = {0};
    bus_system(&h, 2, "ring", 10, 2, 1, 0.7);
    /* the bus is set up on first use */
    shared_bus_request(&h.s, 0, false, 11, false, false, record_done, &rec, 0);
    harness_run_events(&h);
    assert_int_equal(rec.n, 1);
    assert_int_equal(rec.at[0], 34);
    harness_fini(&h);
}

static void test_rejects_negative_parameters(void **state)
{
    (void)state;
    harness h;
    bus_system(&h, 2, "ring", 10, -1, 1, 0.25);
    assert_int_equal(shared_bus_init(&h.s), -1);
    assert_true(h.s.failed);
    assert_non_null(strstr(h.s.error, "'o'"));
    harness_fini(&h);
}

static void check_send_times(const harness *h, uint32_t npu, const vimana_tick *want, uint32_t n)
{
    sent_msg got[16];
    assert_int_equal(harness_sent_by(h, npu, got, 16), n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(got[i].at, want[i]);
}

/* Ring all-reduce of 400 bytes on 4 NPUs, one chunk: six messages of 100
 * bytes, every NPU alike. Bundle costs (header) plus, for processed ones,
 * the reduction 3 * trunc(100 / 50e9 * 1e9) = 6 that PacketBundle::call
 * still adds when the bus hands the bundle back:
 *   StreamInit: zero-latency packet, enters at the NPU side      52 -> send 1 at 52
 *   receipts 1, 2 (t = 152, 441): processed and sent back  183 + 6 = 189
 *     -> sends 2, 3 at 341, 630
 *   receipt 3 (730): the last processed one, not sent back 131 + 6 = 137
 *     -> send 4 at 867
 *   receipt 4 (967): counters reload, zero-latency packet         52
 *     -> send 5 at 1019
 *   receipt 5 (1119): not processed, sent back                    104
 *     -> send 6 at 1223
 *   receipt 6 (1323): same bundle, nothing left to send; the phase ends at
 *     1323 + 104 = 1427. */
static void test_ring_all_reduce(void **state)
{
    (void)state;
    harness h;
    init_bus_harness(&h, 4);
    harness_run_collective(&h, COLL_ALL_REDUCE, 400);
    static const vimana_tick want[] = {52, 341, 630, 867, 1019, 1223};
    for (uint32_t npu = 0; npu < 4; npu++) {
        check_send_times(&h, npu, want, 6);
        assert_int_equal(h.finish_tick[npu], 1427);
    }
    harness_fini(&h);
}

/* Double binary tree all-reduce of 400 bytes on 4 NPUs (max tree: root 3,
 * intermediate 1, leaves 0 and 2), one chunk. For 400 bytes: outer receive
 * trunc(2 + 399 * 0.25 + 12) = 113, outer sender busy 101; nested receive
 * trunc(2 + 1.5162 + 12) = 15; processing 4 + 50 = 54; reduction 3 * 8 = 24.
 *   leaves: bundle enters at the NPU side: 15 + 113 = 128 -> send to 1.
 *   NPU 1: both children arrive at 228; two bundles enter its MA side:
 *     A (processed): sent at 228, received 341 (the NPU side stays
 *       Receiving: B is already on its way), round trip over the nested bus
 *       to 371, processed to 425, retired at 440, +24: General at 464 (only
 *       counted);
 *     B (processed, sent back): sent when A's send ends at 329, received
 *       442, round trip to 472, processed to 526, round trip to 556, back
 *       over the outer bus to 669, +24: General at 693 -> send to 3.
 *   root 3: receives at 793; processed and sent back on an idle bus:
 *     113 + 30 + 54 + 30 + 113 + 24 = 364 -> send to 1 and exit at 1157.
 *   NPU 1: receives at 1257, the same 364 -> sends to 0 and 2, exits 1621.
 *   leaves: receive at 1721; bundle enters at the MA side, plain:
 *     113 + 15 = 128 -> exit at 1849. */
static void test_double_binary_tree(void **state)
{
    (void)state;
    harness h;
    bus_system(&h, 4, "doubleBinaryTree", 10, 2, 1, 0.25);
    harness_run_collective(&h, COLL_ALL_REDUCE, 400);
    static const vimana_tick leaf[] = {128}, mid[] = {693, 1621, 1621}, root[] = {1157};
    check_send_times(&h, 0, leaf, 1);
    check_send_times(&h, 2, leaf, 1);
    check_send_times(&h, 1, mid, 3);
    check_send_times(&h, 3, root, 1);
    static const vimana_tick finish[] = {1849, 1621, 1849, 1157};
    for (uint32_t npu = 0; npu < 4; npu++)
        assert_int_equal(h.finish_tick[npu], finish[npu]);
    harness_fini(&h);
}

/* Communicator-group local rings transmit "Fast": the fixed 10 ticks, bus
 * or not. Groups {0, 1} and {2, 3} each all-reduce 400 bytes on a 2-NPU
 * ring: messages of 200 bytes, reduction 3 * trunc(200 / 50) = 12.
 *   StreamInit: 10 -> send 1 at 10; receipt at 110: processed, 10 + 12
 *   -> send 2 at 132; receipt at 232: zero-latency, 10 -> exit at 242. */
static void test_group_ring_keeps_fixed_delay(void **state)
{
    (void)state;
    harness h;
    init_bus_harness(&h, 4);
    static const uint32_t g1[] = {0, 1}, g2[] = {2, 3};
    for (uint32_t npu = 0; npu < 4; npu++) {
        assert_int_equal(system_add_group(&h.s, npu, 1, 1, g1, 2), 0);
        assert_int_equal(system_add_group(&h.s, npu, 2, 2, g2, 2), 0);
    }
    for (uint32_t npu = 0; npu < 4; npu++)
        harness_start_in_group(&h, npu, 0, COLL_ALL_REDUCE, 400, npu < 2 ? 1 : 2);
    harness_run(&h);
    static const vimana_tick want[] = {10, 132};
    for (uint32_t npu = 0; npu < 4; npu++) {
        check_send_times(&h, npu, want, 2);
        assert_int_equal(h.finish_tick[npu], 242);
    }
    harness_fini(&h);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_single_request_paths),
    cmocka_unit_test(test_threshold_alternation),
    cmocka_unit_test(test_gap_between_sends),
    cmocka_unit_test(test_G_is_a_float),
    cmocka_unit_test(test_rejects_negative_parameters),
    cmocka_unit_test(test_ring_all_reduce),
    cmocka_unit_test(test_double_binary_tree),
    cmocka_unit_test(test_group_ring_keeps_fixed_delay)
)
