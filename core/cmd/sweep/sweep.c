/*
 * sweep.c - `vimana sweep`: the command line, then the steps: read the
 * sweep file (cmd/sweep/sweep_spec.h), check its keys against the base files
 * (cmd/sweep/sweep_config.h), expand the points (cmd/sweep/sweep_points.h), prepare
 * each point's folder and command or reuse its result, run the pool
 * (cmd/sweep/sweep_runner.h), write the results (cmd/sweep/sweep_output.h).
 */
/* realpath, readlink. */
#define _XOPEN_SOURCE 700

#include "cmd/sweep/sweep.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/options.h"
#include "cmd/sweep/sweep_config.h"
#include "cmd/sweep/sweep_generate.h"
#include "cmd/sweep/sweep_lock.h"
#include "cmd/sweep/sweep_output.h"
#include "cmd/sweep/sweep_plot.h"
#include "cmd/sweep/sweep_points.h"
#include "cmd/sweep/sweep_runner.h"
#include "cmd/sweep/sweep_slurm.h"
#include "cmd/sweep/sweep_spec.h"
#include "util/msg_escape.h"
#include "util/or_die.h"

typedef struct sweep_args {
    const char *spec, *out;
    const char *plot;       /* METRIC:AXIS, or NULL: the sweep file's */
    unsigned jobs;          /* 0: the sweep file's, else the cores */
    int progress;           /* -1: when stderr is a terminal */
    bool slurm;             /* submit a Slurm job array instead */
    bool collect;           /* write the results of the points done; run nothing */
    unsigned batch_i, batch_n;  /* --batch I/N: the points p with p % N == I; N = 0: all */
} sweep_args;

static void usage(FILE *out)
{
    fputs("Usage: vimana sweep SPEC.yaml --out DIR [--jobs N] [--plot METRIC:AXIS]\n"
          "                    [--progress | --no-progress] [--slurm | --collect | --batch I/N]\n\n"
          "Runs every point of the sweep file SPEC.yaml (a base run and axes, or a list of points;\n"
          "see docs/sweep.md), each in its own vimana process, and writes DIR/results.csv and\n"
          "DIR/results.json. Each point's files and result are kept in DIR/points/NNNN/; run the\n"
          "same command again to finish an interrupted sweep (points already done are skipped).\n"
          "One sweep at a time writes into DIR (it locks DIR/.sweep.lock): a second is refused.\n"
          "With `generate: {kind: KIND, ...}` instead of `workload:`, the points generate their\n"
          "workloads with vimana-et generate (axes generate.KEY vary its parameters), once per\n"
          "distinct generator, into DIR/workloads/.\n\n"
          "Options:\n"
          "  --out DIR        the results folder (required; created when missing)\n"
          "  --jobs N         points run at once (default: the sweep file's jobs, else the cores)\n"
          "  --plot METRIC:AXIS  also DIR/plot.svg: METRIC (finish, finish_sum, exposed_mean,\n"
          "                   wall_seconds, peak_memory_kib) against AXIS, a line per other value\n"
          "  --slurm          submit the points as a Slurm job array (sbatch; see docs/sweep.md)\n"
          "  --collect        write DIR/results.* from the points done, run nothing\n"
          "  --batch I/N      run only the points whose index is I modulo N (one array task)\n"
          "  --progress       a progress line on stderr (default: when stderr is a terminal)\n"
          "  --no-progress    no progress line\n"
          "  --help           show this help\n",
          out);
}

