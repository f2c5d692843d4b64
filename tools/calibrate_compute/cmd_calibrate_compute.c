/* `vimana-et calibrate-compute`: GEMM measurements in, a device file out
 * (docs/transformer.md, "Calibrating a device"). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calibrate_compute/cc_fit.h"
#include "calibrate_compute/cc_kineto.h"
#include "calibrate_compute/cc_table.h"
#include "common/cli.h"
#include "transformer/tf_device_file.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et calibrate-compute"
#define DEFAULT_MAX_ERROR_PCT 25.0

static const char usage[] =
    "Usage: vimana-et calibrate-compute GEMMS.csv|TRACE.json... -o DIR [--device h100|h200|a100|PATH]\n"
    "         [--max-error PCT]\n"
    "Fits the GEMM part of the transformer generator's kernel model -- its efficiency\n"
    "at full utilisation and a CTA's fixed cost in steps of K -- to measured 16-bit\n"
    "GEMMs, and writes DIR/device.json (for generate transformer --device DIR) and\n"
    "DIR/fit-report.md (every row: measured, modelled, error).\n"
    "GEMMS.csv: a header naming the columns m, n, k and us (the GEMM's time in\n"
    "microseconds) or tflops (its rate); other columns are ignored, '#' lines are\n"
    "comments. TRACE.json (or .json.gz): a Kineto trace of the PyTorch profiler with\n"
    "record_shapes=True: each 16-bit aten::mm / aten::addmm, its shape from Input Dims\n"
    "and its time the kernels it launched; one row per shape, the median of its calls.\n"
    "Measure under the load training runs at (all GPUs busy): the fit takes the times\n"
    "as given.\n"
    "Options:\n"
    "  -o, --out DIR    the device folder, created if missing (required)\n"
    "  --device D       the device whose other figures (peaks, SMs, tile, attention and\n"
    "                   memory efficiencies) the file keeps: h100 (default), a100 or a\n"
    "                   device file\n"
    "  --max-error PCT  fail (exit 1, naming the row) when a row's |error| exceeds PCT %,\n"
    "                   after writing the files (default 25; 'off': never)\n"
    "  -h, --help       this text\n";

typedef struct args {
    const char **files;
    int n_files;
    const char *out, *device;
    double max_error_pct;
} args;

static int parse_max_error(const char *v, double *out)
{
    char *end;
    if (strcmp(v, "off") == 0) {
        *out = -1;
        return 0;
    }
    errno = 0;
    double pct = strtod(v, &end);
    if (errno || end == v || *end || !(pct > 0 && pct <= 1e6)) {
        cli_error(PROG, "--max-error: expected a percentage above 0 (e.g. 25) or 'off', got '%s'", v);
        return -1;
    }
    *out = pct;
    return 0;
}

/* 0 to run, -1 after --help, 2 on a usage error. */
static int parse(int argc, char **argv, args *a)
{
    const char *v;
    int rc;
    a->max_error_pct = DEFAULT_MAX_ERROR_PCT;
    a->device = "h100";
    const cli_text_option texts[] = {{"--out|-o", &a->out}, {"--device", &a->device}, {NULL, NULL}};
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return -1;
        if ((rc = cli_text_options(PROG, argc, argv, &i, texts)) != 0) {
            if (rc < 0)
                return 2;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--max-error", &v)) != 0) {
            if (rc < 0 || parse_max_error(v, &a->max_error_pct) != 0)
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error(PROG, "unknown option '%s' (see vimana-et calibrate-compute --help)", argv[i]);
            return 2;
        } else {
            a->files[a->n_files++] = argv[i];
        }
    }
    const char *missing = a->n_files == 0 ? "GEMMS.csv" : !a->out ? "--out DIR" : NULL;
    if (missing) {
        cli_error(PROG, "missing %s (see vimana-et calibrate-compute --help)", missing);
        return 2;
    }
    return 0;
}

static int base_device(const char *name, struct tf_device *d)
{
    char msg[512];
    if (tf_device_lookup(name, d) == 0)
        return 0;
    if (tf_device_load(name, d, msg, sizeof msg) == 0)
        return 0;
    cli_error(PROG, "--device: %s", strchr(name, '/') || strstr(name, ".json") ? msg : "unknown device (expected "
              "h100, h200, a100 or a device file)");
    return -1;
}

/* The device file: the fitted GEMM figures, the base's others. */
static void write_device(FILE *f, const struct tf_device *d)
{
    fprintf(f, "{\"name\": \"%s\", \"peak-tflops\": %.9g", d->name, d->peak_flops / 1e12);
    if (d->peak_fp8 > 0)
        fprintf(f, ", \"fp8-peak-tflops\": %.9g", d->peak_fp8 / 1e12);
    fprintf(f, ", \"hbm-tbps\": %.9g, \"sms\": %u,\n \"gemm-tile\": [%u, %u], \"gemm-k-fixed\": %.9g, "
               "\"gemm-efficiency\": %.9g,\n \"attention-efficiency\": {\"forward\": %.9g, \"backward\": %.9g}, "
               "\"memory-efficiency\": %.9g}\n", d->mem_bw / 1e12, d->sms, d->tile_m, d->tile_n, d->k_fixed,
            d->gemm_efficiency, d->attn_fwd_efficiency, d->attn_bwd_efficiency, d->mem_efficiency);
}

