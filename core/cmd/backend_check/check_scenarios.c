/* The checks of `vimana backend-check` (see check_scenarios.h). */
#include "cmd/backend_check/check_scenarios.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/backend_loader.h"
#include "host/backend_validate.h"
#include "host/device_name.h"
#include "cmd/backend_check/mock_host.h"
#include "system/context.h"

#define KNOWN_CAPABILITIES (VIMANA_CAP_MULTI_DIM | VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS)
/* NPUs a scenario talks to: all of them up to this many, else a spread. */
#define SAMPLE_NPUS 16u
/* Messages before run() that ask for a reply when they arrive. */
#define REPLYING_MESSAGES 4u
#define REPLY_BYTES 64u

/* What the scenario callbacks need: mock_host.user points here. */
typedef struct scenario {
    check_target *t;
    uint32_t npus;
    bool stop_sent;
    uint64_t largest;   /* delivery's largest message (1 GiB, or less for a slow backend) */
} scenario;

/* Delivery's message sizes; the last is the scenario's `largest`. */
static const uint64_t message_sizes[] = {1, 3, 4096, 1u << 20, 1u << 30};
#define N_SIZES (sizeof message_sizes / sizeof message_sizes[0])
#define LARGEST_SIZE (1ull << 30)
/* The CPU seconds delivery's largest messages may take together: a slower
 * backend gets smaller ones (down to 1 MiB) unless --full. */
#define DELIVERY_BUDGET_S 1.0
#define PROBE_BYTES (1ull << 20)
/* The second probe's size in MiB: as large as PROBE_LARGE_S of CPU allows
 * at the first probe's rate (between 4 and 64 MiB), so that a per-byte
 * cost stands out of the timer's noise on a loaded machine: with 4 MiB, a
 * fixed 2 ms per message measured 2.42 and 2.83 ms and was taken for a
 * per-byte cost. */
#define PROBE_LARGE_MIN_MIB 4u
#define PROBE_LARGE_MAX_MIB 64u
#define PROBE_LARGE_S 0.25
/* A backend that moves the probe's 1 MiB in less CPU than this keeps
 * 1 GiB whatever the projection: the timing of a fast backend is noise
 * (a loaded machine, sanitizers), and its run takes seconds anyway. */
#define PROBE_FAST_S 1e-4

static uint64_t message_size(const mock_host *mh, size_t k)
{
    const scenario *sc = mh->user;
    return k % N_SIZES == N_SIZES - 1 ? sc->largest : message_sizes[k % N_SIZES];
}

/* run() storms and cannot be stopped: the command gives its verdict. */
static void abandon_run(mock_host *mh)
{
    check_target *t = ((scenario *)mh->user)->t;
    t->abandon(t->user);
}

/* ---- descriptor ---------------------------------------------------------- */

static void check_text_field(check_target *t, const char *field, const char *value)
{
    if (!value)
        check_fail(t->rep, CHECK_DESCRIPTOR, "%s is NULL", field);
    else if (!value[0])
        check_fail(t->rep, CHECK_DESCRIPTOR, "%s is empty", field);
}

static bool has_link_functions(const vimana_backend *d, bool *num_links, bool *link_stats)
{
    *num_links = BACKEND_DESC_COVERS(d, num_links) && d->num_links;
    *link_stats = BACKEND_DESC_COVERS(d, link_stats) && d->link_stats;
    return *num_links && *link_stats;
}

static void check_capabilities(check_target *t, const vimana_backend *d)
{
    uint64_t caps = d->capabilities;
    if (caps & ~(uint64_t)KNOWN_CAPABILITIES)
        check_fail(t->rep, CHECK_DESCRIPTOR, "capabilities has unknown bits 0x%" PRIx64,
                   caps & ~(uint64_t)KNOWN_CAPABILITIES);
    bool nl, ls;
    has_link_functions(d, &nl, &ls);
    if ((caps & VIMANA_CAP_LINK_STATS) && !(nl && ls))
        check_fail(t->rep, CHECK_DESCRIPTOR, "capabilities has VIMANA_CAP_LINK_STATS but %s is NULL",
                   !nl ? "num_links" : "link_stats");
    else if (nl != ls)
        check_fail(t->rep, CHECK_DESCRIPTOR, "%s is set but %s is NULL (they come as a pair)",
                   nl ? "num_links" : "link_stats", nl ? "link_stats" : "num_links");
    else if (nl && !(caps & VIMANA_CAP_LINK_STATS))
        check_fail(t->rep, CHECK_DESCRIPTOR, "num_links and link_stats are set but capabilities lacks "
                   "VIMANA_CAP_LINK_STATS");
}

