/* The NCCL-aware model (docs/nccl.md) on the recording fake network, where
 * every message arrives FAKE_DELAY = 100 ticks after it is sent: for each
 * algorithm and protocol, the messages (peer, wire bytes) and the finish
 * tick against the closed form T = launch + steps * (100 + hop), worked out
 * by hand below from the parameters of test_params(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"

#include "config/nccl_params.h"
#include "sim_harness.h"
#include "system/algorithms/nccl_model.h"

#define NET 100

/* Round numbers so that every wire size below is exact by hand. */
static nccl_params test_params(void)
{
    nccl_params p;
    nccl_params_default(&p);
    p.launch_ns = 1000;
    p.hop_ns[NCCL_PROTO_LL] = 10;
    p.hop_ns[NCCL_PROTO_LL128] = 20;
    p.hop_ns[NCCL_PROTO_SIMPLE] = 30;
    p.nvls_hop_ns = 40;
    p.nvls_efficiency = 0.25;
    p.ll_max_bytes = 4096;
    p.ll128_max_bytes = 65536;
    p.nvls_min_bytes = 1048576;
    p.tree_max_bytes = 0;
    p.channels = 4;
    p.channel_min_bytes = 1024;
    p.nvlink_efficiency = 0.5;
    p.nic_efficiency = 0.8;
    p.nvlink_dims = 1;
    p.nvls = 1;
    return p;
}

typedef struct want {
    enum coll_kind kind;
    uint64_t bytes;
    uint32_t n_msgs;
    uint32_t dst[8];       /* NPU 0's peer of each message */
    uint64_t wire;         /* bytes of each message */
    vimana_tick finish;
} want;

static void run(const nccl_params *p, const want *w)
{
    harness h;
    uint32_t dims[] = {4};
    const char *impl[] = {"nccl"};
    harness_init(&h, dims, 1, impl, 1, 1, 1);
    for (int k = 0; k < COLL_KINDS; k++)
        h.s.cfg.nccl[k] = *p;
    harness_run_collective(&h, w->kind, w->bytes);
    sent_msg got[16];
    uint32_t k = harness_sent_by(&h, 0, got, 16);
    assert_int_equal(k, w->n_msgs);
    for (uint32_t i = 0; i < k; i++) {
        assert_int_equal(got[i].dst, w->dst[i]);
        assert_int_equal(got[i].bytes, w->wire);
    }
    for (uint32_t npu = 0; npu < 4; npu++)
        assert_int_equal(h.finish_tick[npu], w->finish);
    harness_fini(&h);
}

/* An all-reduce on the ring of 4: 6 steps to the next NPU, each message
 * `wire` bytes, every NPU done at `finish`. */
static void run_ring(const nccl_params *p, uint64_t bytes, uint64_t wire, vimana_tick finish)
{
    want w = {COLL_ALL_REDUCE, bytes, 6, {1, 1, 1, 1, 1, 1}, wire, finish};
    run(p, &w);
}

/* The sizes that pick each protocol on the ring of 4 (test_params): LL at
 * 4 KiB, LL128 at 32 KiB, Simple at 256 KiB; the wire bytes and finish
 * tick each must give, in that order. */
static void run_protocols(const nccl_params *p, const uint64_t wire[3], const vimana_tick finish[3])
{
    static const uint64_t bytes[3] = {4096, 32768, 262144};
    for (int i = 0; i < 3; i++)
        run_ring(p, bytes[i], wire[i], finish[i]);
}

/* LL: 4 KiB all-reduce, ring of 4: 6 steps of 1024 B; one channel of four
 * (1024 / channel-min-bytes 1024), so the step has 1/4 of the link, at
 * 0.5 payload x 0.5 NVLink efficiency: 1024 / (0.25 x 0.25) = 16384 B.
 * T = 1000 + 6 x (100 + 10) = 1660.
 * LL128: 32 KiB: 6 steps of 8192 B, all 4 channels (8192 / 1024 = 8,
 * capped at 4), 0.9375 x 0.5: ceil(8192 / 0.46875) = ceil(17476.27) =
 * 17477 B. T = 1000 + 6 x (100 + 20) = 1720.
 * Simple: 256 KiB: 6 steps of 65536 B at 1 x 0.5: 131072 B.
 * T = 1000 + 6 x (100 + 30) = 1780.
 * The same on a NIC dimension (nvlink-dims 0): 65536 / 0.8 = 81920 B. */
