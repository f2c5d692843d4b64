/* The shipped backends on the toolkit, loaded as vimana loads them: the current ABI
 * descriptors with stop, truthful capabilities, and congestion_aware's
 * link counters and stop through the toolkit. */
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
#include "vimana/network_yaml.h"

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    (void)host;
    fail_msg("unexpected log (level %d): %s", (int)level, message);
}

static void test_descriptors(void **state)
{
    (void)state;
    const vimana_backend *cu = backend_load("analytical", "analytical");
    const vimana_backend *ca = backend_load("congestion_aware", "congestion_aware");
    for (const vimana_backend *const *b = (const vimana_backend *const[]){cu, ca, NULL}; *b; b++) {
        assert_int_equal((*b)->abi_major, 1);
        assert_int_equal((*b)->abi_minor, VIMANA_NETWORK_ABI_MINOR);
        assert_int_equal((*b)->struct_size, sizeof(vimana_backend));
        assert_non_null((*b)->stop);
        assert_non_null((*b)->schedule);
        assert_non_null((*b)->dim_bandwidth);
    }
    assert_int_equal(cu->capabilities, VIMANA_CAP_MULTI_DIM);
    assert_null(cu->num_links);
    /* congestion_aware models several dimensions (dimension-order routing). */
    assert_int_equal(ca->capabilities, VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM);
    assert_non_null(ca->num_links);
    assert_non_null(ca->link_stats);
}

/* Writes a 4-NPU ring into path (a mkstemp template). */
static void ring4_yaml(char *path)
{
    write_temp(path, "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n");
}

static void start(host_rec *h, const char *path)
{
    h->be = backend_load("congestion_aware", "congestion_aware");
    vimana_host host = {.struct_size = sizeof host, .host = h, .log = host_log, .delivered = host_delivered};
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = path};
    char err[300] = "";
    assert_int_equal(h->be->init(&params, &host, &h->ctx, err, sizeof err), VIMANA_OK);
    /* 32768 bytes at 50 GB/s: 610 ticks on a link, 1110 with the latency. */
    assert_int_equal(h->be->sim_send(h->ctx, 0, 1, 32768, 0, 71), VIMANA_OK);
    assert_int_equal(h->be->sim_send(h->ctx, 0, 2, 32768, 0, 72), VIMANA_OK); /* 0 -> 1 -> 2 */
}

/* Link link's counters are want's, field by field. */
static void expect_link(const host_rec *h, uint32_t link, vimana_link_stats want)
{
    vimana_link_stats s;
    assert_int_equal(h->be->link_stats(h->ctx, link, &s), VIMANA_OK);
    assert_int_equal(s.src_device, want.src_device);
    assert_int_equal(s.dst_device, want.dst_device);
    assert_int_equal(s.bytes, want.bytes);
    assert_int_equal(s.messages, want.messages);
    assert_int_equal(s.busy_ticks, want.busy_ticks);
}

static void test_congestion_aware_link_stats(void **state)
{
    (void)state;
    char path[] = "/tmp/vimana-ca-XXXXXX";
    ring4_yaml(path);
    host_rec h = {0};
    start(&h, path);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    /* 72 waits for 71 on link 0->1 (free at 610), arrives at 1 at 1720,
     * then crosses 1->2: 2830. */
    assert_int_equal(h.n, 2);
    assert_int_equal(h.tokens[0], 71);
    assert_int_equal(h.at[0], 1110);
    assert_int_equal(h.tokens[1], 72);
    assert_int_equal(h.at[1], 2830);
    assert_int_equal(h.be->num_links(h.ctx), 8);
    expect_link(&h, 0, (vimana_link_stats){.src_device = 0, .dst_device = 1, .bytes = 65536, .messages = 2,
                                           .busy_ticks = 1220});
    expect_link(&h, 2, (vimana_link_stats){.src_device = 1, .dst_device = 2, .bytes = 32768, .messages = 1,
                                           .busy_ticks = 610});
    /* 0 -> 3, unused */
    expect_link(&h, 1, (vimana_link_stats){.src_device = 0, .dst_device = 3, .bytes = 0, .messages = 0,
                                           .busy_ticks = 0});
    vimana_link_stats s;
    assert_int_equal(h.be->link_stats(h.ctx, 8, &s), VIMANA_ERR_ARGUMENT);
    h.be->fini(h.ctx);
    unlink(path);
}

/* analytical on dimensions: every ordered pair of a 5 x 3 x 6 Ring,
 * FullyConnected, Switch network arrives when the formula says: hops x
 * latency + bytes / bandwidth of the lowest dimension where the
 * coordinates differ, truncated once. The reference peels coordinates
 * off one dimension at a time (the backend finds the dimension by
 * divisibility tests, and the coordinates only on a Ring). */
