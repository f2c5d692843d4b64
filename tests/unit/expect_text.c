/*
 * expect_text.c - the check of a writer's whole output (expect_text.h).
 */
#include "expect_text.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void expect_text(char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
    assert_string_equal(got, want);
    free(got);
}
