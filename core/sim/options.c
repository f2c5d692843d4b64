#include "sim/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/number_text.h"

typedef enum { ARG_STRING, ARG_UINT, ARG_DOUBLE, ARG_SCALE, ARG_BOOL, ARG_FLAG } arg_type;

typedef struct flag_spec {
    const char *name;
    arg_type type;
    size_t offset;          /* into sim_options, or SIZE_MAX for accepted-but-unused */
    const char *help;
} flag_spec;

#define OPT(field) offsetof(sim_options, field)
#define UNUSED_FLAG SIZE_MAX

static const flag_spec flags[] = {
    {"workload-configuration", ARG_STRING, OPT(workload), "ET prefix: NPU i reads PREFIX.i.et, or all NPUs PREFIX.et (required)"},
    {"system-configuration", ARG_STRING, OPT(system), "system JSON (required)"},
    {"network-configuration", ARG_STRING, OPT(network), "network YAML, or a topology .txt (required)"},
    {"remote-memory-configuration", ARG_STRING, OPT(memory), "remote-memory JSON (default: none)"},
    {"comm-group-configuration", ARG_STRING, OPT(comm_group), "communicator-group JSON ('empty' = none)"},
    {"network-backend", ARG_STRING, OPT(backend), "backend name or path (default analytical; congestion_unaware = analytical)"},
    {"backend-options", ARG_STRING, OPT(backend_options), "backend-specific key=value,... options"},
    {"num-queues-per-dim", ARG_UINT, OPT(queues_per_dim), "queues per network dimension (default 1)"},
    {"injection-scale", ARG_DOUBLE, OPT(injection_scale), "multiplies endpoint-delay (default 1)"},
    {"rendezvous-protocol", ARG_BOOL, OPT(rendezvous), "handshake before every message (default false)"},
    {"drop-missing-deps", ARG_FLAG, OPT(drop_missing_deps), "ignore dependencies on absent node ids"},
    {"timeline", ARG_STRING, OPT(timeline), "write a Chrome/Perfetto trace-event JSON file (inference: prefill/decode tracks)"},
    {"report", ARG_STRING, OPT(report), "write a per-NPU report (.json or .csv; inference: TTFT, TPOT, tokens/s)"},
    {"progress", ARG_FLAG, OPT(progress), "print progress while loading and simulating"},
    {"time-limit", ARG_UINT, OPT(time_limit_s), "stop the run after N wall-clock seconds with one error line and exit "
                                                "status 124 (a backend whose run() never returns; default: no limit)"},
    {"run-stats", ARG_FLAG, OPT(run_stats), "print messages, events, simulation speed and symmetry on stderr"},
    {"breakdown", ARG_FLAG, OPT(breakdown), "print where the last NPU's step went: compute, exposed communication per "
                                            "group, pipeline messages and bubble, FLOP/s and MFU"},
    {"no-symmetry", ARG_FLAG, OPT(no_symmetry), "do not check whether the NPUs are interchangeable (docs/symmetry.md)"},
    {"jobs", ARG_STRING, OPT(jobs), "run the jobs of a jobs file on one shared network (docs/jobs.md)"},
    {"logging-configuration", ARG_STRING, UNUSED_FLAG, "accepted for compatibility; ignored"},
    {"logical-topology-configuration", ARG_STRING, OPT(logical_topology), "ns-3's {\"logical-dims\": [...]} JSON: "
                                                                          "checked against the NPU count (the "
                                                                          "network gives the dimensions)"},
    {"path", ARG_STRING, OPT(logging_folder), "ASTRA-sim 1.0's results folder: the same as --logging-folder"},
    {"logging-folder", ARG_STRING, OPT(logging_folder), "also write the run's output to VALUE/log.log, its errors to VALUE/err.log"},
    {"compute-scale", ARG_SCALE, OPT(compute_scale), "multiplies every compute duration (default 1)"},
    {"npu-compute-scale", ARG_STRING, OPT(npu_compute_scale), "JSON of compute-time multipliers per NPU or NPU "
                                                              "range, e.g. {\"3\": 2.0, \"8-15\": 0.5}: stragglers, "
                                                              "mixed GPUs (with --jobs: the network's NPUs)"},
    {"comm-scale", ARG_SCALE, OPT(comm_scale), "multiplies every message and collective size (default 1)"},
    {"network-faults", ARG_STRING, OPT(network_faults), "YAML list of link faults from a tick on, e.g. - {link: "
                                                        "[npu0, switch8], at: 5000, bandwidth-factor: 0.1} or "
                                                        "down: true (congestion_aware, ns3_shim, garnet)"},
};

