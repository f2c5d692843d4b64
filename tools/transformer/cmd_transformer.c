/* `vimana-et generate transformer`: options, checks, one ET per rank and
 * the communicator-group file. */
#include "transformer/cmd_transformer.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cli.h"
#include "transformer/tf_device_file.h"
#include "transformer/tf_durations.h"
#include "transformer/tf_memory.h"
#include "transformer/tf_moe.h"
#include "transformer/tf_model.h"
#include "transformer/tf_write.h"

#define PROG "vimana-et generate"

static const char usage[] =
    "Usage: vimana-et generate transformer --layers L --hidden H --heads A --ffn F\n"
    "         --seq S --vocab V --micro-batch b --global-batch B --tp T --pp P --dp D\n"
    "         [--sp] [--schedule 1f1b|gpipe] [--virtual-stages V]\n"
    "         [--dp-buckets K | --dp-bucket-bytes SIZE] [--dist-optimizer]\n"
    "         [--recompute [full|selective]] [--tp-cross-entropy] [--device h100|h200|a100|PATH]\n"
    "         [--pp-scatter-gather on|off] [--tp-comm-overlap]\n"
    "         [--overlap-grad-reduce on|off] [--overlap-param-gather on|off]\n"
    "         [--compute-model kernels|roofline] [--efficiency E]\n"
    "         [--precision bf16|fp16|fp8] [--durations FILE] [--single-file]\n"
    "         [--experts E [--top-k K] [--ep EP] [--moe-ffn F'] [--moe-every k]\n"
    "          [--capacity-factor C] [--expert-skew S] [--seed N]]\n"
    "         [--memory-capacity SIZE] [--tensors] --out PREFIX\n"
    "One training iteration of a GPT-style model on T x P x D ranks: writes\n"
    "PREFIX.0.et ... PREFIX.(T*P*D-1).et and PREFIX.groups.json (for vimana\n"
    "--comm-group-configuration). Rank = t + T*(d + D*p): TP fastest, then DP, then PP.\n"
    "Per rank: B/(b*D) micro-batches in the 1F1B order (or GPipe's), in each the\n"
    "stage's L/P layers, each an attention and an MLP compute node followed by a\n"
    "TP all-reduce of b*s*h*2 bytes (--sp: reduce-scatter + all-gather); pipeline\n"
    "SEND/RECV of b*s*h*2 bytes; DP gradient all-reduces; an optimizer node.\n"
    "Durations: the sum of the operator's kernels on the device (GEMMs by shape,\n"
    "causal FlashAttention, memory-bound kernels by bytes), rounded up to 1 us.\n"
    "Options:\n"
    "  --layers L, --hidden H, --heads A, --ffn F, --seq S, --vocab V\n"
    "                  the model (H divisible by A; A, F and V by T; L by P)\n"
    "  --micro-batch b, --global-batch B   B divisible by b*D\n"
    "  --tp T, --pp P, --dp D              tensor, pipeline, data parallel sizes\n"
    "  --sp            sequence parallelism\n"
    "  --dp-buckets K  split the DP gradient all-reduce into K buckets of the stage's\n"
    "                  layers (K divides L/P; default 1), each issued as soon as its\n"
    "                  gradients are computed, overlapping the rest of the backward;\n"
    "                  with --virtual-stages, K buckets per model chunk (K divides L/(P*V))\n"
    "  --dp-bucket-bytes SIZE  buckets by size instead (like DDP's bucket_cap_mb): a\n"
    "                  bucket closes once its layers' gradients reach SIZE bytes\n"
    "                  (e.g. 25MB, 64MiB); not with --dp-buckets\n"
    "  --dist-optimizer  distributed optimizer (ZeRO-1): the buckets reduce-scatter\n"
    "                  the gradients, Adam updates 1/D of the parameters, then an\n"
    "                  all-gather of the rank's parameters\n"
    "  --recompute [full|selective]  activation recomputation before each layer's\n"
    "                  backward: full (the default of a bare --recompute) runs the\n"
    "                  layer's forward again with its TP collectives; selective only\n"
    "                  the attention core (Korthikanti et al.)\n"
    "  --pp-scatter-gather on|off  without --sp, on (the default, as Megatron-LM):\n"
    "                  each TP rank sends 1/T of a pipeline message and the receiver\n"
    "                  all-gathers it over TP; off: every TP rank sends all of it.\n"
    "                  With --sp a pipeline message is always the rank's 1/T\n"
    "  --overlap-grad-reduce on|off  on (default, as NeMo): each DP bucket is reduced as soon\n"
    "                  as the backward has its gradients; off: all of the rank's\n"
    "                  gradients in one collective after the backward pass\n"
    "  --overlap-param-gather on|off  with --dist-optimizer, on: the parameter\n"
    "                  all-gathers run per bucket at the start of the iteration under\n"
    "                  the forward (default, as NeMo); off: one after the optimizer\n"
    "  --tp-comm-overlap  each layer's TP collectives run beside its compute node\n"
    "                  (Transformer Engine's userbuffers): the next node waits for both\n"
    "  --tp-cross-entropy  the vocabulary-parallel cross-entropy's 3 TP all-reduces\n"
    "                  of b*s*4 bytes after each forward LM head\n"
    "  --schedule S    1f1b (default: warm-up forwards, then one forward and one\n"
    "                  backward in turn) or gpipe (all forwards, then all backwards)\n"
    "  --virtual-stages V  interleaved 1F1B (Megatron-LM): each rank holds V model\n"
    "                  chunks of L/(P*V) layers, chunk v of stage p being virtual stage\n"
    "                  v*P+p; needs P >= 2, 1f1b, and B/(b*D) a multiple of P; default 1\n"
    "  --device NAME   h100 (H100 SXM: 989 TFLOP/s, 3.35 TB/s, 132 SMs; default),\n"
    "                  a100 (A100 SXM: 312 TFLOP/s, 2.039 TB/s, 108 SMs), or a device\n"
    "                  file: PATH.json or a folder holding device.json (its data sheet\n"
    "                  and published benchmarks; docs/transformer.md, \"Device files\")\n"
    "  --compute-model M  kernels (default: the device's calibrated kernel model) or\n"
    "                  roofline: max(FLOPs/(peak*E), bytes/bandwidth) per node\n"
    "  --efficiency E  the roofline's fraction of peak FLOP/s, 0.000001 to 1; default 0.5;\n"
    "                  implies --compute-model roofline\n"
    "  --durations FILE  JSON object of durations in whole microseconds replacing\n"
    "                  the model's, per kind: attn_fwd, attn_bwd, mlp_fwd, mlp_bwd,\n"
    "                  head_fwd, head_bwd, optimizer, attn_core (e.g. {\"attn_fwd\": 120});\n"
    "                  kinds left out keep the model; --recompute full reuses the *_fwd\n"
    "                  ones, --recompute selective attn_core\n"
    "  --precision P   bf16 (default) or fp16: 2-byte activations and gradients; fp8\n"
    "                  (h100): the GEMMs in FP8 at its FP8 peak (Transformer Engine)\n"
    "  --single-file   the compact form for any rank count: PREFIX.stageP.et, the trace\n"
    "                  of stage P's first rank, PREFIX.roles.json (which ranks run each,\n"
    "                  relabelled) and PREFIX.groups.json; vimana reads it as PREFIX\n"
    "  --memory-capacity SIZE  a GPU's memory (e.g. 80GiB): exit 1, writing nothing,\n"
    "                  when a rank needs more, naming the first such rank\n"
    "  --tensors       each node names the tensors it writes and reads (a layer's kept\n"
    "                  activations, the logits, the model state) in its inputs/outputs\n"
    "                  attributes, so that vimana --report gives each rank's simulated\n"
    "                  peak memory (the memory: lines' figure, as the schedule runs)\n"
    "  --experts E     mixture of experts: the MLP of every k-th layer becomes a router,\n"
    "                  an ALL_TO_ALL dispatch on the EP group, the rank's E/EP experts,\n"
    "                  their TP collective and an ALL_TO_ALL combine (backward in reverse)\n"
    "  --top-k K       experts a token goes to (1..E; default 2)\n"
    "  --ep EP         expert parallelism, carved out of DP (divides D; default 1):\n"
    "                  EP consecutive DP ranks share the experts; the experts' gradients\n"
    "                  are reduced over the D/EP ranks that hold the same ones\n"
    "  --moe-ffn F'    an expert's FFN width (divisible by T; default --ffn)\n"
    "  --moe-every k   layer l has experts when l mod k = 0 (k divides a model chunk's\n"
    "                  layers; default 1)\n"
    "  --capacity-factor C  a sender gives an expert at most ceil(C*N*K/E) of its\n"
    "                  N = b*s tokens' K copies, the rest dropped; the all-to-alls carry\n"
    "                  the padded E*ceil(C*N*K/E)*h*2 bytes (default 0: dropless,\n"
    "                  N*K*h*2)\n"
    "  --expert-skew S  Zipf exponent of the experts' popularity in [0, 16] (default 0:\n"
    "                  uniform): the busiest expert's rank computes longest\n"
    "  --seed N        which experts are popular, drawn per layer (default 1)\n"
    "  --out PREFIX    output prefix (alias -o, --output)\n"
    "Prints one line per pipeline stage (its ranks hold the same): memory: rank R:\n"
    "X GiB (parameters, gradients, optimizer states as Megatron-LM keeps them in\n"
    "mixed precision; activations by Korthikanti et al. for the recomputation mode,\n"
    "times the micro-batches the schedule keeps in flight).\n"
    "With --experts also a moe: line: the all-to-all size and the tokens an expert\n"
    "gets per micro-batch, mean and busiest.\n"
    "See docs/transformer.md for the formulas.\n";