static void test_ring_protocols(void **state)
{
    (void)state;
    nccl_params p = test_params();
    run_protocols(&p, (const uint64_t[]){16384, 17477, 131072}, (const vimana_tick[]){1660, 1720, 1780});
    p.nvlink_dims = 0;
    run_ring(&p, 262144, 81920, 1780);
}

/* An all-reduce of `bytes` by NVLS on the 4 NPUs: 2 steps, each message
 * `wire` bytes; NVLS's own step latency 40: T = 1000 + 2 x (100 + 40) =
 * 1280. Then, without SHARP (nvls 0), an all-reduce of 1 MiB runs the
 * ring: 6 steps of 262144 / 0.5 = 524288 B (4 channels), T = 1780. */
static void run_nvls_then_ring(nccl_params p, const uint64_t *bytes, const uint64_t *wire, int n)
{
    for (int i = 0; i < n; i++)
        run(&p, &(want){COLL_ALL_REDUCE, bytes[i], 2, {1, 1}, wire[i], 1280});
    p.nvls = 0;
    run_ring(&p, 1048576, 524288, 1780);
}

/* NVLS from 1 MiB: 2 steps of 1 MiB x 5/8 = 655360 B (each NPU's link
 * carries in + in/n), Simple, at the NVLS efficiency 0.25: 2621440 B. */
static void test_nvls(void **state)
{
    (void)state;
    run_nvls_then_ring(test_params(), (const uint64_t[]){1048576}, (const uint64_t[]){2621440}, 1);
}

/* NVLS's channel step: nvls-channels 2 below nvls-wide-min-bytes 2 MiB.
 * 1 MiB: 655360 B a step would use 640 channels, capped at 2 of the 4:
 * 655360 / (0.25 x 2/4) = 5242880 B. 2 MiB: 2097152 x 5/8 = 1310720 B,
 * all 4 channels: 1310720 / 0.25 = 5242880 B. The ring ignores the step:
 * 1 MiB without SHARP stays 524288 B (4 channels). The fake network
 * takes 100 ticks a message: T = 1280 and 1780 as in run_nvls_then_ring. */
static void test_nvls_channel_step(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.nvls_channels = 2;
    p.nvls_wide_min_bytes = 2097152;
    run_nvls_then_ring(p, (const uint64_t[]){1048576, 2097152}, (const uint64_t[]){5242880, 5242880}, 2);
}

/* hop-overlap 0.5: the fake network takes 100 ticks a message, so a
 * step's wait is h - floor(0.5 x min(h, 100)): LL 10 - 5 = 5, Simple 30 -
 * 15 = 15 (T = 1000 + 6 x 105 = 1630, 1000 + 6 x 115 = 1690). A hop
 * longer than the message hides only half the message: h 300 -> 300 - 50
 * = 250 (T = 1000 + 6 x 350 = 3100); overlap 1: max(h, 100) per step. */
static void test_hop_overlap(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.hop_overlap = 0.5;
    run_ring(&p, 4096, 16384, 1630);
    run_ring(&p, 262144, 131072, 1690);
    p.hop_ns[NCCL_PROTO_SIMPLE] = 300;
    run_ring(&p, 262144, 131072, 3100);
    p.hop_overlap = 1;
    run_ring(&p, 262144, 131072, 1000 + 6 * 300);
    assert_int_equal(nccl_step_wait(&p, 300, 100), 200);
    assert_int_equal(nccl_step_wait(&p, 30, 100), 0);
}

/* What the discrete parameters decide of an all-reduce of 262144 B on 4
 * ranks: ring steps of 65536 B, tree steps of 131072 B (depth 2), NVLS
 * steps of 262144 x 5/8 = 163840 B; 4 channels from 1024 B a channel on
 * (all four algorithms' steps fill them), 2 ring channels from 32768 B.
 * No threshold passed; ll-max-bytes 262144 passes LL's. */
