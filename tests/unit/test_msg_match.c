/* Send/receive matching (shared/spec/simulator.md section 9.1) through a
 * fake backend whose deliveries the test triggers by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <string.h>

#include "system/msg_match.h"
#include "vimana/event_queue.h"

#define MAX_SENT 20000

typedef struct fake_net {
    vimana_evq *q;
    uint64_t tokens[MAX_SENT];
    uint32_t sizes[MAX_SENT];
    uint32_t tags[MAX_SENT];
    int n_sent;
} fake_net;

static int f_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    (void)src, (void)dst, (void)tag;
    fake_net *f = ctx;
    assert_true(f->n_sent < MAX_SENT);
    f->sizes[f->n_sent] = (uint32_t)bytes;
    f->tags[f->n_sent] = tag;
    f->tokens[f->n_sent++] = token;
    return VIMANA_OK;
}

static int f_schedule(void *ctx, vimana_tick d, vimana_event_fn fn, void *a, uint64_t x)
{
    return vimana_evq_schedule(((fake_net *)ctx)->q, d, fn, a, x);
}

static vimana_tick f_now(void *ctx)
{
    return vimana_evq_now(((fake_net *)ctx)->q);
}

static const vimana_backend fake = {
    .name = "fake", .sim_send = f_send, .schedule = f_schedule, .now = f_now,
};

typedef struct fixture {
    sim s;
    fake_net net;
    char log[256];
} fixture;

static void note(sim *s, void *obj, uint64_t data)
{
    (void)s;
    fixture *f = obj;
    char item[16];
    snprintf(item, sizeof item, "%s%c%llu", f->log[0] ? " " : "", data >= 100 ? 'R' : 'S',
             (unsigned long long)(data % 100));
    strcat(f->log, item);
}

static int setup(void **state)
{
    static fixture f;
    memset(&f, 0, sizeof f);
    f.net.q = vimana_evq_new();
    f.s.be = &fake;
    f.s.be_ctx = &f.net;
    f.s.log = stderr;
    assert_int_equal(msg_table_init(&f.s), 0);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    msg_table_fini(&f->s);
    vimana_evq_free(f->net.q);
    return 0;
}

#define SEND_CB(f, n) ((msg_cb){note, (f), (n)})
#define RECV_CB(f, n) ((msg_cb){note, (f), 100 + (n)})

/* The message-counter hook (--progress): runs when the count of messages
 * sent reaches the threshold, and the hook sets the next one. */
typedef struct counter_hook {
    sim *s;
    uint64_t seen[4];
    uint32_t n;
} counter_hook;

static void at_count(void *ctx)
{
    counter_hook *c = ctx;
    assert_true(c->n < 4);
    c->seen[c->n++] = c->s->messages;
    c->s->hooks.messages_at = c->s->messages + 3;
}

static void test_message_counter_hook(void **state)
{
    fixture *f = *state;
    counter_hook c = {.s = &f->s};
    f->s.hooks.messages_reached = at_count;
    f->s.hooks.messages_ctx = &c;
    f->s.hooks.messages_at = 2;
    for (uint32_t i = 0; i < 7; i++)
        msg_send(&f->s, 0, 1, 64, i, SEND_CB(f, 1), NULL);
    assert_int_equal(f->s.messages, 7);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.seen[0], 2);
    assert_int_equal(c.seen[1], 5);
    /* a receive is not a message sent */
    msg_recv(&f->s, 0, 1, 64, 99, RECV_CB(f, 1), NULL);
    msg_recv(&f->s, 0, 1, 64, 98, RECV_CB(f, 1), NULL);
    assert_int_equal(c.n, 2);
    msg_send(&f->s, 0, 1, 64, 9, SEND_CB(f, 1), NULL);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.seen[2], 8);
}

static void test_receive_posted_first(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 0, 1, 64, 7, RECV_CB(f, 1), NULL);
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    assert_int_equal(f->net.n_sent, 1);
    msg_delivered(&f->s, f->net.tokens[0]);
    /* the send's handler first, then the receive's, in the same call */
    assert_string_equal(f->log, "S1 R1");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
}

