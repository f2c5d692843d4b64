/*
 * Loads the NPUs' Chakra ETs into compact, id-sorted node arrays with their
 * dependencies in CSR form (the graph itself is core/trace's trace_graph;
 * this file reads each node's record and words the refusals). Every
 * attribute the simulation will need is read and checked here, so a bad
 * trace is refused before time starts with one line naming the file, the
 * node and the problem.
 *
 * A parsed trace is read-only, so NPUs that run the same bytes share one
 * (wl_trace): the single-file form PREFIX.et, or per-rank files that a
 * content hash and a byte comparison find identical. A trace with SEND or
 * RECV nodes is parsed again for each NPU, because what those nodes may
 * name (their peer, themselves) depends on the NPU.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace_graph.h"
#include "util/file_digest.h"
#include "util/sorted.h"
#include "vimana/et.h"
#include "workload/families.h"
#include "workload/workload.h"

typedef struct load_ctx {
    sim *s;
    wl_trace *t;
    uint32_t npu;               /* the NPU the trace is read for (SEND/RECV checks) */
    const vet_node *n;
    size_t names_cap;           /* bytes allocated for t->names */
    wl_tensor_builder *tensors; /* with --report: the nodes' tensors; else NULL */
    uint64_t *marker_ids;       /* [n_markers of t]: the markers' node ids until the nodes are sorted */
    uint32_t cap_markers;
} load_ctx;

