/*
 * `vimana backend-check PLUGIN`: loads a network backend the way
 * --network-backend does and puts it through short scenarios on a mock
 * host, one fresh context (init ... fini) each, so that a fault in one
 * scenario cannot hide or fake a fault in the next:
 *   network   init, num_dims/dim_size against the configuration, dim_bandwidth
 *   schedule  a script of events (same tick, zero delay, scheduled while
 *             their tick runs, far in the future)
 *   delivery  invalid sends, then messages of many sizes between many NPU
 *             pairs, sent before run(), from events and from deliveries
 *   stop      (ABI 1.1) stop() from inside an event ends run()
 * The built-in configurations are YAML (the shipped backends' format); a
 * backend with another format is checked with --network-configuration.
 */
/* mkstemp() is POSIX. */
#define _XOPEN_SOURCE 700

#include "sim/backend_check.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/backend_loader.h"
#include "sim/check_report.h"
#include "sim/mock_host.h"
#include "sim/sim.h"
#include "util/msg_escape.h"

#define DESC_COVERS(d, field) ((d)->struct_size >= offsetof(vimana_backend, field) + sizeof((d)->field))
#define KNOWN_CAPABILITIES (VIMANA_CAP_MULTI_DIM | VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS)
/* NPUs a scenario talks to: all of them up to this many, else a spread. */
#define SAMPLE_NPUS 16u
/* Messages before run() that ask for a reply when they arrive. */
#define REPLYING_MESSAGES 4u
#define REPLY_BYTES 64u

/* A network configuration and, for the built-in ones, what the backend
 * must report for it. */
typedef struct net_config {
    const char *scope;      /* in FAIL lines; NULL for the first one */
    const char *about;      /* for init failures */
    char about_buf[600];    /* `about` of the user's file */
    const char *yaml;       /* built-in text, NULL for the user's file */
    uint32_t n_dims;        /* 0 = not known (the user's file) */
    uint32_t dim_size[2];
    double bandwidth[2];
    char path[1024];
} net_config;

typedef struct bcheck {
    check_report rep;
    FILE *out;
    const vimana_backend *be;
    const char *options;
    char name[160];         /* the descriptor's name (escaped), or the argument */
    net_config configs[2];
    int n_configs;
} bcheck;

/* What the scenario callbacks need: mock_host.user points here. */
typedef struct scenario {
    bcheck *bc;
    uint32_t npus;
    bool stop_sent;
} scenario;

static const uint64_t message_sizes[] = {1, 3, 4096, 1u << 20, 1u << 30};
#define N_SIZES (sizeof message_sizes / sizeof message_sizes[0])

static void usage(FILE *out)
{
    fprintf(out, "Usage: vimana backend-check PLUGIN [--network-configuration=FILE] [--backend-options=KEY=VALUE,...]\n\n"
                 "Checks a network backend against the network API contract on a mock host (no workload):\n"
                 "its descriptor, init, topology, event order, clock, message delivery, invalid sends,\n"
                 "run() returning, link statistics and stop() where present. PLUGIN is a backend name or\n"
                 "path, found as --network-backend finds it. Without --network-configuration it uses a\n"
                 "built-in YAML Ring of 8 NPUs (and a 2-D network for MULTI_DIM backends).\n"
                 "Prints one line per violation on stderr and a summary; exits 0 only if all pass.\n\nOptions:\n"
                 "  %-36s %s\n  %-36s %s\n  %-36s %s\n", "--network-configuration=FILE",
            "the network configuration given to init()", "--backend-options=VALUE", "options given to init()",
            "--help", "show this help");
}

static void summary(bcheck *bc)
{
    check_close(&bc->rep);
    fprintf(bc->out, "vimana backend-check: %s", bc->name);
    if (bc->be)
        fprintf(bc->out, " %u.%u", bc->be->abi_major, bc->be->abi_minor);
    if (bc->rep.failed == 0)
        fprintf(bc->out, ": %u checks passed\n", bc->rep.checks);
    else
        fprintf(bc->out, ": %u of %u checks failed\n", bc->rep.failed, bc->rep.checks);
}

