/*
 * The native collective algorithms, one phase at a time
 * (shared/spec/simulator.md sections 13.6 - 13.9).
 *
 * Ring, Direct and HalvingDoubling share a packet engine: StreamInit inserts
 * P packets; every insert hands a packet to a bundle that waits the endpoint
 * delay (plus the reduction cost when the packet is "processed") before
 * delivering General; every General frees a slot and sends the oldest
 * packet; every receipt inserts the next packet. The algorithms differ only
 * in their constants and in how the peers rotate. DoubleBinaryTree runs its
 * own state machine over the same bundles and messages.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "system/custom.h"
#include "system/frontend.h"
#include "system/msg_match.h"
#include "system/shared_bus.h"
#include "system/system.h"
#include "util/ticks.h"

#define NONE UINT32_MAX

enum tree_role { TREE_LEAF, TREE_INTERMEDIATE, TREE_ROOT };
enum tree_state {
    TS_BEGIN,
    TS_SENDING_TO_PARENT,
    TS_WAITING_FROM_PARENT,
    TS_END,
    TS_WAIT_TWO_CHILDREN,
    TS_WAIT_ONE_CHILD,
    TS_SENDING_TO_CHILDREN,
};
enum phase_event { EV_GENERAL, EV_RECEIVED };

typedef struct bundle {
    stream *st;
    uint64_t epoch;
    uint64_t size;
    bool processed;
} bundle;

uint32_t phase_ring_member(const phase_desc *p, uint32_t index)
{
    return p->ring == RING_GROUP ? p->members[index] : p->base + index * p->stride;
}

static const phase_desc *current(const stream *st)
{
    return &st->cur;
}

static uint32_t log2_exact(uint32_t n)
{
    uint32_t k = 0;
    while ((1u << k) < n)
        k++;
    return k;
}

uint64_t phase_out_size(const phase_desc *p)
{
    if (p->algo == ALGO_DOUBLE_BINARY_TREE)
        return p->in_size;
    switch (p->coll) {
    case COLL_REDUCE_SCATTER: return p->in_size / p->n;
    case COLL_ALL_GATHER: return p->in_size * p->n;
    default: return p->in_size;
    }
}

static void phase_exit(sim *s, stream *st)
{
    if (st->run.bundles_out != 0) {
        sim_fail(s, "internal error: NPU %u stream %llu left a phase with %u bundles in flight", st->npu,
                 (unsigned long long)st->id, st->run.bundles_out);
        return;
    }
    scheduler_phase_done(s, st);
}

/* ---- bundles: endpoint delay, then the reduction cost ------------------- */

static void phase_event(sim *s, stream *st, enum phase_event ev);

/* Out of line: the per-bundle path carries no formatting. */
static __attribute__((cold, noinline)) void report_slow_reduction(sim *s, uint64_t bytes, uint32_t npu)
{
    sim_fail(s, "%s: key 'local-mem-bw' (%g GB/s) is too small: reducing %llu bytes on NPU %u does not fit "
                "the 64-bit nanosecond clock", s->cfg.path, s->cfg.local_mem_bw_Bps / 1e9, (unsigned long long)bytes,
             npu);
}

static void bundle_fire(sim *s, void *obj, uint64_t data)
{
    (void)data;
    bundle *b = obj;
    stream *st = b->st;
    if (s->failed) {
        slab_free(&s->bundles, b);
        return;
    }
    if (st->epoch != b->epoch) {
        sim_fail(s, "internal error: a bundle outlived its stream");
        slab_free(&s->bundles, b);
        return;
    }
    if (b->processed) {
        b->processed = false;
        if (!(s->cfg.local_mem_bw_Bps > 0)) {
            sim_fail(s, "%s: key 'local-mem-bw' is 0 but collectives reduce data on NPU %u "
                        "(set local-mem-bw in GB/s)", s->cfg.path, st->npu);
            slab_free(&s->bundles, b);
            return;
        }
        /* write + read + read, each truncated on its own */
        vimana_tick once;
        if (!ticks_from_ns((double)b->size / s->cfg.local_mem_bw_Bps * 1e9, &once) || once > UINT64_MAX / 3) {
            report_slow_reduction(s, b->size, st->npu);
            slab_free(&s->bundles, b);
            return;
        }
        npu_register_event(s, st->npu, 3 * once, bundle_fire, b, 0);
        return;
    }
    slab_free(&s->bundles, b);
    st->run.bundles_out--;
    phase_event(s, st, EV_GENERAL);
}

