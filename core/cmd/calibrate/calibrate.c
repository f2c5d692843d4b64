/* `vimana calibrate` (see the header): options, then read, fit, write. */
#include "cmd/calibrate/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/system_config.h"
#include "cmd/calibrate/calibrate_fit.h"
#include "cmd/calibrate/calibrate_input.h"
#include "cmd/calibrate/calibrate_output.h"
#include "system/algorithms/algorithm.h"
#include "system/algorithms/registry.h"
#include "util/msg_escape.h"
#include "util/number_text.h"
#include "vimana/network_yaml.h"

#define PROG "vimana calibrate"

static void usage(FILE *out)
{
    fputs("Usage: vimana calibrate NCCL_TESTS_OUTPUT... --topology FILE -o DIR [--system FILE] [--check]\n"
          "                        [--max-error PCT] [--nvlink-busbw GBPS|GPU]\n"
          "Fits the NCCL-aware collective model (docs/nccl.md) to the tables nccl-tests' *_perf programs\n"
          "print (all_reduce, all_gather, reduce_scatter, alltoall; one file per collective and rank\n"
          "count: the ranks its '#  Rank N' header lines list, else FILE's NPUs, on FILE's links) and\n"
          "writes a preset into DIR: network.yml, system.json, fit-report.md\n"
          "(per size: measured, simulated, error) and fit.svg (both curves against size).\n"
          "Options:\n"
          "  --topology FILE  network YAML of the measured system (required): one dimension, or several\n"
          "                   (NVLink first, `nvlink-dims` of them, then the NIC: [Switch, Switch] of\n"
          "                   [8, 2] for two nodes of 8 GPUs, the NIC at one GPU's rate): NCCL's flat\n"
          "                   ring over all GPUs (oneNccl); a file on fewer ranks runs on the leading\n"
          "                   dimensions whose NPUs multiply to its ranks\n"
          "  -o, --out DIR    the preset folder, created if missing (required)\n"
          "  --system FILE    start from the \"nccl\" parameters of this system JSON (default: the\n"
          "                   defaults); the parameters calibrate does not fit keep its values\n"
          "  --check          fit nothing: report how the --system parameters (a preset made on\n"
          "                   other measurements) predict these\n"
          "  --max-error PCT  fail (exit 1, naming the row) when a row's |error| exceeds PCT %, after\n"
          "                   writing the preset and its report for inspection (default 25; 'off': never)\n"
          "  --nvlink-busbw GBPS|GPU  the bus bandwidth NCCL's ring reaches at most over NVLink, in GB/s\n"
          "                   (10^9 B/s): NCCL's own NVLink rate per link times the GPU's links, or a GPU\n"
          "                   (v100 120, a100 240, h100 and h200 370.8, b200 721.8); the fit keeps\n"
          "                   nvlink-efficiency at or below it on the topology's NVLink links (default: the\n"
          "                   links' nominal rate)\n"
          "  -h, --help       this text\n"
          "The fit: least squares on the relative error of every row; where that leaves a row outside\n"
          "its target (5 % from 1 MiB up, 15 % below), a last minimax step is kept when it holds every\n"
          "row (docs/calibrate.md).\n",
          out);
}

typedef struct calib_args {
    const char **files;
    int n_files;
    const char *topology, *out_dir, *system;
    bool check;    /* --check: no fit, the report of the parameters as given */
    double max_error_pct; /* --max-error: the largest |error| accepted; < 0: any */
    double nvlink_busbw;  /* --nvlink-busbw, GB/s (10^9 B/s); 0: none */
} calib_args;

#define DEFAULT_MAX_ERROR_PCT 25.0

/* --max-error's value: a percentage above 0 (up to 10^6), or "off" (-1).
 * 0, or 2 after one error line. */
static int parse_max_error(const char *v, double *out, FILE *err)
{
    char shown[128];
    if (strcmp(v, "off") == 0) {
        *out = -1;
        return 0;
    }
    double pct;
    if (!finite_number_parse(v, &pct) || !(pct > 0 && pct <= 1e6)) {
        fprintf(err, PROG ": error: --max-error: expected a percentage above 0 (e.g. 25) or 'off', got '%s'\n",
                msg_escape(v, shown, sizeof shown));
        return 2;
    }
    *out = pct;
    return 0;
}

