/* `vimana-et convert pytorch`: a PyTorch host execution trace (or its
 * trace_link "ET+" form) to a Chakra ET, byte-compatible with the reference
 * `chakra_converter PyTorch` (docs/convert-pytorch.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/ctrl_chain.h"
#include "pytorch/pt_graph.h"
#include "pytorch/pt_sim.h"
#include "pytorch/pt_trace.h"
#include "pytorch/pt_write.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et convert pytorch"

typedef struct args {
    const char *input;
    const char *output;
    const char *log_path;
    bool simulate;
    pt_options opt;
} args;

static const char usage[] =
    "Usage: vimana-et convert pytorch --input TRACE.json[.gz] --output OUT.et[.gz] [OPTIONS]\n"
    "\n"
    "Converts a PyTorch host execution trace, or its trace_link (\"ET+\") form, into a\n"
    "Chakra ET, with the bytes the reference `chakra_converter PyTorch` writes.\n"
    "\n"
    "  --input, --input_filename FILE    host trace JSON (gzip'd input is accepted)\n"
    "  --output, --output_filename FILE  Chakra ET to write (gzip'd when it ends in .gz)\n"
    "  --simulate                        run the reference's 1 us list scheduler on the\n"
    "                                    result and print the simulated length\n"
    "  --log-filename, --log_filename FILE  write a log of the conversion to FILE\n"
    "  --no-sync-deps                    ignore trace_link's sync_dep lists (the reference\n"
    "                                    never applies them)\n"
    "  --no-p2p-peers                    write SEND/RECV nodes without comm_src, comm_dst\n"
    "                                    and comm_tag (as the reference does)\n"
    "  --compat                          both of the above, and keep ctrl_deps that name a\n"
    "                                    node removed as dangling: the reference's exact\n"
    "                                    output (which `vimana` accepts only with\n"
    "                                    --drop-missing-deps)\n"
    "  -h, --help                        show this help\n"
    "\n"
    "Without --compat, no node depends on a node that was removed; the number of\n"
    "ctrl_deps left out is noted on stderr. Nodes lost because their ctrl_deps do\n"
    "not lead to a thread root (an id naming no node, a self-loop, a cycle) are\n"
    "counted in a warning.\n";

/* Returns 0 to run, 1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->opt.sync_deps = true;
    a->opt.p2p_peers = true;
    a->opt.drop_removed_ctrl_deps = true;
    const cli_text_option texts[] = {{"--input|--input_filename", &a->input},
                                     {"--output|--output_filename", &a->output},
                                     {"--log-filename|--log_filename", &a->log_path},
                                     {NULL, NULL}};
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_help(argv[i], usage))
            return 1;
        if ((r = cli_text_options(PROG, argc, argv, &i, texts)) != 0) {
            if (r < 0)
                return 2;
        } else if (cli_flag(argv[i], "--simulate")) {
            a->simulate = true;
        } else if (cli_flag(argv[i], "--no-sync-deps")) {
            a->opt.sync_deps = false;
        } else if (cli_flag(argv[i], "--no-p2p-peers")) {
            a->opt.p2p_peers = false;
        } else if (cli_flag(argv[i], "--compat")) {
            a->opt.sync_deps = a->opt.p2p_peers = a->opt.drop_removed_ctrl_deps = false;
        } else {
            cli_error(PROG, "unknown argument '%s' (run `" PROG " --help`)", argv[i]);
            return 2;
        }
    }
    if (!a->input || !a->output) {
        cli_error(PROG, "--input and --output are required (run `" PROG " --help`)");
        return 2;
    }
    return 0;
}

/* ---- log ------------------------------------------------------------------ */