/* One row of the options table (1.5): a key of a-z, 0-9 and '_', and the
 * three texts a listing prints. */
static bool check_option_row(check_target *t, size_t i, const vimana_backend_option *o)
{
    for (const char *c = o->key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) {
            check_fail(t->rep, CHECK_DESCRIPTOR, "options[%zu]: key has a byte other than a-z, 0-9 and '_' "
                       "(0x%02x)", i, (unsigned char)*c);
            return false;
        }
    const char *texts[] = {o->values, o->fallback, o->help};
    static const char *names[] = {"values", "fallback", "help"};
    for (int k = 0; k < 3; k++)
        if (!texts[k] || !texts[k][0]) {
            check_fail(t->rep, CHECK_DESCRIPTOR, "options[%zu] (%s): %s is %s", i, o->key, names[k],
                       texts[k] ? "empty" : "NULL");
            return false;
        }
    if (o->faster && !o->faster[0]) {
        check_fail(t->rep, CHECK_DESCRIPTOR, "options[%zu] (%s): faster is empty (NULL when there is none)", i,
                   o->key);
        return false;
    }
    return true;
}

/* The 1.5 options table: ended by a NULL key within
 * VIMANA_BACKEND_MAX_OPTIONS rows, each row sound, no key twice. */
static void check_options_table(check_target *t, const vimana_backend *d)
{
    if (d->abi_minor < 5 && BACKEND_DESC_COVERS(d, options) && d->options) {
        check_fail(t->rep, CHECK_DESCRIPTOR, "options is set in an ABI %u.%u descriptor (options is since 1.5: "
                   "declare abi_minor 5, e.g. with VIMANA_BACKEND_HEADER_INIT)", d->abi_major, d->abi_minor);
        return;
    }
    const vimana_backend_option *o = backend_options_table(d);
    for (size_t i = 0; o && o[i].key; i++) {
        if (i == VIMANA_BACKEND_MAX_OPTIONS) {
            check_fail(t->rep, CHECK_DESCRIPTOR, "options has more than %d rows (or no row with a NULL key at its "
                       "end)", VIMANA_BACKEND_MAX_OPTIONS);
            return;
        }
        if (!o[i].key[0]) {
            check_fail(t->rep, CHECK_DESCRIPTOR, "options[%zu]: key is empty", i);
            return;
        }
        if (!check_option_row(t, i, &o[i]))
            return;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(o[j].key, o[i].key)) {
                check_fail(t->rep, CHECK_DESCRIPTOR, "options[%zu]: key '%s' is also options[%zu]", i, o[i].key, j);
                return;
            }
    }
}

