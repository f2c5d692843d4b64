/*
 * Unit tests of the serving form of the inference generator: the arrivals
 * file (tools/inference/inf_arrivals.c: units, comments, separators, and
 * each refusal's exact one-line message) and the continuous-batching
 * scheduler (tools/inference/inf_serving.c: the batch of every iteration
 * of a 4-request file derived by hand, the limits, the idle gaps, the
 * contexts of the decode steps, the iteration cost as the sum of the
 * rounded nodes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "gen_models.h"
#include "inference/inf_arrivals.h"
#include "inference/inf_serving.h"
#include "transformer/tf_kernels.h"

static int parse(const char *text, struct inf_arrivals *a, char *msg, size_t len)
{
    return inf_arrivals_parse("arr.txt", text, strlen(text), a, msg, len);
}

static void accepts_units_comments_and_separators(void **state)
{
    (void)state;
    struct inf_arrivals a;
    char msg[256] = "";
    const char *text = "# arrival, prompt, output\n"
                       "\n"
                       "0 16 3\n"
                       "1500, 8, 2   # us by default\n"
                       "2.5ms\t32\t1\r\n"
                       "  2.5ms,1,1\n"
                       "3s 4 5\n"
                       "3000000001ns 1 1048576\n"
                       "3.000000001s 16777216 1";
    assert_int_equal(parse(text, &a, msg, sizeof msg), 0);
    assert_int_equal(a.n, 7);
    const uint64_t arrival[] = {0, 1500000, 2500000, 2500000, 3000000000u, 3000000001u, 3000000001u};
    const uint64_t prompt[] = {16, 8, 32, 1, 4, 1, 16777216};
    const uint32_t line[] = {3, 4, 5, 6, 7, 8, 9};
    for (size_t i = 0; i < a.n; i++) {
        assert_int_equal(a.req[i].arrival_ns, arrival[i]);
        assert_int_equal(a.req[i].prompt, prompt[i]);
        assert_int_equal(a.req[i].line, line[i]);
    }
    assert_int_equal(a.req[5].output, 1048576);
    inf_arrivals_free(&a);
}

/* Every refusal: the exact line the CLI prints after "vimana-et generate: ". */
static void refusals(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"", "arr.txt: no requests (expected lines of: arrival, prompt tokens, output tokens)"},
        {"# only a comment\n\n", "arr.txt: no requests (expected lines of: arrival, prompt tokens, output tokens)"},
        {"0 16\n", "arr.txt:1: expected 3 fields (arrival, prompt tokens, output tokens), got 2"},
        {"0 1 1\n0 16 3 4\n", "arr.txt:2: expected 3 fields (arrival, prompt tokens, output tokens), got 4"},
        {"x 16 3\n", "arr.txt:1: arrival: 'x' is not a time (expected e.g. 1500, 1500us, 2.5ms)"},
        {"-5 16 3\n", "arr.txt:1: arrival: '-5' is not a time (expected e.g. 1500, 1500us, 2.5ms)"},
        {"1. 16 3\n", "arr.txt:1: arrival: '1.' is not a time (expected e.g. 1500, 1500us, 2.5ms)"},
        {".5ms 16 3\n", "arr.txt:1: arrival: '.5ms' is not a time (expected e.g. 1500, 1500us, 2.5ms)"},
        {"5min 16 3\n", "arr.txt:1: arrival: '5min' has an unknown unit (expected ns, us, ms or s; none: us)"},
        {"1.5ns 16 3\n", "arr.txt:1: arrival: '1.5ns' is finer than 1 ns"},
        {"0.0001us 16 3\n", "arr.txt:1: arrival: '0.0001us' is finer than 1 ns"},
        {"86401s 16 3\n", "arr.txt:1: arrival: '86401s' is more than 86400 s"},
        {"99999999999999999999999 1 1\n", "arr.txt:1: arrival: '99999999999999999999999' is more than 86400 s"},
        {"0 0 3\n", "arr.txt:1: prompt tokens: expected 1 to 16777216, got 0"},
        {"0 16777217 3\n", "arr.txt:1: prompt tokens: expected 1 to 16777216, got 16777217"},
        {"0 1e3 3\n", "arr.txt:1: prompt tokens: '1e3' is not a whole number"},
        {"0 16 0\n", "arr.txt:1: output tokens: expected 1 to 1048576, got 0"},
        {"0 16 1048577\n", "arr.txt:1: output tokens: expected 1 to 1048576, got 1048577"},
        {"0 16 +3\n", "arr.txt:1: output tokens: '+3' is not a whole number"},
        {"2ms 1 1\n1ms 1 1\n",
         "arr.txt:2: arrival 1000000 ns is before line 1's 2000000 ns (the file must be sorted by arrival)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct inf_arrivals a;
        char msg[256] = "";
        assert_int_equal(parse(cases[i].text, &a, msg, sizeof msg), -1);
        assert_string_equal(msg, cases[i].msg);
        assert_null(a.req);
    }
}

