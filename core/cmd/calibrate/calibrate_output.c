/* The preset files of `vimana calibrate` (see the header). */
#include "cmd/calibrate/calibrate_output.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/calibrate/calibrate_fit.h"
#include "system/algorithms/nccl_model.h"

/* The shortest %g form that reads back as the same double. */
static const char *num(double v, char *buf, size_t len)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

void calib_round_for_preset(nccl_params *p)
{
    size_t n;
    const nccl_param_info *t = nccl_param_table(&n);
    for (size_t i = 0; i < n; i++) {
        double *v = nccl_param_ref(p, &t[i]);
        if (!t[i].integer)
            *v = strcmp(t[i].unit, "ns") == 0 ? round(*v * 10) / 10 : round(*v * 1e6) / 1e6;
    }
}

/* One list of the network YAML: "key: [ a, b ]", each value by `item`. */
static void yaml_list(FILE *out, const char *key, const vimana_net_config *net,
                      void (*item)(FILE *, const vimana_net_dim *))
{
    fprintf(out, "%s: [ ", key);
    for (uint32_t i = 0; i < net->n_dims; i++) {
        fputs(i ? ", " : "", out);
        item(out, &net->dims[i]);
    }
    fputs(" ]\n", out);
}

static void y_topology(FILE *out, const vimana_net_dim *d)
{
    fputs(vimana_net_topology_name(d->topology), out);
}

static void y_npus(FILE *out, const vimana_net_dim *d)
{
    fprintf(out, "%u", d->npus);
}

static void y_bandwidth(FILE *out, const vimana_net_dim *d)
{
    char b[40];
    fputs(num(d->bandwidth_gbps, b, sizeof b), out);
}

static void y_latency(FILE *out, const vimana_net_dim *d)
{
    char b[40];
    fputs(num(d->latency_ns, b, sizeof b), out);
}

int calib_write_network(FILE *out, const vimana_net_config *net)
{
    if (net->n_dims == 1)
        fprintf(out, "# Written by vimana calibrate: the measured system as one dimension.\n");
    else
        fprintf(out, "# Written by vimana calibrate: the measured system, %u dimensions.\n", net->n_dims);
    yaml_list(out, "topology", net, y_topology);
    yaml_list(out, "npus_count", net, y_npus);
    yaml_list(out, "bandwidth", net, y_bandwidth);
    yaml_list(out, "latency", net, y_latency);
    return ferror(out) ? -1 : 0;
}

/* The keys of `p` as JSON members, one per line after `indent`; with
 * `shared`, only those whose value differs from it. */
static void write_params(FILE *out, const nccl_params *p, const nccl_params *shared, const char *indent)
{
    size_t n;
    const nccl_param_info *t = nccl_param_table(&n);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        char b[40];
        double v = nccl_param_get(p, &t[i]);
        if (shared && v == nccl_param_get(shared, &t[i]))
            continue;
        fprintf(out, "%s\n%s\"%s\": %s", first ? "" : ",", indent, t[i].key, num(v, b, sizeof b));
        first = false;
    }
}

/* Whether p and q hold the same values. */
static bool same_params(const nccl_params *p, const nccl_params *q)
{
    size_t n;
    const nccl_param_info *t = nccl_param_table(&n);
    for (size_t i = 0; i < n; i++)
        if (nccl_param_get(p, &t[i]) != nccl_param_get(q, &t[i]))
            return false;
    return true;
}

int calib_write_system(FILE *out, const nccl_params *p, uint32_t dims, bool hierarchical)
{
    static const char *const colls[] = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all"};
    fputs("{\n    \"scheduling-policy\": \"LIFO\",\n    \"endpoint-delay\": 10,\n"
          "    \"active-chunks-per-dimension\": 1,\n    \"preferred-dataset-splits\": 1,\n", out);
    for (size_t c = 0; c < sizeof colls / sizeof colls[0]; c++) {
        fprintf(out, "    \"%s-implementation\": [", colls[c]);
        if (dims > 1 && !hierarchical)
            fputs("\"oneNccl\"", out);   /* NCCL's flat ring over every GPU of every node */
        for (uint32_t d = 0; d < dims && (dims == 1 || hierarchical); d++)
            fputs(d ? ", \"nccl\"" : "\"nccl\"", out);
        fputs("],\n", out);
    }
    /* hierarchical: reduce-scatter inside the node, all-reduce across,
     * all-gather back */
    fprintf(out, "    \"collective-optimization\": \"%s\",\n    \"local-mem-bw\": 3350,\n    \"nccl\": {",
            dims > 1 && hierarchical ? "localBWAware" : "baseline");
    /* all-reduce's set is the shared one; another collective's own values
     * follow as an object of the keys that differ */
    write_params(out, &p[0], NULL, "        ");
    for (int k = 1; k < NCCL_COLLS; k++) {
        if (same_params(&p[k], &p[0]))
            continue;
        fprintf(out, ",\n        \"%s\": {", nccl_coll_key(k));
        write_params(out, &p[k], &p[0], "            ");
        fputs("\n        }", out);
    }
    fputs("\n    }\n}\n", out);
    return ferror(out) ? -1 : 0;
}