void check_descriptor(check_target *t)
{
    const vimana_backend *d = t->be;
    check_use(t->rep, CHECK_DESCRIPTOR);
    const char *name_problem = backend_name_problem(d);
    if (name_problem)
        check_fail(t->rep, CHECK_DESCRIPTOR, "%s", name_problem);
    check_text_field(t, "description", d->description);
    if (d->struct_size > sizeof *d)
        check_fail(t->rep, CHECK_DESCRIPTOR, "struct_size is %" PRIu32 ", larger than an ABI %d.%d descriptor "
                   "(%zu bytes; fill the header with VIMANA_BACKEND_HEADER_INIT)", d->struct_size,
                   VIMANA_NETWORK_ABI_MAJOR, VIMANA_NETWORK_ABI_MINOR, sizeof *d);
    check_capabilities(t, d);
    if (d->abi_minor < 1 && BACKEND_DESC_COVERS(d, stop) && d->stop)
        check_fail(t->rep, CHECK_DESCRIPTOR, "stop is set in an ABI %u.%u descriptor (stop is since 1.1: declare "
                   "abi_minor 1, e.g. with VIMANA_BACKEND_HEADER_INIT)", d->abi_major, d->abi_minor);
    if (d->abi_minor < 2 && BACKEND_DESC_COVERS(d, device_name) && d->device_name)
        check_fail(t->rep, CHECK_DESCRIPTOR, "device_name is set in an ABI %u.%u descriptor (device_name is since "
                   "1.2: declare abi_minor 2, e.g. with VIMANA_BACKEND_HEADER_INIT)", d->abi_major, d->abi_minor);
    check_options_table(t, d);
    size_t n_reserved = sizeof d->reserved / sizeof d->reserved[0];
    for (size_t i = 0; i < n_reserved; i++) {
        size_t end = offsetof(vimana_backend, reserved) + (i + 1) * sizeof(void *);
        if (d->struct_size >= end && d->reserved[i])
            check_fail(t->rep, CHECK_DESCRIPTOR, "reserved[%zu] is not zero (reserved slots must stay NULL)", i);
    }
}

/* ---- one context ------------------------------------------------------- */

/* A fresh context on `cfg`, or NULL (init failure reported). */
static mock_host *open_context(check_target *t, const net_config *cfg, scenario *sc)
{
    mock_host *mh = malloc(sizeof *mh);
    if (!mh) {
        check_fail(t->rep, CHECK_INIT, "out of memory for the mock host");
        return NULL;
    }
    char why[512];
    check_use(t->rep, CHECK_INIT);
    int rc = mock_host_open(mh, t->be, t->rep, cfg->path, t->options, why, sizeof why);
    if (rc != VIMANA_OK) {
        check_fail(t->rep, CHECK_INIT, "init() returned status %d for %s: %s", rc, cfg->about, why);
        free(mh);
        return NULL;
    }
    mh->user = sc;
    mh->abandon = abandon_run;
    sc->t = t;
    return mh;
}

static void close_context(mock_host *mh)
{
    mock_host_close(mh);
    free(mh);
}

static int run_context(check_target *t, mock_host *mh)
{
    check_use(t->rep, CHECK_RUN);
    int rc = mock_run(mh);
    if (rc != VIMANA_OK && !mh->halted)
        check_fail(t->rep, CHECK_RUN, "run() returned status %d%s%s", rc, mh->last_error[0] ? ": " : "",
                   mh->last_error);
    return rc;
}

/* ---- network: topology and bandwidth ------------------------------------ */

static int check_topology(check_target *t, const net_config *cfg, mock_host *mh, uint32_t *npus)
{
    check_use(t->rep, CHECK_TOPOLOGY);
    /* The host's own reading (backend_validate.h): what it refuses, this
     * check refuses in the same words. */
    uint32_t nd, sizes[BACKEND_MAX_DIMS];
    char why[256];
    if (backend_read_dims(t->be, mh->ctx, &nd, sizes, npus, why, sizeof why) != 0) {
        check_fail(t->rep, CHECK_TOPOLOGY, "%s", why);
        return -1;
    }
    mh->n_dims = nd;
    memcpy(mh->dim_size, sizes, sizeof sizes);
    if (cfg->n_dims && nd != cfg->n_dims)
        check_fail(t->rep, CHECK_TOPOLOGY, "num_dims() returned %" PRIu32 ", the configuration has %" PRIu32
                   " dimension%s", nd, cfg->n_dims, cfg->n_dims == 1 ? "" : "s");
    for (uint32_t d = 0; cfg->n_dims == nd && d < nd; d++)
        if (sizes[d] != cfg->dim_size[d])
            check_fail(t->rep, CHECK_TOPOLOGY, "dim_size(%" PRIu32 ") returned %" PRIu32 ", the configuration "
                       "has %" PRIu32 " NPUs in that dimension", d, sizes[d], cfg->dim_size[d]);
    if (*npus < 2) {
        check_fail(t->rep, CHECK_TOPOLOGY, "the network has 1 NPU; sim_send() needs at least 2 to be checked");
        return -1;
    }
    return check_failed(t->rep, CHECK_TOPOLOGY) ? -1 : 0;
}