static void remove_temp_configs(bcheck *bc)
{
    for (int i = 0; i < bc->n_configs; i++)
        if (bc->configs[i].yaml && bc->configs[i].path[0])
            unlink(bc->configs[i].path);
}

/* The backend storms inside run() and has no stop(): run() will never
 * return, so the verdict is given now and the process ends. */
static void abandon(mock_host *mh)
{
    bcheck *bc = ((scenario *)mh->user)->bc;
    summary(bc);
    remove_temp_configs(bc);
    fflush(bc->out);
    fflush(bc->rep.err);
    _exit(1);
}

/* ---- descriptor ---------------------------------------------------------- */

static void check_text_field(bcheck *bc, const char *field, const char *value)
{
    if (!value)
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "%s is NULL", field);
    else if (!value[0])
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "%s is empty", field);
}

static bool has_link_functions(const vimana_backend *d, bool *num_links, bool *link_stats)
{
    *num_links = DESC_COVERS(d, num_links) && d->num_links;
    *link_stats = DESC_COVERS(d, link_stats) && d->link_stats;
    return *num_links && *link_stats;
}

static void check_capabilities(bcheck *bc, const vimana_backend *d)
{
    uint64_t caps = d->capabilities;
    if (caps & ~(uint64_t)KNOWN_CAPABILITIES)
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "capabilities has unknown bits 0x%" PRIx64,
                   caps & ~(uint64_t)KNOWN_CAPABILITIES);
    bool nl, ls;
    has_link_functions(d, &nl, &ls);
    if ((caps & VIMANA_CAP_LINK_STATS) && !(nl && ls))
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "capabilities has VIMANA_CAP_LINK_STATS but %s is NULL",
                   !nl ? "num_links" : "link_stats");
    else if (nl != ls)
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "%s is set but %s is NULL (they come as a pair)",
                   nl ? "num_links" : "link_stats", nl ? "link_stats" : "num_links");
    else if (nl && !(caps & VIMANA_CAP_LINK_STATS))
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "num_links and link_stats are set but capabilities lacks "
                   "VIMANA_CAP_LINK_STATS");
}

static void check_descriptor(bcheck *bc)
{
    const vimana_backend *d = bc->be;
    check_use(&bc->rep, CHECK_DESCRIPTOR);
    check_text_field(bc, "name", d->name);
    check_text_field(bc, "description", d->description);
    if (d->struct_size > sizeof *d)
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "struct_size is %" PRIu32 ", larger than an ABI %d.%d descriptor "
                   "(%zu bytes; fill the header with VIMANA_BACKEND_HEADER_INIT)", d->struct_size,
                   VIMANA_NETWORK_ABI_MAJOR, VIMANA_NETWORK_ABI_MINOR, sizeof *d);
    check_capabilities(bc, d);
    if (d->abi_minor < 1 && DESC_COVERS(d, stop) && d->stop)
        check_fail(&bc->rep, CHECK_DESCRIPTOR, "stop is set in an ABI %u.%u descriptor (stop is since 1.1: declare "
                   "abi_minor 1, e.g. with VIMANA_BACKEND_HEADER_INIT)", d->abi_major, d->abi_minor);
    size_t n_reserved = sizeof d->reserved / sizeof d->reserved[0];
    for (size_t i = 0; i < n_reserved; i++) {
        size_t end = offsetof(vimana_backend, reserved) + (i + 1) * sizeof(void *);
        if (d->struct_size >= end && d->reserved[i])
            check_fail(&bc->rep, CHECK_DESCRIPTOR, "reserved[%zu] is not zero (reserved slots must stay NULL)", i);
    }
}

/* ---- one context ------------------------------------------------------- */

