# Tests of the small utilities in core/util shared by the core and the tools.
check_PROGRAMS += tests/unit/test_util
TESTS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c core/util/input_file.c core/util/msg_escape.c
tests_unit_test_util_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_util_LDADD = $(CMOCKA_LIBS)
