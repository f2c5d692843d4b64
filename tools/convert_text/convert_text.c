/*
 * `vimana-et convert text`: converts an ASTRA-sim 1.0 text workload into one
 * Chakra ET per NPU, with the bytes of the reference `chakra_converter Text`
 * for every input it accepts (docs/convert-text.md).
 *
 * The whole input is parsed and checked before the first file is created,
 * so a bad input leaves no files behind; a failed write removes the files
 * this run created.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cli.h"
#include "text_graphs.h"
#include "text_groups.h"
#include "text_plan.h"
#include "text_workload.h"
#include "text_write.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et convert text"

/* One file per NPU: beyond this a typo (2^32) would fill the disk with
 * billions of files before anything else went wrong. */
#define TEXT_MAX_NPUS 1048576u

struct options {
    const char *input;
    const char *output;
    uint64_t npus;
    uint64_t passes;
    uint64_t mp_group; /* --model-parallel-npu-group; 0 when not given */
    bool omit_none;
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: vimana-et convert text --input FILE --output PREFIX --num-npus N [--num-passes P]\n"
            "                              [--omit-none] [--model-parallel-npu-group G]\n"
            "\n"
            "Converts an ASTRA-sim 1.0 text workload into PREFIX.<npu>.et for every NPU, byte for byte\n"
            "what the reference `chakra_converter Text` writes for the modes it accepts. The folder\n"
            "of PREFIX is created when it does not exist.\n"
            "\n"
            "Options:\n"
            "  --input FILE         the text workload (also --input_filename)\n"
            "  --output PREFIX      prefix of the output files (also --output_filename)\n"
            "  --num-npus N         number of NPUs, 1 to 1048576 (also --num_npus)\n"
            "  --num-passes P       number of training passes, at least 1; default 1 (also --num_passes)\n"
            "  --omit-none          leave out collectives whose type is NONE, which the reference\n"
            "                       writes as 0-byte ALL_REDUCEs, and rewire their dependants\n"
            "  --model-parallel-npu-group G\n"
            "                       HYBRID_TRANSFORMER* only; defaults to line 1's model_parallel_NPU_group\n"
            "                       (one of the two is required there). The NPUs form\n"
            "                       model-parallel groups of G consecutive ranks; forward and input-gradient\n"
            "                       collectives run on the NPU's group, weight-gradient ones on the\n"
            "                       data-parallel group of the ranks at the same place in every group.\n"
            "                       G must divide --num-npus. Also writes PREFIX.groups.json for\n"
            "                       `vimana --comm-group-configuration` (also --model_parallel_npu_group)\n"
            "  --num-dims D         accepted for old chakra_converter command lines and ignored, with\n"
            "                       a note: the network configuration decides the dimensions\n"
            "                       (also --num_dims)\n"
            "  --log-filename FILE  accepted for chakra_converter command lines and ignored:\n"
            "                       warnings and errors go to stderr (also --log_filename)\n"
            "  -h, --help           show this help\n"
            "\n"
            "Modes: %s.\n"
            "See docs/convert-text.md.\n",
            text_mode_converted_list());
}

static int read_count(const char *option, const char *text, uint64_t *out)
{
    if (cli_u64(PROG, option, text, out) != 0)
        return -1;
    if (*out == 0) {
        cli_error(PROG, "%s: expected a positive integer, got '%s'", option, text);
        return -1;
    }
    return 0;
}

static int read_npus(const char *text, uint64_t *out)
{
    if (read_count("--num-npus", text, out) != 0)
        return -1;
    if (*out > TEXT_MAX_NPUS) {
        cli_error(PROG, "--num-npus: at most %u NPUs (one file each), got '%s'", TEXT_MAX_NPUS, text);
        return -1;
    }
    return 0;
}

/* The model-parallel groups must tile the NPUs. */
static int read_mp_group(const char *text, struct options *o)
{
    if (read_count("--model-parallel-npu-group", text, &o->mp_group) != 0)
        return -1;
    if (o->npus % o->mp_group != 0) {
        cli_error(PROG, "--model-parallel-npu-group: %" PRIu64 " does not divide --num-npus %" PRIu64, o->mp_group,
                  o->npus);
        return -1;
    }
    return 0;
}