void sim_options_usage(FILE *out)
{
    fprintf(out, "Usage: vimana --workload-configuration=PREFIX --system-configuration=FILE.json\n"
                 "              --network-configuration=FILE [OPTIONS]\n"
                 "       vimana backend-check PLUGIN [OPTIONS]   (checks a network backend; see its --help)\n"
                 "       vimana xval [OPTIONS]                   (compares network backends; see its --help)\n"
                 "       vimana sweep SPEC.yaml --out DIR        (runs the points of a sweep; see its --help)\n"
                 "       vimana --jobs=JOBS.yaml [OPTIONS]        (several jobs sharing one network; docs/jobs.md)\n"
                 "       vimana calibrate NCCL_TESTS_OUTPUT... --topology FILE -o DIR\n"
                 "                                               (fits the nccl model to nccl-tests; docs/calibrate.md)\n\n"
                 "Simulates one training step of the Chakra ETs PREFIX.0.et ... PREFIX.(N-1).et and prints,\n"
                 "for every NPU, when it finished and how much communication was exposed.\n\nOptions:\n");
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        const char *arg = flags[i].type == ARG_FLAG ? "" : flags[i].type == ARG_BOOL ? "=BOOL"
                          : flags[i].type == ARG_STRING ? "=VALUE" : "=N";
        char left[64];
        snprintf(left, sizeof left, "--%s%s", flags[i].name, arg);
        fprintf(out, "  %-36s %s\n", left, flags[i].help);
    }
    fprintf(out, "  %-36s %s\n  %-36s %s\n", "--help", "show this help", "--version", "show the version");
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "on")) {
        *out = true;
        return 0;
    }
    if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "off")) {
        *out = false;
        return 0;
    }
    return -1;
}

/* A finite number flag: at least 0 (zero_ok), or above 0 for a scale, where
 * zero would erase what it multiplies. */
static int store_number(const flag_spec *f, const char *value, double *field, bool zero_ok, char *err, size_t len)
{
    double v;
    if (!finite_number_parse(value, &v) || v < 0 || (!zero_ok && v == 0)) {
        snprintf(err, len, "--%s: expected %s, got '%s'", f->name,
                 zero_ok ? "a non-negative number" : "a finite number greater than 0", value);
        return -1;
    }
    if (field)
        *field = v;
    return 0;
}

static int store(const flag_spec *f, const char *value, sim_options *o, char *err, size_t len)
{
    char *end;
    void *field = f->offset == UNUSED_FLAG ? NULL : (char *)o + f->offset;
    errno = 0;
    switch (f->type) {
    case ARG_STRING:
        if (field)
            *(const char **)field = value;
        return 0;
    case ARG_UINT: {
        unsigned long v = strtoul(value, &end, 10);
        if (!value[0] || *end || errno || v == 0 || v > 1u << 20 || value[0] == '-') {
            snprintf(err, len, "--%s: expected a positive integer, got '%s'", f->name, value);
            return -1;
        }
        if (field)
            *(uint32_t *)field = (uint32_t)v;
        return 0;
    }
    case ARG_DOUBLE: return store_number(f, value, field, true, err, len);
    case ARG_SCALE: return store_number(f, value, field, false, err, len);
    case ARG_BOOL: {
        bool v;
        if (parse_bool(value, &v) != 0) {
            snprintf(err, len, "--%s: expected true or false, got '%s'", f->name, value);
            return -1;
        }
        if (field)
            *(bool *)field = v;
        return 0;
    }
    case ARG_FLAG:
        if (field)
            *(bool *)field = true;
        return 0;
    }
    return 0;
}