/* A fresh context on `cfg`, or NULL (init failure reported). */
static mock_host *open_context(bcheck *bc, const net_config *cfg, scenario *sc)
{
    mock_host *mh = malloc(sizeof *mh);
    if (!mh) {
        check_fail(&bc->rep, CHECK_INIT, "out of memory for the mock host");
        return NULL;
    }
    char why[512];
    check_use(&bc->rep, CHECK_INIT);
    int rc = mock_host_open(mh, bc->be, &bc->rep, cfg->path, bc->options, why, sizeof why);
    if (rc != VIMANA_OK) {
        check_fail(&bc->rep, CHECK_INIT, "init() returned status %d for %s: %s", rc, cfg->about, why);
        free(mh);
        return NULL;
    }
    mh->user = sc;
    mh->abandon = abandon;
    sc->bc = bc;
    return mh;
}

static void close_context(mock_host *mh)
{
    mock_host_close(mh);
    free(mh);
}

static int run_context(bcheck *bc, mock_host *mh)
{
    check_use(&bc->rep, CHECK_RUN);
    int rc = mock_run(mh);
    if (rc != VIMANA_OK && !mh->halted)
        check_fail(&bc->rep, CHECK_RUN, "run() returned status %d%s%s", rc, mh->last_error[0] ? ": " : "",
                   mh->last_error);
    return rc;
}

/* ---- network: topology and bandwidth ------------------------------------ */

static int check_topology(bcheck *bc, const net_config *cfg, mock_host *mh, uint32_t *npus)
{
    check_use(&bc->rep, CHECK_TOPOLOGY);
    uint32_t nd = bc->be->num_dims(mh->ctx);
    if (nd == 0 || nd > SIM_MAX_DIMS) {
        check_fail(&bc->rep, CHECK_TOPOLOGY, "num_dims() returned %" PRIu32 " (vimana accepts 1 to %d)", nd,
                   SIM_MAX_DIMS);
        return -1;
    }
    if (cfg->n_dims && nd != cfg->n_dims)
        check_fail(&bc->rep, CHECK_TOPOLOGY, "num_dims() returned %" PRIu32 ", the configuration has %" PRIu32
                   " dimension%s", nd, cfg->n_dims, cfg->n_dims == 1 ? "" : "s");
    uint64_t product = 1;
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t size = bc->be->dim_size(mh->ctx, d);
        if (size == 0) {
            check_fail(&bc->rep, CHECK_TOPOLOGY, "dim_size(%" PRIu32 ") returned 0", d);
            return -1;
        }
        if (cfg->n_dims == nd && size != cfg->dim_size[d])
            check_fail(&bc->rep, CHECK_TOPOLOGY, "dim_size(%" PRIu32 ") returned %" PRIu32 ", the configuration "
                       "has %" PRIu32 " NPUs in that dimension", d, size, cfg->dim_size[d]);
        product *= size;
        if (product > UINT32_MAX / 2) {
            check_fail(&bc->rep, CHECK_TOPOLOGY, "the dimensions multiply to more than 2^31 NPUs");
            return -1;
        }
    }
    if (product < 2) {
        check_fail(&bc->rep, CHECK_TOPOLOGY, "the network has 1 NPU; sim_send() needs at least 2 to be checked");
        return -1;
    }
    *npus = (uint32_t)product;
    return check_failed(&bc->rep, CHECK_TOPOLOGY) ? -1 : 0;
}

static void check_bandwidth(bcheck *bc, const net_config *cfg, mock_host *mh)
{
    const vimana_backend *d = bc->be;
    if (!DESC_COVERS(d, dim_bandwidth) || !d->dim_bandwidth)
        return; /* optional in the ABI */
    check_use(&bc->rep, CHECK_BANDWIDTH);
    uint32_t nd = d->num_dims(mh->ctx);
    for (uint32_t i = 0; i < nd; i++) {
        double bw = d->dim_bandwidth(mh->ctx, i);
        if (!(isfinite(bw) && bw > 0))
            check_fail(&bc->rep, CHECK_BANDWIDTH, "dim_bandwidth(%" PRIu32 ") returned %g (expected a finite number "
                       "of GB/s greater than 0)", i, bw);
        else if (cfg->n_dims == nd && bw != cfg->bandwidth[i])
            check_fail(&bc->rep, CHECK_BANDWIDTH, "dim_bandwidth(%" PRIu32 ") returned %g, the configuration "
                       "says %g GB/s", i, bw, cfg->bandwidth[i]);
    }
}

