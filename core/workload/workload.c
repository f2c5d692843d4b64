/*
 * Issuing and completing workload nodes (the reference's behaviour, docs/simulator.md).
 * Every request handed to the system layer carries node_done (the workload
 * and the node index) as its completion.
 *
 * The reference walks a sorted copy of the free set and issues every node
 * whose hardware slot is free. Equivalently, and in time proportional to
 * what is issued, free nodes wait in one id-ordered heap per slot and the
 * issue loop merges the heads of the heaps whose slot is free. Nodes freed
 * while the loop runs (children of nodes that finish instantly) are held
 * back until it ends, as in the reference.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/frontend.h"
#include "system/relabel.h"
#include "system/remote_mem.h"
#include "system/system.h"
#include "util/msg_escape.h"
#include "util/grow.h"
#include "util/ticks.h"
#include "vimana/et.h"
#include "workload/workload.h"

#define NONE UINT32_MAX

/* ---- the free set -------------------------------------------------------- */

static void make_free(sim *s, workload *w, uint32_t i)
{
    w->live[i].state = WL_FREE;
    if (w->issuing) {
        if (grow_array_u32((void **)&w->deferred, &w->cap_deferred, w->n_deferred + 1, sizeof *w->deferred, 16,
                           UINT32_MAX) != 0) {
            sim_fail(s, "out of memory");
            return;
        }
        w->deferred[w->n_deferred++] = i;
        return;
    }
    if (!ready_set_push(&w->free_nodes[w->nodes[i].slot], i))
        sim_fail(s, "out of memory");
}

static bool free_set_empty(const workload *w)
{
    for (int k = 0; k < SLOT_COUNT; k++)
        if (!ready_set_empty(&w->free_nodes[k]))
            return false;
    return w->n_deferred == 0;
}

/* ---- completion ---------------------------------------------------------- */

static void trace_line(sim *s, workload *w, uint32_t i, const char *what)
{
    if (!s->cfg.trace_enabled)
        return;
    fprintf(s->log, "%s,sys->id=%u, tick=%llu, node->id=%llu, node->name=%s, node->type=%u\n", what, w->npu,
            (unsigned long long)sim_now(s), (unsigned long long)w->nodes[i].id, workload_node_name(w, i),
            w->nodes[i].type);
}

/* Release the slot, stamp the end and free the children. */
static void finish_node(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    trace_line(s, w, i, "callback");
    w->live[i].state = WL_DONE;
    w->live[i].end = sim_now(s);
    w->run->nodes_done++;
    const wl_hooks *h = &w->run->hooks;
    if (h->node_done)
        h->node_done(h->ctx, w, i);
    if (node->slot != SLOT_NONE)
        w->slot_busy[node->slot] = false;
    w->ongoing--;
    for (uint32_t k = 0; k < node->n_children; k++) {
        uint32_t c = w->children[node->child_start + k];
        if (--w->live[c].parents_left == 0)
            make_free(s, w, c);
    }
}

static void issue_free_nodes(sim *s, workload *w);

/* The reduced simulation runs NPU 0 only (or, over roles, one
 * representative per class): every other NPU's timeline is its
 * representative's, relabelled, so each finishes when its representative
 * does. Nothing is printed yet: the driver prints every NPU's report once
 * the run has succeeded (workload_print_reduced), and runs again in full if
 * it failed. */
static void finish_mirrors(sim *s, const workload *w0)
{
    /* Their records are not written (they were never attached: a
     * million of them would be touched for nothing); the reports are
     * printed from the representatives' (workload_print_reduced). */
    w0->run->finished_npus += s->roles ? s->roles->class_size - 1 : s->n_npus - 1;
}

bool workload_npu_runs(const sim *s, uint32_t npu)
{
    return !s->reduced || (s->roles ? relabel_is_rep(s->roles, npu) : npu == 0);
}

uint32_t workload_representative(const sim *s, uint32_t npu)
{
    return !s->reduced ? npu : s->roles ? s->roles->rep[npu] : 0;
}