static void check_bandwidth(check_target *t, const net_config *cfg, mock_host *mh)
{
    const vimana_backend *d = t->be;
    if (!BACKEND_DESC_COVERS(d, dim_bandwidth) || !d->dim_bandwidth)
        return; /* optional in the ABI */
    check_use(t->rep, CHECK_BANDWIDTH);
    uint32_t nd = d->num_dims(mh->ctx);
    for (uint32_t i = 0; i < nd; i++) {
        double bw = d->dim_bandwidth(mh->ctx, i);
        if (!(isfinite(bw) && bw > 0))
            check_fail(t->rep, CHECK_BANDWIDTH, "dim_bandwidth(%" PRIu32 ") returned %g (expected a finite number "
                       "of GB/s greater than 0)", i, bw);
        else if (cfg->n_dims == nd && bw != cfg->bandwidth[i])
            check_fail(t->rep, CHECK_BANDWIDTH, "dim_bandwidth(%" PRIu32 ") returned %g, the configuration "
                       "says %g GB/s", i, bw, cfg->bandwidth[i]);
    }
}

/* Init, topology and bandwidth on one context. Returns 0 with the number
 * of NPUs when the other scenarios can run. */
static int check_network(check_target *t, const net_config *cfg, uint32_t *npus)
{
    scenario sc = {0};
    mock_host *mh = open_context(t, cfg, &sc);
    if (!mh)
        return -1;
    int rc = check_topology(t, cfg, mh, npus);
    if (rc == 0)
        check_bandwidth(t, cfg, mh);
    close_context(mh);
    return rc;
}

/* ---- schedule: the order of events -------------------------------------- */

/* Event i is scheduled `delay` after its parent ran (-1: before run()).
 * At tick 5 the order must be 0, 1, 3, 8, 5, 6, 7: events 5 and 6 are
 * scheduled by 1 while tick 5 runs, 7 by 5, and 8 by 4 at tick 3. */
static const struct {
    int parent;
    vimana_tick delay;
} script[] = {
    {-1, 5}, {-1, 5}, {-1, 0}, {-1, 5}, {-1, 3}, {1, 0}, {1, 0}, {5, 0}, {4, 2}, {2, 0},
    {-1, 1000000000000ull}, {10, 1}, {-1, 1},
};
#define SCRIPT_LEN (sizeof script / sizeof script[0])

static void script_step(mock_host *mh, uint64_t parent)
{
    for (size_t i = 0; i < SCRIPT_LEN; i++)
        if (script[i].parent == (int)parent)
            mock_schedule(mh, script[i].delay, script_step, i, false);
}

static void check_schedule(check_target *t, const net_config *cfg)
{
    scenario sc = {0};
    mock_host *mh = open_context(t, cfg, &sc);
    if (!mh)
        return;
    check_use(t->rep, CHECK_SCHEDULE);
    check_use(t->rep, CHECK_CLOCK);
    script_step(mh, (uint64_t)-1);
    run_context(t, mh);
    mock_check_events_ran(mh);
    close_context(mh);
}

/* ---- delivery ---------------------------------------------------------- */

static uint32_t sample_npu(uint32_t npus, uint32_t k)
{
    return npus <= SAMPLE_NPUS ? k : (uint32_t)((uint64_t)k * (npus - 1) / (SAMPLE_NPUS - 1));
}

static uint32_t sample_count(uint32_t npus)
{
    return npus < SAMPLE_NPUS ? npus : SAMPLE_NPUS;
}

static void send_valid(mock_host *mh, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t param)
{
    size_t i = 0;
    int rc = mock_send(mh, src, dst, bytes, false, param, &i);
    if (rc != VIMANA_OK && i < mh->n_msgs) {
        char what[160];
        check_fail(mh->rep, CHECK_DELIVERY, "sim_send() refused a valid message, %s: status %d%s%s",
                   mock_describe(mh, i, what, sizeof what), rc, mh->last_error[0] ? ": " : "", mh->last_error);
    }
}

