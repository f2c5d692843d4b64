/*
 * Unit tests of `vimana-et convert text`: the line tokenizer, integer
 * fields, the parser's messages, every mode's graph (rendered compactly,
 * dependencies by id) and the writer's per-NPU id offsets.
 *
 * Graph notation: one entry per node in id order, "<layer>.<phase>" with
 * phase F/I/W for forward, input-gradient, weight-gradient compute and f/i/w
 * for the collective of that phase, then "<" and the dependency ids.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "convert_text/text_fields.h"
#include "convert_text/text_graphs.h"
#include "convert_text/text_groups.h"
#include "convert_text/text_plan.h"
#include "convert_text/text_workload.h"
#include "convert_text/text_write.h"
#include "vimana/et.h"

/* ---- tokenizer and integers ---------------------------------------------- */

static void assert_field(const struct text_field *f, const char *want)
{
    assert_int_equal(f->len, strlen(want));
    assert_memory_equal(f->start, want, f->len);
}

static void test_split_mixed_separators(void **state)
{
    (void)state;
    const char *line = "  conv1\t-1\t\t13003 NONE  0\t\r";
    struct text_field f[8];
    assert_int_equal(text_split_fields(line, strlen(line), f, 8), 5);
    assert_field(&f[0], "conv1");
    assert_field(&f[1], "-1");
    assert_field(&f[2], "13003");
    assert_field(&f[3], "NONE");
    assert_field(&f[4], "0");
}

static void test_split_blank_and_limit(void **state)
{
    (void)state;
    struct text_field f[2];
    assert_int_equal(text_split_fields("", 0, f, 2), 0);
    assert_int_equal(text_split_fields(" \t\v\f\r\x1f", 6, f, 2), 0);
    /* more fields than room: all are counted, the first two stored */
    assert_int_equal(text_split_fields("a b c d", 7, f, 2), 4);
    assert_field(&f[0], "a");
    assert_field(&f[1], "b");
    /* the length bounds the line, not a NUL */
    assert_int_equal(text_split_fields("ab cd", 4, f, 2), 2);
    assert_field(&f[1], "c");
}

static enum text_int_status u64(const char *s, uint64_t max, uint64_t *v)
{
    return text_parse_u64(s, strlen(s), max, v);
}