/* How the algorithm hands a bundle to the memory bus; only the shared-bus
 * model looks at send_back and npu_to_ma (the reference's send_to_MA()). */
typedef struct bundle_flags {
    bool processed;     /* reduce the data: bus processing and the 3-term reduction cost */
    bool send_back;     /* the data crosses the bus once more */
    bool npu_to_ma;     /* enters at the NPU side, else at the memory side */
} bundle_flags;

static void new_bundle(sim *s, stream *st, uint64_t size, bundle_flags f)
{
    bundle *b = slab_alloc(&s->bundles);
    if (!b) {
        sim_fail(s, "out of memory (bundles)");
        return;
    }
    *b = (bundle){.st = st, .epoch = st->epoch, .size = size, .processed = f.processed};
    st->run.bundles_out++;
    /* Communicator-group local rings transmit "Fast": a fixed 10 ticks, bus
     * or not. Everything else is "Usual": the LogGP bus when modelled, else
     * the endpoint delay. Either way the bus hands the bundle back to
     * bundle_fire, which still adds the reduction cost of a processed one,
     * as PacketBundle::call does. */
    const phase_desc *p = current(st);
    if (s->cfg.model_shared_bus && !p->local_group) {
        shared_bus_request(s, st->npu, f.npu_to_ma, size, f.processed, f.send_back, bundle_fire, b, 0);
        return;
    }
    vimana_tick delay = p->local_group ? 10 : s->cfg.endpoint_delay;
    npu_register_event(s, st->npu, delay, bundle_fire, b, 0);
}

/* ---- messages ------------------------------------------------------------ */

static void on_received(sim *s, void *obj, uint64_t epoch)
{
    stream *st = obj;
    if (s->failed)
        return;
    if (st->epoch != epoch) {
        sim_fail(s, "internal error: a receive completed for a finished stream");
        return;
    }
    phase_event(s, st, EV_RECEIVED);
}

static bool check_size(sim *s, stream *st, uint32_t peer, uint64_t size)
{
    if (size > 0)
        return true;
    sim_fail(s, "zero-byte message between NPU %u and NPU %u (tag %u) in the collective of node %llu: "
                "the collective is too small to split over its NPUs", st->npu, peer, st->tag,
             (unsigned long long)st->ds->node);
    return false;
}

static void send_to(sim *s, stream *st, uint32_t dst, uint64_t size)
{
    if (check_size(s, st, dst, size))
        fe_send(s, st->npu, dst, size, st->tag, (msg_cb){NULL, NULL, 0}, &st->run.send_hint);
}

static void receive_from(sim *s, stream *st, uint32_t src, uint64_t size)
{
    if (check_size(s, st, src, size))
        fe_recv(s, st->npu, src, size, st->tag, (msg_cb){on_received, st, st->epoch}, &st->run.recv_hint);
}

/* ---- packet engine: Ring, Direct, HalvingDoubling ----------------------- */

static void push_packet(sim *s, phase_run *r, uint32_t src, uint32_t dst, uint64_t size)
{
    if (r->pk_len == r->pk_cap) {
        uint32_t cap = r->pk_cap * 2;
        packet *p = malloc(cap * sizeof *p);
        if (!p) {
            sim_fail(s, "out of memory (packets)");
            return;
        }
        for (uint32_t i = 0; i < r->pk_len; i++)
            p[i] = r->packets[(r->pk_head + i) & (r->pk_cap - 1)];
        if (r->packets != r->pk_inline)
            free(r->packets);
        r->packets = p;
        r->pk_cap = cap;
        r->pk_head = 0;
    }
    r->packets[(r->pk_head + r->pk_len) & (r->pk_cap - 1)] = (packet){src, dst, size};
    r->pk_len++;
}

static uint32_t ring_step(uint32_t index, int32_t step, uint32_t n)
{
    return (uint32_t)(((int64_t)index + step + n) % n);
}

/* HalvingDoubling's partner for the current offset: go `offset` ring steps
 * clockwise or anticlockwise depending on this NPU's block parity. The phase
 * direction is not used. */
