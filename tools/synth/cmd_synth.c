/* `vimana-et synth fit | sample | compare`: learn the statistics of ET sets
 * into a JSON model (synth/fit_model.h), draw ETs from it
 * (synth/synth_sample.h), measure how close two sets are
 * (synth/synth_compare.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/et_files.h"
#include "etcmd/sink.h"
#include "synth/comm_groups.h"
#include "synth/fit_model.h"
#include "synth/synth_compare.h"
#include "synth/synth_model.h"
#include "synth/synth_read.h"
#include "synth/synth_sample.h"
#include "util/json_doc.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et synth"

static const char usage[] =
    "Usage: vimana-et synth fit PREFIX_OR_FILE... -o MODEL.json [--groups GROUPS.json]\n"
    "       vimana-et synth sample --model MODEL.json --npus N [--seed S] -o PREFIX\n"
    "       vimana-et synth compare PREFIX_A PREFIX_B [--json]\n"
    "fit: learn the statistics of ET sets (each PREFIX.0.et, PREFIX.1.et, ..., or a compact\n"
    "workload's PREFIX.roles.json, every rank reading its role's trace relabelled) into a JSON\n"
    "model: the node-kind mix, per kind the distribution of durations and sizes (exact\n"
    "value/count pairs, or 1 % quantiles), kind transitions, fan-in, dependency distances,\n"
    "and from the first set the communication skeleton sampling replays: communicators\n"
    "(size and stride from --groups, a --comm-group-configuration file (default: the\n"
    "first input's PREFIX.groups.json when it exists), or from METADATA\n"
    "process groups) and, per role (ranks that issue the same events: pipeline stages\n"
    "differ), run-length compressed collective sequences, the steps of local nodes\n"
    "between communication events and their durations; per-rank compute ratios. No node\n"
    "name or other string of the traces goes into the model.\n"
    "sample: write PREFIX.0.et .. PREFIX.(N-1).et (and PREFIX.groups.json when a\n"
    "communicator is not the whole system) drawn from the model; the same seed gives the\n"
    "same bytes (default seed 0). N is at most 65536; a communicator of size g and stride s\n"
    "needs N to be a multiple of g*s; a model of several roles (N0 ranks) samples N a\n"
    "multiple of N0: replicas of its ranks, sends and receives inside each replica.\n"
    "compare: the kind mix of two ET sets, the largest share difference and the\n"
    "two-sample Kolmogorov-Smirnov distance of durations and sizes (per kind with at least\n"
    "20 values in each set, and pooled). See docs/synth.md.\n";

static int fit_node(void *m, const vet_node *n)
{
    return fit_model_add(m, n);
}

/* Adds every node of one file; returns 0 or -1 after printing one line. */
static int fit_file(fit_model *m, const char *path, size_t rank, size_t n_ranks, int64_t peer_shift)
{
    if (fit_model_begin_file(m, rank, n_ranks, peer_shift) != 0) {
        cli_error(PROG, "out of memory");
        return -1;
    }
    if (synth_read_nodes(PROG, path, fit_node, m) != 0)
        return -1;
    if (fit_model_end_file(m) != 0) {
        cli_error(PROG, "out of memory");
        return -1;
    }
    return 0;
}