static void test_plan_choices(void **state)
{
    (void)state;
    nccl_params p = test_params();
    nccl_choices a, b;
    nccl_plan_choices(&p, COLL_ALL_REDUCE, 4, 262144, &a);
    assert_int_equal(a.verdicts, 0);
    assert_int_equal(a.channels_used[NCCL_ALGO_RING], 4);
    assert_int_equal(a.channels_used[NCCL_ALGO_TREE], 4);
    assert_int_equal(a.channels_used[NCCL_ALGO_NVLS], 4);
    p.channel_min_bytes = 16384;   /* plans alike */
    nccl_plan_choices(&p, COLL_ALL_REDUCE, 4, 262144, &b);
    assert_memory_equal(&a, &b, sizeof a);
    p.channel_min_bytes = 32768;
    nccl_plan_choices(&p, COLL_ALL_REDUCE, 4, 262144, &b);
    assert_int_equal(b.channels_used[NCCL_ALGO_RING], 2);
    assert_int_equal(b.channels_used[NCCL_ALGO_TREE], 4);
    assert_int_equal(b.channels_used[NCCL_ALGO_NVLS], 4);
    p.ll_max_bytes = 262144;
    p.nvls_min_bytes = 262144;
    p.tree_max_bytes = 262145;
    nccl_plan_choices(&p, COLL_ALL_REDUCE, 4, 262144, &b);
    assert_int_equal(b.verdicts, NCCL_LL_SIZE | NCCL_NVLS_SIZE | NCCL_TREE_SIZE);
    p.nvls = 0;   /* no NVLS: its threshold says nothing */
    nccl_plan_choices(&p, COLL_ALL_REDUCE, 4, 262144, &b);
    assert_int_equal(b.verdicts, NCCL_LL_SIZE | NCCL_TREE_SIZE);
}

/* Tree below tree-max-bytes: depth log2(4) = 2, 4 steps of 262144 / 2 =
 * 131072 B, Simple at 0.5: 262144 B. T = 1000 + 4 x 130 = 1520. */
static void test_tree(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.tree_max_bytes = 1048576;
    run(&p, &(want){COLL_ALL_REDUCE, 262144, 4, {1, 1, 1, 1}, 262144, 1520});
    /* tree-efficiency 0.5 halves the tree step's rate: twice the wire
     * bytes (the fake network's 100 ticks a message do not see them) */
    p.tree_efficiency = 0.5;
    run(&p, &(want){COLL_ALL_REDUCE, 262144, 4, {1, 1, 1, 1}, 524288, 1520});
    /* and leaves the ring alone: 2 MiB is past tree-max-bytes (ring,
     * Simple: 6 steps of 524288 B, 4 channels, 0.5 NVLink: 1048576 B) */
    p.nvls = 0;
    run_ring(&p, 2097152, 1048576, 1780);
}

/* Reduce-scatter of 4 KiB: 3 steps of 1024 B (LL, as in test_ring_protocols: 16384
 * B); all-gather of 1 KiB per rank (call bytes 4 KiB: LL) forwards 1024 B
 * a step; all-to-all sends 1024 B to the peers 1, 2, 3 places on.
 * T = 1000 + 3 x 110 = 1330. */
static void test_other_collectives(void **state)
{
    (void)state;
    nccl_params p = test_params();
    run(&p, &(want){COLL_REDUCE_SCATTER, 4096, 3, {1, 1, 1}, 16384, 1330});
    run(&p, &(want){COLL_ALL_GATHER, 1024, 3, {1, 1, 1}, 16384, 1330});
    run(&p, &(want){COLL_ALL_TO_ALL, 4096, 3, {1, 2, 3}, 16384, 1330});
}

/* No launch overhead, no protocol latency: the messages alone, 6 x 100. */
static void test_no_waits(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.launch_ns = 0;
    p.hop_ns[NCCL_PROTO_LL] = 0;
    run_ring(&p, 4096, 16384, 600);
}

/* The plan of the first phase of an all-reduce of `bytes` on n NPUs over
 * dimension dim (the link's rate left to the parameters). */
