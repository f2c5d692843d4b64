/* Step 4 of the reference converter: each host node becomes one Chakra
 * node (the reference's behaviour, docs/vimana-et.md): type, duration, attributes and,
 * for NCCL kernels, the communication fields. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pytorch/pt_graph.h"
#include "pytorch/pyvalue.h"
#include "vimana/et.h"

/* ---- one node ------------------------------------------------------------ */

static int node_fail(const pt_graph *g, uint32_t i, const char *what, const char *detail, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    return pt_fail(err, "%s: node %llu (%s): %s%s", g->trace->path, (unsigned long long)n->id, n->name, what,
                   detail ? detail : "");
}

static int field_fail(const pt_graph *g, uint32_t i, enum pt_field_id f, const char *want, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    return pt_fail(err, "%s: node %llu (%s): '%s' must be %s, got %s", g->trace->path, (unsigned long long)n->id,
                   n->name, pt_field_name(f), want, pj_type_name(n->field[f]));
}

/* duration_micros = int(exclusive_dur) (default 0), 0 for Optimizer.step. */
static int convert_duration(const pt_graph *g, uint32_t i, uint64_t *out, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    const pj_value *v = n->field[PT_F_EXCLUSIVE_DUR];
    *out = 0;
    if (v) {
        if (v->type == PJ_FLOAT) {
            double d = trunc(v->v.d);
            if (!(d >= 0 && d < 18446744073709551616.0))
                return field_fail(g, i, PT_F_EXCLUSIVE_DUR, "a finite number of microseconds >= 0", err);
            *out = (uint64_t)d;
        } else if (pt_pyvalue_uint64(v, out) != 0) {
            return field_fail(g, i, PT_F_EXCLUSIVE_DUR, "a number of microseconds >= 0", err);
        }
    }
    if (strstr(n->name, "Optimizer.step"))
        *out = 0;
    return 0;
}

/* IOInfo sources: a dict with values, shapes and types (rendered at write
 * time, only for nodes that survive). */
static int check_io(const pt_graph *g, uint32_t i, enum pt_field_id f, pt_error *err)
{
    const pj_value *v = g->trace->nodes[i].field[f];
    static const char *const keys[] = {"values", "shapes", "types"};
    for (int k = 0; k < 3; k++)
        if (!pj_get(v, keys[k]))
            return field_fail(g, i, f, "a dict with values, shapes and types", err);
    return 0;
}

static int convert_host_attrs(const pt_graph *g, uint32_t i, pt_chakra *c, pt_error *err)
{
    static const enum pt_field_id src[PT_HOST_ATTR_COUNT] = {PT_F_RF_ID, PT_F_FW_PARENT, PT_F_SEQ_ID,
                                                              PT_F_SCOPE, PT_F_TID,       PT_F_FW_TID};
    const pt_node *n = &g->trace->nodes[i];
    for (int a = 0; a < PT_HOST_ATTR_COUNT; a++) {
        if (pt_pyvalue_int64(n->field[src[a]], &c->host_attr[a]) != 0)
            return field_fail(g, i, src[a], "an integer attribute in the int64 range", err);
    }
    c->op_schema = pj_str(n->field[PT_F_OP_SCHEMA]);
    if (!c->op_schema)
        return field_fail(g, i, PT_F_OP_SCHEMA, "a string attribute", err);
    return 0;
}

/* stream defaults to 0; a JSON null means "no stream attribute". */
static int convert_stream(const pt_graph *g, uint32_t i, pt_chakra *c, pt_error *err)
{
    const pj_value *v = g->trace->nodes[i].field[PT_F_STREAM];
    c->has_stream = !v || v->type != PJ_NULL;
    c->stream = 0;
    if (v && c->has_stream && pt_pyvalue_int64(v, &c->stream) != 0)
        return field_fail(g, i, PT_F_STREAM, "an integer or null", err);
    return 0;
}

/* The name that decides between SEND and RECV for an ncclDevKernel_SendRecv
 * kernel: its parent's, or its grandparent's when the parent is
 * record_param_comms (whose non-empty pg_name the kernel then inherits). */
