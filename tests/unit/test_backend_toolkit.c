/* The backend toolkit (vimana/backend_toolkit.h): the default event loop
 * behind a descriptor, stop and fail, delivery, the link table, the
 * default topology answers and the network YAML through the host. */
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

#include "vimana/backend_toolkit.h"
#include "vimana/link_faults.h"
#include "vimana/net_layout.h"

/* A backend context as the toolkit wants it (vimana_bt first), plus a
 * record of what the host saw and what the events did. */
typedef struct fake {
    vimana_bt bt;
    uint64_t ran[16];
    vimana_tick at[16];
    int n_ran;
    uint64_t delivered[8];
    vimana_tick delivered_at[8];
    int n_delivered;
    char lines[4][300];
    int levels[4];
    int n_lines;
    char failed[300];
    int n_failed;
    char hint_kind[8];      /* 'd': will_deliver, 'r': will_run */
    uint64_t hint_value[8]; /* the token, or the event's data */
    int hint_stage[8];
    int n_hints;
} fake;

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    fake *f = host;
    if (f->n_lines < 4) {
        snprintf(f->lines[f->n_lines], sizeof f->lines[0], "%s", message);
        f->levels[f->n_lines++] = level;
    }
}

static void host_delivered(void *host, uint64_t token)
{
    fake *f = host;
    f->delivered_at[f->n_delivered] = vimana_bt_now(f);
    f->delivered[f->n_delivered++] = token;
}

static void host_failed(void *host, const char *message)
{
    fake *f = host;
    snprintf(f->failed, sizeof f->failed, "%s", message);
    f->n_failed++;
}

/* host_struct_size: sizeof(vimana_host) for a 1.1 host, or where `failed`
 * starts for a 1.0 host, which did not have it. */
static fake *fake_new(uint32_t host_struct_size, const char *network_path)
{
    fake *f = calloc(1, sizeof *f);
    vimana_host host = {.struct_size = host_struct_size, .host = f, .log = host_log,
                        .delivered = host_delivered};
    if (host_struct_size >= sizeof(vimana_host))
        host.failed = host_failed;
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = network_path};
    char err[100];
    assert_int_equal(vimana_bt_init(&f->bt, &params, &host, err, sizeof err), VIMANA_OK);
    return f;
}

static void fake_free(fake *f)
{
    vimana_bt_fini(&f->bt);
    free(f);
}

static void record(void *arg, uint64_t data)
{
    fake *f = arg;
    f->at[f->n_ran] = vimana_bt_now(f);
    f->ran[f->n_ran++] = data;
}

/* data 1: stops the run; data 2: fails it (twice, reported once). */
static void act(void *arg, uint64_t data)
{
    fake *f = arg;
    record(arg, data);
    if (data == 1)
        vimana_bt_stop(f);
    else
        for (int i = 0; i < 2; i++)
            vimana_bt_fail(&f->bt, "mynet: link %d broke", 7 + i);
}

/* A backend without options refuses any, naming the first item; none or
 * an empty string pass. */
static void test_no_options(void **state)
{
    (void)state;
    char err[128] = "";
    vimana_backend_params p = {0};
    assert_int_equal(vimana_bt_no_options(NULL, "x", err, sizeof err), VIMANA_OK);
    assert_int_equal(vimana_bt_no_options(&p, "x", err, sizeof err), VIMANA_OK);
    p.options = "";
    assert_int_equal(vimana_bt_no_options(&p, "x", err, sizeof err), VIMANA_OK);
    p.options = "vcs=16,cc=dcqcn";
    assert_int_equal(vimana_bt_no_options(&p, "analytical", err, sizeof err), VIMANA_ERR_CONFIG);
    assert_string_equal(err, "analytical: backend option 'vcs=16': analytical takes no options");
}

/* An event to schedule: fn(f, data) at tick at. */
typedef struct event {
    vimana_tick at;
    void (*fn)(void *arg, uint64_t data);
    uint64_t data;
} event;

/* A fake backend with the n events scheduled, in their order. */
static fake *fake_scheduled(const event *ev, size_t n)
{
    fake *f = fake_new(sizeof(vimana_host), NULL);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(vimana_bt_schedule(f, ev[i].at, ev[i].fn, f, ev[i].data), VIMANA_OK);
    return f;
}