static nccl_plan plan_of(const nccl_params *p, uint32_t n, uint32_t dim, uint64_t bytes)
{
    nccl_plan plan;
    nccl_plan_phase(p, COLL_ALL_REDUCE, n, dim, 0, bytes, true, &plan);
    return plan;
}

/* The protocol thresholds of an all-reduce on 4 NPUs (dimension 0), both
 * inclusive: LL up to ll_max bytes, LL128 up to ll128_max, Simple past. */
static void expect_protocol_bounds(const nccl_params *p, uint64_t ll_max, uint64_t ll128_max)
{
    assert_int_equal(plan_of(p, 4, 0, ll_max).proto, NCCL_PROTO_LL);
    assert_int_equal(plan_of(p, 4, 0, ll_max + 1).proto, NCCL_PROTO_LL128);
    assert_int_equal(plan_of(p, 4, 0, ll128_max).proto, NCCL_PROTO_LL128);
    assert_int_equal(plan_of(p, 4, 0, ll128_max + 1).proto, NCCL_PROTO_SIMPLE);
}

/* The plan's thresholds are inclusive as documented: ll-max-bytes is
 * still LL, one byte more is LL128; nvls-min-bytes is NVLS. */
static void test_thresholds(void **state)
{
    (void)state;
    nccl_params p = test_params();
    expect_protocol_bounds(&p, 4096, 65536);
    assert_int_equal(plan_of(&p, 4, 0, 65537).algo, NCCL_ALGO_RING);
    nccl_plan plan;
    nccl_plan_phase(&p, COLL_ALL_REDUCE, 4, 0, 0, 1048576, false, &plan);
    assert_int_equal(plan.algo, NCCL_ALGO_NVLS);
    assert_int_equal(plan.launch_ticks, 0);
    /* NVLS only on an NVLink dimension, and not for two NPUs */
    assert_int_equal(plan_of(&p, 4, 1, 1048576).algo, NCCL_ALGO_RING);
    assert_int_equal(plan_of(&p, 2, 0, 1048576).algo, NCCL_ALGO_RING);
}

/* The rate shares slow LL and LL128 on the wire, not Simple: LL 4 KiB
 * with ll-rate-share 0.5: 1024 / (0.5 payload x 0.5 share x 0.5 NVLink x
 * 1/4 channel) = 32768 B; LL128 32 KiB with ll128-rate-share 0.8:
 * ceil(8192 / (0.9375 x 0.8 x 0.5)) = ceil(21845.33) = 21846 B; Simple
 * 256 KiB keeps 131072 B. The fake network takes 100 ticks a message
 * whatever its size, so the times stay 1660, 1720 and 1780. */
static void test_rate_shares(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.ll_rate_share = 0.5;
    p.ll128_rate_share = 0.8;
    run_protocols(&p, (const uint64_t[]){32768, 21846, 131072}, (const vimana_tick[]){1660, 1720, 1780});
}

/* threshold-ranks 8 on 4 NPUs halves the protocol thresholds (4096 ->
 * 2048, 65536 -> 32768); 2 doubles them; NVLS's is not scaled. */
static void test_threshold_ranks(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.threshold_ranks = 8;
    expect_protocol_bounds(&p, 2048, 32768);
    assert_int_equal(plan_of(&p, 4, 0, 1048576).algo, NCCL_ALGO_NVLS);
    p.threshold_ranks = 2;
    expect_protocol_bounds(&p, 8192, 131072);
}

/* nic-hop-latency-ns 45 waits after each ring step on a NIC dimension
 * only: Simple 256 KiB with nvlink-dims 0: T = 1000 + 6 x (100 + 30 + 45)
 * = 2050; on NVLink (nvlink-dims 1) it stays 1780; the plan's hop of
 * dimension 1 (NIC) is 30 + 45 = 75, of dimension 0 30; NVLS's is its own. */
static void test_nic_hop(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.nic_hop_ns = 45;
    run_ring(&p, 262144, 131072, 1780);
    assert_int_equal(plan_of(&p, 4, 0, 262144).hop_ticks, 30);
    assert_int_equal(plan_of(&p, 4, 1, 262144).hop_ticks, 75);
    assert_int_equal(plan_of(&p, 4, 0, 1048576).hop_ticks, 40);
    p.nvlink_dims = 0;
    run_ring(&p, 262144, 81920, 2050);
}

