# vimana calibrate's tests. Included first: the fits on published tables
# are the suite's longest tests (about a minute each under the
# sanitizers), and make -j starts tests in the order of TESTS, so the
# short ones run beside them instead of after them.
# The longest first: calibrate on published nccl-tests tables
# (tests/data/nccl-tests): parse, targets, --check.
SHELL_TESTS += tests/e2e/calibrate_published.sh
# recovers known parameters, report = simulation, bad input.
SHELL_TESTS += tests/e2e/calibrate.sh
# calibrate on more published tables: other GPUs, rank counts, collectives,
# two-node runs, RCCL.
SHELL_TESTS += tests/e2e/calibrate_more.sh
# The shipped HGX-H100 preset: reproducible, on target, report = simulation.
SHELL_TESTS += tests/e2e/nccl_preset.sh
EXTRA_DIST += tests/e2e/calibrate_lib.sh
# The reader and the closed form.
UNIT_TESTS += tests/unit/test_calibrate
tests_unit_test_calibrate_SOURCES = tests/unit/test_calibrate.c $(calibrate_sources)
tests_unit_test_calibrate_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_calibrate_LDADD = $(SIM_UNIT_LDADD)