/* The parameters of the row's collective. */
static const nccl_params *params_of(const calib_result *r, const calib_point *pt)
{
    return &r->p[pt->coll];
}

static double error_pct(const calib_result *r, const calib_point *pt)
{
    return ((double)calib_model_ticks(params_of(r, pt), r->net, pt) - pt->measured_ns) / pt->measured_ns * 100;
}

/* "Switch, 8 NPUs" or, over several dimensions, "Switch x Switch, 8 x 2 NPUs". */
static const char *topology_shape(const vimana_net_config *net, char *buf, size_t len)
{
    size_t at = 0;
    for (uint32_t i = 0; i < net->n_dims && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " x " : "", vimana_net_topology_name(net->dims[i].topology));
    for (uint32_t i = 0; i < net->n_dims && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? " x " : ", ", net->dims[i].npus);
    if (at < len)
        snprintf(buf + at, len - at, " NPUs");
    return buf;
}

/* The algorithm and protocol of each phase of pt's call, joined by '+'
 * (one phase: as NCCL's one call). */
static void phase_choices(const calib_result *r, const calib_point *pt, char *algos, char *protos, size_t len)
{
    calib_phase ph[CALIB_MAX_PHASES];
    size_t n = calib_call_phases(r->net, pt, ph);
    size_t a = 0, b = 0;
    algos[0] = protos[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        nccl_plan plan;
        calib_phase_plan(params_of(r, pt), r->net, &ph[k], k == 0, &plan);
        if (a < len)
            a += (size_t)snprintf(algos + a, len - a, "%s%s", k ? "+" : "", nccl_algo_name(plan.algo));
        if (b < len)
            b += (size_t)snprintf(protos + b, len - b, "%s%s", k ? "+" : "", nccl_proto_name(plan.proto));
    }
}

const calib_point *calib_worst_row(const calib_result *r, double *err_pct)
{
    const calib_point *worst = NULL;
    *err_pct = 0;
    for (size_t i = 0; i < r->data->n; i++) {
        double e = error_pct(r, &r->data->pts[i]);
        if (!worst || fabs(e) > fabs(*err_pct)) {
            worst = &r->data->pts[i];
            *err_pct = e;
        }
    }
    return worst;
}

int calib_write_report(FILE *out, const calib_result *r)
{
    double worst_big = 0, worst_small = 0, log_sum = 0;
    for (size_t i = 0; i < r->data->n; i++) {
        const calib_point *pt = &r->data->pts[i];
        double e = fabs(error_pct(r, pt));
        double *worst = pt->tests_bytes >= 1048576 ? &worst_big : &worst_small;
        *worst = e > *worst ? e : *worst;
        log_sum += log(1 + e / 100);
    }
    char shape[512];
    fprintf(out, "# Fit report\n\nTopology: %s (%s). Rows measured on %s. Model: nccl (docs/nccl.md), %s "
                 "(docs/calibrate.md).\n\n", r->topology_path, topology_shape(r->net, shape, sizeof shape),
            r->net->n_dims == 1 ? "another rank count use the same links with that count"
                                : "fewer ranks run on the leading dimensions that hold them",
            r->checked ? "parameters as given, not fitted (`vimana calibrate --check`)"
                                     : "fitted by `vimana calibrate`");
    fprintf(out, "Points: %zu. Largest error from 1 MiB up: %.2f %%; below 1 MiB: %.2f %%; geometric mean of "
                 "|error|: %.2f %%.\n\n", r->data->n, worst_big, worst_small, (exp(log_sum / (double)r->data->n) - 1) * 100);
    fputs("| source | collective | ranks | nccl-tests size (B) | comm_size (B) | algorithm | protocol | measured (us) | "
          "simulated (us) | error (%) |\n|---|---|---:|---:|---:|---|---|---:|---:|---:|\n", out);
    for (size_t i = 0; i < r->data->n; i++) {
        const calib_point *pt = &r->data->pts[i];
        char algos[256], protos[256];
        phase_choices(r, pt, algos, protos, sizeof algos);
        const char *base = strrchr(pt->file, '/');
        fprintf(out, "| %s:%u | %s | %u | %llu | %llu | %s | %s | %.3f | %.3f | %+.2f |\n", base ? base + 1 : pt->file,
                pt->line, calib_coll_tests_name(pt->coll), pt->npus, (unsigned long long)pt->tests_bytes,
                (unsigned long long)pt->comm_size, algos, protos,
                pt->measured_ns / 1000, (double)calib_model_ticks(params_of(r, pt), r->net, pt) / 1000, error_pct(r, pt));
    }
    return ferror(out) ? -1 : 0;
}

