/*
 * The mock host of `vimana backend-check`. Each callback first checks where
 * the backend is (inside sim_send, inside run, after stop) and what it
 * passed back (an event's data, a message's token), because those are the
 * contract points a backend gets wrong; only then does it act.
 */
#include "cmd/backend_check/mock_host.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/backend_loader.h"
#include "util/msg_escape.h"

const char *mock_describe(const mock_host *mh, size_t i, char *buf, size_t len)
{
    const mock_message *m = &mh->msgs[i];
    snprintf(buf, len, "token 0x%016" PRIx64 " (NPU %" PRIu32 " -> %" PRIu32 ", %" PRIu64 " byte%s, sent at tick %"
             PRIu64 ")", MOCK_TOKEN_BASE + i, m->src, m->dst, m->bytes, m->bytes == 1 ? "" : "s", m->sent_at);
    return buf;
}

vimana_tick mock_now(mock_host *mh)
{
    vimana_tick t = mh->be->now(mh->ctx);
    if (t < mh->latest_now)
        check_fail(mh->rep, CHECK_CLOCK, "now() returned %" PRIu64 " after %" PRIu64 " (time went backwards)", t,
                   mh->latest_now);
    else
        mh->latest_now = t;
    return t;
}

void mock_halt(mock_host *mh)
{
    if (mh->halted)
        return;
    mh->halted = true;
    if (mh->stop)
        mh->stop(mh->ctx);
}

/* Counts one event or delivery. Returns false when the host no longer
 * acts on them: after stop(), or once the run is a storm. */
static bool mock_accepts_activity(mock_host *mh)
{
    if (mh->halted) {
        mh->after_halt++;
        return false;
    }
    if (++mh->activity <= MOCK_ACTIVITY_LIMIT)
        return true;
    if (!mh->storm_reported) {
        mh->storm_reported = true;
        check_fail(mh->rep, CHECK_RUN, "more than %llu events and deliveries in one run() (an event storm: run() "
                   "would not return)", MOCK_ACTIVITY_LIMIT);
    }
    if (!mh->stop && mh->abandon)
        mh->abandon(mh);
    mock_halt(mh);
    return false;
}

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    mock_host *mh = host;
    if (!message) {
        check_fail(mh->rep, CHECK_RUN, "host->log() was called with a NULL message");
        return;
    }
    if (level == VIMANA_LOG_ERROR)
        msg_escape(message, mh->last_error, sizeof mh->last_error);
}

static void host_failed(void *host, const char *message)
{
    mock_host *mh = host;
    char why[512];
    msg_escape(message ? message : "(NULL message)", why, sizeof why);
    check_fail(mh->rep, CHECK_RUN, "the backend called host->failed(): %s", why);
    mock_halt(mh);
}

static void host_delivered(void *host, uint64_t token)
{
    mock_host *mh = host;
    if (!mock_accepts_activity(mh))
        return;
    vimana_tick now = mock_now(mh);
    uint64_t i = token - MOCK_TOKEN_BASE;
    if (token < MOCK_TOKEN_BASE || i >= mh->n_msgs) {
        check_fail(mh->rep, CHECK_DELIVERY, "delivered an unknown token 0x%016" PRIx64 " at tick %" PRIu64
                   " (the token must come back unchanged)", token, now);
        return;
    }
    char what[160];
    mock_describe(mh, i, what, sizeof what);
    mock_message *m = &mh->msgs[i];
    if (mh->in_send) {
        check_fail(mh->rep, CHECK_DELIVERY, "%s delivered from inside sim_send() (deliver from a scheduled event "
                   "instead)", what);
        return;
    }
    if (!mh->in_run)
        check_fail(mh->rep, CHECK_DELIVERY, "%s delivered outside run()", what);
    if (m->expect_refusal) {
        check_fail(mh->rep, CHECK_INVALID_SEND, "%s delivered, although the message is invalid", what);
        return;
    }
    if (m->status != VIMANA_OK) {
        check_fail(mh->rep, CHECK_DELIVERY, "%s delivered, although sim_send() refused it (status %d)", what,
                   m->status);
        return;
    }
    if (m->deliveries++ > 0) {
        check_fail(mh->rep, CHECK_DELIVERY, "%s delivered twice (at tick %" PRIu64 " and %" PRIu64 ")", what,
                   m->delivered_at, now);
        return;
    }
    m->delivered_at = now;
    if (now < m->sent_at)
        check_fail(mh->rep, CHECK_DELIVERY, "%s delivered at tick %" PRIu64 ", before it was sent", what, now);
    if (mh->on_delivered)
        mh->on_delivered(mh, i);
}

/* Same-tick events must run in the order they were scheduled; events are
 * numbered in that order, so the due tick and then the number must grow. */
static void check_event_order(mock_host *mh, size_t i)
{
    const mock_event *e = &mh->events[i], *last = &mh->events[mh->last_event];
    if (mh->any_event_ran && (e->due < last->due || (e->due == last->due && i < mh->last_event)))
        check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu (due at tick %" PRIu64 ") ran after event #%zu (due at tick %"
                   PRIu64 "), which was scheduled after it", i, e->due, mh->last_event, last->due);
    mh->any_event_ran = true;
    mh->last_event = i;
}

