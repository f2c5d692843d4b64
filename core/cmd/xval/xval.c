/*
 * `vimana xval`: the command. Parses its own options, checks the rest
 * with the simulator's own parser (they are given to every run), finds
 * the backends, runs each one in a child (cmd/xval/xval_child.h), computes the
 * ratios and the verdict and writes the outputs.
 */
/* mkdtemp, strdup. */
#define _XOPEN_SOURCE 700

#include "cmd/xval/xval.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/backend_loader.h"
#include "sim/options.h"
#include "cmd/xval/xval_child.h"
#include "cmd/xval/xval_diverge.h"
#include "cmd/xval/xval_diverge_output.h"
#include "cmd/xval/xval_diverge_plot.h"
#include "cmd/xval/xval_output.h"
#include "cmd/xval/xval_plot.h"
#include "cmd/xval/xval_report.h"
#include "util/msg_escape.h"
#include "util/number_text.h"

#define PROG "vimana xval"

typedef struct name_list {
    char **names;
    size_t n, cap;
} name_list;

typedef struct xval_args {
    const char *backends;   /* --backends, or NULL for every backend found */
    const char *baseline;
    bool has_tolerance;
    double tolerance;
    double timeout_s;
    const char *csv, *json, *plot;
    const char *divergence_plot; /* --divergence-plot: per-collective durations as SVG */
    uint32_t npu;           /* whose collectives the divergence report compares */
    size_t top_links;       /* links shown in the divergence report's text */
    const char *backend_options; /* --backend-options: items for all, NAME:items for one backend */
    char **pass;            /* the simulator's options, given to every run */
    int n_pass;
} xval_args;

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: vimana xval --workload-configuration=PREFIX --system-configuration=FILE.json\n"
            "                   --network-configuration=FILE [--backends=NAME,...] [OPTIONS]\n\n"
            "Runs one workload with each network backend (every one vimana finds, or those named),\n"
            "each in its own process, and prints per backend the finish time (the last NPU's, and\n"
            "the sum over NPUs), its ratio to the baseline's, the CPU and wall time and the peak\n"
            "memory; a run's warnings are shown, each line after its backend's name. Then, with two\n"
            "backends or more, where they differ: one NPU's collectives with each backend's duration\n"
            "and its ratio to the baseline's, the first collective outside the band, and the links\n"
            "whose records differ most among the backends that count per-link traffic.\n"
            "Exits 1 when a backend fails or, with --tolerance, a ratio leaves the band; 2 for bad\n"
            "usage. Every other option is a vimana option, given to every run.\n\nOptions:\n");
    static const char *const rows[][2] = {
        {"--backends=NAME,...", "backends to run, names or paths (default: every backend found)"},
        {"--baseline=NAME", "the backend the ratios are to (default analytical; run first)"},
        {"--tolerance=X", "fail when a finish time differs from the baseline's by more than X times it"},
        {"--timeout=SECONDS", "stop a backend's run after this long (an error row; default none)"},
        {"--backend-options=ITEM,...", "K=V for every backend, NAME:K=V for backend NAME only (e.g. garnet:vcs=64)"},
        {"--csv=FILE", "also write the table as CSV (and FILE.collectives.csv, FILE.links.csv)"},
        {"--json=FILE", "also write the table and the divergence report as JSON"},
        {"--plot=FILE.svg", "draw the finish times as an SVG bar chart"},
        {"--npu=N", "the NPU whose collectives are compared (default 0)"},
        {"--top-links=N", "links shown in the divergence report (default 10; all in --csv and --json)"},
        {"--divergence-plot=FILE.svg", "draw each backend's per-collective durations and ratios as SVG lines"},
        {"--help", "show this help"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(out, "  %-36s %s\n", rows[i][0], rows[i][1]);
}

/* ---- the list of backends -------------------------------------------------- */

static int list_add(name_list *l, const char *name, size_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **grown = realloc(l->names, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->names = grown;
        l->cap = cap;
    }
    char *copy = strndup(name, len);
    if (!copy)
        return -1;
    l->names[l->n++] = copy;
    return 0;
}

/* The length of a backend's name without a trailing ".so" or ".la":
 * "analytical", "analytical.so" and "analytical.la" are one backend (a
 * path with a folder stays its own). */
static size_t stem_len(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && (!strcmp(name + n - 3, ".so") || !strcmp(name + n - 3, ".la")) ? n - 3 : n;
}

static bool same_backend(const char *a, const char *b)
{
    size_t n = stem_len(a);
    return n == stem_len(b) && !strncmp(a, b, n);
}

static bool list_has(const name_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (same_backend(l->names[i], name))
            return true;
    return false;
}

static void list_free(name_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The module names (file name less .la or .so) in one folder. */
static int scan_dir(const char *dir, name_list *l)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int rc = 0;
    for (struct dirent *e = readdir(d); e && rc == 0; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        size_t stem = n > 3 && (!strcmp(e->d_name + n - 3, ".la") || !strcmp(e->d_name + n - 3, ".so")) ? n - 3 : 0;
        if (stem == 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)stem, e->d_name);
        if (!list_has(l, name))
            rc = list_add(l, name, strlen(name));
    }
    closedir(d);
    return rc;
}

