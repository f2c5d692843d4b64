/* Symmetry detection (sim/symmetry.h, docs/symmetry.md). */
#include "sim/symmetry.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "sim/symmetry_roles.h"
#include "system/algorithms/algorithm.h"
#include "util/msg_escape.h"
#include "vimana/et.h"

static bool not_eligible(symmetry *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool not_eligible(symmetry *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->why, sizeof out->why, fmt, ap);
    va_end(ap);
    out->mode = SYMMETRY_NOT_ELIGIBLE;
    return false;
}

/* A network file of Ring / FullyConnected / Switch dimensions, as opposed
 * to a topology graph: an ns-3 .txt starts with a digit, a graph YAML says
 * `Custom`. Any doubt (unreadable, the word Custom anywhere) answers no:
 * a wrong "no" costs speed, a wrong "yes" wrong numbers. */
static bool network_is_dimensions(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char buf[1 << 14];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    bool whole = feof(f);
    fclose(f);
    buf[n] = '\0';
    if (!whole || memchr(buf, '\0', n))
        return false;
    const char *p = buf;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p != '#')
            break;
        p += strcspn(p, "\n");
    }
    return !isdigit((unsigned char)*p) && !strstr(buf, "Custom");
}

static bool is_power_of_two(uint32_t n)
{
    return n && !(n & (n - 1));
}

/* The algorithms of collective kind k, per dimension, by the symmetry
 * each declares in its descriptor: rotation (ring, direct) treats every
 * NPU of a dimension alike, XOR (halving-doubling) on a power of two; the
 * one* variants (one ring over all NPUs crosses dimensions at some NPUs
 * only) and an asymmetric algorithm (a tree) do not. */
static bool algorithms_symmetric(const sim *s, enum coll_kind k, const wl_node *n, const char *name,
                                 symmetry *out)
{
    for (uint32_t d = 0; d < s->cfg.n_impl[k] && d < s->n_dims; d++) {
        const algo_spec *spec = &s->cfg.impl[k][d];
        const algorithm *a = algo_registry_get(&s->algorithms, spec->id);
        char spelled[64];
        algo_registry_spec_name(&s->algorithms, spec, spelled, sizeof spelled);
        if (s->dim_size[d] < 2)
            continue;
        enum algo_symmetry sym = a && !spec->one ? a->symmetry : ALGO_ASYMMETRIC;
        if (sym == ALGO_XOR_POWER_OF_TWO && !is_power_of_two(s->dim_size[d]))
            sym = ALGO_ASYMMETRIC;
        if (sym == ALGO_ASYMMETRIC)
            return not_eligible(out, "node %llu (%s) runs %s on dimension %u, whose schedule differs between NPUs",
                                (unsigned long long)n->id, name, spelled, d);
        if (sym == ALGO_XOR_POWER_OF_TWO)
            out->hd_dims |= 1u << d;
        else
            out->rotation_dims |= 1u << d;
    }
    return true;
}

static bool collective_symmetric(const sim *s, const wl_node *n, const char *name, symmetry *out)
{
    static const enum coll_kind kinds[] = {
        [VET_ALL_REDUCE] = COLL_ALL_REDUCE, [VET_ALL_GATHER] = COLL_ALL_GATHER,
        [VET_REDUCE_SCATTER] = COLL_REDUCE_SCATTER, [VET_ALL_TO_ALL] = COLL_ALL_TO_ALL,
    };
    if (n->comm_type == VET_BROADCAST) /* replayed for its duration on each NPU */
        return true;
    if (n->pg != WL_NO_GROUP)
        return not_eligible(out, "node %llu (%s) runs on communicator group %lld", (unsigned long long)n->id, name,
                            (long long)n->pg);
    enum coll_kind k = kinds[n->comm_type];
    if (sys_config_custom_for(&s->cfg, k, n->id))
        return not_eligible(out, "node %llu (%s) runs a custom collective", (unsigned long long)n->id, name);
    return algorithms_symmetric(s, k, n, name, out);
}

/* Every node of the shared trace. */
static bool nodes_symmetric(const sim *s, const workload *w, symmetry *out)
{
    if (s->cfg.replay_only) /* every node only replays its duration */
        return true;
    for (uint32_t i = 0; i < w->n_nodes; i++) {
        const wl_node *n = &w->nodes[i];
        char name[120];
        msg_escape(workload_node_name(w, i), name, sizeof name);
        switch (n->type) {
        case VET_COMM_SEND_NODE:
        case VET_COMM_RECV_NODE:
            return not_eligible(out, "node %llu (%s) is a point-to-point %s", (unsigned long long)n->id, name,
                                n->type == VET_COMM_SEND_NODE ? "SEND" : "RECV");
        case VET_MEM_LOAD_NODE:
        case VET_MEM_STORE_NODE:
            return not_eligible(out, "node %llu (%s) is a remote-memory access", (unsigned long long)n->id, name);
        case VET_METADATA_NODE:
            if (n->meta)
                return not_eligible(out, "node %llu (%s) declares process groups", (unsigned long long)n->id, name);
            break;
        case VET_COMM_COLL_NODE:
            if (!collective_symmetric(s, n, name, out))
                return false;
            break;
        default:
            break;
        }
    }
    return true;
}