/* "--name=value" or "--name value". */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (!strcmp(argv[*i], name) && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int parse_jobs(const char *v, unsigned *jobs)
{
    char *end;
    errno = 0;
    unsigned long n = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
    if (!n || errno || *end || n > 4096)
        return -1;
    *jobs = (unsigned)n;
    return 0;
}

static int parse_batch(const char *v, sweep_args *a)
{
    char *end;
    errno = 0;
    unsigned long i = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 100001;
    if (i > 100000 || errno || *end != '/' || end[1] < '0' || end[1] > '9')
        return -1;
    unsigned long n = strtoul(end + 1, &end, 10);
    if (errno || *end || n > 100000 || i >= n)
        return -1;
    a->batch_i = (unsigned)i;
    a->batch_n = (unsigned)n;
    return 0;
}

/* Returns 0, 1 for --help, or 2 with the message printed. */
static int parse_args(int argc, char **argv, sweep_args *a, FILE *err)
{
    memset(a, 0, sizeof *a);
    a->progress = -1;
    char shown[256];
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
        if (!strcmp(argv[i], "--progress") || !strcmp(argv[i], "--no-progress")) {
            a->progress = argv[i][2] == 'p';
        } else if ((v = option_value(argc, argv, &i, "--out"))) {
            a->out = v;
        } else if (!strcmp(argv[i], "--slurm") || !strcmp(argv[i], "--collect")) {
            *(argv[i][2] == 's' ? &a->slurm : &a->collect) = true;
        } else if ((v = option_value(argc, argv, &i, "--batch"))) {
            if (parse_batch(v, a) != 0) {
                fprintf(err, "vimana sweep: error: --batch: expected I/N with 0 <= I < N, got '%s'\n",
                        msg_escape(v, shown, sizeof shown));
                return 2;
            }
        } else if ((v = option_value(argc, argv, &i, "--plot"))) {
            a->plot = v;
        } else if ((v = option_value(argc, argv, &i, "--jobs"))) {
            if (parse_jobs(v, &a->jobs) != 0) {
                fprintf(err, "vimana sweep: error: --jobs: expected a number from 1 to 4096, got '%s'\n",
                        msg_escape(v, shown, sizeof shown));
                return 2;
            }
        } else if (argv[i][0] == '-' || a->spec) {
            fprintf(err, "vimana sweep: error: unexpected argument '%s' (see vimana sweep --help)\n",
                    msg_escape(argv[i], shown, sizeof shown));
            return 2;
        } else {
            a->spec = argv[i];
        }
    }
    const char *missing = !a->spec ? "the sweep file" : !a->out ? "--out DIR" : NULL;
    if (missing) {
        fprintf(err, "vimana sweep: error: missing %s (see vimana sweep --help)\n", missing);
        return 2;
    }
    if (a->slurm + a->collect + (a->batch_n > 0) > 1) {
        fputs("vimana sweep: error: give one of --slurm, --collect and --batch\n", err);
        return 2;
    }
    return 0;
}

/* a, b and c joined. */
static char *concat(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = or_die(malloc(n));
    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* The child's command line: the point's files, the extra options, its
 * report in the point's folder. */
static char **point_argv(const sweep_spec *s, const sweep_point_files *f, const char *dir)
{
    size_t n = 0, cap = 9 + s->n_options;
    char **argv = calloc(cap, sizeof *argv);
    if (!argv)
        return NULL;
    argv[n++] = strdup("vimana");
    if (f->jobs) {
        /* Its report is one file per job: report.NAME.json (docs/jobs.md). */
        argv[n++] = concat("--jobs=", f->jobs, "");
    } else {
        argv[n++] = concat("--workload-configuration=", f->workload, "");
        argv[n++] = concat("--system-configuration=", f->system, "");
        argv[n++] = concat("--network-configuration=", f->network, "");
        if (f->memory)
            argv[n++] = concat("--remote-memory-configuration=", f->memory, "");
        if (f->groups)
            argv[n++] = concat("--comm-group-configuration=", f->groups, "");
        argv[n++] = concat("--network-backend=", f->backend, "");
    }
    for (size_t i = 0; i < s->n_options; i++)
        argv[n++] = strdup(s->options[i]);
    argv[n++] = concat("--report=", dir, "/report.json");
    argv[n] = NULL;
    return argv;
}

static void argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* The point's settings as one line: a result is reused only for the same. */
static char *signature(const sweep_spec *s, const size_t *row)
{
    size_t len = 64 + strlen(s->workload ? s->workload : "") + strlen(s->system ? s->system : "") +
                 strlen(s->network ? s->network : "") + strlen(s->memory ? s->memory : "") + strlen(s->backend);
    for (size_t i = 0; i < s->n_options; i++)
        len += strlen(s->options[i]) + 1;
    for (size_t a = 0; a < s->n_axes; a++)
        len += strlen(s->axes[a].name) + 2 + (row[a] == SWEEP_BASE ? 0 : strlen(s->axes[a].values[row[a]].text));
    for (size_t i = 0; i < s->n_generate; i++)
        len += strlen(s->generate[i].key) + strlen(s->generate[i].value) + 12;
    char *sig = malloc(len);
    if (!sig)
        return NULL;
    int n = snprintf(sig, len, "workload=%s;system=%s;network=%s;memory=%s;backend=%s;options=",
                     s->workload ? s->workload : "", s->system ? s->system : "", s->network ? s->network : "",
                     s->memory ? s->memory : "", s->backend);
    for (size_t i = 0; i < s->n_options; i++)
        n += snprintf(sig + n, len - (size_t)n, "%s%s", i ? " " : "", s->options[i]);
    for (size_t i = 0; i < s->n_generate; i++)
        n += snprintf(sig + n, len - (size_t)n, ";generate.%s=%s", s->generate[i].key, s->generate[i].value);
    for (size_t a = 0; a < s->n_axes; a++)
        n += snprintf(sig + n, len - (size_t)n, ";%s=%s", s->axes[a].name,
                      row[a] == SWEEP_BASE ? "" : s->axes[a].values[row[a]].text);
    return sig;
}

static int make_dir(const char *path, FILE *err)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return 0;
    char shown[512];
    fprintf(err, "vimana sweep: error: %s: cannot create the folder: %s\n", msg_escape(path, shown, sizeof shown),
            strerror(errno));
    return -1;
}