/* Every backend found where --network-backend looks for a bare name,
 * sorted by name. */
static int discover(name_list *l)
{
    char dirs[4096];
    backend_default_search_path(dirs, sizeof dirs);
    for (char *save = NULL, *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
        if (scan_dir(dir, l) != 0)
            return -1;
    qsort(l->names, l->n, sizeof *l->names, by_name);
    return 0;
}

static int split_backends(const char *spec, name_list *l, FILE *err)
{
    char esc[512];
    for (const char *p = spec;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            fprintf(err, PROG ": error: --backends: empty name in '%s'\n", msg_escape(spec, esc, sizeof esc));
            return -1;
        }
        char name[256];
        if (len >= sizeof name) {
            fprintf(err, PROG ": error: --backends: a name is longer than %zu bytes\n", sizeof name - 1);
            return -1;
        }
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (list_has(l, name)) {
            fprintf(err, PROG ": error: --backends: '%s' is listed twice (a name with or without .so or .la is one "
                         "backend)\n", msg_escape(name, esc, sizeof esc));
            return -1;
        }
        if (list_add(l, p, len) != 0)
            return -1;
        p += len;
        if (!*p)
            return 0;
    }
}

/* The baseline runs first: moved (or added) to the front. */
static int baseline_first(name_list *l, const char *baseline)
{
    size_t at = 0;
    while (at < l->n && !same_backend(l->names[at], baseline))
        at++;
    if (at == l->n && list_add(l, baseline, strlen(baseline)) != 0)
        return -1;
    char *b = l->names[at];
    memmove(l->names + 1, l->names, at * sizeof *l->names);
    l->names[0] = b;
    return 0;
}

/* ---- options --------------------------------------------------------------- */

/* The simulator options a comparison cannot pass on, and why. */
static const char *const refused[][2] = {
    {"network-backend", "use --backends=NAME,..."},
    {"report", "each run's report is read by xval; use --csv or --json"},
    {"timeline", "every run would write the same file"},
    {"logging-folder", "every run would write the same files"},
    {"progress", "the runs' output is not shown"},
};

static int check_refused(const char *arg, FILE *err)
{
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    size_t len = strcspn(arg + 2, "=");
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strlen(refused[i][0]) == len && !strncmp(arg + 2, refused[i][0], len)) {
            fprintf(err, PROG ": error: --%s cannot be used with xval: %s\n", refused[i][0], refused[i][1]);
            return -1;
        }
    return 0;
}

static int parse_number(const char *flag, const char *v, bool positive, double *out, FILE *err)
{
    char esc[256];
    double x;
    if (!finite_number_parse(v, &x) || x < 0 || (positive && x == 0)) {
        fprintf(err, PROG ": error: --%s: expected a %s number, got '%s'\n", flag,
                positive ? "positive" : "non-negative", msg_escape(v, esc, sizeof esc));
        return -1;
    }
    *out = x;
    return 0;
}

/* A whole number from `min` to `max` (decimal digits only: no sign, no
 * exponent, which strtoull would take or wrap). */
static int parse_count(const char *flag, const char *v, unsigned long long min, unsigned long long max,
                       unsigned long long *out, FILE *err)
{
    char *end, esc[256];
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (!v[0] || strspn(v, "0123456789") != strlen(v) || *end || errno || x < min || x > max) {
        fprintf(err, PROG ": error: --%s: expected a whole number from %llu to %llu, got '%s'\n", flag, min, max,
                msg_escape(v, esc, sizeof esc));
        return -1;
    }
    *out = x;
    return 0;
}

/* The value of `--name=V` or `--name V` when arg is that flag: 1 with *value
 * set (NULL when missing), 0 when arg is another flag. */