/* run() returns rc with n_ran events run. */
static void run_expect(fake *f, int rc, int n_ran)
{
    assert_int_equal(vimana_bt_run(f), rc);
    assert_int_equal(f->n_ran, n_ran);
}

static void test_default_loop_fifo_and_monotonic(void **state)
{
    (void)state;
    fake *f = fake_scheduled(
        (const event[]){{5, record, 10}, {0, record, 11}, {5, record, 12}, {3, record, 13}, {5, record, 14}}, 5);
    assert_int_equal(vimana_bt_now(f), 0);
    assert_int_equal(vimana_bt_run(f), VIMANA_OK);
    uint64_t want[] = {11, 13, 10, 12, 14};
    vimana_tick when[] = {0, 3, 5, 5, 5};
    assert_int_equal(f->n_ran, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(f->ran[i], want[i]);
        assert_int_equal(f->at[i], when[i]);
    }
    assert_int_equal(vimana_bt_now(f), 5);
    fake_free(f);
}

static void test_stop_ends_run_after_the_event(void **state)
{
    (void)state;
    /* 21: same tick, after the stop */
    fake *f = fake_scheduled((const event[]){{4, record, 20}, {4, act, 1}, {4, record, 21}, {9, record, 22}}, 4);
    run_expect(f, VIMANA_OK, 2);
    assert_int_equal(f->ran[1], 1);
    assert_int_equal(vimana_evq_pending(f->bt.evq), 2);
    /* Stopped for good: another run does nothing. */
    assert_int_equal(vimana_bt_run(f), VIMANA_OK);
    assert_int_equal(f->n_ran, 2);
    assert_int_equal(vimana_bt_now(f), 4);
    fake_free(f);
}

/* A fault's event runs at its tick, or, registered after its tick, at the
 * current one behind what is queued there. */
static void test_fault_schedule(void **state)
{
    (void)state;
    fake *f = fake_new(sizeof(vimana_host), NULL);
    char err[64] = "";
    assert_int_equal(vimana_bt_fault_schedule(&f->bt, 5, record, f, 3, err, sizeof err), VIMANA_OK);
    run_expect(f, VIMANA_OK, 1);
    assert_int_equal(vimana_bt_now(f), 5);
    assert_int_equal(vimana_bt_schedule(f, 0, record, f, 9), VIMANA_OK);
    assert_int_equal(vimana_bt_fault_schedule(&f->bt, 2, record, f, 4, err, sizeof err), VIMANA_OK);
    run_expect(f, VIMANA_OK, 3);
    uint64_t want[] = {3, 9, 4};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f->ran[i], want[i]);
        assert_int_equal(f->at[i], 5);
    }
    assert_string_equal(err, "");
    fake_free(f);
}

static void test_fail_reports_once_through_host_failed(void **state)
{
    (void)state;
    fake *f = fake_scheduled((const event[]){{2, act, 2}, {2, record, 30}}, 2);
    run_expect(f, VIMANA_ERR_INTERNAL, 1);
    assert_int_equal(f->n_failed, 1);
    assert_string_equal(f->failed, "mynet: link 7 broke");
    assert_int_equal(f->n_lines, 0);
    fake_free(f);
}

static void test_fail_on_a_1_0_host_logs_an_error(void **state)
{
    (void)state;
    fake *f = fake_new((uint32_t)offsetof(vimana_host, failed), NULL);
    vimana_bt_schedule(f, 2, act, f, 2);
    vimana_bt_schedule(f, 3, record, f, 31);
    assert_int_equal(vimana_bt_run(f), VIMANA_ERR_INTERNAL);
    assert_int_equal(f->n_ran, 1);
    assert_int_equal(f->n_failed, 0);
    assert_int_equal(f->n_lines, 1);
    assert_int_equal(f->levels[0], VIMANA_LOG_ERROR);
    assert_string_equal(f->lines[0], "mynet: link 7 broke");
    fake_free(f);
}

static void host_will_deliver(void *host, uint64_t token, int stage)
{
    fake *f = host;
    f->hint_kind[f->n_hints] = 'd';
    f->hint_value[f->n_hints] = token;
    f->hint_stage[f->n_hints++] = stage;
}