static void test_integers(void **state)
{
    (void)state;
    uint64_t v = 0;
    int64_t i = 0;
    assert_int_equal(u64("13003", UINT64_MAX, &v), TEXT_INT_OK);
    assert_int_equal(v, 13003);
    assert_int_equal(u64("+7", UINT64_MAX, &v), TEXT_INT_OK);
    assert_int_equal(v, 7);
    assert_int_equal(u64("-0", UINT64_MAX, &v), TEXT_INT_OK);
    assert_int_equal(v, 0);
    assert_int_equal(u64("-5", UINT64_MAX, &v), TEXT_INT_NEGATIVE);
    assert_int_equal(u64("5x", UINT64_MAX, &v), TEXT_INT_MALFORMED);
    assert_int_equal(u64("", UINT64_MAX, &v), TEXT_INT_MALFORMED);
    assert_int_equal(u64("+", UINT64_MAX, &v), TEXT_INT_MALFORMED);
    assert_int_equal(u64("1_000", UINT64_MAX, &v), TEXT_INT_MALFORMED);
    assert_int_equal(u64("18446744073709551615", UINT64_MAX, &v), TEXT_INT_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(u64("18446744073709551616", UINT64_MAX, &v), TEXT_INT_OUT_OF_RANGE);
    assert_int_equal(u64("9223372036854775808", INT64_MAX, &v), TEXT_INT_OUT_OF_RANGE);
    assert_int_equal(u64("99999999999999999999x", UINT64_MAX, &v), TEXT_INT_MALFORMED);
    assert_int_equal(text_parse_i64("-9223372036854775808", 20, &i), TEXT_INT_OK);
    assert_true(i == INT64_MIN);
    assert_int_equal(text_parse_i64("-4", 2, &i), TEXT_INT_OK);
    assert_int_equal(i, -4);
    assert_int_equal(text_parse_i64("9223372036854775808", 19, &i), TEXT_INT_OUT_OF_RANGE);
}

/* ---- parsing ------------------------------------------------------------- */

#define LAYER(name, fwd, ig, wg) name " -1 10 " fwd " 100 20 " ig " 200 30 " wg " 300 1\n"

static void parse_ok(const char *text, struct text_workload *w)
{
    struct text_error err = {{0}};
    int rc = text_workload_parse("t.txt", text, strlen(text), w, NULL, &err);
    if (rc != 0)
        fail_msg("unexpected error: %s", err.msg);
}

static void expect_parse_error_n(const char *text, size_t len, const char *want)
{
    struct text_workload w;
    struct text_error err = {{0}};
    assert_int_equal(text_workload_parse("t.txt", text, len, &w, NULL, &err), -1);
    assert_string_equal(err.msg, want);
}

static void expect_parse_error(const char *text, const char *want)
{
    expect_parse_error_n(text, strlen(text), want);
}

static void test_parse_layers_and_newlines(void **state)
{
    (void)state;
    struct text_workload w;
    parse_ok("MODEL\t\t\r\n2\t\r\n" "a\t-1\t10\tALLGATHER\t100\t20\tREDUCESCATTER\t200\t30\tNONE\t0\t1\r"
             "b -1 11 ALLTOALL 101 21 ALLREDUCE 201 31 ALLREDUCE 301 1 extra\n\n \n",
             &w);
    assert_int_equal(w.mode, TEXT_MODE_MODEL);
    assert_int_equal(w.header_count, 2);
    assert_int_equal(w.n_layers, 2);
    /* CRLF and the lone CR became LF, as Python's universal newlines do */
    assert_string_equal(w.text, "MODEL\t\t\n2\t\n" "a\t-1\t10\tALLGATHER\t100\t20\tREDUCESCATTER\t200\t30\tNONE\t0\t1\n"
                                "b -1 11 ALLTOALL 101 21 ALLREDUCE 201 31 ALLREDUCE 301 1 extra\n\n \n");
    const struct text_layer *b = &w.layers[1];
    assert_string_equal(w.layers[0].name, "a");
    assert_int_equal(w.layers[0].line, 3);
    assert_string_equal(b->name, "b");
    assert_int_equal(b->line, 4);
    assert_int_equal(b->compute[TEXT_FWD], 11);
    assert_int_equal(b->compute[TEXT_IG], 21);
    assert_int_equal(b->compute[TEXT_WG], 31);
    assert_string_equal(b->comm[TEXT_FWD].token, "ALLTOALL");
    assert_int_equal(b->comm[TEXT_FWD].kind, TEXT_COMM_ALLTOALL);
    assert_int_equal(b->comm[TEXT_IG].size, 201);
    assert_int_equal(w.layers[0].comm[TEXT_WG].kind, TEXT_COMM_NONE);
    text_workload_free(&w);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_parse_error("", "t.txt:1: expected a parallelism mode (MICRO, DATA, DATA_REORDER, MODEL, "
                           "HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_CUSTOMIZED, HYBRID_DLRM, "
                           "HYBRID_DLRM_ENHANCED, DISTRIBUTED_INFERENCE, HYBRID_TRANSFORMER or "
                           "HYBRID_TRANSFORMER_FWD_IN_BCKWD) in column 1, got an empty file");
    expect_parse_error("DATA\n", "t.txt:2: expected the number of layers (an integer) in column 1, got end of file");
    expect_parse_error("DATA\nsix\n", "t.txt:2: expected the number of layers (an integer) in column 1, got 'six'");
    expect_parse_error("DATA\n1\na -1 10 NONE 0 20 NONE 0 30\n",
                       "t.txt:3: expected the weight-gradient comm type (ALLREDUCE, ALLTOALL, ALLGATHER, "
                       "REDUCESCATTER or NONE) in column 10, got end of line");
    expect_parse_error("DATA\n1\na -1 1.5 NONE 0 20 NONE 0 30 ALLREDUCE 5 1\n",
                       "t.txt:3: expected the forward compute time (a non-negative integer) in column 3, got '1.5'");
    expect_parse_error("DATA\n1\na -1 1 NONE -3 20 NONE 0 30 ALLREDUCE 5 1\n",
                       "t.txt:3: expected the forward comm size (a non-negative integer) in column 5, got '-3'");
    expect_parse_error("DATA\n1\na -1 1 NONE 0 20 NONE 0 30 ALLREDUCE 9223372036854775808 1\n",
                       "t.txt:3: expected the weight-gradient comm size (a non-negative integer) in column 11, "
                       "got '9223372036854775808' (too large)");
    expect_parse_error("DATA\n1\na -1 1 NONE 0 20 allreduce 0 30 ALLREDUCE 5 1\n",
                       "t.txt:3: expected the input-gradient comm type (ALLREDUCE, ALLTOALL, ALLGATHER, "
                       "REDUCESCATTER or NONE) in column 7, got 'allreduce'");
    expect_parse_error("DATA\n2\n" LAYER("a", "NONE", "NONE", "ALLREDUCE") "\t\n"
                       LAYER("b", "NONE", "NONE", "ALLREDUCE"),
                       "t.txt:4: expected a layer line, got a blank line (blank lines are allowed only at the end "
                       "of the file)");
    expect_parse_error("DATA\n1\na\x01\xc3 -1\n", "t.txt:3: expected UTF-8 text, got the byte 0xc3");
    expect_parse_error_n("DATA\n1\na\0b\n", sizeof "DATA\n1\na\0b\n" - 1, "t.txt:3: expected text, got a NUL byte");
    expect_parse_error("HYBRID_CUSTOMIZED\n1\n" LAYER("a", "NONE", "NONE", "ALLREDUCE"),
                       "t.txt:3: expected the per-layer policy (DATA, MODEL, HYBRID_DATA_MODEL or "
                       "HYBRID_MODEL_DATA) in column 13, got end of line");
#define FOUR LAYER("a", "NONE", "NONE", "NONE") LAYER("b", "NONE", "NONE", "NONE") \
    LAYER("c", "NONE", "NONE", "NONE") LAYER("d", "NONE", "NONE", "NONE")
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4\n4\n" FOUR,
                       "t.txt:1: expected 'checkpoints:' followed by a count and that many layer indices "
                       "(HYBRID_TRANSFORMER_FWD_IN_BCKWD)");
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 1 9 checkpoint_initiates: 1 3\n4\n" FOUR,
                       "t.txt:1: expected a layer index (0 to 3) after 'checkpoints:', got '9'");
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 5 1 checkpoint_initiates: 1 3\n4\n" FOUR,
                       "t.txt:1: expected the number of layer indices after 'checkpoints:' (at most the 4 fields "
                       "that follow), got '5'");
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 1 1 checkpoint_initiates:\n4\n" FOUR,
                       "t.txt:1: expected the number of layer indices after 'checkpoint_initiates:', got end of "
                       "line");
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 1 2 checkpoint_initiates: 1 1\n4\n" FOUR,
                       "t.txt:1: layer 1 initiates a forward re-run but no checkpoint layer is below it "
                       "(HYBRID_TRANSFORMER_FWD_IN_BCKWD)");
    expect_parse_error("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 1 0 checkpoint_initiates: 2 3 2\n4\n" FOUR,
                       "t.txt:1: layer 3 re-runs layers 0 to 2 from its checkpoint, but layer 2 in between "
                       "initiates its own re-run (HYBRID_TRANSFORMER_FWD_IN_BCKWD would stop there)");
    expect_parse_error("HYBRID_DLRM\n1\n" LAYER("e", "ALLTOALL", "ALLTOALL", "NONE"),
                       "t.txt:1: expected the index of the last bottom-MLP layer (an integer) in column 2, got "
                       "end of line");
    expect_parse_error("HYBRID_DLRM 1\n2\n" LAYER("e", "NONE", "ALLTOALL", "NONE")
                       LAYER("b", "NONE", "NONE", "ALLREDUCE"),
                       "t.txt:3: expected ALLTOALL as the first layer's forward comm type in column 4 "
                       "(HYBRID_DLRM: the last bottom-MLP layer, 1, waits for it), got 'NONE'");
    expect_parse_error("HYBRID_DLRM_ENHANCED -1\n1\n" LAYER("e", "ALLTOALL", "ALLTOALL", "NONE"),
                       "t.txt:1: expected the index of the last bottom-MLP layer in column 2 to be at least 1 "
                       "(HYBRID_DLRM_ENHANCED: it waits for the first layer's forward all-to-all), got '-1'");
}