static void hd_set_peer(const phase_desc *p, phase_run *r)
{
    uint32_t peer = p->index;
    if (r->rank_offset != 0) {
        int64_t off = r->rank_offset;
        bool cw = ((int64_t)p->index / off) % 2 == 0;
        peer = (uint32_t)((((int64_t)p->index + (cw ? off : -off)) % p->n + p->n) % p->n);
    }
    r->sender = r->receiver = peer;
}

static void rotate_after_packet(const phase_desc *p, phase_run *r)
{
    if (p->algo == ALGO_DIRECT) {
        int32_t step = p->anticlockwise ? -1 : 1;
        r->receiver = ring_step(r->receiver, step, p->n);
        if (r->receiver == p->index)
            r->receiver = ring_step(r->receiver, step, p->n);
        r->sender = ring_step(r->sender, -step, p->n);
        if (r->sender == p->index)
            r->sender = ring_step(r->sender, -step, p->n);
    } else if (p->algo == ALGO_HALVING_DOUBLING) {
        r->rank_offset = (int64_t)((double)r->rank_offset * r->multiplier);
        r->msg_size = (uint64_t)((double)r->msg_size / r->multiplier);
        if (p->coll == COLL_ALL_REDUCE && r->rank_offset == (int64_t)p->n) {
            r->multiplier = 0.5;
            r->rank_offset = (int64_t)((double)r->rank_offset * r->multiplier);
            r->msg_size = (uint64_t)((double)r->msg_size / r->multiplier);
        }
        hd_set_peer(p, r);
    }
}

static void engine_insert(sim *s, stream *st)
{
    const phase_desc *p = current(st);
    phase_run *r = &st->run;
    if (r->zero == 0 && r->nonzero == 0) {
        r->zero = r->P;
        r->nonzero = r->NZ;
        r->toggle = !r->toggle;
    }
    /* zero-latency packets start at the NPU side, the others at the memory
     * side; all but the last P non-zero ones are sent back */
    bundle_flags f = {.processed = false, .send_back = false, .npu_to_ma = true};
    if (r->zero > 0) {
        r->zero--;
    } else if (r->nonzero > 0) {
        f.processed = p->coll == COLL_REDUCE_SCATTER || (p->coll == COLL_ALL_REDUCE && r->toggle);
        f.send_back = r->nonzero > r->P;
        f.npu_to_ma = false;
        r->nonzero--;
    } else {
        return;
    }
    push_packet(s, r, r->sender, r->receiver, r->msg_size);
    new_bundle(s, st, r->msg_size, f);
    rotate_after_packet(p, r);
}

static void engine_ready(sim *s, stream *st)
{
    const phase_desc *p = current(st);
    phase_run *r = &st->run;
    if (r->pk_len == 0 || r->stream_count == 0 || r->free_packets == 0)
        return;
    packet pk = r->packets[r->pk_head];
    r->pk_head = (r->pk_head + 1) & (r->pk_cap - 1);
    r->pk_len--;
    r->stream_count--;
    r->free_packets--;
    send_to(s, st, phase_ring_member(p, pk.dst), pk.size);
    receive_from(s, st, phase_ring_member(p, pk.src), pk.size);
}

static bool engine_check_exit(sim *s, stream *st)
{
    if (st->run.stream_count == 0 && st->run.free_packets == st->run.P) {
        phase_exit(s, st);
        return true;
    }
    return false;
}

static void engine_general(sim *s, stream *st)
{
    const phase_desc *p = current(st);
    phase_run *r = &st->run;
    r->free_packets++;
    if (p->algo == ALGO_DIRECT && p->coll == COLL_ALL_REDUCE && r->stream_count <= r->M) {
        /* Second half of a direct all-reduce: wait until every first-half
         * message is in, then send one packet per free slot. */
        if (r->total_received < r->M)
            return;
        for (uint32_t i = 0; i < r->P; i++)
            engine_ready(s, st);
        engine_check_exit(s, st);
        return;
    }
    engine_ready(s, st);
    engine_check_exit(s, st);
}

static uint64_t sends_per_phase(const phase_desc *p)
{
    uint64_t n = p->n;
    switch (p->algo) {
    case ALGO_HALVING_DOUBLING: {
        uint64_t steps = log2_exact(p->n);
        return p->coll == COLL_ALL_REDUCE ? 2 * steps : steps;
    }
    case ALGO_DIRECT:
        if (p->coll == COLL_ALL_TO_ALL)
            return n - 1;
        /* fall through */
    default:
        if (p->coll == COLL_ALL_REDUCE)
            return 2 * (n - 1);
        if (p->coll == COLL_ALL_TO_ALL)
            return n * (n - 1) / 2;
        return n - 1;
    }
}