static int node_fail(load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int node_fail(load_ctx *c, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_fail(c->s, "%s: node %llu (%s): %s", c->t->path, (unsigned long long)c->n->id, c->n->name, msg);
    return -1;
}

static const char *kind_name(const vet_node *n, const char *attr)
{
    const vet_attr *a = vet_node_attr(n, attr);
    return a ? vet_value_kind_name(a->kind) : "nothing";
}

static int get_u64(load_ctx *c, const char *attr, bool required, uint64_t dflt, uint64_t *out)
{
    enum vet_attr_status st = vet_node_uint64(c->n, attr, dflt, out);
    if (st == VET_ATTR_ABSENT && required)
        return node_fail(c, "missing attribute %s", attr);
    if (st == VET_ATTR_BADTYPE)
        return node_fail(c, "attribute %s must be a non-negative integer (found %s)", attr, kind_name(c->n, attr));
    return 0;
}

static int get_i32(load_ctx *c, const char *attr, bool required, int64_t dflt, int32_t *out)
{
    int64_t v;
    enum vet_attr_status st = vet_node_int64(c->n, attr, dflt, &v);
    if (st == VET_ATTR_ABSENT && required)
        return node_fail(c, "missing attribute %s", attr);
    if (st == VET_ATTR_BADTYPE || v < INT32_MIN || v > INT32_MAX)
        return node_fail(c, "attribute %s must be a 32-bit integer (found %s)", attr, kind_name(c->n, attr));
    *out = (int32_t)v;
    return 0;
}

static int read_involved(load_ctx *c, wl_node *out)
{
    const vet_attr *a = vet_node_attr(c->n, "involved_dim");
    if (!a)
        return 0;
    if (a->kind != VET_BOOL_LIST)
        return node_fail(c, "Expected bool_list in involved_dim but found another type (%s)",
                         vet_value_kind_name(a->kind));
    const int *items = a->v.list.items;
    size_t n = a->v.list.n < 64 ? a->v.list.n : 64;
    out->n_involved = (uint8_t)(n == 0 ? 0 : n);
    out->involved = 0;
    for (size_t i = 0; i < n; i++)
        if (items[i])
            out->involved |= 1ull << i;
    if (a->v.list.n == 0)
        return node_fail(c, "involved_dim is an empty list");
    return 0;
}

static int read_pg(load_ctx *c, wl_node *out)
{
    const char *pg;
    out->pg = WL_NO_GROUP;
    enum vet_attr_status st = vet_node_string(c->n, "pg_name", "", &pg);
    if (st == VET_ATTR_BADTYPE)
        return node_fail(c, "attribute pg_name must be a string (found %s)", kind_name(c->n, "pg_name"));
    if (pg[0] == '\0' || strcmp(pg, "0") == 0)
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(pg, &end, 10);
    if (*end || errno || v < 0)
        return node_fail(c, "pg_name '%s' is not a communicator group number", pg);
    out->pg = v;
    return 0;
}

static int read_collective(load_ctx *c, wl_node *out)
{
    int64_t type;
    enum vet_attr_status st = vet_node_int64(c->n, "comm_type", 0, &type);
    if (st == VET_ATTR_ABSENT)
        return node_fail(c, "missing attribute comm_type");
    if (st == VET_ATTR_BADTYPE)
        return node_fail(c, "attribute comm_type must be an integer (found %s)", kind_name(c->n, "comm_type"));
    if (type != VET_ALL_REDUCE && type != VET_ALL_GATHER && type != VET_REDUCE_SCATTER &&
        type != VET_ALL_TO_ALL && type != VET_BROADCAST) {
        const char *name = vet_coll_type_name(type);
        return node_fail(c, "Unsupported collective comm type %lld%s%s%s (supported: ALL_REDUCE, ALL_GATHER, "
                            "REDUCE_SCATTER, ALL_TO_ALL, BROADCAST)", (long long)type, name ? " (" : "",
                         name ? name : "", name ? ")" : "");
    }
    out->comm_type = type;
    if (type == VET_BROADCAST)
        return 0;
    if (get_u64(c, "comm_size", true, 0, &out->comm_size) != 0 ||
        get_i32(c, "comm_priority", false, 0, &out->comm_priority) != 0 || read_involved(c, out) != 0 ||
        read_pg(c, out) != 0)
        return -1;
    return 0;
}

static int read_p2p(load_ctx *c, wl_node *out, bool send)
{
    int32_t self = (int32_t)c->npu;
    if (get_i32(c, "comm_src", !send, self, &out->comm_src) != 0 ||
        get_i32(c, "comm_dst", send, self, &out->comm_dst) != 0 ||
        get_i32(c, "comm_tag", true, 0, &out->comm_tag) != 0 || get_u64(c, "comm_size", true, 0, &out->comm_size) != 0)
        return -1;
    if (send && out->comm_src != self)
        return node_fail(c, "Send node should be issued by the sender (comm_src %d, but this is NPU %d)",
                         out->comm_src, self);
    if (!send && out->comm_dst != self)
        return node_fail(c, "Recv node should be issued by the receiver (comm_dst %d, but this is NPU %d)",
                         out->comm_dst, self);
    int32_t peer = send ? out->comm_dst : out->comm_src;
    if (peer < 0 || (uint32_t)peer >= c->s->n_npus)
        return node_fail(c, "%s %d is not an NPU of this %u-NPU system", send ? "comm_dst" : "comm_src", peer,
                         c->s->n_npus);
    if (peer == self)
        return node_fail(c, send ? "COMM_SEND to itself (comm_dst is this NPU)"
                                 : "COMM_RECV from itself (comm_src is this NPU)");
    if (out->comm_tag < 0)
        return node_fail(c, "comm_tag %d is negative", out->comm_tag);
    if (out->comm_size == 0)
        return node_fail(c, "zero-byte %s between NPU %d and NPU %d (tag %d)", send ? "COMM_SEND" : "COMM_RECV",
                         out->comm_src, out->comm_dst, out->comm_tag);
    return 0;
}

/* --comm-scale: the message or collective size times the scale, rounded
 * to the nearest byte (halves away from zero), at least one byte. */
static int scale_comm_size(load_ctx *c, wl_node *out)
{
    double scale = c->s->opt->comm_scale;
    if (scale == 1.0 || out->comm_size == 0)
        return 0;
    uint64_t scaled;
    if (sim_scale_u64(out->comm_size, scale, UINT64_MAX, &scaled) != 0)
        return node_fail(c, "comm_size %llu times --comm-scale=%g is out of range",
                         (unsigned long long)out->comm_size, scale);
    out->comm_size = scaled ? scaled : 1;
    return 0;
}

/* Appends to the name table, growing it by doubling: a realloc per node
 * copies the whole table each time under allocators that do not grow in
 * place (quadratic in the trace's size). */
static uint32_t add_string(load_ctx *c, const char *str)
{
    wl_trace *w = c->t;
    size_t len = strlen(str) + 1;
    if (w->names_len + len > c->names_cap) {
        size_t cap = c->names_cap ? c->names_cap : 64;
        while (cap < w->names_len + len)
            cap *= 2;
        char *grown = realloc(w->names, cap);
        if (!grown)
            return 0;
        w->names = grown;
        c->names_cap = cap;
    }
    memcpy(w->names + w->names_len, str, len);
    uint32_t off = (uint32_t)w->names_len;
    w->names_len += len;
    return off;
}

/* An inference marker (workload.h, wl_marker): kept with its node id,
 * which becomes an index once the nodes are sorted (resolve_markers). */
static int read_marker(load_ctx *c)
{
    const vet_node *n = c->n;
    int64_t token;
    uint64_t batch;
    enum vet_attr_status st = vet_node_int64(n, WL_MARKER_ATTR, 0, &token);
    if (st == VET_ATTR_ABSENT)
        return 0;
    if (st != VET_ATTR_OK || token < 0 || token > UINT32_MAX - 1)
        return node_fail(c, "attribute " WL_MARKER_ATTR " must be an integer from 0 to %u (found %s)",
                         UINT32_MAX - 1, st == VET_ATTR_OK ? "a value out of range" : kind_name(n, WL_MARKER_ATTR));
    if (vet_node_uint64(n, WL_MARKER_BATCH_ATTR, 0, &batch) != VET_ATTR_OK && vet_node_attr(n, WL_MARKER_BATCH_ATTR))
        return node_fail(c, "attribute " WL_MARKER_BATCH_ATTR " must be a non-negative integer (found %s)",
                         kind_name(n, WL_MARKER_BATCH_ATTR));
    wl_trace *t = c->t;
    if (t->n_markers == c->cap_markers) {
        uint32_t cap = c->cap_markers ? 2 * c->cap_markers : 64;
        wl_marker *m = realloc(t->markers, cap * sizeof *m);
        if (m)
            t->markers = m;
        uint64_t *ids = m ? realloc(c->marker_ids, cap * sizeof *ids) : NULL;
        if (!ids) {
            sim_fail(c->s, "out of memory");
            return -1;
        }
        c->marker_ids = ids;
        c->cap_markers = cap;
    }
    c->marker_ids[t->n_markers] = n->id;
    t->markers[t->n_markers++] = (wl_marker){.token = (uint32_t)token, .batch = batch};
    return 0;
}

static int read_node(load_ctx *c, wl_node *out)
{
    const vet_node *n = c->n;
    const sys_config *cfg = &c->s->cfg;
    memset(out, 0, sizeof *out);
    out->id = n->id;
    out->type = (uint8_t)n->type;
    out->duration_us = n->duration_micros;
    out->pg = WL_NO_GROUP;
    out->name = add_string(c, n->name);
    char why[400];
    if (c->tensors && wl_tensor_builder_add(c->tensors, n, &out->io, why, sizeof why) != 0)
        return node_fail(c, "%s", why);
    if (vet_node_bool(n, "is_cpu_op", false, &out->is_cpu) == VET_ATTR_BADTYPE)
        return node_fail(c, "attribute is_cpu_op must be a bool (found %s)", kind_name(n, "is_cpu_op"));
    if (read_marker(c) != 0)
        return -1;
    switch (n->type) {
    case VET_COMP_NODE:
        out->kind = out->is_cpu ? KIND_CPU : KIND_GPU;
        out->slot = out->is_cpu ? SLOT_CPU : SLOT_GPU;
        break;
    case VET_COMM_COLL_NODE:
    case VET_COMM_SEND_NODE:
    case VET_COMM_RECV_NODE:
        out->kind = KIND_COMM;
        out->slot = out->is_cpu ? SLOT_CPU : n->type == VET_COMM_RECV_NODE ? SLOT_NONE : SLOT_COMM;
        break;
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        out->kind = KIND_REMOTE_MEM;
        out->slot = out->is_cpu ? SLOT_CPU : SLOT_COMM;
        break;
    case VET_INVALID_NODE:
        out->kind = KIND_INVALID;
        out->slot = out->is_cpu ? SLOT_CPU : SLOT_COMM;
        break;
    default: /* METADATA: counted under no kind */
        out->kind = KIND_NONE;
        out->slot = out->is_cpu ? SLOT_CPU : SLOT_COMM;
        if (n->inputs && n->inputs->values[0])
            out->meta = add_string(c, n->inputs->values);
        break;
    }
    if (cfg->replay_only)
        return 0;
    switch (n->type) {
    case VET_COMP_NODE:
        if (cfg->roofline_enabled && !out->is_cpu &&
            (get_u64(c, "num_ops", true, 0, &out->num_ops) != 0 ||
             get_u64(c, "tensor_size", true, 0, &out->tensor_size) != 0))
            return -1;
        /* --breakdown sums them (FLOP/s); a replayed node's num_ops is
         * only informative, so one of another type counts as none */
        if (!cfg->roofline_enabled && c->s->opt->breakdown &&
            vet_node_uint64(c->n, "num_ops", 0, &out->num_ops) != VET_ATTR_OK)
            out->num_ops = 0;
        if (c->s->opt->breakdown && vet_node_bool(c->n, "is_recomputation", false, &out->recompute) != VET_ATTR_OK)
            out->recompute = false;
        return 0;
    case VET_COMM_COLL_NODE:
        if (out->is_cpu)
            return node_fail(c, "Comm node should not be on CPU (is_cpu_op is true)");
        return read_collective(c, out) != 0 ? -1 : scale_comm_size(c, out);
    case VET_COMM_SEND_NODE:
    case VET_COMM_RECV_NODE:
        if (out->is_cpu)
            return node_fail(c, "Comm node should not be on CPU (is_cpu_op is true)");
        c->t->has_p2p = true;
        return read_p2p(c, out, n->type == VET_COMM_SEND_NODE) != 0 ? -1 : scale_comm_size(c, out);
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        return get_u64(c, "tensor_size", true, 0, &out->tensor_size);
    default:
        return 0;
    }
}

/* ---- one file ------------------------------------------------------------ */

static int check_file(sim *s, const char *path, uint32_t npu)
{
    if (access(path, R_OK) == 0)
        return 0;
    if (errno == ENOENT && npu > 0)
        sim_fail(s, "workload file: %s does not exist (fewer traces than NPUs: the network %s has %u NPUs, the "
                    "workload %u traces; it needs %s.0.et to %s.%u.et)", path, s->opt->network, s->n_npus, npu,
                 s->opt->workload, s->opt->workload, s->n_npus - 1);
    else if (errno == ENOENT)
        sim_fail(s, "workload file: %s does not exist", path);
    else if (errno == EACCES)
        sim_fail(s, "workload file: %s exists but is not readable", path);
    else
        sim_fail(s, "workload file: %s: %s", path, strerror(errno));
    return -1;
}

/* PATH, or PATH.gz when only the compressed copy exists (the reader
 * inflates gzip by its magic bytes). `path` has room for ".gz". */
static void prefer_plain(char *path, size_t len)
{
    if (access(path, F_OK) != 0 && errno == ENOENT) {
        size_t used = strlen(path);
        snprintf(path + used, len - used, ".gz");
        if (access(path, F_OK) != 0)
            path[used] = '\0';
    }
}

/* NPU i's trace: PREFIX.i.et, or PREFIX.i.et.gz. */
static void trace_path(const sim *s, uint32_t npu, char *path, size_t len)
{
    snprintf(path, len, "%s.%u.et", s->opt->workload, npu);
    prefer_plain(path, len);
}

/* Another form of the workload than per-rank files: PREFIX + `suffix`
 * (with `gz`, or its .gz where the plain file is absent), used when it
 * exists and NPU 0 has no trace of its own; per-rank traces take
 * precedence, with a warning that it is ignored. Returns the path (malloc'd)
 * or NULL (or after sim_fail()). */
static char *other_form_path(sim *s, const char *suffix, bool gz)
{
    size_t len = strlen(s->opt->workload) + 32;
    char *form = malloc(len), *rank0 = malloc(len);
    if (!form || !rank0) {
        free(form);
        free(rank0);
        sim_fail(s, "out of memory");
        return NULL;
    }
    snprintf(form, len, "%s%s", s->opt->workload, suffix);
    if (gz)
        prefer_plain(form, len);
    trace_path(s, 0, rank0, len);
    bool has_form = access(form, F_OK) == 0, has_rank0 = access(rank0, F_OK) == 0;
    if (has_form && has_rank0)
        sim_warn(s, "%s ignored: the per-rank traces (%s to %s.%u.et) take precedence", form, rank0,
                 s->opt->workload, s->n_npus - 1);
    free(rank0);
    if (has_form && !has_rank0)
        return form;
    free(form);
    return NULL;
}

/* The single-file form: every NPU runs PREFIX.et (or PREFIX.et.gz). */
static char *single_trace_path(sim *s)
{
    return other_form_path(s, ".et", true);
}

/* Traces numbered from the network's size up are never read: say so, since
 * a network smaller than the workload silently drops ranks otherwise. */
static void warn_extra_traces(sim *s)
{
    size_t len = strlen(s->opt->workload) + 32;
    char *path = malloc(len);
    if (!path)
        return;
    uint32_t extra = 0;
    for (uint32_t npu = s->n_npus; npu < UINT32_MAX; npu++) {
        trace_path(s, npu, path, len);
        if (access(path, F_OK) != 0)
            break;
        extra++;
    }
    if (extra > 0) {
        trace_path(s, s->n_npus, path, len);
        sim_warn(s, "%s: %u trace file%s from NPU %u up ignored: the network %s has only %u NPUs", path, extra,
                 extra == 1 ? "" : "s", s->n_npus, s->opt->network, s->n_npus);
    }
    free(path);
}

static int read_node_cb(void *ctx, const vet_node *n, void *record)
{
    load_ctx *c = ctx;
    c->n = n;
    return read_node(c, record);
}

/* Words a trace_graph failure (`reading`: from trace_graph_read()). */
static void report_graph_error(sim *s, const wl_trace *t, const trace_graph *g, const trace_error *err,
                               bool reading)
{
    switch (err->status) {
    case TRACE_OPEN_FAILED:
    case TRACE_READ_FAILED:
        sim_fail(s, "%s", err->text);
        break;
    case TRACE_TOO_MANY_NODES:
        sim_fail(s, "%s: too many nodes", t->path);
        break;
    case TRACE_NO_MEMORY:
        if (reading)
            sim_fail(s, "out of memory reading %s", t->path);
        else
            sim_fail(s, "out of memory");
        break;
    case TRACE_EMPTY:
        sim_fail(s, "%s: no issuable node: the trace has no nodes (an idle NPU needs at least one, "
                    "e.g. a 0 us COMP node)", t->path);
        break;
    case TRACE_DUPLICATE_ID:
        sim_fail(s, "%s: node id %llu appears twice", t->path, (unsigned long long)err->id);
        break;
    case TRACE_MISSING_PARENT:
        sim_fail(s, "%s: node %llu (%s) depends on node %llu, which is not in the file "
                    "(--drop-missing-deps ignores such dependencies)", t->path, (unsigned long long)err->id,
                 t->names + ((const wl_node *)g->records)[err->node].name, (unsigned long long)err->parent_id);
        break;
    case TRACE_CYCLE:
        sim_fail(s, "%s: dependency cycle: %s", t->path, err->text);
        break;
    case TRACE_NODE_REFUSED: /* read_node() said why */
    case TRACE_OK:
        break;
    }
}

/* The trace keeps the records and child lists; the walker reads a node's
 * dependencies from its record. */
static void keep_graph(wl_trace *t, trace_graph *g)
{
    t->nodes = g->records;
    t->n_nodes = g->n_nodes;
    t->children = g->children;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        wl_node *n = &t->nodes[i];
        n->child_start = g->child_start[i];
        n->n_children = g->n_children[i];
        n->n_parents = g->n_parents[i];
        if (n->type == VET_INVALID_NODE && t->n_invalid++ == 0)
            t->first_invalid = i;
    }
    t->empty_records = g->empty_records;
    t->dropped_deps = g->dropped_deps;
    g->records = NULL;
    g->children = NULL;
}