static double error_pct(const struct tf_device *d, const cc_row *r)
{
    return (cc_model_seconds(d, r) - r->seconds) / r->seconds * 100;
}

static void write_report(FILE *f, const struct tf_device *d, const cc_table *t, double rms)
{
    fprintf(f, "# Compute fit report\n\nDevice %s: GEMM efficiency %.4f at full utilisation, a CTA's fixed cost %g "
               "steps of K (tile %u x %u, %u SMs, %g TFLOP/s). Rows: %zu; root-mean-square log error %.4f.\n\n",
            d->name, d->gemm_efficiency, d->k_fixed, d->tile_m, d->tile_n, d->sms, d->peak_flops / 1e12, t->n, rms);
    fputs("| row | m | n | k | measured (us) | modelled (us) | error (%) |\n|---|---:|---:|---:|---:|---:|---:|\n", f);
    for (size_t i = 0; i < t->n; i++) {
        const cc_row *r = &t->rows[i];
        char where[300];
        fprintf(f, "| %s | %llu | %llu | %llu | %.3f | %.3f | %+.2f |\n", cc_row_where(r, where, sizeof where),
                (unsigned long long)r->m, (unsigned long long)r->n, (unsigned long long)r->k, r->seconds * 1e6,
                cc_model_seconds(d, r) * 1e6, error_pct(d, r));
    }
}

static int write_file(const char *dir, const char *name, const struct tf_device *d, const cc_table *t, double rms)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    errno = 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error(PROG, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
        return -1;
    }
    if (strcmp(name, "device.json") == 0)
        write_device(f, d);
    else
        write_report(f, d, t, rms);
    if (fclose(f) != 0) {
        cli_error(PROG, "%s: cannot write", path);
        return -1;
    }
    return 0;
}

/* The worst row beyond --max-error: one line naming it, 1; else 0. */
static int check_max_error(const args *a, const struct tf_device *d, const cc_table *t)
{
    const cc_row *worst = NULL;
    double we = 0;
    for (size_t i = 0; i < t->n; i++) {
        double e = error_pct(d, &t->rows[i]);
        if (!worst || fabs(e) > fabs(we))
            worst = &t->rows[i], we = e;
    }
    if (a->max_error_pct < 0 || !worst || fabs(we) <= a->max_error_pct)
        return 0;
    char where[4200];
    if (worst->is_event)
        snprintf(where, sizeof where, "%s traceEvents[%u]", worst->file, worst->line);
    else
        snprintf(where, sizeof where, "%s:%u", worst->file, worst->line);
    cli_error(PROG, "%s: %llu x %llu x %llu: modelled %.3f us, measured %.3f us (%+.1f %%), beyond --max-error %g %%; "
              "device.json and fit-report.md left in %s", where, (unsigned long long)worst->m,
              (unsigned long long)worst->n, (unsigned long long)worst->k, cc_model_seconds(d, worst) * 1e6,
              worst->seconds * 1e6, we, a->max_error_pct, a->out);
    return 1;
}

static int run(const args *a)
{
    struct tf_device d;
    cc_table t = {0};
    char msg[512];
    if (base_device(a->device, &d) != 0)
        return 2;
    for (int i = 0; i < a->n_files; i++) {
        cc_kineto_stats st;
        bool trace = cc_kineto_is_trace(a->files[i]);
        if ((trace ? cc_kineto_read(a->files[i], &t, &st, msg, sizeof msg) : cc_table_read(a->files[i], &t, msg,
                                                                                             sizeof msg)) != 0) {
            cli_error(PROG, "%s", msg);
            cc_table_free(&t);
            return 1;
        }
        if (trace)
            printf("%s: %zu GEMM call%s of 16-bit inputs in %zu shape%s (%zu of other types and %zu without a shape "
                   "left out)\n", a->files[i], st.calls, st.calls == 1 ? "" : "s", st.shapes, st.shapes == 1 ? "" : "s",
                   st.other_dtype, st.no_shape);
    }
    double rms = cc_fit(&d, &t);
    int rc = 0;
    if (mkdir(a->out, 0755) != 0 && errno != EEXIST) {
        cli_error(PROG, "%s: cannot create the folder: %s", a->out, strerror(errno));
        rc = 1;
    }
    if (rc == 0 && (write_file(a->out, "device.json", &d, &t, rms) || write_file(a->out, "fit-report.md", &d, &t, rms)))
        rc = 1;
    if (rc == 0)
        rc = check_max_error(a, &d, &t);
    if (rc == 0)
        printf("vimana-et calibrate-compute: %zu GEMMs fitted: efficiency %.4f, CTA cost %g steps of K; device in %s "
               "(fit-report.md: per-row errors)\n", t.n, d.gemm_efficiency, d.k_fixed, a->out);
    cc_table_free(&t);
    return rc;
}

int cmd_calibrate_compute(int argc, char **argv)
{
    args a = {0};
    a.files = calloc((size_t)argc, sizeof *a.files);
    if (!a.files) {
        cli_error(PROG, "out of memory");
        return 1;
    }
    int rc = parse(argc, argv, &a);
    if (rc == 0)
        rc = run(&a);
    free(a.files);
    return rc < 0 ? 0 : rc;
}