static const flag_spec *find_flag(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strlen(flags[i].name) == len && strncmp(flags[i].name, name, len) == 0)
            return &flags[i];
    return NULL;
}

static enum options_result check_report_name(const sim_options *o, char *err, size_t len)
{
    if (o->report) {
        size_t n = strlen(o->report);
        if (!(n > 5 && !strcmp(o->report + n - 5, ".json")) && !(n > 4 && !strcmp(o->report + n - 4, ".csv"))) {
            snprintf(err, len, "--report: '%s' must end in .json or .csv", o->report);
            return OPTIONS_ERROR;
        }
    }
    return OPTIONS_RUN;
}

/* With --jobs the jobs file names the network, the backend, the workloads
 * and the system configurations: the same options on the command line
 * would be ignored, so they are refused; so are the three that watch a
 * single run (--progress, --run-stats, --breakdown). */
static enum options_result jobs_options_check(const sim_options *o, bool backend_given, char *err, size_t len)
{
    const char *clash = o->workload ? "--workload-configuration" : o->system ? "--system-configuration"
                        : o->network ? "--network-configuration" : o->memory ? "--remote-memory-configuration"
                        : o->comm_group ? "--comm-group-configuration" : backend_given ? "--network-backend"
                        : o->progress ? "--progress" : o->run_stats ? "--run-stats"
                        : o->breakdown ? "--breakdown" : o->network_faults ? "--network-faults" : NULL;
    if (clash) {
        snprintf(err, len, "--jobs: %s does not apply (the jobs file names the network, the backend and each "
                           "job's workload and configurations; see docs/jobs.md)", clash);
        return OPTIONS_ERROR;
    }
    return check_report_name(o, err, len);
}

enum options_result sim_options_parse(int argc, char **argv, sim_options *o, char *err, size_t len)
{
    memset(o, 0, sizeof *o);
    o->backend = "analytical";
    o->queues_per_dim = 1;
    o->injection_scale = 1.0;
    o->compute_scale = 1.0;
    o->comm_scale = 1.0;
    bool backend_given = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            return OPTIONS_HELP;
        if (!strcmp(arg, "--version"))
            return OPTIONS_VERSION;
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(err, len, "unexpected argument '%s' (flags are written --name=value)", arg);
            return OPTIONS_ERROR;
        }
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        const flag_spec *f = find_flag(name, name_len);
        if (!f) {
            snprintf(err, len, "unknown option '--%.*s' (see vimana --help)", (int)name_len, name);
            return OPTIONS_ERROR;
        }
        const char *value = eq ? eq + 1 : NULL;
        if (!value && f->type == ARG_FLAG)
            value = "";
        else if (!value && f->type == ARG_BOOL && (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0))
            value = "true";
        else if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, len, "option --%s needs a value", f->name);
                return OPTIONS_ERROR;
            }
            value = argv[++i];
        }
        if (store(f, value, o, err, len) != 0)
            return OPTIONS_ERROR;
        backend_given |= f->offset == OPT(backend) || f->offset == OPT(backend_options);
    }
    if (o->jobs)
        return jobs_options_check(o, backend_given, err, len);
    const char *missing = !o->workload ? "--workload-configuration" : !o->system ? "--system-configuration"
                          : !o->network ? "--network-configuration" : NULL;
    if (missing) {
        snprintf(err, len, "missing required option %s (see vimana --help)", missing);
        return OPTIONS_ERROR;
    }
    if (check_report_name(o, err, len) != OPTIONS_RUN)
        return OPTIONS_ERROR;
    /* The reference binary for the analytical model is called
     * congestion_unaware: accept the name users paste from its tutorials. */
    if (!strcmp(o->backend, "congestion_unaware"))
        o->backend = "analytical";
    /* Only the exact value means "none": a real file whose path merely
     * contains the word must still be read. */
    if (o->comm_group && !strcmp(o->comm_group, "empty"))
        o->comm_group = NULL;
    return OPTIONS_RUN;
}
