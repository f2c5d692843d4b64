/* Peers and tags of SEND/RECV nodes (Vimana; the reference's behaviour, docs/vimana-et.md). The
 * reference writes SEND/RECV nodes without comm_src, comm_dst and
 * comm_tag, so a simulator cannot match them. The kernel's
 * record_param_comms op records the peer's rank in its process group
 * (PyTorch passes the destination rank for "send" and the source rank for
 * "recv"); the group's global_rank_start/stride attributes, or the ranks
 * listed by the `## process_group:init ##` node, turn it into a global
 * rank. Tags number the messages per (direction, group, peer) in id order:
 * the k-th send from A to B meets the k-th receive at B from A, which is
 * NCCL's matching rule. The own rank (comm_src of a SEND, comm_dst of a
 * RECV) is written when a collective's record_param_comms reveals it; the
 * simulator defaults it to the NPU's own rank otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pytorch/pt_graph.h"
#include "pytorch/pyjson.h"
#include "pytorch/pyvalue.h"
#include "util/grow.h"
#include "vimana/et.h"

#define WARN_LIMIT 5

/* Process groups from `## process_group:init ##`: pg_name -> ranks list. */
typedef struct pg_table {
    pj_doc doc;   /* the parsed payload */
    bool loaded;
} pg_table;

/* The payload is a JSON string holding [{"pg_name": .., "ranks": [..]}, ..]. */
static void pg_table_load(pg_table *pgs, const pt_trace *t)
{
    memset(pgs, 0, sizeof *pgs);
    for (uint32_t i = 0; i < t->n_nodes && !pgs->loaded; i++) {
        const pt_node *n = &t->nodes[i];
        if (n->kind != PT_METADATA_OP)
            continue;
        const pj_value *payload = pj_at(pj_get(n->field[PT_F_INPUTS], "values"), 0);
        if (!pj_str(payload) || pj_parse(&pgs->doc, "process_group:init", payload->v.s, payload->n, NULL) != 0)
            continue;
        if (pgs->doc.root.type == PJ_ARRAY)
            pgs->loaded = true;
        else
            pj_free(&pgs->doc);
    }
}

static void pg_table_free(pg_table *pgs)
{
    if (pgs->loaded)
        pj_free(&pgs->doc);
    pgs->loaded = false;
}

/* Global rank of `local` in group `pg` from the process-group table. */
static bool pg_table_global(const pg_table *pgs, const char *pg, int64_t local, int64_t *global)
{
    size_t n = pgs->loaded ? pj_len(&pgs->doc.root) : 0;
    for (size_t k = 0; k < n; k++) {
        const pj_value *entry = pj_at(&pgs->doc.root, k);
        const char *name = pj_str(pj_get(entry, "pg_name"));
        const pj_value *ranks = pj_get(entry, "ranks");
        if (!name || strcmp(name, pg) != 0 || !ranks || ranks->type != PJ_ARRAY)
            continue;
        if (ranks->n == 0) { /* all ranks, in order */
            *global = local;
            return true;
        }
        return local >= 0 && (uint64_t)local < ranks->n && pt_pyvalue_int64(pj_at(ranks, (size_t)local), global) == 0;
    }
    return false;
}

/* What a record_param_comms op says about its communication. */
typedef struct rpc_info {
    const char *collective; /* "send", "all_reduce", ... */
    int64_t rank;           /* the rank argument: own rank, or the peer for send/recv */
    const char *pg;         /* process-group name, or NULL */
    bool strided;           /* global = start + local * stride is known */
    int64_t start, stride;
} rpc_info;

static bool attr_int(const pt_node *n, const char *name, int64_t *out)
{
    return pt_pyvalue_int64(pt_node_attr(n, name), out) == 0;
}

static const char *string_at(const pj_value *list, size_t k)
{
    return pj_str(pj_at(list, k));
}

/* Inputs of record_param_comms: [tensors?, seq, pg (id or (name, desc)),
 * rank, collective name, in splits, out splits, (start, stride,) size]; the
 * tensor list is absent for ops without tensors, so positions are taken
 * relative to the collective name. */