/* A wave of messages from inside an event: NPU k to NPU k+1+wave. */
static void send_wave(mock_host *mh, uint64_t wave)
{
    uint32_t npus = ((scenario *)mh->user)->npus;
    for (uint32_t k = 0; k < sample_count(npus); k++) {
        uint32_t src = sample_npu(npus, k), dst = (uint32_t)((src + 1 + wave) % npus);
        if (dst != src)
            send_valid(mh, src, dst, message_size(mh, k + wave), 0);
    }
}

/* The host answers some messages the moment they arrive, as a receive
 * handler does: sim_send() from inside host->delivered(). */
static void reply_on_delivery(mock_host *mh, uint64_t msg)
{
    const mock_message *m = &mh->msgs[msg];
    if (m->param == 1)
        send_valid(mh, m->dst, m->src, REPLY_BYTES, 0);
}

static void check_invalid_sends(check_target *t, mock_host *mh, uint32_t npus)
{
    const struct {
        uint32_t src, dst;
        uint64_t bytes;
        const char *why;
    } bad[] = {
        {npus, 0, 8, "an unknown source NPU"},
        {0, npus, 8, "an unknown destination NPU"},
        {UINT32_MAX, 1, 8, "an unknown source NPU"},
        {1, 1, 8, "src == dst"},
        {0, 1, 0, "size 0"},
    };
    check_use(t->rep, CHECK_INVALID_SEND);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (mock_send(mh, bad[i].src, bad[i].dst, bad[i].bytes, true, 0, NULL) == VIMANA_OK)
            check_fail(t->rep, CHECK_INVALID_SEND, "sim_send(src %" PRIu32 ", dst %" PRIu32 ", %" PRIu64
                       " bytes) on %" PRIu32 " NPUs returned VIMANA_OK for %s (expected VIMANA_ERR_ARGUMENT)",
                       bad[i].src, bad[i].dst, bad[i].bytes, npus, bad[i].why);
    }
}

/* Messages between every pair of sampled NPUs, before run(). */
static void send_first_wave(mock_host *mh, uint32_t npus)
{
    uint32_t n = sample_count(npus), k = 0;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++, k++)
            if (a != b)
                send_valid(mh, sample_npu(npus, a), sample_npu(npus, b), message_size(mh, k),
                           k < REPLYING_MESSAGES + 1 ? 1 : 0);
}

