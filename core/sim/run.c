/*
 * The run: load the backend and let it read the network; read the system,
 * memory and group configurations; load every NPU's trace; issue the t = 0
 * work in NPU order; run the event loop; then check that every NPU finished
 * and explain any that did not.
 */
#include "sim/run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/npu_scale.h"
#include "host/fault_links.h"
#include "config/logical_dims.h"
#include "sim/inference_report.h"
#include "sim/log_files.h"
#include "host/network_host.h"
#include "sim/outputs.h"
#include "sim/progress.h"
#include "sim/serving_report.h"
#include "sim/step_breakdown.h"
#include "sim/symmetry.h"
#include "system/frontend.h"
#include "vimana/et.h"
#include "system/msg_match.h"
#include "system/system.h"
#include "workload/workload.h"

static void forward_warning(void *ctx, const char *msg)
{
    sim_warn(ctx, "%s", msg);
}

/* Whether list k of the system configuration leaves network dimensions
 * unused: it has fewer entries than dimensions and no one* algorithm (which
 * spans every NPU). */
static bool list_is_short(const sim *s, int k)
{
    uint32_t n = s->cfg.n_impl[k];
    if (n == 0 || n >= s->n_dims || s->cfg.custom_impl[k])
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (s->cfg.impl[k][i].one)
            return false;
    return true;
}

/* An implementation list shorter than the network's dimensions makes the
 * collective use only the first dimensions (so does the reference: the
 * cycles are kept), which is easy to miss. One warning per list length,
 * naming the collectives and the dimensions (of more than one NPU) unused. */
static void warn_short_algorithm_lists(sim *s)
{
    bool done[COLL_KINDS] = {false};
    for (int k = 0; k < COLL_KINDS; k++) {
        if (done[k] || !list_is_short(s, k))
            continue;
        uint32_t n = s->cfg.n_impl[k];
        char lists[160] = "", dims[160] = "";
        size_t len = 0;
        for (int j = k; j < COLL_KINDS; j++) {
            if (done[j] || !list_is_short(s, j) || s->cfg.n_impl[j] != n)
                continue;
            done[j] = true;
            len += (size_t)snprintf(lists + len, sizeof lists - len, "%s'%s-implementation'", len ? ", " : "",
                                    coll_kind_name((enum coll_kind)j));
        }
        len = 0;
        uint32_t unused = 0;
        for (uint32_t d = n; d < s->n_dims && len < sizeof dims; d++) {
            if (s->dim_size[d] < 2)
                continue;
            len += (size_t)snprintf(dims + len, sizeof dims - len, "%s%u", unused ? ", " : "", d);
            unused++;
        }
        if (unused == 0)
            continue;
        sim_warn(s, "%s: %s list%s %u algorithm%s for a network of %u dimensions: dimension%s %s %s unused by "
                    "%s (as in ASTRA-sim)", s->cfg.path, lists, strchr(lists, ',') ? "" : "s", n,
                 n == 1 ? "" : "s", s->n_dims, unused == 1 ? "" : "s", dims, unused == 1 ? "is" : "are",
                 strchr(lists, ',') ? "these collectives" : "this collective");
    }
}

/* The nccl model's tuner (nccl.tuner 1) weighs each algorithm's time on
 * the links' bandwidths: a backend that reports none cannot run it. */
static int check_tuner_links(sim *s)
{
    bool tuner = false;
    for (int k = 0; k < COLL_KINDS; k++)
        tuner |= s->cfg.nccl[k].tuner != 0;
    if (!tuner || s->dim_bytes_per_ns[0] > 0)
        return 0;
    sim_fail(s, "%s: key 'nccl.tuner': network backend '%s' reports no dimension bandwidth, which the tuner "
                "weighs each algorithm by; set tuner 0 or use a backend with dim_bandwidth (analytical, "
                "congestion_aware)", s->cfg.path, s->be->name);
    return -1;
}

