/* One inference run per rank (docs/inference.md, "Trace"), on the shared
 * node emitter (inf_emit.h). */
#include "inference/inf_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inference/inf_emit.h"
#include "transformer/tf_kernels.h"

/* A sampled token id per sequence, sent from the last stage back to the
 * first for the next decode iteration (int32). */
#define TOKEN_ID_BYTES 4




/* "prefill_c<k>" or "decode_t<i>": the step's part of every node name. */
static void step_name(char *buf, size_t len, struct inf_step s)
{
    snprintf(buf, len, s.decode ? "decode_t%" PRIu64 : "prefill_c%" PRIu64, s.index);
}

/* The stage's layers for one step: attention, all-reduce, MLP, all-reduce. */
static void layers(struct inf_emit *e, struct inf_step s, const char *step)
{
    const struct inf_config *c = e->c;
    char name[128];
    double attn = inf_attn_seconds(c, s), mlp = inf_mlp_seconds(c, s);
    uint64_t act = inf_activation_bytes(c, s), lpp = c->layers / c->pp;
    for (uint64_t i = 0; i < lpp; i++) {
        uint64_t l = e->p * lpp + i;
        snprintf(name, sizeof name, "%s_layer%" PRIu64 "_attn", step, l);
        inf_emit_comp(e, name, tf_kernels_micros(attn), inf_attn_flops(c, s), act);
        inf_emit_tp_all_reduce(e, name, act);
        snprintf(name, sizeof name, "%s_layer%" PRIu64 "_mlp", step, l);
        inf_emit_comp(e, name, tf_kernels_micros(mlp), inf_mlp_flops(c, s), act);
        inf_emit_tp_all_reduce(e, name, act);
    }
}

/* The LM head sampling output token `token` (0: the first), the marker. */
static void head(struct inf_emit *e, const char *step, uint64_t token)
{
    const struct inf_config *c = e->c;
    char name[128];
    if (token == 0)
        snprintf(name, sizeof name, "%s_lm_head_first_token", step);
    else
        snprintf(name, sizeof name, "%s_lm_head_output_token%" PRIu64, step, token);
    uint64_t flops = 2 * c->batch * c->hidden * (c->vocab / c->tp);
    inf_emit_start(e, name, VET_COMP_NODE, tf_kernels_micros(inf_head_seconds(c)));
    tf_pb_attr_int64(&e->rec, "num_ops", (int64_t)flops);
    tf_pb_attr_uint64(&e->rec, "tensor_size", c->batch * c->hidden * c->elem_bytes);
    tf_pb_attr_int64(&e->rec, INF_MARKER_ATTR, (int64_t)token);
    tf_pb_attr_int64(&e->rec, INF_BATCH_ATTR, (int64_t)c->batch);
    inf_emit_finish(e, 1);
}

/* Step k on this rank. Tags: 2k for the activations of step k between
 * stages, 2k + 1 for its sampled tokens from the last stage to the first. */
static void step(struct inf_emit *e, uint64_t k)
{
    const struct inf_config *c = e->c;
    struct inf_step s = inf_step_of(c, k);
    char sn[40], name[128];
    uint64_t last_stage = c->pp - 1, act = inf_activation_bytes(c, s);
    step_name(sn, sizeof sn, s);
    /* a decode iteration starts from the token the step before sampled */
    if (e->p == 0 && s.decode && c->pp > 1) {
        snprintf(name, sizeof name, "recv_tokens_%s", sn);
        inf_emit_p2p(e, name, VET_COMM_RECV_NODE, inf_emit_rank(e, last_stage), 2 * (k - 1) + 1, c->batch * TOKEN_ID_BYTES);
    }
    if (e->p > 0) {
        snprintf(name, sizeof name, "recv_act_%s", sn);
        inf_emit_p2p(e, name, VET_COMM_RECV_NODE, inf_emit_rank(e, e->p - 1), 2 * k, act);
    }
    layers(e, s, sn);
    if (e->p < last_stage) {
        snprintf(name, sizeof name, "send_act_%s", sn);
        inf_emit_p2p(e, name, VET_COMM_SEND_NODE, inf_emit_rank(e, e->p + 1), 2 * k, act);
        return;
    }
    if (!s.decode && !s.last_prefill)
        return;
    head(e, sn, s.decode ? s.index : 0);
    if (c->pp > 1 && k + 1 < inf_steps(c)) {
        snprintf(name, sizeof name, "send_tokens_%s", sn);
        inf_emit_p2p(e, name, VET_COMM_SEND_NODE, inf_emit_rank(e, 0), 2 * k + 1, c->batch * TOKEN_ID_BYTES);
    }
}


int inf_write_rank(const struct inf_config *c, uint64_t rank, const char *path, vet_error *err)
{
    struct inf_emit e;
    errno = 0;
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, errno ? strerror(errno) : "unknown error");
        return -1;
    }
    inf_emit_begin(&e, c, rank, fp);
    for (uint64_t k = 0; k < inf_steps(c) && !e.failed; k++)
        step(&e, k);
    if (fclose(fp) != 0 || e.failed) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}

int inf_write_groups(const struct inf_config *c, uint64_t groups, const char *path, vet_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    fputc('{', f);
    /* communicator 1 + p of group 0 is ranks tp * p .., the next group's
     * stages follow on */
    for (uint64_t p = 0; p < groups * c->pp && c->tp > 1; p++) {
        fprintf(f, "%s\n  \"%" PRIu64 "\": [", p ? "," : "", p + 1);
        for (uint64_t t = 0; t < c->tp; t++)
            fprintf(f, "%s%" PRIu64, t ? ", " : "", t + c->tp * p);
        fputc(']', f);
    }
    fputs(c->tp > 1 ? "\n}\n" : "}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