/* NCCL's NVLink rate per link times the GPU's NVLink links: what its ring
 * over NVLink reaches at most (the nominal 25 / 50 GB/s a link carries
 * framing NCCL does not count). */
static const struct {
    const char *gpu;
    double gbps;
} nvlink_busbw_of[] = {
    {"v100", 6 * 20.0}, {"a100", 12 * 20.0}, {"h100", 18 * 20.6}, {"h200", 18 * 20.6}, {"b200", 18 * 40.1},
};

/* --nvlink-busbw's value: GB/s in (0, 10^6], or a GPU of the table. 0, or
 * 2 after one error line. */
static int parse_nvlink_busbw(const char *v, double *out, FILE *err)
{
    char shown[128];
    for (size_t i = 0; i < sizeof nvlink_busbw_of / sizeof nvlink_busbw_of[0]; i++)
        if (strcmp(v, nvlink_busbw_of[i].gpu) == 0) {
            *out = nvlink_busbw_of[i].gbps;
            return 0;
        }
    double gbps;
    if (!finite_number_parse(v, &gbps) || !(gbps > 0 && gbps <= 1e6)) {
        fprintf(err,
                PROG ": error: --nvlink-busbw: expected GB/s above 0 (e.g. 370.8) or one of v100, a100, h100, h200, "
                     "b200, got '%s'\n",
                msg_escape(v, shown, sizeof shown));
        return 2;
    }
    *out = gbps;
    return 0;
}

/* "--opt VALUE" or "--opt=VALUE": 1 when argv[*i] is the option (value in
 * *value, NULL when missing), 0 otherwise. */
static int option(char **argv, int argc, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

static int parse_args(int argc, char **argv, calib_args *a, FILE *out, FILE *err)
{
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files) {
        fputs(PROG ": error: out of memory\n", err);
        return 1;
    }
    a->max_error_pct = DEFAULT_MAX_ERROR_PCT;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL, **slot = NULL, *name = NULL, *max_error = NULL, *busbw = NULL;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(out);
            return -1;
        }
        if (strcmp(argv[i], "--check") == 0) {
            a->check = true;
            continue;
        }
        if (option(argv, argc, &i, "--topology", &v))
            slot = &a->topology, name = "--topology";
        else if (option(argv, argc, &i, "--out", &v) || option(argv, argc, &i, "-o", &v))
            slot = &a->out_dir, name = "--out";
        else if (option(argv, argc, &i, "--system", &v))
            slot = &a->system, name = "--system";
        else if (option(argv, argc, &i, "--max-error", &v))
            slot = &max_error, name = "--max-error";
        else if (option(argv, argc, &i, "--nvlink-busbw", &v))
            slot = &busbw, name = "--nvlink-busbw";
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            char shown[128];
            fprintf(err, PROG ": error: unknown option '%s' (see vimana calibrate --help)\n",
                    msg_escape(argv[i], shown, sizeof shown));
            return 2;
        } else {
            a->files[a->n_files++] = argv[i];
            continue;
        }
        if (!v || !*v) {
            fprintf(err, PROG ": error: %s needs a value\n", name);
            return 2;
        }
        *slot = v;
        if (max_error && parse_max_error(max_error, &a->max_error_pct, err) != 0)
            return 2;
        if (busbw && parse_nvlink_busbw(busbw, &a->nvlink_busbw, err) != 0)
            return 2;
    }
    const char *missing = a->n_files == 0 ? "NCCL_TESTS_OUTPUT" : !a->topology ? "--topology" : !a->out_dir ? "--out" : NULL;
    if (missing) {
        fprintf(err, PROG ": error: missing %s (see vimana calibrate --help)\n", missing);
        return 2;
    }
    return 0;
}

/* Whether the all-reduce of `cfg` runs an NCCL-model algorithm (its
 * descriptor's nccl_model) on each of several dimensions: then calibrate keeps that composition (one phase per
 * dimension, localBWAware) instead of NCCL's flat ring (oneNccl). */
