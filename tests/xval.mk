# `vimana xval`: the writers (table, CSV, JSON, SVG) on a fixed result, and
# end-to-end runs of the shipped backends (and failing test modules).
check_PROGRAMS += tests/unit/test_xval
tests_unit_test_xval_SOURCES = tests/unit/test_xval.c \
	core/sim/xval_output.c core/sim/xval_plot.c
tests_unit_test_xval_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_xval_LDADD = libvimana_core.la $(CMOCKA_LIBS) -lm
TESTS += tests/unit/test_xval

TESTS += tests/e2e/xval.sh
EXTRA_DIST += tests/e2e/xval.sh