void workload_print_reduced(wl_run *r)
{
    sim *s = r->s;
    /* each representative's figures, computed once: the class index of
     * representative R is first[R] / class_size */
    uint32_t n_classes = s->roles ? s->roles->n_classes : 1;
    npu_stats *stats = calloc(n_classes, sizeof *stats);
    bool *have = calloc(n_classes, sizeof *have);
    if (!stats || !have) {
        free(stats);
        free(have);
        sim_fail(s, "out of memory (report)");
        return;
    }
    for (uint32_t npu = 0; npu < s->n_npus && !s->failed; npu++) {
        uint32_t rep = workload_representative(s, npu);
        uint32_t k = s->roles ? s->roles->first[rep] / s->roles->class_size : 0;
        if (!have[k] && workload_compute_stats(s, &r->wl[rep], &stats[k]) != 0)
            break;
        have[k] = true;
        workload_print_report_as(s, &r->wl[rep], npu, &stats[k]);
    }
    free(stats);
    free(have);
}

static void check_finished(sim *s, workload *w)
{
    if (w->finished || w->ongoing > 0 || !free_set_empty(w))
        return;
    w->finished = true;
    w->finish_tick = sim_now(s);
    w->run->finished_npus++;
    if (s->reduced) {
        finish_mirrors(s, w);
        return;
    }
    workload_print_report(s, w);
}

/* The completion of every request a node makes: obj is the workload,
 * data the node's index. */
static void node_done(sim *s, void *obj, uint64_t data)
{
    workload *w = obj;
    if (w->finished || s->failed)
        return;
    finish_node(s, w, (uint32_t)data);
    issue_free_nodes(s, w);
    check_finished(s, w);
}

/* ---- issuing ------------------------------------------------------------- */

/* A node's replayed time: its duration, or one tick for a 0 us node (as in
 * the reference). Returns false after sim_fail() when the duration does not
 * fit the 64-bit nanosecond clock. */
static bool replay_ticks(sim *s, const workload *w, uint32_t i, vimana_tick *out)
{
    const wl_node *node = &w->nodes[i];
    if (node->duration_us == 0) {
        *out = 1;
        return true;
    }
    if (!ticks_from_us(node->duration_us, out)) {
        sim_fail(s, "%s: node %llu (%s): duration out of range: duration_micros %llu does not fit the 64-bit "
                    "nanosecond clock (at most %llu)", w->path, (unsigned long long)node->id,
                 workload_node_name(w, i), (unsigned long long)node->duration_us, (unsigned long long)TICKS_MAX_US);
        return false;
    }
    if (*out > UINT64_MAX - sim_now(s)) {
        sim_fail(s, "%s: node %llu (%s): duration out of range: duration_micros %llu starting at t = %llu ends past "
                    "the 64-bit nanosecond clock", w->path, (unsigned long long)node->id, workload_node_name(w, i),
                 (unsigned long long)node->duration_us, (unsigned long long)sim_now(s));
        return false;
    }
    return true;
}

static void issue_replay(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    vimana_tick runtime;
    if (!replay_ticks(s, w, i, &runtime))
        return;
    if (node->duration_us && node->type == VET_COMP_NODE) {
        runtime = sim_compute_ticks(s, w->npu, runtime, w->path, node->id);
        if (s->failed)
            return;
    }
    if (node->is_cpu)
        w->tics_cpu_ops += runtime;
    else
        w->tics_gpu_ops += runtime;
    npu_register_event(s, w->npu, runtime, node_done, w, i);
}

bool workload_roofline(const sys_config *cfg, const wl_node *n, wl_roofline *out)
{
    if (cfg->replay_only || !cfg->roofline_enabled || n->type != VET_COMP_NODE || n->is_cpu || n->tensor_size == 0)
        return false;
    out->intensity = (double)n->num_ops / (double)n->tensor_size;
    out->perf = cfg->local_mem_bw_Bps * out->intensity;
    if (out->perf > cfg->peak_perf_flops)
        out->perf = cfg->peak_perf_flops;
    out->compute_util = out->perf / cfg->peak_perf_flops;
    out->mem_util = (out->perf / out->intensity) / cfg->local_mem_bw_Bps;
    out->memory_bound = out->perf < cfg->peak_perf_flops;
    return true;
}