static void host_will_run(void *host, vimana_event_fn fn, void *arg, uint64_t data, int stage)
{
    fake *f = host;
    assert_ptr_equal(fn, record);
    assert_ptr_equal(arg, f);
    f->hint_kind[f->n_hints] = 'r';
    f->hint_value[f->n_hints] = data;
    f->hint_stage[f->n_hints++] = stage;
}

/* ABI 1.3: with a host that has both hints and vimana_bt_use_lookahead,
 * the toolkit's loop shows it
 * the events queued behind the running one in its tick (the 4th with
 * stage 0, the 2nd with stage 1): deliveries by token, other events as
 * scheduled. Deliveries D11 D12 D13 and events E1 E2 at tick 0, queued
 * D11 E1 D12 E2 D13. */
static void test_lookahead_hints_reach_the_host(void **state)
{
    (void)state;
    fake *f = fake_new(sizeof(vimana_host), NULL);
    vimana_host host = f->bt.host;
    host.will_deliver = host_will_deliver;
    host.will_run = host_will_run;
    vimana_bt_fini(&f->bt);
    char err[100];
    vimana_backend_params params = {.struct_size = sizeof params};
    assert_int_equal(vimana_bt_init(&f->bt, &params, &host, err, sizeof err), VIMANA_OK);
    for (int on = 0; on <= 1; on++) {
        /* first without vimana_bt_use_lookahead: no hints */
        if (on)
            vimana_bt_use_lookahead(&f->bt);
        f->n_delivered = f->n_ran = 0;
        assert_int_equal(vimana_bt_deliver_after(&f->bt, 0, 11), VIMANA_OK);
        assert_int_equal(vimana_bt_schedule(f, 0, record, f, 1), VIMANA_OK);
        assert_int_equal(vimana_bt_deliver_after(&f->bt, 0, 12), VIMANA_OK);
        assert_int_equal(vimana_bt_schedule(f, 0, record, f, 2), VIMANA_OK);
        assert_int_equal(vimana_bt_deliver_after(&f->bt, 0, 13), VIMANA_OK);
        assert_int_equal(vimana_bt_run(f), VIMANA_OK);
        if (!on)
            assert_int_equal(f->n_hints, 0);
    }
    const char kind[] = {'d', 'd', 'r', 'd'};
    const uint64_t value[] = {12, 13, 2, 13};
    const int stage[] = {1, 0, 1, 1};
    assert_int_equal(f->n_hints, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(f->hint_kind[i], kind[i]);
        assert_int_equal(f->hint_value[i], value[i]);
        assert_int_equal(f->hint_stage[i], stage[i]);
    }
    assert_int_equal(f->n_delivered, 3);
    assert_int_equal(f->n_ran, 2);
    fake_free(f);
}

static void test_deliver_after(void **state)
{
    (void)state;
    fake *f = fake_new(sizeof(vimana_host), NULL);
    assert_int_equal(vimana_bt_deliver_after(&f->bt, 7, 42), VIMANA_OK);
    assert_int_equal(vimana_bt_deliver_after(&f->bt, 0, 41), VIMANA_OK);
    assert_int_equal(vimana_bt_run(f), VIMANA_OK);
    assert_int_equal(f->n_delivered, 2);
    assert_int_equal(f->delivered[0], 41);
    assert_int_equal(f->delivered_at[0], 0);
    assert_int_equal(f->delivered[1], 42);
    assert_int_equal(f->delivered_at[1], 7);
    /* Past the last tick the clock holds: refused, not clamped. */
    assert_int_equal(vimana_bt_deliver_after(&f->bt, UINT64_MAX - 6, 43), VIMANA_ERR_ARGUMENT);
    fake_free(f);
}

/* Link link's ends and counters are want's; returns all it reports. */
static vimana_link_stats expect_link(fake *f, uint32_t link, vimana_link_stats want)
{
    vimana_link_stats s;
    assert_int_equal(vimana_bt_link_stats(f, link, &s), VIMANA_OK);
    assert_int_equal(s.src_device, want.src_device);
    assert_int_equal(s.dst_device, want.dst_device);
    assert_int_equal(s.bytes, want.bytes);
    assert_int_equal(s.messages, want.messages);
    assert_int_equal(s.busy_ticks, want.busy_ticks);
    return s;
}

