#include "pytorch/pt_write.h"

#include <string.h>

#include "pytorch/pyrepr.h"
#include "pytorch/pt_strbuf.h"
#include "vimana/et.h"

/* Metadata attributes: schema (string), pid (uint64), time (string),
 * start_ts (uint64), finish_ts (uint64); no version. */
static int put_metadata(const pt_graph *g, vet_writer *w, vet_builder *b, pt_error *err)
{
    const pt_metadata *m = &g->trace->meta;
    vet_error verr;
    vet_builder_reset(b, 0, "", VET_INVALID_NODE);
    vet_builder_attr_string(b, "schema", m->schema);
    vet_builder_attr_uint64(b, "pid", m->pid);
    vet_builder_attr_string(b, "time", m->time);
    vet_builder_attr_uint64(b, "start_ts", m->start_ts);
    vet_builder_attr_uint64(b, "finish_ts", m->finish_ts);
    if (vet_builder_failed(b))
        return pt_fail(err, "%s: out of memory", g->trace->path);
    if (vet_writer_put_metadata(w, vet_builder_metadata(b), &verr) != 0)
        return pt_fail(err, "%s", verr.msg);
    return 0;
}

/* str() of inputs/outputs values, shapes and types, as six NUL-separated
 * strings in one buffer; offsets in off[]. */
static void render_io(const pt_node *n, pt_strbuf *sb, size_t off[6])
{
    static const char *const keys[3] = {"values", "shapes", "types"};
    const pj_value *io[2] = {n->field[PT_F_INPUTS], n->field[PT_F_OUTPUTS]};
    pt_sb_reset(sb);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            off[s * 3 + k] = sb->len;
            pt_pystr_value(sb, pj_get(io[s], keys[k]));
            pt_sb_putc(sb, '\0');
        }
}

static void build_node(const pt_graph *g, uint32_t i, vet_builder *b, pt_strbuf *io)
{
    static const char *const host_names[PT_HOST_ATTR_COUNT] = {"rf_id", "fw_parent", "seq_id",
                                                                "scope", "tid",       "fw_tid"};
    const pt_node *n = &g->trace->nodes[i];
    const pt_chakra *c = &g->out[i];
    vet_builder_reset(b, n->id, n->name, (enum vet_node_type)c->type);
    if (c->has_ctrl_dep)
        vet_builder_add_ctrl_dep(b, g->trace->nodes[n->parent].id);
    for (uint32_t e = c->dep_head; e != PT_NONE; e = g->edges[e].next)
        vet_builder_add_data_dep(b, g->edges[e].id);
    vet_builder_set_duration(b, c->duration);
    size_t off[6];
    render_io(n, io, off);
    const char *s = io->data;
    if (!io->failed) {
        vet_builder_set_inputs(b, s + off[0], s + off[1], s + off[2]);
        vet_builder_set_outputs(b, s + off[3], s + off[4], s + off[5]);
    }
    for (int a = 0; a < PT_HOST_ATTR_COUNT; a++)
        vet_builder_attr_int64(b, host_names[a], c->host_attr[a]);
    vet_builder_attr_string(b, "op_schema", c->op_schema);
    vet_builder_attr_bool(b, "is_cpu_op", !n->is_gpu);
    if (c->has_stream)
        vet_builder_attr_int64(b, "stream", c->stream);
    if (c->type == VET_COMM_COLL_NODE)
        vet_builder_attr_int64(b, "comm_type", c->comm_type);
    if (c->type == VET_COMM_COLL_NODE || c->type == VET_COMM_SEND_NODE || c->type == VET_COMM_RECV_NODE) {
        vet_builder_attr_int64(b, "comm_size", c->comm_size);
        if (c->has_pg_name)
            vet_builder_attr_string(b, "pg_name", c->pg_name);
    }
    if (c->has_comm_src)
        vet_builder_attr_int32(b, "comm_src", c->comm_src);
    if (c->has_comm_dst)
        vet_builder_attr_int32(b, "comm_dst", c->comm_dst);
    if (c->has_comm_tag)
        vet_builder_attr_int32(b, "comm_tag", c->comm_tag);
}

static long put_nodes(const pt_graph *g, vet_writer *w, vet_builder *b, pt_error *err)
{
    const pt_trace *t = g->trace;
    pt_strbuf io;
    pt_sb_init(&io);
    long written = 0;
    bool have_prev = false;
    uint64_t prev = 0;
    for (uint32_t k = 0; k < t->n_nodes; k++) {
        uint32_t i = t->by_id[k];
        if (!pt_graph_kept(g, i))
            continue;
        if (have_prev && t->nodes[i].id == prev) {
            written = pt_fail(err, "%s: duplicate node id %llu in the output", t->path, (unsigned long long)prev);
            break;
        }
        have_prev = true;
        prev = t->nodes[i].id;
        build_node(g, i, b, &io);
        vet_error verr;
        if (io.failed || vet_builder_failed(b)) {
            written = pt_fail(err, "%s: out of memory", t->path);
            break;
        }
        if (vet_writer_put_node(w, vet_builder_node(b), &verr) != 0) {
            written = pt_fail(err, "%s", verr.msg);
            break;
        }
        written++;
    }
    pt_sb_free(&io);
    return written;
}

long pt_write_et(const pt_graph *g, const char *path, pt_error *err)
{
    vet_error verr;
    vet_builder *b = vet_builder_new();
    if (!b)
        return pt_fail(err, "%s: out of memory", path);
    vet_writer *w = vet_writer_open(path, &verr);
    if (!w) {
        vet_builder_free(b);
        return pt_fail(err, "%s", verr.msg);
    }
    long written = put_metadata(g, w, b, err);
    if (written == 0)
        written = put_nodes(g, w, b, err);
    if (vet_writer_close(w, &verr) != 0 && written >= 0)
        written = pt_fail(err, "%s", verr.msg);
    vet_builder_free(b);
    return written;
}