static void test_receive_posted_after_arrival(void **state)
{
    fixture *f = *state;
    msg_send(&f->s, 2, 3, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 1);
    msg_recv(&f->s, 2, 3, 64, 7, RECV_CB(f, 1), NULL);
    /* not synchronously: through a zero-delay event in the same tick */
    assert_string_equal(f->log, "S1");
    vimana_evq_run(f->net.q);
    assert_string_equal(f->log, "S1 R1");
    assert_int_equal(vimana_evq_now(f->net.q), 0);
}

static void test_size_is_part_of_the_key(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 0, 1, 128, 7, RECV_CB(f, 1), NULL);
    msg_recv(&f->s, 0, 1, 64, 7, RECV_CB(f, 2), NULL);
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1 R2");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 1); /* the 128-byte receive still waits */
}

static void test_kth_send_matches_kth_receive(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 4, 5, 64, 9, RECV_CB(f, 1), NULL);
    msg_recv(&f->s, 4, 5, 64, 9, RECV_CB(f, 2), NULL);
    msg_send(&f->s, 4, 5, 64, 9, SEND_CB(f, 1), NULL);
    msg_send(&f->s, 4, 5, 64, 9, SEND_CB(f, 2), NULL);
    /* the second message arrives first: it still belongs to the second receive */
    msg_delivered(&f->s, f->net.tokens[1]);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S2 R2 S1 R1");
}

static void test_tags_and_peers_separate_keys(void **state)
{
    fixture *f = *state;
    uint32_t hint = MSG_NO_HINT;
    msg_recv(&f->s, 0, 1, 64, 1, RECV_CB(f, 1), &hint);
    msg_recv(&f->s, 2, 1, 64, 2, RECV_CB(f, 2), NULL);
    msg_send(&f->s, 2, 1, 64, 2, SEND_CB(f, 2), NULL);
    msg_send(&f->s, 0, 1, 64, 1, SEND_CB(f, 1), &hint);
    msg_delivered(&f->s, f->net.tokens[1]);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1 R1 S2 R2");
}

/* A hint holds its key's channel while the queue empties and fills; posts
 * without a hint share that queue; moving the hint to another key or
 * releasing it keeps the posts still waiting; a release twice is nothing. */
static void test_held_channel_keeps_the_order(void **state)
{
    fixture *f = *state;
    uint32_t h1 = MSG_NO_HINT, h2 = MSG_NO_HINT;
    msg_send(&f->s, 0, 1, 64, 5, SEND_CB(f, 1), &h1);
    assert_int_not_equal(h1, MSG_NO_HINT);
    msg_recv(&f->s, 0, 1, 64, 5, RECV_CB(f, 1), NULL);     /* pairs with S1: the held queue is empty */
    msg_recv(&f->s, 0, 1, 64, 5, RECV_CB(f, 2), NULL);     /* waits in it */
    msg_send(&f->s, 0, 1, 64, 5, SEND_CB(f, 2), &h1);      /* pairs with R2 */
    msg_send(&f->s, 0, 1, 64, 6, SEND_CB(f, 3), &h1);      /* the hint moves to tag 6; S3 waits */
    msg_recv(&f->s, 0, 1, 64, 5, RECV_CB(f, 4), &h2);      /* tag 5 anew */
    msg_send(&f->s, 0, 1, 64, 5, SEND_CB(f, 4), NULL);
    msg_hint_release(&f->s, &h1);
    assert_int_equal(h1, MSG_NO_HINT);
    msg_hint_release(&f->s, &h1);
    msg_hint_release(&f->s, &h2);
    msg_recv(&f->s, 0, 1, 64, 6, RECV_CB(f, 3), NULL);     /* S3 waited through the release */
    assert_int_equal(f->net.n_sent, 4);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 4);
    msg_delivered(&f->s, f->net.tokens[0]);
    msg_delivered(&f->s, f->net.tokens[1]);
    msg_delivered(&f->s, f->net.tokens[3]);
    msg_delivered(&f->s, f->net.tokens[2]);
    assert_string_equal(f->log, "S1 R1 S2 R2 S4 R4 S3 R3");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
    assert_false(f->s.failed);
}

/* A token delivered again after its entry was freed and reused by another
 * message must not complete that message early. */
/* The backend's cache hints (ABI 1.3 will_deliver) change nothing, on
 * any token: live ones, their completions as objects, stale, unknown and
 * made-up ones (no read outside the table: the sanitizer build checks). */
