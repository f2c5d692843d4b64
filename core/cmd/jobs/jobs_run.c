/*
 * jobs_run.c - `vimana --jobs`: load the backend once, give every job its
 * context and job view, run the backend's one event loop, check each job
 * as a single run is checked; then run each job alone for its slowdown and
 * print the jobs in file order.
 */
#include "cmd/jobs/jobs_run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/npu_scale.h"
#include "host/backend_loader.h"
#include "host/backend_validate.h"
#include "cmd/jobs/job_net.h"
#include "cmd/jobs/jobs_generate.h"
#include "cmd/jobs/jobs_spec.h"
#include "sim/inference_report.h"
#include "sim/outputs.h"
#include "sim/run.h"
#include "sim/serving_report.h"
#include "system/system.h"
#include "util/msg_escape.h"
#include "util/parent_dirs.h"
#include "workload/workload.h"

struct net_run;

/* One job of one run: its options, context, workload and results. */
typedef struct job_run {
    struct net_run *all;
    const job_spec *spec;
    vimana_tick start;          /* the spec's start, or 0 when run alone */
    sim_options opt;
    char *report;               /* this job's report file, or NULL */
    outputs_tenant tenant;      /* its share of the timeline, its name in the report */
    char *label;                /* "FILE job 'NAME'": the network as the job's messages name it */
    sim s;
    wl_run run;
    outputs *outs;
    job_view view;
    FILE *out;                  /* holds the per-rank lines until the jobs are printed */
    char *text;
    size_t text_len;
    bool started;               /* contexts set up to be freed */
    vimana_tick finish, exposed;
} job_run;

/* One run of some jobs of the file on a fresh backend. */
typedef struct net_run {
    const jobs_spec *spec;
    FILE *log;
    loaded_backend lb;
    void *be_ctx;
    vimana_host callbacks;
    vimana_stop_fn stop;
    bool running;
    job_net net;
    job_view **views;
    job_run *jobs;
    uint32_t n_jobs;
    uint32_t n_npus;            /* of the physical network */
    double *npu_scale;          /* --npu-compute-scale over the network's NPUs, or NULL */
    FILE *timeline;             /* --timeline, shared by the jobs, or NULL */
    bool timeline_first;
    char error[1200];           /* the run's first error line (without "vimana: error: ") */
    bool failed;
    bool backend_said_error;
} net_run;

static void run_fail(net_run *jr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run_fail(net_run *jr, const char *fmt, ...)
{
    if (jr->failed)
        return;
    jr->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(jr->error, sizeof jr->error, fmt, ap);
    va_end(ap);
    if (jr->running && jr->stop)
        jr->stop(jr->be_ctx);
}

/* ---- callbacks of the real backend --------------------------------------- */

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    net_run *jr = host;
    static const char *const names[] = {"debug", "info", "warning", "error"};
    if (!message) {
        run_fail(jr, "network backend %s broke the network API contract: log() was called with a NULL message",
                 jr->lb.desc->name);
        return;
    }
    if (level == VIMANA_LOG_DEBUG)
        return;
    fprintf(jr->log, "vimana: %s: %s: %s\n", jr->lb.desc->name, (unsigned)level < 4 ? names[level] : "log",
            message);
    /* The backend explained its error: a job's own line for it would be a
     * second one (sim_fail_backend). */
    if (level == VIMANA_LOG_ERROR) {
        jr->backend_said_error = true;
        for (uint32_t k = 0; jr->jobs && k < jr->n_jobs; k++)
            jr->jobs[k].s.backend_said_error = true;
    }
}

static void host_delivered(void *host, uint64_t token)
{
    net_run *jr = host;
    if (!jr->failed)
        job_net_delivered(&jr->net, token);
}

static void host_failed(void *host, const char *message)
{
    net_run *jr = host;
    char text[768];
    msg_one_line(message ? message : "(no message)", text, sizeof text);
    run_fail(jr, "network backend %s failed: %s", jr->lb.desc->name, text);
}

/* A job's context failed (sim_fail): the run's first error, named by job. */
static void job_failed(void *ctx)
{
    job_run *j = ctx;
    char path[512];
    if (j->s.error[0])
        run_fail(j->all, "%s: job '%s': %s", msg_escape(j->all->spec->path, path, sizeof path), j->spec->name,
                 j->s.error);
    else
        run_fail(j->all, "%s", "");
}

/* ---- the physical network ------------------------------------------------ */

