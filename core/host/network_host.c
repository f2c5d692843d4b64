/*
 * The host side of network_api.h. Every callback a backend can make into
 * the host starts here, and so does every question the host asks about the
 * network it built.
 */
#include "host/network_host.h"

#include <math.h>
#include <string.h>

#include "host/backend_validate.h"
#include "system/msg_match.h"
#include "system/system.h"
#include "util/msg_escape.h"

/* ---- callbacks (backend -> host) ----------------------------------------- */

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    sim *s = ((network_host *)host)->s;
    static const char *const names[] = {"debug", "info", "warning", "error"};
    if (!message) {
        sim_fail(s, "network backend %s broke the network API contract: log() was called with a NULL message",
                 s->be->name);
        return;
    }
    if (level == VIMANA_LOG_DEBUG)
        return;
    fprintf(s->log, "vimana: %s: %s: %s\n", s->be ? s->be->name : "backend",
            (unsigned)level < 4 ? names[level] : "log", message);
    if (level == VIMANA_LOG_ERROR)
        s->backend_said_error = true;
    if (level == VIMANA_LOG_ERROR && s->err_log)
        fprintf(s->err_log, "vimana: %s: error: %s\n", s->be ? s->be->name : "backend", message);
}

static void host_delivered(void *host, uint64_t token)
{
    sim *s = ((network_host *)host)->s;
    if (!s->failed)
        msg_delivered(s, token);
}

/* Cache hints of the backend's event loop (ABI 1.3): they change nothing. */
static void host_will_deliver(void *host, uint64_t token, int stage)
{
    msg_look_ahead(((network_host *)host)->s, token, stage);
}

static void host_will_run(void *host, vimana_event_fn fn, void *arg, uint64_t data, int stage)
{
    (void)host;
    npu_events_look_ahead(fn, arg, data, stage);
}

/* The backend's own fatal error: it becomes the run's one error line (the
 * message escaped, so that it stays one line) and stops the run like any
 * other failure (stop_backend below). */
static void host_failed(void *host, const char *message)
{
    sim *s = ((network_host *)host)->s;
    char text[768];
    msg_escape(message ? message : "(no message)", text, sizeof text);
    sim_fail(s, "network backend %s failed: %s", s->be->name, text);
}

/* s->hooks.failed: the first error of the run. Only inside run() is there a
 * loop to stop; before it the driver does not start one. */
static void stop_backend(void *arg)
{
    network_host *nh = arg;
    if (nh->running && nh->stop)
        nh->stop(nh->s->be_ctx);
}

/* ---- topology (host -> backend) ------------------------------------------ */

static int check_multi_dim(network_host *nh)
{
    sim *s = nh->s;
    if (s->n_dims == 1 || (s->be->capabilities & VIMANA_CAP_MULTI_DIM))
        return 0;
    sim_fail(s, "%s: network backend '%s' does not support multi-dimensional networks (%u dimensions); use a "
                "backend with the MULTI_DIM capability, e.g. analytical", s->opt->network, s->be->name, s->n_dims);
    return -1;
}

/* The backend times messages itself; --report shows a dimension's
 * bandwidth and the nccl model's tuner estimates each algorithm's time
 * from it, so it must be a number. Optional in the ABI: a backend without
 * dim_bandwidth() reports none (dim_bytes_per_ns stays 0). */
static int check_bandwidths(network_host *nh)
{
    sim *s = nh->s;
    if (!s->be->dim_bandwidth)
        return 0;
    for (uint32_t d = 0; d < s->n_dims; d++) {
        double bw = s->be->dim_bandwidth(s->be_ctx, d);
        if (!isfinite(bw) || bw <= 0) {
            sim_fail(s, "%s: network backend '%s' reports a bandwidth of %g GB/s for dimension %u (it must be "
                        "finite and greater than 0)", s->opt->network, s->be->name, bw, d);
            return -1;
        }
        /* GB/s as ASTRA-sim reads it (2^30 bytes), as the network YAML's
         * reader converts it for calibrate's closed form */
        s->dim_bytes_per_ns[d] = bw * (1 << 30) / 1000000000.0;
    }
    return 0;
}

static int read_topology(network_host *nh)
{
    sim *s = nh->s;
    char why[256];
    if (backend_read_dims(s->be, s->be_ctx, &s->n_dims, s->dim_size, &s->n_npus, why, sizeof why) != 0) {
        sim_fail(s, "%s: backend '%s': %s (network %s)", nh->lb.path, s->be->name, why, s->opt->network);
        return -1;
    }
    if (check_multi_dim(nh) != 0)
        return -1;
    return check_bandwidths(nh);
}

int network_host_num_links(sim *s, uint32_t *n)
{
    char why[256];
    if (backend_num_links(s->be, s->be_ctx, s->n_dims, s->dim_size, s->n_npus, n, why, sizeof why) == 0)
        return 0;
    sim_fail(s, "network backend %s broke the network API contract: %s", s->be->name, why);
    return -1;
}

_Static_assert(BACKEND_MAX_DIMS == SIM_MAX_DIMS, "backend_read_dims fills sim.dim_size");

/* ---- life cycle ---------------------------------------------------------- */

int network_host_init(network_host *nh, sim *s)
{
    memset(nh, 0, sizeof *nh);
    nh->s = s;
    char err[1024];
    if (backend_open(s->opt->backend, &nh->lb, err, sizeof err) != 0) {
        sim_fail(s, "%s", err);
        return -1;
    }
    s->be = nh->lb.desc;
    nh->stop = backend_stop_fn(s->be);
    nh->callbacks = (vimana_host){.struct_size = sizeof nh->callbacks, .host = nh, .log = host_log,
                                  .delivered = host_delivered, .failed = host_failed,
                                  .will_deliver = host_will_deliver, .will_run = host_will_run};
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = s->opt->network,
                                    .options = s->opt->backend_options};
    bool contract;
    int rc = backend_call_init(s->be, &params, &nh->callbacks, &s->be_ctx, err, sizeof err, &contract);
    if (rc != VIMANA_OK) {
        if (contract)
            sim_fail(s, "%s: backend '%s': init() returned status %d: %s", nh->lb.path, s->be->name, rc, err);
        else
            sim_fail(s, "%s", err[0] ? err : "network backend failed to initialise");
        s->be_ctx = NULL;
        return -1;
    }
    s->hooks.failed = stop_backend;
    s->hooks.failed_ctx = nh;
    /* A backend may call failed() from init() and still return OK. */
    if (s->failed)
        return -1;
    return read_topology(nh);
}

void network_host_run(network_host *nh)
{
    sim *s = nh->s;
    nh->running = true;
    int rc = s->be->run(s->be_ctx);
    nh->running = false;
    if (!s->failed && rc != VIMANA_OK)
        sim_fail_backend(s, "network backend %s stopped with an error", s->be->name);
}

void network_host_fini(network_host *nh)
{
    sim *s = nh->s;
    s->hooks.failed = NULL;
    if (s->be && s->be_ctx)
        s->be->fini(s->be_ctx);
    s->be_ctx = NULL;
    backend_unload(&nh->lb);
    s->be = NULL;
}
