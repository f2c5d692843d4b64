/*
 * test_ns3_cc_math.c - ns3_shim's physics arithmetic (backends/ns3_shim/
 * cc_math.c) against numbers derived by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include "unit_main.h"

#include "ns3_shim/cc_math.h"

/* kmin 1000, kmax 3000, pmax 0.2: 0 up to 1000 included, then
 * 0.2 (q - 1000) / 2000, 0.2 at 3000, 1 from 3001. */
static void ecn_rule_at_the_boundaries(void **state)
{
    (void)state;
    assert_true(cc_ecn_probability(0, 1000, 3000, 0.2) == 0);
    assert_true(cc_ecn_probability(1000, 1000, 3000, 0.2) == 0);
    assert_float_equal(cc_ecn_probability(1001, 1000, 3000, 0.2), 0.0001, 1e-15);
    assert_float_equal(cc_ecn_probability(2000, 1000, 3000, 0.2), 0.1, 1e-15);
    assert_float_equal(cc_ecn_probability(3000, 1000, 3000, 0.2), 0.2, 1e-15);
    assert_true(cc_ecn_probability(3001, 1000, 3000, 0.2) == 1);
    /* kmin == kmax: a step. */
    assert_true(cc_ecn_probability(500, 500, 500, 0.5) == 0);
    assert_true(cc_ecn_probability(501, 500, 500, 0.5) == 1);
}

/* Certain decisions draw nothing: the RNG state is untouched, so packets
 * that are never or always marked cannot shift later draws. */
static void ecn_mark_draws_only_when_uncertain(void **state)
{
    (void)state;
    uint64_t rng = 42;
    assert_false(cc_ecn_mark(1000, 1000, 3000, 0.2, &rng));
    assert_true(cc_ecn_mark(3001, 1000, 3000, 0.2, &rng));
    assert_true(rng == 42);
    /* pmax 1 at kmax: certain, no draw. */
    assert_true(cc_ecn_mark(3000, 1000, 3000, 1.0, &rng));
    assert_true(rng == 42);
    /* Uncertain: one draw each, and the same seed gives the same marks. */
    uint64_t a = 7, b = 7;
    unsigned marks_a = 0, marks_b = 0;
    for (int i = 0; i < 10000; i++) {
        marks_a += cc_ecn_mark(2000, 1000, 3000, 0.2, &a);
        marks_b += cc_ecn_mark(2000, 1000, 3000, 0.2, &b);
    }
    assert_int_equal(marks_a, marks_b);
    assert_true(a == 7 + 10000 * 0x9e3779b97f4a7c15ull);
    /* p = 0.1: 1000 expected, 30 standard deviations wide is 900 to 1100. */
    assert_in_range(marks_a, 900, 1100);
}

static const cc_dcqcn_params DCQCN = {
    .line_bps = 100e9, .rate_ai_bps = 5e9, .rate_hai_bps = 50e9, .min_bps = 100e6, .g = 1.0 / 256, .stages = 5,
    .byte_counter = 0,
};

/* Two CNPs from line rate with alpha = 1: Rc halves twice (100 -> 50 ->
 * 25 G), Rt follows Rc's old value (50 G), alpha stays (255/256 + 1/256).
 * Then timers: fast recovery averages Rc with Rt for F = 5 steps counted
 * from the decrease (37.5, 43.75, 46.875, 48.4375), alpha decays from the
 * second timer on (the first one's period had a CNP); the fifth timer
 * reaches F: additive increase, Rt = 55 G, Rc = (55 + 48.4375) / 2. */
static void dcqcn_decrease_and_recovery(void **state)
{
    (void)state;
    cc_dcqcn s;
    cc_dcqcn_init(&s, &DCQCN);
    assert_true(s.rc == 100e9 && s.rt == 100e9 && s.alpha == 1);
    cc_dcqcn_on_cnp(&s, &DCQCN);
    assert_true(s.rc == 50e9 && s.rt == 100e9 && s.alpha == 1);
    cc_dcqcn_on_cnp(&s, &DCQCN);
    assert_true(s.rc == 25e9 && s.rt == 50e9 && s.alpha == 1);
    cc_dcqcn_on_timer(&s, &DCQCN);
    assert_true(s.rc == 37.5e9 && s.rt == 50e9 && s.alpha == 1);
    cc_dcqcn_on_timer(&s, &DCQCN);
    assert_true(s.rc == 43.75e9 && s.alpha == 255.0 / 256);
    cc_dcqcn_on_timer(&s, &DCQCN);
    assert_true(s.rc == 46.875e9);
    cc_dcqcn_on_timer(&s, &DCQCN);
    assert_true(s.rc == 48.4375e9 && s.rt == 50e9);
    cc_dcqcn_on_timer(&s, &DCQCN);
    assert_true(s.rt == 55e9 && s.rc == 51.71875e9);
    assert_float_equal(s.alpha, (255.0 / 256) * (255.0 / 256) * (255.0 / 256) * (255.0 / 256), 1e-15);
    /* A CNP now: Rt = Rc, Rc (1 - alpha / 2), alpha = (1 - g) alpha + g. */
    double alpha = s.alpha;
    cc_dcqcn_on_cnp(&s, &DCQCN);
    assert_true(s.rt == 51.71875e9);
    assert_float_equal(s.rc, 51.71875e9 * (1 - alpha / 2), 1e-3);
    assert_float_equal(s.alpha, (255.0 / 256) * alpha + 1.0 / 256, 1e-15);
    assert_int_equal(s.t_count, 0);
}