static void engine_start(sim *s, stream *st)
{
    const phase_desc *p = current(st);
    phase_run *r = &st->run;
    uint32_t n = p->n;
    r->stream_count = sends_per_phase(p);
    r->msg_size = p->coll == COLL_ALL_GATHER ? p->in_size : p->in_size / n;
    int32_t step = p->anticlockwise ? -1 : 1;
    r->receiver = ring_step(p->index, step, n);
    r->sender = ring_step(p->index, -step, n);
    switch (p->algo) {
    case ALGO_DIRECT:
        r->P = p->window && p->window < n - 1 ? p->window : n - 1;
        r->M = n - 1;
        r->NZ = p->local_group ? (n - 1) * r->P : r->P;
        break;
    case ALGO_HALVING_DOUBLING:
        r->P = 1;
        r->NZ = log2_exact(n) - 1;
        if (p->coll == COLL_ALL_GATHER) {
            r->rank_offset = n / 2;
            r->multiplier = 0.5;
            r->msg_size = p->in_size;
        } else {
            r->rank_offset = 1;
            r->multiplier = 2.0;
            r->msg_size = p->in_size / 2;
        }
        hd_set_peer(p, r);
        break;
    default:
        r->P = 1;
        r->NZ = n - 1;
        break;
    }
    for (uint32_t i = 0; i < r->P && !s->failed; i++)
        engine_insert(s, st);
}

/* ---- double binary tree (one full all-reduce per phase) ----------------- */

/* Finds this index's place in a tree over ring indices [lo, lo + size) laid
 * out in order (size = 2^h - 1, root in the middle). */
static void complete_tree_place(uint32_t lo, uint32_t size, uint32_t parent, uint32_t index,
                                uint32_t *out_parent, uint32_t *out_left, uint32_t *out_right)
{
    for (;;) {
        uint32_t half = size / 2;
        uint32_t root = lo + half;
        if (index == root) {
            *out_parent = parent;
            *out_left = half ? lo + half / 2 : NONE;
            *out_right = half ? root + 1 + half / 2 : NONE;
            return;
        }
        parent = root;
        if (index < root) {
            size = half;
        } else {
            lo = root + 1;
            size = half;
        }
    }
}

static void dbt_setup(const phase_desc *p, phase_run *r)
{
    uint32_t n = p->n, parent = NONE, left = NONE, right = NONE;
    bool max_rooted = p->tree == 0;
    uint32_t root = max_rooted ? n - 1 : 0;
    uint32_t sub_lo = max_rooted ? 0 : 1;
    if (p->index == root) {
        r->tree_role = TREE_ROOT;
        uint32_t child = sub_lo + (n - 1) / 2;
        if (max_rooted)
            left = child;
        else
            right = child;
    } else {
        complete_tree_place(sub_lo, n - 1, root, p->index, &parent, &left, &right);
        r->tree_role = left == NONE ? TREE_LEAF : TREE_INTERMEDIATE;
    }
    r->parent = parent == NONE ? NONE : phase_ring_member(p, parent);
    r->left = left == NONE ? NONE : phase_ring_member(p, left);
    r->right = right == NONE ? NONE : phase_ring_member(p, right);
    r->tree_state = TS_BEGIN;
    r->reductions_done = 0;
}

/* The tree's bundles, with the reference's flags: a leaf's first bundle
 * starts at the NPU side, every other one at the memory side; the first
 * child's reduction is not sent back, the later reductions are. */
static const bundle_flags LEAF_UP = {.processed = false, .send_back = false, .npu_to_ma = true};
static const bundle_flags LEAF_DOWN = {.processed = false, .send_back = false, .npu_to_ma = false};
static const bundle_flags FIRST_CHILD = {.processed = true, .send_back = false, .npu_to_ma = false};
static const bundle_flags REDUCE_AND_SEND_BACK = {.processed = true, .send_back = true, .npu_to_ma = false};