int sim_load_configs(sim *s)
{
    char err[1024];
    sys_algo_names algos = algo_registry_names(&s->algorithms);
    if (sys_config_load(s->opt->system, s->opt->injection_scale, &algos, &s->cfg, err, sizeof err, forward_warning,
                        s) != 0) {
        sim_fail(s, "%s", err);
        return -1;
    }
    if (s->opt->memory) {
        if (mem_config_load(s->opt->memory, &s->mem, err, sizeof err) != 0) {
            sim_fail(s, "%s", err);
            return -1;
        }
    } else {
        s->mem.type = MEM_NO_EXPANSION;
        s->mem.path = strdup("(no --remote-memory-configuration)");
    }
    if (s->opt->comm_group) {
        if (comm_group_config_load(s->opt->comm_group, s->n_npus, &s->groups, err, sizeof err) != 0) {
            sim_fail(s, "%s", err);
            return -1;
        }
    }
    /* with --jobs the file names the network's NPUs: jobs_run.c maps them */
    if (s->opt->npu_compute_scale && !s->opt->jobs &&
        npu_scale_load(s->opt->npu_compute_scale, s->n_npus, &s->npu_scale, err, sizeof err) != 0) {
        sim_fail(s, "%s", err);
        return -1;
    }
    if (s->opt->logical_topology && logical_dims_check(s->opt->logical_topology, s->n_npus, err, sizeof err) != 0) {
        sim_fail(s, "%s", err);
        return -1;
    }
    warn_short_algorithm_lists(s);
    if (fault_links_apply(s) != 0)
        return -1;
    return check_tuner_links(s);
}

/* run() returned with messages the backend accepted but never delivered:
 * the network, not the workload, is stuck (a link of zero rate, an NPU no
 * route reaches, a backend that drops messages). */
static void report_stalled(sim *s)
{
    uint64_t pending = msg_in_network(s);
    sim_fail(s, "stalled: %llu message%s pending at t = %llu: network backend %s returned without delivering "
                "%s (a link that never transmits, an unreachable NPU, or a backend that drops messages)",
             (unsigned long long)pending, pending == 1 ? "" : "s", (unsigned long long)sim_now(s), s->be->name,
             pending == 1 ? "it" : "them");
}

static void report_deadlock(sim *s, wl_run *r)
{
    uint32_t stuck = workload_report_unfinished(r);
    uint64_t pending = msg_outstanding(s, NULL, NULL);
    sim_fail(s, "deadlock: %u of %u NPUs never finished at t = %llu (%llu message%s unmatched or in flight: a "
                "RECV no SEND matches, a SEND nobody receives, or a collective some NPUs never join)",
             stuck, s->n_npus, (unsigned long long)sim_now(s), (unsigned long long)pending, pending == 1 ? "" : "s");
}

/* The first send that arrived but that no receive ever took. */
typedef struct unreceived {
    bool found;
    uint32_t src, dst, tag;
    uint64_t size;
} unreceived;

static void find_unreceived(void *ctx, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, bool is_receive,
                            bool arrived)
{
    unreceived *u = ctx;
    if (u->found || is_receive || !arrived)
        return;
    *u = (unreceived){.found = true, .src = src, .dst = dst, .tag = tag, .size = size};
}

/* The workload SEND node behind a message, or -1 (a collective's message). */
static int64_t send_node_of(const wl_run *r, const unreceived *u)
{
    const workload *w = &r->wl[u->src];
    for (uint32_t i = 0; i < w->n_nodes; i++) {
        const wl_node *n = &w->nodes[i];
        if (n->type == VET_COMM_SEND_NODE && (uint32_t)n->comm_dst == u->dst && n->comm_size == u->size &&
            fe_native_tag((uint32_t)n->comm_tag) == u->tag)
            return i;
    }
    return -1;
}

/* Every NPU finished, yet a message still waits: a SEND completes when its
 * data arrives, so one nobody receives would otherwise pass unnoticed. */