static int read_network(net_run *jr)
{
    const vimana_backend *be = jr->lb.desc;
    const char *net = jr->spec->network;
    uint32_t n_dims, dim_size[BACKEND_MAX_DIMS];
    char why[256];
    if (backend_read_dims(be, jr->be_ctx, &n_dims, dim_size, &jr->n_npus, why, sizeof why) != 0) {
        run_fail(jr, "%s: backend '%s': %s (network %s)", jr->lb.path, be->name, why, net);
        return -1;
    }
    if (n_dims > 1 && !(be->capabilities & VIMANA_CAP_MULTI_DIM)) {
        run_fail(jr, "%s: network backend '%s' does not support multi-dimensional networks (%u dimensions); use "
                     "a backend with the MULTI_DIM capability, e.g. analytical", net, be->name, n_dims);
        return -1;
    }
    return 0;
}

static int open_backend(net_run *jr)
{
    char err[1024];
    if (backend_open(jr->spec->backend, &jr->lb, err, sizeof err) != 0) {
        run_fail(jr, "%s", err);
        return -1;
    }
    jr->stop = backend_stop_fn(jr->lb.desc);
    jr->callbacks = (vimana_host){.struct_size = sizeof jr->callbacks, .host = jr, .log = host_log,
                                  .delivered = host_delivered, .failed = host_failed};
    vimana_backend_params params = {.struct_size = sizeof params, .network_config = jr->spec->network,
                                    .options = jr->spec->backend_options};
    bool contract;
    int rc = backend_call_init(jr->lb.desc, &params, &jr->callbacks, &jr->be_ctx, err, sizeof err, &contract);
    if (rc != VIMANA_OK) {
        jr->be_ctx = NULL;
        if (contract)
            run_fail(jr, "%s: backend '%s': init() returned status %d: %s", jr->lb.path, jr->lb.desc->name, rc, err);
        else if (err[0] || !jr->backend_said_error)
            run_fail(jr, "%s", err[0] ? err : "network backend failed to initialise");
        else
            run_fail(jr, "%s", "");
        return -1;
    }
    return jr->failed ? -1 : read_network(jr);
}

/* ---- one job ------------------------------------------------------------- */

/* FILE.json -> FILE.NAME.json: one output file per job. */
static char *per_job_path(const char *path, const char *name)
{
    if (!path)
        return NULL;
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    size_t len = strlen(path) + strlen(name) + 2;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%.*s.%s%s", (int)stem, path, name, path + stem);
    return out;
}

static void fire_job(void *arg, uint64_t data)
{
    (void)data;
    job_run *j = arg;
    sim_enter(&j->s);
    if (!j->s.failed)
        workload_fire_all(&j->run);
}

/* The job's options: the base command line's, with the job's files; its
 * network named "FILE job 'NAME'" in messages. */
static int job_options(net_run *jr, job_run *j, const sim_options *base, bool with_files, uint32_t pid_base)
{
    const job_spec *js = j->spec;
    char path[512];
    size_t len = strlen(jr->spec->path) * 4 + strlen(js->name) + 16;
    j->opt = *base;
    j->opt.workload = js->workload;
    j->opt.system = js->system;
    j->opt.memory = js->memory;
    j->opt.comm_group = NULL;
    j->opt.backend = jr->spec->backend;
    j->opt.backend_options = jr->spec->backend_options;
    j->report = with_files ? per_job_path(base->report, js->name) : NULL;
    j->opt.report = j->report;
    j->opt.timeline = with_files ? base->timeline : NULL;
    j->tenant = (outputs_tenant){.name = js->name, .npus = js->npus, .timeline = jr->timeline,
                                 .timeline_first = &jr->timeline_first, .pid_base = pid_base};
    j->label = malloc(len);
    if (!j->label || (j->opt.report == NULL && base->report && with_files))
        return -1;
    snprintf(j->label, len, "%s job '%s'", msg_escape(jr->spec->path, path, sizeof path), js->name);
    j->opt.network = j->label;
    return 0;
}

/* --npu-compute-scale names the network's NPUs: the job's rank r runs on
 * NPU npus[r] and takes its multiplier. */
static int job_npu_scale(net_run *jr, job_run *j)
{
    if (!jr->npu_scale)
        return 0;
    const job_spec *js = j->spec;
    j->s.npu_scale = malloc((js->n_npus ? js->n_npus : 1) * sizeof *j->s.npu_scale);
    if (!j->s.npu_scale) {
        sim_fail(&j->s, "out of memory");
        return -1;
    }
    for (uint32_t r = 0; r < js->n_npus; r++)
        j->s.npu_scale[r] = jr->npu_scale[js->npus ? js->npus[r] : r];
    return 0;
}

/* Sets up the job's context on its view, as a single run sets up its own
 * on the backend, and starts it (now, or from an event at its start). */
