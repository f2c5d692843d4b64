/*
 * job_net.h - many jobs on one network backend (`vimana --jobs`).
 *
 * Each job runs in its own simulation context, whose backend is a "job
 * view": a vimana_backend descriptor that answers the job's logical
 * dimensions, turns the job's logical ranks into the physical NPUs of its
 * placement in sim_send, and forwards schedule/now to the one real backend,
 * whose event loop runs every job. The real backend's deliveries come back
 * through job_net_delivered, which finds the job and its own token again in
 * a table of messages in flight (the system layer's tokens use all 64 bits,
 * so the job cannot ride in them).
 */
#ifndef VIMANA_CMD_JOBS_JOB_NET_H
#define VIMANA_CMD_JOBS_JOB_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "system/context.h"

struct job_net;

typedef struct job_view {
    vimana_backend desc;        /* the proxy descriptor; its context is this view */
    struct job_net *net;
    uint32_t index;             /* the job's index in net->views */
    sim *s;                     /* the job's context, for deliveries */
    const uint32_t *npus;       /* logical rank -> physical NPU */
    uint32_t n_npus;
    uint32_t n_dims;
    uint32_t dims[SIM_MAX_DIMS];
} job_view;

/* A message in flight: which job sent it, with which token. */
typedef struct job_msg {
    uint64_t token;
    uint32_t job;               /* index into views; UINT32_MAX when free */
    uint32_t gen;               /* bumped when freed: a stale token no longer matches */
    uint32_t next_free;
} job_msg;

typedef struct job_net {
    const vimana_backend *be;   /* the real backend */
    void *be_ctx;
    job_view **views;           /* [n_views], by job index */
    uint32_t n_views;
    job_msg *msgs;
    uint32_t n_msgs, cap_msgs, free_head;
    bool in_send;               /* inside the real sim_send */
} job_net;

/* Sets up the shared part over an initialised backend (no allocation). */
void job_net_init(job_net *net, const vimana_backend *be, void *be_ctx, job_view **views, uint32_t n_views);
void job_net_fini(job_net *net);

/* Makes v the view of job `index` with logical dimensions dims[n_dims]
 * placed on npus[] (their product of them), and points s->be / s->be_ctx,
 * s->n_dims, s->dim_size and s->n_npus at it. */
void job_view_attach(job_view *v, job_net *net, uint32_t index, sim *s, const uint32_t *dims, uint32_t n_dims,
                     const uint32_t *npus);

/* The real backend delivered `token` (host->delivered): hands the job's own
 * token to its context. A token never given, given back twice or from
 * inside sim_send fails the first job's run (a broken contract). */
void job_net_delivered(job_net *net, uint64_t token);

#endif