static uint64_t add_saturated(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A 1.2 backend's waits: the longest cannot exceed their sum, and a link
 * that carried nothing cannot have queued anything. */
static void check_queue_ticks(check_target *t, uint32_t link, const vimana_link_stats *s)
{
    if (!backend_has_queue_stats(t->be))
        return;
    if (s->max_queue_ticks > s->queue_ticks)
        check_fail(t->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 "): max_queue_ticks %" PRIu64 " is more than "
                   "queue_ticks %" PRIu64 " (the longest wait is part of the total)", link, s->max_queue_ticks,
                   s->queue_ticks);
    else if (s->messages == 0 && s->queue_ticks > 0)
        check_fail(t->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 "): queue_ticks %" PRIu64 " on a link that "
                   "carried no message", link, s->queue_ticks);
}

/* Both ends of every link get a name --report accepts (host/device_name.h):
 * the backend's device_name() when it has one. The first refused name is
 * reported; the links after it would mostly repeat the same device. */
static void check_link_names(check_target *t, mock_host *mh, uint32_t link, const vimana_link_stats *s)
{
    if (!backend_device_name_fn(t->be) || check_failed(t->rep, CHECK_DEVICE_NAME))
        return;
    check_use(t->rep, CHECK_DEVICE_NAME);
    uint32_t npus = ((scenario *)mh->user)->npus;
    const uint32_t ends[2] = {s->src_device, s->dst_device};
    for (int k = 0; k < 2; k++) {
        char name[DEVICE_NAME_SIZE], why[160];
        if (device_name_get(t->be, mh->ctx, npus, ends[k], name, why, sizeof why) != 0) {
            check_fail(t->rep, CHECK_DEVICE_NAME, "%s (the %s of link %" PRIu32 ")", why, k ? "dst_device" :
                       "src_device", link);
            return;
        }
    }
}

static void check_link_stats(check_target *t, mock_host *mh)
{
    bool nl, ls;
    if (!has_link_functions(t->be, &nl, &ls))
        return;
    check_use(t->rep, CHECK_LINK_STATS);
    uint64_t bytes = 0, messages = 0;
    for (size_t i = 0; i < mh->n_msgs; i++)
        if (mh->msgs[i].deliveries == 1 && !mh->msgs[i].expect_refusal) {
            bytes = add_saturated(bytes, mh->msgs[i].bytes);
            messages++;
        }
    uint32_t n;
    char why[256];
    if (backend_num_links(t->be, mh->ctx, mh->n_dims, mh->dim_size, ((scenario *)mh->user)->npus, &n, why,
                          sizeof why) != 0) {
        check_fail(t->rep, CHECK_LINK_STATS, "%s", why);
        return;
    }
    if (n == 0 && messages > 0) {
        check_fail(t->rep, CHECK_LINK_STATS, "num_links() returned 0 after %" PRIu64 " messages were delivered",
                   messages);
        return;
    }
    uint64_t link_bytes = 0, link_messages = 0;
    for (uint32_t i = 0; i < n; i++) {
        vimana_link_stats s = {0};
        int rc = t->be->link_stats(mh->ctx, i, &s);
        if (rc != VIMANA_OK) {
            check_fail(t->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 ") returned status %d (num_links() is %"
                       PRIu32 ")", i, rc, n);
            continue;
        }
        link_bytes = add_saturated(link_bytes, s.bytes);
        link_messages = add_saturated(link_messages, s.messages);
        check_queue_ticks(t, i, &s);
        check_link_names(t, mh, i, &s);
    }
    vimana_link_stats past = {0};
    if (t->be->link_stats(mh->ctx, n, &past) == VIMANA_OK)
        check_fail(t->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 ") returned VIMANA_OK for a link past the last "
                   "(num_links() is %" PRIu32 ")", n, n);
    if (link_bytes < bytes)
        check_fail(t->rep, CHECK_LINK_STATS, "the links carried %" PRIu64 " bytes in all, fewer than the %" PRIu64
                   " bytes delivered", link_bytes, bytes);
    if (link_messages < messages)
        check_fail(t->rep, CHECK_LINK_STATS, "the links carried %" PRIu64 " messages in all, fewer than the %"
                   PRIu64 " delivered", link_messages, messages);
}

/* An NPU's links in all, bytes per ns: at most size - 1 links in each
 * dimension (fully connected), each at the dimension's dim_bandwidth (GB/s
 * of 2^30 B). 0 when the backend reports no bandwidth. */
static double egress_bytes_per_ns(const check_target *t, mock_host *mh)
{
    const vimana_backend *d = t->be;
    if (!BACKEND_DESC_COVERS(d, dim_bandwidth) || !d->dim_bandwidth)
        return 0;
    double sum = 0;
    for (uint32_t i = 0, nd = d->num_dims(mh->ctx); i < nd; i++) {
        double bw = d->dim_bandwidth(mh->ctx, i);
        if (!(isfinite(bw) && bw > 0))
            return 0;
        sum += (double)(d->dim_size(mh->ctx, i) - 1) * bw * 1073741824.0 / 1e9;
    }
    return sum;
}

/* No message arrives faster than its bytes leave its source over every
 * link the source has (a physical bound from the network's own rates, not
 * a model: a backend delivering 1 GiB in 1 ns fails it). One line, for the
 * first message below the bound. */
static void check_lower_bound(check_target *t, mock_host *mh)
{
    double egress = egress_bytes_per_ns(t, mh);
    if (egress <= 0)
        return;
    for (size_t i = 0; i < mh->n_msgs; i++) {
        const mock_message *m = &mh->msgs[i];
        if (m->expect_refusal || m->status != VIMANA_OK || !m->deliveries || m->delivered_at < m->sent_at)
            continue;
        double floor_ticks = floor((double)m->bytes / egress);
        if ((double)(m->delivered_at - m->sent_at) + 1 < floor_ticks) {
            char what[160];
            check_fail(t->rep, CHECK_DELIVERY, "%s arrived %" PRIu64 " ticks after it was sent, faster than its "
                       "source's links allow: at least %.0f ticks (%" PRIu64 " bytes over %.1f bytes/ns, every link "
                       "of the NPU at its dim_bandwidth)", mock_describe(mh, i, what, sizeof what),
                       (uint64_t)(m->delivered_at - m->sent_at), floor_ticks, m->bytes, egress);
            return;
        }
    }
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How many of delivery's messages have the largest size: the first wave's
 * pairs and the three later waves', as they are sent. */
static uint64_t largest_messages(uint32_t npus)
{
    uint32_t n = sample_count(npus);
    uint64_t count = 0, k = 0;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++, k++)
            count += a != b && k % N_SIZES == N_SIZES - 1;
    for (uint64_t wave = 0; wave < 3; wave++)
        for (uint32_t j = 0; j < n; j++)
            count += (j + wave) % N_SIZES == N_SIZES - 1;
    return count;
}

/* "; faster: --backend-options=packet=65000" from the backend's options
 * table (its rows with a `faster` value), or "" when it names none. */
static void faster_options(const vimana_backend *d, char *out, size_t len)
{
    const vimana_backend_option *o = backend_options_table(d);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; o && o[i].key && i < VIMANA_BACKEND_MAX_OPTIONS && used < len; i++) {
        if (!o[i].faster)
            continue;
        int n = snprintf(out + used, len - used, "%s%s=%s", used ? "," : "; faster: --backend-options=", o[i].key,
                         o[i].faster);
        if (n < 0 || (size_t)n >= len - used) {
            out[used] = '\0';
            break;
        }
        used += (size_t)n;
    }
}