/* oneNccl on two dimensions of 2 (NVLink, then NIC): NCCL's flat ring in
 * snake order 0, 1, 3, 2. 1 MiB all-reduce: no NVLS (the ring spans the
 * NIC), ring Simple, 6 steps of 262144 B on 4 channels. NVLink steps (0 ->
 * 1, 3 -> 2): 262144 / (0.5 x 4/4) = 524288 B, a wait of 30; NIC steps (1
 * -> 3, 2 -> 0): the 4 channels over the node's 2 NICs, 262144 / (0.8 x 2)
 * = 163840 B, a wait of 30 + 45. Every message takes 100: positions after
 * a NIC step (even: wait 30) and after an NVLink one (odd: 75) run
 * t(k) = max(own t(k-1), predecessor's + 100) + wait from 1000:
 * 1130 / 1175, 1305 / 1305, 1435 / 1480, 1610 / 1610, 1740 / 1785,
 * 1915 / 1915. */
static void test_flat_two_dims(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.nic_hop_ns = 45;
    harness h;
    uint32_t dims[] = {2, 2};
    const char *impl[] = {"oneNccl"};
    harness_init(&h, dims, 2, impl, 1, 1, 1);
    for (int k = 0; k < COLL_KINDS; k++)
        h.s.cfg.nccl[k] = p;
    harness_run_collective(&h, COLL_ALL_REDUCE, 1048576);
    static const uint32_t next[] = {1, 3, 0, 2};
    static const uint64_t wire[] = {524288, 163840, 163840, 524288};
    for (uint32_t npu = 0; npu < 4; npu++) {
        sent_msg got[8];
        assert_int_equal(harness_sent_by(&h, npu, got, 8), 6);
        for (int i = 0; i < 6; i++) {
            assert_int_equal(got[i].dst, next[npu]);
            assert_int_equal(got[i].bytes, wire[npu]);
        }
        assert_int_equal(h.finish_tick[npu], 1915);
    }
    harness_fini(&h);
}

/* The snake order and the dimension a message crosses. */
static void test_flat_order(void **state)
{
    (void)state;
    const uint32_t two[] = {8, 2}, three[] = {3, 2, 3};
    static const uint32_t ring16[] = {0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8};
    for (uint32_t pos = 0; pos < 16; pos++) {
        assert_int_equal(nccl_flat_npu(two, 2, pos), ring16[pos]);
        assert_int_equal(nccl_flat_pos(two, 2, ring16[pos]), pos);
    }
    /* 3 x 2 x 3: (0,0,0) (1,0,0) (2,0,0) (2,1,0) (1,1,0) (0,1,0) (0,1,1) ... */
    assert_int_equal(nccl_flat_npu(three, 3, 3), 5);
    assert_int_equal(nccl_flat_npu(three, 3, 6), 9);
    for (uint32_t pos = 0; pos < 18; pos++)
        assert_int_equal(nccl_flat_pos(three, 3, nccl_flat_npu(three, 3, pos)), pos);
    assert_int_equal(nccl_flat_dim(two, 2, 7, 15), 1);
    assert_int_equal(nccl_flat_dim(two, 2, 7, 8), 0);
    assert_int_equal(nccl_flat_dim(three, 3, 5, 11), 2);
    nccl_params p = test_params();
    assert_int_equal(nccl_flat_rails(&p, two, 2), 8);
    assert_true(!nccl_flat_nvlink_only(&p, two, 2));
    p.nvlink_dims = 2;
    assert_int_equal(nccl_flat_rails(&p, three, 3), 6);
    const uint32_t one_node[] = {8, 1};
    p.nvlink_dims = 1;
    assert_true(nccl_flat_nvlink_only(&p, one_node, 2));
}

/* The unit parameters with the tuner on and its bounds open: every
 * algorithm and protocol a candidate at every size. */
static nccl_params tuner_params(void)
{
    nccl_params p = test_params();
    p.tuner = 1;
    p.ll_max_bytes = p.ll128_max_bytes = p.tree_max_bytes = 9007199254740991.0;
    p.nvls_min_bytes = 0;
    return p;
}