/* Whether two traces are the same but for their node ids: node by node
 * (nodes are in id order, so a relabelling that keeps the order keeps the
 * indices) every field the simulation reads and every name, and the same
 * dependencies by index. Per-rank files written with id = rank (ASTRA-sim's
 * microbenchmarks) differ only so. */
/* Every field of two nodes but the id and the name and payload offsets
 * (field by field: a struct compare would read padding). */
static bool nodes_alike(const wl_node *x, const wl_node *y)
{
    return x->type == y->type && x->slot == y->slot && x->kind == y->kind && x->is_cpu == y->is_cpu &&
           x->recompute == y->recompute &&
           x->n_involved == y->n_involved && x->n_parents == y->n_parents && x->n_children == y->n_children &&
           x->duration_us == y->duration_us && x->comm_type == y->comm_type && x->comm_size == y->comm_size &&
           x->comm_src == y->comm_src && x->comm_dst == y->comm_dst && x->comm_tag == y->comm_tag &&
           x->comm_priority == y->comm_priority && x->involved == y->involved && x->pg == y->pg &&
           x->num_ops == y->num_ops && x->tensor_size == y->tensor_size;
}

/* Inference markers (node, token, batch) alike: the report reads them. */
static bool markers_alike(const wl_trace *a, const wl_trace *b)
{
    if (a->n_markers != b->n_markers)
        return false;
    for (uint32_t k = 0; k < a->n_markers; k++)
        if (a->markers[k].node != b->markers[k].node || a->markers[k].token != b->markers[k].token ||
            a->markers[k].batch != b->markers[k].batch)
            return false;
    return true;
}

static bool traces_alike(const wl_trace *a, const wl_trace *b)
{
    if (a->n_nodes != b->n_nodes || a->has_p2p || b->has_p2p || !markers_alike(a, b))
        return false;
    for (uint32_t i = 0; i < a->n_nodes; i++) {
        const wl_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (!nodes_alike(x, y) || strcmp(a->names + x->name, b->names + y->name) != 0 ||
            !wl_tensors_same_io(&a->tensors, x->io, &b->tensors, y->io) || (!x->meta) != (!y->meta) ||
            (x->meta && strcmp(a->names + x->meta, b->names + y->meta) != 0))
            return false;
        for (uint32_t k = 0; k < x->n_children; k++)
            if (a->children[x->child_start + k] != b->children[y->child_start + k])
                return false;
    }
    return true;
}

/* Every NPU's trace is NPU 0's, or alike but for node ids (then each
 * distinct one is checked too: custom collectives are chosen by node id). */
static bool npus_alike(const sim *s, const wl_run *r, symmetry *out)
{
    const wl_trace *t0 = r->wl[0].trace;
    for (uint32_t i = 1; i < s->n_npus; i++) {
        const wl_trace *t = workload_npu_trace(r, i);
        if (t == t0)
            continue;
        if (!traces_alike(t, t0))
            return not_eligible(out, "NPU %u's trace differs from NPU 0's%s", i,
                                t->n_nodes == t0->n_nodes && !t->has_p2p ? " (beyond its node ids)" : "");
        out->relabelled = true;
    }
    for (uint32_t k = 0; out->relabelled && k < r->n_traces; k++) {
        workload view = {.nodes = r->traces[k]->nodes, .n_nodes = r->traces[k]->n_nodes,
                         .names = r->traces[k]->names, .path = r->traces[k]->path};
        if (!nodes_symmetric(s, &view, out))
            return false;
    }
    return true;
}

/* A dimension mirrors by one relabelling of its coordinates: negation for
 * ring and direct, XOR for halving-doubling; one running both has none. */
static void refuse_mixed_dimension(symmetry *out)
{
    uint32_t mixed = out->hd_dims & out->rotation_dims;
    if (!mixed || out->full_why[0])
        return;
    snprintf(out->full_why, sizeof out->full_why, "halving-doubling and ring or direct on one dimension (%u)",
             (unsigned)__builtin_ctz(mixed));
}

/* The reduced simulation covers ring and direct (whose mirror image is a
 * rotation of the dimensions), halving-doubling (an XOR), the finish
 * reports, --report (NPU 0's figures written for every NPU; the analytical
 * backend has no per-link records) and --progress (NPU 0's progress), not
 * the per-NPU timeline, log lines or handshakes. */
static void reduce_if_covered(const sim *s, symmetry *out)
{
    refuse_mixed_dimension(out);
    const char *gap = out->full_why[0] ? NULL
                      : s->opt->timeline      ? "--timeline"
                      : s->cfg.trace_enabled  ? "trace-enabled"
                      : s->opt->rendezvous    ? "--rendezvous-protocol"
                                              : NULL;
    if (gap)
        snprintf(out->full_why, sizeof out->full_why, "%s", gap);
    out->mode = out->full_why[0] ? SYMMETRY_ELIGIBLE : SYMMETRY_ON;
}