typedef struct sweep_state {
    sweep_spec spec;
    bool has_plot;
    sweep_plot_spec plot;
    size_t *rows;
    size_t n_points;
    sweep_result *results;
    sweep_task *tasks;
    size_t n_tasks;
    size_t reused;
    sweep_workloads workloads;  /* what the points to run generate (generate: in the sweep file) */
} sweep_state;

/* A point that generates its workload runs the cached copy (generated
 * before the pool starts). */
static void use_generated(sweep_state *st, size_t p, const char *out, sweep_point_files *f)
{
    size_t w = sweep_workloads_add(&st->workloads, &st->spec, st->rows + p * st->spec.n_axes, p, out);
    const sweep_workload *wl = &st->workloads.items[w];
    free(f->workload);
    f->workload = concat(wl->prefix, "", "");
    if (wl->groups)
        f->groups = concat(wl->prefix, ".groups.json", "");
}

/* Point p's task: its changed files and its command. */
static int add_task(sweep_state *st, size_t p, char **dir, char **sig, const char *out, FILE *err)
{
    char why[1024];
    sweep_point_files f;
    int rc = sweep_config_point(&st->spec, st->rows + p * st->spec.n_axes, *dir, &f, why, sizeof why);
    if (rc == 0 && st->spec.n_generate && !f.jobs)
        use_generated(st, p, out, &f);
    if (rc != 0) {
        fprintf(err, "vimana sweep: error: %s\n", why);
    } else {
        st->tasks[st->n_tasks++] = (sweep_task){.point = p, .argv = point_argv(&st->spec, &f, *dir), .dir = *dir,
                                                .signature = *sig, .result = &st->results[p],
                                                .job_reports = f.jobs != NULL};
        *dir = *sig = NULL;
    }
    sweep_point_files_free(&f);
    return rc;
}

/* Each point (of the batch): its folder; its old result when it still
 * holds, else a task for the pool. --collect only reads the results. */
static int prepare_points(sweep_state *st, const sweep_args *a, FILE *err)
{
    char *points = concat(a->out, "/points", "");
    int rc = make_dir(a->out, err) || (!a->collect && make_dir(points, err)) ? -1 : 0;
    for (size_t p = 0; p < st->n_points && rc == 0; p++) {
        if (a->batch_n && p % a->batch_n != a->batch_i)
            continue;
        char num[32];
        snprintf(num, sizeof num, "%04zu", p);
        char *dir = concat(points, "/", num);
        char *sig = signature(&st->spec, st->rows + p * st->spec.n_axes);
        if (sweep_result_reuse(dir, sig, a->collect, &st->results[p]))
            st->reused++;
        else if (!a->collect)
            rc = make_dir(dir, err) != 0 ? -1 : add_task(st, p, &dir, &sig, a->out, err);
        free(dir);
        free(sig);
    }
    free(points);
    return rc;
}