static void test_link_table(void **state)
{
    (void)state;
    fake *f = fake_new(sizeof(vimana_host), NULL);
    assert_int_equal(vimana_bt_num_links(f), 0);
    assert_int_equal(vimana_bt_links_alloc(&f->bt, 3), VIMANA_OK);
    vimana_bt_link_ends(&f->bt, 2, 1, 8);
    vimana_bt_link_count(&f->bt, 2, 1000, 19);
    vimana_bt_link_count(&f->bt, 2, 24, 1);
    assert_int_equal(vimana_bt_num_links(f), 3);
    vimana_link_stats s =
        expect_link(f, 2, (vimana_link_stats){.src_device = 1, .dst_device = 8, .bytes = 1024, .messages = 2,
                                              .busy_ticks = 20});
    assert_int_equal(vimana_bt_link_stats(f, 0, &s), VIMANA_OK);
    assert_int_equal(s.bytes + s.messages + s.busy_ticks, 0);
    assert_int_equal(vimana_bt_link_stats(f, 3, &s), VIMANA_ERR_ARGUMENT);
    fake_free(f);
}

/* The 1.2 queueing counters: the longest wait and the sum of waits, per
 * link; a wait of 0 counts nothing; the sum saturates instead of wrapping.
 * They live beside the table, whose stride stays the 1.0 one (32 bytes):
 * backends built against the 1.1 toolkit index it with that. */
static void test_link_queued(void **state)
{
    (void)state;
    assert_int_equal(sizeof(vimana_bt_link), 32);
    fake *f = fake_new(sizeof(vimana_host), NULL);
    assert_int_equal(vimana_bt_links_alloc(&f->bt, 2), VIMANA_OK);
    vimana_bt_link_ends(&f->bt, 1, 1, 2);
    vimana_bt_link_count(&f->bt, 1, 64, 10);
    vimana_bt_link_queued(&f->bt, 1, 0);
    vimana_bt_link_queued(&f->bt, 1, 700);
    vimana_bt_link_queued(&f->bt, 1, 300);
    vimana_link_stats s =
        expect_link(f, 1, (vimana_link_stats){.src_device = 1, .dst_device = 2, .bytes = 64, .messages = 1,
                                              .busy_ticks = 10});
    assert_int_equal(s.max_queue_ticks, 700);
    assert_int_equal(s.queue_ticks, 1000);
    assert_int_equal(vimana_bt_link_stats(f, 0, &s), VIMANA_OK);
    assert_int_equal(s.max_queue_ticks + s.queue_ticks + s.bytes + s.messages + s.busy_ticks, 0);
    vimana_bt_link_queued(&f->bt, 0, UINT64_MAX - 5);
    vimana_bt_link_queued(&f->bt, 0, 10);
    assert_int_equal(vimana_bt_link_stats(f, 0, &s), VIMANA_OK);
    assert_true(s.queue_ticks == UINT64_MAX);
    assert_true(s.max_queue_ticks == UINT64_MAX - 5);
    fake_free(f);
}

/* The pool starts at 1024 items and doubles; a pool with room is left
 * alone; a size that cannot be represented leaves the pool unchanged. */
static void test_pool_grow(void **state)
{
    (void)state;
    uint64_t *items = NULL;
    uint32_t cap = 0;
    assert_int_equal(vimana_bt_pool_grow((void **)&items, &cap, 0, sizeof *items), VIMANA_OK);
    assert_int_equal(cap, 1024);
    assert_non_null(items);
    items[1023] = 7;
    uint64_t *before = items;
    assert_int_equal(vimana_bt_pool_grow((void **)&items, &cap, 1023, sizeof *items), VIMANA_OK);
    assert_ptr_equal(items, before);
    assert_int_equal(cap, 1024);
    assert_int_equal(vimana_bt_pool_grow((void **)&items, &cap, 1024, sizeof *items), VIMANA_OK);
    assert_int_equal(cap, 2048);
    assert_true(items[1023] == 7);
    /* Big enough for the huge-page hint: still an ordinary array. */
    for (uint32_t used = cap; cap < (1u << 20); used = cap)
        assert_int_equal(vimana_bt_pool_grow((void **)&items, &cap, used, sizeof *items), VIMANA_OK);
    assert_int_equal(cap, 1u << 20);
    items[cap - 1] = 9;
    assert_true(items[1023] == 7 && items[cap - 1] == 9);
    free(items);

    void *huge = NULL;
    uint32_t huge_cap = 0;
    assert_int_equal(vimana_bt_pool_grow(&huge, &huge_cap, 0, SIZE_MAX / 512), VIMANA_ERR_NOMEM);
    assert_null(huge);
    assert_int_equal(huge_cap, 0);
}