static int own_flag(const char *name, char **argv, int argc, int *i, const char **value)
{
    const char *arg = argv[*i] + 2;
    size_t n = strlen(name);
    if (strncmp(argv[*i], "--", 2) != 0 || strncmp(arg, name, n) != 0 || (arg[n] != '=' && arg[n] != '\0'))
        return 0;
    *value = arg[n] == '=' ? arg + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

/* --npu or --top-links: 1 when stored, -1 after an error line. */
static int own_count(const char *flag, const char *v, unsigned long long min, unsigned long long max, xval_args *a,
                     FILE *err)
{
    unsigned long long x;
    if (parse_count(flag, v, min, max, &x, err) != 0)
        return -1;
    if (!strcmp(flag, "npu"))
        a->npu = (uint32_t)x;
    else
        a->top_links = (size_t)x;
    return 1;
}

/* 1 when argv[*i] is one of xval's own options (stored), 0 when it is not,
 * -1 after an error line. */
static int own_option(char **argv, int argc, int *i, xval_args *a, FILE *err)
{
    static const char *const names[] = {"backends", "baseline",  "tolerance", "timeout",         "csv",
                                        "json",     "plot",      "npu",       "top-links",       "divergence-plot",
                                        "backend-options"};
    const char *v = NULL;
    size_t k = 0;
    while (k < sizeof names / sizeof names[0] && !own_flag(names[k], argv, argc, i, &v))
        k++;
    if (k == sizeof names / sizeof names[0])
        return 0;
    if (!v || !v[0]) {
        fprintf(err, PROG ": error: --%s needs a value (--%s=VALUE)\n", names[k], names[k]);
        return -1;
    }
    switch (k) {
    case 0: a->backends = v; return 1;
    case 1: a->baseline = v; return 1;
    case 2: a->has_tolerance = true; return parse_number("tolerance", v, false, &a->tolerance, err) ? -1 : 1;
    case 3: return parse_number("timeout", v, true, &a->timeout_s, err) ? -1 : 1;
    case 4: a->csv = v; return 1;
    case 5: a->json = v; return 1;
    case 6: a->plot = v; return 1;
    case 7: return own_count("npu", v, 0, UINT32_MAX, a, err);
    case 8: return own_count("top-links", v, 1, SIZE_MAX, a, err);
    case 9: a->divergence_plot = v; return 1;
    default: a->backend_options = v; return 1;
    }
}

/* 0 to run, 1 for --help, -1 after an error line. a->pass (argv[0]
 * "vimana", then the simulator's options) is allocated in every case. */
static int parse_args(int argc, char **argv, xval_args *a, FILE *err)
{
    memset(a, 0, sizeof *a);
    a->baseline = "analytical";
    a->top_links = 10;
    a->pass = calloc((size_t)argc + 4, sizeof *a->pass);
    if (!a->pass) {
        fprintf(err, PROG ": error: out of memory\n");
        return -1;
    }
    a->pass[a->n_pass++] = "vimana";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
        int own = own_option(argv, argc, &i, a, err);
        if (own < 0 || (own == 0 && check_refused(argv[i], err) != 0))
            return -1;
        if (own == 0)
            a->pass[a->n_pass++] = argv[i];
    }
    /* The simulator's parser checks the rest now, rather than every run. */
    sim_options opt;
    char why[512];
    enum options_result r = sim_options_parse(a->n_pass, a->pass, &opt, why, sizeof why);
    if (r == OPTIONS_ERROR)
        fprintf(err, PROG ": error: %s\n", why);
    else if (r != OPTIONS_RUN)
        fprintf(err, PROG ": error: --version cannot be used with xval\n");
    return r == OPTIONS_RUN ? 0 : -1;
}

/* ---- per-backend options ------------------------------------------------------ */

/* An item of --backend-options is NAME:K=V when a ':' comes before any
 * '=' (K=V alone is for every backend); *name_len is NAME's length, 0
 * for an item for all. */
static const char *option_item(const char *item, size_t len, size_t *name_len)
{
    size_t colon = strcspn(item, ":="), eq = strcspn(item, "=");
    *name_len = colon < len && colon < eq && item[colon] == ':' ? colon : 0;
    return *name_len ? item + colon + 1 : item;
}