typedef enum { OUT_CSV, OUT_JSON, OUT_PLOT } out_kind;

/* DIR/name, written to a temporary name and renamed: a reader never sees
 * half a file. */
static int write_file(const char *out, const char *name, out_kind kind, const sweep_table *t,
                      const sweep_plot_spec *plot, FILE *err)
{
    char *path = concat(out, "/", name), *tmp = concat(out, "/.", name);
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (f) {
        if (kind == OUT_CSV)
            sweep_write_csv(f, t);
        else if (kind == OUT_JSON)
            sweep_write_json(f, t);
        else
            sweep_plot_write(f, t, plot);
        rc = ferror(f) | fclose(f);
        rc = rc == 0 ? rename(tmp, path) : -1;
    }
    if (rc != 0)
        fprintf(err, "vimana sweep: error: %s: cannot write: %s\n", path, strerror(errno));
    free(path);
    free(tmp);
    return rc;
}

/* Whether a point may generate a transformer, whose groups the sweep passes. */
static bool generates_transformer(const sweep_spec *s)
{
    const sweep_gen_entry *kind = sweep_spec_generate(s, "kind");
    const sweep_axis *kinds = sweep_spec_axis(s, "generate.kind", NULL);
    bool yes = kind && !strcmp(kind->value, "transformer");
    for (size_t v = 0; kinds && v < kinds->n_values; v++)
        yes |= !strcmp(kinds->values[v].text, "transformer");
    return yes;
}

/* The extra options are checked once with vimana's own rules, before any
 * run; those that belong to the sweep cannot be given. */
static int check_options(const sweep_spec *s, FILE *err)
{
    static const char *const owned[] = {"--network-backend", "--report", "--timeline", "--logging-folder",
                                        "--progress", "--workload-configuration", "--system-configuration",
                                        "--network-configuration", "--remote-memory-configuration",
                                        /* last: owned only when a transformer is generated */
                                        "--comm-group-configuration"};
    char shown[256], path[256];
    msg_escape(s->path, path, sizeof path);
    size_t n_owned = sizeof owned / sizeof owned[0] - !generates_transformer(s);
    for (size_t i = 0; i < s->n_options; i++)
        for (size_t k = 0; k < n_owned; k++) {
            size_t n = strlen(owned[k]);
            if (!strncmp(s->options[i], owned[k], n) && (!s->options[i][n] || s->options[i][n] == '=')) {
                fprintf(err, "vimana sweep: error: %s:%zu: options: %s is set by the sweep (%s)\n", path,
                        s->options_line, owned[k],
                        k == n_owned - 1 && generates_transformer(s) ? "the generator writes the groups"
                                                                     : "use the keys or an axis");
                return -1;
            }
        }
    char **argv = calloc(s->n_options + 5, sizeof *argv);
    if (!argv)
        return -1;
    int n = 0;
    argv[n++] = "vimana";
    argv[n++] = "--workload-configuration=w";
    argv[n++] = "--system-configuration=s";
    argv[n++] = "--network-configuration=n";
    for (size_t i = 0; i < s->n_options; i++)
        argv[n++] = s->options[i];
    sim_options opt;
    char why[512];
    enum options_result r = sim_options_parse(n, argv, &opt, why, sizeof why);
    free(argv);
    if (r != OPTIONS_RUN) {
        fprintf(err, "vimana sweep: error: %s:%zu: options: %s\n", path, s->options_line,
                r == OPTIONS_ERROR ? msg_escape(why, shown, sizeof shown) : "--help and --version cannot be given");
        return -1;
    }
    return 0;
}

/* --plot wins over the sweep file's plot key; both are checked before any
 * run. */
