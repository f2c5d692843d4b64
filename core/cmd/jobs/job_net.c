/*
 * job_net.c - the job views and the table of messages in flight that
 * routes the real backend's deliveries back to their job.
 */
#include "cmd/jobs/job_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/msg_match.h"
#include "util/grow.h"

#define NO_JOB UINT32_MAX

/* ---- the table of messages in flight ------------------------------------- */

static int msg_alloc(job_net *net, uint32_t job, uint64_t token, uint64_t *outer)
{
    if (net->free_head == NO_JOB) {
        if (grow_array_u32((void **)&net->msgs, &net->cap_msgs, net->n_msgs + 1, sizeof *net->msgs, 1024,
                           NO_JOB - 1) != 0)
            return -1;
        net->msgs[net->n_msgs] = (job_msg){.job = NO_JOB, .next_free = NO_JOB};
        net->free_head = net->n_msgs++;
    }
    uint32_t e = net->free_head;
    job_msg *m = &net->msgs[e];
    net->free_head = m->next_free;
    m->job = job;
    m->token = token;
    *outer = (uint64_t)m->gen << 32 | e;
    return 0;
}

static void msg_free(job_net *net, uint32_t e)
{
    job_msg *m = &net->msgs[e];
    m->job = NO_JOB;
    m->gen++;
    m->next_free = net->free_head;
    net->free_head = e;
}

/* ---- the view's descriptor (proxy -> real backend) ----------------------- */

static uint32_t view_num_dims(void *ctx)
{
    return ((job_view *)ctx)->n_dims;
}

static uint32_t view_dim_size(void *ctx, uint32_t dim)
{
    job_view *v = ctx;
    return dim < v->n_dims ? v->dims[dim] : 0;
}

static int view_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    job_view *v = ctx;
    job_net *net = v->net;
    if (src >= v->n_npus || dst >= v->n_npus)
        return VIMANA_ERR_ARGUMENT;
    uint64_t outer;
    if (msg_alloc(net, v->index, token, &outer) != 0)
        return VIMANA_ERR_NOMEM;
    net->in_send = true;
    int rc = net->be->sim_send(net->be_ctx, v->npus[src], v->npus[dst], bytes, tag, outer);
    net->in_send = false;
    if (rc != VIMANA_OK)
        msg_free(net, (uint32_t)outer);
    return rc;
}

static int view_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    job_net *net = ((job_view *)ctx)->net;
    return net->be->schedule(net->be_ctx, delta, fn, arg, data);
}

static vimana_tick view_now(void *ctx)
{
    job_net *net = ((job_view *)ctx)->net;
    return net->be->now(net->be_ctx);
}

/* ---- life cycle ---------------------------------------------------------- */

void job_net_init(job_net *net, const vimana_backend *be, void *be_ctx, job_view **views, uint32_t n_views)
{
    *net = (job_net){.be = be, .be_ctx = be_ctx, .views = views, .n_views = n_views, .free_head = NO_JOB};
}

void job_net_fini(job_net *net)
{
    free(net->msgs);
    net->msgs = NULL;
    net->n_msgs = net->cap_msgs = 0;
    net->free_head = NO_JOB;
}

void job_view_attach(job_view *v, job_net *net, uint32_t index, sim *s, const uint32_t *dims, uint32_t n_dims,
                     const uint32_t *npus)
{
    memset(v, 0, sizeof *v);
    /* The real backend's name, so that every message names the backend the
     * user chose; no link counters or dimension bandwidths: the links are
     * shared by every job and a logical dimension has no bandwidth of its
     * own. The view's time is the real backend's, so it has no run(). */
    v->desc = (vimana_backend){VIMANA_BACKEND_HEADER_INIT, .name = net->be->name,
                               .description = "one job's view of a shared network",
                               .capabilities = net->be->capabilities & ~(uint64_t)VIMANA_CAP_LINK_STATS,
                               .num_dims = view_num_dims, .dim_size = view_dim_size, .sim_send = view_send,
                               .schedule = view_schedule, .now = view_now};
    v->net = net;
    v->index = index;
    v->s = s;
    v->npus = npus;
    v->n_dims = n_dims;
    v->n_npus = 1;
    for (uint32_t d = 0; d < n_dims && d < SIM_MAX_DIMS; d++) {
        v->dims[d] = dims[d];
        v->n_npus *= dims[d];
        s->dim_size[d] = dims[d];
    }
    net->views[index] = v;
    s->be = &v->desc;
    s->be_ctx = v;
    s->n_dims = n_dims;
    s->n_npus = v->n_npus;
}

/* ---- deliveries (real backend -> job) ------------------------------------ */

void job_net_delivered(job_net *net, uint64_t token)
{
    uint32_t e = (uint32_t)token, gen = (uint32_t)(token >> 32);
    if (net->in_send || e >= net->n_msgs || net->msgs[e].job == NO_JOB || net->msgs[e].gen != gen) {
        sim *s = net->views[0]->s;
        sim_fail(s, "network backend %s broke the network API contract: %s (token %llu)", net->be->name,
                 net->in_send ? "called host->delivered from inside sim_send (deliver from a scheduled event "
                                "instead)" : "delivered a message twice or one it was never given",
                 (unsigned long long)token);
        return;
    }
    job_msg m = net->msgs[e];
    msg_free(net, e);
    sim *s = net->views[m.job]->s;
    if (!s->failed)
        msg_delivered(s, m.token);
}
