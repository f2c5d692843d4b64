/*
 * timeline_cmd.c - `vimana-et timeline`: a simulator log (the issue and
 * callback records that "trace-enabled" prints) or a `vimana --report`
 * JSON, as a Chrome/Perfetto trace-event timeline. The log mode is the
 * counterpart of chakra_timeline_visualizer; with --compat it writes that
 * tool's document byte for byte (its times in ms where viewers read us);
 * see docs/timeline.md for what differs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "timeline/log_timeline.h"
#include "timeline/output_file.h"
#include "timeline/report_model.h"
#include "timeline/report_timeline.h"
#include "util/input_file.h"
#include "vimana-et/commands.h"

#define PROG "vimana-et timeline"

/* One message buffer serves every stage. */
_Static_assert(REPORT_MSG_MAX == LOG_TIMELINE_MSG_MAX && OUTPUT_FILE_MSG_MAX == LOG_TIMELINE_MSG_MAX,
               "the stages' message sizes differ");

typedef struct {
    const char *input;
    const char *report;
    const char *output;
    uint64_t num_npus;
    uint64_t npu_mhz;
    bool has_num_npus, has_npu_mhz;
    bool compat, has_time_unit;
    timeline_form compat_form; /* --time-unit, with --compat */
} timeline_args;

static const char usage[] =
    "Usage: vimana-et timeline --input LOG --output OUT.json --num-npus N --npu-frequency MHZ\n"
    "                          [--compat [--time-unit ms|us]]\n"
    "       vimana-et timeline --report REPORT.json --output OUT.json\n"
    "\n"
    "Turn a simulation into a Chrome/Perfetto trace-event timeline (open it in\n"
    "ui.perfetto.dev or chrome://tracing).\n"
    "\n"
    "From a log, as chakra_timeline_visualizer does: the `issue,...` and `callback,...`\n"
    "records that the simulator prints with \"trace-enabled\": 1 in the system JSON\n"
    "(vimana on stderr; the reference ASTRA-sim in its log, after spdlog's prefix, which\n"
    "is skipped). Each callback closes the issue of the same NPU and node id and\n"
    "becomes one slice: pid = NPU, tid = the node's category, from its name as the\n"
    "reference decides, else from its node->type: 1 local memory, 2 remote memory,\n"
    "3 compute, 4 communication, 5 other (METADATA/INVALID nodes). Each process and\n"
    "thread is named (\"NPU 0\", \"compute\", ...). ts and dur are microseconds, as\n"
    "trace viewers read them, written as exact decimals: a tick is a cycle at MHz,\n"
    "so at 1000 MHz a slice of 117780 cycles lasts 117.78 us (other frequencies\n"
    "round to the nearest nanosecond); args.cycles holds the length in cycles.\n"
    "\n"
    "  --input LOG           simulator log, '-' for stdin (alias --input_filename)\n"
    "  --output OUT.json     trace to write, '-' for stdout (alias --output_filename)\n"
    "  --num-npus N          number of NPUs; records of NPU N or above are errors\n"
    "                        (alias --num_npus)\n"
    "  --npu-frequency MHZ   cycles per microsecond, an integer (alias --npu_frequency)\n"
    "  --compat              write the reference's document instead, byte for byte\n"
    "                        for every log it accepts: its ts and dur are in\n"
    "                        milliseconds, which trace viewers show 1000x too short\n"
    "  --time-unit ms|us     with --compat: ms (default, the reference's numbers) or\n"
    "                        us, the same document with true times\n"
    "  --log_filename FILE   accepted for compatibility and ignored: errors and\n"
    "                        warnings go to stderr\n"
    "\n"
    "From a report written by `vimana --report FILE.json`: one process per NPU with a\n"
    "\"run\" slice up to its finish and one slice per collective, named after its node,\n"
    "with its type, bytes, algorithm and group as args; times are exact microseconds.\n"
    "\n"
    "  --report REPORT.json  the report to read\n"
    "  --output OUT.json     trace to write, '-' for stdout\n";

static int parse_unit(const char *text, timeline_form *form)
{
    int k = cli_word(PROG, "--time-unit", text, "ms|us");
    if (k < 0)
        return -1;
    *form = k == 0 ? TIMELINE_REFERENCE_MS : TIMELINE_REFERENCE_US;
    return 0;
}

static int parse_positive(const char *option, const char *text, uint64_t max, uint64_t *out)
{
    if (cli_u64(PROG, option, text, out) != 0)
        return -1;
    if (*out == 0 || *out > max) {
        cli_error(PROG, "%s: expected an integer from 1 to %llu, got '%s'", option, (unsigned long long)max, text);
        return -1;
    }
    return 0;
}

/* Parses and stores a number option's value once cli_option matched it. */
static int take_positive(int matched, const char *option, const char *value, uint64_t max, uint64_t *target,
                         bool *given)
{
    if (matched < 0)
        return -1;
    *given = true;
    return parse_positive(option, value, max, target) != 0 ? -1 : 1;
}

