/*
 * linkmap_cmd.c - `vimana-et linkmap`: the per-link records of a
 * `vimana --report FILE.json` as an SVG heat map of the busiest links.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "linkmap/link_model.h"
#include "linkmap/linkmap_svg.h"
#include "timeline/output_file.h"
#include "util/input_file.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et linkmap"
#define DEFAULT_TOP 40
#define MAX_TOP 10000 /* keeps the picture's height within an int */

_Static_assert(LM_MSG_MAX == OUTPUT_FILE_MSG_MAX, "the stages' message sizes differ");

typedef struct {
    const char *report;
    const char *output;
    uint64_t top;
} linkmap_args;

static const char usage[] =
    "Usage: vimana-et linkmap REPORT.json -o OUT.svg [--top N]\n"
    "\n"
    "Draw the link utilisation of a simulation as an SVG heat map: the report\n"
    "written by `vimana --report REPORT.json` with a backend that counts per-link\n"
    "traffic (congestion_aware). One row per link, busiest first (utilisation, then\n"
    "bytes, then report order): \"src -> dst\" (the report's device names, or NPU\n"
    "and switch numbers for an older report), a bar as long as the utilisation\n"
    "(busy ticks / the run's end) coloured from blue (idle) through orange to\n"
    "red (busy all the run), the utilisation in percent, the bytes, the messages\n"
    "and the worst queueing delay (when the report has it); a title with the\n"
    "network's dimensions and links.\n"
    "\n"
    "  -o, --output OUT.svg  picture to write, '-' for stdout\n"
    "  --top N               draw the N busiest links (default 40, at most 10000)\n";

static int parse_top(const char *text, uint64_t *top)
{
    if (cli_u64(PROG, "--top", text, top) != 0)
        return -1;
    if (*top == 0 || *top > MAX_TOP) {
        cli_error(PROG, "--top: expected an integer from 1 to %d, got '%s'", MAX_TOP, text);
        return -1;
    }
    return 0;
}

/* One argument; returns 0 to go on, -1 on a usage error. */
static int parse_one(int argc, char **argv, int *i, linkmap_args *a)
{
    const char *v = NULL;
    int r;
    if ((r = cli_option(PROG, argc, argv, i, "--output|-o", &v)) != 0) {
        a->output = v;
        return r < 0 ? -1 : 0;
    }
    if ((r = cli_option(PROG, argc, argv, i, "--top", &v)) != 0)
        return r < 0 ? -1 : parse_top(v, &a->top);
    if (argv[*i][0] == '-' && argv[*i][1] != '\0') {
        cli_error(PROG, "unknown option '%s' (run `vimana-et linkmap --help`)", argv[*i]);
        return -1;
    }
    if (a->report) {
        cli_error(PROG, "one report only: got '%s' after '%s'", argv[*i], a->report);
        return -1;
    }
    a->report = argv[*i];
    return 0;
}

/* Returns 0 to run, 1 when --help was printed, -1 on a usage error. */
static int parse_args(int argc, char **argv, linkmap_args *a)
{
    memset(a, 0, sizeof *a);
    a->top = DEFAULT_TOP;
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 1;
        if (parse_one(argc, argv, &i, a) != 0)
            return -1;
    }
    const char *missing = !a->report ? "REPORT.json" : !a->output ? "-o OUT.svg" : NULL;
    if (missing) {
        cli_error(PROG, "missing %s (run `vimana-et linkmap --help`)", missing);
        return -1;
    }
    return 0;
}

static int load(const char *path, link_model *m, char err[LM_MSG_MAX])
{
    memset(m, 0, sizeof *m); /* freed by the caller whatever happens */
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0) {
        snprintf(err, LM_MSG_MAX, "%s: %s", path, why);
        return -1;
    }
    if (link_model_load(path, m, err) != 0)
        return -1;
    link_model_sort(m);
    return 0;
}

int cmd_linkmap(int argc, char **argv)
{
    linkmap_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    link_model m;
    char err[LM_MSG_MAX];
    output_file out;
    /* The report is read before the output is created: a bad report
     * leaves no file behind. */
    if (load(a.report, &m, err) != 0 || output_file_open(&out, a.output, err) != 0) {
        link_model_free(&m);
        cli_error(PROG, "error: %s", err);
        return 1;
    }
    linkmap_svg_write(out.f, &m, (size_t)a.top);
    link_model_free(&m);
    if (output_file_commit(&out, err) != 0) {
        cli_error(PROG, "error: %s", err);
        return 1;
    }
    return 0;
}