static void issue_roofline(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    const sys_config *cfg = &s->cfg;
    if (node->tensor_size == 0) {
        /* an empty tensor makes the node a no-op, finished at once */
        finish_node(s, w, i);
        return;
    }
    if (!(cfg->peak_perf_flops > 0) || !(cfg->local_mem_bw_Bps > 0)) {
        sim_fail(s, "%s: roofline-enabled needs 'peak-perf' and 'local-mem-bw' greater than 0 (node %llu of %s)",
                 cfg->path, (unsigned long long)node->id, w->path);
        return;
    }
    wl_roofline rl;
    workload_roofline(cfg, node, &rl);
    double elapsed = (double)node->num_ops / rl.perf;
    vimana_tick runtime;
    if (!ticks_from_ns(elapsed * 1e9, &runtime)) {
        bool compute_bound = !rl.memory_bound;
        sim_fail(s, "%s: node %llu (%s): roofline time out of range: %g s (%s %g in %s) does not fit the 64-bit "
                    "nanosecond clock", w->path, (unsigned long long)node->id, workload_node_name(w, i), elapsed,
                 compute_bound ? "peak-perf" : "local-mem-bw",
                 compute_bound ? cfg->peak_perf_flops / 1e12 : cfg->local_mem_bw_Bps / 1e9, cfg->path);
        return;
    }
    runtime = sim_compute_ticks(s, w->npu, runtime, w->path, node->id);
    if (s->failed)
        return;
    w->tics_gpu_ops += runtime;
    npu_register_event(s, w->npu, runtime, node_done, w, i);
}

static npu_group *group_of(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    if (node->pg == WL_NO_GROUP)
        return NULL;
    int64_t pg = workload_group(w->run, w->npu, node->pg);
    npu_group *g = system_find_group(s, w->npu, pg);
    if ((!g && system_group_declared(s, pg)) || (g && g->my_index == UINT32_MAX)) {
        char name[200];
        sim_fail(s, "%s: node %llu (%s): NPU %u is not a member of communicator group %lld", w->path,
                 (unsigned long long)node->id, msg_escape(workload_node_name(w, i), name, sizeof name), w->npu,
                 (long long)pg);
        return NULL;
    }
    if (!g) {
        sim_fail(s, "%s: For rank %u ET node %llu, communicator group %lld not found", w->path, w->npu,
                 (unsigned long long)node->id, (long long)pg);
        return NULL;
    }
    return g;
}

static void issue_collective(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    if (node->comm_type == VET_BROADCAST) {
        vimana_tick runtime;
        if (replay_ticks(s, w, i, &runtime))
            collective_start_timed(s, w->npu, i, runtime, (sim_done){node_done, w, i});
        return;
    }
    static const enum coll_kind kinds[] = {
        [VET_ALL_REDUCE] = COLL_ALL_REDUCE, [VET_ALL_GATHER] = COLL_ALL_GATHER,
        [VET_REDUCE_SCATTER] = COLL_REDUCE_SCATTER, [VET_ALL_TO_ALL] = COLL_ALL_TO_ALL,
    };
    bool involved[64];
    for (uint32_t d = 0; d < node->n_involved; d++)
        involved[d] = (node->involved >> d) & 1;
    coll_request req = {
        .npu = w->npu,
        .trace = w->path,
        .node = i,
        .node_id = node->id,
        .node_name = workload_node_name(w, i),
        .kind = kinds[node->comm_type],
        .size = node->comm_size,
        .priority = node->comm_priority,
        .involved = node->n_involved ? involved : NULL,
        .n_involved = node->n_involved,
        .done = {node_done, w, i},
    };
    if (node->pg != WL_NO_GROUP && !(req.group = group_of(s, w, i)))
        return;
    collective_start(s, &req);
}

/* A SEND's destination or a RECV's source as this NPU names it (the loader
 * checked it for the rank the trace was written for; a compact workload's
 * other ranks shift it, which may leave the system). */
static int peer_of(sim *s, const workload *w, const wl_node *node, bool send, uint32_t *out)
{
    int64_t peer = workload_peer(w->run, w->npu, send ? node->comm_dst : node->comm_src);
    if (peer < 0 || peer >= s->n_npus || peer == w->npu) {
        char name[200];
        const vet_roles *roles = &w->run->roles;
        uint32_t rank = roles->n_roles ? roles->roles[roles->role_of[w->npu]].rank : w->npu;
        sim_fail(s, "%s: node %llu (%s): run by NPU %u, the %s %d of rank %u is %lld, %s", w->path,
                 (unsigned long long)node->id, msg_escape(workload_node_name(w, (uint32_t)(node - w->nodes)), name,
                                                          sizeof name),
                 w->npu, send ? "comm_dst" : "comm_src", send ? node->comm_dst : node->comm_src,
                 rank, (long long)peer,
                 peer == w->npu ? "the NPU itself" : "not an NPU of this system");
        return -1;
    }
    *out = (uint32_t)peer;
    return 0;
}