/* The plan of an all-reduce of `bytes` on 4 NPUs of NVLink, the first of
 * its call, on route (NULL: none known); it must pick algo and proto. */
static nccl_plan expect_call(const nccl_params *p, uint64_t bytes, const nccl_route *route, enum nccl_algo algo,
                             enum nccl_proto proto)
{
    nccl_plan plan;
    nccl_plan_call(p, COLL_ALL_REDUCE, 4, true, bytes, true, route, &plan);
    assert_int_equal(plan.algo, algo);
    assert_int_equal(plan.proto, proto);
    return plan;
}

/* The tuner (tuner 1, bounds open), 4 NPUs on NVLink at 1 byte
 * per ns (docs/nccl.md, "The tuner"). 4 KiB all-reduce: ring LL 1000 +
 * 6 x (16384 + 10) = 99364, LL128 1000 + 6 x (ceil(1024 / (0.9375 x 0.5 x
 * 1/4)) + 20) = 53554, Simple 1000 + 6 x (8192 + 30) = 50332; tree (2
 * levels, 4 steps of 2048 B on 2 channels) LL 1000 + 4 x (16384 + 10) =
 * 66576, LL128 1000 + 4 x (8739 + 20) = 36036, Simple 1000 + 4 x (8192 +
 * 30) = 33888; NVLS (2 steps of 4096 x 5/8 = 2560 B on 2 channels at
 * 0.25) 1000 + 2 x (20480 + 40) = 42040: tree Simple. The thresholds
 * alone would run ring LL; as the tuner's bounds (LL to 4 KiB, LL128 to
 * 64 KiB, no tree, NVLS from 1 MiB) they leave the ring: Simple. */
static void test_tuner_small(void **state)
{
    (void)state;
    nccl_params p = tuner_params();
    nccl_route link = {.n_dims = 1, .dim = {0}, .bytes_per_ns = {1.0}};
    nccl_plan plan = expect_call(&p, 4096, &link, NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE);
    assert_int_equal(plan.steps, 4);
    assert_int_equal(plan.step_bytes, 2048);
    assert_true(nccl_plan_estimate(&p, &plan, &link) == 33888.0);
    /* each candidate's estimate, forced */
    static const struct {
        enum nccl_algo a;
        enum nccl_proto pr;
        double ns;
    } cands[] = {{NCCL_ALGO_RING, NCCL_PROTO_LL, 99364},     {NCCL_ALGO_RING, NCCL_PROTO_LL128, 53554},
                 {NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 50332}, {NCCL_ALGO_TREE, NCCL_PROTO_LL, 66576},
                 {NCCL_ALGO_TREE, NCCL_PROTO_LL128, 36036},  {NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE, 42040}};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        nccl_params forced = p;
        forced.tuner = 0;
        forced.ll_max_bytes = cands[i].pr == NCCL_PROTO_LL ? 1e9 : 0;
        forced.ll128_max_bytes = cands[i].pr == NCCL_PROTO_SIMPLE ? forced.ll_max_bytes : 1e9;
        forced.tree_max_bytes = cands[i].a == NCCL_ALGO_TREE ? 1e9 : 0;
        forced.nvls_min_bytes = cands[i].a == NCCL_ALGO_NVLS ? 0 : 1e9;
        plan = expect_call(&forced, 4096, NULL, cands[i].a, cands[i].pr);
        assert_true(nccl_plan_estimate(&p, &plan, &link) == cands[i].ns);
    }
    /* the thresholds as bounds */
    nccl_params bounded = test_params();
    bounded.tuner = 1;
    expect_call(&bounded, 4096, &link, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE);
    /* without a route, or with a link of unknown rate, the thresholds choose */
    expect_call(&bounded, 4096, NULL, NCCL_ALGO_RING, NCCL_PROTO_LL);
    link.bytes_per_ns[0] = 0;
    expect_call(&bounded, 4096, &link, NCCL_ALGO_RING, NCCL_PROTO_LL);
}