static void test_default_dims(void **state)
{
    (void)state;
    fake *f = fake_new(sizeof(vimana_host), NULL);
    f->bt.net.n_dims = 2;
    f->bt.net.dims[0].npus = 4;
    f->bt.net.dims[0].bandwidth_gbps = 200;
    f->bt.net.dims[1].npus = 2;
    f->bt.net.dims[1].bandwidth_gbps = 25;
    assert_int_equal(vimana_bt_num_dims(f), 2);
    assert_int_equal(vimana_bt_dim_size(f, 1), 2);
    assert_int_equal(vimana_bt_dim_size(f, 2), 0);
    assert_true(vimana_bt_dim_bandwidth(f, 0) == 200.0);
    assert_true(vimana_bt_dim_bandwidth(f, 5) == 0.0);
    fake_free(f);
}

static void test_load_network_warns_through_host(void **state)
{
    (void)state;
    char path[] = "/tmp/vimana-bt-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "topology: [ Switch ]\nnpus_count: [ 16 ]\nbandwidth: [ 100 ]\nlatency: [ 700 ]\ncolour: red\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    fake *f = fake_new(sizeof(vimana_host), path);
    assert_string_equal(f->bt.network_path, path);
    char err[200];
    assert_int_equal(vimana_bt_load_network(&f->bt, err, sizeof err), VIMANA_OK);
    assert_int_equal(vimana_bt_num_dims(f), 1);
    assert_int_equal(vimana_bt_dim_size(f, 0), 16);
    assert_int_equal(f->bt.net.dims[0].topology, VIMANA_NET_SWITCH);
    assert_int_equal(f->n_lines, 1);
    assert_int_equal(f->levels[0], VIMANA_LOG_WARNING);
    char want[100];
    snprintf(want, sizeof want, "%s:5: unknown key 'colour' ignored", path);
    assert_string_equal(f->lines[0], want);
    unlink(path);
    assert_int_equal(vimana_bt_load_network(&f->bt, err, sizeof err), VIMANA_ERR_CONFIG);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    assert_string_equal(err, want);
    fake_free(f);

    f = fake_new(sizeof(vimana_host), NULL);
    assert_int_equal(vimana_bt_load_network(&f->bt, err, sizeof err), VIMANA_ERR_CONFIG);
    assert_string_equal(err, "no network configuration given");
    fake_free(f);
}

static void test_escape(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(vimana_bt_escape("a\nb\tc\x01", buf, sizeof buf), "a\\nb\\tc\\x01");
}

/* Dimension-order legs (vimana/net_layout.h) on Ring 4 x FullyConnected 3
 * x Switch 2 and Ring 5 x Switch 3: from every NPU to every other, the
 * walk crosses the differing dimensions lowest first, each the way the
 * backends modelled it before the legs were shared: a Ring the shorter
 * way round one neighbour at a time (a tie clockwise), a FullyConnected
 * in one hop, a Switch through the switch the NPU hangs from. */
