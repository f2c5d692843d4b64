/* `vimana-et generate inference`: options, checks, the memory lines, one
 * ET per rank and the communicator-group file. */
#include "inference/cmd_inference.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "inference/cmd_serving.h"
#include "inference/inf_model.h"
#include "inference/inf_write.h"
#include "transformer/tf_kernels.h"

#define PROG "vimana-et generate"

static const char usage[] =
    "Usage: vimana-et generate inference --layers L --hidden H --heads A [--kv-heads G]\n"
    "         --ffn F --vocab V --tp T --pp P --batch B --prompt-len S --output-len N\n"
    "         [--prefill-chunk C] [--device h100|h200|a100] [--precision bf16|fp16|fp8]\n"
    "         [--mlp gelu|swiglu]\n"
    "         [--memory-capacity SIZE] --out PREFIX\n"
    "   or: vimana-et generate inference ... --memory-capacity SIZE --max-batch\n"
    "   or: vimana-et generate inference ... --arrivals FILE [--max-batch-size N]\n"
    "         [--max-batch-tokens N] --out PREFIX  (serving; -h with --arrivals: its help)\n"
    "LLM inference of a batch of B sequences on T x P ranks: the prefill of the\n"
    "S-token prompts (in chunks of C tokens each), whose LM head samples the first\n"
    "token, then N decode iterations of one token each, every one attending to the\n"
    "KV cache of the tokens before it. Writes PREFIX.0.et ... PREFIX.(T*P-1).et and\n"
    "PREFIX.groups.json (for vimana --comm-group-configuration); rank = t + T*p.\n"
    "Per step and layer of the stage: an attention and an MLP compute node, each\n"
    "followed by a TP all-reduce of B*tokens*H*2 bytes (Megatron-LM); between stages\n"
    "a SEND/RECV of the same bytes; from the last stage to the first the sampled\n"
    "token ids (B*4 bytes) before each decode iteration. Durations: the kernel model\n"
    "of `generate transformer` (GEMMs by shape or by the bytes of their weights,\n"
    "attention by FLOPs or by the KV cache it reads, memory-bound kernels by bytes),\n"
    "rounded up to 1 us.\n"
    "Markers: the LM head node that samples output token k has the attribute\n"
    "output_token = k (0: the first token) and a name ending in first_token or\n"
    "output_token<k>.\n"
    "Options:\n"
    "  --layers L, --hidden H, --heads A, --ffn F, --vocab V\n"
    "                  the model (H divisible by A; A, F and V by T; L by P)\n"
    "  --kv-heads G    grouped-query attention: G key/value heads (divides A; divides\n"
    "                  or is a multiple of T: with T > G each rank keeps one); default A\n"
    "  --tp T, --pp P  tensor and pipeline parallel sizes\n"
    "  --batch B       sequences generated together\n"
    "  --prompt-len S  prompt tokens of each sequence\n"
    "  --output-len N  decode iterations after the first token\n"
    "  --prefill-chunk C  prefill C tokens of each sequence a step (chunked prefill;\n"
    "                  1 to S; default S: the whole prompt at once)\n"
    "  --device NAME   h100 (H100 SXM: 989 TFLOP/s, 3.35 TB/s; default) or a100\n"
    "                  (A100 SXM: 312 TFLOP/s, 2.039 TB/s)\n"
    "  --precision P   bf16 (default) or fp16: 2-byte weights, activations and KV\n"
    "                  cache; fp8 (h100): the layers' GEMMs in FP8 on 1-byte operands\n"
    "  --mlp KIND      gelu (default: fc1 h x F, fc2 F x h, as generate transformer)\n"
    "                  or swiglu (Llama: gate and up h x F each, down F x h; 3/2 the\n"
    "                  MLP's FLOPs and weights, SiLU x up on 2 inputs)\n"
    "  --memory-capacity SIZE  a GPU's memory (e.g. 80GiB): exit 1, writing nothing,\n"
    "                  when a rank needs more, naming the first such rank\n"
    "  --max-batch     with --memory-capacity: print the largest batch whose ranks\n"
    "                  all fit (weights + KV cache at the end of generation) and\n"
    "                  exit, writing nothing (--batch and --out are not needed)\n"
    "  --out PREFIX    output prefix (alias -o, --output)\n"
    "Every number is a whole number from 1 up (--layers to 4096, --hidden to 1048576,\n"
    "--tp and --pp to 1024, --batch to 1048576, --prompt-len to 16777216,\n"
    "--output-len to 1048576).\n"
    "Prints one line per pipeline stage: memory: rank R: X GiB (weights, and the KV\n"
    "cache of the S + N tokens of each sequence at the end of generation), and a\n"
    "steps: line with rank 0's compute time of the prefill and of the first and\n"
    "last decode iterations.\n"
    "See docs/inference.md for the formulas.\n";