static void test_parse_warnings(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&buf, &len);
    assert_non_null(warn);
    struct text_workload w;
    struct text_error err;
    const char *text = "MODEL\n3\n" LAYER("a", "ALLREDUCEALLTOALL", "NONE", "NONE") LAYER("b", "NONE", "NONE", "NONE");
    assert_int_equal(text_workload_parse("t.txt", text, strlen(text), &w, warn, &err), 0);
    fclose(warn);
    assert_string_equal(buf, "t.txt:3: warning: ALLREDUCEALLTOALL in column 4 is converted to an ALL_REDUCE, as "
                             "the reference converter does (Chakra has no combined collective)\n"
                             "t.txt:2: warning: the header declares 3 layers but 2 layer lines follow; as in the "
                             "reference, every layer, the first included, gets an input-gradient comm node\n");
    free(buf);
    text_workload_free(&w);
}

/* ---- graphs -------------------------------------------------------------- */

static char *render(const struct plan *p)
{
    static const char phases[2][3] = {{'F', 'I', 'W'}, {'f', 'i', 'w'}};
    size_t cap = 64 + p->n_nodes * 48, len = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (size_t k = 0; k < p->n_nodes; k++) {
        const struct plan_node *n = &p->nodes[k];
        len += (size_t)snprintf(out + len, cap - len, "%s%s.%c", k ? " " : "", p->w->layers[n->layer].name,
                                phases[n->comm][n->phase]);
        for (uint8_t d = 0; d < n->n_deps; d++)
            len += (size_t)snprintf(out + len, cap - len, "%c%u", d ? ',' : '<', p->deps[n->deps_at + d]);
    }
    return out;
}