static int marker_cmp(const void *a, const void *b)
{
    uint32_t x = ((const wl_marker *)a)->node, y = ((const wl_marker *)b)->node;
    return (x > y) - (x < y);
}

/* The markers' node ids become indices: the nodes are sorted by id now.
 * Kept in node order, so that equal traces list them alike. */
static void resolve_markers(wl_trace *t, const uint64_t *ids)
{
    for (uint32_t k = 0; k < t->n_markers; k++) {
        t->markers[k].node =
            (uint32_t)lower_bound_u64(t->nodes, t->n_nodes, sizeof *t->nodes, offsetof(wl_node, id), ids[k]);
    }
    if (t->n_markers > 1)
        qsort(t->markers, t->n_markers, sizeof *t->markers, marker_cmp);
}

static void trace_free(wl_trace *t)
{
    if (!t)
        return;
    free(t->markers);
    free(t->path);
    free(t->nodes);
    free(t->children);
    free(t->names);
    wl_tensors_free(&t->tensors);
    free(t);
}

static void warn_empty_records(sim *s, const char *path, const wl_trace *t)
{
    if (t->empty_records > 0)
        sim_warn(s, "%s: %llu zero-length record(s) read as empty nodes (Python Chakra readers stop there)", path,
                 (unsigned long long)t->empty_records);
}