static void report_unreceived(sim *s, const wl_run *r)
{
    unreceived u = {0};
    uint64_t pending = msg_outstanding(s, find_unreceived, &u);
    if (!u.found) {
        sim_fail(s, "deadlock: every NPU finished but %llu message%s never matched at t = %llu",
                 (unsigned long long)pending, pending == 1 ? "" : "s", (unsigned long long)sim_now(s));
        return;
    }
    int64_t i = send_node_of(r, &u);
    const workload *w = &r->wl[u.src];
    if (i < 0) {
        sim_fail(s, "deadlock: a message nobody receives: NPU %u sent %llu bytes to NPU %u (tag %u) and no "
                    "receive matched it by t = %llu", u.src, (unsigned long long)u.size, u.dst, u.tag,
                 (unsigned long long)sim_now(s));
        return;
    }
    const wl_node *n = &w->nodes[i];
    sim_fail(s, "deadlock: %s: a SEND nobody receives: NPU %u node %llu (%s) sent %llu bytes to NPU %u with tag "
                "%d; no RECV on NPU %u matched it by t = %llu", w->path, u.src, (unsigned long long)n->id,
             workload_node_name(w, (uint32_t)i), (unsigned long long)u.size, u.dst, n->comm_tag, u.dst,
             (unsigned long long)sim_now(s));
}

void sim_check_end(sim *s, wl_run *r)
{
    if (!s->failed && msg_in_network(s) > 0)
        report_stalled(s);
    else if (!s->failed && r->finished_npus < s->n_npus)
        report_deadlock(s, r);
    else if (!s->failed && msg_outstanding(s, NULL, NULL) > 0)
        report_unreceived(s, r);
}

/* An inference workload's TTFT, TPOT and tokens/s (sim/inference_report.h),
 * after the finish lines, and for --report and --timeline (outputs keeps
 * a pointer to *inf until outputs_close). Nothing for other workloads. */
