/*
 * Unit tests of core/util: the input-file check and message escaping.
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

#include "util/input_file.h"
#include "util/msg_escape.h"

static void regular_file_passes(void **state)
{
    (void)state;
    char path[] = "/tmp/vimana-util-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char why[128] = "";
    assert_int_equal(input_file_check(path, why, sizeof why), 0);
    assert_string_equal(why, "");
    unlink(path);
}

static void missing_file_left_to_the_caller(void **state)
{
    (void)state;
    char why[128] = "";
    assert_int_equal(input_file_check("/nonexistent/vimana/file", why, sizeof why), 0);
}

static void directory_refused(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(input_file_check("/tmp", why, sizeof why), -1);
    assert_string_equal(why, "is a directory, expected a file");
}

static void device_refused(void **state)
{
    (void)state;
    char why[128];
    assert_int_equal(input_file_check("/dev/zero", why, sizeof why), -1);
    assert_string_equal(why, "not a regular file (character device)");
}

static void escapes_control_bytes(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(msg_escape("Ring\nSwitch\t\x01\\", buf, sizeof buf), "Ring\\nSwitch\\t\\x01\\\\");
    assert_string_equal(msg_escape("caf\xc3\xa9", buf, sizeof buf), "caf\xc3\xa9");
    assert_string_equal(msg_escape_n("a\0b", 3, buf, sizeof buf), "a\\x00b");
}

static void long_values_end_in_ellipsis(void **state)
{
    (void)state;
    char buf[8];
    assert_string_equal(msg_escape("abcdefghij", buf, sizeof buf), "abcd...");
    assert_string_equal(msg_escape("abcdefg", buf, sizeof buf), "abcdefg");
    assert_string_equal(msg_escape("abc\n\n\nx", buf, sizeof buf), "abc...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_file_passes),
        cmocka_unit_test(missing_file_left_to_the_caller),
        cmocka_unit_test(directory_refused),
        cmocka_unit_test(device_refused),
        cmocka_unit_test(escapes_control_bytes),
        cmocka_unit_test(long_values_end_in_ellipsis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
