/*
 * Unit tests of util/json_dup_keys and its use by json_doc_parse: a key
 * given twice in one object is found wherever it hides (escaped, in single
 * quotes, nested, after comments), and keys of different objects are not
 * confused (issue 29 §5: json-c kept the last value silently).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/json_doc.h"
#include "util/json_dup_keys.h"

/* The offsets of the duplicate in text, or -1, -1 when none is found. */
static void expect_dup(const char *text, long offset, long first_offset)
{
    struct json_dup_key dup = {0, 0};
    int found = json_dup_keys_find(text, strlen(text), &dup);
    assert_int_equal(found, offset >= 0);
    if (found) {
        assert_int_equal(dup.offset, offset);
        assert_int_equal(dup.first_offset, first_offset);
    }
}

static void distinct_keys_pass(void **state)
{
    (void)state;
    expect_dup("{}", -1, -1);
    expect_dup("{\"a\": 1, \"b\": \"a\", \"ab\": [\"a\", \"a\"]}", -1, -1);
    /* The same key in sibling and nested objects is not a repetition. */
    expect_dup("[{\"a\": 1}, {\"a\": 2}, {\"a\": {\"a\": {\"a\": 3}}}]", -1, -1);
    /* A string value equal to a key is a value. */
    expect_dup("{\"a\": \"a\", \"b\": {\"c\": \"a\"}}", -1, -1);
}

static void repeated_keys_found(void **state)
{
    (void)state;
    expect_dup("{\"a\": 1, \"a\": 2}", 9, 1);
    /* The repetition that comes first in the file, of three. */
    expect_dup("{\"b\": 1, \"a\": 2, \"a\": 3, \"b\": 4}", 17, 9);
    /* Escapes stand for their characters. */
    expect_dup("{\"a\": 1, \"\\u0061\": 2}", 9, 1);
    expect_dup("{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}", 20, 1);
    expect_dup("{\"x\\\"y\": 1, \"x\\u0022y\": 2}", 12, 1);
    /* Nested, after a comment and in json-c's single quotes. */
    expect_dup("{\"o\": {/* \"k\": */ \"k\": 1, 'k': 2}}", 26, 18);
    expect_dup("[1, {\"k\": [{}], // \"k\"\n \"k\": 0}]", 24, 5);
}

static void json_doc_refuses_a_key_given_twice(void **state)
{
    (void)state;
    const char *text = "{\"ranks\": 2,\n  \"steps\": [], \"ranks\": 3}";
    json_object *root = NULL;
    char msg[256];
    assert_int_equal(json_doc_parse("m.json", text, strlen(text), &root, msg, sizeof msg), -1);
    assert_null(root);
    assert_string_equal(msg, "m.json: duplicate key \"ranks\" at line 2, column 16 (first given at line 1, column 2)");
    text = "{\"ranks\": 2, \"Ranks\": 3}";
    assert_int_equal(json_doc_parse("m.json", text, strlen(text), &root, msg, sizeof msg), 0);
    json_object_put(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distinct_keys_pass),
        cmocka_unit_test(repeated_keys_found),
        cmocka_unit_test(json_doc_refuses_a_key_given_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