/* w's plan of passes renders as want; frees w. */
static void expect_plan(struct text_workload *w, uint64_t passes, bool omit_none, const char *want)
{
    struct plan p;
    struct text_error err;
    assert_int_equal(text_build_plan(w, passes, omit_none, &p, &err), 0);
    char *got = render(&p);
    assert_string_equal(got, want);
    free(got);
    text_plan_free(&p);
    text_workload_free(w);
}

static void expect_graph(const char *text, uint64_t passes, bool omit_none, const char *want)
{
    struct text_workload w;
    parse_ok(text, &w);
    expect_plan(&w, passes, omit_none, want);
}

static void test_graph_micro(void **state)
{
    (void)state;
    const char *text = "MICRO\n2\n" LAYER("a", "NONE", "NONE", "ALLREDUCE") LAYER("b", "NONE", "NONE", "NONE");
    expect_graph(text, 2, false, "a.w b.w a.w b.w");
    expect_graph(text, 2, true, "a.w a.w");
}

static void test_graph_data(void **state)
{
    (void)state;
    const char *text = "DATA\n2\n" LAYER("a", "NONE", "NONE", "ALLREDUCE") LAYER("b", "NONE", "NONE", "ALLREDUCE");
    expect_graph(text, 2, false,
                 "a.F b.F<0 b.W<1 b.w<2 b.I<2 a.W<4 a.w<5 "
                 "a.F<6 b.F<7,3 b.W<8 b.w<9 b.I<9 a.W<11 a.w<12");
}

static void test_graph_data_reorder(void **state)
{
    (void)state;
    expect_graph("DATA_REORDER\n2\n" LAYER("a", "NONE", "NONE", "ALLREDUCE") LAYER("b", "NONE", "NONE", "ALLREDUCE"),
                 1, false, "a.F b.F<0 b.I<1 b.W<2 b.w<3 a.W<3 a.w<5");
    /* a single layer keeps its input-gradient step, as in ASTRA-sim 1.0 */
    expect_graph("DATA_REORDER\n1\n" LAYER("a", "NONE", "NONE", "ALLREDUCE"), 1, false, "a.F a.I<0 a.W<1 a.w<2");
}

static void test_graph_model(void **state)
{
    (void)state;
    const char *two = LAYER("a", "ALLREDUCE", "ALLREDUCE", "NONE") LAYER("b", "ALLREDUCE", "ALLREDUCE", "NONE");
    char text[1024];
    snprintf(text, sizeof text, "MODEL\n2\n%s", two);
    expect_graph(text, 2, false,
                 "a.F a.f<0 b.F<1 b.f<2 b.I<3 b.i<4 b.W<4 a.I<6,5 a.W<7 "
                 "a.F<8 a.f<9 b.F<10,6 b.f<11 b.I<12 b.i<13 b.W<13 a.I<15,14 a.W<16");
    /* header too large: the first layer gets its IG collective as well */
    snprintf(text, sizeof text, "MODEL\n5\n%s", two);
    expect_graph(text, 1, false, "a.F a.f<0 b.F<1 b.f<2 b.I<3 b.i<4 b.W<4 a.I<6,5 a.i<7 a.W<7");
    /* header too small: the gap moves to backward position header - 1 */
    snprintf(text, sizeof text, "MODEL\n2\n%s%s", two, LAYER("c", "ALLREDUCE", "ALLREDUCE", "NONE"));
    expect_graph(text, 1, false,
                 "a.F a.f<0 b.F<1 b.f<2 c.F<3 c.f<4 c.I<5 c.i<6 c.W<6 b.I<8,7 b.W<9 a.I<10 a.i<11 a.W<11");
}