/* Where each numeric flag lands in the configuration. */
static uint64_t *field(struct tf_config *c, const char *flag)
{
    static const struct {
        const char *flag;
        size_t offset;
    } fields[] = {
        {"--layers", offsetof(struct tf_config, layers)},
        {"--hidden", offsetof(struct tf_config, hidden)},
        {"--heads", offsetof(struct tf_config, heads)},
        {"--ffn", offsetof(struct tf_config, ffn)},
        {"--seq", offsetof(struct tf_config, seq)},
        {"--vocab", offsetof(struct tf_config, vocab)},
        {"--micro-batch", offsetof(struct tf_config, micro_batch)},
        {"--global-batch", offsetof(struct tf_config, global_batch)},
        {"--tp", offsetof(struct tf_config, tp)},
        {"--pp", offsetof(struct tf_config, pp)},
        {"--dp", offsetof(struct tf_config, dp)},
        {"--dp-buckets", offsetof(struct tf_config, dp_buckets)},
        {"--virtual-stages", offsetof(struct tf_config, virtual_stages)},
        {"--experts", offsetof(struct tf_config, moe.experts)},
        {"--top-k", offsetof(struct tf_config, moe.top_k)},
        {"--ep", offsetof(struct tf_config, moe.ep)},
        {"--moe-ffn", offsetof(struct tf_config, moe.ffn)},
        {"--moe-every", offsetof(struct tf_config, moe.every)},
        {"--seed", offsetof(struct tf_config, moe.seed)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(flag, fields[i].flag) == 0)
            return (uint64_t *)((char *)c + fields[i].offset);
    return NULL;
}

static const char *const numeric_flags[] = {
    "--layers", "--hidden", "--heads", "--ffn", "--seq", "--vocab",
    "--micro-batch", "--global-batch", "--tp", "--pp", "--dp", "--dp-buckets", "--virtual-stages",
    "--experts", "--top-k", "--ep", "--moe-ffn", "--moe-every", "--seed",
};
/* The flags before this index are required. */
#define N_REQUIRED 11
#define DP_BUCKETS_BIT 11
#define EXPERTS_BIT 13
#define TOP_K_BIT 14
#define MOE_FFN_BIT 16
#define N_NUMERIC (sizeof numeric_flags / sizeof numeric_flags[0])

/* A finite decimal number for `flag`; 0, or -1 after an error. */
static int parse_number(const char *flag, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v)) {
        cli_error(PROG, "%s: expected a number, got '%s'", flag, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* --device: a preset's name, or a device file (a path: it has a '/', ends
 * in .json or is a folder). 1, or -1 after an error. */
static int parse_device(const char *v, struct tf_device *out)
{
    char msg[512];
    size_t n = strlen(v);
    struct stat st;
    if (tf_device_lookup(v, out) == 0)
        return 1;
    if (!strchr(v, '/') && !(n > 5 && strcmp(v + n - 5, ".json") == 0) && !(stat(v, &st) == 0 && S_ISDIR(st.st_mode))) {
        cli_error(PROG, "--device: unknown device '%s' (expected h100, h200, a100, or a device file: a path, see "
                  "docs/transformer.md)", v);
        return -1;
    }
    if (tf_device_load(v, out, msg, sizeof msg) != 0) {
        cli_error(PROG, "--device: %s", msg);
        return -1;
    }
    return 1;
}

/* Bits of `given` beyond the numeric flags'. */
#define EFFICIENCY_BIT (1u << 20)
#define KERNELS_BIT (1u << 21)
#define MOE_DOUBLE_BIT (1u << 22)   /* --capacity-factor or --expert-skew */

/* --recompute, --recompute full|selective or --recompute=KIND: a bare
 * --recompute is full (as before the kinds existed); the next argument is
 * taken only when it names a kind. 1, or -1 after an error. */
static int parse_recompute(int argc, char **argv, int *i, struct tf_config *c)
{
    const char *kind = NULL;
    if (argv[*i][11] == '=')
        kind = argv[*i] + 12;
    else if (*i + 1 < argc && (strcmp(argv[*i + 1], "full") == 0 || strcmp(argv[*i + 1], "selective") == 0))
        kind = argv[++*i];
    int k = kind ? cli_word(PROG, "--recompute", kind, "full|selective") : 0;
    if (k < 0)
        return -1;
    c->recompute = k == 0 ? TF_RECOMPUTE_FULL : TF_RECOMPUTE_SELECTIVE;
    return 1;
}

/* The options that set one bool of the configuration: the on|off
 * switches (default on) and the bare flags that turn a feature on. */
struct bool_option {
    const char *flag;
    size_t offset;
};

static bool *bool_field(struct tf_config *c, const struct bool_option *o)
{
    return (bool *)((char *)c + o->offset);
}

/* Matches a bool option at argv[*i]; 1 when used, 0 when not one of them,
 * -1 after an error. */
static int parse_bool_option(int argc, char **argv, int *i, struct tf_config *c)
{
    static const struct bool_option switches[] = {
        {"--pp-scatter-gather", offsetof(struct tf_config, pp_scatter_gather)},
        {"--overlap-grad-reduce", offsetof(struct tf_config, overlap_grad_reduce)},
        {"--overlap-param-gather", offsetof(struct tf_config, overlap_param_gather)},
    };
    static const struct bool_option flags[] = {
        {"--sp", offsetof(struct tf_config, sp)},
        {"--dist-optimizer", offsetof(struct tf_config, dist_optimizer)},
        {"--tp-comm-overlap", offsetof(struct tf_config, tp_comm_overlap)},
        {"--tensors", offsetof(struct tf_config, tensors)},
        {"--tp-cross-entropy", offsetof(struct tf_config, tp_cross_entropy)},
        {"--single-file", offsetof(struct tf_config, single_file)},
    };
    for (size_t k = 0; k < sizeof switches / sizeof switches[0]; k++) {
        int on_off;
        int rc = cli_word_option(PROG, argc, argv, i, switches[k].flag, "on|off", &on_off);
        if (rc == 0)
            continue;
        if (rc < 0)
            return -1;
        *bool_field(c, &switches[k]) = on_off == 0;
        return 1;
    }
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        if (cli_flag(argv[*i], flags[k].flag)) {
            *bool_field(c, &flags[k]) = true;
            return 1;
        }
    }
    return 0;
}

