/* The Garnet-style backend (backends/garnet_stub) through its descriptor,
 * as vimana loads it: exact delivery cycles of the flit-level rules,
 * round-robin sharing of a link by two packets, stop(), a deadlock that
 * ends the run as "stalled", options refused in init, link faults (a
 * bandwidth factor from a cycle on, a packet waiting for a VC of a link
 * that goes down routed again, faults refused). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit_main.h"

#include "backend_host.h"
#include "vimana/network_api.h"

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    (void)host;
    if (level != VIMANA_LOG_DEBUG)
        fail_msg("unexpected log (level %d): %s", (int)level, message);
}

/* Two NPUs on one link of 400Gbps = 50 bytes per ns, 500 ns. */
static const char p2p_text[] = "2 0 1\n\n0 1 400Gbps 500ns 0\n";
static const char ring4_text[] = "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n";

static int open_backend(host_rec *h, vimana_host *cb, const char *net, const char *options, char *err,
                        size_t len)
{
    h->be = backend_load("garnet_stub", "garnet");
    *cb = (vimana_host){.struct_size = sizeof *cb, .host = h, .log = host_log, .delivered = host_delivered,
                        .failed = host_failed};
    vimana_backend_params p = {.struct_size = sizeof p, .network_config = net, .options = options};
    return h->be->init(&p, cb, &h->ctx, err, len);
}

/* The backend opened on net with options; it must accept them. */
static void open_ok(host_rec *h, vimana_host *cb, const char *net, const char *options)
{
    char err[512] = "";
    assert_int_equal(open_backend(h, cb, net, options, err, sizeof err), VIMANA_OK);
}

/* A backend opened on a network written to a file of its own, so that a
 * test needs one call to start and one to end. */
typedef struct session {
    char path[32];
    host_rec h;
    vimana_host cb;
} session;

static void session_open(session *s, const char *net_text, const char *options)
{
    *s = (session){.path = "/tmp/garnet_netXXXXXX"};
    write_temp(s->path, net_text);
    open_ok(&s->h, &s->cb, s->path, options);
}

static void session_close(session *s)
{
    s->h.be->fini(s->h.ctx);
    unlink(s->path);
}

/* A run under options, and the ticks its deliveries must come at. */
typedef struct options_case {
    const char *options;
    vimana_tick at[2];
} options_case;

typedef struct message {
    uint32_t src, dst;
    uint64_t bytes, token;
} message;

/* Sends the n messages, all at 0, and runs: run() must end well with
 * delivered of them delivered. */
static void run_messages(host_rec *h, const message *m, size_t n, int delivered)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(h->be->sim_send(h->ctx, m[i].src, m[i].dst, m[i].bytes, 0, m[i].token), VIMANA_OK);
    assert_int_equal(h->be->run(h->ctx), VIMANA_OK);
    assert_int_equal(h->n, delivered);
}

/* The i-th delivery was of token, at tick at. */
static void expect_delivery(const host_rec *h, int i, uint64_t token, vimana_tick at)
{
    assert_int_equal(h->tokens[i], token);
    assert_int_equal(h->at[i], at);
}

/* A fault of link from tick at: its bandwidth times factor; it must be
 * accepted. */
static void fault_ok(host_rec *h, uint32_t link, vimana_tick at, double factor)
{
    char err[512] = "";
    assert_int_equal(h->be->link_fault(h->ctx, link, at, factor, err, sizeof err), VIMANA_OK);
}

/* Link counters of link as the backend reports them. */
static vimana_link_stats link_stats_of(const host_rec *h, uint32_t link)
{
    vimana_link_stats s = {0};
    assert_int_equal(h->be->link_stats(h->ctx, link, &s), VIMANA_OK);
    return s;
}

static void test_descriptor(void **state)
{
    (void)state;
    const vimana_backend *be = backend_load("garnet_stub", "garnet");
    assert_string_equal(be->name, "garnet");
    assert_int_equal(be->abi_minor, VIMANA_NETWORK_ABI_MINOR);
    assert_int_equal(be->capabilities, VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM);
    assert_non_null(be->stop);
    assert_non_null(be->device_name);
    assert_non_null(be->link_fault);
}