static int fit_sets(fit_model *m, char **inputs, int n_inputs)
{
    for (int i = 0; i < n_inputs; i++) {
        et_files files;
        if (et_files_resolve(PROG, inputs[i], &files) != 0)
            return -1;
        /* a compact workload: each rank reads its role's trace, relabelled */
        int rc = 0;
        size_t n = et_files_n_ranks(&files);
        for (size_t x = 0; x < n && rc == 0; x++) {
            int64_t shift;
            const char *path = et_files_rank(&files, x, &shift);
            rc = fit_file(m, path, x, n, shift);
        }
        et_files_free(&files);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int parse_fit(int argc, char **argv, char **inputs, int *n_inputs, const char **output,
                     const char **groups)
{
    const cli_text_option texts[] = {{"-o|--output", output}, {"--groups", groups}, {NULL, NULL}};
    for (int i = 1; i < argc; i++) {
        int rc;
        if (cli_help(argv[i], usage))
            return 0;
        if ((rc = cli_text_options(PROG, argc, argv, &i, texts)) != 0) {
            if (rc < 0)
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error(PROG, "unknown option '%s' (see --help)", argv[i]);
            return 2;
        } else {
            inputs[(*n_inputs)++] = argv[i];
        }
    }
    if (*n_inputs == 0 || !*output) {
        cli_error(PROG, "fit: missing %s (see --help)", *n_inputs ? "-o MODEL.json" : "PREFIX_OR_FILE");
        return 2;
    }
    return -1;
}

/* A model whose communicators' sizes are unknown ("size": null) cannot be
 * sampled: say so now, naming the flag, rather than at `synth sample`. */
static int check_samplable(const char *model_path)
{
    json_object *root, *comms;
    char msg[512];
    if (json_doc_load(model_path, model_path, (size_t)1 << 30, "1 GiB", 0, &root, msg, sizeof msg) != 0)
        return 0; /* written just now; sample's reader says what it refuses */
    int status = 0;
    if (json_object_object_get_ex(root, "communicators", &comms) && json_object_is_type(comms, json_type_array))
        for (size_t c = 0; c < json_object_array_length(comms) && status == 0; c++) {
            json_object *size = NULL;
            json_object_object_get_ex(json_object_array_get_idx(comms, c), "size", &size);
            if (size)
                continue;
            cli_error(PROG, "error: %s: communicators[%zu]: its size is unknown, so `synth sample` cannot use the "
                            "model: fit again with --groups FILE (the traces' --comm-group-configuration)",
                      model_path, c);
            status = 1;
        }
    json_object_put(root);
    return status;
}

static int run_fit(int argc, char **argv, char **inputs, int *n_inputs)
{
    const char *output = NULL, *groups_path = NULL;
    int rc = parse_fit(argc, argv, inputs, n_inputs, &output, &groups_path);
    if (rc >= 0)
        return rc;
    /* Without --groups, the communicator file the generators write beside
     * their traces (PREFIX.groups.json), which sample needs. */
    char beside[4200];
    struct stat st;
    snprintf(beside, sizeof beside, "%s.groups.json", inputs[0]);
    if (!groups_path && stat(beside, &st) == 0 && S_ISREG(st.st_mode)) {
        groups_path = beside;
        fprintf(stderr, "vimana-et synth: fit: communicators from %s (--groups FILE chooses another)\n", beside);
    }
    comm_groups groups = {0};
    if (groups_path && comm_groups_read(PROG, groups_path, &groups) != 0)
        return 1;
    fit_model *m = fit_model_new(&groups);
    if (!m) {
        comm_groups_free(&groups);
        cli_error(PROG, "out of memory");
        return 1;
    }
    int status = 1;
    sink *s;
    if (fit_sets(m, inputs, *n_inputs) == 0 && (s = sink_open(PROG, output)) != NULL) {
        int wrc = fit_model_write(m, s);
        status = sink_close(s) == 0 && wrc == 0 ? 0 : 1;
        if (wrc != 0)
            cli_error(PROG, "out of memory");
        if (status == 0 && strcmp(output, "-") != 0)
            status = check_samplable(output);
    }
    fit_model_free(m);
    comm_groups_free(&groups);
    return status;
}

static int cmd_fit(int argc, char **argv)
{
    int n_inputs = 0;
    /* The non-option arguments, in order (argv itself stays as it is). */
    char **inputs = malloc((size_t)argc * sizeof *inputs);
    if (!inputs) {
        cli_error(PROG, "out of memory");
        return 1;
    }
    int status = run_fit(argc, argv, inputs, &n_inputs);
    free(inputs);
    return status;
}

typedef struct sample_args {
    const char *model, *output;
    uint64_t npus, seed;
    bool have_npus;
} sample_args;

/* One option of `synth sample`: 1 taken, 0 not this one, -1 bad. */
static int sample_option(int argc, char **argv, int *i, sample_args *a)
{
    const char *v = NULL;
    int rc;
    if ((rc = cli_option(PROG, argc, argv, i, "--model", &v)) != 0) {
        a->model = v;
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "-o|--output", &v)) != 0) {
        a->output = v;
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--seed", &v)) != 0)
        return rc < 0 || cli_u64(PROG, "--seed", v, &a->seed) != 0 ? -1 : 1;
    if ((rc = cli_option(PROG, argc, argv, i, "--npus", &v)) != 0) {
        if (rc < 0 || cli_u64(PROG, "--npus", v, &a->npus) != 0)
            return -1;
        if (a->npus < 1 || a->npus > SM_MAX_RANKS) {
            cli_error(PROG, "--npus: expected 1 to %d ranks, got '%s'", SM_MAX_RANKS, v);
            return -1;
        }
        a->have_npus = true;
        return 1;
    }
    return 0;
}

static int cmd_sample(int argc, char **argv)
{
    sample_args a = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 0;
        int rc = sample_option(argc, argv, &i, &a);
        if (rc < 0)
            return 2;
        if (rc == 0) {
            cli_error(PROG, argv[i][0] == '-' ? "unknown option '%s' (see --help)"
                                              : "sample: unexpected argument '%s' (see --help)", argv[i]);
            return 2;
        }
    }
    if (!a.model || !a.have_npus || !a.output) {
        cli_error(PROG, "sample: missing %s (see --help)",
                  !a.model ? "--model MODEL.json" : !a.have_npus ? "--npus N" : "-o PREFIX");
        return 2;
    }
    synth_model m;
    if (synth_model_read(PROG, a.model, &m) != 0)
        return 1;
    int rc = synth_sample_write(PROG, a.model, &m, a.npus, a.seed, a.output);
    synth_model_free(&m);
    return rc == 0 ? 0 : 1;
}

static int cmd_compare(int argc, char **argv)
{
    const char *sets[2];
    int n = 0;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 0;
        if (cli_flag(argv[i], "--json"))
            json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error(PROG, "unknown option '%s' (see --help)", argv[i]);
            return 2;
        } else if (n == 2) {
            cli_error(PROG, "compare: expected two sets, got a third '%s' (see --help)", argv[i]);
            return 2;
        } else
            sets[n++] = argv[i];
    }
    if (n < 2) {
        cli_error(PROG, "compare: expected two sets PREFIX_A PREFIX_B (see --help)");
        return 2;
    }
    return synth_compare(PROG, sets[0], sets[1], json) == 0 ? 0 : 1;
}

int cmd_synth(int argc, char **argv)
{
    if (argc < 2 || cli_flag(argv[1], "-h|--help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "fit") == 0)
        return cmd_fit(argc - 1, argv + 1);
    if (strcmp(argv[1], "sample") == 0)
        return cmd_sample(argc - 1, argv + 1);
    if (strcmp(argv[1], "compare") == 0)
        return cmd_compare(argc - 1, argv + 1);
    cli_error(PROG, "unknown subcommand '%s' (expected fit, sample or compare)", argv[1]);
    return 2;
}