/* A binary or endless field is quoted cut and printable. */
static void quotes_are_cut(void **state)
{
    (void)state;
    struct inf_arrivals a;
    char msg[256] = "", text[128];
    memset(text, 'a', 60);
    memcpy(text + 60, " 1 1\n", 6);
    text[1] = '\x01';
    assert_int_equal(parse(text, &a, msg, sizeof msg), -1);
    assert_string_equal(msg, "arr.txt:1: arrival: 'a?aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is not a time "
                             "(expected e.g. 1500, 1500us, 2.5ms)");
}

static void load_names_the_file(void **state)
{
    (void)state;
    struct inf_arrivals a;
    char msg[256] = "";
    assert_int_equal(inf_arrivals_load("/nonexistent/arr.txt", &a, msg, sizeof msg), -1);
    assert_string_equal(msg, "/nonexistent/arr.txt: cannot open: No such file or directory");
}

/* ---- the scheduler -------------------------------------------------------- */

/* A small model on one H100 whose GEMMs each fit one tile, so a node's
 * duration does not depend on the tokens (tools/inference tests). */
static struct inf_config tiny(void)
{
    struct inf_config c = {
        .layers = 2, .hidden = 64, .heads = 4, .kv_heads = 4, .ffn = 256, .vocab = 128, .tp = 1, .pp = 1,
        .batch = 1, .prompt_len = 1, .output_len = 1, .prefill_chunk = 1, .elem_bytes = 2,
    };
    assert_int_equal(tf_device_lookup("h100", &c.device), 0);
    return c;
}

struct want_seq {
    uint32_t req;
    uint64_t tokens, context;
    int first, last;
};

static void check_iter(const struct inf_schedule *s, size_t k, uint64_t idle_us, uint64_t start_us, int prefill,
                       const struct want_seq *w, size_t n)
{
    const struct inf_iter *it = &s->iters[k];
    assert_int_equal(it->idle_us, idle_us);
    assert_int_equal(it->start_ns, start_us * 1000);
    assert_int_equal(it->prefill, prefill);
    assert_int_equal(it->n_seqs, n);
    for (size_t i = 0; i < n; i++) {
        const struct inf_seq *q = &s->seqs[it->seq0 + i];
        assert_int_equal(q->req, w[i].req);
        assert_int_equal(q->tokens, w[i].tokens);
        assert_int_equal(q->context, w[i].context);
        assert_int_equal(q->first, w[i].first);
        assert_int_equal(q->last, w[i].last);
    }
}

/* One iteration as check_iter wants it; its sequences end at the first
 * with no tokens (a sequence always has some). */
struct want_iter {
    uint64_t idle_us, start_us;
    int prefill;
    struct want_seq seq[3];
};

/* Iterations k0, k0 + 1, ... of s are the n of w. */
static void check_iters(const struct inf_schedule *s, size_t k0, const struct want_iter *w, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t seqs = 0;
        while (seqs < 3 && w[k].seq[seqs].tokens)
            seqs++;
        check_iter(s, k0 + k, w[k].idle_us, w[k].start_us, w[k].prefill, w[k].seq, seqs);
    }
}