/* The floor: 150 Mbit/s halved is 75, held at the 100 Mbit/s minimum. */
static void dcqcn_min_rate(void **state)
{
    (void)state;
    cc_dcqcn s;
    cc_dcqcn_init(&s, &DCQCN);
    s.rc = 150e6;
    cc_dcqcn_on_cnp(&s, &DCQCN);
    assert_true(s.rc == 100e6 && s.rt == 150e6);
}

/* Hyper increase once both counters reach F: with a byte counter of 1000
 * and 5 timers behind (additive from the fifth), 5000 bytes make 5 byte
 * steps: four additive (b_count 1..4 < F: one counter done), the fifth
 * hyper (Rt += 50 G, capped at line). Rc averages each time. */
static void dcqcn_hyper_increase(void **state)
{
    (void)state;
    cc_dcqcn_params p = DCQCN;
    p.byte_counter = 1000;
    cc_dcqcn s;
    cc_dcqcn_init(&s, &p);
    s.rc = s.rt = 10e9;
    s.t_count = 5;
    cc_dcqcn_on_sent(&s, &p, 999);
    assert_true(s.rt == 10e9 && s.bytes == 999);
    cc_dcqcn_on_sent(&s, &p, 4001);
    /* Rt: 15, 20, 25, 30 (additive), 80 (hyper); Rc: 12.5, 16.25, 20.625,
     * 25.3125, 52.65625. */
    assert_true(s.rt == 80e9);
    assert_true(s.rc == 52.65625e9);
    assert_int_equal(s.b_count, 5);
    assert_true(s.bytes == 0);
    /* Capped at line rate. */
    cc_dcqcn_on_sent(&s, &p, 1000);
    assert_true(s.rt == 100e9 && s.rc == 76.328125e9);
}

/* One ACK of ack_seq (snd_nxt sent) through one hop, and what HPCC holds
 * after it: U, the window it returns, Wc and the increase stage. */
typedef struct hpcc_ack {
    uint64_t ack_seq, snd_nxt;
    double u, w, wc;
    uint32_t inc_stage;
} hpcc_ack;

static void expect_hpcc_ack(cc_hpcc *s, const cc_hpcc_params *p, cc_int_hop hop, hpcc_ack want)
{
    double w = cc_hpcc_on_ack(s, p, &hop, 1, want.ack_seq, want.snd_nxt);
    assert_float_equal(s->u, want.u, 1e-12);
    assert_float_equal(w, want.w, 1e-6);
    assert_float_equal(s->wc, want.wc, 1e-6);
    assert_int_equal(s->inc_stage, want.inc_stage);
}

/* HPCC, T = 10 us, 100 Gbit/s: W_init = 12.5 B/ns x 10000 ns = 125000 B,
 * W_AI (50 Mbit/s x T) = 62.5 B. First ACK: the hops are recorded, U stays
 * 0. Second, T later, the port sent 125000 B (line rate) with no queue in
 * both samples: U = 1 >= 0.95: W = Wc / (1 / 0.95) + 62.5 = 118812.5, Wc
 * takes it. Third, T later, 62500 B (half rate) and queues 12500 then
 * 25000 (the smaller, 12500 = 0.1 BDP, counts): U = 0.6 < eta: W = Wc +
 * W_AI = 118875. A fourth ACK of the same RTT (seq not past the last
 * update) computes W but leaves Wc. */
static void hpcc_window(void **state)
{
    (void)state;
    cc_hpcc_params p = {.eta = 0.95, .max_stage = 5, .w_ai = 62.5, .w_init = 125000, .w_min = 4096,
                        .t_ps = 10000000};
    cc_hpcc s;
    cc_hpcc_init(&s, &p);
    cc_int_hop h = {.qlen = 0, .tx_bytes = 0, .ts_ps = 0, .bps = 100e9};
    double w = cc_hpcc_on_ack(&s, &p, &h, 1, 1, 10);
    assert_true(s.u == 0);
    assert_true(w == 125000);
    expect_hpcc_ack(&s, &p, (cc_int_hop){.qlen = 12500, .tx_bytes = 125000, .ts_ps = 10000000, .bps = 100e9},
                    (hpcc_ack){.ack_seq = 11, .snd_nxt = 20, .u = 1.0, .w = 118812.5, .wc = 118812.5});
    h = (cc_int_hop){.qlen = 25000, .tx_bytes = 187500, .ts_ps = 20000000, .bps = 100e9};
    w = cc_hpcc_on_ack(&s, &p, &h, 1, 21, 30);
    assert_float_equal(s.u, 0.6, 1e-12);
    assert_float_equal(w, 118875, 1e-6);
    assert_int_equal(s.inc_stage, 1);
    /* Same RTT (ack 25 <= last update 30): half a T at line rate, no
     * queue: u = 1, U = 0.5 x 0.6 + 0.5 x 1 = 0.8 < eta: W = Wc + W_AI,
     * Wc unchanged. */
    expect_hpcc_ack(&s, &p, (cc_int_hop){.qlen = 0, .tx_bytes = 250000, .ts_ps = 25000000, .bps = 100e9},
                    (hpcc_ack){.ack_seq = 25, .snd_nxt = 31, .u = 0.8, .w = 118937.5, .wc = 118875, .inc_stage = 1});
}

UNIT_TEST_MAIN(
    cmocka_unit_test(ecn_rule_at_the_boundaries), cmocka_unit_test(ecn_mark_draws_only_when_uncertain),
    cmocka_unit_test(dcqcn_decrease_and_recovery), cmocka_unit_test(dcqcn_min_rate),
    cmocka_unit_test(dcqcn_hyper_increase),       cmocka_unit_test(hpcc_window)
)