/* One option with a value; returns 1 matched, 0 not this option, -1 error. */
static int parse_valued(int argc, char **argv, int *i, timeline_args *a)
{
    const char *v = NULL, *ignored = NULL;
    /* --log_filename: the reference's debug log; Vimana reports on stderr only */
    const cli_text_option texts[] = {{"--input|--input_filename|--input-filename", &a->input},
                                     {"--output|--output_filename|--output-filename", &a->output},
                                     {"--report", &a->report},
                                     {"--log_filename|--log-filename", &ignored},
                                     {NULL, NULL}};
    int r;
    if ((r = cli_text_options(PROG, argc, argv, i, texts)) != 0)
        return r;
    if ((r = cli_option(PROG, argc, argv, i, "--num-npus|--num_npus", &v)) != 0)
        return take_positive(r, "--num-npus", v, UINT32_MAX, &a->num_npus, &a->has_num_npus);
    if ((r = cli_option(PROG, argc, argv, i, "--npu-frequency|--npu_frequency", &v)) != 0)
        return take_positive(r, "--npu-frequency", v, LOG_TIMELINE_MAX_MHZ, &a->npu_mhz, &a->has_npu_mhz);
    if ((r = cli_option(PROG, argc, argv, i, "--time-unit|--time_unit", &v)) != 0) {
        a->has_time_unit = true;
        return r < 0 || parse_unit(v, &a->compat_form) != 0 ? -1 : 1;
    }
    return 0;
}

/* Which options each mode needs, and that the two modes are not mixed. */
static int check_mode(const timeline_args *a)
{
    if (a->input && a->report) {
        cli_error(PROG, "--input and --report exclude each other: give one");
        return -1;
    }
    if (!a->input && !a->report) {
        cli_error(PROG, "missing --input LOG or --report REPORT.json (run `vimana-et timeline --help`)");
        return -1;
    }
    const char *missing = !a->output                     ? "--output OUT.json"
                          : a->input && !a->has_num_npus ? "--num-npus N"
                          : a->input && !a->has_npu_mhz  ? "--npu-frequency MHZ"
                                                         : NULL;
    if (missing) {
        cli_error(PROG, "missing %s (run `vimana-et timeline --help`)", missing);
        return -1;
    }
    if (a->has_time_unit && !a->compat) {
        cli_error(PROG, "--time-unit applies to --compat only: the default output is in microseconds");
        return -1;
    }
    if (a->report && a->compat) {
        cli_error(PROG, "--compat applies to --input only: a report has no reference form");
        return -1;
    }
    if (a->report && (a->has_num_npus || a->has_npu_mhz)) {
        cli_error(PROG, "--num-npus and --npu-frequency apply to --input only: a report's times are in ticks (ns)");
        return -1;
    }
    return 0;
}

/* Returns 0 to run, 1 when --help was printed, -1 on a usage error. */
static int parse_args(int argc, char **argv, timeline_args *a)
{
    memset(a, 0, sizeof *a);
    a->compat_form = TIMELINE_REFERENCE_MS;
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 1;
        if (cli_flag(argv[i], "--compat")) {
            a->compat = true;
            continue;
        }
        int r = parse_valued(argc, argv, &i, a);
        if (r < 0)
            return -1;
        if (r == 0) {
            cli_error(PROG, "unknown option '%s' (run `vimana-et timeline --help`)", argv[i]);
            return -1;
        }
    }
    return check_mode(a);
}

/* Refuses an input that exists but is not a regular file: a directory, or
 * a device such as /dev/zero that would be read for ever. */
static int check_input(const char *path, char err[LOG_TIMELINE_MSG_MAX])
{
    char why[128];
    if (input_file_check(path, why, sizeof why) == 0)
        return 0;
    snprintf(err, LOG_TIMELINE_MSG_MAX, "error: %s: %s", path, why);
    return -1;
}

static int run_log(const timeline_args *a, FILE *out, char err[LOG_TIMELINE_MSG_MAX])
{
    bool from_stdin = strcmp(a->input, "-") == 0;
    if (!from_stdin && check_input(a->input, err) != 0)
        return -1;
    FILE *in = from_stdin ? stdin : fopen(a->input, "r");
    if (!in) {
        snprintf(err, LOG_TIMELINE_MSG_MAX, "%s: cannot open: %s", a->input, strerror(errno));
        return -1;
    }
    log_timeline_options opt = {
        .input_name = from_stdin ? "<stdin>" : a->input,
        .num_npus = a->num_npus,
        .npu_mhz = a->npu_mhz,
        .form = a->compat ? a->compat_form : TIMELINE_CHROME,
    };
    log_timeline_summary summary;
    int rc = log_timeline_convert(in, out, &opt, &summary, err);
    if (!from_stdin)
        fclose(in);
    if (rc == 0 && summary.unclosed > 0)
        cli_error(PROG, "warning: %s", summary.unclosed_note);
    if (rc == 0 && summary.records == 0)
        cli_error(PROG, "warning: %s: no issue/callback records (was \"trace-enabled\": 1 in the system JSON?)",
                  opt.input_name);
    return rc;
}

static int run_report(const timeline_args *a, FILE *out, char err[REPORT_MSG_MAX])
{
    report r;
    if (check_input(a->report, err) != 0)
        return -1;
    int rc = report_load(a->report, &r, err);
    if (rc == 0)
        rc = report_timeline_write(&r, a->report, out, err);
    report_free(&r);
    return rc;
}

int cmd_timeline(int argc, char **argv)
{
    timeline_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    output_file out;
    char err[LOG_TIMELINE_MSG_MAX];
    if (output_file_open(&out, a.output, err) != 0) {
        cli_error(PROG, "%s", err);
        return 1;
    }
    int rc = a.input ? run_log(&a, out.f, err) : run_report(&a, out.f, err);
    if (rc != 0) {
        output_file_discard(&out);
        cli_error(PROG, "%s", err);
        return 1;
    }
    if (output_file_commit(&out, err) != 0) {
        cli_error(PROG, "%s", err);
        return 1;
    }
    return 0;
}
