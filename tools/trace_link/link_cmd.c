/*
 * link_cmd.c - `vimana-et link`: merge a PyTorch host execution trace with
 * its Kineto device trace into the linked "ET+" JSON that
 * `vimana-et convert pytorch` reads (chakra_trace_link's job).
 *
 * The stages, each in its own module: load both traces, exclusive
 * durations, inter-thread dependencies, GPU op launchers, sync edges, the
 * link plan (matching and numbering), and the writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/ctrl_chain.h"
#include "trace_link/diag.h"
#include "trace_link/exclusive_dur.h"
#include "trace_link/et_plus_writer.h"
#include "trace_link/gpu_launcher.h"
#include "trace_link/host_trace.h"
#include "trace_link/inter_thread.h"
#include "trace_link/kineto_trace.h"
#include "trace_link/link_plan.h"
#include "trace_link/sync_dep.h"
#include "util/msg_escape.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et link"

typedef struct link_args {
    const char *host_path, *device_path, *output_path;
    uint64_t rank;
    bool has_rank;
    link_options options;
    enum tl_level level;
} link_args;

static const char usage[] =
    "Usage: vimana-et link --host-trace FILE --device-trace FILE --output FILE\n"
    "                      [--rank R] [--exact-match] [--allow-unlinked] [--log-level LEVEL]\n"
    "\n"
    "Link a PyTorch host execution trace (JSON, or .gz) with the Kineto trace of the\n"
    "same run into the ET+ JSON read by `vimana-et convert pytorch`, as\n"
    "chakra_trace_link does: host ops gain the Kineto durations (inclusive_dur,\n"
    "exclusive_dur), ts and inter_thread_dep, and each GPU kernel/memcpy follows the\n"
    "host op that launched it. Ids are renumbered densely; the output is written like\n"
    "Python's json.dump(indent=4), gzip-compressed when FILE ends in .gz.\n"
    "\n"
    "  --host-trace FILE     host ET (aliases --chakra-host-trace, --pytorch-et-file,\n"
    "                        --et-file)\n"
    "  --device-trace FILE   Kineto trace (aliases --chakra-device-trace,\n"
    "                        --kineto-file, --kineto-trace-file)\n"
    "  --output FILE         linked ET+ (alias --output-file)\n"
    "  --rank R              rank of the traces; when given, checked against the\n"
    "                        Kineto distributedInfo\n"
    "  --exact-match         fail unless every host op with an rf_id (annotations\n"
    "                        aside) has a Kineto CPU op with that record-function id\n"
    "                        and the same name\n"
    "  --allow-unlinked      write the output even when nothing can be linked (Kineto\n"
    "                        without 'Record function id', traces of different runs,\n"
    "                        the flat 1.0.1 host schema): the renumbered host trace,\n"
    "                        byte for byte what chakra_trace_link writes\n"
    "  --log-level LEVEL     DEBUG, INFO (summary line), WARNING (default) or ERROR\n"
    "\n"
    "Sync dependencies: Vimana does not run HTA's critical-path analysis. A host op\n"
    "gets sync_dep = [GPU op node ids] only from this rule: the first CPU op after a\n"
    "cuda/hip Device/Stream/Event-Synchronize call waits for the GPU op(s) that\n"
    "finished while the call blocked, and only when that GPU op started earlier.\n";

static int parse_args(int argc, char **argv, link_args *a)
{
    memset(a, 0, sizeof *a);
    a->level = TL_WARNING;
    /* --annotation: PARAM's historic linker sliced iterations by this
     * name; linking by record-function id needs no slicing */
    const char *annotation = NULL;
    const cli_text_option texts[] = {
        {"--host-trace|--chakra-host-trace|--pytorch-et-file|--et-file", &a->host_path},
        {"--device-trace|--chakra-device-trace|--kineto-file|--kineto-trace-file", &a->device_path},
        {"--output|--output-file", &a->output_path},
        {"--annotation", &annotation},
        {NULL, NULL}};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (cli_help(argv[i], usage))
            return 1;
        if (cli_flag(argv[i], "--exact-match|--exact_match")) {
            a->options.exact_match = true;
            continue;
        }
        if (cli_flag(argv[i], "--allow-unlinked")) {
            a->options.allow_unlinked = true;
            continue;
        }
        if ((r = cli_text_options(PROG, argc, argv, &i, texts)) != 0) {
            if (r < 0)
                return -1;
        } else if ((r = cli_option(PROG, argc, argv, &i, "--rank", &v)) != 0) {
            if (r < 0 || cli_u64(PROG, "--rank", v, &a->rank) != 0)
                return -1;
            a->has_rank = true;
        } else if ((r = cli_option(PROG, argc, argv, &i, "--log-level|--log_level", &v)) != 0) {
            if (r < 0)
                return -1;
            if (!tl_level_parse(v, &a->level)) {
                cli_error(PROG, "--log-level: expected DEBUG, INFO, WARNING, ERROR or CRITICAL, got '%s'", v);
                return -1;
            }
        } else {
            cli_error(PROG, "unknown option '%s' (run `vimana-et link --help`)", argv[i]);
            return -1;
        }
    }
    const char *missing = !a->host_path     ? "--host-trace"
                          : !a->device_path ? "--device-trace"
                          : !a->output_path ? "--output"
                                            : NULL;
    if (missing) {
        cli_error(PROG, "missing %s FILE (run `vimana-et link --help`)", missing);
        return -1;
    }
    return 0;
}

/* Host nodes outside the root's tree are written but never linked (no
 * durations, their GPU ops left out). With a sound trace every node is under
 * the root; otherwise a ctrl_deps naming no node, a node naming itself or a
 * cycle cut them off, and the warning says how many and where. */
