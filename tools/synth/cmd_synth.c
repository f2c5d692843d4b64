/* `vimana-et synth fit`: learn the statistics of ET sets into a JSON model
 * (synth/fit_model.h). `synth sample` is planned (docs/synth.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/et_files.h"
#include "etcmd/sink.h"
#include "synth/fit_model.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et synth"

static const char usage[] =
    "Usage: vimana-et synth fit PREFIX_OR_FILE... -o MODEL.json\n"
    "Learn the statistics of one or more ET sets (each PREFIX.0.et, PREFIX.1.et, ...)\n"
    "into a JSON model: the node-kind mix (comp_gpu, comp_cpu, send, recv, load, store,\n"
    "metadata, invalid, one kind per collective type), per kind the 0, 5, ..., 100 %\n"
    "quantiles of duration_micros and of sizes (comm_size, tensor_size), the counts of\n"
    "kind-to-kind transitions along file order, the fan-in histogram (data + control\n"
    "dependencies, the last bucket 16 or more) and the quantiles of dependency id\n"
    "distances. No node name or other string of the traces goes into the model.\n"
    "`synth sample` (ETs drawn from a model) is planned: see docs/synth.md.\n";

/* Adds every node of one file; returns 0 or -1 after printing one line. */
static int fit_file(fit_model *m, const char *path, size_t rank, size_t n_ranks)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        cli_error(PROG, "error: %s", err.msg);
        return -1;
    }
    const vet_node *n;
    int rc = fit_model_begin_file(m, rank, n_ranks) == 0 ? 1 : -2;
    while (rc == 1 && (rc = vet_reader_next(r, &n, &err)) == 1)
        if (fit_model_add(m, n) != 0)
            rc = -2;
    vet_reader_close(r);
    if (rc == 0 && fit_model_end_file(m) != 0)
        rc = -2;
    if (rc == -2) {
        cli_error(PROG, "out of memory");
        return -1;
    }
    if (rc < 0) {
        cli_error(PROG, "error: %s", err.msg);
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
        int rc = 0;
        for (size_t k = 0; k < files.n && rc == 0; k++)
            rc = fit_file(m, files.paths[k], k, files.n);
        et_files_free(&files);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int parse_fit(int argc, char **argv, char **inputs, int *n_inputs, const char **output,
                     const char **groups)
{
    const char *v;
    for (int i = 1; i < argc; i++) {
        int rc;
        if (cli_flag(argv[i], "-h|--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if ((rc = cli_option(PROG, argc, argv, &i, "-o|--output", &v)) != 0) {
            if (rc < 0)
                return 2;
            *output = v;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--groups", &v)) != 0) {
            if (rc < 0)
                return 2;
            *groups = v;
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

static int run_fit(int argc, char **argv, char **inputs, int *n_inputs)
{
    const char *output = NULL, *groups_path = NULL;
    int rc = parse_fit(argc, argv, inputs, n_inputs, &output, &groups_path);
    if (rc >= 0)
        return rc;
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

int cmd_synth(int argc, char **argv)
{
    if (argc < 2 || cli_flag(argv[1], "-h|--help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "fit") == 0)
        return cmd_fit(argc - 1, argv + 1);
    if (strcmp(argv[1], "sample") == 0) {
        cli_error(PROG, "sample: not built yet (planned: see docs/synth.md)");
        return 2;
    }
    cli_error(PROG, "unknown subcommand '%s' (expected fit)", argv[1]);
    return 2;
}
