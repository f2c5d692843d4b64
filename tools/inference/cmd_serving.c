/* `vimana-et generate inference --arrivals FILE`: options, the schedule,
 * the memory and schedule lines, one ET per rank and the groups file. */
#include "inference/cmd_serving.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "inference/cmd_inference.h"
#include "inference/inf_arrivals.h"
#include "inference/inf_serving.h"
#include "inference/inf_serving_write.h"
#include "inference/inf_write.h"
#include "transformer/tf_kernels.h"

#define PROG "vimana-et generate"

static const char usage[] =
    "Usage: vimana-et generate inference --layers L --hidden H --heads A [--kv-heads G]\n"
    "         --ffn F --vocab V --tp T --pp P --arrivals FILE [--max-batch-size N]\n"
    "         [--max-batch-tokens N] [--scheduler prefill-first|mixed|chunked]\n"
    "         [--disaggregate] [--clock-comm-ns N] [--device h100|h200|a100]\n"
    "         [--precision bf16|fp16|fp8]\n"
    "         [--mlp gelu|swiglu]\n"
    "         [--memory-capacity SIZE] --out PREFIX\n"
    "LLM serving with continuous batching: FILE lists the requests, one a line,\n"
    "  ARRIVAL PROMPT OUTPUT    (blanks or commas between; '#' starts a comment)\n"
    "ARRIVAL is the time it arrives, in us, or with a unit: 1500, 1500us, 2.5ms, 1s,\n"
    "800ns (to 86400 s, whole ns; not decreasing from line to line); PROMPT its\n"
    "prompt tokens (1 to 16777216); OUTPUT the tokens it generates, the first one\n"
    "included (1 to 1048576).\n"
    "The generator schedules the requests as vLLM's default scheduler does: before\n"
    "each iteration the requests that have arrived (on the generator's clock: the\n"
    "sum of the iterations' compute, its own model) are prefilled first, in file\n"
    "order, in an iteration of prefills only, as many as the limits allow;\n"
    "otherwise every running request decodes one token (--scheduler mixed: every\n"
    "running request decodes and arrived requests join the same iteration with\n"
    "their whole prompt, within the limits left). A request leaves after\n"
    "its last token. When nothing runs until the next arrival, the first stage\n"
    "waits in an idle CPU node. After each LM head, zero-time marker nodes with\n"
    "the attributes request, request_token (0 first, 1 last), arrival_ns,\n"
    "prompt_tokens and output_tokens: vimana reports each request's time to the\n"
    "first token, time per output token and latency from them.\n"
    "Options (the model, --tp, --pp, --device, --precision, --mlp,\n"
    "--memory-capacity and --out as in the fixed-batch form; not --batch,\n"
    "--prompt-len, --output-len, --prefill-chunk, --max-batch):\n"
    "  --arrivals FILE       the requests\n"
    "  --max-batch-size N    sequences in one iteration (1 to 1048576; default 256)\n"
    "  --max-batch-tokens N  tokens in one iteration: the prompts of a prefill, one\n"
    "                        a decoding sequence (--max-batch-size to 16777216;\n"
    "                        default the larger of 2048 and the longest prompt;\n"
    "                        chunked: 2048)\n"
    "  --scheduler S         prefill-first (default: vLLM's default scheduler) or\n"
    "                        mixed (decodes and new prefills in one iteration) or\n"
    "                        chunked (mixed, a prompt split into chunks that fill\n"
    "                        the tokens the decodes leave, as vLLM's chunked\n"
    "                        prefill: the chunk that ends it samples the first\n"
    "                        token)\n"
    "  --disaggregate        prefill and decode on two groups of T x P ranks each:\n"
    "                        ranks 0 .. T*P-1 run prefill-only iterations and send\n"
    "                        each iteration's KV cache to the same place in ranks\n"
    "                        T*P .. 2*T*P-1, which decode only: a request joins\n"
    "                        their batch once its KV cache has come (the prefill-\n"
    "                        first scheduler; not with mixed or chunked)\n"
    "  --clock-comm-ns N     the generator's clock adds N ns for each TP all-reduce\n"
    "                        and pipeline message of an iteration, and for a KV\n"
    "                        message (0 to 1e9; default 0: compute only, and a run\n"
    "                        with communication lags the schedule; take N from a\n"
    "                        first run's communication time)\n"
    "Prints a memory line per stage (the weights and the KV cache at the schedule's\n"
    "peak) and a serving: line (iterations, idle time, the generator's clock); with\n"
    "--disaggregate, of each group.\n"
    "See docs/inference.md, \"Serving\".\n";