static void test_look_ahead_changes_nothing(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 0, 1, 64, 7, RECV_CB(f, 1), NULL);
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_send(&f->s, 0, 1, 64, 8, SEND_CB(f, 2), NULL);
    uint64_t tokens[] = {f->net.tokens[0], f->net.tokens[1], f->net.tokens[1] + 5, UINT64_MAX, 0};
    for (int stage = 0; stage <= 1; stage++)
        for (size_t i = 0; i < sizeof tokens / sizeof *tokens; i++)
            msg_look_ahead(&f->s, tokens[i], stage);
    assert_string_equal(f->log, "");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 2);
    msg_delivered(&f->s, f->net.tokens[0]);
    msg_delivered(&f->s, f->net.tokens[1]);
    msg_recv(&f->s, 0, 1, 64, 8, RECV_CB(f, 2), NULL);
    vimana_evq_run(f->net.q);
    assert_string_equal(f->log, "S1 R1 S2 R2");
    assert_false(f->s.failed);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
}

static void test_stale_token_refused(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 0, 1, 64, 7, RECV_CB(f, 1), NULL);
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0]);
    msg_send(&f->s, 0, 1, 32, 8, SEND_CB(f, 2), NULL);   /* reuses the freed entry */
    assert_true(f->net.tokens[1] != f->net.tokens[0]);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1 R1");
    assert_true(f->s.failed);
    assert_string_equal(f->s.error, "network backend fake broke the network API contract: delivered a message twice "
                                    "(token 0)");
}

static void test_unknown_token_refused(void **state)
{
    fixture *f = *state;
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0] + 5);
    assert_string_equal(f->log, "");
    assert_string_equal(f->s.error, "network backend fake broke the network API contract: delivered an unknown "
                                    "message (token 5)");
}

/* An arrived send waiting for its receive is still live: delivering it
 * again is the same violation. */
static void test_second_delivery_before_receive_refused(void **state)
{
    fixture *f = *state;
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0]);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1");
    assert_string_equal(f->s.error, "network backend fake broke the network API contract: delivered a message twice "
                                    "(token 0)");
}

/* ---- many messages: queues, table growth and shrinking ------------------ */

/* Which send each receive got: a receive callback records the pairing by
 * the order of completions (data = 1000000 + receive number). */
typedef struct pairing {
    uint32_t sends_done, recvs_done;
    uint32_t recv_order[MAX_SENT];   /* receive numbers in completion order */
    uint32_t send_order[MAX_SENT];   /* send numbers in arrival order */
} pairing;

static pairing pairs;

static void on_send(sim *s, void *obj, uint64_t data)
{
    (void)s, (void)obj;
    pairs.send_order[pairs.sends_done++] = (uint32_t)data;
}

static void on_recv(sim *s, void *obj, uint64_t data)
{
    (void)s, (void)obj;
    pairs.recv_order[pairs.recvs_done++] = (uint32_t)data;
}

/* 300 sends wait on one key; receives come in two halves around arrivals
 * in reverse order: the k-th receive completes with the k-th send. */
static void test_long_queue_out_of_order_arrivals(void **state)
{
    fixture *f = *state;
    memset(&pairs, 0, sizeof pairs);
    uint32_t hint = MSG_NO_HINT;
    for (uint32_t k = 0; k < 300; k++)
        msg_send(&f->s, 3, 4, 512, 11, (msg_cb){on_send, NULL, k}, &hint);
    for (uint32_t k = 0; k < 150; k++)
        msg_recv(&f->s, 3, 4, 512, 11, (msg_cb){on_recv, NULL, k}, k % 2 ? &hint : NULL);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 300);
    for (int k = 299; k >= 0; k--)
        msg_delivered(&f->s, f->net.tokens[k]);
    /* sends 149..0 had their receive: each completes with it at arrival */
    assert_int_equal(pairs.sends_done, 300);
    assert_int_equal(pairs.recvs_done, 150);
    for (uint32_t i = 0; i < 150; i++)
        assert_int_equal(pairs.recv_order[i], 149 - i);
    for (uint32_t k = 150; k < 300; k++)
        msg_recv(&f->s, 3, 4, 512, 11, (msg_cb){on_recv, NULL, k}, &hint);
    vimana_evq_run(f->net.q);
    /* the others had arrived: their receives complete in posting order */
    assert_int_equal(pairs.recvs_done, 300);
    for (uint32_t i = 150; i < 300; i++)
        assert_int_equal(pairs.recv_order[i], i);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
    assert_false(f->s.failed);
}