/* Matches one option at argv[*i]; 1 when used, 0 when not an option of
 * this kind, -1 after an error. */
static int parse_one(int argc, char **argv, int *i, struct tf_config *c, unsigned *given, const char **out)
{
    const char *v;
    int rc;
    for (size_t k = 0; k < N_NUMERIC; k++) {
        if ((rc = cli_option(PROG, argc, argv, i, numeric_flags[k], &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, numeric_flags[k], v, field(c, numeric_flags[k])) != 0)
                return -1;
            *given |= 1u << k;
            return 1;
        }
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--out|-o|--output", &v)) != 0) {
        *out = v;
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--device", &v)) != 0)
        return rc < 0 ? -1 : parse_device(v, &c->device);
    if ((rc = cli_option(PROG, argc, argv, i, "--efficiency", &v)) != 0) {
        c->compute_model = TF_COMPUTE_ROOFLINE;
        *given |= EFFICIENCY_BIT;
        return rc < 0 || parse_number("--efficiency", v, &c->efficiency) != 0 ? -1 : 1;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--capacity-factor", &v)) != 0) {
        *given |= MOE_DOUBLE_BIT;
        return rc < 0 || parse_number("--capacity-factor", v, &c->moe.capacity_factor) != 0 ? -1 : 1;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--expert-skew", &v)) != 0) {
        *given |= MOE_DOUBLE_BIT;
        return rc < 0 || parse_number("--expert-skew", v, &c->moe.skew) != 0 ? -1 : 1;
    }
    int model;
    if ((rc = cli_word_option(PROG, argc, argv, i, "--compute-model", "kernels|roofline", &model)) != 0) {
        if (rc < 0)
            return -1;
        if (model == 0)
            *given |= KERNELS_BIT;
        else
            c->compute_model = TF_COMPUTE_ROOFLINE;
        return 1;
    }
    if ((rc = parse_bool_option(argc, argv, i, c)) != 0)
        return rc;
    int precision;
    if ((rc = cli_word_option(PROG, argc, argv, i, "--precision", "bf16|fp16|fp8", &precision)) != 0) {
        if (rc < 0)
            return -1;
        c->fp8 = precision == 2;
        c->fp16 = precision == 1;
        return 1;
    }
    int schedule;
    if ((rc = cli_word_option(PROG, argc, argv, i, "--schedule", "1f1b|gpipe", &schedule)) != 0) {
        if (rc < 0)
            return -1;
        c->gpipe = schedule == 1;
        return 1;
    }
    if (strncmp(argv[*i], "--recompute", 11) == 0 && (argv[*i][11] == '\0' || argv[*i][11] == '='))
        return parse_recompute(argc, argv, i, c);
    if ((rc = cli_option(PROG, argc, argv, i, "--durations", &v)) != 0) {
        char msg[512];
        if (rc > 0 && tf_durations_load(v, &c->durations, msg, sizeof msg) != 0) {
            cli_error(PROG, "%s", msg);
            return -1;
        }
        return rc;
    }
    if ((rc = cli_size_option(PROG, argc, argv, i, "--memory-capacity", "80GiB", &c->memory_capacity)) != 0)
        return rc;
    if ((rc = cli_option(PROG, argc, argv, i, "--dp-bucket-bytes", &v)) != 0) {
        if (rc < 0 || cli_size(PROG, "--dp-bucket-bytes", v, &c->dp_bucket_bytes) != 0)
            return -1;
        if (c->dp_bucket_bytes == 0) {
            cli_error(PROG, "--dp-bucket-bytes: expected at least 1 byte, got '%s'", v);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* The MoE flags' defaults (top-2, no EP, --ffn wide experts, every layer,
 * seed 1); each of them needs --experts. 0, or -1 after an error. */
static int moe_defaults(struct tf_config *c, unsigned given)
{
    static const char *const moe_flags[] = {"--top-k", "--ep", "--moe-ffn", "--moe-every", "--seed"};
    if (!(given & (1u << EXPERTS_BIT))) {
        for (size_t k = 0; k < sizeof moe_flags / sizeof moe_flags[0]; k++) {
            if (given & (1u << (TOP_K_BIT + k))) {
                cli_error(PROG, "%s: needs --experts", moe_flags[k]);
                return -1;
            }
        }
        if (given & MOE_DOUBLE_BIT) {
            cli_error(PROG, "--capacity-factor/--expert-skew: need --experts");
            return -1;
        }
        return 0;
    }
    if (c->moe.experts == 0) {
        cli_error(PROG, "--experts: expected 1 to 65536, got 0");
        return -1;
    }
    if (!(given & (1u << TOP_K_BIT)))
        c->moe.top_k = c->moe.experts < 2 ? c->moe.experts : 2;
    if (!(given & (1u << MOE_FFN_BIT)))
        c->moe.ffn = c->ffn;
    return 0;
}

/* Returns 0 to run, 1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct tf_config *c, const char **out)
{
    unsigned given = 0;
    memset(c, 0, sizeof *c);
    tf_device_lookup("h100", &c->device);
    c->efficiency = 0.5;
    c->elem_bytes = 2;
    c->dp_buckets = 1;
    c->virtual_stages = 1;
    c->pp_scatter_gather = true;
    c->overlap_grad_reduce = true;
    c->overlap_param_gather = true;
    c->moe.ep = 1;
    c->moe.every = 1;
    c->moe.seed = 1;
    *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_help(argv[i], usage))
            return 1;
        int rc = parse_one(argc, argv, &i, c, &given, out);
        if (rc < 0)
            return 2;
        if (rc == 0) {
            cli_unexpected(PROG, argv[i], "generate transformer --help");
            return 2;
        }
    }
    if ((given & EFFICIENCY_BIT) && (given & KERNELS_BIT)) {
        cli_error(PROG, "--efficiency: the roofline's; cannot be combined with --compute-model kernels");
        return 2;
    }
    if (c->fp8 && c->device.peak_fp8 <= 0) {
        cli_error(PROG, "--precision: %s has no FP8 tensor cores (fp8 needs --device h100)", c->device.name);
        return 2;
    }
    if (moe_defaults(c, given) != 0)
        return 2;
    if (c->dp_bucket_bytes > 0 && (given & (1u << DP_BUCKETS_BIT))) {
        cli_error(PROG, "--dp-bucket-bytes: cannot be combined with --dp-buckets");
        return 2;
    }
    for (size_t k = 0; k < N_REQUIRED; k++) {
        if (!(given & (1u << k))) {
            cli_error(PROG, "transformer: missing %s", numeric_flags[k]);
            return 2;
        }
    }
    if (!*out) {
        cli_error(PROG, "transformer: missing --out PREFIX");
        return 2;
    }
    char msg[256];
    if (tf_config_check(c, msg, sizeof msg) != 0) {
        cli_error(PROG, "%s", msg);
        return 2;
    }
    return 0;
}


static int write_all(const struct tf_config *c, const char *prefix)
{
    char path[4200];
    vet_error err;
    uint8_t *buf = tf_write_buffer_new();
    if (!buf) {
        cli_error(PROG, "out of memory");
        return 1;
    }
    int rc = 0;
    if (c->single_file) {
        /* the compact form: each stage's first rank's trace, run by every
         * rank of the stage relabelled (the map says how) */
        for (uint64_t p = 0; p < c->pp && rc == 0; p++) {
            snprintf(path, sizeof path, "%s.stage%" PRIu64 ".et", prefix, p);
            rc = tf_write_rank(c, tf_rank_of(c, (struct tf_coords){0, 0, p}), path, buf, &err);
        }
        const char *slash = strrchr(prefix, '/');
        snprintf(path, sizeof path, "%s.roles.json", prefix);
        if (rc == 0)
            rc = tf_write_roles(c, path, slash ? slash + 1 : prefix, &err);
    }
    for (uint64_t rank = 0; !c->single_file && rank < tf_ranks(c) && rc == 0; rank++) {
        snprintf(path, sizeof path, "%s.%" PRIu64 ".et", prefix, rank);
        rc = tf_write_rank(c, rank, path, buf, &err);
    }
    free(buf);
    if (rc == 0) {
        snprintf(path, sizeof path, "%s.groups.json", prefix);
        rc = tf_write_groups(c, path, &err);
    }
    if (rc != 0) {
        cli_error(PROG, "%s", err.msg);
        return 1;
    }
    return 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

/* The parts of a stage-p rank's memory; with experts, the parameters'
 * share that is the rank's local experts. */
static void memory_parts(char *buf, size_t len, const struct tf_config *c, uint64_t p, const struct tf_memory *m)
{
    char experts[48] = "";
    if (c->moe.experts)
        snprintf(experts, sizeof experts, " [experts %.2f GiB]", gib(tf_rank_expert_params(c, p) * 2));
    snprintf(buf, len, "parameters %.2f GiB%s, gradients %.2f GiB, optimizer %.2f GiB, activations %.2f GiB",
             gib(m->params), experts, gib(m->grads), gib(m->optimizer), gib(m->activations));
}

/* With experts: the all-to-all size and the expert load per micro-batch,
 * mean and busiest over the MoE layers (what --expert-skew does). */
static int report_moe(const struct tf_config *c)
{
    uint64_t e = c->moe.experts, *loads = malloc(e * sizeof *loads);
    void *scratch = malloc(tf_moe_scratch_bytes(c));
    if (!loads || !scratch) {
        free(loads);
        free(scratch);
        cli_error(PROG, "out of memory");
        return 1;
    }
    uint64_t busiest = 0, busiest_layer = 0, busiest_expert = 0, sum = 0, count = 0;
    for (uint64_t l = 0; l < c->layers; l++) {
        if (!tf_is_moe_layer(c, l))
            continue;
        tf_moe_loads(c, l, loads, scratch);
        for (uint64_t x = 0; x < e; x++) {
            sum += loads[x];
            count++;
            if (loads[x] > busiest) {
                busiest = loads[x];
                busiest_layer = l;
                busiest_expert = x;
            }
        }
    }
    free(loads);
    free(scratch);
    printf("moe: %" PRIu64 " expert%s, top-%" PRIu64 ", EP %" PRIu64 ": all-to-all %" PRIu64
           " bytes a dispatch or combine; tokens an expert gets per micro-batch: mean %.1f, busiest %" PRIu64
           " (layer %" PRIu64 ", expert %" PRIu64 ")\n", e, e == 1 ? "" : "s", c->moe.top_k, c->moe.ep, tf_moe_a2a_bytes(c),
           (double)sum / (double)count, busiest, busiest_layer, busiest_expert);
    return 0;
}

/* One line per pipeline stage; 1 after one line naming the first rank
 * beyond --memory-capacity, else 0. */
static int report_memory(const struct tf_config *c)
{
    char parts[256];
    for (uint64_t p = 0; p < c->pp; p++) {
        struct tf_memory m;
        tf_memory_of(c, p, &m);
        uint64_t rank = tf_rank_of(c, (struct tf_coords){0, 0, p}), total = tf_memory_total(&m);
        memory_parts(parts, sizeof parts, c, p, &m);
        if (c->memory_capacity && total > c->memory_capacity) {
            cli_error(PROG, "rank %" PRIu64 " needs %.2f GiB, %.2f GiB more than --memory-capacity %.2f GiB (%s); "
                      "nothing written", rank, gib(total), gib(total - c->memory_capacity), gib(c->memory_capacity),
                      parts);
            return 1;
        }
    }
    for (uint64_t p = 0; p < c->pp; p++) {
        struct tf_memory m;
        tf_memory_of(c, p, &m);
        memory_parts(parts, sizeof parts, c, p, &m);
        printf("memory: rank %" PRIu64 ": %.2f GiB (%s)\n", tf_rank_of(c, (struct tf_coords){0, 0, p}),
               gib(tf_memory_total(&m)), parts);
    }
    return 0;
}

int generate_transformer(int argc, char **argv)
{
    struct tf_config c;
    const char *out;
    int rc = parse_args(argc, argv, &c, &out);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (strlen(out) > 4000) {
        cli_error(PROG, "--out: path too long");
        return 2;
    }
    if (report_memory(&c) != 0 || (c.moe.experts && report_moe(&c) != 0))
        return 1;
    if (cli_make_parent_dirs(PROG, out) != 0)
        return 1;
    return write_all(&c, out);
}
