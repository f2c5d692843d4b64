/* sim/inference_report: TTFT, TPOT and tokens/s from marker end ticks
 * worked by hand, the choice of the NPU, the refusals, and the exact
 * text of the lines, the JSON object and the timeline slices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"

#include "sim/inference_report.h"

/* Three tokens of batch 4 on NPUs 2 and 3 (the LM head's TP ranks):
 * NPU 3's markers end later for tokens 0 and 2, equal for token 1. */
static void fill(inf_report *r)
{
    assert_int_equal(inf_report_init(r, 2), 0);
    inf_report_record(r, 2, 0, 1000, 4);
    inf_report_record(r, 3, 0, 1200, 4);
    inf_report_record(r, 3, 1, 1700, 4);
    inf_report_record(r, 2, 1, 1700, 4);
    inf_report_record(r, 2, 2, 2100, 4);
    inf_report_record(r, 3, 2, 2300, 4);
}

static void summarize_ok(const inf_report *r, inf_summary *sum)
{
    char why[128];
    assert_int_equal(inf_report_summarize(r, sum, why, sizeof why), 0);
}

/* fill()'s report and its summary. */
static void fill_summarized(inf_report *r, inf_summary *sum)
{
    fill(r);
    summarize_ok(r, sum);
}

static void figures(void **state)
{
    (void)state;
    inf_report r;
    inf_summary sum;
    fill_summarized(&r, &sum);
    /* the latest end per token; of equal ends the lowest NPU */
    assert_int_equal(r.end[0], 1200);
    assert_int_equal(r.npu[1], 2);
    assert_int_equal(sum.npu, 3);
    assert_int_equal(sum.ttft, 1200);
    assert_int_equal(sum.end, 2300);
    assert_int_equal(sum.n_tokens, 3);
    /* (2300 - 1200) / 2 decode tokens; the last 2300 - 1700 */
    assert_true(sum.tpot_mean == 550.0);
    assert_int_equal(sum.tpot_last, 600);
    /* 4 x 3 tokens in 2.3 us */
    assert_true(sum.tokens_per_s > 5217391.30 && sum.tokens_per_s < 5217391.31);
    inf_report_free(&r);
}

static char *printed(void (*fn)(const inf_report *, const inf_summary *, FILE *), const inf_report *r,
                     const inf_summary *sum)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    fn(r, sum, f);
    fclose(f);
    return text;
}

static void print_lines(const inf_report *r, const inf_summary *sum, FILE *f)
{
    (void)r;
    inf_report_print(sum, f);
}

/* The lines and the JSON object r and sum print. */
static void expect_printed(const inf_report *r, const inf_summary *sum, const char *want_lines,
                           const char *want_json)
{
    char *lines = printed(print_lines, r, sum);
    assert_string_equal(lines, want_lines);
    free(lines);
    char *json = printed(inf_report_json, r, sum);
    assert_string_equal(json, want_json);
    free(json);
}

static void text(void **state)
{
    (void)state;
    inf_report r;
    inf_summary sum;
    fill_summarized(&r, &sum);
    expect_printed(&r, &sum,
                   "inference: NPU 3 (the LM head's markers), time to first token 1200 cycles\n"
                   "inference: time per output token 550.000 cycles (mean of 2 decode tokens), the last "
                   "(token 2) 600 cycles\n"
                   "inference: 5217391.304 tokens/s (batch 4 x 3 tokens in 2300 cycles)\n",
                   "{\"npu\": 3, \"batch\": 4, \"tokens\": 3, \"ttft\": 1200, \"tpot_mean\": 550.000, "
                   "\"tpot_last\": 600, \"end\": 2300, \"tokens_per_second\": 5217391.304, "
                   "\"token_end\": [1200, 1700, 2300]}");
    inf_report_free(&r);
}

/* Without the batch attribute there is no tokens/s (JSON null). */
static void no_batch(void **state)
{
    (void)state;
    inf_report r;
    inf_summary sum;
    assert_int_equal(inf_report_init(&r, 0), 0);
    inf_report_record(&r, 0, 0, 5000, 0);
    summarize_ok(&r, &sum);
    assert_true(sum.tpot_mean == 0.0);
    assert_int_equal(sum.tpot_last, 0);
    expect_printed(&r, &sum,
                   "inference: NPU 0 (the LM head's markers), time to first token 5000 cycles\n"
                   "inference: 1 tokens a sequence in 5000 cycles (no batch attribute on the markers: "
                   "no tokens/s)\n",
                   "{\"npu\": 0, \"batch\": null, \"tokens\": 1, \"ttft\": 5000, \"tpot_mean\": 0.000, "
                   "\"tpot_last\": 0, \"end\": 5000, \"tokens_per_second\": null, \"token_end\": [5000]}");
    inf_report_free(&r);
}

static void refusals(void **state)
{
    (void)state;
    inf_report r;
    inf_summary sum;
    char why[128];
    assert_int_equal(inf_report_init(&r, 2), 0);
    inf_report_record(&r, 0, 0, 10, 1);
    inf_report_record(&r, 0, 2, 30, 1);
    inf_report_record(&r, 0, 7, 99, 1); /* beyond the arrays: ignored */
    assert_int_equal(inf_report_summarize(&r, &sum, why, sizeof why), -1);
    assert_string_equal(why, "no marker of output token 1 ended (the markers give tokens 0 to 2)");
    inf_report_record(&r, 1, 1, 20, 2);
    assert_int_equal(inf_report_summarize(&r, &sum, why, sizeof why), -1);
    assert_string_equal(why, "the markers' batch attributes differ");
    inf_report_free(&r);
}

typedef struct slices {
    char text[512];
    size_t len;
} slices;

static void on_slice(void *ctx, int phase, const char *name, vimana_tick start, vimana_tick end)
{
    slices *s = ctx;
    s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "%s|%s|%llu|%llu\n",
                               phase == INF_PHASE_PREFILL ? "prefill" : "decode", name, (unsigned long long)start,
                               (unsigned long long)end);
}

static void timeline(void **state)
{
    (void)state;
    inf_report r;
    slices s = {0};
    fill(&r);
    inf_report_slices(&r, on_slice, &s);
    assert_string_equal(s.text, "prefill|prefill (to the first token)|0|1200\n"
                                "decode|decode token 1|1200|1700\n"
                                "decode|decode token 2|1700|2300\n");
    inf_report_free(&r);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(figures), cmocka_unit_test(text), cmocka_unit_test(no_batch),
    cmocka_unit_test(refusals), cmocka_unit_test(timeline)
)