static int check_plot(sweep_state *st, const sweep_args *a, FILE *err)
{
    const char *text = a->plot ? a->plot : st->spec.plot;
    char why[512], path[256];
    if (!text)
        return 0;
    if (sweep_plot_parse(&st->spec, text, &st->plot, why, sizeof why) != 0) {
        if (a->plot)
            fprintf(err, "vimana sweep: error: --%s\n", why);
        else
            fprintf(err, "vimana sweep: error: %s:%zu: %s\n", msg_escape(st->spec.path, path, sizeof path),
                    st->spec.plot_line, why);
        return -1;
    }
    st->has_plot = true;
    return 0;
}

static int load(sweep_state *st, const sweep_args *a, FILE *err)
{
    char why[1024];
    if (sweep_spec_load(a->spec, &st->spec, why, sizeof why) != 0 || sweep_config_check(&st->spec, why, sizeof why) != 0 ||
        sweep_points_expand(&st->spec, &st->rows, &st->n_points, why, sizeof why) != 0) {
        fprintf(err, "vimana sweep: error: %s\n", why);
        return -1;
    }
    if (check_options(&st->spec, err) != 0 || check_plot(st, a, err) != 0)
        return -1;
    st->results = calloc(st->n_points, sizeof *st->results);
    st->tasks = calloc(st->n_points, sizeof *st->tasks);
    if (!st->results || !st->tasks) {
        fputs("vimana sweep: error: out of memory\n", err);
        return -1;
    }
    return 0;
}

static void state_free(sweep_state *st)
{
    for (size_t i = 0; i < st->n_tasks; i++) {
        argv_free(st->tasks[i].argv);
        free(st->tasks[i].dir);
        free(st->tasks[i].signature);
    }
    free(st->tasks);
    for (size_t p = 0; st->results && p < st->n_points; p++)
        sweep_result_clear(&st->results[p]);
    free(st->results);
    free(st->rows);
    sweep_workloads_free(&st->workloads);
    sweep_spec_free(&st->spec);
}

static unsigned default_jobs(const sweep_args *a, const sweep_spec *s)
{
    if (a->jobs)
        return a->jobs;
    if (s->jobs)
        return s->jobs;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned)cores : 1;
}

static size_t count_status(const sweep_state *st, sweep_status status)
{
    size_t n = 0;
    for (size_t p = 0; p < st->n_points; p++)
        n += st->results[p].status == status;
    return n;
}

static int write_results(sweep_state *st, const sweep_args *a, FILE *err)
{
    sweep_table t = {.spec = &st->spec, .rows = st->rows, .n_points = st->n_points, .results = st->results};
    if (write_file(a->out, "results.csv", OUT_CSV, &t, NULL, err) != 0 ||
        write_file(a->out, "results.json", OUT_JSON, &t, NULL, err) != 0 ||
        (st->has_plot && write_file(a->out, "plot.svg", OUT_PLOT, &t, &st->plot, err) != 0))
        return -1;
    return 0;
}

static int finish(sweep_state *st, const sweep_args *a, int run_rc, FILE *out, FILE *err)
{
    size_t failed = count_status(st, SWEEP_FAILED);
    if (run_rc == 1) {
        size_t left = 0;
        for (size_t i = 0; i < st->n_tasks; i++)
            left += st->tasks[i].result->status == SWEEP_PENDING;
        fprintf(err, "vimana sweep: interrupted: %zu of %zu points left unfinished (run the same command again "
                     "to finish them)\n", left, st->n_tasks + st->reused);
        return 1;
    }
    if (run_rc != 0)
        return 1;
    if (a->batch_n) {
        fprintf(out, "vimana sweep: batch %u/%u: %zu points: %zu run, %zu reused, %zu failed\n", a->batch_i,
                a->batch_n, st->n_tasks + st->reused, st->n_tasks, st->reused, failed);
        return failed ? 1 : 0;
    }
    if (write_results(st, a, err) != 0)
        return 1;
    if (a->collect) {
        size_t pending = count_status(st, SWEEP_PENDING);
        fprintf(out, "vimana sweep: %zu points: %zu collected, %zu not done, %zu failed; results in %s/results.csv\n",
                st->n_points, st->reused - failed, pending, failed, a->out);
        return failed || pending ? 1 : 0;
    }
    fprintf(out, "vimana sweep: %zu points: %zu run, %zu reused, %zu failed; results in %s/results.csv\n",
            st->n_points, st->n_tasks, st->reused, failed, a->out);
    return failed ? 1 : 0;
}