static void test_graph_hybrid(void **state)
{
    (void)state;
    const char *two = LAYER("a", "ALLGATHER", "REDUCESCATTER", "ALLREDUCE")
        LAYER("b", "NONE", "REDUCESCATTER", "ALLREDUCE");
    char text[1024];
    snprintf(text, sizeof text, "HYBRID_MODEL_DATA\n2\n%s", two);
    expect_graph(text, 2, false,
                 "a.F a.f<0 b.F<1 b.f<2 b.I<3 b.i<4 b.W<4 b.w<6 a.I<6,5 a.W<8 a.w<9 "
                 "a.F<10 a.f<11 b.F<7,12 b.f<13 b.I<14 b.i<15 b.W<15 b.w<17 a.I<17,16 a.W<19 a.w<20");
    /* --omit-none: b's NONE forward collective is left out, b.I waits for b.F */
    expect_graph(text, 1, true, "a.F a.f<0 b.F<1 b.I<2 b.i<3 b.W<3 b.w<5 a.I<5,4 a.W<7 a.w<8");
}

static void test_graph_customized(void **state)
{
    (void)state;
    /* a is data-parallel (no forward or IG collective), b model-parallel
     * (no WG collective); dependants are rewired past the missing ones */
    expect_graph("HYBRID_CUSTOMIZED\n2\n"
                 "a -1 10 ALLGATHER 100 20 REDUCESCATTER 200 30 ALLREDUCE 300 1 DATA\n"
                 "b -1 10 ALLGATHER 100 20 REDUCESCATTER 200 30 ALLREDUCE 300 1 MODEL\n",
                 2, false,
                 "a.F b.F<0 b.f<1 b.I<2 b.i<3 b.W<3 a.I<5,4 a.W<6 a.w<7 "
                 "a.F<8 b.F<5,9 b.f<10 b.I<11 b.i<12 b.W<12 a.I<14,13 a.W<15 a.w<16");
}

/* HYBRID_TRANSFORMER over `npus` NPUs in model-parallel groups of `mp`. */
static void expect_transformer_graph(const char *text, uint64_t passes, uint64_t mp, uint64_t npus,
                                     const char *want)
{
    struct text_workload w;
    parse_ok(text, &w);
    w.mp_group = mp;
    w.npus = npus;
    expect_plan(&w, passes, false, want);
}