static void dbt_event(sim *s, stream *st, enum phase_event ev)
{
    phase_run *r = &st->run;
    uint64_t size = current(st)->in_size;
    uint32_t only_child = r->left != NONE ? r->left : r->right;
    switch (r->tree_role) {
    case TREE_LEAF:
        if (r->tree_state == TS_BEGIN) {
            new_bundle(s, st, size, LEAF_UP);
            r->tree_state = TS_SENDING_TO_PARENT;
        } else if (r->tree_state == TS_SENDING_TO_PARENT) {
            r->tree_state = TS_WAITING_FROM_PARENT;
            send_to(s, st, r->parent, size);
            receive_from(s, st, r->parent, size);
        } else if (r->tree_state == TS_WAITING_FROM_PARENT) {
            new_bundle(s, st, size, LEAF_DOWN);
            r->tree_state = TS_END;
        } else if (r->tree_state == TS_END) {
            phase_exit(s, st);
        }
        return;
    case TREE_INTERMEDIATE:
        if (r->tree_state == TS_BEGIN) {
            r->tree_state = TS_WAIT_TWO_CHILDREN;
            receive_from(s, st, r->left, size);
            receive_from(s, st, r->right, size);
        } else if (r->tree_state == TS_WAIT_TWO_CHILDREN && ev == EV_RECEIVED) {
            new_bundle(s, st, size, FIRST_CHILD);
            r->tree_state = TS_WAIT_ONE_CHILD;
        } else if (r->tree_state == TS_WAIT_ONE_CHILD && ev == EV_RECEIVED) {
            new_bundle(s, st, size, REDUCE_AND_SEND_BACK);
            r->tree_state = TS_SENDING_TO_PARENT;
        } else if (r->reductions_done < 1 && ev == EV_GENERAL) {
            /* the first of the two child reductions only counts */
            r->reductions_done++;
        } else if (r->tree_state == TS_SENDING_TO_PARENT) {
            r->tree_state = TS_WAITING_FROM_PARENT;
            send_to(s, st, r->parent, size);
            receive_from(s, st, r->parent, size);
        } else if (r->tree_state == TS_WAITING_FROM_PARENT && ev == EV_RECEIVED) {
            new_bundle(s, st, size, REDUCE_AND_SEND_BACK);
            r->tree_state = TS_SENDING_TO_CHILDREN;
        } else if (r->tree_state == TS_SENDING_TO_CHILDREN) {
            send_to(s, st, r->left, size);
            send_to(s, st, r->right, size);
            phase_exit(s, st);
        }
        return;
    case TREE_ROOT:
        if (r->tree_state == TS_BEGIN) {
            r->tree_state = TS_WAIT_ONE_CHILD;
            receive_from(s, st, only_child, size);
        } else if (r->tree_state == TS_WAIT_ONE_CHILD) {
            new_bundle(s, st, size, REDUCE_AND_SEND_BACK);
            r->tree_state = TS_SENDING_TO_CHILDREN;
        } else if (r->tree_state == TS_SENDING_TO_CHILDREN) {
            send_to(s, st, only_child, size);
            phase_exit(s, st);
        }
        return;
    }
}

/* ---- dispatch ------------------------------------------------------------ */

static void phase_event(sim *s, stream *st, enum phase_event ev)
{
    if (s->failed)
        return;
    if (st->custom) {
        sim_fail(s, "internal error: custom collective received a native event");
        return;
    }
    switch (current(st)->algo) {
    case ALGO_DOUBLE_BINARY_TREE:
        dbt_event(s, st, ev);
        break;
    default:
        if (ev == EV_GENERAL) {
            engine_general(s, st);
        } else {
            st->run.total_received++;
            engine_insert(s, st);
        }
        break;
    }
}

void phase_start(sim *s, stream *st)
{
    sim_phase_started(s, st);
    memset(&st->run, 0, sizeof st->run);
    st->run.packets = st->run.pk_inline;
    st->run.pk_cap = PHASE_INLINE_PACKETS;
    st->run.send_hint = st->run.recv_hint = MSG_NO_HINT;
    if (st->custom) {
        custom_phase_start(s, st);
        return;
    }
    const phase_desc *p = current(st);
    if (p->algo == ALGO_DOUBLE_BINARY_TREE) {
        dbt_setup(p, &st->run);
        dbt_event(s, st, EV_GENERAL);
    } else {
        engine_start(s, st);
    }
}

void phase_release(sim *s, stream *st)
{
    if (st->custom)
        custom_phase_release(s, st);
    if (st->run.packets && st->run.packets != st->run.pk_inline)
        free(st->run.packets);
    st->run.packets = NULL;
    st->run.pk_head = st->run.pk_len = st->run.pk_cap = 0;
}