static const char *const numeric_flags[] = {
    "--layers", "--hidden", "--heads", "--ffn", "--vocab", "--tp", "--pp",
    "--batch", "--prompt-len", "--output-len", "--kv-heads", "--prefill-chunk",
};
/* The flags before this index are required. */
#define N_REQUIRED 10
#define BATCH_BIT (1u << 7)
#define KV_HEADS_BIT (1u << 10)
#define PREFILL_CHUNK_BIT (1u << 11)
#define N_NUMERIC (sizeof numeric_flags / sizeof numeric_flags[0])

static uint64_t *field(struct inf_config *c, size_t k)
{
    uint64_t *const f[N_NUMERIC] = {
        &c->layers, &c->hidden, &c->heads, &c->ffn, &c->vocab, &c->tp, &c->pp,
        &c->batch, &c->prompt_len, &c->output_len, &c->kv_heads, &c->prefill_chunk,
    };
    return f[k];
}

static int parse_precision(const char *v, struct inf_config *c)
{
    int k = cli_word(PROG, "--precision", v, "bf16|fp16|fp8");
    if (k < 0)
        return -1;
    c->fp8 = k == 2;
    return 1;
}

/* Matches one option at argv[*i]; 1 when used, 0 when not one of ours, -1
 * after an error. */
