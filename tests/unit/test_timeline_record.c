/*
 * Unit tests of the issue/callback line parser and of the node category
 * rule of `vimana-et timeline`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "timeline/node_category.h"
#include "timeline/trace_record.h"

static record_status parse(const char *line, trace_record *r, char err[TRACE_RECORD_ERR_MAX])
{
    err[0] = '\0';
    return trace_record_parse(line, strlen(line), r, err);
}

static void assert_record(const char *line, record_kind kind, uint64_t npu, uint64_t tick, uint64_t node,
                          const char *name, int has_type, uint64_t type)
{
    trace_record r;
    char err[TRACE_RECORD_ERR_MAX];
    assert_int_equal(parse(line, &r, err), RECORD_OK);
    assert_int_equal(r.kind, kind);
    assert_int_equal(r.npu, npu);
    assert_int_equal(r.tick, tick);
    assert_int_equal(r.node, node);
    assert_int_equal(r.name_len, strlen(name));
    assert_memory_equal(r.name, name, r.name_len);
    assert_int_equal(r.has_type, has_type);
    if (has_type)
        assert_int_equal(r.type, type);
}

static void assert_malformed(const char *line, const char *want)
{
    trace_record r;
    char err[TRACE_RECORD_ERR_MAX];
    assert_int_equal(parse(line, &r, err), RECORD_MALFORMED);
    assert_string_equal(err, want);
}

static void assert_no_record(const char *line)
{
    trace_record r;
    char err[TRACE_RECORD_ERR_MAX];
    assert_int_equal(parse(line, &r, err), RECORD_NONE);
}

static void test_simulator_lines(void **state)
{
    (void)state;
    assert_record("issue,sys->id=0, tick=0, node->id=5, node->name=COMP_NODE_x, node->type=4\n", RECORD_ISSUE, 0, 0, 5,
                  "COMP_NODE_x", 1, 4);
    assert_record("callback,sys->id=7, tick=405520, node->id=2, node->name=All-Gather-2MB, node->type=7",
                  RECORD_CALLBACK, 7, 405520, 2, "All-Gather-2MB", 1, 7);
    /* CRLF line ends and trailing blanks belong to no field */
    assert_record("issue,sys->id=1, tick=2, node->id=3, node->name=n, node->type=4 \r\n", RECORD_ISSUE, 1, 2, 3, "n", 1,
                  4);
    /* uint64 limits */
    assert_record("issue,sys->id=0, tick=18446744073709551615, node->id=18446744073709551615, node->name=n",
                  RECORD_ISSUE, 0, UINT64_MAX, UINT64_MAX, "n", 0, 0);
}

/* The reference's own log lines carry spdlog's prefix; any prefix that
 * ends in a non-word character is skipped. */
static void test_prefixes(void **state)
{
    (void)state;
    assert_record("[2026-11-22 11:54:57.036] [workload] [debug] issue,sys->id=3, tick=0, node->id=87, "
                  "node->name=COMP_NODE_layer_64_1_mlp0_FWD, node->type=4",
                  RECORD_ISSUE, 3, 0, 87, "COMP_NODE_layer_64_1_mlp0_FWD", 1, 4);
    assert_record("stderr: callback,a=1,b=2,c=3,d=COMM_COLL_NODE", RECORD_CALLBACK, 1, 2, 3, "COMM_COLL_NODE", 0, 0);
    assert_record("x|issue,a=1,b=2,c=3,d=e", RECORD_ISSUE, 1, 2, 3, "e", 0, 0);
    /* a word that merely ends in "issue" starts no record */
    assert_no_record("reissue,sys->id=0, tick=0, node->id=5, node->name=n");
    assert_no_record("my_callback,sys->id=0, tick=0, node->id=5, node->name=n");
    /* the first record word wins */
    assert_record("callback,a=1,b=2,c=3,d=issue,x", RECORD_CALLBACK, 1, 2, 3, "issue", 0, 0);
}

static void test_lines_without_records(void **state)
{
    (void)state;
    assert_no_record("");
    assert_no_record("\n");
    assert_no_record("[2026-11-22 11:54:57.042] [workload] [info] sys[0] finished, 195350188 cycles");
    assert_no_record("an issue without a comma");
    assert_no_record("issue sys->id=0");
    assert_no_record("ISSUE,sys->id=0, tick=0, node->id=5, node->name=n");
}

/* Names may hold ',' and '=' when a node->type field closes them. */
static void test_names(void **state)
{
    (void)state;
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=a, b=c, node->type=5", RECORD_ISSUE, 0, 1, 2,
                  "a, b=c", 1, 5);
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=x, node->type=y, node->type=6", RECORD_ISSUE, 0, 1,
                  2, "x, node->type=y", 1, 6);
    /* fields after node->type are ignored */
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=x, node->type=4, extra=1", RECORD_ISSUE, 0, 1, 2,
                  "x", 1, 4);
    /* without node->type the name ends at the next ',' as in the reference */
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=x, y=z", RECORD_ISSUE, 0, 1, 2, "x", 0, 0);
    /* leading blanks of a name are kept, trailing ones at the line end not */
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name= x  \n", RECORD_ISSUE, 0, 1, 2, " x", 0, 0);
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=", RECORD_ISSUE, 0, 1, 2, "", 0, 0);
    assert_record("issue,sys->id=0, tick=1, node->id=2, node->name=aten::mm, node->type=4", RECORD_ISSUE, 0, 1, 2,
                  "aten::mm", 1, 4);
}