/* One flit (16 bytes) sent at 0: ready at 0 + 1, leaves at 1, ejected as
 * it arrives at 1 + 500 = 501 (the destination NI takes a flit without the
 * router pipeline: a lone 16-byte message costs p + L, as one hop should). */
static void test_one_flit(void **state)
{
    (void)state;
    session s;
    session_open(&s, p2p_text, NULL);
    run_messages(&s.h, (message[]){{0, 1, 16, 7}}, 1, 1);
    expect_delivery(&s.h, 0, 7, 501);
    vimana_link_stats st = link_stats_of(&s.h, 0);
    assert_int_equal(st.bytes, 16);
    assert_int_equal(st.messages, 1);
    session_close(&s);
}

/* Two packets of 64 flits from one NI share the link: the NI's injection
 * port serves one packet a cycle (separable switch allocation), round
 * robin, as many flits as the serialiser lets start (a flit every 0.32
 * cycles from cycle 1: flit k at 1 + 0.32 k). A takes the odd cycles, B
 * the even ones: 4 + 3 + 3 + 3 flits for A and 3 + 3 + 3 + 3 for B per 8
 * cycles, so after cycle 32 A has 52 and B 48; cycle 33 gives A 4 (56),
 * 34 B 3 (51), 35 A 3 (59), 36 B 3 (54), 37 A 3 (62), 38 B 3 (57), 39 A
 * its last 2: A's tail leaves at 39 (the third place of that cycle stays
 * empty: the port picked A), ejected at 39 + 500 = 539. The serialiser
 * (free at 39.72) restarts at 40: B sends 4 at 40 and its last 3 at 41,
 * ejected at 541. Alone, A would arrive at 1 + floor(63 x 0.32) + 500 =
 * 521. */
static void test_two_packets_share_a_link(void **state)
{
    (void)state;
    session s;
    session_open(&s, p2p_text, NULL);
    run_messages(&s.h, (message[]){{0, 1, 1024, 1}, {0, 1, 1024, 2}}, 2, 2);
    assert_int_equal(link_stats_of(&s.h, 0).messages, 2);
    expect_delivery(&s.h, 0, 1, 539);
    expect_delivery(&s.h, 1, 2, 541);
    session_close(&s);

    session_open(&s, p2p_text, NULL);
    run_messages(&s.h, (message[]){{0, 1, 1024, 1}}, 1, 1);
    assert_int_equal(s.h.at[0], 521);
    session_close(&s);
}

/* Two NPUs on one link of 16 bytes per ns (one 16-byte flit a cycle), 10
 * ns: flit c sent at cycle c is ejected downstream at c + 10. */
static const char p2p16_text[] = "2 0 1\n\n0 1 128Gbps 10ns 0\n";

/* One message of 10 flits (160 B) sent at 0, cut into packets of 4, 4 and
 * 2 flits (packet_flits=4). The NI cuts the next packet when the one before
 * takes its VC, and sends a message's flits in order, one a cycle:
 * P0 takes VC0 at 1 and sends at 1..4; P1 (cut at 1) takes VC1 at 2 and
 * sends at 5..8 (after P0's tail); P2 (cut at 2) needs a third VC.
 *  - vcs=4: P2 takes VC2 at 3 and sends at 9, 10: the tail is ejected at
 *    10 + 10 = 20, as one packet of 10 flits (packet_flits=max) is.
 *  - vcs=2: P2 waits for VC0, free once P0's tail (sent at 4, ejected at
 *    14) has its credit back upstream, at 14 + 10 = 24: it sends at 24, 25
 *    and is ejected at 25 + 10 = 35. */