static bool read_rpc(const pt_node *rpc, const char *want, rpc_info *info)
{
    const pj_value *inputs = rpc->field[PT_F_INPUTS];
    const pj_value *values = pj_get(inputs, "values"), *types = pj_get(inputs, "types");
    size_t n = pj_len(values) < pj_len(types) ? pj_len(values) : pj_len(types);
    const char *named = pj_str(pt_node_attr(rpc, "collective_name"));
    if (!named)
        named = want;
    size_t k = 1;
    for (; k < n; k++) {
        const char *type = string_at(types, k), *value = string_at(values, k);
        if (type && value && strcmp(type, "String") == 0 && (!named || strcmp(value, named) == 0))
            break;
    }
    const char *rank_type = k < n ? string_at(types, k - 1) : NULL;
    if (k >= n || !rank_type || strcmp(rank_type, "Int") != 0 ||
        pt_pyvalue_int64(pj_at(values, k - 1), &info->rank) != 0)
        return false;
    info->collective = string_at(values, k);
    info->pg = pj_str(pt_node_attr(rpc, "pg_name"));
    if (!info->pg && k >= 2 && string_at(types, k - 2) && strncmp(string_at(types, k - 2), "Tuple[String", 12) == 0)
        info->pg = string_at(pj_at(values, k - 2), 0);
    info->strided = attr_int(rpc, "global_rank_start", &info->start) &&
                    attr_int(rpc, "global_rank_stride", &info->stride);
    if (!info->strided && k + 4 < n) {
        const char *ts = string_at(types, k + 3), *tr = string_at(types, k + 4);
        info->strided = ts && tr && strcmp(ts, "Int") == 0 && strcmp(tr, "Int") == 0 &&
                        pt_pyvalue_int64(pj_at(values, k + 3), &info->start) == 0 &&
                        pt_pyvalue_int64(pj_at(values, k + 4), &info->stride) == 0;
    }
    if (info->strided && (info->start < 0 || info->stride < 1))
        info->strided = false; /* PyTorch writes -1 when it does not know */
    return true;
}

static bool to_global(const rpc_info *info, const pg_table *pgs, int64_t local, int64_t *global)
{
    if (info->strided && local >= 0 &&
        !__builtin_mul_overflow(local, info->stride, global) && !__builtin_add_overflow(*global, info->start, global))
        return true;
    return info->pg && pg_table_global(pgs, info->pg, local, global);
}

/* record_param_comms of a kernel: its parent, or its grandparent (kernel
 * under nccl:send under record_param_comms). */
static const pt_node *find_rpc(const pt_trace *t, uint32_t kernel)
{
    uint32_t p = t->nodes[kernel].parent;
    for (int up = 0; up < 2 && p != PT_NONE; up++, p = t->nodes[p].parent)
        if (strcmp(t->nodes[p].name, "record_param_comms") == 0)
            return &t->nodes[p];
    return NULL;
}

/* Own global rank from the first collective (not send/recv) whose
 * record_param_comms can be mapped to a global rank. */
static bool own_rank(const pt_trace *t, const pg_table *pgs, int64_t *own)
{
    for (uint32_t k = 0; k < t->n_nodes; k++) {
        const pt_node *n = &t->nodes[t->by_id[k]];
        rpc_info info;
        if (strcmp(n->name, "record_param_comms") != 0 || !read_rpc(n, NULL, &info))
            continue;
        if (strcmp(info.collective, "send") == 0 || strcmp(info.collective, "recv") == 0)
            continue;
        if (to_global(&info, pgs, info.rank, own))
            return true;
    }
    return false;
}

typedef struct p2p_msg {
    uint32_t node;
    uint32_t seq;     /* position in id order */
    bool send;
    int64_t peer;
    const char *pg;
} p2p_msg;

/* Messages of one channel (direction, group, peer) share a tag sequence. */
static bool same_channel(const p2p_msg *x, const p2p_msg *y)
{
    return x->send == y->send && x->peer == y->peer && strcmp(x->pg, y->pg) == 0;
}