/* Every NAME: of --backend-options names a backend of the comparison. */
static int check_backend_options(const xval_args *a, const name_list *l, FILE *err)
{
    const char *o = a->backend_options;
    for (const char *p = o; p && *p;) {
        size_t len = strcspn(p, ","), name_len;
        option_item(p, len, &name_len);
        char name[256], esc[600];
        snprintf(name, sizeof name, "%.*s", (int)(name_len < sizeof name ? name_len : sizeof name - 1), p);
        if (name_len && !list_has(l, name)) {
            fprintf(err, PROG ": error: --backend-options: '%s' names no backend of this comparison\n",
                    msg_escape(name, esc, sizeof esc));
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* "--backend-options=" and the items for `backend` (those for all, then
 * its own, in the order given) into buf; an empty string when there are
 * none. */
static void options_for(const xval_args *a, const char *backend, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = a->backend_options; p && *p;) {
        size_t len = strcspn(p, ","), name_len;
        const char *kv = option_item(p, len, &name_len);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(name_len < sizeof name ? name_len : sizeof name - 1), p);
        if (!name_len || same_backend(name, backend)) {
            int n = snprintf(buf + used, size - used, "%s%.*s", used ? "," : "--backend-options=",
                             (int)(len - (size_t)(kv - p)), kv);
            used = n > 0 && (size_t)n < size - used ? used + (size_t)n : used;
        }
        p += len + (p[len] == ',');
    }
}

/* ---- output files ------------------------------------------------------------ */

typedef struct out_files {
    FILE *csv, *json, *plot, *divergence_plot;
    FILE *collectives_csv, *links_csv;  /* beside --csv */
    char collectives_path[4200], links_path[4200];
} out_files;

/* FILE.collectives.csv and FILE.links.csv beside --csv=FILE.csv (or
 * FILE, when it does not end in .csv), as --report FILE.csv names its
 * tables. */
static void side_csv_paths(const char *csv, out_files *o)
{
    size_t len = strlen(csv);
    if (len >= 4 && !strcmp(csv + len - 4, ".csv"))
        len -= 4;
    snprintf(o->collectives_path, sizeof o->collectives_path, "%.*s.collectives.csv", (int)len, csv);
    snprintf(o->links_path, sizeof o->links_path, "%.*s.links.csv", (int)len, csv);
}

static FILE *open_output(const char *path, FILE *err)
{
    if (!path)
        return NULL;
    FILE *f = fopen(path, "w");
    if (!f) {
        char esc[512];
        fprintf(err, PROG ": error: %s: cannot write: %s\n", msg_escape(path, esc, sizeof esc), strerror(errno));
    }
    return f;
}

/* Opened before the runs, so that a wrong path fails at once. */
static int open_outputs(const xval_args *a, out_files *o, FILE *err)
{
    memset(o, 0, sizeof *o);
    if (a->csv)
        side_csv_paths(a->csv, o);
    if ((a->csv && !(o->csv = open_output(a->csv, err))) ||
        (a->csv && !(o->collectives_csv = open_output(o->collectives_path, err))) ||
        (a->csv && !(o->links_csv = open_output(o->links_path, err))) ||
        (a->json && !(o->json = open_output(a->json, err))) || (a->plot && !(o->plot = open_output(a->plot, err))) ||
        (a->divergence_plot && !(o->divergence_plot = open_output(a->divergence_plot, err))))
        return -1;
    return 0;
}

static int close_output(FILE *f, const char *path, FILE *err)
{
    if (!f)
        return 0;
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        char esc[512];
        fprintf(err, PROG ": error: %s: write failed\n", msg_escape(path, esc, sizeof esc));
        return -1;
    }
    return 0;
}

static int close_outputs(const xval_args *a, out_files *o, FILE *err)
{
    int rc = close_output(o->csv, a->csv, err);
    rc |= close_output(o->json, a->json, err);
    rc |= close_output(o->plot, a->plot, err);
    rc |= close_output(o->divergence_plot, a->divergence_plot, err);
    rc |= close_output(o->collectives_csv, o->collectives_path, err);
    rc |= close_output(o->links_csv, o->links_path, err);
    memset(o, 0, sizeof *o);
    return rc;
}

/* ---- the runs ------------------------------------------------------------------ */

typedef struct run_dir {
    char path[1024];
} run_dir;

static int make_run_dir(run_dir *d, FILE *err)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0])
        tmp = "/tmp";
    snprintf(d->path, sizeof d->path, "%s/vimana-xval.XXXXXX", tmp);
    if (!mkdtemp(d->path)) {
        char esc[512];
        fprintf(err, PROG ": error: cannot create a temporary folder in %s: %s\n", msg_escape(tmp, esc, sizeof esc),
                strerror(errno));
        return -1;
    }
    return 0;
}

