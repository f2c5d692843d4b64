/*
 * Unit tests of the log -> reference-timeline conversion of `vimana-et
 * timeline`: the open-event table, and whole conversions of small logs
 * held in memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "timeline/chrome_trace.h"
#include "timeline/log_timeline.h"
#include "timeline/open_events.h"

/* ---- open_events --------------------------------------------------------- */

static void add(open_events *set, uint64_t npu, uint64_t node)
{
    char name[32];
    int len = snprintf(name, sizeof name, "n%llu.%llu", (unsigned long long)npu, (unsigned long long)node);
    open_event ev = {.npu = npu,
                     .node = node,
                     .tick = node * 10,
                     .line = npu * 100000 + node,
                     .name = name,
                     .name_len = (size_t)len,
                     .category = CATEGORY_COMP};
    assert_int_equal(open_events_add(set, &ev), 0);
}

/* Many entries, removed in an order unrelated to insertion, so the table
 * grows and backward-shift deletion runs over wrapped probe runs. */
static void test_open_events(void **state)
{
    (void)state;
    open_events *set = open_events_new();
    assert_non_null(set);
    assert_null(open_events_oldest(set));
    for (uint64_t npu = 0; npu < 8; npu++)
        for (uint64_t node = 0; node < 500; node++)
            add(set, npu, node);
    assert_int_equal(open_events_count(set), 4000);
    assert_int_equal(open_events_oldest(set)->line, 0);
    for (uint64_t node = 0; node < 500; node += 2)
        for (uint64_t npu = 0; npu < 8; npu++) {
            open_event *ev = open_events_find(set, npu, node);
            assert_non_null(ev);
            assert_int_equal(ev->tick, node * 10);
            open_events_remove(set, ev);
        }
    assert_int_equal(open_events_count(set), 2000);
    for (uint64_t npu = 0; npu < 8; npu++)
        for (uint64_t node = 0; node < 500; node++) {
            open_event *ev = open_events_find(set, npu, node);
            if (node % 2 == 0) {
                assert_null(ev);
                continue;
            }
            assert_non_null(ev);
            char want[32];
            snprintf(want, sizeof want, "n%llu.%llu", (unsigned long long)npu, (unsigned long long)node);
            assert_string_equal(ev->name, want);
        }
    assert_int_equal(open_events_oldest(set)->line, 1);
    open_events_free(set);
}

/* ---- whole conversions --------------------------------------------------- */

typedef struct {
    int rc;
    char *json;
    log_timeline_summary summary;
    char err[LOG_TIMELINE_MSG_MAX];
} conversion;

static conversion convert(const char *log, uint64_t npus, uint64_t mhz, timeline_form form)
{
    conversion c = {0};
    size_t size = 0;
    FILE *in = fmemopen((void *)log, strlen(log), "r");
    FILE *out = open_memstream(&c.json, &size);
    assert_non_null(in);
    assert_non_null(out);
    log_timeline_options opt = {.input_name = "t.log", .num_npus = npus, .npu_mhz = mhz, .form = form};
    c.rc = log_timeline_convert(in, out, &opt, &c.summary, c.err);
    fclose(in);
    fclose(out);
    return c;
}

static void test_convert_pairs(void **state)
{
    (void)state;
    conversion c = convert("[x] [workload] [debug] issue,sys->id=1, tick=1500, node->id=9, node->name=COMP_NODE_a, "
                           "node->type=4\n"
                           "unrelated line\n"
                           "issue,sys->id=0, tick=0, node->id=9, node->name=All-Reduce, node->type=7\n"
                           "callback,sys->id=0, tick=117780, node->id=9, node->name=All-Reduce, node->type=7\n"
                           "callback,sys->id=1, tick=2000, node->id=9, node->name=ignored, node->type=4\n",
                           2, 1000, TIMELINE_REFERENCE_MS);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, "{\"meta_user\": \"aras\", \"traceEvents\": ["
                                "{\"pid\": 0, \"tid\": 4, \"ts\": 0.0, \"dur\": 0.11778, \"ph\": \"X\", "
                                "\"name\": \"All-Reduce\", \"args\": {\"ms\": 0.11778}}, "
                                "{\"pid\": 1, \"tid\": 3, \"ts\": 0.0015, \"dur\": 0.0005, \"ph\": \"X\", "
                                "\"name\": \"COMP_NODE_a\", \"args\": {\"ms\": 0.0005}}], \"meta_cpu_count\": 2}");
    assert_int_equal(c.summary.records, 4);
    assert_int_equal(c.summary.events, 2);
    assert_int_equal(c.summary.unclosed, 0);
    free(c.json);
}