/* Bits of the numeric flags (cmd_inference.h, inf_cli_option). */
#define MODEL_BITS 0x7fu
#define KV_HEADS_BIT (1u << 10)
static const char *const batch_flags[] = {"--batch", "--prompt-len", "--output-len", NULL, "--prefill-chunk"};

struct serving_args {
    struct inf_config c;
    struct inf_serving_limits limits;
    const char *arrivals, *out;
    int max_batch;  /* --max-batch given: the fixed batch's question, refused */
    int disaggregate; /* --disaggregate: a prefill group and a decode group */
};

int inf_cli_serving(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--arrivals") == 0 || strncmp(argv[i], "--arrivals=", 11) == 0)
            return 1;
    return 0;
}

/* --max-batch-size, --max-batch-tokens, --clock-comm-ns: 1 used, 0 not,
 * -1 error. */
static int parse_limit(int argc, char **argv, int *i, struct inf_serving_limits *l)
{
    const char *names[] = {"--max-batch-size", "--max-batch-tokens", "--clock-comm-ns"};
    uint64_t *field[] = {&l->max_batch_size, &l->max_batch_tokens, &l->comm_ns};
    const uint64_t min[] = {1, 1, 0}, max[] = {1u << 20, 1u << 24, 1000000000u};
    const char *v;
    for (int k = 0; k < 3; k++) {
        int rc = cli_option(PROG, argc, argv, i, names[k], &v);
        if (rc == 0)
            continue;
        if (rc < 0 || cli_u64(PROG, names[k], v, field[k]) != 0)
            return -1;
        if (*field[k] < min[k] || *field[k] > max[k]) {
            cli_error(PROG, "%s: expected %" PRIu64 " to %" PRIu64 ", got %" PRIu64, names[k], min[k], max[k],
                      *field[k]);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* --scheduler NAME: 1 used, 0 not, -1 error. */
static int parse_scheduler(int argc, char **argv, int *i, struct inf_serving_limits *l)
{
    int k;
    int rc = cli_word_option(PROG, argc, argv, i, "--scheduler", "prefill-first|mixed|chunked", &k);
    if (rc <= 0)
        return rc;
    l->chunked = k == 2;
    l->mixed = k >= 1;
    return 1;
}

/* One argument: 1 used, -1 error (printed), 0 not ours. */
static int parse_one(int argc, char **argv, int *i, struct serving_args *a, unsigned *given)
{
    if (strcmp(argv[*i], "--disaggregate") == 0) {
        a->disaggregate = 1;
        return 1;
    }
    int rc = cli_option(PROG, argc, argv, i, "--arrivals", &a->arrivals);
    if (rc == 0)
        rc = parse_limit(argc, argv, i, &a->limits);
    if (rc == 0)
        rc = parse_scheduler(argc, argv, i, &a->limits);
    if (rc == 0)
        rc = inf_cli_option(argc, argv, i, &a->c, given, &a->out, &a->max_batch);
    return rc;
}

/* The flags of the fixed batch are the file's business here. */
static int check_given(unsigned given, const struct serving_args *a)
{
    for (unsigned k = 0; k < sizeof batch_flags / sizeof batch_flags[0]; k++) {
        if (batch_flags[k] && (given & (1u << (7 + k)))) {
            cli_error(PROG, "%s: not with --arrivals (the file gives each request's tokens)", batch_flags[k]);
            return -1;
        }
    }
    if (a->max_batch) {
        cli_error(PROG, "--max-batch: not with --arrivals (the schedule's KV peak is on the memory lines)");
        return -1;
    }
    static const char *const model[] = {"--layers", "--hidden", "--heads", "--ffn", "--vocab", "--tp", "--pp"};
    for (unsigned k = 0; k < 7; k++) {
        if (!(given & (1u << k))) {
            cli_error(PROG, "inference: missing %s", model[k]);
            return -1;
        }
    }
    if (!a->out) {
        cli_error(PROG, "inference: missing --out PREFIX");
        return -1;
    }
    if (a->disaggregate && a->limits.mixed) {
        cli_error(PROG, "--disaggregate: not with --scheduler %s (the prefill group runs prefills only, the "
                  "decode group decodes only)", a->limits.chunked ? "chunked" : "mixed");
        return -1;
    }
    return 0;
}

/* Returns 0 to run, 1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct serving_args *a)
{
    unsigned given = 0;
    memset(a, 0, sizeof *a);
    tf_device_lookup("h100", &a->c.device);
    a->c.elem_bytes = 2;
    for (int i = 1; i < argc; i++) {
        if (cli_flag(argv[i], "-h|--help")) {
            fputs(usage, stdout);
            return 1;
        }
        int rc = parse_one(argc, argv, &i, a, &given);
        if (rc < 0)
            return 2;
        if (rc == 0) {
            cli_unexpected(PROG, argv[i], "generate inference --arrivals --help");
            return 2;
        }
    }
    if (check_given(given, a) != 0)
        return 2;
    if (!(given & KV_HEADS_BIT))
        a->c.kv_heads = a->c.heads;
    /* the model's checks; the per-request sizes are the file's (checked
     * there) and the trace's size is the schedule's (checked after it) */
    a->c.batch = a->c.prompt_len = a->c.output_len = a->c.prefill_chunk = 1;
    char msg[256];
    if (inf_config_check(&a->c, msg, sizeof msg) != 0) {
        cli_error(PROG, "%s", msg);
        return 2;
    }
    return 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

/* As the fixed-batch form's lines, the KV cache at the schedule's peak,
 * for the group of ranks from `base` on. */
static int report_memory(const struct inf_config *c, const struct inf_schedule *s, uint64_t base)
{
    struct inf_config peak = *c;
    peak.batch = 1;
    peak.prompt_len = s->peak_kv_tokens;
    peak.output_len = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t p = 0; p < c->pp; p++) {
            struct inf_memory m;
            inf_memory_of(&peak, p, &m);
            uint64_t total = m.weights + m.kv_cache;
            if (pass == 0 && c->memory_capacity && total > c->memory_capacity) {
                cli_error(PROG, "rank %" PRIu64 " needs %.2f GiB, %.2f GiB more than --memory-capacity %.2f GiB "
                          "(weights %.2f GiB, KV cache %.2f GiB at the schedule's peak); nothing written",
                          base + p * c->tp, gib(total), gib(total - c->memory_capacity), gib(c->memory_capacity),
                          gib(m.weights), gib(m.kv_cache));
                return 1;
            }
            if (pass == 1)
                printf("memory: rank %" PRIu64 ": %.2f GiB (weights %.2f GiB, KV cache %.2f GiB)\n", base + p * c->tp,
                       gib(total), gib(m.weights), gib(m.kv_cache));
        }
    }
    return 0;
}

/* `group`: "" for one group of ranks, else "prefill group (ranks ..): ". */
static void report_schedule(const char *group, size_t requests, const struct inf_schedule *s, int mixed, int comm)
{
    size_t prefills = 0;
    for (size_t k = 0; k < s->n_iters; k++)
        prefills += (size_t)s->iters[k].prefill;
    printf("serving: %s%zu request%s, %zu iterations (%zu prefill, %zu decode%s), at most %" PRIu64
           " sequences an iteration, %" PRIu64 " KV tokens at the peak, idle %" PRIu64
           " us; the generator's clock (%s) ends at %" PRIu64 " us\n",
           group, requests, requests == 1 ? "" : "s", s->n_iters, prefills, s->n_iters - prefills,
           mixed ? " only" : "", s->max_batch, s->peak_kv_tokens, s->idle_us,
           comm ? "with communication" : "compute only", s->end_ns / 1000);
}

/* The same bound on a trace's nodes as the fixed-batch form's. */
static int check_size(const struct inf_config *c, const struct inf_schedule *s)
{
    const uint64_t max_nodes = 100000000ull;
    uint64_t per_iter = (c->layers / c->pp) * 4 + 4;
    if (s->n_iters > (max_nodes - 2 * s->n_seqs) / per_iter) {
        cli_error(PROG, "--arrivals: %zu iterations of %" PRIu64 " layers a rank exceed %llu nodes a trace",
                  s->n_iters, c->layers / c->pp, (unsigned long long)max_nodes);
        return -1;
    }
    return 0;
}

/* One schedule (s) or a disaggregated pair (d). */
static int write_all(const struct serving_args *a, const struct inf_arrivals *arr, const struct inf_schedule *s,
                     const struct inf_disagg *d)
{
    char path[4200];
    vet_error err;
    int rc = 0;
    uint64_t groups = d ? 2 : 1;
    for (uint64_t rank = 0; rank < groups * inf_ranks(&a->c) && rc == 0; rank++) {
        snprintf(path, sizeof path, "%s.%" PRIu64 ".et", a->out, rank);
        rc = d ? inf_serving_write_disagg_rank(&a->c, arr, d, rank, path, &err)
               : inf_serving_write_rank(&a->c, arr, s, rank, path, &err);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s.groups.json", a->out);
        rc = inf_write_groups(&a->c, groups, path, &err);
    }
    if (rc != 0)
        cli_error(PROG, "%s", err.msg);
    return rc != 0;
}

/* Reads, checks and schedules the file (into d when disaggregated, else
 * s): 0, or the exit status. */
static int plan(struct serving_args *a, struct inf_arrivals *arr, struct inf_schedule *s, struct inf_disagg *d)
{
    char msg[512];
    if (inf_arrivals_load(a->arrivals, arr, msg, sizeof msg) != 0 ||
        inf_serving_limits_check(&a->limits, arr, a->arrivals, msg, sizeof msg) != 0) {
        cli_error(PROG, "%s", msg);
        return 2;
    }
    int rc = a->disaggregate ? inf_serving_schedule_disagg(&a->c, arr, &a->limits, d, msg, sizeof msg)
                             : inf_serving_schedule(&a->c, arr, &a->limits, s, msg, sizeof msg);
    if (rc != 0) {
        cli_error(PROG, "%s", msg);
        return 1;
    }
    if (!a->disaggregate)
        return check_size(&a->c, s) != 0 ? 2 : 0;
    return check_size(&a->c, &d->prefill) != 0 || check_size(&a->c, &d->decode) != 0 ? 2 : 0;
}

/* The memory and serving lines of a disaggregated pair; 0, or 1 when a
 * group does not fit --memory-capacity. */
static int report_disagg(const struct serving_args *a, const struct inf_arrivals *arr, const struct inf_disagg *d)
{
    uint64_t n = inf_ranks(&a->c);
    if (report_memory(&a->c, &d->prefill, 0) != 0 || report_memory(&a->c, &d->decode, n) != 0)
        return 1;
    size_t decoding = 0;
    for (size_t i = 0; i < arr->n; i++)
        decoding += arr->req[i].output > 1;
    int comm = a->limits.comm_ns > 0;
    char group[64];
    snprintf(group, sizeof group, "prefill group (ranks 0-%" PRIu64 "): ", n - 1);
    report_schedule(group, arr->n, &d->prefill, 0, comm);
    snprintf(group, sizeof group, "decode group (ranks %" PRIu64 "-%" PRIu64 "): ", n, 2 * n - 1);
    report_schedule(group, decoding, &d->decode, 0, comm);
    return 0;
}

int generate_serving(int argc, char **argv)
{
    struct serving_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (strlen(a.out) > 4000) {
        cli_error(PROG, "--out: path too long");
        return 2;
    }
    struct inf_arrivals arr = {0};
    struct inf_schedule s = {0};
    struct inf_disagg d = {0};
    rc = plan(&a, &arr, &s, &d);
    if (rc == 0 && a.disaggregate)
        rc = report_disagg(&a, &arr, &d);
    else if (rc == 0 && (rc = report_memory(&a.c, &s, 0)) == 0)
        report_schedule("", arr.n, &s, a.limits.mixed, a.limits.comm_ns > 0 && inf_serving_iter_comms(&a.c) > 0);
    if (rc == 0)
        rc = cli_make_parent_dirs(PROG, a.out) != 0 ? 1 : write_all(&a, &arr, &s, a.disaggregate ? &d : NULL);
    inf_serving_free(&s);
    inf_serving_disagg_free(&d);
    inf_arrivals_free(&arr);
    return rc;
}
