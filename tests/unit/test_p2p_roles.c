/* The send/receive check of a compact workload (tools/etcmd/p2p_roles.c):
 * role traces' messages relabelled over the ranks of each role, matched
 * once per (sending role, offset, receiving role), counted per rank. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <string.h>

#include "etcmd/p2p_roles.h"

typedef struct calls {
    char log[512];
    int n;
} calls;

static void record(void *ctx, const p2p_entry *e, const char *name, uint32_t x, int64_t peer)
{
    calls *c = ctx;
    char item[96];
    snprintf(item, sizeof item, "%s%s@%u->%lld", c->n++ ? " " : "", name, x, (long long)peer);
    strcat(c->log, item);
    (void)e;
}

/* role r's message as its trace holds it (written for rank `rank`) */
static void add(p2p_set *s, uint32_t role, uint32_t rank, int send, int64_t peer, int64_t tag, uint64_t size,
                const char *name)
{
    p2p_entry e = {.src = send ? rank : peer, .dst = send ? peer : rank, .tag = tag, .size = size, .rank = role,
                   .send = send, .id = 0};
    assert_int_equal(p2p_add(s, &e, name), 0);
}

static vet_roles roles_of(uint32_t *role_of, uint32_t n, vet_role *roles, uint32_t n_roles)
{
    return (vet_roles){.roles = roles, .n_roles = n_roles, .n_ranks = n, .role_of = role_of};
}

/* One message of a role trace, as add() takes it. */
typedef struct message {
    uint32_t role, rank;
    int send;
    int64_t peer, tag;
    uint64_t size;
    const char *name;
} message;

/* The n_msgs messages of the role traces, checked over n ranks with the
 * roles role_of (role 0's trace written for rank 0, role 1's for rank1):
 * p2p_roles_match finds matched pairs and reports the entries log.
 * Returns the number of entries reported. */
static int expect_match(uint32_t *role_of, uint32_t n, uint32_t rank1, const message *msgs, size_t n_msgs,
                        int matched, const char *log)
{
    vet_role r[] = {{.rank = 0}, {.rank = rank1}};
    vet_roles m = roles_of(role_of, n, r, 2);
    p2p_set s = {0};
    for (size_t i = 0; i < n_msgs; i++)
        add(&s, msgs[i].role, msgs[i].rank, msgs[i].send, msgs[i].peer, msgs[i].tag, msgs[i].size, msgs[i].name);
    calls c = {0};
    assert_int_equal(p2p_roles_match(&s, &m, record, &c), matched);
    assert_string_equal(c.log, log);
    p2p_free(&s);
    return c.n;
}

/* Two pipeline stages of two ranks each: ranks 0, 1 send to 2, 3. */
static void test_stages_match_for_every_rank(void **state)
{
    (void)state;
    const message msgs[] = {
        {0, 0, 1, 2, 1, 8, "s"}, {0, 0, 1, 2, 1, 8, "s2"}, {1, 2, 0, 0, 1, 8, "r"}, {1, 2, 0, 0, 1, 8, "r2"}};
    assert_int_equal(expect_match((uint32_t[]){0, 0, 1, 1}, 4, 2, msgs, 4, 4, ""), 0);
}

/* Sizes differ: the send and the receive are each reported once, with the
 * lowest rank that runs them and its peer. */
static void test_mismatch_named_with_a_rank(void **state)
{
    (void)state;
    const message msgs[] = {{0, 0, 1, 2, 1, 8, "s"}, {1, 2, 0, 0, 1, 16, "r"}};
    expect_match((uint32_t[]){0, 0, 1, 1}, 4, 2, msgs, 2, 0, "s@0->2 r@2->0");
}

/* Role 0 runs on ranks 0, 1 and 3, role 1 on rank 2: rank 0's send meets
 * rank 2's receive; rank 1's goes to rank 3, whose trace (role 0's) has no
 * receive; rank 3's leaves the ranks (said once). */
static void test_irregular_roles(void **state)
{
    (void)state;
    const message msgs[] = {{0, 0, 1, 2, 5, 8, "s"}, {1, 2, 0, 0, 5, 8, "r"}};
    expect_match((uint32_t[]){0, 0, 1, 0}, 4, 2, msgs, 2, 1, "s@3->5 s@1->3");
}

/* A receive whose senders' role sends nothing at that offset: found from
 * the receiving side. */
static void test_receive_without_any_send(void **state)
{
    (void)state;
    const message msgs[] = {{1, 1, 0, 0, 2, 4, "r"}};
    expect_match((uint32_t[]){0, 1}, 2, 1, msgs, 1, 0, "r@1->0");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_stages_match_for_every_rank),
    cmocka_unit_test(test_mismatch_named_with_a_rank),
    cmocka_unit_test(test_irregular_roles),
    cmocka_unit_test(test_receive_without_any_send)
)
