/*
 * Unit tests of workload/breakdown.c: a hand-built NPU timeline whose GPU
 * idle stretches are charged to the communication that held the next
 * compute back, every tick counted once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "vimana/et.h"
#include "workload/breakdown.h"

#define N 7

/* The step, one chain (each node the child of the one before) except the
 * last compute, which also waits for node 5:
 *   0 COMP [0, 10)  1 COLL pg 1 [10, 15)  2 COMP [15, 20)
 *   3 RECV [22, 30) (issued 2 ticks late)  4 COMP [30, 35)
 *   5 COLL pg 2 [35, 50)  6 COMP [55, 60), after 5 */
typedef struct step {
    wl_node nodes[N];
    wl_node_run live[N];
    uint32_t children[N];
} step;

static void timeline(step *s)
{
    wl_node *nodes = s->nodes;
    wl_node_run *live = s->live;
    uint32_t *children = s->children;
    static const uint8_t types[N] = {VET_COMP_NODE, VET_COMM_COLL_NODE, VET_COMP_NODE, VET_COMM_RECV_NODE,
                                     VET_COMP_NODE, VET_COMM_COLL_NODE, VET_COMP_NODE};
    static const vimana_tick start[N] = {0, 10, 15, 22, 30, 35, 55}, end[N] = {10, 15, 20, 30, 35, 50, 60};
    for (uint32_t i = 0; i < N; i++) {
        bool comp = types[i] == VET_COMP_NODE;
        nodes[i] = (wl_node){.id = i, .type = types[i], .kind = comp ? KIND_GPU : KIND_COMM, .pg = WL_NO_GROUP,
                             .num_ops = comp ? 1000 * (i + 1) : 0, .child_start = i, .n_children = i + 1 < N};
        children[i] = i + 1;
        live[i] = (wl_node_run){.start = start[i], .end = end[i], .state = WL_DONE};
    }
    nodes[1].pg = 1;
    nodes[5].pg = 2;
}

/* The step as the workload of one NPU that finished at finish. */
static workload workload_of(step *s, vimana_tick finish)
{
    return (workload){.nodes = s->nodes, .n_nodes = N, .children = s->children, .live = s->live,
                      .finish_tick = finish};
}

/* The breakdown of the step finished at finish, with no peer known. */
static wl_breakdown breakdown_of(step *s, vimana_tick finish)
{
    workload w = workload_of(s, finish);
    wl_breakdown b;
    assert_int_equal(workload_breakdown(&w, NULL, NULL, &b), 0);
    return b;
}

static void charges_each_gap(void **state)
{
    (void)state;
    step s;
    timeline(&s);
    wl_breakdown b = breakdown_of(&s, 60);
    assert_int_equal(b.finish, 60);
    assert_int_equal(b.compute, 10 + 5 + 5 + 5);
    assert_int_equal(b.flops, 1000 + 3000 + 5000 + 7000);
    assert_int_equal(b.n_groups, 2);
    assert_int_equal(b.group[0], 1);
    assert_int_equal(b.exposed_group[0], 5);       /* [10, 15) */
    assert_int_equal(b.exposed_p2p, 10);           /* [20, 30): the RECV and the 2 ticks before it */
    assert_int_equal(b.group[1], 2);
    assert_int_equal(b.exposed_group[1], 15 + 5);  /* [35, 50) and the wait after it, [50, 55) */
    assert_int_equal(b.exposed_other, 0);
    assert_int_equal(b.compute + b.exposed_group[0] + b.exposed_group[1] + b.exposed_p2p, b.finish);
}

/* A step that ends on communication, and an idle start with nothing to
 * blame: both accounted. */
static void tail_and_head(void **state)
{
    (void)state;
    step s;
    timeline(&s);
    s.live[0].start = 4;               /* GPU idle [0, 4) before the first node */
    s.live[6].state = WL_WAITING;      /* never ran: the step ends with node 5 at 50 */
    wl_breakdown b = breakdown_of(&s, 50);
    assert_int_equal(b.compute, 6 + 5 + 5);
    assert_int_equal(b.exposed_other, 4);
    assert_int_equal(b.exposed_group[1], 15);
    assert_int_equal(b.compute + b.exposed_group[0] + b.exposed_group[1] + b.exposed_p2p + b.exposed_other,
                     b.finish);
}

/* The sender of node 3's message: NPU 1, whose SEND to NPU 0 (tag 7)
 * starts at 26 -- the RECV's stretch [20, 30) is bubble until then. */
static const workload *peer(void *ctx, uint32_t npu, uint32_t asker, uint32_t *asker_seen)
{
    (void)asker;
    (void)asker_seen;
    return npu == 1 ? ctx : NULL;
}

static void bubble_until_the_send(void **state)
{
    (void)state;
    step s;
    timeline(&s);
    s.nodes[3].comm_src = 1;
    s.nodes[3].comm_tag = 7;
    wl_node send[2] = {{.id = 0, .type = VET_COMM_SEND_NODE, .comm_dst = 0, .comm_tag = 6},
                       {.id = 1, .type = VET_COMM_SEND_NODE, .comm_dst = 0, .comm_tag = 7}};
    wl_node_run sent[2] = {{.start = 3, .end = 5, .state = WL_DONE}, {.start = 26, .end = 29, .state = WL_DONE}};
    workload sender = {.npu = 1, .nodes = send, .n_nodes = 2, .live = sent};
    workload w = workload_of(&s, 60);
    wl_breakdown b;
    assert_int_equal(workload_breakdown(&w, peer, &sender, &b), 0);
    assert_int_equal(b.exposed_bubble, 6);  /* [20, 26) */
    assert_int_equal(b.exposed_p2p, 4);     /* [26, 30) */
    /* no sender known: all of it in flight */
    assert_int_equal(workload_breakdown(&w, NULL, NULL, &b), 0);
    assert_int_equal(b.exposed_bubble, 0);
    assert_int_equal(b.exposed_p2p, 10);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(charges_each_gap),
    cmocka_unit_test(tail_and_head),
    cmocka_unit_test(bubble_until_the_send)
)