static int warn_about_orphans(const host_trace *h, tl_diag *d)
{
    size_t n = h->n_nodes, outside = 0, first = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (!(h->nodes[i].flags & HOST_IN_TREE) && outside++ == 0)
            first = i;
    if (outside == 0 || h->root == SIZE_MAX) /* no root: nothing links, reported elsewhere */
        return 0;
    uint32_t *parent = calloc(n + 1, sizeof *parent), *culprit = calloc(n + 1, sizeof *culprit);
    uint8_t *fault = calloc(n + 1, 1);
    int rc = 0;
    if (!parent || !culprit || !fault) {
        rc = tl_fail(d, "%s: out of memory", h->path);
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t p = i == h->root ? SIZE_MAX : host_trace_find(h, h->nodes[i].parent);
            parent[i] = i == h->root ? CHAIN_ROOT : p == SIZE_MAX ? CHAIN_MISSING : (uint32_t)p;
        }
        if (ctrl_chain_check(parent, (uint32_t)n, fault, culprit) != 0) {
            rc = tl_fail(d, "%s: out of memory", h->path);
        } else {
            const host_node *c = &h->nodes[culprit[first]];
            char name[160], value[32] = "";
            msg_escape_n(h->text.data + c->name_off, c->name_len, name, sizeof name);
            if (fault[first] == CHAIN_NO_PARENT)
                snprintf(value, sizeof value, " %lld", (long long)c->parent);
            tl_warn(d,
                    "%s: %zu of %zu host nodes are not under the root (node 1) and stay unlinked: their %s do not "
                    "lead to it (node %lld (%s): %s%s %s)",
                    h->path, outside, n, h->flat_layout ? "parents" : "ctrl_deps", (long long)c->id, name,
                    h->flat_layout ? "parent" : "ctrl_deps", value, ctrl_chain_fault_text(fault[first]));
        }
    }
    free(parent);
    free(culprit);
    free(fault);
    return rc;
}

/* Facts about the inputs that do not stop the run. */
static void warn_about_inputs(const link_args *a, const host_trace *h, const kineto_trace *k, tl_diag *d)
{
    if (!k->has_profiler_step)
        tl_warn(d, "%s: no ProfilerStep annotation (chakra_trace_link stops here, chakra #162); the whole trace is "
                   "linked",
                k->path);
    if (k->has_rank && a->has_rank && (uint64_t)k->rank != a->rank)
        tl_warn(d, "%s: distributedInfo.rank is %lld but --rank is %llu", k->path, (long long)k->rank,
                (unsigned long long)a->rank);
    if (k->n_memset)
        tl_warn(d, "%s: %zu gpu_memset events are not GPU ops for the reference either; they are left out",
                k->path, k->n_memset);
    if (h->flat_layout)
        tl_warn(d, "%s: schema 1.0.1: 'parent' values are not renumbered (as in chakra_trace_link), so they name "
                   "the wrong nodes in the output",
                h->path);
}

static void report(const link_args *a, const link_plan *p, const launcher_stats *ls, const kineto_trace *k,
                   tl_diag *d)
{
    const link_stats *s = &p->stats;
    size_t orphans = ls->no_launch_call + ls->no_cpu_op;
    if (orphans)
        tl_warn(d, "%s: %zu of %zu GPU ops have no launching CPU op (%zu without a launch call, %zu without a CPU "
                   "op before the call)",
                k->path, orphans, k->n_gpu, ls->no_launch_call, ls->no_cpu_op);
    if (s->unlinked_ops && s->linked)
        tl_info(d, "%zu host ops with an rf_id have no Kineto CPU op (left without timing)", s->unlinked_ops);
    tl_info(d, "%s: %zu nodes: %zu of the %zu host nodes under the root linked, %zu GPU ops attached (%zu left "
               "out), %zu sync_dep entries",
            a->output_path, s->out_nodes, s->linked, s->tree_nodes, s->gpu_nodes, s->gpu_dropped, s->sync_deps);
}

/* Loads, analyses, plans and writes; every failure leaves its message in d. */
static int run(const link_args *a, tl_diag *d)
{
    host_trace h;
    kineto_trace k;
    link_plan plan = {0};
    sync_edges edges = {0};
    launcher_stats ls = {0};
    tl_out out;
    int rc = host_trace_load(&h, a->host_path, a->options.allow_unlinked, d);
    if (rc == 0)
        rc = kineto_trace_load(&k, a->device_path, d);
    else
        memset(&k, 0, sizeof k);
    if (rc == 0) {
        warn_about_inputs(a, &h, &k, d);
        rc = warn_about_orphans(&h, d);
    }
    if (rc == 0) {
        rc = exclusive_durations(&k, d);
    }
    if (rc == 0)
        rc = inter_thread_deps(&k, d);
    if (rc == 0)
        rc = find_gpu_launchers(&k, &ls, d);
    if (rc == 0)
        rc = find_sync_edges(&k, &edges, d);
    if (rc == 0)
        rc = link_plan_build(&plan, &h, &k, &edges, &a->options, d);
    if (rc == 0)
        rc = tl_out_open(&out, a->output_path, d);
    if (rc == 0) {
        et_plus_write(&out, &h, &k, &plan);
        rc = tl_out_close(&out, d);
    }
    if (rc == 0)
        report(a, &plan, &ls, &k, d);
    sync_edges_free(&edges);
    link_plan_free(&plan);
    kineto_trace_free(&k);
    host_trace_free(&h);
    return rc;
}

int cmd_link(int argc, char **argv)
{
    link_args a;
    int r = parse_args(argc, argv, &a);
    if (r != 0)
        return r > 0 ? 0 : 2;
    tl_diag d;
    tl_diag_init(&d, PROG, a.level);
    if (run(&a, &d) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, d.msg);
        return 1;
    }
    return 0;
}
