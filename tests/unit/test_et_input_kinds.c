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

static void test_directory(void **state)
{
    (void)state;
    vet_error err;
    assert_null(vet_reader_open("/", &err));
    assert_string_equal(err.msg, "/: is a directory, expected a file");
}

static void test_character_device(void **state)
{
    (void)state;
    vet_error err;
    assert_null(vet_reader_open("/dev/zero", &err));
    assert_string_equal(err.msg, "/dev/zero: not a regular file (character device)");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_directory),
    cmocka_unit_test(test_character_device)
)