/* Returns 0 to convert, 1 after printing the help, -1 on a usage error. */
static int parse_options(int argc, char **argv, struct options *o)
{
    const char *npus = NULL, *passes = "1", *log_file = NULL, *dims = NULL, *mp_group = NULL;
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        int m;
        if (cli_flag(argv[i], "-h|--help")) {
            usage(stdout);
            return 1;
        }
        if (cli_flag(argv[i], "--omit-none|--omit_none")) {
            o->omit_none = true;
            continue;
        }
        if ((m = cli_option(PROG, argc, argv, &i, "--input|--input_filename|--input-filename", &o->input)) ||
            (m = cli_option(PROG, argc, argv, &i, "--output|--output_filename|--output-filename", &o->output)) ||
            (m = cli_option(PROG, argc, argv, &i, "--num-npus|--num_npus", &npus)) ||
            (m = cli_option(PROG, argc, argv, &i, "--num-passes|--num_passes", &passes)) ||
            (m = cli_option(PROG, argc, argv, &i, "--log-filename|--log_filename", &log_file)) ||
            (m = cli_option(PROG, argc, argv, &i, "--num-dims|--num_dims", &dims)) ||
            (m = cli_option(PROG, argc, argv, &i, "--model-parallel-npu-group|--model_parallel_npu_group",
                            &mp_group))) {
            if (m < 0)
                return -1;
            continue;
        }
        cli_error(PROG, "unknown argument '%s' (run `%s --help`)", argv[i], PROG);
        return -1;
    }
    const char *missing = !o->input    ? "--input"
                          : !o->output ? "--output"
                          : !npus      ? "--num-npus"
                                       : NULL;
    if (missing) {
        cli_error(PROG, "missing %s (run `%s --help`)", missing, PROG);
        return -1;
    }
    if (read_npus(npus, &o->npus) != 0 || read_count("--num-passes", passes, &o->passes) != 0)
        return -1;
    if (mp_group && read_mp_group(mp_group, o) != 0)
        return -1;
    /* The 2022 converter took the number of dimensions; Chakra ETs do not
     * carry it (the network configuration does). */
    if (dims)
        fprintf(stderr, "%s: note: --num-dims %s is ignored: the network configuration gives the dimensions\n",
                PROG, dims);
    return 0;
}

/* mkdir that accepts an existing folder, with the error printed. */
static int make_folder(const char *path)
{
    struct stat st;
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error(PROG, "%s: cannot create the output folder: %s", path, strerror(errno));
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
        cli_error(PROG, "%s: cannot create the output folder: a file of that name exists", path);
        return -1;
    }
    return 0;
}

/* Creates the folders of PREFIX that do not exist yet (mkdir -p of its
 * dirname), as users of the reference's tutorials expect. */
static int create_output_folder(const char *prefix)
{
    char *path = strdup(prefix);
    if (!path) {
        cli_error(PROG, "out of memory");
        return -1;
    }
    char *last = strrchr(path, '/');
    int rc = 0;
    if (last && last != path) {
        *last = '\0';
        /* each ancestor in turn: "a", "a/b", ... */
        for (char *p = strchr(path + 1, '/'); rc == 0 && p; p = strchr(p + 1, '/')) {
            *p = '\0';
            rc = make_folder(path);
            *p = '/';
        }
        if (rc == 0)
            rc = make_folder(path);
    }
    free(path);
    return rc;
}

int cmd_convert_text(int argc, char **argv)
{
    struct options o;
    int parsed = parse_options(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    struct text_workload w;
    struct text_error err;
    if (text_workload_load(o.input, &w, stderr, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    w.mp_group = o.mp_group;
    w.npus = o.npus;
    struct plan plan;
    int rc = text_groups_resolve(&w, stderr, &err);
    if (rc == 0)
        rc = text_build_plan(&w, o.passes, o.omit_none, &plan, &err);
    if (rc == 0) {
        rc = create_output_folder(o.output);
        if (rc == 0)
            rc = text_write_npus(&plan, o.output, o.npus, &err);
        else
            err.msg[0] = '\0';
        text_plan_free(&plan);
    }
    if (rc != 0 && err.msg[0])
        fprintf(stderr, "%s\n", err.msg);
    text_workload_free(&w);
    return rc == 0 ? 0 : 1;
}