static void test_three_packets_one_link(void **state)
{
    (void)state;
    static const options_case cases[] = {{"packet_flits=4", {20}}, {"packet_flits=4,vcs=2", {35}},
                                         {"packet_flits=max", {20}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session s;
        session_open(&s, p2p16_text, cases[i].options);
        run_messages(&s.h, (message[]){{0, 1, 160, 9}}, 1, 1);
        /* The link counts the message once, not once a packet. */
        vimana_link_stats st = link_stats_of(&s.h, 0);
        assert_int_equal(st.bytes, 160);
        assert_int_equal(st.messages, 1);
        expect_delivery(&s.h, 0, 9, cases[i].at[0]);
        session_close(&s);
    }
}

/* NPUs 0, 1, 2 and switch 3: link 0 (0 -> 3) at 32 B/ns (2 flits a cycle),
 * links 2 (3 -> 1) and 4 (3 -> 2) at 16 B/ns (1 flit a cycle), all 10 ns.
 * NPU 0 sends A (8 flits) to NPU 1 and B (8 flits) to NPU 2 at 0. Its NI
 * serves one packet a cycle, 2 flits each: A0 A1 at 1, B0 B1 at 2, A2 A3 at
 * 3, ..., B6 B7 at 8, ready at switch 3 11 cycles later (A's at 12, 14,
 * 16, 18; B's at 13, 15, 17, 19). At the switch both packets sit in the
 * input port of link 0, which picks one of them a cycle (separable
 * allocation): A0 to link 2 at 12, B0 to link 4 at 13 (round robin: B's
 * VC is next), A1 at 14, B1 at 15, ..., A7 at 26, B7 at 27, ejected at 26
 * + 10 = 36 and 27 + 10 = 37. With input speedup (every input sending to
 * every output at once) A7 would leave at 19 and B7 at 20 (29 and 30). */
static const char fork_text[] = "4 1 3\n3\n0 3 256Gbps 10ns 0\n3 1 128Gbps 10ns 0\n3 2 128Gbps 10ns 0\n";

static void test_one_input_two_outputs(void **state)
{
    (void)state;
    session s;
    session_open(&s, fork_text, NULL);
    run_messages(&s.h, (message[]){{0, 1, 128, 1}, {0, 2, 128, 2}}, 2, 2);
    expect_delivery(&s.h, 0, 1, 36);
    expect_delivery(&s.h, 1, 2, 37);
    session_close(&s);
}

/* NPUs 0 and 1 each have a link of 16 B/ns (1 flit a cycle), 10 ns, to NPU
 * 2: links 0 (0 -> 2) and 2 (1 -> 2). Each sends 8 flits at 0: they leave
 * at 1..8 on both links and reach NPU 2 at 11..18. NPU 2 ejects 1 flit a
 * cycle (eject_flits=auto: what its fastest link delivers), its ejection
 * port granting the two input ports round robin: A0 at 11, B0 at 12, A1 at
 * 13, ..., A7 at 25, B7 at 26: the incast is limited by the ejection port,
 * not the links. With eject_flits=2 every flit is ejected as it arrives:
 * both at 18. */
static const char incast_text[] = "3 0 2\n\n0 2 128Gbps 10ns 0\n1 2 128Gbps 10ns 0\n";

static void test_incast_limited_by_ejection(void **state)
{
    (void)state;
    static const options_case cases[] = {{NULL, {25, 26}}, {"eject_flits=1", {25, 26}}, {"eject_flits=2", {18, 18}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session s;
        session_open(&s, incast_text, cases[i].options);
        run_messages(&s.h, (message[]){{0, 2, 128, 1}, {1, 2, 128, 2}}, 2, 2);
        expect_delivery(&s.h, 0, 1, cases[i].at[0]);
        expect_delivery(&s.h, 1, 2, cases[i].at[1]);
        session_close(&s);
    }
}

/* stop() from inside delivered(): run() returns with the other message
 * still in flight. */
static void test_stop(void **state)
{
    (void)state;
    session s;
    session_open(&s, p2p_text, NULL);
    s.h.stop_after = 1;
    run_messages(&s.h, (message[]){{0, 1, 16, 1}, {1, 0, 1 << 20, 2}}, 2, 1);
    assert_int_equal(s.h.at[0], 501);
    session_close(&s);
}

/* Ring of 4, one VC of one flit, NPU i sends 4 flits to i + 2: every head
 * waits at 502 for a VC its neighbour's packet holds forever. */
static void test_deadlock_is_stalled(void **state)
{
    (void)state;
    /* Cut into packets of 2 flits the messages stall the same way: each
     * second packet waits for the first link's one VC, which its first
     * packet holds. */
    for (int k = 0; k < 3; k++) {
        int vcs = k == 2 ? 2 : 1;
        const char *opt = k == 0 ? "vcs=1,vc_depth=1" : k == 1 ? "vcs=1,vc_depth=1,packet_flits=2" : "vcs=2,vc_depth=1";
        session s;
        session_open(&s, ring4_text, opt);
        for (uint32_t i = 0; i < 4; i++)
            assert_int_equal(s.h.be->sim_send(s.h.ctx, i, (i + 2) % 4, 64, 0, i), VIMANA_OK);
        int rc = s.h.be->run(s.h.ctx);
        if (vcs == 1) {
            assert_int_equal(rc, VIMANA_ERR_INTERNAL);
            assert_int_equal(s.h.n, 0);
            assert_string_equal(s.h.failed, "stalled: 4 messages pending at t = 502 (garnet: no flit can ever move: "
                                            "a routing deadlock; more vcs or a topology without cyclic routes "
                                            "avoids it)");
        } else {
            /* The dateline: all four arrive. */
            assert_int_equal(rc, VIMANA_OK);
            assert_int_equal(s.h.n, 4);
            assert_string_equal(s.h.failed, "");
        }
        session_close(&s);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_p2pXXXXXX";
    write_temp(path, p2p_text);
    static const struct {
        const char *options, *message;
    } cases[] = {
        {"vcs=4,depth=2", "garnet: --backend-options: unknown key in 'depth=2' (known: flit_bytes, vcs, vc_depth, "
                          "pipeline, stats, packet_flits, eject_flits)"},
        {"pipeline=0", "garnet: --backend-options: 'pipeline=0': pipeline must be an integer from 1 to 1000"},
        {"vc_depth=-1", "garnet: --backend-options: 'vc_depth=-1': vc_depth must be an integer from 1 to 1048576 "
                        "or auto"},
        {"stats=2", "garnet: --backend-options: 'stats=2': stats must be an integer from 0 to 1"},
        {"packet_flits=many", "garnet: --backend-options: 'packet_flits=many': packet_flits must be an integer "
                              "from 0 to 1048576 or max"},
        {"eject_flits=65537", "garnet: --backend-options: 'eject_flits=65537': eject_flits must be an integer "
                              "from 1 to 65536 or auto"},
        {"flit_bytes=\n", "garnet: --backend-options: 'flit_bytes=\\n': flit_bytes must be an integer from 1 to "
                          "65536"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        host_rec h = {0};
        vimana_host cb;
        char err[512] = "";
        assert_int_equal(open_backend(&h, &cb, path, cases[i].options, err, sizeof err), VIMANA_ERR_CONFIG);
        assert_string_equal(err, cases[i].message);
    }
    unlink(path);
}

/* 64 flits over the 50 B/ns link, its rate halved from cycle 11: flits 0
 * to 31 leave at 1 + floor(0.32 k) <= 10; the serialiser is then free at
 * 1 + 32 x 0.32 = 11.24, and flit 32 + j leaves at floor(11.24 + 0.64 j):
 * the tail (j = 31) at floor(31.08) = 31, ejected at 31 + 500 = 531
 * (521 at the full rate, 541 at half the rate from the start). */
static void test_fault_factor_from_its_cycle(void **state)
{
    (void)state;
    static const struct {
        vimana_tick at;
        vimana_tick want;
    } cases[] = {{11, 531}, {0, 541}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session s;
        session_open(&s, p2p_text, NULL);
        fault_ok(&s.h, 0, cases[i].at, 0.5);
        run_messages(&s.h, (message[]){{0, 1, 1024, 1}}, 1, 1);
        assert_int_equal(s.h.at[0], cases[i].want);
        session_close(&s);
    }
}

/* NPUs 0, 1, 2 and switches 3, 4, 5; 16 B/ns (one flit a cycle) and 10 ns
 * everywhere. NPUs 0 and 1 hang off switch 3, NPU 2 off switches 4 and 5,
 * and switch 3 reaches both: directed links 4 (3 -> 4) and 6 (3 -> 5) are
 * the two equal routes to NPU 2; the ECMP hash sends both packets below
 * over link 4. */
static const char diamond_text[] = "6 3 6\n3 4 5\n0 3 128Gbps 10ns 0\n1 3 128Gbps 10ns 0\n3 4 128Gbps 10ns 0\n"
                                   "3 5 128Gbps 10ns 0\n4 2 128Gbps 10ns 0\n5 2 128Gbps 10ns 0\n";

/* One VC per link; one-flit packets A (0 -> 2) and B (1 -> 2) sent at 0
 * reach switch 3 at 1 + 10 + 1 = 12, both routed to link 4. A takes its VC
 * at 12 and is ejected at 12 + 11 + 10 = 33; B waits for that VC, free
 * again once A's flit has left it at switch 4 (at 23) and its credit is
 * back at switch 3 (23 + 10 = 33): B takes it at 33 and is ejected at 33 +
 * 11 + 10 = 54. With link 4 down from 15, B (waiting there for the VC)
 * chooses again at switch 3: link 6 at 15, ejected at 15 + 11 + 10 = 36;
 * A, committed to link 4, still crosses it. */
static void test_fault_down_reroutes_a_waiting_packet(void **state)
{
    (void)state;
    for (int down = 0; down <= 1; down++) {
        session s;
        session_open(&s, diamond_text, "vcs=1");
        if (down)
            fault_ok(&s.h, 4, 15, 0);
        run_messages(&s.h, (message[]){{0, 2, 16, 1}, {1, 2, 16, 2}}, 2, 2);
        expect_delivery(&s.h, 0, 1, 33);
        expect_delivery(&s.h, 1, 2, down ? 36 : 54);
        assert_int_equal(link_stats_of(&s.h, 4).messages, down ? 1 : 2);
        assert_int_equal(link_stats_of(&s.h, 6).messages, down ? 1 : 0);
        session_close(&s);
    }
}

/* Faults refused in one line: out of range, too slow for the model, down
 * on dimensions, a partition. */
static void test_fault_refused(void **state)
{
    (void)state;
    char p2p[] = "/tmp/garnet_p2pXXXXXX", ring[] = "/tmp/garnet_ringXXXXXX";
    write_temp(p2p, p2p_text);
    write_temp(ring, ring4_text);
    static const struct {
        int ring;
        uint32_t link;
        double factor;
        int rc;
        const char *message;
    } cases[] = {
        {0, 2, 0.5, VIMANA_ERR_ARGUMENT, "garnet: link 2 of 2, bandwidth factor 0.5: out of range"},
        {0, 0, -1, VIMANA_ERR_ARGUMENT, "garnet: link 0 of 2, bandwidth factor -1: out of range"},
        {0, 0, 2e6, VIMANA_ERR_ARGUMENT, "garnet: link 0 of 2, bandwidth factor 2e+06: out of range"},
        {0, 0, NAN, VIMANA_ERR_ARGUMENT, "garnet: link 0 of 2, bandwidth factor nan: out of range"},
        {0, 0, 1e-12, VIMANA_ERR_CONFIG, "garnet: link 0, bandwidth factor 1e-12: a flit would take 3.2e+11 cycles "
                                         "on it, more than the garnet backend simulates (a flit below 2^31 cycles)"},
        {0, 1, 0, VIMANA_ERR_CONFIG, "the links down from tick 5 cut NPU 1 off from NPU 0 (a partition: no route "
                                     "is left between them)"},
        {1, 0, 0, VIMANA_ERR_CONFIG, "garnet routes a network of dimensions in dimension order, with no other path "
                                     "for a link that is down: give the network as a topology file, or a "
                                     "bandwidth-factor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        host_rec h = {0};
        vimana_host cb;
        char err[512] = "";
        open_ok(&h, &cb, cases[i].ring ? ring : p2p, NULL);
        assert_int_equal(h.be->link_fault(h.ctx, cases[i].link, 5, cases[i].factor, err, sizeof err), cases[i].rc);
        assert_string_equal(err, cases[i].message);
        h.be->fini(h.ctx);
    }
    unlink(p2p);
    unlink(ring);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_descriptor),
    cmocka_unit_test(test_one_flit),
    cmocka_unit_test(test_two_packets_share_a_link),
    cmocka_unit_test(test_three_packets_one_link),
    cmocka_unit_test(test_one_input_two_outputs),
    cmocka_unit_test(test_incast_limited_by_ejection),
    cmocka_unit_test(test_stop),
    cmocka_unit_test(test_deadlock_is_stalled),
    cmocka_unit_test(test_bad_options),
    cmocka_unit_test(test_fault_factor_from_its_cycle),
    cmocka_unit_test(test_fault_down_reroutes_a_waiting_packet),
    cmocka_unit_test(test_fault_refused)
)