/* s has exactly the n iterations of w. */
static void check_schedule(const struct inf_schedule *s, const struct want_iter *w, size_t n)
{
    assert_int_equal(s->n_iters, n);
    check_iters(s, 0, w, n);
}

/* The file of tests/e2e/gen_inference_serving.sh. Every iteration of the
 * tiny model takes 2 x (4 + 6) + 2 = 22 us (attention 4, MLP 6, LM head 2,
 * whatever the tokens). By hand:
 *   0 us  prefill r0 (arrived at 0; r1 at 10 us not yet)      -> 22
 *   22    prefill r1, r2 (both arrived; prefills first)       -> 44 (r2 done: 1 token)
 *   44    decode r0 (its token 2, context 16), r1 (token 2)  -> 66 (r1 done)
 *   66    decode r0 (token 3, context 17)                     -> 88 (r0 done)
 *   idle 1912 us to r3's arrival at 2000 us
 *   2000  prefill r3                                          -> 2022
 *   2022  decode r3 (token 2, context 16)                     -> 2044 */
static const char four[] = "0 16 3\n10us 8 2\n15 32 1\n2ms 16 2\n";

static void disagg_ok(const struct inf_config *c, const struct inf_arrivals *a, const struct inf_serving_limits *l,
                      struct inf_disagg *d)
{
    char msg[256] = "";
    assert_int_equal(inf_serving_schedule_disagg(c, a, l, d, msg, sizeof msg), 0);
}

/* The requests of four, parsed. */
static struct inf_arrivals four_arrivals(void)
{
    struct inf_arrivals a;
    char msg[256] = "";
    assert_int_equal(parse(four, &a, msg, sizeof msg), 0);
    return a;
}

/* l passes its checks against a (which fill in its defaults). */
static void limits_ok(struct inf_serving_limits *l, const struct inf_arrivals *a)
{
    char msg[256] = "";
    assert_int_equal(inf_serving_limits_check(l, a, "arr.txt", msg, sizeof msg), 0);
}

/* l fails its checks against a with this message. */
static void limits_refused(struct inf_serving_limits l, const struct inf_arrivals *a, const char *message)
{
    char msg[256] = "";
    assert_int_equal(inf_serving_limits_check(&l, a, "arr.txt", msg, sizeof msg), -1);
    assert_string_equal(msg, message);
}

static void schedule_ok(const struct inf_config *c, const struct inf_arrivals *a, const struct inf_serving_limits *l,
                        struct inf_schedule *s)
{
    char msg[256] = "";
    assert_int_equal(inf_serving_schedule(c, a, l, s, msg, sizeof msg), 0);
}

/* The schedule of four on the model c under the limits l (which must pass
 * their checks first), with what it was made of. */
struct four_run {
    struct inf_config c;
    struct inf_arrivals a;
    struct inf_serving_limits l;
    struct inf_schedule s;
};

static void schedule_four(struct four_run *r, struct inf_config c, struct inf_serving_limits l)
{
    *r = (struct four_run){.c = c, .a = four_arrivals(), .l = l};
    limits_ok(&r->l, &r->a);
    schedule_ok(&r->c, &r->a, &r->l, &r->s);
}

static void four_run_free(struct four_run *r)
{
    inf_serving_free(&r->s);
    inf_arrivals_free(&r->a);
}