/* Init, topology and bandwidth on one context. Returns 0 with the number
 * of NPUs when the other scenarios can run. */
static int check_network(bcheck *bc, const net_config *cfg, uint32_t *npus)
{
    scenario sc = {0};
    mock_host *mh = open_context(bc, cfg, &sc);
    if (!mh)
        return -1;
    int rc = check_topology(bc, cfg, mh, npus);
    if (rc == 0)
        check_bandwidth(bc, cfg, mh);
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

static void check_schedule(bcheck *bc, const net_config *cfg)
{
    scenario sc = {0};
    mock_host *mh = open_context(bc, cfg, &sc);
    if (!mh)
        return;
    check_use(&bc->rep, CHECK_SCHEDULE);
    check_use(&bc->rep, CHECK_CLOCK);
    script_step(mh, (uint64_t)-1);
    run_context(bc, mh);
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
            send_valid(mh, src, dst, message_sizes[(k + wave) % N_SIZES], 0);
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

static void check_invalid_sends(bcheck *bc, mock_host *mh, uint32_t npus)
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
    check_use(&bc->rep, CHECK_INVALID_SEND);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (mock_send(mh, bad[i].src, bad[i].dst, bad[i].bytes, true, 0, NULL) == VIMANA_OK)
            check_fail(&bc->rep, CHECK_INVALID_SEND, "sim_send(src %" PRIu32 ", dst %" PRIu32 ", %" PRIu64
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
                send_valid(mh, sample_npu(npus, a), sample_npu(npus, b), message_sizes[k % N_SIZES],
                           k < REPLYING_MESSAGES + 1 ? 1 : 0);
}

static uint64_t add_saturated(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void check_link_stats(bcheck *bc, mock_host *mh)
{
    bool nl, ls;
    if (!has_link_functions(bc->be, &nl, &ls))
        return;
    check_use(&bc->rep, CHECK_LINK_STATS);
    uint64_t bytes = 0, messages = 0;
    for (size_t i = 0; i < mh->n_msgs; i++)
        if (mh->msgs[i].deliveries == 1 && !mh->msgs[i].expect_refusal) {
            bytes = add_saturated(bytes, mh->msgs[i].bytes);
            messages++;
        }
    uint32_t n = bc->be->num_links(mh->ctx);
    if (n == 0 && messages > 0) {
        check_fail(&bc->rep, CHECK_LINK_STATS, "num_links() returned 0 after %" PRIu64 " messages were delivered",
                   messages);
        return;
    }
    uint64_t link_bytes = 0, link_messages = 0;
    for (uint32_t i = 0; i < n; i++) {
        vimana_link_stats s = {0};
        int rc = bc->be->link_stats(mh->ctx, i, &s);
        if (rc != VIMANA_OK) {
            check_fail(&bc->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 ") returned status %d (num_links() is %"
                       PRIu32 ")", i, rc, n);
            continue;
        }
        link_bytes = add_saturated(link_bytes, s.bytes);
        link_messages = add_saturated(link_messages, s.messages);
    }
    vimana_link_stats past = {0};
    if (bc->be->link_stats(mh->ctx, n, &past) == VIMANA_OK)
        check_fail(&bc->rep, CHECK_LINK_STATS, "link_stats(%" PRIu32 ") returned VIMANA_OK for a link past the last "
                   "(num_links() is %" PRIu32 ")", n, n);
    if (link_bytes < bytes)
        check_fail(&bc->rep, CHECK_LINK_STATS, "the links carried %" PRIu64 " bytes in all, fewer than the %" PRIu64
                   " bytes delivered", link_bytes, bytes);
    if (link_messages < messages)
        check_fail(&bc->rep, CHECK_LINK_STATS, "the links carried %" PRIu64 " messages in all, fewer than the %"
                   PRIu64 " delivered", link_messages, messages);
}

static void check_delivery(bcheck *bc, const net_config *cfg, uint32_t npus)
{
    scenario sc = {.npus = npus};
    mock_host *mh = open_context(bc, cfg, &sc);
    if (!mh)
        return;
    check_use(&bc->rep, CHECK_DELIVERY);
    check_use(&bc->rep, CHECK_STALL);
    check_use(&bc->rep, CHECK_CLOCK);
    check_invalid_sends(bc, mh, npus);
    mh->on_delivered = reply_on_delivery;
    send_first_wave(mh, npus);
    static const vimana_tick wave_at[] = {1, 999, 123456789};
    for (size_t w = 0; w < sizeof wave_at / sizeof wave_at[0]; w++)
        mock_schedule(mh, wave_at[w], send_wave, w, false);
    run_context(bc, mh);
    mock_check_events_ran(mh);
    mock_check_all_delivered(mh);
    if (!mh->halted)
        check_link_stats(bc, mh);
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

static void check_stop(bcheck *bc, const net_config *cfg)
{
    if (!mock_backend_stop(bc->be))
        return;
    scenario sc = {0};
    mock_host *mh = open_context(bc, cfg, &sc);
    if (!mh)
        return;
    check_use(&bc->rep, CHECK_STOP);
    /* One event per tick, and three more behind the one that calls stop(). */
    for (vimana_tick t = 1; t <= STOP_EVENTS; t++)
        mock_schedule(mh, t, stop_probe, t, true);
    for (int i = 0; i < 3; i++)
        mock_schedule(mh, STOP_TICK, stop_probe, 0, true);
    mock_run(mh);
    if (!sc.stop_sent)
        check_fail(&bc->rep, CHECK_STOP, "the event that calls stop() at tick %u never ran", STOP_TICK);
    else if (mh->after_halt > 0)
        check_fail(&bc->rep, CHECK_STOP, "%" PRIu64 " event%s ran after stop() was called at tick %u (run() must "
                   "return once the event in progress has finished)", mh->after_halt, mh->after_halt == 1 ? "" : "s",
                   STOP_TICK);
    close_context(mh);
}

/* ---- configurations ------------------------------------------------------- */

static int write_temp_config(net_config *cfg, FILE *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    snprintf(cfg->path, sizeof cfg->path, "%s/vimana-backend-check.XXXXXX", dir);
    int fd = mkstemp(cfg->path);
    if (fd < 0) {
        fprintf(err, "vimana backend-check: error: cannot create a temporary file in %s: %s\n", dir, strerror(errno));
        cfg->path[0] = '\0';
        return -1;
    }
    size_t len = strlen(cfg->yaml);
    bool ok = write(fd, cfg->yaml, len) == (ssize_t)len;
    if (close(fd) != 0 || !ok) {
        fprintf(err, "vimana backend-check: error: cannot write %s: %s\n", cfg->path, strerror(errno));
        return -1;
    }
    return 0;
}

static const net_config ring8 = {
    .about = "the built-in network configuration (YAML, a Ring of 8 NPUs; give another with "
             "--network-configuration=FILE)",
    .yaml = "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]  # GB/s\nlatency: [ 500.0 ]  # ns\n",
    .n_dims = 1, .dim_size = {8}, .bandwidth = {50.0},
};

static const net_config ring_fc_4x4 = {
    .scope = "2-D network",
    .about = "the built-in 2-D network configuration (YAML, Ring x FullyConnected, 4 x 4 NPUs)",
    .yaml = "topology: [ Ring, FullyConnected ]\nnpus_count: [ 4, 4 ]\nbandwidth: [ 200.0, 50.0 ]  # GB/s\n"
            "latency: [ 100.0, 500.0 ]  # ns\n",
    .n_dims = 2, .dim_size = {4, 4}, .bandwidth = {200.0, 50.0},
};

static int prepare_configs(bcheck *bc, const char *network)
{
    if (network) {
        net_config *c = &bc->configs[bc->n_configs++];
        memset(c, 0, sizeof *c);
        char esc[512];
        snprintf(c->path, sizeof c->path, "%s", network);
        snprintf(c->about_buf, sizeof c->about_buf, "%s", msg_escape(network, esc, sizeof esc));
        c->about = c->about_buf;
        return 0;
    }
    bc->configs[bc->n_configs++] = ring8;
    if (bc->be->capabilities & VIMANA_CAP_MULTI_DIM)
        bc->configs[bc->n_configs++] = ring_fc_4x4;
    for (int i = 0; i < bc->n_configs; i++)
        if (write_temp_config(&bc->configs[i], bc->rep.err) != 0)
            return -1;
    return 0;
}

static void check_config(bcheck *bc, const net_config *cfg, bool first)
{
    check_scope(&bc->rep, cfg->scope);
    uint32_t npus = 0;
    if (check_network(bc, cfg, &npus) != 0)
        return;
    check_schedule(bc, cfg);
    check_delivery(bc, cfg, npus);
    if (first)
        check_stop(bc, cfg);
}

/* ---- the command ----------------------------------------------------------- */

typedef struct check_args {
    const char *plugin, *network, *options;
} check_args;

/* 0 to run, 1 for --help, -1 after an error line. */
static int parse_args(int argc, char **argv, check_args *a, FILE *err)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            return 1;
        if (!strncmp(arg, "--network-configuration=", 24) && arg[24])
            a->network = arg + 24;
        else if (!strncmp(arg, "--backend-options=", 18))
            a->options = arg + 18;
        else if (arg[0] == '-' && arg[1]) {
            char esc[256];
            fprintf(err, "vimana backend-check: error: unknown option '%s' (see vimana backend-check --help)\n",
                    msg_escape(arg, esc, sizeof esc));
            return -1;
        } else if (a->plugin) {
            fprintf(err, "vimana backend-check: error: more than one backend given (one PLUGIN per run)\n");
            return -1;
        } else
            a->plugin = arg;
    }
    if (!a->plugin) {
        fprintf(err, "vimana backend-check: error: no backend given (usage: vimana backend-check PLUGIN "
                     "[--network-configuration=FILE] [--backend-options=...])\n");
        return -1;
    }
    return 0;
}

static void run_checks(bcheck *bc)
{
    check_descriptor(bc);
    for (int i = 0; i < bc->n_configs; i++)
        check_config(bc, &bc->configs[i], i == 0);
}

int backend_check_main(int argc, char **argv, FILE *out, FILE *err)
{
    check_args a;
    int parsed = parse_args(argc, argv, &a, err);
    if (parsed != 0) {
        if (parsed > 0)
            usage(out);
        return parsed > 0 ? 0 : 2;
    }
    bcheck *bc = calloc(1, sizeof *bc);
    if (!bc) {
        fprintf(err, "vimana backend-check: error: out of memory\n");
        return 2;
    }
    check_report_init(&bc->rep, err);
    bc->out = out;
    bc->options = a.options;
    msg_escape(a.plugin, bc->name, sizeof bc->name);
    /* The name users paste from ASTRA-sim's tutorials, as --network-backend. */
    const char *plugin = strcmp(a.plugin, "congestion_unaware") ? a.plugin : "analytical";
    loaded_backend lb;
    char why[1024];
    check_use(&bc->rep, CHECK_LOAD);
    int status = 1;
    if (backend_load(plugin, &lb, why, sizeof why) != 0) {
        char esc[1024];
        check_fail(&bc->rep, CHECK_LOAD, "%s", msg_escape(why, esc, sizeof esc));
    } else {
        bc->be = lb.desc;
        if (bc->be->name && bc->be->name[0])
            msg_escape(bc->be->name, bc->name, sizeof bc->name);
        if (prepare_configs(bc, a.network) == 0)
            run_checks(bc);
        else
            status = 2;
        remove_temp_configs(bc);
    }
    if (status != 2) {
        summary(bc);
        status = bc->rep.failed ? 1 : 0;
    }
    if (bc->be)
        backend_unload(&lb);
    free(bc);
    return status;
}
