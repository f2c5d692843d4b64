#include "inference/inf_emit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int put_metadata(struct inf_emit *e)
{
    vet_metadata md = {.version = "0.0.4"};
    uint8_t *bytes;
    size_t len;
    if (vet_encode_metadata(&md, &bytes, &len) != 0)
        return -1;
    memcpy(e->rec.b, bytes, len);
    e->rec.n = len;
    free(bytes);
    uint8_t out[TF_PB_RECORD_MAX];
    size_t n = tf_pb_frame(&e->rec, out);
    return fwrite(out, 1, n, e->fp) == n ? 0 : -1;
}

int inf_emit_begin(struct inf_emit *e, const struct inf_config *c, uint64_t rank, FILE *fp)
{
    memset(e, 0, sizeof *e);
    e->c = c;
    uint64_t group = rank / inf_ranks(c);
    e->base = group * inf_ranks(c);
    e->t = (rank - e->base) % c->tp;
    e->p = (rank - e->base) / c->tp;
    e->fp = fp;
    snprintf(e->tp_pg, sizeof e->tp_pg, "%" PRIu64, 1 + group * c->pp + e->p);
    e->failed = put_metadata(e) != 0;
    return e->failed ? -1 : 0;
}

uint64_t inf_emit_rank(const struct inf_emit *e, uint64_t stage)
{
    return e->base + e->t + e->c->tp * stage;
}

void inf_emit_start(struct inf_emit *e, const char *name, enum vet_node_type type, uint64_t micros)
{
    uint64_t dep = e->last;
    tf_pb_node_start(&e->rec, e->next_id, name, strlen(name), (int)type, &dep, e->has_last ? 1 : 0, micros);
    tf_pb_attr_bool(&e->rec, "is_cpu_op", 0);
}

void inf_emit_finish(struct inf_emit *e, int on_chain)
{
    uint8_t out[TF_PB_RECORD_MAX];
    size_t n = tf_pb_frame(&e->rec, out);
    if (!e->failed && fwrite(out, 1, n, e->fp) != n)
        e->failed = 1;
    if (on_chain) {
        e->last = e->next_id;
        e->has_last = 1;
    }
    e->next_id++;
}

void inf_emit_comp(struct inf_emit *e, const char *name, uint64_t micros, uint64_t flops, uint64_t bytes)
{
    inf_emit_start(e, name, VET_COMP_NODE, micros);
    tf_pb_attr_int64(&e->rec, "num_ops", (int64_t)flops);
    tf_pb_attr_uint64(&e->rec, "tensor_size", bytes);
    inf_emit_finish(e, 1);
}

void inf_emit_tp_all_reduce(struct inf_emit *e, const char *what, uint64_t bytes)
{
    char name[128];
    if (e->c->tp == 1)
        return;
    snprintf(name, sizeof name, "tp_all_reduce_%s", what);
    inf_emit_start(e, name, VET_COMM_COLL_NODE, 0);
    tf_pb_attr_int64(&e->rec, "comm_type", VET_ALL_REDUCE);
    tf_pb_attr_int64(&e->rec, "comm_size", (int64_t)bytes);
    tf_pb_attr_string(&e->rec, "pg_name", e->tp_pg);
    inf_emit_finish(e, 1);
}

void inf_emit_p2p(struct inf_emit *e, const char *name, enum vet_node_type type, uint64_t peer, uint64_t tag,
                  uint64_t bytes)
{
    uint64_t self = inf_emit_rank(e, e->p);
    int send = type == VET_COMM_SEND_NODE;
    inf_emit_start(e, name, type, 0);
    tf_pb_attr_int32(&e->rec, "comm_src", (int32_t)(send ? self : peer));
    tf_pb_attr_int32(&e->rec, "comm_dst", (int32_t)(send ? peer : self));
    tf_pb_attr_int32(&e->rec, "comm_tag", (int32_t)tag);
    tf_pb_attr_uint64(&e->rec, "comm_size", bytes);
    inf_emit_finish(e, !send);
}
