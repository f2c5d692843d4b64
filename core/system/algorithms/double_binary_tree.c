/* DoubleBinaryTree (the reference's behaviour, docs/simulator.md): each phase is
 * one whole all-reduce up and down a binary tree over the ring; the
 * chunks of a dimension alternate between a max-rooted and a min-rooted
 * tree. Power-of-two rings only. */
#include "system/algorithms/algorithm.h"

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

static int dbt_check(const phase_desc *p, char *msg, size_t len)
{
    return algorithm_need_power_of_two(p, "doubleBinaryTree", msg, len);
}

/* The two trees of a dimension alternate, per collective type. */
static void dbt_plan(sim *s, uint32_t npu, enum coll_kind kind, phase_desc *p)
{
    uint32_t *next = &s->sys[npu].dbt_next[kind][p->dim];
    p->tree = (uint8_t)(*next % 2);
    (*next)++;
}

/* Every phase is a whole all-reduce: the size does not change. */
static uint64_t dbt_out_size(const phase_desc *p)
{
    return p->in_size;
}

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

static void leaf_step(sim *s, stream *st, uint64_t size)
{
    phase_run *r = &st->run;
    if (r->tree_state == TS_BEGIN) {
        phase_bundle(s, st, size, LEAF_UP);
        r->tree_state = TS_SENDING_TO_PARENT;
    } else if (r->tree_state == TS_SENDING_TO_PARENT) {
        r->tree_state = TS_WAITING_FROM_PARENT;
        phase_send(s, st, r->parent, size);
        phase_receive(s, st, r->parent, size);
    } else if (r->tree_state == TS_WAITING_FROM_PARENT) {
        phase_bundle(s, st, size, LEAF_DOWN);
        r->tree_state = TS_END;
    } else if (r->tree_state == TS_END) {
        phase_exit(s, st);
    }
}

static void intermediate_step(sim *s, stream *st, enum phase_event ev, uint64_t size)
{
    phase_run *r = &st->run;
    if (r->tree_state == TS_BEGIN) {
        r->tree_state = TS_WAIT_TWO_CHILDREN;
        phase_receive(s, st, r->left, size);
        phase_receive(s, st, r->right, size);
    } else if (r->tree_state == TS_WAIT_TWO_CHILDREN && ev == PHASE_RECEIVED) {
        phase_bundle(s, st, size, FIRST_CHILD);
        r->tree_state = TS_WAIT_ONE_CHILD;
    } else if (r->tree_state == TS_WAIT_ONE_CHILD && ev == PHASE_RECEIVED) {
        phase_bundle(s, st, size, REDUCE_AND_SEND_BACK);
        r->tree_state = TS_SENDING_TO_PARENT;
    } else if (r->reductions_done < 1 && ev == PHASE_GENERAL) {
        /* the first of the two child reductions only counts */
        r->reductions_done++;
    } else if (r->tree_state == TS_SENDING_TO_PARENT) {
        r->tree_state = TS_WAITING_FROM_PARENT;
        phase_send(s, st, r->parent, size);
        phase_receive(s, st, r->parent, size);
    } else if (r->tree_state == TS_WAITING_FROM_PARENT && ev == PHASE_RECEIVED) {
        phase_bundle(s, st, size, REDUCE_AND_SEND_BACK);
        r->tree_state = TS_SENDING_TO_CHILDREN;
    } else if (r->tree_state == TS_SENDING_TO_CHILDREN) {
        phase_send(s, st, r->left, size);
        phase_send(s, st, r->right, size);
        phase_exit(s, st);
    }
}

static void root_step(sim *s, stream *st, uint64_t size)
{
    phase_run *r = &st->run;
    uint32_t only_child = r->left != NONE ? r->left : r->right;
    if (r->tree_state == TS_BEGIN) {
        r->tree_state = TS_WAIT_ONE_CHILD;
        phase_receive(s, st, only_child, size);
    } else if (r->tree_state == TS_WAIT_ONE_CHILD) {
        phase_bundle(s, st, size, REDUCE_AND_SEND_BACK);
        r->tree_state = TS_SENDING_TO_CHILDREN;
    } else if (r->tree_state == TS_SENDING_TO_CHILDREN) {
        phase_send(s, st, only_child, size);
        phase_exit(s, st);
    }
}

static void dbt_step(sim *s, stream *st, enum phase_event ev)
{
    uint64_t size = st->cur.in_size;
    switch (st->run.tree_role) {
    case TREE_LEAF: leaf_step(s, st, size); break;
    case TREE_INTERMEDIATE: intermediate_step(s, st, ev, size); break;
    case TREE_ROOT: root_step(s, st, size); break;
    }
}

static void dbt_start(sim *s, stream *st)
{
    dbt_setup(&st->cur, &st->run);
    dbt_step(s, st, PHASE_GENERAL);
}

const algorithm algorithm_double_binary_tree = {
    .name = "doubleBinaryTree",
    .check = dbt_check,
    .plan = dbt_plan,
    .out_size = dbt_out_size,
    .start = dbt_start,
    .step = dbt_step,
};