static int sendrecv_keyword(const pt_graph *g, uint32_t i, const char **keyword, const pj_value **pg,
                            pt_error *err)
{
    const pt_trace *t = g->trace;
    const pt_node *parent = &t->nodes[t->nodes[i].parent];
    if (strcmp(parent->name, "record_param_comms") != 0) {
        *keyword = parent->name;
        return 0;
    }
    if (parent->parent == PT_NONE)
        return node_fail(g, i, "its record_param_comms parent has no parent to name the operation", NULL, err);
    *keyword = t->nodes[parent->parent].name;
    const pj_value *pg_name = parent->field[PT_F_PG_NAME];
    if (pg_name && !(pg_name->type == PJ_STRING && pg_name->n == 0))
        *pg = pg_name;
    return 0;
}

static int node_type(const pt_graph *g, uint32_t i, const pj_value **pg, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    if (n->kind == PT_METADATA_OP)
        return VET_METADATA_NODE;
    if (!n->is_gpu)
        return VET_COMP_NODE;
    if (strstr(n->name, "ncclDevKernel_SendRecv")) {
        const char *keyword = "";
        if (sendrecv_keyword(g, i, &keyword, pg, err) != 0)
            return -1;
        if (strstr(keyword, "send"))
            return VET_COMM_SEND_NODE;
        if (strstr(keyword, "recv"))
            return VET_COMM_RECV_NODE;
        if (strstr(keyword, "nccl:all_to_all"))
            return VET_COMM_COLL_NODE;
    }
    if (strstr(n->name, "ncclKernel") || strstr(n->name, "ncclDevKernel"))
        return VET_COMM_COLL_NODE;
    return VET_COMP_NODE;
}

/* Python's `key in name.replace("_", "").replace("-", "").lower()` for an
 * ASCII key, without building the normalised copy. */
static bool normalized_contains(const char *name, const char *key)
{
    for (const char *start = name; *start; start++) {
        const char *p = start, *k = key;
        while (*k) {
            while (*p == '_' || *p == '-')
                p++;
            char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
            if (c != *k)
                break;
            p++;
            k++;
        }
        if (!*k)
            return true;
    }
    return false;
}

/* comm_type from the kernel name: drop '_' and '-', lowercase, first match
 * in the reference's order. */
static int collective_type(const pt_graph *g, uint32_t i, int64_t *out, pt_error *err)
{
    static const struct {
        const char *key;
        int64_t type;
    } map[] = {{"allreduce", VET_ALL_REDUCE},
               {"alltoall", VET_ALL_TO_ALL},
               {"allgather", VET_ALL_GATHER},
               {"reducescatter", VET_REDUCE_SCATTER},
               {"broadcast", VET_BROADCAST}};
    const char *name = g->trace->nodes[i].name;
    for (size_t m = 0; m < sizeof map / sizeof map[0]; m++)
        if (normalized_contains(name, map[m].key)) {
            *out = map[m].type;
            return 0;
        }
    if (strstr(name, "ncclDevKernel_SendRecv")) {
        *out = VET_ALL_TO_ALL;
        return 0;
    }
    return node_fail(g, i, "cannot tell the collective type from the kernel name ",
                     "(expected allreduce, alltoall, allgather, reducescatter or broadcast in it)", err);
}

/* numel * itemsize of one tensor value [id, storage, offset, numel, itemsize, device]. */
static int tensor_bytes(const pt_graph *g, uint32_t i, const pj_value *tensor, int64_t *out, pt_error *err)
{
    int64_t numel, itemsize;
    if (pt_pyvalue_int64(pj_at(tensor, 3), &numel) != 0 || pt_pyvalue_int64(pj_at(tensor, 4), &itemsize) != 0)
        return node_fail(g, i, "a tensor input is not [id, storage, offset, numel, itemsize, device]", NULL, err);
    if (__builtin_mul_overflow(numel, itemsize, out))
        return node_fail(g, i, "tensor size overflows int64", NULL, err);
    return 0;
}

/* comm_size: the bytes of every tensor input (GenericList[Tensor...]
 * inputs summed over their members); values and types are zipped, so the
 * shorter list decides how many inputs count. */