static int job_start(net_run *jr, job_run *j, uint32_t index, const sim_options *base, FILE *log, bool with_files,
                     uint32_t pid_base)
{
    const job_spec *js = j->spec;
    j->all = jr;
    j->started = true;
    j->out = open_memstream(&j->text, &j->text_len);
    if (!j->out || job_options(jr, j, base, with_files, pid_base) != 0) {
        run_fail(jr, "out of memory");
        return -1;
    }
    j->s.log = log;
    j->s.opt = &j->opt;
    j->run = (wl_run){.s = &j->s, .out = j->out, .origin = j->start};
    job_view_attach(&j->view, &jr->net, index, &j->s, js->dims, js->n_dims, js->npus);
    j->s.hooks.failed = job_failed;
    j->s.hooks.failed_ctx = j;
    if (sim_load_configs(&j->s) != 0 || job_npu_scale(jr, j) != 0 || system_init(&j->s) != 0 ||
        workload_load_all(&j->run) != 0 ||
        outputs_open_tenant(&j->s, &j->run, &j->tenant, &j->outs) != 0)
        return -1;
    if (j->start == 0)
        fire_job(j, 0);
    else
        sim_schedule(&j->s, j->start, fire_job, j, 0);
    return j->s.failed ? -1 : 0;
}

/* The job's summary figures: its last rank's finish and exposed time, both
 * counted from the job's start. */
static void job_summarise(job_run *j)
{
    uint32_t last = 0;
    for (uint32_t r = 1; r < j->s.n_npus; r++)
        if (j->run.wl[r].finish_tick > j->run.wl[last].finish_tick)
            last = r;
    const workload *w = &j->run.wl[last];
    j->finish = w->finish_tick;
    j->exposed = w->finish_tick - j->start - w->tics_gpu_ops;
}

/* An inference or serving workload's lines after the job's per-rank lines,
 * as a single run prints them, with times from the job's start. */
static void job_reports(job_run *j)
{
    inf_report inf = {0};
    inf_summary sum;
    (void)inf_report_run(&j->s, &j->run, &inf, &sum, j->out);
    inf_report_free(&inf);
    if (!j->s.failed)
        serving_report_print(&j->s, &j->run, j->out);
}

static void job_free(job_run *j)
{
    if (!j->started)
        return;
    outputs_close(j->outs);
    workload_free_all(&j->run);
    system_fini(&j->s);
    sys_config_free(&j->s.cfg);
    mem_config_free(&j->s.mem);
    comm_group_config_free(&j->s.groups);
    free(j->s.npu_scale);
    j->s.npu_scale = NULL;
    if (j->out)
        fclose(j->out);
    free(j->text);
    free(j->report);
    free(j->label);
    j->out = NULL;
}

/* ---- one run of some jobs ------------------------------------------------ */