static void test_graph_transformer(void **state)
{
    (void)state;
    const char *text = "HYBRID_TRANSFORMER model_parallel_NPU_group: 2\n2\n"
        LAYER("a", "ALLGATHER", "NONE", "ALLREDUCE") LAYER("b", "ALLREDUCE", "ALLREDUCE", "ALLREDUCE");
    /* the HYBRID_MODEL_DATA graph when both kinds of group have 2+ NPUs,
     * except that, as in ASTRA-sim 1.0's transformer loop, the first layer
     * has an IG collective and the next pass's first layer waits for it */
    expect_transformer_graph(text, 2, 2, 4,
                             "a.F a.f<0 b.F<1 b.f<2 b.I<3 b.i<4 b.W<4 b.w<6 a.I<6,5 a.i<8 a.W<8 a.w<10 "
                             "a.F<11,9 a.f<12 b.F<7,13 b.f<14 b.I<15 b.i<16 b.W<16 b.w<18 a.I<18,17 a.i<20 "
                             "a.W<20 a.w<22");
    /* one model-parallel group of all 4: data-parallel groups of one NPU
     * need no weight-gradient collective */
    expect_transformer_graph(text, 1, 4, 4, "a.F a.f<0 b.F<1 b.f<2 b.I<3 b.i<4 b.W<4 a.I<6,5 a.i<7 a.W<7");
    /* groups of one NPU: only the weight-gradient collectives remain */
    expect_transformer_graph(text, 1, 1, 4, "a.F b.F<0 b.I<1 b.W<2 b.w<3 a.I<3,2 a.W<5 a.w<6");

    /* FWD_IN_BCKWD, checkpoint b, d initiating: before d's IG compute the
     * forward re-runs b and c (compute and collective), after what d.I
     * would have waited for */
    expect_transformer_graph("HYBRID_TRANSFORMER_FWD_IN_BCKWD checkpoints: 1 1 checkpoint_initiates: 1 3\n4\n" FOUR,
                             1, 2, 4,
                             "a.F a.f<0 b.F<1 b.f<2 c.F<3 c.f<4 d.F<5 d.f<6 b.F<7 b.f<8 c.F<9 c.f<10 d.I<11 "
                             "d.i<12 d.W<12 d.w<14 c.I<14,13 c.i<16 c.W<16 c.w<18 b.I<18,17 b.i<20 b.W<20 b.w<22 "
                             "a.I<22,21 a.i<24 a.W<24 a.w<26");

    /* placement: model-parallel groups of consecutive ranks, ids 1..P/N;
     * data-parallel groups by index, ids P/N+1..P/N+N */
    struct text_workload w = {.mode = TEXT_MODE_HYBRID_TRANSFORMER, .mp_group = 4, .npus = 8};
    assert_int_equal(text_group_size(&w, TEXT_FWD), 4);
    assert_int_equal(text_group_size(&w, TEXT_WG), 2);
    assert_int_equal(text_group_id(&w, TEXT_FWD, 3), 1);
    assert_int_equal(text_group_id(&w, TEXT_IG, 4), 2);
    assert_int_equal(text_group_id(&w, TEXT_WG, 0), 3);
    assert_int_equal(text_group_id(&w, TEXT_WG, 7), 6);

    /* no group size: refused naming the option */
    struct plan p;
    struct text_error err;
    parse_ok(text, &w);
    assert_int_equal(text_build_plan(&w, 1, false, &p, &err), -1);
    assert_string_equal(err.msg, "t.txt:1: mode HYBRID_TRANSFORMER needs --model-parallel-npu-group N: its "
                                 "collectives are split between model-parallel groups of N NPUs and "
                                 "data-parallel groups, a size the file does not fix for the simulated NPUs");
    text_workload_free(&w);
}

static void test_graph_dlrm(void **state)
{
    (void)state;
    const char *text = "HYBRID_DLRM 1\n3\n" LAYER("e", "ALLTOALL", "ALLTOALL", "NONE")
        LAYER("b", "NONE", "NONE", "ALLREDUCE") LAYER("t", "NONE", "NONE", "ALLREDUCE");
    expect_graph(text, 2, false,
                 "e.F e.f<0 b.F<0,1 t.F<2 t.W<3 t.w<4 t.I<4 e.i<6 b.W<6 b.w<8 b.I<8 e.W<10,7 "
                 "e.F<11 e.f<12 b.F<9,12,13 t.F<5,14 t.W<15 t.w<16 t.I<16 e.i<18 b.W<18 b.w<20 b.I<20 e.W<22,19");
}

static void test_graph_inference(void **state)
{
    (void)state;
    expect_graph("DISTRIBUTED_INFERENCE\n2\n" LAYER("a", "ALLTOALL", "NONE", "NONE")
                 LAYER("b", "ALLTOALL", "NONE", "NONE"),
                 2, false, "a.F a.f<0 b.F<1 b.f<2 a.F<3 a.f<4 b.F<5 b.f<6");
}

static void test_graph_limits(void **state)
{
    (void)state;
    /* no layer lines: like the reference, files with only the metadata */
    expect_graph("MODEL\n0\n", 3, false, "");
    /* more nodes than 32-bit plan indices hold: refused before building */
    struct text_workload w;
    struct plan p;
    struct text_error err;
    parse_ok("DATA\n1\n" LAYER("a", "NONE", "NONE", "ALLREDUCE"), &w);
    assert_int_equal(text_build_plan(&w, 715827883, false, &p, &err), -1);
    assert_string_equal(err.msg, "t.txt: 715827883 passes over 1 layers would exceed 4294967295 nodes per NPU");
    text_workload_free(&w);
}

/* ---- writing ------------------------------------------------------------- */

