#include "sim_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/msg_match.h"
#include "vimana/event_queue.h"

#define FAKE_DELAY 100

struct fake_network {
    vimana_evq *q;
    harness *h;
};

static int f_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token);

static int f_schedule(void *ctx, vimana_tick d, vimana_event_fn fn, void *a, uint64_t x)
{
    return vimana_evq_schedule(((struct fake_network *)ctx)->q, d, fn, a, x);
}

static vimana_tick f_now(void *ctx)
{
    return vimana_evq_now(((struct fake_network *)ctx)->q);
}

static const vimana_backend fake = {
    .name = "recorder", .sim_send = f_send, .schedule = f_schedule, .now = f_now,
};

static void deliver(void *arg, uint64_t token)
{
    struct fake_network *n = arg;
    msg_delivered(&n->h->s, token);
}

static int f_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    struct fake_network *n = ctx;
    harness *h = n->h;
    if (h->n_sent == h->cap_sent) {
        h->cap_sent = h->cap_sent ? h->cap_sent * 2 : 256;
        h->sent = realloc(h->sent, h->cap_sent * sizeof *h->sent);
    }
    h->sent[h->n_sent++] = (sent_msg){src, dst, tag, bytes, vimana_evq_now(n->q)};
    return vimana_evq_schedule(n->q, FAKE_DELAY, deliver, n, token);
}

void harness_init(harness *h, const uint32_t *dims, uint32_t n_dims, const char *const *impl, uint32_t n_impl,
                  uint64_t splits, uint32_t nodes)
{
    harness_init_with(h, NULL, dims, n_dims, impl, n_impl, splits, nodes);
}

void harness_init_with(harness *h, const struct algorithm *extra, const uint32_t *dims, uint32_t n_dims,
                       const char *const *impl, uint32_t n_impl, uint64_t splits, uint32_t nodes)
{
    memset(h, 0, sizeof *h);
    /* before the names are resolved, as a run registers before reading its configuration */
    if (extra)
        assert_int_equal(algo_registry_add(&h->s.algorithms, extra), 0);
    h->net = calloc(1, sizeof *h->net);
    h->net->q = vimana_evq_new();
    h->net->h = h;
    h->opt.queues_per_dim = 1;
    h->opt.injection_scale = 1;
    h->opt.workload = "test";
    sim *s = &h->s;
    s->opt = &h->opt;
    s->be = &fake;
    s->be_ctx = h->net;
    s->log = stderr;
    s->n_dims = n_dims;
    s->n_npus = 1;
    for (uint32_t d = 0; d < n_dims; d++) {
        s->dim_size[d] = dims[d];
        s->n_npus *= dims[d];
    }
    sys_config *c = &s->cfg;
    c->path = strdup("test.json");
    c->has_scheduling_policy = c->has_collective_optimization = true;
    c->scheduling_policy = SCHED_LIFO;
    c->collective_optimization = COLL_OPT_LOCAL_BW_AWARE;
    c->endpoint_delay = 10;
    c->active_chunks_per_dimension = 1;
    c->preferred_dataset_splits = splits;
    c->local_mem_bw_Bps = 50e9;
    for (int k = 0; k < COLL_KINDS; k++) {
        c->impl[k] = calloc(n_impl, sizeof *c->impl[k]);
        c->n_impl[k] = n_impl;
        for (uint32_t i = 0; i < n_impl; i++)
            if (algo_registry_resolve(&s->algorithms, impl[i], &c->impl[k][i]) != 0)
                fail_msg("unknown collective algorithm '%s'", impl[i]);
    }
    assert_int_equal(system_init(s), 0);
    h->nodes = nodes;
    h->pending = calloc(s->n_npus, sizeof *h->pending);
    h->finish_tick = calloc(s->n_npus, sizeof *h->finish_tick);
    h->done_count = calloc((size_t)s->n_npus * nodes, sizeof *h->done_count);
    h->done_at = calloc((size_t)s->n_npus * nodes, sizeof *h->done_at);
}

static void record_done(sim *s, void *obj, uint64_t which)
{
    harness *h = obj;
    assert_true(which < (uint64_t)s->n_npus * h->nodes);
    assert_int_equal(h->done_count[which], 0);
    h->done_count[which]++;
    h->done_at[which] = sim_now(s);
    uint32_t npu = (uint32_t)(which / h->nodes);
    h->pending[npu]--;
    h->finish_tick[npu] = sim_now(s);
}

sim_done harness_done(harness *h, uint32_t npu, uint32_t node)
{
    assert_true(npu < h->s.n_npus && node < h->nodes);
    h->pending[npu]++;
    return (sim_done){record_done, h, (uint64_t)npu * h->nodes + node};
}

static void start(harness *h, uint32_t npu, uint32_t node, enum coll_kind kind, uint64_t bytes, npu_group *group)
{
    coll_request req = {.npu = npu, .trace = "test.et", .node = node, .node_id = node, .node_name = "coll",
                        .kind = kind, .size = bytes, .group = group, .priority = h->priority,
                        .done = harness_done(h, npu, node)};
    assert_int_equal(collective_start(&h->s, &req), 0);
}

void harness_start(harness *h, uint32_t npu, uint32_t node, enum coll_kind kind, uint64_t bytes)
{
    start(h, npu, node, kind, bytes, NULL);
}

void harness_start_in_group(harness *h, uint32_t npu, uint32_t node, enum coll_kind kind, uint64_t bytes,
                            int64_t group)
{
    npu_group *g = system_find_group(&h->s, npu, group);
    assert_non_null(g);
    start(h, npu, node, kind, bytes, g);
}

void harness_run_events(harness *h)
{
    vimana_evq_run(h->net->q);
    if (h->s.failed)
        fail_msg("simulation failed: %s", h->s.error);
}

void harness_run(harness *h)
{
    sim *s = &h->s;
    harness_run_events(h);
    for (uint32_t i = 0; i < s->n_npus; i++)
        assert_int_equal(h->pending[i], 0);
}

void harness_run_collective(harness *h, enum coll_kind kind, uint64_t bytes)
{
    for (uint32_t i = 0; i < h->s.n_npus; i++)
        harness_start(h, i, 0, kind, bytes);
    harness_run(h);
}

uint32_t harness_sent_by(const harness *h, uint32_t npu, sent_msg *out, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < h->n_sent && k < n; i++)
        if (h->sent[i].src == npu)
            out[k++] = h->sent[i];
    return k;
}

void harness_fini(harness *h)
{
    sim *s = &h->s;
    free(h->pending);
    free(h->finish_tick);
    free(h->done_count);
    free(h->done_at);
    system_fini(s);
    sys_config_free(&s->cfg);
    vimana_evq_free(h->net->q);
    free(h->net);
    free(h->sent);
}
