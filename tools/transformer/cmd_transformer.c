/* `vimana-et generate transformer`: options, checks, one ET per rank and
 * the communicator-group file. */
#include "transformer/cmd_transformer.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "transformer/tf_durations.h"
#include "transformer/tf_model.h"
#include "transformer/tf_write.h"

#define PROG "vimana-et generate"

static const char usage[] =
    "Usage: vimana-et generate transformer --layers L --hidden H --heads A --ffn F\n"
    "         --seq S --vocab V --micro-batch b --global-batch B --tp T --pp P --dp D\n"
    "         [--sp] [--schedule 1f1b|gpipe] [--virtual-stages V]\n"
    "         [--dp-buckets K | --dp-bucket-bytes SIZE] [--dist-optimizer] [--recompute]\n"
    "         [--tp-cross-entropy] [--device h100|a100] [--efficiency E]\n"
    "         [--precision bf16|fp16] [--durations FILE]\n"
    "         --out PREFIX\n"
    "One training iteration of a GPT-style model on T x P x D ranks: writes\n"
    "PREFIX.0.et ... PREFIX.(T*P*D-1).et and PREFIX.groups.json (for vimana\n"
    "--comm-group-configuration). Rank = t + T*(d + D*p): TP fastest, then DP, then PP.\n"
    "Per rank: B/(b*D) micro-batches in the 1F1B order (or GPipe's), in each the\n"
    "stage's L/P layers, each an attention and an MLP compute node followed by a\n"
    "TP all-reduce of b*s*h*2 bytes (--sp: reduce-scatter + all-gather); pipeline\n"
    "SEND/RECV of b*s*h*2 bytes; DP gradient all-reduces; an optimizer node.\n"
    "Durations: roofline max(FLOPs/(peak*E), bytes/bandwidth), rounded up to 1 us.\n"
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
    "  --recompute     full activation recomputation: each layer's forward (with its\n"
    "                  TP collectives) runs again just before its backward\n"
    "  --tp-cross-entropy  the vocabulary-parallel cross-entropy's 3 TP all-reduces\n"
    "                  of b*s*4 bytes after each forward LM head\n"
    "  --schedule S    1f1b (default: warm-up forwards, then one forward and one\n"
    "                  backward in turn) or gpipe (all forwards, then all backwards)\n"
    "  --virtual-stages V  interleaved 1F1B (Megatron-LM): each rank holds V model\n"
    "                  chunks of L/(P*V) layers, chunk v of stage p being virtual stage\n"
    "                  v*P+p; needs P >= 2, 1f1b, and B/(b*D) a multiple of P; default 1\n"
    "  --device NAME   h100 (989 TFLOP/s, 3.35 TB/s; default) or a100 (312, 2.039)\n"
    "  --durations FILE  JSON object of durations in whole microseconds replacing\n"
    "                  the roofline's, per kind: attn_fwd, attn_bwd, mlp_fwd, mlp_bwd,\n"
    "                  head_fwd, head_bwd, optimizer (e.g. {\"attn_fwd\": 120}); kinds\n"
    "                  left out keep the roofline; --recompute reuses the *_fwd ones\n"
    "  --efficiency E  fraction of peak FLOP/s reached, in (0, 1]; default 0.5\n"
    "  --precision P   bf16 (default) or fp16: 2-byte activations and gradients\n"
    "  --out PREFIX    output prefix (alias -o, --output)\n"
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
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(flag, fields[i].flag) == 0)
            return (uint64_t *)((char *)c + fields[i].offset);
    return NULL;
}

static const char *const numeric_flags[] = {
    "--layers", "--hidden", "--heads", "--ffn", "--seq", "--vocab",
    "--micro-batch", "--global-batch", "--tp", "--pp", "--dp", "--dp-buckets", "--virtual-stages",
};
/* The flags before this index are required. */
#define N_REQUIRED 11
#define DP_BUCKETS_BIT 11
#define N_NUMERIC (sizeof numeric_flags / sizeof numeric_flags[0])

static int parse_efficiency(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v)) {
        cli_error(PROG, "--efficiency: expected a number, got '%s'", text);
        return -1;
    }
    *out = v;
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
    if ((rc = cli_option(PROG, argc, argv, i, "--device", &v)) != 0) {
        if (rc > 0 && tf_device_lookup(v, &c->device) != 0) {
            cli_error(PROG, "--device: unknown device '%s' (expected h100 or a100)", v);
            return -1;
        }
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--efficiency", &v)) != 0)
        return rc < 0 || parse_efficiency(v, &c->efficiency) != 0 ? -1 : 1;
    if ((rc = cli_option(PROG, argc, argv, i, "--precision", &v)) != 0) {
        if (rc > 0 && strcmp(v, "bf16") != 0 && strcmp(v, "fp16") != 0) {
            cli_error(PROG, "--precision: expected bf16 or fp16, got '%s'", v);
            return -1;
        }
        return rc;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--schedule", &v)) != 0) {
        if (rc > 0 && strcmp(v, "1f1b") != 0 && strcmp(v, "gpipe") != 0) {
            cli_error(PROG, "--schedule: expected 1f1b or gpipe, got '%s'", v);
            return -1;
        }
        c->gpipe = rc > 0 && strcmp(v, "gpipe") == 0;
        return rc;
    }
    if (cli_flag(argv[*i], "--sp")) {
        c->sp = true;
        return 1;
    }
    if (cli_flag(argv[*i], "--dist-optimizer")) {
        c->dist_optimizer = true;
        return 1;
    }
    if (cli_flag(argv[*i], "--recompute")) {
        c->recompute = true;
        return 1;
    }
    if (cli_flag(argv[*i], "--tp-cross-entropy")) {
        c->tp_cross_entropy = true;
        return 1;
    }
    if ((rc = cli_option(PROG, argc, argv, i, "--durations", &v)) != 0) {
        char msg[512];
        if (rc > 0 && tf_durations_load(v, &c->durations, msg, sizeof msg) != 0) {
            cli_error(PROG, "%s", msg);
            return -1;
        }
        return rc;
    }
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
    *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_flag(argv[i], "-h|--help")) {
            fputs(usage, stdout);
            return 1;
        }
        int rc = parse_one(argc, argv, &i, c, &given, out);
        if (rc < 0)
            return 2;
        if (rc == 0) {
            cli_error(PROG, "%s '%s' (see generate transformer --help)",
                      argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return 2;
        }
    }
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
    for (uint64_t rank = 0; rank < tf_ranks(c) && rc == 0; rank++) {
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
    if (cli_make_parent_dirs(PROG, out) != 0)
        return 1;
    return write_all(&c, out);
}
