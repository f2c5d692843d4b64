# Tests of the small utilities in core/util (libvimana_util) shared by the
# core and the tools.
check_PROGRAMS += tests/unit/test_util
TESTS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c
tests_unit_test_util_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_util_LDADD = libvimana_util.la $(CMOCKA_LIBS)