static void report_inference(sim *s, const wl_run *r, outputs *outs, inf_report *inf, inf_summary *sum,
                             FILE *out)
{
    if (inf_report_run(s, r, inf, sum, out) == 1)
        outputs_set_inference(outs, inf, sum);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Parsed traces: NPUs that run the same bytes share one (PREFIX.et, or
 * identical PREFIX.i.et). */
static void print_run_stats(const sim *s, const wl_run *r, double load_s, double run_s, FILE *log)
{
    double events = (double)s->events + (double)s->messages;
    fprintf(log, "vimana: %u NPUs loaded in %.3f s (%u trace%s parsed); simulated %llu ns in %.3f s: %llu messages, "
                 "%llu system events (%.2f M messages+events/s)\n",
            s->n_npus, load_s, r->n_traces, r->n_traces == 1 ? "" : "s", (unsigned long long)sim_now(s), run_s,
            (unsigned long long)s->messages,
            (unsigned long long)s->events, run_s > 0 ? events / run_s / 1e6 : 0.0);
}

static int simulate(const sim_options *opt, FILE *out, FILE *log, FILE *err_log);

int sim_run_logged(const sim_options *opt, FILE *out, FILE *log, sim_body_fn body)
{
    log_files lf;
    char err[1024];
    if (log_files_open(&lf, opt->logging_folder, out, log, err, sizeof err) != 0) {
        log_files_close(&lf);
        fprintf(log, "vimana: error: %s\n", err);
        return 1;
    }
    int status = body(opt, lf.out, lf.log, lf.errors);
    if (log_files_close(&lf) != 0) {
        fprintf(log, "vimana: error: --logging-folder: %s: write failed\n", opt->logging_folder);
        status = 1;
    }
    return status;
}

int sim_run(const sim_options *opt, FILE *out, FILE *log)
{
    return sim_run_logged(opt, out, log, simulate);
}

/* A stream that collects what would go to the log, for a reduced run
 * (kept until it has succeeded) or a second attempt's loading (dropped:
 * the first attempt printed it). */
typedef struct held_log {
    FILE *f;
    char *text;
    size_t len;
} held_log;

static FILE *hold_log(sim *s, held_log *h)
{
    *h = (held_log){0};
    h->f = open_memstream(&h->text, &h->len);
    if (!h->f)
        sim_fail(s, "out of memory");
    return h->f;
}

/* Closes the stream; writes what it holds to `to` unless `to` is NULL. */
static void release_log(held_log *h, FILE *to)
{
    if (h->f && fclose(h->f) == 0 && to && h->len)
        fwrite(h->text, 1, h->len, to);
    free(h->text);
    *h = (held_log){0};
}

/* One attempt at the run. `retry`: the second attempt after a reduced
 * simulation failed, simulated in full so that the error is the full
 * simulation's; its loading repeats the first attempt's and stays quiet.
 * Sets *reduced_failed (then nothing was printed but the loading's lines)
 * when this attempt was reduced and failed. */
static int simulate_once(const sim_options *opt, FILE *out, FILE *log, FILE *err_log, bool retry,
                         bool *reduced_failed)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double load_s = 0;
    sim s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    s.log = log;
    s.err_log = err_log;
    /* The workload of the run; the driver watches it and the system layer
     * through hooks (outputs, progress). */
    wl_run run = {.s = &s, .out = out};
    outputs *outs = NULL;
    progress prog;
    network_host nh;
    symmetry sym = {.mode = SYMMETRY_OFF};
    held_log quiet = {0}, held = {0};
    inf_report inf = {0};
    inf_summary inf_sum = {0};
    if (retry && hold_log(&s, &quiet))
        s.log = quiet.f;
    if (!s.failed && network_host_init(&nh, &s) == 0 && sim_load_configs(&s) == 0 && system_init(&s) == 0 &&
        workload_load_all(&run) == 0 && outputs_open(&s, &run, &outs) == 0) {
        load_s = seconds_since(&t0);
        release_log(&quiet, NULL);
        s.log = log;
        symmetry_check(&s, &run, backend_is_shipped(&nh.lb, "analytical"), &sym);
        if (retry)
            symmetry_refuse(&sym, "a run that fails (simulated again in full to report the error as the full "
                                  "simulation does)");
        /* A reduced run prints nothing until it has succeeded. */
        s.reduced = sym.mode == SYMMETRY_ON && hold_log(&s, &held);
        s.mirror_xor = sym.hd_dims;
        s.roles = s.reduced && sym.over_roles ? &sym.roles : NULL;
        if (s.reduced) {
            s.log = held.f;
            s.err_log = NULL;
        }
        sim_enter(&s);
        progress_start(&prog, &s, &run, log);
        workload_fire_all(&run);
        if (!s.failed)
            network_host_run(&nh);
        sim_enter(&s);
        sim_check_end(&s, &run);
        progress_end(&prog);
        if (s.reduced) {
            release_log(&held, s.failed ? NULL : log);
            s.log = log;
            s.err_log = err_log;
            *reduced_failed = s.failed;
            if (!s.failed)
                workload_print_reduced(&run);
        }
        if (!s.failed && !*reduced_failed)
            workload_print_summary(&run, out);
        if (!s.failed && !*reduced_failed)
            report_inference(&s, &run, outs, &inf, &inf_sum, out);
        if (opt->breakdown && !s.failed && !*reduced_failed)
            step_breakdown_print(&s, &run, out);
        if (!s.failed && !*reduced_failed)
            serving_report_print(&s, &run, out);
        if (opt->run_stats && !*reduced_failed)
            symmetry_print(&sym, log);
        if (opt->run_stats && !*reduced_failed)
            print_run_stats(&s, &run, load_s, seconds_since(&t0) - load_s, log);
    }
    release_log(&quiet, NULL);
    outputs_close(outs);
    inf_report_free(&inf);
    fflush(out);
    int status = 0;
    if (s.failed) {
        /* Empty when the backend's own error line already said it; none
         * for a reduced run that failed: the full one will say it. */
        if (s.error[0] && !*reduced_failed) {
            fprintf(log, "vimana: error: %s\n", s.error);
            if (err_log)
                fprintf(err_log, "vimana: error: %s\n", s.error);
        }
        status = 1;
    }
    workload_free_all(&run);
    symmetry_free(&sym);
    system_fini(&s);
    network_host_fini(&nh);
    sys_config_free(&s.cfg);
    mem_config_free(&s.mem);
    comm_group_config_free(&s.groups);
    free(s.npu_scale);
    fault_links_free(&s);
    return status;
}

/* The run, reduced when the NPUs are interchangeable; a reduced run that
 * fails is run again in full, so that an error names what the full
 * simulation names (the NPU that fails first, the messages it sent). */
static int simulate(const sim_options *opt, FILE *out, FILE *log, FILE *err_log)
{
    bool reduced_failed = false;
    int status = simulate_once(opt, out, log, err_log, false, &reduced_failed);
    if (!reduced_failed)
        return status;
    bool unused = false;
    return simulate_once(opt, out, log, err_log, true, &unused);
}