/* Whether the run names peers or groups: then the NPUs are seldom all
 * alike, and what the roles say is the reason worth printing. */
static bool has_roles(const sim *s, const wl_run *r)
{
    for (uint32_t k = 0; k < r->n_traces; k++)
        if (r->traces[k]->has_p2p)
            return true;
    return s->groups.n_groups > 0;
}

/* Not all NPUs alike: classes of them, when relabellings keep the run. */
static void check_roles(const sim *s, const wl_run *r, symmetry *out)
{
    char what[200], why[400];
    if (!symmetry_roles_find(s, r, &out->roles, what, sizeof what, why, sizeof why)) {
        relabel_free(&out->roles);
        if (has_roles(s, r) || !out->why[0])
            not_eligible(out, "%s", why);
        else
            out->mode = SYMMETRY_NOT_ELIGIBLE;
        return;
    }
    out->over_roles = true;
    out->hd_dims = out->rotation_dims = 0;
    out->relabelled = false;
    snprintf(out->why, sizeof out->why, "the NPUs' traces are alike up to rotations of %s: %u class%s of %u NPUs, "
             "analytical backend on dimensions", what, out->roles.n_classes, out->roles.n_classes == 1 ? "" : "es",
             out->roles.class_size);
    reduce_if_covered(s, out);
}

void symmetry_check(const sim *s, const wl_run *r, bool shipped_analytical, symmetry *out)
{
    out->why[0] = '\0';
    out->full_why[0] = '\0';
    out->hd_dims = out->rotation_dims = 0;
    out->relabelled = false;
    out->over_roles = false;
    memset(&out->roles, 0, sizeof out->roles);
    out->n_npus = s->n_npus;
    if (s->opt->no_symmetry) {
        out->mode = SYMMETRY_OFF;
        snprintf(out->why, sizeof out->why, "--no-symmetry");
        return;
    }
    for (uint32_t x = 1; s->npu_scale && x < s->n_npus; x++)
        if (s->npu_scale[x] != s->npu_scale[0]) {
            not_eligible(out, "--npu-compute-scale gives NPU %u %g times the compute time and NPU %u %g times", x,
                         s->npu_scale[x], 0, s->npu_scale[0]);
            return;
        }
    /* NPU 0's nodes first: a trace with SEND/RECV nodes is parsed for
     * each NPU, so its NPUs never share one even when the bytes match. */
    bool alike = nodes_symmetric(s, &r->wl[0], out) && npus_alike(s, r, out);
    if (!shipped_analytical) {
        if (alike)
            not_eligible(out, "the network backend %s is not the shipped analytical one", s->be->name);
        return;
    }
    if (!network_is_dimensions(s->opt->network)) {
        if (alike)
            not_eligible(out, "the network %s is a topology graph, not Ring/FullyConnected/Switch dimensions",
                         s->opt->network);
        return;
    }
    if (!alike || s->groups.n_groups > 0) {
        check_roles(s, r, out);
        return;
    }
    snprintf(out->why, sizeof out->why, "every NPU runs the same trace of collectives%s on ring, direct or "
                                        "halving-doubling, analytical backend on dimensions",
             out->relabelled ? " (but for its node ids)" : "");
    reduce_if_covered(s, out);
}

void symmetry_free(symmetry *sym)
{
    if (sym->over_roles)
        relabel_free(&sym->roles);
    sym->over_roles = false;
}

void symmetry_refuse(symmetry *sym, const char *why)
{
    if (sym->mode != SYMMETRY_ON && sym->mode != SYMMETRY_ELIGIBLE)
        return;
    sym->mode = SYMMETRY_ELIGIBLE;
    snprintf(sym->full_why, sizeof sym->full_why, "%s", why);
}

void symmetry_print(const symmetry *sym, FILE *log)
{
    switch (sym->mode) {
    case SYMMETRY_OFF:
        fprintf(log, "vimana: symmetry: off (%s); full simulation\n", sym->why);
        break;
    case SYMMETRY_NOT_ELIGIBLE:
        fprintf(log, "vimana: symmetry: not eligible (%s); full simulation\n", sym->why);
        break;
    case SYMMETRY_ELIGIBLE:
        fprintf(log, "vimana: symmetry: eligible (%s); full simulation used (the reduced simulation does not cover "
                     "%s yet)\n", sym->why, sym->full_why);
        break;
    case SYMMETRY_ON:
        if (sym->over_roles)
            fprintf(log, "vimana: symmetry: on (%s); reduced simulation: %u NPU%s simulated (one per class), "
                         "%s messages mirrored for the other %u NPUs\n", sym->why, sym->roles.n_classes,
                    sym->roles.n_classes == 1 ? "" : "s", sym->roles.n_classes == 1 ? "its" : "their",
                    sym->n_npus - sym->roles.n_classes);
        else
            fprintf(log, "vimana: symmetry: on (%s); reduced simulation: NPU 0 simulated, its messages mirrored for "
                         "the other %u NPUs\n", sym->why, sym->n_npus - 1);
        break;
    }
}