static void warn_dropped_deps(sim *s, const char *path, const wl_trace *t)
{
    if (t->dropped_deps)
        sim_warn(s, "%s: ignored %llu dependencies on node ids absent from the file", path,
                 (unsigned long long)t->dropped_deps);
}

static wl_trace *new_trace(sim *s, const char *path)
{
    wl_trace *t = calloc(1, sizeof *t);
    if (t && (t->path = strdup(path)) && (t->names = malloc(1))) {
        t->names[0] = '\0';
        t->names_len = 1;
        return t;
    }
    trace_free(t);
    sim_fail(s, "out of memory");
    return NULL;
}

/* Parses `path` as NPU npu's trace (the NPU matters to SEND/RECV checks
 * only). Returns the trace, or NULL after sim_fail(). */
static wl_trace *parse_trace(sim *s, const char *path, uint32_t npu)
{
    wl_trace *t = new_trace(s, path);
    if (!t)
        return NULL;
    load_ctx c = {.s = s, .t = t, .npu = npu, .names_cap = 1};
    /* the tensors only feed --report's peak: no table without it */
    if (s->opt->report && !(c.tensors = wl_tensor_builder_new())) {
        trace_free(t);
        sim_fail(s, "out of memory");
        return NULL;
    }
    trace_graph g;
    trace_graph_init(&g, sizeof(wl_node));
    trace_error err;
    int rc = trace_graph_read(&g, path, read_node_cb, &c, &err);
    if (rc != 0) {
        report_graph_error(s, t, &g, &err, true);
    } else {
        if (g.empty_records > 0)
            sim_warn(s, "%s: %llu zero-length record(s) read as empty nodes (Python Chakra readers stop there)",
                     path, (unsigned long long)g.empty_records);
        rc = trace_graph_link(&g, s->opt->drop_missing_deps, &err);
        if (rc != 0)
            report_graph_error(s, t, &g, &err, false);
    }
    if (rc == 0) {
        keep_graph(t, &g);
        resolve_markers(t, c.marker_ids);
        char *fit = realloc(t->names, t->names_len); /* the table is complete: give back the slack */
        if (fit)
            t->names = fit;
        warn_dropped_deps(s, path, t);
        if (c.tensors)
            wl_tensor_builder_finish(c.tensors, &t->tensors);
    }
    wl_tensor_builder_free(c.tensors);
    free(c.marker_ids);
    trace_graph_free(&g);
    if (rc == 0)
        return t;
    trace_free(t);
    return NULL;
}