static void test_convert_units(void **state)
{
    (void)state;
    const char *log = "issue,sys->id=0, tick=300, node->id=1, node->name=m, node->type=1\n"
                      "callback,sys->id=0, tick=117780, node->id=1, node->name=m, node->type=1\n";
    conversion c = convert(log, 1, 1500, TIMELINE_REFERENCE_US);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, "{\"meta_user\": \"aras\", \"traceEvents\": ["
                                "{\"pid\": 0, \"tid\": 5, \"ts\": 0.2, \"dur\": 78.32, \"ph\": \"X\", "
                                "\"name\": \"m\", \"args\": {\"us\": 78.32}}], \"meta_cpu_count\": 1}");
    free(c.json);
    c = convert("no records here\n", 3, 1, TIMELINE_REFERENCE_MS);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, "{\"meta_user\": \"aras\", \"traceEvents\": [], \"meta_cpu_count\": 3}");
    assert_int_equal(c.summary.records, 0);
    free(c.json);
}

/* Microseconds as exact decimals of nanoseconds, trailing zeros dropped. */
static void test_chrome_micros(void **state)
{
    (void)state;
    char buf[CHROME_MICROS_MAX];
    assert_string_equal(chrome_micros(0, buf), "0");
    assert_string_equal(chrome_micros(5, buf), "0.005");
    assert_string_equal(chrome_micros(50, buf), "0.05");
    assert_string_equal(chrome_micros(1000, buf), "1");
    assert_string_equal(chrome_micros(117780, buf), "117.78");
    assert_string_equal(chrome_micros(123456789, buf), "123456.789");
    /* A 64-bit tick at 1 MHz: (2^64 - 1) * 1000 ns. */
    assert_string_equal(chrome_micros((chrome_ns)UINT64_MAX * 1000, buf), "18446744073709551615");
    assert_string_equal(chrome_micros((chrome_ns)UINT64_MAX * 1000 + 1, buf), "18446744073709551615.001");
}

/* The default document: true microseconds (N cycles at 1000 MHz last
 * N/1000 us), each process and thread named before its first slice. */
static void test_convert_chrome(void **state)
{
    (void)state;
    conversion c = convert("issue,sys->id=1, tick=1500, node->id=9, node->name=COMP_NODE_a, node->type=4\n"
                           "issue,sys->id=0, tick=5, node->id=9, node->name=All-Reduce, node->type=7\n"
                           "callback,sys->id=0, tick=117785, node->id=9, node->name=All-Reduce, node->type=7\n"
                           "callback,sys->id=1, tick=2000, node->id=9, node->name=ignored, node->type=4\n"
                           "issue,sys->id=1, tick=2000, node->id=3, node->name=COMP_NODE_b, node->type=4\n"
                           "callback,sys->id=1, tick=2000, node->id=3, node->name=COMP_NODE_b, node->type=4\n",
                           2, 1000, TIMELINE_CHROME);
    assert_int_equal(c.rc, 0);
    assert_string_equal(
        c.json,
        "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
        "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"NPU 0\"}},\n"
        "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 4, \"args\": {\"name\": \"communication\"}},\n"
        "{\"name\": \"All-Reduce\", \"cat\": \"communication\", \"ph\": \"X\", \"ts\": 0.005, \"dur\": 117.78, "
        "\"pid\": 0, \"tid\": 4, \"args\": {\"cycles\": 117780}},\n"
        "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"NPU 1\"}},\n"
        "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 3, \"args\": {\"name\": \"compute\"}},\n"
        "{\"name\": \"COMP_NODE_a\", \"cat\": \"compute\", \"ph\": \"X\", \"ts\": 1.5, \"dur\": 0.5, "
        "\"pid\": 1, \"tid\": 3, \"args\": {\"cycles\": 500}},\n"
        "{\"name\": \"COMP_NODE_b\", \"cat\": \"compute\", \"ph\": \"X\", \"ts\": 2, \"dur\": 0, "
        "\"pid\": 1, \"tid\": 3, \"args\": {\"cycles\": 0}}\n"
        "]}\n");
    free(c.json);
    /* 1 cycle at 3 MHz is 333.33 ns: rounded to the nearest ns. */
    c = convert("issue,a=0,b=1,c=1,d=COMP_NODE\ncallback,a=0,b=2,c=1,d=COMP_NODE\n", 1, 3, TIMELINE_CHROME);
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.json, "\"ts\": 0.333, \"dur\": 0.334, "));
    free(c.json);
}