/* CPU seconds one message of BYTES takes from NPU 0 to 1 on a fresh
 * context, or a negative value when it is not delivered. */
static double probe_cpu(check_target *t, const net_config *cfg, uint32_t npus, uint64_t bytes)
{
    scenario probe = {.npus = npus, .largest = LARGEST_SIZE};
    check_report quiet;
    check_report_init(&quiet, NULL);
    check_target qt = *t;
    qt.rep = &quiet;
    mock_host *mh = open_context(&qt, cfg, &probe);
    if (!mh)
        return -1.0;
    mh->abandon = NULL;
    double t0 = cpu_seconds();
    size_t i = 0;
    int rc = mock_send(mh, 0, 1, bytes, false, 0, &i);
    if (rc == VIMANA_OK)
        rc = mock_run(mh);
    double took = cpu_seconds() - t0;
    bool delivered = rc == VIMANA_OK && i < mh->n_msgs && mh->msgs[i].deliveries == 1;
    close_context(mh);
    return delivered ? took : -1.0;
}

/* Delivery's largest message for this backend: one message of 1 MiB and
 * a larger one (PROBE_LARGE_*) are timed (CPU); what a MiB more costs is their
 * difference, so a backend whose work does not grow with the bytes (one
 * event per message) keeps 1 GiB however slow its fixed cost is on this
 * machine. The size is halved from 1 GiB until the largest messages fit
 * DELIVERY_BUDGET_S, at least 1 MiB; 1 GiB with --full, or when a probe
 * cannot run (the scenario reports why). A smaller size is said in one
 * note line. */