/* Runs backend number i: its report and standard error are files of the
 * run folder, removed afterwards. */
/* The run's warning lines on xval's standard error, named by the
 * backend (the child's "vimana: " dropped; its own "NAME: " kept when it
 * has one): a comparison must not hide what a run complained of. */
static void show_warnings(const char *errfile, const char *backend, FILE *err)
{
    FILE *f = fopen(errfile, "r");
    if (!f)
        return;
    char line[1024], name[300];
    msg_escape(backend, name, sizeof name);
    size_t n = strlen(name);
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "warning"))
            continue;
        const char *text = strncmp(line, "vimana: ", 8) ? line : line + 8;
        bool named = !strncmp(text, name, n) && text[n] == ':';
        fprintf(err, PROG ": %s%s%s%s", named ? "" : name, named ? "" : ": ", text, strchr(text, '\n') ? "" : "\n");
    }
    fclose(f);
}

static void run_backend(const xval_args *a, const run_dir *d, size_t i, xval_row *row, xval_detail *detail,
                        FILE *err)
{
    char report[1100], errfile[1100], backend_opt[300], report_opt[1200], options[4200];
    snprintf(report, sizeof report, "%s/%zu.json", d->path, i);
    snprintf(errfile, sizeof errfile, "%s/%zu.err", d->path, i);
    snprintf(backend_opt, sizeof backend_opt, "--network-backend=%s", row->backend);
    snprintf(report_opt, sizeof report_opt, "--report=%s", report);
    options_for(a, row->backend, options, sizeof options);
    int n = a->n_pass;
    a->pass[n++] = backend_opt;
    a->pass[n++] = report_opt;
    if (options[0])
        a->pass[n++] = options;
    a->pass[n] = NULL;
    xval_child c = {.argv = a->pass, .report = report, .stderr_path = errfile, .timeout_s = a->timeout_s};
    xval_child_run(&c, row);
    a->pass[a->n_pass] = NULL;
    if (row->status != XVAL_ERROR) {
        show_warnings(errfile, row->backend, err);
        /* A report the finish times were read from is this vimana's own:
         * it fails to parse only when memory runs out; the backend then
         * takes no part in the divergence report. */
        xval_report_read(report, a->npu, detail);
    }
    unlink(report);
    unlink(errfile);
}

/* ---- the verdict ---------------------------------------------------------------- */

/* Ratios to the baseline (row 0) and, with a tolerance, the rows outside
 * the band |finish - baseline| <= tolerance * baseline (that is, |ratio - 1|
 * <= tolerance, computed without the rounding of the ratio). */
static void compare(xval_table *t, const xval_args *a)
{
    const xval_row *base = &t->rows[0];
    for (size_t i = 0; i < t->n; i++) {
        xval_row *r = &t->rows[i];
        if (r->status == XVAL_ERROR || base->status == XVAL_ERROR)
            continue;
        r->has_ratio = base->finish > 0 || r->finish == 0;
        r->ratio = base->finish > 0 ? (double)r->finish / (double)base->finish : 1.0;
        double diff = fabs((double)r->finish - (double)base->finish);
        if (a->has_tolerance && diff > a->tolerance * (double)base->finish)
            r->status = XVAL_OUTSIDE;
    }
}

/* One line per failed or outside backend; returns how many. */
static int report_problems(const xval_table *t, FILE *err)
{
    int problems = 0;
    char name[300], base[300];
    msg_escape(t->baseline, base, sizeof base);
    for (size_t i = 0; i < t->n; i++) {
        const xval_row *r = &t->rows[i];
        msg_escape(r->backend, name, sizeof name);
        if (r->status == XVAL_ERROR)
            fprintf(err, PROG ": %s: error: %s\n", name, r->error);
        else if (r->status == XVAL_OUTSIDE && r->has_ratio)
            fprintf(err, PROG ": %s: finish time %llu is %.6f times %s's %llu, outside the tolerance %.10g\n", name,
                    (unsigned long long)r->finish, r->ratio, base, (unsigned long long)t->rows[0].finish,
                    t->tolerance);
        else if (r->status == XVAL_OUTSIDE)
            fprintf(err, PROG ": %s: finish time %llu against %s's 0, outside the tolerance %.10g\n", name,
                    (unsigned long long)r->finish, base, t->tolerance);
        problems += r->status != XVAL_OK;
    }
    return problems;
}