static void schedule_of_four(void **state)
{
    (void)state;
    struct four_run r;
    schedule_four(&r, tiny(), (struct inf_serving_limits){0});
    assert_int_equal(r.l.max_batch_size, 256);
    assert_int_equal(r.l.max_batch_tokens, 2048);
    const struct inf_schedule *s = &r.s;
    static const struct want_iter iters[] = {
        {0, 0, 1, {{0, 16, 0, 1, 0}}},
        {0, 22, 1, {{1, 8, 0, 1, 0}, {2, 32, 0, 1, 1}}},
        {0, 44, 0, {{0, 1, 16, 0, 0}, {1, 1, 8, 0, 1}}},
        {0, 66, 0, {{0, 1, 17, 0, 1}}},
        {1912, 2000, 1, {{3, 16, 0, 1, 0}}},
        {0, 2022, 0, {{3, 1, 16, 0, 1}}},
    };
    check_schedule(s, iters, sizeof iters / sizeof iters[0]);
    assert_int_equal(s->end_ns, 2044000);
    assert_int_equal(s->idle_us, 1912);
    assert_int_equal(s->max_batch, 2);
    /* after iteration 1: r0's 16, r1's 8 and r2's 32 (it just left) */
    assert_int_equal(s->peak_kv_tokens, 56);
    for (size_t k = 0; k < s->n_iters; k++)
        assert_int_equal(s->iters[k].micros, 22);
    four_run_free(&r);
}

/* --max-batch-size 1: one sequence an iteration, and a full batch
 * decodes: r1 and r2 wait for r0 to finish, r2 then for r1 (prefills
 * come first only while there is room). --max-batch-tokens 40 would fit
 * r1 + r2 (8 + 32); at 39 they are prefilled one by one. */
static void limits_shape_the_batches(void **state)
{
    (void)state;
    struct inf_config c = tiny();
    struct inf_arrivals a = four_arrivals();
    struct inf_serving_limits l = {.max_batch_size = 1, .max_batch_tokens = 64};
    struct inf_schedule s;
    schedule_ok(&c, &a, &l, &s);
    /* r0 prefill, r0 decode x2, r1 prefill, r1 decode, r2 prefill (and
     * done), then r3 prefill, r3 decode */
    static const uint32_t order[] = {0, 0, 0, 1, 1, 2, 3, 3};
    assert_int_equal(s.n_iters, 8);
    for (size_t k = 0; k < s.n_iters; k++) {
        assert_int_equal(s.iters[k].n_seqs, 1);
        assert_int_equal(s.seqs[s.iters[k].seq0].req, order[k]);
    }
    inf_serving_free(&s);

    l = (struct inf_serving_limits){.max_batch_size = 4, .max_batch_tokens = 39};
    schedule_ok(&c, &a, &l, &s);
    static const struct want_iter tokens_39[] = {
        {0, 22, 1, {{1, 8, 0, 1, 0}}},
        {0, 44, 1, {{2, 32, 0, 1, 1}}},
    };
    check_iters(&s, 1, tokens_39, sizeof tokens_39 / sizeof tokens_39[0]);
    inf_serving_free(&s);
    inf_arrivals_free(&a);
}

/* --scheduler mixed on the same file: r0 decodes while r1 and r2 are
 * prefilled in the same iteration, so r0 finishes one iteration earlier:
 *   0 us  prefill r0                                        -> 22
 *   22    decode r0 (token 2, context 16), prefill r1, r2   -> 44 (r2 done)
 *   44    decode r0 (token 3, context 17; done), r1 (done)  -> 66
 *   idle 1934 us
 *   2000  prefill r3 -> 2022; 2022 decode r3 -> 2044 */