static void test_write_offsets_ids_per_npu(void **state)
{
    (void)state;
    char dir[] = "/tmp/vimana-convert-text-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char prefix[64], path[80];
    snprintf(prefix, sizeof prefix, "%s/w", dir);
    const char *text = "DATA\r\n2\r\n" LAYER("a", "NONE", "NONE", "ALLGATHER") LAYER("b", "NONE", "NONE", "ALLREDUCE");
    struct text_workload w;
    struct plan p;
    struct text_error err;
    parse_ok(text, &w);
    assert_int_equal(text_build_plan(&w, 1, false, &p, &err), 0);
    assert_int_equal(text_write_npus(&p, prefix, 2, &err), 0);

    snprintf(path, sizeof path, "%s.1.et", prefix);
    vet_error verr;
    vet_reader *r = vet_reader_open(path, &verr);
    assert_non_null(r);
    const vet_metadata *md = vet_reader_metadata(r);
    assert_string_equal(md->version, "");
    assert_int_equal(md->n_attrs, 2);
    assert_string_equal(md->attrs[0].name, "schema");
    assert_string_equal(md->attrs[0].v.s, TEXT_SCHEMA);
    assert_string_equal(md->attrs[1].name, "input_file");
    assert_string_equal(md->attrs[1].v.s, w.text);
    const vet_node *n;
    static const char *const names[] = {
        "COMP_NODE_a_FWD", "COMP_NODE_b_FWD", "COMP_NODE_b_BWD_WG", "COMM_COLL_NODE_b_ALLREDUCE",
        "COMP_NODE_b_BWD_IG", "COMP_NODE_a_BWD_WG", "COMM_COLL_NODE_a_ALLGATHER",
    };
    for (uint64_t k = 0; k < 7; k++) {
        assert_int_equal(vet_reader_next(r, &n, &verr), 1);
        assert_int_equal(n->id, 7 + k); /* NPU 0 holds ids 0-6 */
        assert_string_equal(n->name, names[k]);
        if (k > 0) {
            assert_int_equal(n->n_data_deps, 1);
            assert_int_equal(n->data_deps[0], 7 + p.deps[p.nodes[k].deps_at]);
        }
    }
    /* the last node is a's all-gather */
    int64_t v;
    assert_int_equal(vet_node_int64(n, "comm_type", -1, &v), VET_ATTR_OK);
    assert_int_equal(v, VET_ALL_GATHER);
    assert_int_equal(vet_node_int64(n, "comm_size", -1, &v), VET_ATTR_OK);
    assert_int_equal(v, 300);
    assert_int_equal(vet_reader_next(r, &n, &verr), 0);
    vet_reader_close(r);

    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s.%d.et", prefix, k);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
    text_plan_free(&p);
    text_workload_free(&w);
}

static void test_write_failure_leaves_nothing(void **state)
{
    (void)state;
    struct text_workload w;
    struct plan p;
    struct text_error err;
    parse_ok("MICRO\n1\n" LAYER("a", "NONE", "NONE", "ALLREDUCE"), &w);
    assert_int_equal(text_build_plan(&w, 1, false, &p, &err), 0);
    assert_int_equal(text_write_npus(&p, "/nonexistent-vimana-dir/x", 3, &err), -1);
    assert_string_equal(err.msg, "/nonexistent-vimana-dir/x.0.et: cannot create: No such file or directory");
    text_plan_free(&p);
    text_workload_free(&w);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_split_mixed_separators),
    cmocka_unit_test(test_split_blank_and_limit),
    cmocka_unit_test(test_integers),
    cmocka_unit_test(test_parse_layers_and_newlines),
    cmocka_unit_test(test_parse_errors),
    cmocka_unit_test(test_parse_warnings),
    cmocka_unit_test(test_graph_micro),
    cmocka_unit_test(test_graph_data),
    cmocka_unit_test(test_graph_data_reorder),
    cmocka_unit_test(test_graph_model),
    cmocka_unit_test(test_graph_hybrid),
    cmocka_unit_test(test_graph_customized),
    cmocka_unit_test(test_graph_transformer),
    cmocka_unit_test(test_graph_dlrm),
    cmocka_unit_test(test_graph_inference),
    cmocka_unit_test(test_graph_limits),
    cmocka_unit_test(test_write_offsets_ids_per_npu),
    cmocka_unit_test(test_write_failure_leaves_nothing)
)