static int cmp_msg(const void *a, const void *b)
{
    const p2p_msg *x = a, *y = b;
    if (x->send != y->send)
        return x->send ? -1 : 1;
    int c = strcmp(x->pg, y->pg);
    if (c)
        return c;
    if (x->peer != y->peer)
        return x->peer < y->peer ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void warn_unresolved(pt_graph *g, uint32_t i, const char *why, void (*warn)(void *, const char *), void *ctx)
{
    g->stats.p2p_unresolved++;
    if (!warn || g->stats.p2p_unresolved > WARN_LIMIT)
        return;
    char line[512];
    const pt_node *n = &g->trace->nodes[i];
    snprintf(line, sizeof line, "%s: node %llu (%s): %s node written without comm_src/comm_dst/comm_tag: %s",
             g->trace->path, (unsigned long long)n->id, n->name,
             g->out[i].type == VET_COMM_SEND_NODE ? "SEND" : "RECV", why);
    warn(ctx, line);
}

int pt_derive_p2p(pt_graph *g, void (*warn)(void *ctx, const char *line), void *ctx, pt_error *err)
{
    const pt_trace *t = g->trace;
    p2p_msg *msgs = NULL;
    uint32_t n_msgs = 0, cap = 0;
    pg_table pgs = {.loaded = false};
    int64_t own = -1;
    bool loaded = false, have_own = false;
    for (uint32_t k = 0; k < t->n_nodes; k++) {
        uint32_t i = t->by_id[k];
        uint8_t type = g->out[i].type;
        if (!g->out[i].converted || (type != VET_COMM_SEND_NODE && type != VET_COMM_RECV_NODE))
            continue;
        if (!loaded) {
            pg_table_load(&pgs, t);
            have_own = own_rank(t, &pgs, &own);
            loaded = true;
        }
        bool send = type == VET_COMM_SEND_NODE;
        const pt_node *rpc = find_rpc(t, i);
        rpc_info info;
        int64_t peer;
        if (!rpc) {
            warn_unresolved(g, i, "no record_param_comms op above the kernel", warn, ctx);
            continue;
        }
        if (!read_rpc(rpc, send ? "send" : "recv", &info)) {
            warn_unresolved(g, i, "its record_param_comms inputs do not name the peer rank", warn, ctx);
            continue;
        }
        if (!to_global(&info, &pgs, info.rank, &peer) || peer > INT32_MAX) {
            warn_unresolved(g, i, "the peer's process group has no global_rank_start/stride and no known rank list",
                            warn, ctx);
            continue;
        }
        if (grow_array_u32((void **)&msgs, &cap, n_msgs + 1, sizeof *msgs, 64, UINT32_MAX) != 0) {
            free(msgs);
            pg_table_free(&pgs);
            return pt_fail(err, "%s: out of memory", t->path);
        }
        msgs[n_msgs++] = (p2p_msg){i, k, send, peer, info.pg ? info.pg : ""};
    }
    if (n_msgs > 1)
        qsort(msgs, n_msgs, sizeof *msgs, cmp_msg);
    for (uint32_t m = 0, tag = 0; m < n_msgs; m++) {
        tag = m > 0 && same_channel(&msgs[m], &msgs[m - 1]) ? tag + 1 : 0;
        pt_chakra *c = &g->out[msgs[m].node];
        c->has_comm_tag = true;
        c->comm_tag = (int32_t)tag;
        if (msgs[m].send) {
            c->has_comm_dst = true;
            c->comm_dst = (int32_t)msgs[m].peer;
            c->has_comm_src = have_own && own >= 0 && own <= INT32_MAX;
            c->comm_src = (int32_t)own;
        } else {
            c->has_comm_src = true;
            c->comm_src = (int32_t)msgs[m].peer;
            c->has_comm_dst = have_own && own >= 0 && own <= INT32_MAX;
            c->comm_dst = (int32_t)own;
        }
        g->stats.p2p_derived++;
    }
    if (warn && g->stats.p2p_unresolved > WARN_LIMIT) {
        char line[256];
        snprintf(line, sizeof line, "%s: %u SEND/RECV nodes in all lack comm_src/comm_dst/comm_tag", t->path,
                 g->stats.p2p_unresolved);
        warn(ctx, line);
    }
    free(msgs);
    pg_table_free(&pgs);
    return 0;
}