/* A node id can be issued again once its callback closed it (passes). */
static void test_convert_reissue_and_unclosed(void **state)
{
    (void)state;
    conversion c = convert("issue,a=0,b=0,c=1,d=COMP_NODE\n"
                           "callback,a=0,b=10,c=1,d=COMP_NODE\n"
                           "issue,a=0,b=20,c=1,d=COMP_NODE\n"
                           "issue,a=0,b=20,c=2,d=COMM_COLL_NODE\n",
                           1, 1, TIMELINE_REFERENCE_MS);
    assert_int_equal(c.rc, 0);
    assert_int_equal(c.summary.events, 1);
    assert_int_equal(c.summary.unclosed, 2);
    assert_string_equal(c.summary.unclosed_note, "2 issued nodes never completed and are left out (the first: node 1 "
                                                 "'COMP_NODE' on NPU 0, issued at t.log:3)");
    free(c.json);
}

static void assert_conversion_error(const char *log, const char *want)
{
    conversion c = convert(log, 2, 1000, TIMELINE_REFERENCE_MS);
    assert_int_equal(c.rc, -1);
    assert_string_equal(c.err, want);
    free(c.json);
}

static void test_convert_errors(void **state)
{
    (void)state;
    assert_conversion_error("\n\nissue,sys->id=0, tick=0\n",
                            "t.log:3: malformed issue record: it has 3 fields, expected at least 5 (issue, npu, tick, "
                            "node id, node name)");
    assert_conversion_error("callback,sys->id=1, tick=5, node->id=4, node->name=COMP_NODE_a, node->type=4\n",
                            "t.log:1: callback of node 4 'COMP_NODE_a' on NPU 1 has no open issue before it");
    assert_conversion_error("issue,sys->id=2, tick=5, node->id=4, node->name=COMP_NODE_a, node->type=4\n",
                            "t.log:1: NPU 2 is out of range: --num-npus is 2");
    assert_conversion_error("issue,sys->id=0, tick=5, node->id=4, node->name=aten::mm\n",
                            "t.log:1: cannot tell the category of node 4 'aten::mm' on NPU 0: its name has no "
                            "COMP_NODE, COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY "
                            "and the record has no node->type");
    assert_conversion_error("issue,sys->id=0, tick=5, node->id=4, node->name=x, node->type=8\n",
                            "t.log:1: cannot tell the category of node 4 'x' on NPU 0: its name has no COMP_NODE, "
                            "COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY and "
                            "node->type 8 is not a Chakra node type");
    assert_conversion_error("issue,a=0,b=5,c=4,d=COMP_NODE\nissue,a=0,b=6,c=4,d=COMP_NODE\n",
                            "t.log:2: node 4 on NPU 0 issued again before its callback (first issue at line 1)");
    assert_conversion_error("issue,a=0,b=5,c=4,d=COMP_NODE\ncallback,a=0,b=4,c=4,d=COMP_NODE\n",
                            "t.log:2: callback of node 4 on NPU 0 at tick 4 precedes its issue at tick 5 (line 1)");
    assert_conversion_error("issue,a=0,b=5,c=4,d=COMP_NODE\xc3\n",
                            "t.log:1: the name of node 4 on NPU 0 is not valid UTF-8");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_open_events),    cmocka_unit_test(test_convert_pairs),
    cmocka_unit_test(test_convert_units),  cmocka_unit_test(test_convert_reissue_and_unclosed),
    cmocka_unit_test(test_convert_errors), cmocka_unit_test(test_chrome_micros),
    cmocka_unit_test(test_convert_chrome)
)
