/*
 * `vimana backend-check PLUGIN`: the command. Loads the backend the way
 * --network-backend does, writes the built-in network configurations to
 * temporary files (YAML, the shipped backends' format; a backend with
 * another format is checked with --network-configuration), runs the checks
 * of cmd/backend_check/check_scenarios.h on each and prints the summary.
 */
/* mkstemp() is POSIX. */
#define _XOPEN_SOURCE 700

#include "cmd/backend_check/backend_check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/backend_loader.h"
#include "cmd/backend_check/check_report.h"
#include "cmd/backend_check/check_scenarios.h"
#include "cmd/watchdog.h"
#include "util/msg_escape.h"

/* A limit no sound backend comes near (its checks take seconds, 1 GiB
 * messages included) that still ends a hung check within minutes. */
#define CHECK_TIMEOUT_S 600u
#define CHECK_TIMEOUT_TEXT "600"
#define CHECK_TIMEOUT_MAX 86400u

typedef struct bcheck {
    check_report rep;
    check_target target;
    FILE *out;
    const vimana_backend *be;
    char name[160];         /* the descriptor's name (escaped), or the argument */
    net_config configs[2];
    int n_configs;
} bcheck;

static void usage(FILE *out)
{
    fprintf(out, "Usage: vimana backend-check PLUGIN [--network-configuration=FILE] [--backend-options=KEY=VALUE,...]\n"
                 "                            [--full] [--options]\n\n"
                 "Checks a network backend against the network API contract on a mock host (no workload):\n"
                 "its descriptor, init, topology, event order, clock, message delivery, invalid sends,\n"
                 "run() returning, link statistics, device names and stop() where present. PLUGIN is a\n"
                 "backend name or path, found as --network-backend finds it. Without\n"
                 "--network-configuration it uses a built-in YAML Ring of 8 NPUs (and a 2-D network for\n"
                 "MULTI_DIM backends). Delivery's largest messages are 1 GiB, or smaller for a backend\n"
                 "whose timed 1 MiB and larger messages say they would take more than 1 s of CPU (a note\n"
                 "says so).\n"
                 "Prints one line per violation on stderr and a summary; exits 0 only if all pass.\n\nOptions:\n"
                 "  %-36s %s\n  %-36s %s\n  %-36s %s\n  %-36s %s\n  %-36s %s\n  %-36s %s\n",
            "--network-configuration=FILE", "the network configuration given to init()", "--backend-options=VALUE",
            "options given to init()", "--full", "delivery's 1 GiB messages whatever the backend's speed",
            "--options", "print the backend's options table (ABI 1.5) and run no check", "--timeout=S",
            "stop a backend whose checks take longer than S seconds (a run() that never returns; default "
            CHECK_TIMEOUT_TEXT ")", "--help", "show this help");
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
static void abandon(void *user)
{
    bcheck *bc = user;
    summary(bc);
    remove_temp_configs(bc);
    fflush(bc->out);
    fflush(bc->rep.err);
    _exit(1);
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

/* ---- the command ----------------------------------------------------------- */

typedef struct check_args {
    const char *plugin, *network, *options;
    bool full, list_options;
    unsigned timeout_s;     /* the watchdog's limit (--timeout) */
} check_args;

/* --timeout=S: whole seconds from 1 to a day. */
static int parse_timeout(const char *v, unsigned *out, FILE *err)
{
    unsigned long x = 0;
    const char *c = v;
    for (; *c >= '0' && *c <= '9' && x <= CHECK_TIMEOUT_MAX; c++)
        x = x * 10 + (unsigned long)(*c - '0');
    if (c == v || *c || x < 1 || x > CHECK_TIMEOUT_MAX) {
        char esc[128];
        fprintf(err, "vimana backend-check: error: --timeout: expected whole seconds from 1 to %u, got '%s'\n",
                CHECK_TIMEOUT_MAX, msg_escape(v, esc, sizeof esc));
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

/* 0 to run, 1 for --help, -1 after an error line. */
static int parse_args(int argc, char **argv, check_args *a, FILE *err)
{
    memset(a, 0, sizeof *a);
    a->timeout_s = CHECK_TIMEOUT_S;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            return 1;
        if (!strcmp(arg, "--network-configuration=") || !strcmp(arg, "--network-configuration")) {
            fprintf(err, "vimana backend-check: error: --network-configuration needs a file "
                         "(--network-configuration=FILE)\n");
            return -1;
        }
        if (!strncmp(arg, "--network-configuration=", 24))
            a->network = arg + 24;
        else if (!strncmp(arg, "--backend-options=", 18))
            a->options = arg + 18;
        else if (!strncmp(arg, "--timeout=", 10)) {
            if (parse_timeout(arg + 10, &a->timeout_s, err) != 0)
                return -1;
        } else if (!strcmp(arg, "--full"))
            a->full = true;
        else if (!strcmp(arg, "--options"))
            a->list_options = true;
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
    check_descriptor(&bc->target);
    for (int i = 0; i < bc->n_configs; i++) {
        check_scope(&bc->rep, bc->configs[i].scope);
        check_network_config(&bc->target, &bc->configs[i], i == 0);
    }
}

/* Loads the backend and runs every check. Returns 0 when the checks ran
 * (whatever they found), 2 when the temporary files could not be written. */
static int check_backend(bcheck *bc, const check_args *a, loaded_backend *lb)
{
    /* The name users paste from ASTRA-sim's tutorials, as --network-backend. */
    const char *plugin = strcmp(a->plugin, "congestion_unaware") ? a->plugin : "analytical";
    char why[1024], esc[1024];
    check_use(&bc->rep, CHECK_LOAD);
    if (backend_load(plugin, lb, why, sizeof why) != 0) {
        check_fail(&bc->rep, CHECK_LOAD, "%s", msg_escape(why, esc, sizeof esc));
        return 0;
    }
    bc->be = lb->desc;
    bc->target = (check_target){.rep = &bc->rep, .be = bc->be, .options = a->options, .full = a->full,
                                .abandon = abandon, .user = bc};
    if (bc->be->name && bc->be->name[0])
        msg_escape(bc->be->name, bc->name, sizeof bc->name);
    int rc = prepare_configs(bc, a->network);
    if (rc == 0)
        run_checks(bc);
    remove_temp_configs(bc);
    return rc == 0 ? 0 : 2;
}

/* --options: the backend's options table (ABI 1.5), one row per key,
 * columns as wide as their longest text. */
static void print_options(FILE *out, const char *name, const vimana_backend *d)
{
    const vimana_backend_option *o = backend_options_table(d);
    size_t n = 0, wk = 3, wv = 6, wd = 7;
    for (; o && o[n].key && n < VIMANA_BACKEND_MAX_OPTIONS; n++) {
        size_t k = strlen(o[n].key), v = o[n].values ? strlen(o[n].values) : 0;
        size_t f = o[n].fallback ? strlen(o[n].fallback) : 0;
        wk = k > wk ? k : wk;
        wv = v > wv ? v : wv;
        wd = f > wd ? f : wd;
    }
    if (n == 0) {
        fprintf(out, "vimana backend-check: %s %u.%u lists no options%s\n", name, d->abi_major, d->abi_minor,
                d->abi_minor < 5 ? " (the options table is since ABI 1.5)" : "");
        return;
    }
    fprintf(out, "vimana backend-check: %s %u.%u: %zu options (--backend-options=KEY=VALUE,...)\n", name,
            d->abi_major, d->abi_minor, n);
    fprintf(out, "%-*s  %-*s  %-*s  %s\n", (int)wk, "key", (int)wv, "values", (int)wd, "default", "what it changes");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%-*s  %-*s  %-*s  %s", (int)wk, o[i].key, (int)wv, o[i].values ? o[i].values : "",
                (int)wd, o[i].fallback ? o[i].fallback : "", o[i].help ? o[i].help : "");
        if (o[i].faster)
            fprintf(out, " (faster: %s)", o[i].faster);
        fputc('\n', out);
    }
}

/* --options: load, print the table, unload. 0, or 2 when it cannot load. */
static int list_options(const check_args *a, FILE *out, FILE *err)
{
    const char *plugin = strcmp(a->plugin, "congestion_unaware") ? a->plugin : "analytical";
    loaded_backend lb;
    char why[1024], esc[1024], name[256];
    if (backend_load(plugin, &lb, why, sizeof why) != 0) {
        fprintf(err, "vimana backend-check: error: %s\n", msg_escape(why, esc, sizeof esc));
        return 2;
    }
    msg_escape(lb.desc->name ? lb.desc->name : plugin, name, sizeof name);
    print_options(out, name, lb.desc);
    backend_unload(&lb);
    return 0;
}

/* The checks themselves: load, run, summary. The exit status. */
static int check_all(const check_args *a, FILE *out, FILE *err)
{
    bcheck *bc = calloc(1, sizeof *bc);
    if (!bc) {
        fprintf(err, "vimana backend-check: error: out of memory\n");
        return 2;
    }
    check_report_init(&bc->rep, err);
    bc->out = out;
    msg_escape(a->plugin, bc->name, sizeof bc->name);
    loaded_backend lb;
    int status = check_backend(bc, a, &lb);
    if (status == 0) {
        summary(bc);
        status = bc->rep.failed ? 1 : 0;
    }
    if (bc->be)
        backend_unload(&lb);
    free(bc);
    return status;
}

typedef struct watched {
    const check_args *a;
    FILE *out, *err;
} watched;

static int check_all_in_child(void *arg)
{
    watched *w = arg;
    return check_all(w->a, w->out, w->err);
}

/* The checks under the watchdog: a backend that hangs or crashes the
 * child is reported in one line naming it, with the summary. */
static int check_watched(const check_args *a, FILE *out, FILE *err)
{
    watched w = {a, out, err};
    int status;
    char name[256];
    msg_escape(a->plugin, name, sizeof name);
    switch (watchdog_run(a->timeout_s, check_all_in_child, &w, &status)) {
    case WATCHDOG_EXITED:
        return status;
    case WATCHDOG_TIMED_OUT:
        fprintf(err, "vimana backend-check: FAIL: watchdog: %s did not finish its checks within %u s (a run() or "
                     "another call that never returns); stopped it\n", name, a->timeout_s);
        fprintf(out, "vimana backend-check: %s: stopped after %u s\n", name, a->timeout_s);
        return 1;
    case WATCHDOG_SIGNALLED:
        fprintf(err, "vimana backend-check: FAIL: watchdog: %s crashed the check (signal %d, %s)\n", name, status,
                strsignal(status));
        fprintf(out, "vimana backend-check: %s: crashed\n", name);
        return 1;
    case WATCHDOG_NO_CHILD:
        break;
    }
    fprintf(err, "vimana backend-check: error: cannot start the checks in a child process: %s\n", strerror(status));
    return 2;
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
    if (a.list_options)
        return list_options(&a, out, err);
    return check_watched(&a, out, err);
}