static void schedule_mixed(void **state)
{
    (void)state;
    struct four_run r;
    schedule_four(&r, tiny(), (struct inf_serving_limits){.mixed = 1});
    static const struct want_iter iters[] = {
        {0, 0, 1, {{0, 16, 0, 1, 0}}},
        {0, 22, 1, {{0, 1, 16, 0, 0}, {1, 8, 0, 1, 0}, {2, 32, 0, 1, 1}}},
        {0, 44, 0, {{0, 1, 17, 0, 1}, {1, 1, 8, 0, 1}}},
        {1934, 2000, 1, {{3, 16, 0, 1, 0}}},
        {0, 2022, 0, {{3, 1, 16, 0, 1}}},
    };
    check_schedule(&r.s, iters, sizeof iters / sizeof iters[0]);
    assert_int_equal(r.s.iters[1].tokens, 41);
    assert_int_equal(r.s.peak_kv_tokens, 57);
    inf_serving_free(&r.s);
    /* the tokens left after the decodes bound the prompts: 1 + 39 < 41 */
    struct inf_serving_limits l = {.max_batch_size = 4, .max_batch_tokens = 40, .mixed = 1};
    schedule_ok(&r.c, &r.a, &l, &r.s);
    static const struct want_iter tokens_40[] = {
        {0, 22, 1, {{0, 1, 16, 0, 0}, {1, 8, 0, 1, 0}}},
        {0, 44, 1, {{0, 1, 17, 0, 1}, {1, 1, 8, 0, 1}, {2, 32, 0, 1, 1}}},
    };
    check_iters(&r.s, 1, tokens_40, sizeof tokens_40 / sizeof tokens_40[0]);
    four_run_free(&r);
}

/* --scheduler chunked, 12 tokens an iteration: a prompt larger than what
 * the decodes leave is split, and its rest goes first in the next
 * iterations. An iteration of partial chunks only samples nothing: no LM
 * head, 2 x (4 + 6) = 20 us.
 *   0 us   r0 chunk 12 of 16 (partial)                          -> 20
 *   20     r0 chunk 4 (context 12; its first token), r1 whole 8  -> 42
 *          (r2 has arrived, but the 12 tokens are taken)
 *   42     decode r0 (ctx 16), r1 (ctx 8; done); r2 chunk 10     -> 64
 *   64     decode r0 (ctx 17; done); r2 chunk 11 (ctx 10)        -> 86
 *   86     r2 chunk 11 (ctx 21; its only token: done)            -> 108
 *   idle 1892 us
 *   2000   r3 chunk 12 of 16 -> 2020; 2020 r3 chunk 4 -> 2042;
 *   2042   decode r3 (ctx 16; done)                              -> 2064
 * KV peak after 64: r0's 17 + its token, r2's 21 cached = 39. */
static void schedule_chunked(void **state)
{
    (void)state;
    struct four_run r;
    /* the 32-token prompt needs no room of its own: the limits pass */
    schedule_four(&r, tiny(),
                  (struct inf_serving_limits){.max_batch_size = 4, .max_batch_tokens = 12, .mixed = 1, .chunked = 1});
    const struct inf_schedule *s = &r.s;
    static const struct want_iter iters[] = {
        {0, 0, 1, {{0, 12, 0, 0, 0}}},
        {0, 20, 1, {{0, 4, 12, 1, 0}, {1, 8, 0, 1, 0}}},
        {0, 42, 1, {{0, 1, 16, 0, 0}, {1, 1, 8, 0, 1}, {2, 10, 0, 0, 0}}},
        {0, 64, 1, {{0, 1, 17, 0, 1}, {2, 11, 10, 0, 0}}},
        {0, 86, 1, {{2, 11, 21, 1, 1}}},
        {1892, 2000, 1, {{3, 12, 0, 0, 0}}},
        {0, 2020, 1, {{3, 4, 12, 1, 0}}},
        {0, 2042, 0, {{3, 1, 16, 0, 1}}},
    };
    check_schedule(s, iters, sizeof iters / sizeof iters[0]);
    static const uint64_t micros[] = {20, 22, 22, 22, 22, 20, 22, 22};
    for (size_t k = 0; k < s->n_iters; k++)
        assert_int_equal(s->iters[k].micros, micros[k]);
    assert_int_equal(s->seqs[s->iters[2].seq0 + 2].partial, 1);
    assert_int_equal(s->seqs[s->iters[4].seq0].partial, 0);
    assert_int_equal(inf_serving_sampled(s->seqs + s->iters[3].seq0, 2), 1);
    assert_int_equal(s->end_ns, 2064000);
    assert_int_equal(s->peak_kv_tokens, 39);
    /* without chunks the same limits refuse the 16- and 32-token prompts */
    limits_refused((struct inf_serving_limits){.max_batch_size = 4, .max_batch_tokens = 12, .mixed = 1}, &r.a,
                   "arr.txt:3: a prompt of 32 tokens never fits --max-batch-tokens 12");
    /* chunked's default budget is 2048, not the longest prompt */
    struct inf_serving_limits l = {.mixed = 1, .chunked = 1};
    limits_ok(&l, &r.a);
    assert_int_equal(l.max_batch_tokens, 2048);
    four_run_free(&r);
}