/* ---- sharing identical traces --------------------------------------------- */

/* The parsed traces by content: open addressing on the 64-bit hash of the
 * file's bytes; a hit is confirmed by comparing the bytes. */
typedef struct trace_index {
    uint32_t *slot;             /* 1 + index in r->traces, 0 = empty */
    file_digest *digest;        /* [n_npus]: digest of r->traces[k] */
    unsigned char **bytes;      /* [n_npus]: r->traces[k]'s file bytes while loading, or NULL */
    uint64_t keep_left;         /* bytes that may still be kept */
    uint32_t mask;
} trace_index;

/* The bytes of distinct files kept in memory while loading, so that a file
 * identical to one parsed before is compared without reading either again. */
#define TRACE_KEEP_BUDGET (64u << 20)

static int trace_index_init(trace_index *ix, uint32_t n_npus)
{
    uint64_t size = 16;
    while (size < 2ull * n_npus)
        size *= 2;
    ix->mask = (uint32_t)(size - 1);
    ix->slot = calloc(size, sizeof *ix->slot);
    ix->digest = calloc(n_npus, sizeof *ix->digest);
    ix->bytes = calloc(n_npus, sizeof *ix->bytes);
    ix->keep_left = TRACE_KEEP_BUDGET;
    return ix->slot && ix->digest && ix->bytes ? 0 : -1;
}

