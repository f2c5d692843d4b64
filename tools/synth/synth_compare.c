#include "synth/synth_compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/cli.h"
#include "etcmd/et_files.h"
#include "synth/dist.h"
#include "synth/fit_model.h"
#include "synth/synth_read.h"

/* One set's durations and sizes, per kind. */
typedef struct set_stats {
    uint64_t nodes;
    dist_values duration[FIT_KINDS], size[FIT_KINDS];
    dist_values all_duration, all_size;
} set_stats;

static void stats_free(set_stats *s)
{
    for (int k = 0; k < FIT_KINDS; k++) {
        free(s->duration[k].v);
        free(s->size[k].v);
    }
    free(s->all_duration.v);
    free(s->all_size.v);
}


/* A synth_node_fn: counts one node of a set. */
static int add_node(void *set, const vet_node *n)
{
    set_stats *s = set;
    enum fit_kind k = fit_kind_of(n);
    uint64_t size;
    s->nodes++;
    if (dist_values_push(&s->duration[k], n->duration_micros) != 0 ||
        dist_values_push(&s->all_duration, n->duration_micros) != 0)
        return -1;
    if (fit_node_size(n, k, &size) &&
        (dist_values_push(&s->size[k], size) != 0 || dist_values_push(&s->all_size, size) != 0))
        return -1;
    return 0;
}

static int read_set(const char *prog, const char *arg, set_stats *s)
{
    et_files files;
    if (et_files_resolve(prog, arg, &files) != 0)
        return -1;
    /* a compact workload: each rank's role trace, once per rank */
    int rc = 0;
    int64_t shift;
    for (size_t x = 0; x < et_files_n_ranks(&files) && rc == 0; x++)
        rc = synth_read_nodes(prog, et_files_rank(&files, x, &shift), add_node, s);
    et_files_free(&files);
    for (int k = 0; rc == 0 && k < FIT_KINDS; k++) {
        dist_sort(s->duration[k].v, s->duration[k].n);
        dist_sort(s->size[k].v, s->size[k].n);
    }
    dist_sort(s->all_duration.v, s->all_duration.n);
    dist_sort(s->all_size.v, s->all_size.n);
    return rc;
}

/* KS of two value lists, or -1 (not reported) when either is too small. */
static double ks_or_none(const dist_values *a, const dist_values *b, size_t min)
{
    if (a->n < min || b->n < min || a->n == 0 || b->n == 0)
        return -1;
    return dist_ks(a->v, a->n, b->v, b->n);
}

static double share(const set_stats *s, int k)
{
    return s->nodes ? (double)s->duration[k].n / (double)s->nodes : 0.0;
}

static void put_ks(double ks, bool json)
{
    if (json)
        ks < 0 ? printf("null") : printf("%.6f", ks);
    else
        ks < 0 ? printf("  %8s", "-") : printf("  %8.4f", ks);
}

static void print_report(const set_stats *a, const set_stats *b, bool json)
{
    double worst = 0;
    bool first = true;
    if (json)
        printf("{\n  \"nodes\": [%" PRIu64 ", %" PRIu64 "],\n  \"kinds\": {", a->nodes, b->nodes);
    else
        printf("%-26s %9s %9s %9s %9s %9s\n", "kind", "share A", "share B", "diff", "KS dur", "KS size");
    for (int k = 0; k < FIT_KINDS; k++) {
        if (!a->duration[k].n && !b->duration[k].n)
            continue;
        double sa = share(a, k), sb = share(b, k), d = fabs(sa - sb);
        worst = d > worst ? d : worst;
        double kd = ks_or_none(&a->duration[k], &b->duration[k], COMPARE_MIN_SAMPLES);
        double ksz = ks_or_none(&a->size[k], &b->size[k], COMPARE_MIN_SAMPLES);
        if (json) {
            printf("%s\n    \"%s\": {\"share\": [%.6f, %.6f], \"share_diff\": %.6f, \"ks_duration\": ", first ? "" : ",",
                   fit_kind_name((enum fit_kind)k), sa, sb, d);
            put_ks(kd, true);
            printf(", \"ks_size\": ");
            put_ks(ksz, true);
            printf("}");
        } else {
            printf("%-26s %9.6f %9.6f %9.6f", fit_kind_name((enum fit_kind)k), sa, sb, d);
            put_ks(kd, false);
            put_ks(ksz, false);
            printf("\n");
        }
        first = false;
    }
    double pd = ks_or_none(&a->all_duration, &b->all_duration, 1);
    double ps = ks_or_none(&a->all_size, &b->all_size, 1);
    if (json) {
        printf("\n  },\n  \"max_share_diff\": %.6f,\n  \"ks_duration\": ", worst);
        put_ks(pd, true);
        printf(",\n  \"ks_size\": ");
        put_ks(ps, true);
        printf("\n}\n");
    } else {
        printf("%-26s %9" PRIu64 " %9" PRIu64 " %9.6f", "all (nodes)", a->nodes, b->nodes, worst);
        put_ks(pd, false);
        put_ks(ps, false);
        printf("\n");
    }
}

int synth_compare(const char *prog, const char *a, const char *b, bool json)
{
    set_stats *s = calloc(2, sizeof *s);
    if (!s) {
        cli_error(prog, "out of memory");
        return -1;
    }
    int rc = read_set(prog, a, &s[0]) == 0 && read_set(prog, b, &s[1]) == 0 ? 0 : -1;
    if (rc == 0)
        print_report(&s[0], &s[1], json);
    stats_free(&s[0]);
    stats_free(&s[1]);
    free(s);
    return rc;
}