/* The divergence report follows the table in each form; on standard
 * output only with two backends or more (one has nothing to compare with),
 * while the files always get it, so that a script finds them. */
static void write_outputs(const xval_table *t, const xval_divergence *v, size_t top_links, const out_files *o,
                          FILE *out)
{
    xval_write_table(out, t);
    if (t->n >= 2)
        xval_diverge_write_text(out, t, v, top_links);
    if (o->csv)
        xval_write_csv(o->csv, t);
    if (o->collectives_csv)
        xval_diverge_write_collectives_csv(o->collectives_csv, t, v);
    if (o->links_csv)
        xval_diverge_write_links_csv(o->links_csv, t, v);
    if (o->json)
        xval_write_json(o->json, t, v);
    if (o->plot)
        xval_plot_write(o->plot, t);
    if (o->divergence_plot)
        xval_diverge_plot_write(o->divergence_plot, t, v);
}

/* --npu names an NPU of the runs: the first run that finished says how
 * many there are. Returns 0, or -1 after an error line. */
static int check_npu(const xval_args *a, const xval_table *t, FILE *err)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].status != XVAL_ERROR) {
            if (a->npu < t->rows[i].npus)
                return 0;
            fprintf(err, PROG ": error: --npu=%" PRIu32 ": the runs have %" PRIu32 " NPUs (0 to %" PRIu32 ")\n",
                    a->npu, t->rows[i].npus, t->rows[i].npus - 1);
            return -1;
        }
    return 0;
}

static int backend_names(const xval_args *a, name_list *l, FILE *err)
{
    if (a->backends ? split_backends(a->backends, l, err) : discover(l))
        return -1;
    if (baseline_first(l, a->baseline) != 0) {
        fprintf(err, PROG ": error: out of memory\n");
        return -1;
    }
    return 0;
}

static int run_all(const xval_args *a, const name_list *l, xval_table *t, xval_detail *details, FILE *err)
{
    run_dir d;
    if (make_run_dir(&d, err) != 0)
        return -1;
    for (size_t i = 0; i < l->n; i++) {
        snprintf(t->rows[i].backend, sizeof t->rows[i].backend, "%s", l->names[i]);
        run_backend(a, &d, i, &t->rows[i], &details[i], err);
    }
    rmdir(d.path);
    return 0;
}

static int cross_validate(xval_args *a, FILE *out, FILE *err)
{
    name_list l = {0};
    out_files o = {0};
    xval_table t = {.baseline = a->baseline, .has_tolerance = a->has_tolerance, .tolerance = a->tolerance};
    xval_detail *details = NULL;
    xval_divergence v = {0}; /* freed as it is (empty) when the runs did not happen */
    int status = 2;
    if (backend_names(a, &l, err) != 0 || check_backend_options(a, &l, err) != 0 || open_outputs(a, &o, err) != 0)
        goto done;
    t.rows = calloc(l.n, sizeof *t.rows);
    details = calloc(l.n, sizeof *details);
    if (!t.rows || !details) {
        fprintf(err, PROG ": error: out of memory\n");
        goto done;
    }
    t.n = l.n;
    if (run_all(a, &l, &t, details, err) != 0 || check_npu(a, &t, err) != 0)
        goto done;
    compare(&t, a);
    if (xval_diverge(details, t.n, a->npu, a->has_tolerance ? a->tolerance : 0, &v) != 0) {
        fprintf(err, PROG ": error: out of memory\n");
        goto done;
    }
    write_outputs(&t, &v, a->top_links, &o, out);
    status = report_problems(&t, err) ? 1 : 0;
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(err, PROG ": error: standard output: write failed\n");
        status = 2;
    }
    if (close_outputs(a, &o, err) != 0)
        status = 2;
done:
    close_outputs(a, &o, err);
    xval_divergence_free(&v);
    for (size_t i = 0; details && i < t.n; i++)
        xval_detail_free(&details[i]);
    free(details);
    free(t.rows);
    list_free(&l);
    return status;
}

int xval_main(int argc, char **argv, FILE *out, FILE *err)
{
    xval_args a;
    int parsed = parse_args(argc, argv, &a, err);
    int status = parsed < 0 ? 2 : 0;
    if (parsed > 0)
        usage(out);
    else if (parsed == 0)
        status = cross_validate(&a, out, err);
    free(a.pass);
    return status;
}