static int comm_size(const pt_graph *g, uint32_t i, int64_t *out, pt_error *err)
{
    const pj_value *inputs = g->trace->nodes[i].field[PT_F_INPUTS];
    const pj_value *values = pj_get(inputs, "values"), *types = pj_get(inputs, "types");
    if (values->type != PJ_ARRAY || types->type != PJ_ARRAY)
        return node_fail(g, i, "inputs 'values' and 'types' must be lists to size a communication", NULL, err);
    int64_t total = 0;
    for (size_t k = 0; k < values->n && k < types->n; k++) {
        const char *ts = pj_str(pj_at(types, k));
        const pj_value *value = pj_at(values, k);
        if (!ts)
            return node_fail(g, i, "inputs 'types' entries must be strings", NULL, err);
        if (!strstr(ts, "Tensor"))
            continue;
        bool list = strncmp(ts, "GenericList[Tensor", 18) == 0;
        if (list && value->type != PJ_ARRAY)
            return node_fail(g, i, "a GenericList[Tensor] input is not a list", NULL, err);
        size_t members = list ? value->n : 1;
        for (size_t m = 0; m < members; m++) {
            int64_t bytes = 0;
            if (tensor_bytes(g, i, list ? pj_at(value, m) : value, &bytes, err) != 0)
                return -1;
            if (__builtin_add_overflow(total, bytes, &total))
                return node_fail(g, i, "comm_size overflows int64", NULL, err);
        }
    }
    *out = total;
    return 0;
}

/* pg_name attribute: written when it is not the empty string. */
static int convert_pg_name(const pt_graph *g, uint32_t i, const pj_value *inherited, pt_chakra *c,
                           pt_error *err)
{
    const pj_value *v = inherited ? inherited : g->trace->nodes[i].field[PT_F_PG_NAME];
    c->has_pg_name = false;
    if (!v || (v->type == PJ_STRING && v->n == 0))
        return 0;
    if (v->type != PJ_STRING)
        return pt_fail(err, "%s: node %llu (%s): 'pg_name' must be a string, got %s", g->trace->path,
                       (unsigned long long)g->trace->nodes[i].id, g->trace->nodes[i].name, pj_type_name(v));
    c->has_pg_name = true;
    c->pg_name = v->v.s;
    return 0;
}

static int convert_comm(const pt_graph *g, uint32_t i, const pj_value *inherited_pg, pt_chakra *c, pt_error *err)
{
    if (c->type == VET_COMM_COLL_NODE && collective_type(g, i, &c->comm_type, err) != 0)
        return -1;
    if (comm_size(g, i, &c->comm_size, err) != 0)
        return -1;
    return convert_pg_name(g, i, inherited_pg, c, err);
}

/* Converts node i. A node reached twice (a metadata node that also has a
 * `cat`) is converted again in place, as the reference overwrites it. */
static int convert_node(pt_graph *g, uint32_t i, bool via_parent, pt_error *err)
{
    const pt_node *n = &g->trace->nodes[i];
    pt_chakra *c = &g->out[i];
    const pj_value *inherited_pg = NULL;
    int type = node_type(g, i, &inherited_pg, err);
    if (type < 0)
        return -1;
    c->type = (uint8_t)type;
    c->has_ctrl_dep = n->parent != PT_NONE && g->out[n->parent].converted;
    if (convert_duration(g, i, &c->duration, err) || check_io(g, i, PT_F_INPUTS, err) ||
        check_io(g, i, PT_F_OUTPUTS, err) || convert_host_attrs(g, i, c, err) || convert_stream(g, i, c, err))
        return -1;
    bool comm = type == VET_COMM_COLL_NODE || type == VET_COMM_SEND_NODE || type == VET_COMM_RECV_NODE;
    /* the reference adds comm fields only while emitting GPU children */
    if (via_parent && comm && convert_comm(g, i, inherited_pg, c, err) != 0)
        return -1;
    if (!c->converted) {
        c->converted = true;
        g->order[g->n_order++] = i;
        g->stats.converted++;
    }
    return 0;
}

int pt_convert_nodes(pt_graph *g, pt_error *err)
{
    const pt_trace *t = g->trace;
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        if (t->nodes[i].kind == PT_GPU_OP)
            continue;
        if (convert_node(g, i, false, err) != 0)
            return -1;
        for (uint32_t k = t->gpu_child_off[i]; k < t->gpu_child_off[i + 1]; k++)
            if (convert_node(g, t->gpu_child[k], true, err) != 0)
                return -1;
    }
    return 0;
}