static void host_event(void *arg, uint64_t data)
{
    mock_host *mh = arg;
    if (!mock_accepts_activity(mh))
        return;
    vimana_tick now = mock_now(mh);
    if (data >= mh->n_events || !mh->events[data].accepted) {
        check_fail(mh->rep, CHECK_SCHEDULE, "an event ran with data %" PRIu64 ", a value the host never passed to "
                   "schedule() (the data must come back unchanged)", data);
        return;
    }
    size_t i = (size_t)data;
    mock_event *e = &mh->events[i];
    if (e->ran) {
        check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu (due at tick %" PRIu64 ") ran twice", i, e->due);
        return;
    }
    e->ran = true;
    if (mh->in_schedule)
        check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu (delay %" PRIu64 ") ran inside schedule() (an event runs "
                   "from run(), after the events queued before it for its tick)", i, e->due - e->scheduled_at);
    else if (!mh->in_run)
        check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu ran outside run()", i);
    if (now != e->due)
        check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu, scheduled at tick %" PRIu64 " for tick %" PRIu64
                   ", ran at tick %" PRIu64, i, e->scheduled_at, e->due, now);
    check_event_order(mh, i);
    if (e->action)
        e->action(mh, e->param);
}

int mock_host_open(mock_host *mh, const vimana_backend *be, check_report *rep, const char *network_config,
                   const char *options, char *err, size_t err_len)
{
    memset(mh, 0, sizeof *mh);
    mh->be = be;
    mh->rep = rep;
    mh->stop = backend_stop_fn(be);
    mh->host = (vimana_host){.struct_size = sizeof(vimana_host), .host = mh, .log = host_log,
                             .delivered = host_delivered, .failed = host_failed};
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = network_config,
                                    .options = options};
    char reason[1024];
    bool contract;
    int rc = backend_call_init(be, &params, &mh->host, &mh->ctx, reason, sizeof reason, &contract);
    if (rc != VIMANA_OK) {
        snprintf(err, err_len, "%s", reason[0] ? reason : mh->last_error[0] ? mh->last_error : "(no reason given)");
        mh->ctx = NULL;
        return rc;
    }
    mh->open = true;
    return VIMANA_OK;
}

void mock_host_close(mock_host *mh)
{
    if (mh->open)
        mh->be->fini(mh->ctx);
    mh->open = false;
}

int mock_schedule(mock_host *mh, vimana_tick delay, mock_action action, uint64_t param, bool may_drop)
{
    if (mh->n_events == MOCK_MAX_RECORDS)
        return -1;
    vimana_tick now = mock_now(mh);
    size_t i = mh->n_events++;
    mh->events[i] = (mock_event){.scheduled_at = now, .due = now + delay, .action = action, .param = param,
                                 .may_drop = may_drop};
    /* Accepted until schedule() says otherwise: a backend that runs the
     * event at once does so before it returns. */
    mh->events[i].accepted = true;
    bool was_in_schedule = mh->in_schedule;
    mh->in_schedule = true;
    int rc = mh->be->schedule(mh->ctx, delay, host_event, mh, i);
    mh->in_schedule = was_in_schedule;
    mh->events[i].accepted = rc == VIMANA_OK;
    if (rc != VIMANA_OK)
        check_fail(mh->rep, CHECK_SCHEDULE, "schedule() of an event at tick %" PRIu64 " with delay %" PRIu64
                   " returned status %d", now, delay, rc);
    return rc;
}

int mock_send(mock_host *mh, uint32_t src, uint32_t dst, uint64_t bytes, bool expect_refusal, uint64_t param,
              size_t *index)
{
    if (mh->n_msgs == MOCK_MAX_RECORDS)
        return -1;
    size_t i = mh->n_msgs++;
    mh->msgs[i] = (mock_message){.src = src, .dst = dst, .bytes = bytes, .sent_at = mock_now(mh),
                                 .expect_refusal = expect_refusal, .param = param};
    if (index)
        *index = i;
    mh->in_send = true;
    int rc = mh->be->sim_send(mh->ctx, src, dst, bytes, (uint32_t)i, MOCK_TOKEN_BASE + i);
    mh->in_send = false;
    mh->msgs[i].status = rc;
    return rc;
}

int mock_run(mock_host *mh)
{
    mh->in_run = true;
    int rc = mh->be->run(mh->ctx);
    mh->in_run = false;
    return rc;
}

void mock_check_events_ran(mock_host *mh)
{
    for (size_t i = 0; i < mh->n_events; i++) {
        const mock_event *e = &mh->events[i];
        if (e->accepted && !e->ran && !e->may_drop && !mh->halted)
            check_fail(mh->rep, CHECK_SCHEDULE, "event #%zu, scheduled at tick %" PRIu64 " for tick %" PRIu64
                       ", never ran (run() returned without it)", i, e->scheduled_at, e->due);
    }
}

void mock_check_all_delivered(mock_host *mh)
{
    if (mh->halted)
        return;
    char what[160];
    for (size_t i = 0; i < mh->n_msgs; i++) {
        const mock_message *m = &mh->msgs[i];
        if (m->status == VIMANA_OK && !m->expect_refusal && m->deliveries == 0)
            check_fail(mh->rep, CHECK_STALL, "never delivered: %s", mock_describe(mh, i, what, sizeof what));
    }
}