int inf_cli_option(int argc, char **argv, int *i, struct inf_config *c, unsigned *given, const char **out,
                   int *max_batch)
{
    const char *v;
    int rc;
    if (cli_flag(argv[*i], "--max-batch")) {
        *max_batch = 1;
        return 1;
    }
    for (size_t k = 0; k < N_NUMERIC; k++) {
        if ((rc = cli_option(PROG, argc, argv, i, numeric_flags[k], &v)) != 0) {
            if (rc < 0 || cli_u64(PROG, numeric_flags[k], v, field(c, k)) != 0)
                return -1;
            *given |= 1u << k;
            return 1;
        }
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--out|-o|--output", &v)) != 0) {
        *out = v;
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--device", &v)) != 0) {
        if (rc > 0 && tf_device_lookup(v, &c->device) != 0) {
            cli_error(PROG, "--device: unknown device '%s' (expected h100, h200 or a100)", v);
            return -1;
        }
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--precision", &v)) != 0)
        return rc < 0 ? -1 : parse_precision(v, c);
    int mlp;
    if ((rc = cli_word_option(PROG, argc, argv, i, "--mlp", "gelu|swiglu", &mlp)) != 0) {
        if (rc < 0)
            return -1;
        c->swiglu = mlp == 1;
        return 1;
    }
    if ((rc = cli_size_option(PROG, argc, argv, i, "--memory-capacity", "80GiB", &c->memory_capacity)) != 0)
        return rc;
    return 0;
}

/* Returns 0 to run, 1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct inf_config *c, const char **out, int *max_batch)
{
    unsigned given = 0;
    *max_batch = 0;
    memset(c, 0, sizeof *c);
    tf_device_lookup("h100", &c->device);
    c->elem_bytes = 2;
    *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_flag(argv[i], "-h|--help")) {
            fputs(usage, stdout);
            return 1;
        }
        int rc = inf_cli_option(argc, argv, &i, c, &given, out, max_batch);
        if (rc < 0)
            return 2;
        if (rc == 0) {
            cli_unexpected(PROG, argv[i], "generate inference --help");
            return 2;
        }
    }
    if (*max_batch && !c->memory_capacity) {
        cli_error(PROG, "--max-batch: needs --memory-capacity SIZE, the memory the batch must fit");
        return 2;
    }
    /* --max-batch finds the batch and writes nothing */
    if (*max_batch) {
        given |= BATCH_BIT;
        c->batch = 1;
    }
    for (size_t k = 0; k < N_REQUIRED; k++) {
        if (!(given & (1u << k))) {
            cli_error(PROG, "inference: missing %s", numeric_flags[k]);
            return 2;
        }
    }
    if (!*out && !*max_batch) {
        cli_error(PROG, "inference: missing --out PREFIX");
        return 2;
    }
    if (!(given & KV_HEADS_BIT))
        c->kv_heads = c->heads;
    if (!(given & PREFILL_CHUNK_BIT))
        c->prefill_chunk = c->prompt_len;
    char msg[256];
    if (inf_config_check(c, msg, sizeof msg) != 0) {
        cli_error(PROG, "%s", msg);
        return 2;
    }
    return 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

/* One line per pipeline stage; 1 after one line naming the first rank
 * beyond --memory-capacity (nothing printed on stdout then), else 0. */
static int report_memory(const struct inf_config *c)
{
    for (uint64_t p = 0; p < c->pp; p++) {
        struct inf_memory m;
        inf_memory_of(c, p, &m);
        uint64_t total = m.weights + m.kv_cache;
        if (c->memory_capacity && total > c->memory_capacity) {
            cli_error(PROG, "rank %" PRIu64 " needs %.2f GiB, %.2f GiB more than --memory-capacity %.2f GiB "
                      "(weights %.2f GiB, KV cache %.2f GiB); nothing written", p * c->tp, gib(total),
                      gib(total - c->memory_capacity), gib(c->memory_capacity), gib(m.weights), gib(m.kv_cache));
            return 1;
        }
    }
    for (uint64_t p = 0; p < c->pp; p++) {
        struct inf_memory m;
        inf_memory_of(c, p, &m);
        printf("memory: rank %" PRIu64 ": %.2f GiB (weights %.2f GiB, KV cache %.2f GiB)\n", p * c->tp,
               gib(m.weights + m.kv_cache), gib(m.weights), gib(m.kv_cache));
    }
    return 0;
}

/* --max-batch: one line with the batch and the rank that bounds it; 1
 * after one line when the weights alone do not fit. */
static int report_max_batch(const struct inf_config *c)
{
    uint64_t p;
    uint64_t b = inf_max_batch(c, &p);
    struct inf_config at = *c;
    at.batch = b ? b : 1;
    struct inf_memory m;
    inf_memory_of(&at, p, &m);
    if (b == 0) {
        cli_error(PROG, "--max-batch: no batch fits: rank %" PRIu64 " needs %.2f GiB for its weights alone, more "
                  "than --memory-capacity %.2f GiB", p * c->tp, gib(m.weights), gib(c->memory_capacity));
        return 1;
    }
    printf("max batch: %" PRIu64 "%s (rank %" PRIu64 ": %.2f GiB of --memory-capacity %.2f GiB: weights %.2f GiB, "
           "KV cache %.2f GiB of %" PRIu64 " tokens a sequence)\n", b, b == INF_BATCH_MAX ? ", the largest --batch" : "",
           p * c->tp, gib(m.weights + m.kv_cache), gib(c->memory_capacity), gib(m.weights), gib(m.kv_cache),
           c->prompt_len + c->output_len);
    return 0;
}

/* Rank 0's compute of one step: its layers (the stage's L/P). */
static uint64_t step_micros(const struct inf_config *c, uint64_t k)
{
    struct inf_step s = inf_step_of(c, k);
    uint64_t per_layer = tf_kernels_micros(inf_attn_seconds(c, s)) + tf_kernels_micros(inf_mlp_seconds(c, s));
    return per_layer * (c->layers / c->pp);
}

static void report_steps(const struct inf_config *c)
{
    uint64_t chunks = inf_prefill_steps(c), prefill = 0;
    for (uint64_t k = 0; k < chunks; k++)
        prefill += step_micros(c, k);
    printf("steps: %" PRIu64 " prefill chunk%s, %" PRIu64 " decode iteration%s; rank 0 computes the prefill in %"
           PRIu64 " us, decode 1 in %" PRIu64 " us", chunks, chunks == 1 ? "" : "s", c->output_len,
           c->output_len == 1 ? "" : "s", prefill, step_micros(c, chunks));
    if (c->output_len > 1)
        printf(", decode %" PRIu64 " in %" PRIu64 " us", c->output_len, step_micros(c, chunks + c->output_len - 1));
    puts(" (layers only)");
}

static int write_all(const struct inf_config *c, const char *prefix)
{
    char path[4200];
    vet_error err;
    int rc = 0;
    for (uint64_t rank = 0; rank < inf_ranks(c) && rc == 0; rank++) {
        snprintf(path, sizeof path, "%s.%" PRIu64 ".et", prefix, rank);
        rc = inf_write_rank(c, rank, path, &err);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s.groups.json", prefix);
        rc = inf_write_groups(c, 1, path, &err);
    }
    if (rc != 0) {
        cli_error(PROG, "%s", err.msg);
        return 1;
    }
    return 0;
}

int generate_inference(int argc, char **argv)
{
    struct inf_config c;
    const char *out;
    if (inf_cli_serving(argc, argv))
        return generate_serving(argc, argv);
    int max_batch;
    int rc = parse_args(argc, argv, &c, &out, &max_batch);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (max_batch)
        return report_max_batch(&c);
    if (strlen(out) > 4000) {
        cli_error(PROG, "--out: path too long");
        return 2;
    }
    if (report_memory(&c) != 0)
        return 1;
    report_steps(&c);
    if (cli_make_parent_dirs(PROG, out) != 0)
        return 1;
    return write_all(&c, out);
}