static uint64_t size_for_speed(check_target *t, const net_config *cfg, uint32_t npus)
{
    /* a backend without stop() that storms would never return from the
     * probe's run(): only the scenario itself may find that out */
    if (t->full || !BACKEND_DESC_COVERS(t->be, stop) || !t->be->stop)
        return LARGEST_SIZE;
    double small = probe_cpu(t, cfg, npus, PROBE_BYTES);
    if (small < PROBE_FAST_S)
        return LARGEST_SIZE;
    double fit = PROBE_LARGE_S / small;
    uint32_t large_mib = fit >= PROBE_LARGE_MAX_MIB ? PROBE_LARGE_MAX_MIB
                         : fit <= PROBE_LARGE_MIN_MIB ? PROBE_LARGE_MIN_MIB : (uint32_t)fit;
    double large = probe_cpu(t, cfg, npus, (uint64_t)large_mib * PROBE_BYTES);
    if (large < 0)
        return LARGEST_SIZE;
    double per_mib = large > small ? (large - small) / (double)(large_mib - 1) : 0.0;
    uint64_t largest = LARGEST_SIZE, count = largest_messages(npus);
    while (largest > PROBE_BYTES &&
           (double)count * (small + per_mib * (double)(largest / PROBE_BYTES - 1)) > DELIVERY_BUDGET_S)
        largest /= 2;
    if (largest < LARGEST_SIZE && t->rep->err) {
        char faster[512];
        faster_options(t->be, faster, sizeof faster);
        fprintf(t->rep->err, "vimana backend-check: note: delivery%s%s%s: one 1 MiB message took %.2f ms of CPU "
                "and one of %u MiB %.2f ms, so its largest messages are %" PRIu64 " MiB, not 1 GiB (--full for 1 "
                "GiB%s)\n", cfg->scope ? " (" : "", cfg->scope ? cfg->scope : "", cfg->scope ? ")" : "", small * 1e3,
                large_mib, large * 1e3, largest >> 20, faster);
    }
    return largest;
}

static void check_delivery(check_target *t, const net_config *cfg, uint32_t npus)
{
    scenario sc = {.npus = npus, .largest = size_for_speed(t, cfg, npus)};
    mock_host *mh = open_context(t, cfg, &sc);
    if (!mh)
        return;
    check_use(t->rep, CHECK_DELIVERY);
    check_use(t->rep, CHECK_STALL);
    check_use(t->rep, CHECK_CLOCK);
    check_invalid_sends(t, mh, npus);
    mh->on_delivered = reply_on_delivery;
    send_first_wave(mh, npus);
    static const vimana_tick wave_at[] = {1, 999, 123456789};
    for (size_t w = 0; w < sizeof wave_at / sizeof wave_at[0]; w++)
        mock_schedule(mh, wave_at[w], send_wave, w, false);
    run_context(t, mh);
    mock_check_events_ran(mh);
    mock_check_all_delivered(mh);
    if (!mh->halted) {
        check_lower_bound(t, mh);
        check_link_stats(t, mh);
    }
    close_context(mh);
}

/* ---- stop (ABI 1.1) -------------------------------------------------------- */

#define STOP_TICK 10u
#define STOP_EVENTS 20u

static void stop_probe(mock_host *mh, uint64_t tick)
{
    scenario *sc = mh->user;
    if (tick == STOP_TICK && !sc->stop_sent) {
        sc->stop_sent = true;
        mock_halt(mh);
    }
}

static void check_stop(check_target *t, const net_config *cfg)
{
    if (!backend_stop_fn(t->be))
        return;
    scenario sc = {0};
    mock_host *mh = open_context(t, cfg, &sc);
    if (!mh)
        return;
    check_use(t->rep, CHECK_STOP);
    /* One event per tick, and three more behind the one that calls stop(). */
    for (vimana_tick tick = 1; tick <= STOP_EVENTS; tick++)
        mock_schedule(mh, tick, stop_probe, tick, true);
    for (int i = 0; i < 3; i++)
        mock_schedule(mh, STOP_TICK, stop_probe, 0, true);
    mock_run(mh);
    if (!sc.stop_sent)
        check_fail(t->rep, CHECK_STOP, "the event that calls stop() at tick %u never ran", STOP_TICK);
    else if (mh->after_halt > 0)
        check_fail(t->rep, CHECK_STOP, "%" PRIu64 " event%s ran after stop() was called at tick %u (run() must "
                   "return once the event in progress has finished)", mh->after_halt, mh->after_halt == 1 ? "" : "s",
                   STOP_TICK);
    close_context(mh);
}

void check_network_config(check_target *t, const net_config *cfg, bool with_stop)
{
        uint32_t npus = 0;
    if (check_network(t, cfg, &npus) != 0)
        return;
    check_schedule(t, cfg);
    check_delivery(t, cfg, npus);
    if (with_stop)
        check_stop(t, cfg);
}