typedef struct visit_count {
    uint32_t receives, arrived_sends, waiting_sends;
    uint64_t tag_sum;
} visit_count;

static void count_visit(void *ctx, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, bool is_receive,
                        bool arrived)
{
    visit_count *c = ctx;
    assert_int_equal(dst, src + 1);
    assert_int_equal(size, 100 + tag % 7);
    c->tag_sum += tag;
    if (is_receive)
        c->receives++;
    else if (arrived)
        c->arrived_sends++;
    else
        c->waiting_sends++;
}

/* 12000 distinct keys grow the table well past its first size and back;
 * every receive still meets the send with its own key. */
static void test_many_distinct_keys(void **state)
{
    fixture *f = *state;
    memset(&pairs, 0, sizeof pairs);
    const uint32_t n = 12000;
    for (uint32_t i = 0; i < n; i++)
        msg_recv(&f->s, i % 97, i % 97 + 1, 100 + i % 7, i, (msg_cb){on_recv, NULL, i}, NULL);
    visit_count c = {0};
    assert_int_equal(msg_outstanding(&f->s, count_visit, &c), n);
    assert_int_equal(c.receives, n);
    assert_int_equal(c.tag_sum, (uint64_t)n * (n - 1) / 2);
    /* sends in another order: odd keys first, then even ones */
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t i = 1 - pass; i < n; i += 2)
            msg_send(&f->s, i % 97, i % 97 + 1, 100 + i % 7, i, (msg_cb){on_send, NULL, i}, NULL);
    assert_int_equal(f->net.n_sent, n);
    /* every key is paired now: outstanding, but nothing waits for a partner */
    c = (visit_count){0};
    assert_int_equal(msg_outstanding(&f->s, count_visit, &c), n);
    assert_int_equal(c.receives + c.arrived_sends + c.waiting_sends, 0);
    for (int k = (int)n - 1; k >= 0; k--)
        msg_delivered(&f->s, f->net.tokens[k]);
    assert_int_equal(pairs.recvs_done, n);
    for (uint32_t i = 0; i < n; i++) /* each receive completes with its own send */
        assert_int_equal(pairs.recv_order[i], pairs.send_order[i]);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
    /* after the table shrank, a reused key pairs afresh, through a hint
     * that moves from key to key */
    uint32_t hint = MSG_NO_HINT;
    msg_send(&f->s, 1, 2, 101, 1, (msg_cb){on_send, NULL, 1}, &hint);
    msg_send(&f->s, 2, 3, 102, 2, (msg_cb){on_send, NULL, 2}, &hint);
    msg_recv(&f->s, 1, 2, 101, 1, (msg_cb){on_recv, NULL, 1}, &hint);
    msg_hint_release(&f->s, &hint);
    msg_delivered(&f->s, f->net.tokens[n]);
    assert_int_equal(pairs.recv_order[n], 1);
    c = (visit_count){0};
    assert_int_equal(msg_outstanding(&f->s, count_visit, &c), 1);
    assert_int_equal(c.waiting_sends, 1);
    assert_int_equal(c.tag_sum, 2);
    assert_false(f->s.failed);
}

/* A send that arrived and was never received is reported with its key;
 * one already paired and in flight counts but waits for no partner. */
static void test_outstanding_visits_waiting_posts(void **state)
{
    fixture *f = *state;
    msg_send(&f->s, 5, 6, 104, 4, SEND_CB(f, 1), NULL);   /* arrives, never received */
    msg_recv(&f->s, 7, 8, 101, 8, RECV_CB(f, 2), NULL);   /* paired, in flight */
    msg_send(&f->s, 7, 8, 101, 8, SEND_CB(f, 2), NULL);
    msg_recv(&f->s, 9, 10, 103, 3, RECV_CB(f, 3), NULL);  /* waits for its send */
    msg_delivered(&f->s, f->net.tokens[0]);
    visit_count c = {0};
    assert_int_equal(msg_outstanding(&f->s, count_visit, &c), 3);
    assert_int_equal(c.arrived_sends, 1);
    assert_int_equal(c.receives, 1);
    assert_int_equal(c.waiting_sends, 0);
    assert_int_equal(c.tag_sum, 7);
}