static void issue_comm(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    msg_cb done = {node_done, w, i};
    switch (node->type) {
    case VET_COMM_COLL_NODE:
        issue_collective(s, w, i);
        break;
    case VET_COMM_SEND_NODE:
    default: {
        bool send = node->type == VET_COMM_SEND_NODE;
        uint32_t peer;
        if (peer_of(s, w, node, send, &peer) != 0)
            return;
        if (send)
            fe_send(s, w->npu, peer, node->comm_size, fe_native_tag((uint32_t)node->comm_tag), done, NULL);
        else
            fe_recv(s, w->npu, peer, node->comm_size, fe_native_tag((uint32_t)node->comm_tag), done, NULL);
        break;
    }
    }
}

/* A METADATA node carries PyTorch process groups in inputs.values:
 * "['[{\"pg_name\": \"1\", \"ranks\": [0, 1], ...}]']". */
static void register_metadata_groups(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    if (!node->meta)
        return;
    const char *text = w->names + node->meta;
    size_t len = strlen(text);
    if (len < 4)
        return;
    char *inner = strndup(text + 2, len - 4);
    json_object *root = inner ? json_tokener_parse(inner) : NULL;
    free(inner);
    if (!root || !json_object_is_type(root, json_type_array)) {
        sim_warn(s, "%s: METADATA node %llu: process-group payload is not a JSON list; ignored", w->path,
                 (unsigned long long)node->id);
        json_object_put(root);
        return;
    }
    for (size_t k = 0; k < json_object_array_length(root); k++) {
        json_object *item = json_object_array_get_idx(root, k), *name, *ranks;
        if (!json_object_object_get_ex(item, "pg_name", &name) || !json_object_object_get_ex(item, "ranks", &ranks) ||
            !json_object_is_type(ranks, json_type_array)) {
            sim_warn(s, "%s: METADATA node %llu: process group %zu lacks pg_name or ranks; ignored", w->path,
                     (unsigned long long)node->id, k);
            continue;
        }
        char *end;
        long long pg = strtoll(json_object_get_string(name), &end, 10);
        if (*end) {
            sim_warn(s, "%s: METADATA node %llu: pg_name '%s' is not a number; ignored", w->path,
                     (unsigned long long)node->id, json_object_get_string(name));
            continue;
        }
        uint32_t n = (uint32_t)json_object_array_length(ranks);
        uint32_t *members = malloc((n ? n : s->n_npus) * sizeof *members);
        if (!members)
            break;
        if (n == 0) {
            for (uint32_t r = 0; r < s->n_npus; r++)
                members[r] = r;
            n = s->n_npus;
        } else {
            for (uint32_t r = 0; r < n; r++)
                members[r] = (uint32_t)json_object_get_int(json_object_array_get_idx(ranks, r));
        }
        system_add_group(s, w->npu, pg, pg + 1, members, n);
        free(members);
    }
    json_object_put(root);
}

static void issue(sim *s, workload *w, uint32_t i)
{
    const wl_node *node = &w->nodes[i];
    w->live[i].state = WL_RUNNING;
    w->live[i].start = sim_now(s);
    if (node->slot != SLOT_NONE)
        w->slot_busy[node->slot] = true;
    w->ongoing++;
    trace_line(s, w, i, "issue");
    if (s->cfg.replay_only) {
        issue_replay(s, w, i);
        return;
    }
    switch (node->type) {
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        remote_mem_issue(s, &(mem_access){.npu = w->npu, .bytes = node->tensor_size, .trace = w->path,
                                          .node_id = node->id, .node_name = workload_node_name(w, i),
                                          .done = {node_done, w, i}});
        break;
    case VET_COMP_NODE:
        if (s->cfg.roofline_enabled && !node->is_cpu)
            issue_roofline(s, w, i);
        else
            issue_replay(s, w, i);
        break;
    case VET_COMM_COLL_NODE:
    case VET_COMM_SEND_NODE:
    case VET_COMM_RECV_NODE:
        issue_comm(s, w, i);
        break;
    case VET_METADATA_NODE:
        register_metadata_groups(s, w, i);
        finish_node(s, w, i);
        break;
    default:
        finish_node(s, w, i);
        break;
    }
}