#define A_NPUS 90

typedef struct arrivals {
    const vimana_backend *be;
    void *ctx;
    vimana_tick at[A_NPUS * A_NPUS];
    int n;
} arrivals;

static void arrival(void *host, uint64_t token)
{
    arrivals *a = host;
    a->at[token] = a->be->now(a->ctx);
    a->n++;
}

static vimana_tick reference_ticks(const vimana_net_config *net, uint32_t src, uint32_t dst, uint64_t bytes)
{
    uint32_t dim = 0, s = src, d = dst;
    while (s % net->dims[dim].npus == d % net->dims[dim].npus) {
        s /= net->dims[dim].npus;
        d /= net->dims[dim].npus;
        dim++;
    }
    const vimana_net_dim *nd = &net->dims[dim];
    uint32_t n = nd->npus, cs = s % n, cd = d % n, hops = 2;
    if (nd->topology == VIMANA_NET_RING) {
        uint32_t cw = (cd + n - cs) % n;
        hops = cw < n - cw ? cw : n - cw;
    } else if (nd->topology == VIMANA_NET_FULLY_CONNECTED) {
        hops = 1;
    }
    return (vimana_tick)(hops * nd->latency_ns + (double)bytes / nd->bytes_per_ns);
}

static void check_every_pair(const char *text)
{
    char path[] = "/tmp/vimana-an-XXXXXX";
    write_temp(path, text);
    vimana_net_config net;
    char err[300] = "";
    assert_int_equal(vimana_net_load(path, &net, err, sizeof err, NULL, NULL), 0);
    assert_int_equal(net.total_npus, A_NPUS);
    static arrivals a;
    memset(&a, 0, sizeof a);
    a.be = backend_load("analytical", "analytical");
    vimana_host host = {.struct_size = sizeof host, .host = &a, .log = host_log, .delivered = arrival};
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = path};
    assert_int_equal(a.be->init(&params, &host, &a.ctx, err, sizeof err), VIMANA_OK);
    const uint64_t bytes = 1000003;
    int sent = 0;
    for (uint32_t s = 0; s < A_NPUS; s++)
        for (uint32_t d = 0; d < A_NPUS; d++)
            if (s != d) {
                assert_int_equal(a.be->sim_send(a.ctx, s, d, bytes, 0, s * A_NPUS + d), VIMANA_OK);
                sent++;
            }
    assert_int_equal(a.be->run(a.ctx), VIMANA_OK);
    assert_int_equal(a.n, sent);
    for (uint32_t s = 0; s < A_NPUS; s++)
        for (uint32_t d = 0; d < A_NPUS; d++)
            if (s != d && a.at[s * A_NPUS + d] != reference_ticks(&net, s, d, bytes))
                fail_msg("%u -> %u arrived at %llu, expected %llu", s, d,
                         (unsigned long long)a.at[s * A_NPUS + d],
                         (unsigned long long)reference_ticks(&net, s, d, bytes));
    a.be->fini(a.ctx);
    unlink(path);
}

/* Rings below, between and above the other kinds: a Ring's hops come
 * from the coordinates' difference over its stride (1, 3, 15 here). */
static void test_analytical_lowest_differing_dimension(void **state)
{
    (void)state;
    check_every_pair("topology: [ Ring, FullyConnected, Switch ]\nnpus_count: [ 5, 3, 6 ]\n"
                     "bandwidth: [ 50, 25, 10 ]\nlatency: [ 500, 100, 7 ]\n");
    check_every_pair("topology: [ Switch, Ring, Ring ]\nnpus_count: [ 3, 5, 6 ]\n"
                     "bandwidth: [ 50, 25, 10 ]\nlatency: [ 500, 100, 7 ]\n");
    check_every_pair("topology: [ Ring, Ring, FullyConnected ]\nnpus_count: [ 2, 9, 5 ]\n"
                     "bandwidth: [ 50, 25, 10 ]\nlatency: [ 500, 100, 7 ]\n");
}

static void test_congestion_aware_stop(void **state)
{
    (void)state;
    char path[] = "/tmp/vimana-ca-XXXXXX";
    ring4_yaml(path);
    host_rec h = {.stop_after = 1};
    start(&h, path);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    assert_int_equal(h.n, 1);
    assert_int_equal(h.be->now(h.ctx), 1110);
    h.be->fini(h.ctx);
    unlink(path);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_descriptors),
    cmocka_unit_test(test_congestion_aware_link_stats),
    cmocka_unit_test(test_congestion_aware_stop),
    cmocka_unit_test(test_analytical_lowest_differing_dimension)
)