static void walk_all_pairs(const vimana_net_config *net)
{
    vimana_net_layout lay;
    vimana_net_layout_init(&lay, net);
    uint32_t n = net->total_npus;
    for (uint32_t src = 0; src < n; src++) {
        for (uint32_t dst = 0; dst < n; dst++) {
            if (src == dst)
                continue;
            uint32_t cur = src, last_dim = 0, hops = 0, want_hops = 0, stride = 1;
            for (uint32_t d = 0; d < net->n_dims; d++) {
                uint32_t k = net->dims[d].npus, s = src / stride % k, t = dst / stride % k;
                uint32_t cw = (t + k - s) % k;
                if (s != t)
                    want_hops += net->dims[d].topology == VIMANA_NET_RING ? (cw <= k - cw ? cw : k - cw)
                                 : net->dims[d].topology == VIMANA_NET_SWITCH ? 2 : 1;
                stride *= k;
            }
            while (cur != dst) {
                vimana_net_leg leg = vimana_net_layout_leg(&lay, cur, dst);
                assert_true(hops == 0 || leg.dim > last_dim);
                last_dim = leg.dim;
                for (uint32_t d = 0; d < leg.dim; d++)
                    assert_int_equal(vimana_net_layout_coord(&lay, cur, d), vimana_net_layout_coord(&lay, dst, d));
                assert_int_equal(vimana_net_layout_coord(&lay, leg.target, leg.dim),
                                 vimana_net_layout_coord(&lay, dst, leg.dim));
                const vimana_net_dim *nd = &net->dims[leg.dim];
                if (nd->topology == VIMANA_NET_RING) {
                    uint32_t k = nd->npus, s = vimana_net_layout_coord(&lay, cur, leg.dim),
                             t = vimana_net_layout_coord(&lay, dst, leg.dim), cw = (t + k - s) % k;
                    assert_int_equal(leg.step, cw <= k - cw ? 1 : -1);
                }
                if (nd->topology == VIMANA_NET_SWITCH)
                    assert_int_equal(leg.via, vimana_net_layout_switch_of(&lay, cur, leg.dim));
                while (cur != leg.target) {
                    uint32_t next = vimana_net_layout_leg_next(&lay, leg.dim, cur, leg.target, leg.via, leg.step);
                    if (nd->topology == VIMANA_NET_RING) {
                        uint32_t k = nd->npus;
                        assert_int_equal(vimana_net_layout_coord(&lay, next, leg.dim),
                                         (vimana_net_layout_coord(&lay, cur, leg.dim) + k + (uint32_t)leg.step) % k);
                    } else if (nd->topology == VIMANA_NET_SWITCH) {
                        assert_int_equal(next, cur < lay.npus ? leg.via : leg.target);
                    } else {
                        assert_int_equal(next, leg.target);
                    }
                    cur = next;
                    hops++;
                    assert_true(hops <= want_hops);
                }
            }
            assert_int_equal(hops, want_hops);
        }
    }
}

static void test_dimension_order_legs(void **state)
{
    (void)state;
    vimana_net_config a = {.n_dims = 3, .total_npus = 24};
    a.dims[0] = (vimana_net_dim){.topology = VIMANA_NET_RING, .npus = 4};
    a.dims[1] = (vimana_net_dim){.topology = VIMANA_NET_FULLY_CONNECTED, .npus = 3};
    a.dims[2] = (vimana_net_dim){.topology = VIMANA_NET_SWITCH, .npus = 2};
    walk_all_pairs(&a);
    vimana_net_config b = {.n_dims = 2, .total_npus = 15};
    b.dims[0] = (vimana_net_dim){.topology = VIMANA_NET_RING, .npus = 5};
    b.dims[1] = (vimana_net_dim){.topology = VIMANA_NET_SWITCH, .npus = 3};
    walk_all_pairs(&b);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_no_options),
    cmocka_unit_test(test_default_loop_fifo_and_monotonic),
    cmocka_unit_test(test_fault_schedule),
    cmocka_unit_test(test_stop_ends_run_after_the_event),
    cmocka_unit_test(test_fail_reports_once_through_host_failed),
    cmocka_unit_test(test_fail_on_a_1_0_host_logs_an_error),
    cmocka_unit_test(test_deliver_after),
    cmocka_unit_test(test_lookahead_hints_reach_the_host),
    cmocka_unit_test(test_link_table),
    cmocka_unit_test(test_link_queued),
    cmocka_unit_test(test_pool_grow),
    cmocka_unit_test(test_default_dims),
    cmocka_unit_test(test_load_network_warns_through_host),
    cmocka_unit_test(test_escape),
    cmocka_unit_test(test_dimension_order_legs)
)