static void log_line(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(FILE *log, const char *fmt, ...)
{
    if (!log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(log, fmt, ap);
    va_end(ap);
    fputc('\n', log);
}

static void warn_line(void *ctx, const char *line)
{
    fprintf(stderr, "%s: warning: %s\n", PROG, line);
    log_line(ctx, "WARNING %s", line);
}

static void note_line(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_line(FILE *log, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: note: %s\n", PROG, line);
    log_line(log, "NOTE %s", line);
}

/* Says what the conversion left out beyond the reference's own dangling
 * removal: ctrl_deps on removed nodes, and nodes behind broken ctrl_deps. */
static int report_drops(const pt_graph *g, FILE *log, pt_error *err)
{
    const pt_trace *t = g->trace;
    const pt_stats *s = &g->stats;
    if (s->ctrl_deps_dropped) {
        const pt_node *n = &t->nodes[s->first_dropped];
        bool one = s->ctrl_deps_dropped == 1;
        note_line(log, "%s: dropped %u %s on %s removed as dangling (%sctrl_deps of node %llu on node %llu); "
                       "--compat keeps %s",
                  t->path, s->ctrl_deps_dropped, one ? "dependency" : "dependencies", one ? "a node" : "nodes",
                  one ? "" : "first: ", (unsigned long long)n->id, (unsigned long long)t->nodes[n->parent].id,
                  one ? "it" : "them");
    }
    pt_orphans o;
    if (pt_find_orphans(g, &o, err) != 0)
        return -1;
    if (o.count) {
        const pt_node *c = &t->nodes[o.culprit];
        char what[200], line[600];
        const pj_value *v = c->field[PT_F_PARENT];
        if (o.fault == CHAIN_NO_PARENT && v->type == PJ_INT && v->negative)
            snprintf(what, sizeof what, "ctrl_deps %lld %s", (long long)v->v.i, ctrl_chain_fault_text(o.fault));
        else if (o.fault == CHAIN_NO_PARENT && v->type == PJ_INT)
            snprintf(what, sizeof what, "ctrl_deps %llu %s", (unsigned long long)v->v.u,
                     ctrl_chain_fault_text(o.fault));
        else
            snprintf(what, sizeof what, "ctrl_deps %s", ctrl_chain_fault_text(o.fault));
        snprintf(line, sizeof line,
                 "%s: %u of %u nodes dropped: their ctrl_deps do not lead to a thread root (node %llu (%s): %s)",
                 t->path, o.count, t->n_nodes, (unsigned long long)c->id, c->name, what);
        warn_line(log, line);
    }
    return 0;
}

static void log_trace(FILE *log, const pt_trace *t)
{
    log_line(log, "INFO loaded %s: schema %s, pid %llu, %u nodes (%u CPU, %u GPU, %u metadata, %u thread roots)",
             t->path, t->meta.schema, (unsigned long long)t->meta.pid, t->n_nodes, t->n_cpu, t->n_gpu,
             t->n_metadata, t->n_thread_roots);
}

static void log_graph(FILE *log, const pt_graph *g)
{
    const pt_stats *s = &g->stats;
    log_line(log, "INFO converted %u nodes, removed %u dangling", s->converted, s->removed);
    if (g->opt.sync_deps)
        log_line(log, "INFO sync_dep: %u edges added, %u skipped (missing ts or not earlier)", s->sync_added,
                 s->sync_skipped);
    if (g->opt.p2p_peers)
        log_line(log, "INFO SEND/RECV: %u with peers and tags, %u without", s->p2p_derived, s->p2p_unresolved);
}

/* ---- the conversion ------------------------------------------------------ */

static int fail(FILE *log, const pt_error *err)
{
    cli_error(PROG, "%s", err->msg);
    log_line(log, "ERROR %s", err->msg);
    return 1;
}

static int run_steps(const args *a, pt_graph *g, FILE *log, pt_error *err)
{
    if (pt_convert_nodes(g, err) != 0)
        return -1;
    if (a->opt.p2p_peers && pt_derive_p2p(g, warn_line, log, err) != 0)
        return -1;
    if (pt_add_data_deps(g, err) != 0 || pt_remove_dangling(g, err) != 0 || pt_check_cycles(g, err) != 0 ||
        report_drops(g, log, err) != 0)
        return -1;
    log_graph(log, g);
    long written = pt_write_et(g, a->output, err);
    if (written < 0) {
        unlink(a->output);
        return -1;
    }
    log_line(log, "INFO wrote %ld nodes to %s", written, a->output);
    if (a->simulate) {
        pt_sim_result r;
        if (pt_simulate(g, &r, err) != 0)
            return -1;
        printf("simulated length: %llu us (%u CPU nodes, %u GPU nodes on %u streams)\n",
               (unsigned long long)r.end_us, r.cpu_nodes, r.gpu_nodes, r.streams);
        log_line(log, "INFO simulated length %llu us", (unsigned long long)r.end_us);
    }
    return 0;
}

static int convert(const args *a, FILE *log)
{
    pt_error err;
    pt_trace trace;
    pt_graph graph;
    if (pt_trace_load(&trace, a->input, &err) != 0)
        return fail(log, &err);
    log_trace(log, &trace);
    int rc = 0;
    if (pt_graph_init(&graph, &trace, a->opt, &err) != 0) {
        rc = fail(log, &err);
    } else {
        if (run_steps(a, &graph, log, &err) != 0)
            rc = fail(log, &err);
        pt_graph_free(&graph);
    }
    pt_trace_free(&trace);
    return rc;
}

int cmd_convert_pytorch(int argc, char **argv)
{
    args a;
    int r = parse_args(argc, argv, &a);
    if (r != 0)
        return r == 1 ? 0 : r;
    FILE *log = NULL;
    if (a.log_path && !(log = fopen(a.log_path, "w"))) {
        cli_error(PROG, "%s: cannot create the log file: %s", a.log_path, strerror(errno));
        return 1;
    }
    int rc = convert(&a, log);
    if (log && fclose(log) != 0 && rc == 0) {
        cli_error(PROG, "%s: writing the log failed", a.log_path);
        rc = 1;
    }
    return rc;
}