/* --clock-comm-ns: TP 2 makes 2 all-reduces a layer (4 an iteration of
 * the 2-layer model), PP 2 two messages (activations, token ids); at
 * 1500 ns each the clock moves an iteration's compute + 9 us on TP 2 x
 * PP 2, and r1, arriving at 10 us, joins the second iteration. */
static void clock_with_communication(void **state)
{
    (void)state;
    struct inf_config one = tiny();
    assert_int_equal(inf_serving_iter_comms(&one), 0);
    struct inf_config c = tiny();
    c.tp = 2;
    c.pp = 2;
    c.layers = 2;
    assert_int_equal(inf_serving_iter_comms(&c), 6);
    struct four_run r;
    schedule_four(&r, c, (struct inf_serving_limits){.comm_ns = 1500});
    uint64_t step = r.s.iters[0].micros * 1000 + 9000;
    assert_int_equal(r.s.iters[1].start_ns, step);
    assert_int_equal(r.s.iters[2].start_ns, 2 * step);
    assert_int_equal(r.s.seqs[r.s.iters[1].seq0].req, 1);
    four_run_free(&r);
}

/* --disaggregate on the same file. The prefill group prefills only, as
 * the default policy without decodes:
 *   0 us  r0 -> 22;  22  r1, r2 -> 44;  idle 1956 us;  2000  r3 -> 2022
 * (the KV peak: iteration 1's 8 + 32 prompts). The decode group takes
 * r0 at 22 (its KV cache's iteration ended), r1 at 44 and r3 at 2022;
 * r2 (1 token) never comes:
 *   idle 22   22  decode r0 (token 2, context 16)              -> 44
 *             44  decode r0 (token 3, 17: last), r1 (token 2)  -> 66
 *   idle 1956 to 2022: decode r3 (token 2, context 16)         -> 2044
 * With --clock-comm-ns 500 a KV cache comes 500 ns after its iteration:
 * r0 at 22.5 us, so the decode group idles 23 us (whole us) and its
 * first iteration starts at 23. */
static void schedule_disaggregated(void **state)
{
    (void)state;
    struct inf_config c = tiny();
    struct inf_arrivals a = four_arrivals();
    struct inf_serving_limits l = {0};
    limits_ok(&l, &a);
    struct inf_disagg d;
    disagg_ok(&c, &a, &l, &d);
    static const struct want_iter prefill_iters[] = {
        {0, 0, 1, {{0, 16, 0, 1, 0}}},
        {0, 22, 1, {{1, 8, 0, 1, 0}, {2, 32, 0, 1, 1}}},
        {1956, 2000, 1, {{3, 16, 0, 1, 0}}},
    };
    assert_int_equal(d.prefill.end_ns, 2022000);
    assert_int_equal(d.prefill.peak_kv_tokens, 40);
    check_schedule(&d.prefill, prefill_iters, sizeof prefill_iters / sizeof prefill_iters[0]);
    const uint32_t kv_iter[] = {0, 1, 1, 2};
    const uint64_t ready_us[] = {22, 44, 44, 2022};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(d.kv_iter[i], kv_iter[i]);
        assert_int_equal(d.ready_ns[i], ready_us[i] * 1000);
    }
    static const struct want_iter decode_iters[] = {
        {22, 22, 0, {{0, 1, 16, 0, 0}}},
        {0, 44, 0, {{0, 1, 17, 0, 1}, {1, 1, 8, 0, 1}}},
        {1956, 2022, 0, {{3, 1, 16, 0, 1}}},
    };
    check_schedule(&d.decode, decode_iters, sizeof decode_iters / sizeof decode_iters[0]);
    assert_int_equal(d.decode.end_ns, 2044000);
    assert_int_equal(d.decode.idle_us, 1978);
    /* after decode 1: r0's 16 + 2 and r1's 8 + 1, both just done */
    assert_int_equal(d.decode.peak_kv_tokens, 27);
    inf_serving_disagg_free(&d);

    l.comm_ns = 500;
    disagg_ok(&c, &a, &l, &d);
    assert_int_equal(d.ready_ns[0], 22500);
    check_iter(&d.decode, 0, 23, 23, 0, (struct want_seq[]){{0, 1, 16, 0, 0}}, 1);
    inf_serving_disagg_free(&d);
    inf_arrivals_free(&a);
}