/* The program a Slurm task can start: a build tree's vimana runs as
 * .libs/vimana, which finds its libraries only through the libtool
 * wrapper beside .libs, so the script names the wrapper when it is there. */
static void runnable_exe(char *exe, size_t len)
{
    char *slash = strrchr(exe, '/');
    if (!slash || slash - exe < 6 || strncmp(slash - 6, "/.libs", 6) != 0)
        return;
    char wrapper[4096];
    snprintf(wrapper, sizeof wrapper, "%.*s%s", (int)(slash - 6 - exe), exe, slash);
    if (access(wrapper, X_OK) == 0 && strlen(wrapper) < len)
        memcpy(exe, wrapper, strlen(wrapper) + 1);
}

/* --slurm: the script in DIR/sweep.sbatch, submitted with sbatch. The
 * tasks may start in another folder: every path in it is absolute. */
static int submit(sweep_state *st, const sweep_args *a, FILE *out, FILE *err)
{
    if (make_dir(a->out, err) != 0)
        return 2;
    char exe[4096], why[1024], id[128];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *spec = realpath(a->spec, NULL), *dir = realpath(a->out, NULL);
    int rc = 2;
    if (n > 0 && spec && dir) {
        exe[n] = '\0';
        runnable_exe(exe, sizeof exe);
        char *script = concat(dir, "/sweep.sbatch", "");
        if (sweep_slurm_write(&st->spec, st->n_points, exe, spec, dir, script, why, sizeof why) != 0 ||
            sweep_slurm_submit(script, dir, id, sizeof id, why, sizeof why) != 0) {
            fprintf(err, "vimana sweep: error: %s\n", why);
            rc = 1;
        } else {
            fprintf(out, "vimana sweep: submitted job array %s (%u tasks for %zu points); when it is done: "
                         "vimana sweep %s --out %s --collect\n", id, sweep_slurm_tasks(&st->spec, st->n_points),
                    st->n_points, a->spec, a->out);
            rc = 0;
        }
        free(script);
    } else {
        fprintf(err, "vimana sweep: error: cannot find the absolute paths of vimana, the sweep file and --out\n");
    }
    free(spec);
    free(dir);
    return rc;
}

/* The results folder, created when missing, locked for this run. */
static int take_lock(const char *out, FILE *err)
{
    char why[1024];
    if (make_dir(out, err) != 0)
        return -1;
    int fd = sweep_lock_take(out, why, sizeof why);
    if (fd < 0)
        fprintf(err, "vimana sweep: error: %s\n", why);
    return fd;
}

int sweep_main(int argc, char **argv, FILE *out, FILE *err)
{
    sweep_args a;
    int rc = parse_args(argc, argv, &a, err);
    if (rc == 1)
        usage(out);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    sweep_state st;
    memset(&st, 0, sizeof st);
    if (load(&st, &a, err) != 0) {
        state_free(&st);
        return 2;
    }
    if (a.slurm) {
        rc = submit(&st, &a, out, err);
        state_free(&st);
        return rc;
    }
    /* --batch tasks of one Slurm array share the folder by design, each
     * with its own points; any other run holds it alone until it exits. */
    int lock = a.batch_n ? -1 : take_lock(a.out, err);
    if (!a.batch_n && lock < 0) {
        state_free(&st);
        return 2;
    }
    unsigned jobs = default_jobs(&a, &st.spec);
    if (prepare_points(&st, &a, err) != 0 ||
        sweep_workloads_generate(&st.workloads, &st.spec, st.rows, jobs, err) != 0) {
        state_free(&st);
        if (lock >= 0)
            close(lock);
        return 2;
    }
    sweep_pool pool = {.jobs = jobs, .total = st.n_points, .done_before = st.reused,
                       .err = err, .progress = a.progress == -1 ? isatty(fileno(err)) : a.progress == 1};
    fflush(out);
    rc = sweep_runner_run(st.tasks, st.n_tasks, &pool);
    rc = finish(&st, &a, rc, out, err);
    state_free(&st);
    if (lock >= 0)
        close(lock);
    return rc;
}
