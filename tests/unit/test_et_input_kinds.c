/* The ET library refuses paths that are not regular files before reading:
 * a directory used to give "corrupt gzip stream ... Is a directory" and a
 * character device such as /dev/zero an endless read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include "unit_main.h"

#include "vimana/et.h"

/* vet_reader_open refuses path with exactly msg. */
static void expect_refused(const char *path, const char *msg)
{
    vet_error err;
    assert_null(vet_reader_open(path, &err));
    assert_string_equal(err.msg, msg);
}

static void test_directory_and_device(void **state)
{
    (void)state;
    expect_refused("/", "/: is a directory, expected a file");
    expect_refused("/dev/zero", "/dev/zero: not a regular file (character device)");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_directory_and_device)
)