static void trace_index_free(trace_index *ix, uint32_t n_traces)
{
    for (uint32_t k = 0; ix->bytes && k < n_traces; k++)
        free(ix->bytes[k]);
    free(ix->bytes);
    free(ix->slot);
    free(ix->digest);
}

/* Whether trace k's file holds the bytes of `path` (`kept`: those bytes,
 * or NULL when they were not kept). */
static bool same_bytes(const trace_index *ix, const wl_run *r, uint32_t k, const char *path,
                       const unsigned char *kept)
{
    if (kept && ix->bytes[k])
        return memcmp(kept, ix->bytes[k], ix->digest[k].size) == 0;
    return file_same_bytes(r->traces[k]->path, path);
}

/* A parsed trace with the same bytes as `path`, or NULL. */
static wl_trace *trace_index_find(const trace_index *ix, const wl_run *r, const char *path, const file_digest *d,
                                  const unsigned char *kept)
{
    for (uint32_t at = (uint32_t)d->hash & ix->mask; ix->slot[at]; at = (at + 1) & ix->mask) {
        uint32_t k = ix->slot[at] - 1;
        const file_digest *o = &ix->digest[k];
        if (o->hash == d->hash && o->size == d->size && same_bytes(ix, r, k, path, kept))
            return r->traces[k];
    }
    return NULL;
}

/* Indexes trace k; keeps its bytes (takes `kept`) while the budget lasts. */
static void trace_index_add(trace_index *ix, uint32_t k, const file_digest *d, unsigned char *kept)
{
    uint32_t at = (uint32_t)d->hash & ix->mask;
    while (ix->slot[at])
        at = (at + 1) & ix->mask;
    ix->slot[at] = k + 1;
    ix->digest[k] = *d;
    if (kept && d->size <= ix->keep_left) {
        ix->bytes[k] = kept;
        ix->keep_left -= d->size;
    } else {
        free(kept);
    }
}

/* ---- every NPU ------------------------------------------------------------- */