/* 1 MiB all-reduce, tuner 1 (bounds open), 1 byte per ns: ring Simple
 * 1000 + 6 x (524288 + 30) = 3146908 (LL 1000 + 6 x (1048576 + 10) =
 * 6292516, LL128 1000 + 6 x (559241 + 20) = 3356566); tree Simple 1000 + 4 x (1048576 + 30) =
 * 4195424; NVLS at 0.25: 2 x 655360 / 0.25 = 2621440 B a step, 1000 + 2 x
 * 2621480 = 5243960: ring. At nvls-efficiency 0.5 NVLS is 1000 + 2 x
 * (1310720 + 40) = 2622520: NVLS. On 2 NPUs (no tree or NVLS) and for a
 * reduce-scatter, the ring. A NIC dimension (nvlink_only false): no NVLS. */
static void test_tuner_large(void **state)
{
    (void)state;
    nccl_params p = tuner_params();
    nccl_route link = {.n_dims = 1, .dim = {0}, .bytes_per_ns = {1.0}};
    nccl_plan plan = expect_call(&p, 1048576, &link, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE);
    assert_true(nccl_plan_estimate(&p, &plan, &link) == 3146908.0);
    p.nvls_efficiency = 0.5;
    plan = expect_call(&p, 1048576, &link, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE);
    assert_int_equal(plan.step_bytes, 655360);
    assert_true(nccl_plan_estimate(&p, &plan, &link) == 2622520.0);
    nccl_plan_call(&p, COLL_ALL_REDUCE, 4, false, 1048576, true, &link, &plan);
    assert_int_equal(plan.algo, NCCL_ALGO_RING);
    nccl_plan_call(&p, COLL_ALL_REDUCE, 2, true, 1048576, true, &link, &plan);
    assert_int_equal(plan.algo, NCCL_ALGO_RING);
    nccl_plan_call(&p, COLL_REDUCE_SCATTER, 4, true, 1048576, true, &link, &plan);
    assert_int_equal(plan.algo, NCCL_ALGO_RING);
    assert_int_equal(plan.proto, NCCL_PROTO_SIMPLE);
}

/* A flat ring's estimate waits for its slowest link: two dimensions of 2
 * (NVLink at 1 byte/ns, the NIC at 0.5), 1 MiB reduce-scatter, Simple
 * (forced by the thresholds, tuner 0): 3 steps of 262144 B on 4 channels;
 * NVLink 262144 / 0.5 = 524288 B -> 524288 ns + 30; NIC over 2 rails
 * 262144 / (0.8 x 2) = 163840 B -> 327680 ns + 30: E = 1000 + 3 x 524318
 * = 1573954. */
static void test_tuner_flat_estimate(void **state)
{
    (void)state;
    nccl_params p = test_params();
    p.ll_max_bytes = 0;
    p.ll128_max_bytes = 0;
    nccl_route route = {.n_dims = 2, .dim = {0, 1}, .bytes_per_ns = {1.0, 0.5}, .rails = 2};
    nccl_plan plan;
    nccl_plan_call(&p, COLL_REDUCE_SCATTER, 4, false, 1048576, true, &route, &plan);
    assert_int_equal(plan.proto, NCCL_PROTO_SIMPLE);
    assert_true(nccl_plan_estimate(&p, &plan, &route) == 1573954.0);
    route.bytes_per_ns[1] = 0.25;   /* the NIC now the slower: 655360 + 30 */
    assert_true(nccl_plan_estimate(&p, &plan, &route) == 1000.0 + 3 * 655390.0);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_ring_protocols),
    cmocka_unit_test(test_nvls),
    cmocka_unit_test(test_tree),
    cmocka_unit_test(test_nvls_channel_step),
    cmocka_unit_test(test_hop_overlap),
    cmocka_unit_test(test_other_collectives),
    cmocka_unit_test(test_no_waits),
    cmocka_unit_test(test_thresholds),
    cmocka_unit_test(test_rate_shares),
    cmocka_unit_test(test_threshold_ranks),
    cmocka_unit_test(test_nic_hop),
    cmocka_unit_test(test_flat_two_dims),
    cmocka_unit_test(test_flat_order),
    cmocka_unit_test(test_tuner_small),
    cmocka_unit_test(test_tuner_large),
    cmocka_unit_test(test_tuner_flat_estimate),
    cmocka_unit_test(test_plan_choices)
)