static void test_numbers(void **state)
{
    (void)state;
    assert_record("issue,sys->id= 4 , tick=\t9, node->id=10 , node->name=n", RECORD_ISSUE, 4, 9, 10, "n", 0, 0);
    assert_malformed("issue,sys->id=-1, tick=0, node->id=5, node->name=n",
                     "malformed issue record: npu '-1' is not an unsigned integer");
    assert_malformed("issue,sys->id=0, tick=+3, node->id=5, node->name=n",
                     "malformed issue record: tick '+3' is not an unsigned integer");
    assert_malformed("callback,sys->id=0, tick=18446744073709551616, node->id=5, node->name=n",
                     "malformed callback record: tick '18446744073709551616' is not an unsigned integer");
    assert_malformed("issue,sys->id=0, tick=1, node->id=, node->name=n",
                     "malformed issue record: node id '' is not an unsigned integer");
    assert_malformed("issue,sys->id=0, tick=1, node->id=0x5, node->name=n",
                     "malformed issue record: node id '0x5' is not an unsigned integer");
    assert_malformed("issue,sys->id=0, tick=1, node->id=5, node->name=n, node->type=four",
                     "malformed issue record: node->type 'four' is not an unsigned integer");
}

static void test_field_errors(void **state)
{
    (void)state;
    assert_malformed("issue,", "malformed issue record: it has 2 fields, expected at least 5 (issue, npu, tick, "
                               "node id, node name)");
    assert_malformed("callback,sys->id=0, tick=0, node->id=5",
                     "malformed callback record: it has 4 fields, expected at least 5 (callback, npu, tick, node id, "
                     "node name)");
    assert_malformed("issue,sys->id=0, tick 0, node->id=5, node->name=n",
                     "malformed issue record: field 2 (tick) ' tick 0' has no '='");
    assert_malformed("issue,sys->id=0, tick=0, node->id=5, COMP_NODE",
                     "malformed issue record: field 4 (node name) ' COMP_NODE' has no '='");
    assert_malformed("issue,sys->id=0, tick=0, node->id=5, COMP_NODE, node->type=4",
                     "malformed issue record: field 4 (node name) ' COMP_NODE' has no '='");
    /* long field text is cut in the message */
    assert_malformed("issue,sys->id=0, tick=0123456789012345678901234567890123456789012345678901234567890123456789, "
                     "node->id=5, node->name=n",
                     "malformed issue record: tick '012345678901234567890123456789012345678901234567890123456789' "
                     "is not an unsigned integer");
}

static void test_category_by_name(void **state)
{
    (void)state;
    const char *const names[] = {"MEM_LOAD_NODE_LOCAL_MEMORY",
                                 "MEM_STORE_NODE_x_LOCAL_MEMORY",
                                 "MEM_LOAD_NODE_REMOTE_MEMORY",
                                 "COMP_NODE_fwd",
                                 "COMM_SEND_NODE_1",
                                 "COMM_RECV_NODE_1",
                                 "COMM_COLL_NODE_ar",
                                 "LOCAL_MEMORY_COMP_NODE"};
    const node_category want[] = {CATEGORY_LOCAL_MEMORY, CATEGORY_LOCAL_MEMORY, CATEGORY_REMOTE_MEMORY, CATEGORY_COMP,
                                  CATEGORY_COMM,         CATEGORY_COMM,         CATEGORY_COMM,          CATEGORY_COMP};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* the name decides even when the type says otherwise */
        assert_int_equal(node_category_of(names[i], strlen(names[i]), true, 1), want[i]);
        assert_int_equal(node_category_of(names[i], strlen(names[i]), false, 0), want[i]);
    }
    /* a memory node without LOCAL/REMOTE_MEMORY is no memory node by name */
    assert_int_equal(node_category_of("MEM_LOAD_NODE", 13, false, 0), CATEGORY_UNKNOWN);
    assert_int_equal(node_category_of("COMP_NOD", 8, false, 0), CATEGORY_UNKNOWN);
}

static void test_category_by_type(void **state)
{
    (void)state;
    const node_category want[] = {CATEGORY_OTHER,         CATEGORY_OTHER, CATEGORY_REMOTE_MEMORY,
                                  CATEGORY_REMOTE_MEMORY, CATEGORY_COMP,  CATEGORY_COMM,
                                  CATEGORY_COMM,          CATEGORY_COMM,  CATEGORY_UNKNOWN};
    for (uint64_t type = 0; type < sizeof want / sizeof want[0]; type++)
        assert_int_equal(node_category_of("aten::mm", 8, true, type), want[type]);
    assert_int_equal(node_category_of("aten::mm", 8, true, UINT64_MAX), CATEGORY_UNKNOWN);
    assert_int_equal(node_category_of("aten::mm", 8, false, 4), CATEGORY_UNKNOWN);
    assert_int_equal(node_category_of("MEM_LOAD_NODE", 13, true, 3), CATEGORY_REMOTE_MEMORY);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_simulator_lines),
    cmocka_unit_test(test_prefixes),
    cmocka_unit_test(test_lines_without_records),
    cmocka_unit_test(test_names),
    cmocka_unit_test(test_numbers),
    cmocka_unit_test(test_field_errors),
    cmocka_unit_test(test_category_by_name),
    cmocka_unit_test(test_category_by_type)
)