static bool lists_nccl_per_dimension(const sys_config *cfg)
{
    const algo_spec *impl = cfg->impl[COLL_ALL_REDUCE];
    uint32_t n = cfg->n_impl[COLL_ALL_REDUCE];
    algo_registry builtin = {0};
    for (uint32_t d = 0; d < n; d++) {
        const algorithm *alg = algo_registry_get(&builtin, impl[d].id);
        if (impl[d].one || !alg || !alg->nccl_model)
            return false;
    }
    return n > 1;
}

/* The starting parameters of each collective: the defaults, or the
 * --system file's; *hierarchical when that file lists "nccl" per
 * dimension. */
static int start_params(const calib_args *a, nccl_params p[COLL_KINDS], bool *hierarchical, FILE *err)
{
    *hierarchical = false;
    for (int k = 0; k < COLL_KINDS; k++)
        nccl_params_default(&p[k]);
    if (!a->system)
        return 0;
    sys_config cfg;
    char why[1024];
    if (sys_config_load(a->system, 1.0, algo_registry_builtin_names(), &cfg, why, sizeof why, NULL, NULL) != 0) {
        fprintf(err, PROG ": error: %s\n", why);
        sys_config_free(&cfg);
        return 1;
    }
    memcpy(p, cfg.nccl, sizeof cfg.nccl);
    *hierarchical = lists_nccl_per_dimension(&cfg);
    sys_config_free(&cfg);
    return 0;
}

static int load_topology(const char *path, vimana_net_config *net, FILE *err)
{
    char why[1024];
    if (vimana_net_load(path, net, why, sizeof why, NULL, NULL) != 0) {
        fprintf(err, PROG ": error: %s\n", why);
        return 1;
    }
    return 0;
}

/* On several dimensions a file's rows run on the leading dimensions whose
 * NPUs multiply to its rank count (8 ranks on 8 x 2: the first): 0, or 1
 * after one line naming the file and both counts. */
static int check_ranks(const char *path, const vimana_net_config *net, const calib_data *data, size_t from,
                       FILE *err)
{
    for (size_t i = from; i < data->n; i++) {
        if (calib_prefix_dims(net, data->pts[i].npus) != 0)
            continue;
        char shown[512], counts[256];
        size_t at = 0;
        for (uint32_t d = 0; d < net->n_dims && at < sizeof counts; d++)
            at += (size_t)snprintf(counts + at, sizeof counts - at, "%s%u", d ? " x " : "", net->dims[d].npus);
        fprintf(err, PROG ": error: %s: measured on %u ranks, but no leading dimensions of the topology (%s = %u NPUs) "
                     "hold that many\n", msg_escape(path, shown, sizeof shown), data->pts[i].npus, counts, net->total_npus);
        return 1;
    }
    return 0;
}

/* Writes DIR/name with `write`; 0, or 1 after one error line. */
static int write_file(const char *dir, const char *name, int (*write)(FILE *, const void *), const void *arg,
                      FILE *err)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len), shown[512];
    if (!path) {
        fputs(PROG ": error: out of memory\n", err);
        return 1;
    }
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    int rc = f ? write(f, arg) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(err, PROG ": error: %s: cannot write: %s\n", msg_escape(path, shown, sizeof shown),
                strerror(errno ? errno : EIO));
    free(path);
    return rc != 0;
}

static int w_network(FILE *f, const void *r)
{
    return calib_write_network(f, ((const calib_result *)r)->net);
}

static int w_system(FILE *f, const void *r)
{
    const calib_result *res = r;
    return calib_write_system(f, res->p, res->net->n_dims, res->hierarchical);
}

static int w_report(FILE *f, const void *r)
{
    return calib_write_report(f, r);
}

static int w_svg(FILE *f, const void *r)
{
    return calib_write_svg(f, r);
}