/* The lowest-id free node whose slot is available, or NONE. */
static uint32_t next_issuable(workload *w)
{
    uint32_t best = NONE;
    for (int k = 0; k < SLOT_COUNT; k++) {
        const ready_set *r = &w->free_nodes[k];
        if (ready_set_empty(r) || (k != SLOT_NONE && w->slot_busy[k]))
            continue;
        if (best == NONE || ready_set_min(r) < best)
            best = ready_set_min(r);
    }
    return best;
}

static void issue_free_nodes(sim *s, workload *w)
{
    for (;;) {
        w->issuing = true;
        uint32_t i;
        while (!s->failed && (i = next_issuable(w)) != NONE) {
            ready_set_pop(&w->free_nodes[w->nodes[i].slot]);
            issue(s, w, i);
        }
        w->issuing = false;
        for (uint32_t k = 0; k < w->n_deferred; k++)
            make_free(s, w, w->deferred[k]);
        w->n_deferred = 0;
        /* The reference waits for the next completion to issue children of
         * nodes that finished instantly; with nothing running there is no
         * such completion, so issue them now rather than stall. */
        if (s->failed || w->ongoing > 0 || free_set_empty(w))
            return;
    }
}

/* INVALID_NODE means the node's type was never set. The reference runs
 * such nodes as no-ops and so does Vimana, but a trace full of them
 * simulates nothing: say so once per file. */
static void warn_invalid_nodes(sim *s, const workload *w)
{
    uint32_t count = w->trace->n_invalid, first = w->trace->first_invalid;
    if (count == 0)
        return;
    /* the single-file form: one warning for the file, not one per NPU */
    if (w->npu > 0 && strcmp(w[-1].path, w->path) == 0)
        return;
    char name[200];
    sim_warn(s, "%s: %u INVALID_NODE node%s (first: node %llu (%s)) %s: the node type is unset", w->path, count,
             count == 1 ? "" : "s", (unsigned long long)w->nodes[first].id,
             msg_escape(workload_node_name(w, first), name, sizeof name),
             s->cfg.replay_only ? (count == 1 ? "only replays its duration" : "only replay their duration")
                                : (count == 1 ? "runs as a zero-time node" : "run as zero-time nodes"));
}

void workload_fire_all(wl_run *r)
{
    sim *s = r->s;
    /* reduced: NPU 0, or each class's representative, stands for all */
    for (uint32_t npu = 1; npu < s->n_npus; npu++)
        if (workload_npu_runs(s, npu) && !workload_npu(r, npu))
            return;
    /* an NPU not attached runs NPU 0's file: its warning is NPU 0's */
    for (uint32_t npu = 0; npu < s->n_npus; npu++)
        if (r->wl[npu].trace)
            warn_invalid_nodes(s, &r->wl[npu]);
    for (uint32_t npu = 0; npu < s->n_npus && !s->failed; npu++) {
        if (!workload_npu_runs(s, npu))
            continue;
        workload *w = &r->wl[npu];
        for (uint32_t i = 0; i < w->n_nodes; i++)
            if (w->live[i].parents_left == 0)
                make_free(s, w, i);
        issue_free_nodes(s, w);
        check_finished(s, w);
    }
}

uint32_t workload_report_unfinished(wl_run *r)
{
    sim *s = r->s;
    uint32_t count = 0;
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        workload *w = &r->wl[npu];
        if (w->finished)
            continue;
        if (count++ >= 16)
            continue;
        char ids[400];
        size_t len = 0;
        uint32_t shown = 0;
        for (uint32_t i = 0; i < w->n_nodes && shown < 8; i++) {
            if (w->live[i].state != WL_RUNNING)
                continue;
            len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%llu (%s)", shown ? ", " : "",
                                    (unsigned long long)w->nodes[i].id, workload_node_name(w, i));
            shown++;
            if (len >= sizeof ids - 1)
                break;
        }
        fprintf(s->log, "vimana: deadlock: NPU %u never finished; waiting on node%s %s\n", npu,
                shown == 1 ? "" : "s", shown ? ids : "(none running: blocked by unfinished dependencies)");
    }
    return count;
}