/* The one timeline of all jobs (outputs.h: one group of processes per job). */
static int open_timeline(net_run *jr, const char *path)
{
    char err[4200];
    if (parent_dirs_make(path, err, sizeof err) != 0) {
        run_fail(jr, "%s", err);
        return -1;
    }
    if (!(jr->timeline = fopen(path, "w"))) {
        run_fail(jr, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    outputs_timeline_begin(jr->timeline);
    jr->timeline_first = true;
    return 0;
}

static void close_timeline(net_run *jr, const char *path)
{
    outputs_timeline_end(jr->timeline);
    bool bad = ferror(jr->timeline) != 0;
    if (fclose(jr->timeline) != 0 || bad)
        run_fail(jr, "%s: write failed", path);
    jr->timeline = NULL;
}

/* Runs the jobs `which[0..n)` of the file together (one job: alone, from
 * t = 0, without output files). Places the jobs first when `place`. */
static int run_some(net_run *jr, const jobs_spec *spec, const size_t *which, uint32_t n, bool place,
                    const sim_options *base, FILE *log)
{
    memset(jr, 0, sizeof *jr);
    jr->spec = spec;
    jr->log = log;
    jr->n_jobs = n;
    jr->jobs = calloc(n, sizeof *jr->jobs);
    jr->views = calloc(n, sizeof *jr->views);
    if (!jr->jobs || !jr->views) {
        run_fail(jr, "out of memory");
        return -1;
    }
    char err[1024];
    if (open_backend(jr) != 0)
        return -1;
    if (place && jobs_spec_place((jobs_spec *)spec, jr->n_npus, err, sizeof err) != 0) {
        run_fail(jr, "%s", err);
        return -1;
    }
    if (base->npu_compute_scale &&
        npu_scale_load(base->npu_compute_scale, jr->n_npus, &jr->npu_scale, err, sizeof err) != 0) {
        run_fail(jr, "%s", err);
        return -1;
    }
    job_net_init(&jr->net, jr->lb.desc, jr->be_ctx, jr->views, n);
    /* Output files and start times are the run of all jobs' (`place`);
     * an alone run writes no file and starts at 0. */
    bool with_files = place;
    if (with_files && base->timeline && open_timeline(jr, base->timeline) != 0)
        return -1;
    uint32_t pid_base = 0;
    for (uint32_t k = 0; k < n && !jr->failed; k++) {
        jr->jobs[k].spec = &spec->jobs[which[k]];
        jr->jobs[k].start = place ? jr->jobs[k].spec->start : 0;
        job_start(jr, &jr->jobs[k], k, base, log, with_files, pid_base);
        pid_base += jr->jobs[k].spec->n_npus;
    }
    if (jr->failed)
        return -1;
    jr->running = true;
    int rc = jr->lb.desc->run(jr->be_ctx);
    jr->running = false;
    if (!jr->failed && rc != VIMANA_OK)
        run_fail(jr, "network backend %s stopped with an error", jr->lb.desc->name);
    for (uint32_t k = 0; k < n && !jr->failed; k++) {
        sim_enter(&jr->jobs[k].s);
        sim_check_end(&jr->jobs[k].s, &jr->jobs[k].run);
    }
    for (uint32_t k = 0; k < n && !jr->failed; k++) {
        job_summarise(&jr->jobs[k]);
        if (place)  /* an alone run's lines are not printed */
            job_reports(&jr->jobs[k]);
        /* Completes the job's output files now: a failed write fails the run. */
        outputs *o = jr->jobs[k].outs;
        jr->jobs[k].outs = NULL;
        outputs_close(o);
    }
    if (!jr->failed && jr->timeline)
        close_timeline(jr, base->timeline);
    return jr->failed ? -1 : 0;
}

static void run_free(net_run *jr)
{
    for (uint32_t k = 0; jr->jobs && k < jr->n_jobs; k++)
        job_free(&jr->jobs[k]);
    if (jr->lb.desc && jr->be_ctx)
        jr->lb.desc->fini(jr->be_ctx);
    jr->be_ctx = NULL;
    backend_unload(&jr->lb);
    if (jr->timeline)
        fclose(jr->timeline);
    jr->timeline = NULL;
    job_net_fini(&jr->net);
    free(jr->jobs);
    free(jr->views);
    free(jr->npu_scale);
    jr->npu_scale = NULL;
    jr->jobs = NULL;
    jr->views = NULL;
}

/* ---- printing ------------------------------------------------------------ */

/* The physical NPUs as ranges in rank order: "0-3", "0,2,4,6", "8-11,0-3". */
static void print_npus(FILE *out, const job_spec *j)
{
    for (uint32_t i = 0; i < j->n_npus;) {
        uint32_t k = i;
        while (k + 1 < j->n_npus && j->npus[k + 1] == j->npus[k] + 1)
            k++;
        fprintf(out, "%s%u", i ? "," : "", j->npus[i]);
        if (k > i)
            fprintf(out, "-%u", j->npus[k]);
        i = k + 1;
    }
}

static void print_job(FILE *out, const job_run *shared, const job_run *alone)
{
    const job_spec *j = shared->spec;
    char dims[JOBS_DIMS_TEXT];
    fprintf(out, "job %s: %u NPUs, dims %s, start %llu, on NPUs ", j->name, j->n_npus,
            jobs_dims_text(j, dims, sizeof dims), (unsigned long long)j->start);
    print_npus(out, j);
    fputc('\n', out);
    fflush(shared->out);
    fwrite(shared->text, 1, shared->text_len, out);
    vimana_tick duration = shared->finish - j->start, solo = alone->finish;
    fprintf(out, "job %s: finished at %llu cycles, took %llu cycles, exposed communication %llu cycles; alone: "
                 "%llu cycles, exposed communication %llu cycles; slowdown %.4f\n", j->name,
            (unsigned long long)shared->finish, (unsigned long long)duration, (unsigned long long)shared->exposed,
            (unsigned long long)solo, (unsigned long long)alone->exposed,
            solo ? (double)duration / (double)solo : 1.0);
}

/* ---- the whole command --------------------------------------------------- */

static void print_error(const net_run *jr, FILE *log, FILE *err_log)
{
    if (!jr->error[0])
        return;
    fprintf(log, "vimana: error: %s\n", jr->error);
    if (err_log)
        fprintf(err_log, "vimana: error: %s\n", jr->error);
}

/* Each job alone, from t = 0, on a fresh backend. Its warnings were the
 * shared run's already: they are dropped. */
static int run_alone(const jobs_spec *spec, size_t k, const sim_options *base, net_run *alone, FILE *log,
                     FILE *err_log)
{
    char *text = NULL;
    size_t len = 0;
    FILE *quiet = open_memstream(&text, &len);
    int rc = run_some(alone, spec, &k, 1, false, base, quiet ? quiet : log);
    if (quiet)
        fclose(quiet);
    if (rc != 0) {
        if (text)
            fwrite(text, 1, len, log);
        print_error(alone, log, err_log);
    }
    free(text);
    return rc;
}

/* The traces of the jobs given as generator specs, written to a fresh
 * folder (removed by remove_generated) as DIR/NAME.et, the single file
 * every rank runs. Returns the folder (NULL when no job needs one). */
static int write_generated(jobs_spec *spec, char **dir, char *err, size_t len)
{
    *dir = NULL;
    for (size_t k = 0; k < spec->n_jobs; k++) {
        job_spec *j = &spec->jobs[k];
        if (j->gen == GEN_NONE)
            continue;
        if (!*dir) {
            const char *tmp = getenv("TMPDIR");
            size_t n = strlen(tmp && tmp[0] ? tmp : "/tmp") + 32;
            if (!(*dir = malloc(n)))
                return snprintf(err, len, "out of memory"), -1;
            snprintf(*dir, n, "%s/vimana-jobs.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
            if (!mkdtemp(*dir)) {
                snprintf(err, len, "%s: cannot create a folder for the generated traces: %s", *dir, strerror(errno));
                free(*dir);
                *dir = NULL;
                return -1;
            }
        }
        size_t n = strlen(*dir) + strlen(j->name) + 2;
        if (!(j->workload = malloc(n)))
            return snprintf(err, len, "out of memory"), -1;
        snprintf(j->workload, n, "%s/%s", *dir, j->name);
        if (jobs_generate(j->gen, j->gen_size, j->n_npus, j->workload, err, len) != 0)
            return -1;
    }
    return 0;
}

static void remove_generated(const jobs_spec *spec, char *dir)
{
    if (!dir)
        return;
    for (size_t k = 0; k < spec->n_jobs; k++) {
        const job_spec *j = &spec->jobs[k];
        if (j->gen == GEN_NONE || !j->workload)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s.et", j->workload);
        unlink(path);
    }
    rmdir(dir);
    free(dir);
}

static int jobs_simulate(const sim_options *opt, FILE *out, FILE *log, FILE *err_log)
{
    jobs_spec spec;
    char err[1024];
    if (jobs_spec_load(opt->jobs, &spec, err, sizeof err) != 0) {
        fprintf(log, "vimana: error: %s\n", err);
        if (err_log)
            fprintf(err_log, "vimana: error: %s\n", err);
        jobs_spec_free(&spec);
        return 1;
    }
    char *gen_dir = NULL;
    if (write_generated(&spec, &gen_dir, err, sizeof err) != 0) {
        fprintf(log, "vimana: error: %s\n", err);
        if (err_log)
            fprintf(err_log, "vimana: error: %s\n", err);
        remove_generated(&spec, gen_dir);
        jobs_spec_free(&spec);
        return 1;
    }
    size_t *all = malloc(spec.n_jobs * sizeof *all);
    net_run shared, *alone = calloc(spec.n_jobs, sizeof *alone);
    int status = 1;
    if (all && alone) {
        for (size_t k = 0; k < spec.n_jobs; k++)
            all[k] = k;
        status = run_some(&shared, &spec, all, (uint32_t)spec.n_jobs, true, opt, log) == 0 ? 0 : 1;
        if (status != 0)
            print_error(&shared, log, err_log);
        for (size_t k = 0; k < spec.n_jobs && status == 0; k++)
            status = run_alone(&spec, k, opt, &alone[k], log, err_log) == 0 ? 0 : 1;
        for (size_t k = 0; k < spec.n_jobs && status == 0; k++)
            print_job(out, &shared.jobs[k], &alone[k].jobs[0]);
        run_free(&shared);
        for (size_t k = 0; k < spec.n_jobs; k++)
            run_free(&alone[k]);
    } else {
        fputs("vimana: error: out of memory\n", log);
    }
    free(all);
    free(alone);
    remove_generated(&spec, gen_dir);
    jobs_spec_free(&spec);
    fflush(out);
    return status;
}

int jobs_run(const sim_options *opt, FILE *out, FILE *log)
{
    return sim_run_logged(opt, out, log, jobs_simulate);
}
