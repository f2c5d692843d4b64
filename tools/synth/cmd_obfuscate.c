/* `vimana-et obfuscate`: rewrite a set of ETs for sharing outside a company
 * (synth/obfuscate.h does one file; this is the command line and the
 * PREFIX.k.et -> OUT.k.et loop). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/et_files.h"
#include "synth/obfuscate.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et obfuscate"

static const char usage[] =
    "Usage: vimana-et obfuscate PREFIX_OR_FILE -o OUT [--jitter F --seed S] [--round-sizes BYTES]\n"
    "Rewrite PREFIX.0.et, PREFIX.1.et, ... (up to the first missing rank) as OUT.0.et,\n"
    "OUT.1.et, ... (one FILE: as OUT) for sharing: the same node ids, types, data and\n"
    "control dependencies, durations and the attributes the simulator reads\n"
    "(is_cpu_op, comm_type, comm_size, comm_priority, involved_dim, pg_name, comm_src,\n"
    "comm_dst, comm_tag, num_ops, tensor_size); node names become KIND_ID (comp_17,\n"
    "coll_3, ...); every other attribute, doc strings, inputs/outputs, start times and\n"
    "the global metadata's attributes are dropped (version 0.0.4 is written). A\n"
    "pg_name that is not a number is renamed g0, g1, ... consistently over all files;\n"
    "METADATA process groups keep only pg_name and ranks. Without --jitter and\n"
    "--round-sizes, `vimana` simulates the output to the same cycles.\n"
    "Options:\n"
    "  -o, --output OUT     output prefix (or file, for a single input FILE)\n"
    "  --jitter F           multiply every duration by a factor drawn uniformly from\n"
    "                       [1-F, 1+F] (0 <= F < 1), rounded to the nearest microsecond;\n"
    "                       the factor depends only on (seed, rank, node id)\n"
    "  --seed S             seed of the jitter (default 0): same seed, same bytes\n"
    "  --round-sizes BYTES  round comm_size and tensor_size up to a multiple of BYTES\n";

typedef struct args {
    const char *input;
    const char *output;
    obfuscate_options opt;
} args;

static int parse_jitter(const char *text, double *out)
{
    char *end;
    errno = 0;
    double f = strtod(text, &end);
    if (!text[0] || *end || errno || !isfinite(f) || f < 0.0 || f >= 1.0) {
        cli_error(PROG, "--jitter: expected a fraction F with 0 <= F < 1, got '%s'", text);
        return -1;
    }
    *out = f;
    return 0;
}

/* One option at argv[*i]: 1 taken, 0 not an option of ours, -1 bad. */
static int parse_option(int argc, char **argv, int *i, args *a)
{
    const char *v;
    int rc;
    if ((rc = cli_option(PROG, argc, argv, i, "-o|--output|--out", &v)) != 0) {
        a->output = v;
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--jitter", &v)) != 0)
        return rc < 0 || parse_jitter(v, &a->opt.jitter) != 0 ? -1 : 1;
    if ((rc = cli_option(PROG, argc, argv, i, "--seed", &v)) != 0)
        return rc < 0 || cli_u64(PROG, "--seed", v, &a->opt.seed) != 0 ? -1 : 1;
    if ((rc = cli_option(PROG, argc, argv, i, "--round-sizes", &v)) != 0) {
        if (rc < 0 || cli_size(PROG, "--round-sizes", v, &a->opt.round_sizes) != 0)
            return -1;
        if (a->opt.round_sizes == 0) {
            cli_error(PROG, "--round-sizes: expected at least 1 byte, got '%s'", v);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* Returns CMD-style: -1 to run, else the exit status. */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 0;
        int rc = parse_option(argc, argv, &i, a);
        if (rc < 0)
            return 2;
        if (rc > 0)
            continue;
        if (cli_positional(PROG, argv[i], "PREFIX_OR_FILE", "", &a->input) != 0)
            return 2;
    }
    if (!a->input || !a->output) {
        cli_error(PROG, "missing %s (see --help)", a->input ? "-o OUT" : "PREFIX_OR_FILE");
        return 2;
    }
    return -1;
}

/* Rewrites every file; returns the exit status. */
static int obfuscate_all(const args *a, const et_files *files)
{
    if (cli_make_parent_dirs(PROG, a->output) != 0)
        return 1;
    obfuscate_ctx *c = obfuscate_new(&a->opt);
    size_t cap = strlen(a->output) + 32;
    char *out = malloc(cap);
    if (!c || !out) {
        cli_error(PROG, "out of memory");
        obfuscate_free(c);
        free(out);
        return 1;
    }
    int status = 0;
    char err[768];
    for (size_t k = 0; k < files->n && status == 0; k++) {
        if (files->is_prefix)
            snprintf(out, cap, "%s.%zu.et", a->output, k);
        else
            snprintf(out, cap, "%s", a->output);
        if (strcmp(out, files->paths[k]) == 0) {
            cli_error(PROG, "error: %s: the output would overwrite its input", out);
            status = 1;
        } else if (obfuscate_file(c, files->paths[k], out, k, err, sizeof err) != 0) {
            cli_error(PROG, "error: %s", err);
            status = 1;
        }
    }
    free(out);
    obfuscate_free(c);
    return status;
}

int cmd_obfuscate(int argc, char **argv)
{
    args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    et_files files;
    if (et_files_resolve_ranks(PROG, a.input, &files) != 0)
        return 1;
    rc = obfuscate_all(&a, &files);
    et_files_free(&files);
    return rc;
}