/* NPU npu runs trace t, read from `path` (owned by the workload or not). */
static int attach(wl_run *r, uint32_t npu, const wl_trace *t, const char *path, bool owns_path)
{
    sim *s = r->s;
    workload *w = &r->wl[npu];
    w->run = r;
    w->npu = npu;
    w->path = path;
    w->owns_path = owns_path;
    w->trace = t;
    w->nodes = t->nodes;
    w->n_nodes = t->n_nodes;
    w->children = t->children;
    w->names = t->names;
    w->live = malloc((t->n_nodes ? t->n_nodes : 1) * sizeof *w->live);
    if (!w->live) {
        sim_fail(s, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++)
        w->live[i] = (wl_node_run){.parents_left = t->nodes[i].n_parents, .state = WL_WAITING};
    return 0;
}

static wl_trace *add_trace(wl_run *r, wl_trace *t)
{
    if (t)
        r->traces[r->n_traces++] = t;
    return t;
}

static void loaded(sim *s, uint32_t i)
{
    if (s->opt->progress && s->n_npus >= 256 && (i + 1) % 1024 == 0)
        fprintf(s->log, "vimana: loaded %u of %u traces\n", i + 1, s->n_npus);
}

/* Every NPU runs `path`: parsed once, or once per NPU if it has SEND or
 * RECV nodes. Parsed once, it is NPU 0's and r->shared: the other NPUs
 * take it when they first run (workload_npu), so that a reduced
 * simulation, where they never do, writes none of their records. */
static int load_single(wl_run *r, const char *path)
{
    sim *s = r->s;
    if (check_file(s, path, 0) != 0)
        return -1;
    wl_trace *first = add_trace(r, parse_trace(s, path, 0));
    if (!first)
        return -1;
    if (!first->has_p2p)
        r->shared = first;
    for (uint32_t i = 0; i < s->n_npus; i++) {
        wl_trace *t = first;
        if (i > 0 && first->has_p2p && !(t = add_trace(r, parse_trace(s, path, i))))
            return -1;
        if ((i == 0 || !r->shared) && attach(r, i, t, t->path, false) != 0)
            return -1;
        loaded(s, i);
    }
    return 0;
}

/* The trace an NPU not attached yet runs: the shared one, or its role's. */
static const wl_trace *trace_to_attach(const wl_run *r, uint32_t npu)
{
    return r->roles.n_roles ? r->traces[r->roles.role_of[npu]] : r->shared;
}

workload *workload_npu(wl_run *r, uint32_t npu)
{
    workload *w = &r->wl[npu];
    const wl_trace *t = w->trace ? NULL : trace_to_attach(r, npu);
    if (t && attach(r, npu, t, t->path, false) != 0)
        return NULL;
    return w;
}

const wl_trace *workload_npu_trace(const wl_run *r, uint32_t npu)
{
    return r->wl[npu].trace ? r->wl[npu].trace : trace_to_attach(r, npu);
}

int64_t workload_peer(const wl_run *r, uint32_t npu, int32_t peer)
{
    if (!r->roles.n_roles)
        return peer;
    return (int64_t)peer + npu - r->roles.roles[r->roles.role_of[npu]].rank;
}

int64_t workload_group(const wl_run *r, uint32_t npu, int64_t pg)
{
    if (!r->roles.n_roles || pg == WL_NO_GROUP || npu == r->roles.roles[r->roles.role_of[npu]].rank)
        return pg;
    return families_translate(r->families, pg, npu);
}

/* PREFIX.roles.json, the role map of a compact workload. */
static char *role_map_path(sim *s)
{
    return other_form_path(s, ".roles.json", false);
}

/* Every rank of a role names SEND/RECV peers shifted by its distance from
 * the role's rank: the lowest and the highest rank of the role bound them
 * (a peer that becomes the rank itself was its own rank's peer, which the
 * loader refuses). */
static int role_peers_fit(wl_run *r, const char *map)
{
    sim *s = r->s;
    const vet_roles *m = &r->roles;
    uint32_t *lo = malloc(m->n_roles * sizeof *lo), *hi = malloc(m->n_roles * sizeof *hi);
    if (!lo || !hi) {
        free(lo);
        free(hi);
        sim_fail(s, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < m->n_roles; k++)
        lo[k] = hi[k] = m->roles[k].rank;
    for (uint32_t x = 0; x < s->n_npus; x++) {
        uint32_t k = m->role_of[x];
        lo[k] = x < lo[k] ? x : lo[k];
        hi[k] = x > hi[k] ? x : hi[k];
    }
    int rc = 0;
    for (uint32_t k = 0; k < m->n_roles && rc == 0; k++) {
        const wl_trace *t = r->traces[k];
        for (uint32_t i = 0; i < t->n_nodes && rc == 0; i++) {
            const wl_node *n = &t->nodes[i];
            if (n->type != VET_COMM_SEND_NODE && n->type != VET_COMM_RECV_NODE)
                continue;
            bool send = n->type == VET_COMM_SEND_NODE;
            int32_t peer = send ? n->comm_dst : n->comm_src;
            int64_t rank = m->roles[k].rank, low = (int64_t)peer + lo[k] - rank, high = (int64_t)peer + hi[k] - rank;
            if (low >= 0 && high < s->n_npus)
                continue;
            sim_fail(s, "%s: node %llu (%s): %s %d, written for rank %lld, is %lld for rank %u, not an NPU of this "
                        "%u-NPU system (%s)", t->path, (unsigned long long)n->id, t->names + n->name,
                     send ? "comm_dst" : "comm_src", peer, (long long)rank, (long long)(low < 0 ? low : high),
                     low < 0 ? lo[k] : hi[k], s->n_npus, map);
            rc = -1;
        }
    }
    free(lo);
    free(hi);
    return rc;
}

/* A compact workload: each role's trace parsed once, for the rank it was
 * written for (its SEND/RECV checks are that rank's); every NPU is
 * attached to its role's trace when it first runs, relabelled by
 * workload_peer and workload_group. */
static int load_roles(wl_run *r, const char *map)
{
    sim *s = r->s;
    char err[600];
    if (vet_roles_load(map, s->n_npus, &r->roles, err, sizeof err) != 0) {
        sim_fail(s, "%s", err);
        return -1;
    }
    if (!(r->families = families_build(&s->groups, s->n_npus, err, sizeof err))) {
        sim_fail(s, "%s: %s", s->opt->comm_group ? s->opt->comm_group : map, err);
        return -1;
    }
    for (uint32_t k = 0; k < r->roles.n_roles; k++) {
        const vet_role *role = &r->roles.roles[k];
        if (check_file(s, role->trace, 0) != 0 || !add_trace(r, parse_trace(s, role->trace, role->rank)))
            return -1;
    }
    if (role_peers_fit(r, map) != 0)
        return -1;
    return workload_npu(r, 0) ? 0 : -1;
}

/* NPU i runs PREFIX.i.et; a file with the same bytes as one already parsed
 * shares it (its per-file warnings are repeated under its own name). */
static int load_per_rank(wl_run *r, trace_index *ix)
{
    sim *s = r->s;
    size_t len = strlen(s->opt->workload) + 32;
    for (uint32_t i = 0; i < s->n_npus; i++) {
        workload *w = &r->wl[i];
        char *path = malloc(len);
        if (!path) {
            sim_fail(s, "out of memory");
            return -1;
        }
        trace_path(s, i, path, len);
        w->path = path;
        w->owns_path = true;
        if (check_file(s, path, i) != 0)
            return -1;
        file_digest d;
        unsigned char *kept;
        bool digested = file_digest_keep(path, ix->keep_left, &d, &kept) == 0;
        wl_trace *t = digested ? trace_index_find(ix, r, path, &d, kept) : NULL;
        if (t) {
            free(kept);
            warn_empty_records(s, path, t);
            warn_dropped_deps(s, path, t);
        } else {
            if (!(t = add_trace(r, parse_trace(s, path, i)))) {
                free(kept);
                return -1;
            }
            if (digested && !t->has_p2p)
                trace_index_add(ix, r->n_traces - 1, &d, kept);
            else
                free(kept);
        }
        if (attach(r, i, t, path, true) != 0)
            return -1;
        loaded(s, i);
    }
    warn_extra_traces(s);
    return 0;
}

int workload_load_all(wl_run *r)
{
    sim *s = r->s;
    /* zero pages until an NPU is attached (attach) */
    r->wl = calloc(s->n_npus, sizeof *r->wl);
    r->traces = calloc(s->n_npus, sizeof *r->traces);
    if (!r->wl || !r->traces) {
        sim_fail(s, "out of memory");
        return -1;
    }
    char *single = single_trace_path(s);
    char *map = single || s->failed ? NULL : role_map_path(s);
    if (s->failed)
        return -1;
    int rc;
    if (map) {
        rc = load_roles(r, map);
        free(map);
        return rc;
    }
    if (single) {
        r->single_file = true;
        rc = load_single(r, single);
        free(single);
        return rc;
    }
    trace_index ix;
    if (trace_index_init(&ix, s->n_npus) != 0) {
        trace_index_free(&ix, 0);
        sim_fail(s, "out of memory");
        return -1;
    }
    rc = load_per_rank(r, &ix);
    trace_index_free(&ix, r->n_traces);
    return rc;
}

void workload_free_all(wl_run *r)
{
    if (r->wl) {
        for (uint32_t i = 0; i < r->s->n_npus; i++) {
            workload *w = &r->wl[i];
            if (!w->path)
                continue;   /* never attached: nothing to free, and no page to touch */
            if (w->owns_path)
                free((char *)w->path);
            free(w->live);
            free(w->deferred);
            for (int k = 0; k < SLOT_COUNT; k++)
                ready_set_free(&w->free_nodes[k]);
        }
        free(r->wl);
        r->wl = NULL;
    }
    if (r->traces) {
        for (uint32_t k = 0; k < r->n_traces; k++)
            trace_free(r->traces[k]);
        free(r->traces);
        r->traces = NULL;
    }
    vet_roles_free(&r->roles);
    families_free(r->families);
    r->families = NULL;
}

const char *workload_node_name(const workload *w, uint32_t node)
{
    return w->names + w->nodes[node].name;
}