/* The prefetch hints read the table and change nothing: keys present or
 * absent, either stage, the pairing goes on as without them. */
static void test_prefetch_changes_nothing(void **state)
{
    fixture *f = *state;
    msg_recv(&f->s, 0, 1, 64, 7, RECV_CB(f, 1), NULL);
    for (int stage = 0; stage < 2; stage++) {
        msg_prefetch(&f->s, 0, 1, 64, 7, stage);   /* waiting */
        msg_prefetch(&f->s, 1, 0, 64, 7, stage);   /* absent */
    }
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 1);
    msg_send(&f->s, 0, 1, 64, 7, SEND_CB(f, 1), NULL);
    msg_delivered(&f->s, f->net.tokens[0]);
    assert_string_equal(f->log, "S1 R1");
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
}

/* An entry keeps a completion's function as an index into the table's
 * list of functions: several functions and none, on either side, in one
 * table, each message still runs its own. */
static void test_several_callback_functions(void **state)
{
    fixture *f = *state;
    memset(&pairs, 0, sizeof pairs);
    msg_recv(&f->s, 0, 1, 64, 1, RECV_CB(f, 1), NULL);               /* note */
    msg_recv(&f->s, 0, 1, 64, 2, (msg_cb){on_recv, NULL, 2}, NULL);
    msg_recv(&f->s, 0, 1, 64, 3, (msg_cb){NULL, NULL, 0}, NULL);
    msg_send(&f->s, 0, 1, 64, 3, (msg_cb){on_send, NULL, 3}, NULL);
    msg_send(&f->s, 0, 1, 64, 2, SEND_CB(f, 2), NULL);
    msg_send(&f->s, 0, 1, 64, 1, (msg_cb){NULL, NULL, 0}, NULL);
    for (int k = 0; k < 3; k++)
        msg_delivered(&f->s, f->net.tokens[k]);
    assert_string_equal(f->log, "S2 R1");
    assert_int_equal(pairs.sends_done, 1);
    assert_int_equal(pairs.send_order[0], 3);
    assert_int_equal(pairs.recvs_done, 1);
    assert_int_equal(pairs.recv_order[0], 2);
    assert_int_equal(msg_outstanding(&f->s, NULL, NULL), 0);
}

UNIT_TEST_MAIN(
    cmocka_unit_test_setup_teardown(test_receive_posted_first, setup, teardown),
    cmocka_unit_test_setup_teardown(test_message_counter_hook, setup, teardown),
    cmocka_unit_test_setup_teardown(test_receive_posted_after_arrival, setup, teardown),
    cmocka_unit_test_setup_teardown(test_size_is_part_of_the_key, setup, teardown),
    cmocka_unit_test_setup_teardown(test_kth_send_matches_kth_receive, setup, teardown),
    cmocka_unit_test_setup_teardown(test_tags_and_peers_separate_keys, setup, teardown),
    cmocka_unit_test_setup_teardown(test_held_channel_keeps_the_order, setup, teardown),
    cmocka_unit_test_setup_teardown(test_look_ahead_changes_nothing, setup, teardown),
    cmocka_unit_test_setup_teardown(test_stale_token_refused, setup, teardown),
    cmocka_unit_test_setup_teardown(test_unknown_token_refused, setup, teardown),
    cmocka_unit_test_setup_teardown(test_second_delivery_before_receive_refused, setup, teardown),
    cmocka_unit_test_setup_teardown(test_long_queue_out_of_order_arrivals, setup, teardown),
    cmocka_unit_test_setup_teardown(test_many_distinct_keys, setup, teardown),
    cmocka_unit_test_setup_teardown(test_outstanding_visits_waiting_posts, setup, teardown),
    cmocka_unit_test_setup_teardown(test_prefetch_changes_nothing, setup, teardown),
    cmocka_unit_test_setup_teardown(test_several_callback_functions, setup, teardown)
)
