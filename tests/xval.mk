# `vimana xval`: the writers (table, CSV, JSON, SVG) on a fixed result, and
# end-to-end runs of the shipped backends (and failing test modules).
UNIT_TESTS += tests/unit/test_xval
tests_unit_test_xval_SOURCES = tests/unit/test_xval.c $(EXPECT_TEXT) \
	core/cmd/xval/xval_output.c core/cmd/xval/xval_plot.c core/out/csv_out.c core/cmd/child_run.c \
	core/cmd/xval/xval_diverge.c core/cmd/xval/xval_diverge_output.c core/cmd/xval/xval_diverge_plot.c core/out/svg_chart.c
tests_unit_test_xval_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_xval_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS)
tests_unit_test_xval_LDADD = libvimana_core.la $(CMOCKA_LIBS) $(JSON_C_LIBS) -lm

# A backend that aborts in run(): an error row, not the end of xval.
check_LTLIBRARIES += tests/backends/xval_abort.la
tests_backends_xval_abort_la_SOURCES = tests/backends/test_backend.c
tests_backends_xval_abort_la_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_MAJOR=VIMANA_NETWORK_ABI_MAJOR \
	-DTEST_MINOR=VIMANA_NETWORK_ABI_MINOR -DTEST_RUN_ABORTS
tests_backends_xval_abort_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)

SHELL_TESTS += tests/e2e/xval.sh tests/e2e/xval_backends.sh

# The divergence report's comparison on hand-made reports.
UNIT_TESTS += tests/unit/test_xval_diverge
tests_unit_test_xval_diverge_SOURCES = tests/unit/test_xval_diverge.c $(EXPECT_TEXT) \
	core/cmd/xval/xval_diverge.c core/cmd/xval/xval_diverge_output.c core/cmd/xval/xval_diverge_plot.c core/out/svg_chart.c \
	core/out/csv_out.c
tests_unit_test_xval_diverge_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_xval_diverge_LDADD = libvimana_core.la $(CMOCKA_LIBS) -lm