static int write_preset(const calib_args *a, const calib_result *r, FILE *err)
{
    char shown[512];
    if (mkdir(a->out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(err, PROG ": error: %s: cannot create the folder: %s\n",
                msg_escape(a->out_dir, shown, sizeof shown), strerror(errno));
        return 1;
    }
    return write_file(a->out_dir, "network.yml", w_network, r, err) ||
           write_file(a->out_dir, "system.json", w_system, r, err) ||
           write_file(a->out_dir, "fit-report.md", w_report, r, err) ||
           write_file(a->out_dir, "fit.svg", w_svg, r, err);
}

/* The rows of collective k in *sub (a copy; its rows point at the same
 * file names). Returns -1 when out of memory. */
static int rows_of(const calib_data *data, enum coll_kind k, calib_data *sub)
{
    *sub = (calib_data){0};
    sub->pts = malloc((data->n ? data->n : 1) * sizeof *sub->pts);
    if (!sub->pts)
        return -1;
    for (size_t i = 0; i < data->n; i++)
        if (data->pts[i].coll == k)
            sub->pts[sub->n++] = data->pts[i];
    sub->cap = data->n;
    sub->nvlink_efficiency_max = data->nvlink_efficiency_max;
    return 0;
}

/* The parameters only all-reduce reads (NVLS and tree; the other
 * collectives run rings) stay all-reduce's in the others, so that a
 * collective's object in the preset lists what really differs. Changes no
 * time: the others never read them. */
static void share_all_reduce_only(nccl_params p[COLL_KINDS])
{
    const nccl_params *ar = &p[COLL_ALL_REDUCE];
    for (int k = 0; k < COLL_KINDS; k++) {
        if (k == COLL_ALL_REDUCE)
            continue;
        p[k].nvls_hop_ns = ar->nvls_hop_ns;
        p[k].nvls_min_bytes = ar->nvls_min_bytes;
        p[k].tree_max_bytes = ar->tree_max_bytes;
        p[k].nvls_efficiency = ar->nvls_efficiency;
        p[k].nvls_wide_min_bytes = ar->nvls_wide_min_bytes;
        /* within its own channel count (the system JSON checks it) */
        p[k].nvls_channels = ar->nvls_channels <= p[k].channels ? ar->nvls_channels : 0;
    }
}

/* Whether p holds the targets on the rows (|error| <= 5 % from 1 MiB up,
 * <= 15 % below: the acceptance, docs/calibrate.md). */
static bool meets_targets(const nccl_params *p, const vimana_net_config *d, const calib_data *data)
{
    for (size_t i = 0; i < data->n; i++) {
        const calib_point *pt = &data->pts[i];
        double e = fabs(((double)calib_model_ticks(p, d, pt) - pt->measured_ns) / pt->measured_ns);
        if (e > (pt->tests_bytes >= 1048576 ? 0.05 : 0.15))
            return false;
    }
    return true;
}

/* The collectives measured: one parameter set fitted to all rows; with
 * several, each collective the shared set misses the targets on is fitted
 * to its own rows from the start values and keeps its own set when that
 * is cheaper (NCCL tunes algorithm, protocol and channels per collective:
 * docs/calibrate.md). A collective without rows takes the shared set.
 * Returns 0, or 1 after one error line. */
static int fit_collectives(nccl_params p[COLL_KINDS], const vimana_net_config *d, const calib_data *data, FILE *err)
{
    const nccl_params start[COLL_KINDS] = {p[0], p[1], p[2], p[3]};
    nccl_params shared = p[COLL_ALL_REDUCE];
    calib_fit(&shared, d, data);
    calib_round_for_preset(&shared);
    for (int k = 0; k < COLL_KINDS; k++) {
        calib_data sub;
        p[k] = shared;
        if (rows_of(data, (enum coll_kind)k, &sub) != 0) {
            fputs(PROG ": error: out of memory\n", err);
            return 1;
        }
        if (sub.n > 0 && sub.n < data->n && !meets_targets(&shared, d, &sub)) {
            nccl_params own = start[k];
            calib_fit(&own, d, &sub);
            calib_round_for_preset(&own);
            if (calib_cost(&own, d, &sub) < calib_cost(&shared, d, &sub))
                p[k] = own;
        }
        free(sub.pts);
    }
    share_all_reduce_only(p);
    return 0;
}

/* A fit (or a --check) whose worst row is beyond --max-error fails
 * loudly: most often the topology or the rank count is not the measured
 * system's, and a preset quietly 300 % off would mislead every run made
 * with it. The preset stays written, to be looked at. 0, or 1 after one
 * line naming the row. */
static int check_max_error(const calib_args *a, const calib_result *r, FILE *err)
{
    double e;
    const calib_point *pt = calib_worst_row(r, &e);
    if (a->max_error_pct < 0 || !pt || fabs(e) <= a->max_error_pct)
        return 0;
    char file[512], dir[512];
    double simulated = (double)calib_model_ticks(&r->p[pt->coll], r->net, pt);
    fprintf(err, PROG ": error: %s:%u: %s on %u ranks, %llu B: %s %.3f us, measured %.3f us (%+.1f %%), beyond "
                 "--max-error %g %% (is --topology the measured system?); preset and fit-report.md left in %s\n",
            msg_escape(pt->file, file, sizeof file), pt->line, calib_coll_tests_name(pt->coll), pt->npus,
            (unsigned long long)pt->tests_bytes, a->check ? "the --system preset gives" : "fitted", simulated / 1000,
            pt->measured_ns / 1000, e, a->max_error_pct, msg_escape(a->out_dir, dir, sizeof dir));
    return 1;
}

/* --nvlink-busbw as the highest nvlink-efficiency: the ceiling over the
 * fastest NVLink dimension's rate as the backend reports it (GB/s of
 * 2^30 B), so that no NVLink dimension's ring passes it; 0 without the
 * option or an NVLink dimension. */
static double nvlink_efficiency_max(const calib_args *a, const nccl_params *p, const vimana_net_config *net)
{
    double fastest = 0;
    for (uint32_t d = 0; d < net->n_dims && (double)d < p->nvlink_dims; d++)
        fastest = fmax(fastest, net->dims[d].bytes_per_ns);
    return a->nvlink_busbw > 0 && fastest > 0 ? a->nvlink_busbw / fastest : 0;
}

static int run(const calib_args *a, FILE *out, FILE *err)
{
    vimana_net_config net;
    nccl_params p[COLL_KINDS];
    bool hierarchical;
    if (load_topology(a->topology, &net, err) != 0 || start_params(a, p, &hierarchical, err) != 0)
        return 1;
    calib_data data = {0};
    for (int i = 0; i < a->n_files; i++) {
        char why[1024];
        size_t from = data.n;
        if (calib_read_file(a->files[i], net.total_npus, &data, why, sizeof why) != 0) {
            fprintf(err, PROG ": error: %s\n", why);
            calib_data_free(&data);
            return 1;
        }
        if (check_ranks(a->files[i], &net, &data, from, err) != 0) {
            calib_data_free(&data);
            return 1;
        }
    }
    for (size_t i = 0; i < data.n; i++)
        data.pts[i].hierarchical = hierarchical;
    data.nvlink_efficiency_max = nvlink_efficiency_max(a, &p[COLL_ALL_REDUCE], &net);
    int rc = a->check ? 0 : fit_collectives(p, &net, &data, err);
    calib_result r = {p, &net, &data, a->topology, a->check, hierarchical};
    if (rc == 0)
        rc = write_preset(a, &r, err);
    if (rc == 0)
        rc = check_max_error(a, &r, err);
    if (rc == 0)
        fprintf(out, "vimana calibrate: %zu points %s; preset in %s (fit-report.md: per-size errors)\n", data.n,
                a->check ? "checked, not fitted" : "fitted", a->out_dir);
    calib_data_free(&data);
    return rc;
}

int calibrate_main(int argc, char **argv, FILE *out, FILE *err)
{
    calib_args a = {0};
    /* The compute model belongs to the ET generator (the simulator never
     * sees a GEMM's shape): its calibration is a vimana-et command. */
    if (argc > 1 && strcmp(argv[1], "compute") == 0) {
        fputs(PROG ": error: the compute model is fitted by `vimana-et calibrate-compute GEMMS.csv... -o DIR` "
                   "(docs/transformer.md, \"Calibrating a device\")\n", err);
        return 2;
    }
    int rc = parse_args(argc, argv, &a, out, err);
    if (rc == 0)
        rc = run(&a, out, err);
    free(a.files);
    return rc < 0 ? 0 : rc;
}