static void limit_checks(void **state)
{
    (void)state;
    struct inf_arrivals a;
    char msg[256] = "";
    assert_int_equal(parse("0 16 3\n1 3000 2\n", &a, msg, sizeof msg), 0);
    struct inf_serving_limits l = {0};
    limits_ok(&l, &a);
    assert_int_equal(l.max_batch_tokens, 3000);  /* the longest prompt above 2048 */
    limits_refused((struct inf_serving_limits){.max_batch_size = 8, .max_batch_tokens = 2999}, &a,
                   "arr.txt:2: a prompt of 3000 tokens never fits --max-batch-tokens 2999");
    limits_refused((struct inf_serving_limits){.max_batch_size = 4000, .max_batch_tokens = 3999}, &a,
                   "--max-batch-tokens: 3999 is less than --max-batch-size 4000");
    inf_arrivals_free(&a);
}

/* The iteration's cost is its rounded nodes: L x (attention + MLP) + head;
 * a decode step's attention reads each sequence's own cache. */
static void iteration_cost(void **state)
{
    (void)state;
    /* Llama-2-7B on TP 2, one sequence a batch as the fixed-batch model's */
    struct inf_config c = llama7b();
    c.batch = 1;
    const struct inf_seq two[] = {{.req = 0, .tokens = 1, .context = 100}, {.req = 1, .tokens = 1, .context = 4000}};
    uint64_t want = c.layers * (tf_kernels_micros(inf_serving_attn_seconds(&c, two, 2)) +
                                tf_kernels_micros(inf_serving_mlp_seconds(&c, two, 2))) +
                    tf_kernels_micros(inf_serving_head_seconds(&c, 2));
    assert_int_equal(inf_serving_iter_micros(&c, two, 2), want);
    /* one sequence: the fixed-batch model's node exactly */
    struct inf_step st = {.tokens = 1, .context = 4000, .decode = 1};
    assert_int_equal(tf_kernels_micros(inf_serving_attn_seconds(&c, &two[1], 1)),
                     tf_kernels_micros(inf_attn_seconds(&c, st)));
    /* the longer cache costs more to read than the shorter */
    assert_true(inf_serving_attn_seconds(&c, &two[1], 1) > inf_serving_attn_seconds(&c, &two[0], 1));
    assert_true(inf_serving_attn_flops(&c, two, 2) == inf_attn_flops(&c, (struct inf_step){.tokens = 1, .context = 100}) +
                                                         inf_attn_flops(&c, st));
}

UNIT_TEST_MAIN(
    cmocka_unit_test(accepts_units_comments_and_separators),
    cmocka_unit_test(refusals),
    cmocka_unit_test(quotes_are_cut),
    cmocka_unit_test(load_names_the_file),
    cmocka_unit_test(schedule_of_four),
    cmocka_unit_test(limits_shape_the_batches),
    cmocka_unit_test(schedule_mixed),
    cmocka_unit_test(schedule_chunked),
    cmocka_unit_test(clock_with_communication),
    cmocka_unit_test(schedule_disaggregated),
    cmocka_unit_test(limit_checks),
    cmocka_unit_test(iteration_cost)
)