/* ---- the plot: log2 size on x, log10 time on y ---------------------------- */

#define W 760
#define H 480
#define LEFT 80
#define RIGHT 20
#define TOP 40
#define BOTTOM 60

typedef struct axes {
    double x0, x1, y0, y1;   /* log2 bytes, log10 us */
} axes;

static int px(const axes *a, double bytes)
{
    return LEFT + (int)lround((log2(bytes) - a->x0) / (a->x1 - a->x0) * (W - LEFT - RIGHT));
}

static int py(const axes *a, double us)
{
    return H - BOTTOM - (int)lround((log10(us) - a->y0) / (a->y1 - a->y0) * (H - TOP - BOTTOM));
}

static axes bounds(const calib_result *r)
{
    axes a = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t i = 0; i < r->data->n; i++) {
        const calib_point *pt = &r->data->pts[i];
        double lo = fmin(pt->measured_ns, (double)calib_model_ticks(params_of(r, pt), r->net, pt)) / 1000;
        double hi = fmax(pt->measured_ns, (double)calib_model_ticks(params_of(r, pt), r->net, pt)) / 1000;
        a.x0 = fmin(a.x0, floor(log2((double)pt->tests_bytes)));
        a.x1 = fmax(a.x1, ceil(log2((double)pt->tests_bytes)));
        a.y0 = fmin(a.y0, floor(log10(fmax(lo, 1e-3))));
        a.y1 = fmax(a.y1, ceil(log10(fmax(hi, 1e-3))));
    }
    if (a.x1 <= a.x0)
        a.x1 = a.x0 + 1;
    if (a.y1 <= a.y0)
        a.y1 = a.y0 + 1;
    return a;
}

static void grid(FILE *out, const axes *a)
{
    for (double e = a->x0; e <= a->x1; e += a->x1 - a->x0 > 16 ? 4 : 2) {
        int x = px(a, exp2(e));
        static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = (int)e / 10;
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, TOP, x, H - BOTTOM);
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.0f %s</text>\n", x, H - BOTTOM + 18,
                exp2(e - 10 * u), unit[u < 5 ? u : 4]);
    }
    for (double e = a->y0; e <= a->y1; e += 1) {
        int y = py(a, pow(10, e));
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", LEFT, y, W - RIGHT, y);
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%g us</text>\n", LEFT - 6, y + 4, pow(10, e));
    }
}

/* One polyline through the points of one input file (one collective on
 * one rank count). */
static void curve(FILE *out, const calib_result *r, const axes *a, const char *file, bool simulated,
                  const char *colour)
{
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", colour,
            simulated ? " stroke-dasharray=\"6 4\"" : "");
    for (size_t i = 0; i < r->data->n; i++) {
        const calib_point *pt = &r->data->pts[i];
        if (pt->file != file)
            continue;
        double ns = simulated ? (double)calib_model_ticks(params_of(r, pt), r->net, pt) : pt->measured_ns;
        fprintf(out, "%d,%d ", px(a, (double)pt->tests_bytes), py(a, ns / 1000));
    }
    fputs("\"/>\n", out);
}

int calib_write_svg(FILE *out, const calib_result *r)
{
    axes a = bounds(r);
    static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                          "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
                 "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
    fprintf(out, "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Measured (solid) and simulated "
                 "(dashed) time per call</text>\n", W / 2);
    grid(out, &a);
    int legend = 0;
    for (size_t i = 0; i < r->data->n; i++) {
        const calib_point *pt = &r->data->pts[i];
        if (i > 0 && r->data->pts[i - 1].file == pt->file)
            continue;   /* a file's rows are consecutive: one curve each */
        const char *colour = colours[legend % (int)(sizeof colours / sizeof colours[0])];
        curve(out, r, &a, pt->file, false, colour);
        curve(out, r, &a, pt->file, true, colour);
        fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s, %u ranks</text>\n", LEFT + 10, TOP + 16 + 16 * legend++,
                colour, calib_coll_tests_name(pt->coll), pt->npus);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">size (nccl-tests)</text>\n</svg>\n", W / 2, H - 20);
    return ferror(out) ? -1 : 0;
}
