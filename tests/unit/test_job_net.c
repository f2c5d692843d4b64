/* The job view (cmd/jobs/job_net.h): a job's context sees its logical
 * dimensions; its sends reach the real backend between the physical NPUs
 * of its placement, with a token of the table of messages in flight
 * (index + generation); a token the backend never got, or gives back
 * twice, fails the run as a broken contract. Deliveries of valid tokens
 * are checked end to end (tests/e2e/jobs.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <string.h>

#include "cmd/jobs/job_net.h"

/* A fake backend that records the last send. */
typedef struct fake {
    uint32_t src, dst;
    uint64_t bytes, token;
    int sends;
    int status;
} fake;

static int fake_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    (void)tag;
    fake *f = ctx;
    f->src = src;
    f->dst = dst;
    f->bytes = bytes;
    f->token = token;
    f->sends++;
    return f->status;
}

static vimana_tick fake_now(void *ctx)
{
    (void)ctx;
    return 42;
}

static const vimana_backend fake_backend = {VIMANA_BACKEND_HEADER_INIT, .name = "fake",
                                            .capabilities = VIMANA_CAP_MULTI_DIM | VIMANA_CAP_LINK_STATS,
                                            .sim_send = fake_send, .now = fake_now};

typedef struct world {
    fake f;
    job_net net;
    job_view *views[2];
    job_view v[2];
    sim s[2];
} world;

static const uint32_t dims_a[] = {2, 2}, npus_a[] = {7, 1, 5, 3};
static const uint32_t dims_b[] = {2}, npus_b[] = {0, 2};

static void world_init(world *w)
{
    memset(w, 0, sizeof *w);
    job_net_init(&w->net, &fake_backend, &w->f, w->views, 2);
    job_view_attach(&w->v[0], &w->net, 0, &w->s[0], dims_a, 2, npus_a);
    job_view_attach(&w->v[1], &w->net, 1, &w->s[1], dims_b, 1, npus_b);
}

/* sim_send of job's view of the network, as the job's host calls it. */
static int job_send(world *w, int job, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    return w->s[job].be->sim_send(w->s[job].be_ctx, src, dst, bytes, tag, token);
}

static void job_send_ok(world *w, int job, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    assert_int_equal(job_send(w, job, src, dst, bytes, tag, token), VIMANA_OK);
}

static void test_topology(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    assert_int_equal(w.s[0].n_npus, 4);
    assert_int_equal(w.s[0].n_dims, 2);
    assert_int_equal(w.s[0].be->num_dims(w.s[0].be_ctx), 2);
    assert_int_equal(w.s[0].be->dim_size(w.s[0].be_ctx, 1), 2);
    assert_int_equal(w.s[1].n_npus, 2);
    assert_string_equal(w.s[1].be->name, "fake");
    /* Links are the network's, not a job's: no counters through a view. */
    assert_int_equal(w.s[0].be->capabilities, VIMANA_CAP_MULTI_DIM);
    assert_null(w.s[0].be->num_links);
    assert_null(w.s[0].be->dim_bandwidth);
    assert_int_equal(w.s[1].be->now(w.s[1].be_ctx), 42);
    job_net_fini(&w.net);
}

static void test_send_maps_ranks_and_wraps_tokens(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    assert_int_equal(job_send(&w, 0, 0, 3, 100, 9, 0x1234), VIMANA_OK);
    assert_int_equal(w.f.src, 7);
    assert_int_equal(w.f.dst, 3);
    assert_int_equal(w.f.bytes, 100);
    assert_true(w.f.token == 0); /* entry 0, generation 0 */
    assert_int_equal(job_send(&w, 1, 1, 0, 8, 0, 0x99), VIMANA_OK);
    assert_int_equal(w.f.src, 2);
    assert_int_equal(w.f.dst, 0);
    assert_true(w.f.token == 1);
    assert_true(w.net.msgs[0].token == 0x1234 && w.net.msgs[0].job == 0);
    assert_true(w.net.msgs[1].token == 0x99 && w.net.msgs[1].job == 1);
    /* A rank outside the job is refused before the backend sees it. */
    assert_int_equal(job_send(&w, 1, 2, 0, 8, 0, 1), VIMANA_ERR_ARGUMENT);
    assert_int_equal(w.f.sends, 2);
    /* A send the backend refuses gives its entry back, with a new generation. */
    w.f.status = VIMANA_ERR_ARGUMENT;
    assert_int_equal(job_send(&w, 1, 0, 1, 8, 0, 5), VIMANA_ERR_ARGUMENT);
    w.f.status = VIMANA_OK;
    assert_int_equal(job_send(&w, 1, 0, 1, 8, 0, 6), VIMANA_OK);
    assert_true(w.f.token == (1ull << 32 | 2));
    job_net_fini(&w.net);
}

static void test_unknown_token_breaks_the_contract(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    job_send_ok(&w, 1, 0, 1, 8, 0, 5);
    job_net_delivered(&w.net, 1ull << 32); /* entry 0, a generation it never had */
    assert_true(w.s[0].failed);
    assert_string_equal(w.s[0].error, "network backend fake broke the network API contract: delivered a message twice "
                                      "or one it was never given (token 4294967296)");
    assert_false(w.s[1].failed);
    job_net_fini(&w.net);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_topology),
    cmocka_unit_test(test_send_maps_ranks_and_wraps_tokens),
    cmocka_unit_test(test_unknown_token_breaks_the_contract)
)
