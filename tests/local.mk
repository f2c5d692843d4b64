# Tests: cmocka unit tests (tests/unit/test_*.c) and end-to-end shell tests
# (tests/e2e/*.sh) that run the real binaries. Each area keeps its list in a
# fragment. A shell test exits 77 to be reported as skipped (a missing
# optional tool). Reference data comes from tests/data, or from ../shared
# when it is beside the source tree (tests/data/README.md); set
# VIMANA_SHARED=/nonexistent to run without it.
TEST_EXTENSIONS = .sh
# Every test is timed: scripts/timed-test-driver runs automake's driver and
# writes the test's seconds into its .trs and .log and onto the PASS/FAIL
# line; scripts/test lists the durations, slowest first.
test_driver = $(SHELL) $(top_srcdir)/scripts/timed-test-driver $(SHELL) $(top_srcdir)/build-aux/test-driver
LOG_DRIVER = $(test_driver)
SH_LOG_DRIVER = $(test_driver)
SH_LOG_COMPILER = $(SHELL)
EXTRA_DIST += scripts/timed-test-driver
# Each fragment lists a test once: a shell test in SHELL_TESTS (run and
# distributed), a cmocka test in UNIT_TESTS (built by make check and run).
# The shell tests come first in TESTS, in the order of the fragments (the
# longest, calibration, first), so that the slowest start first under make -j.
TESTS += $(SHELL_TESTS) $(UNIT_TESTS)
EXTRA_DIST += $(SHELL_TESTS)
check_PROGRAMS += $(UNIT_TESTS)
# The timing driver and what it wraps.
SHELL_TESTS += tests/e2e/timed_driver.sh
# Include roots as for the code under test (Makefile.am): a test of the core
# sees the core, a test of a tool what the tools see.
UNIT_CPPFLAGS = $(CORE_CPPFLAGS) $(CMOCKA_CFLAGS)
TOOLS_UNIT_CPPFLAGS = $(TOOLS_CPPFLAGS) $(CMOCKA_CFLAGS)
# A test of a tool links the tools' library (tools/local.mk) as vimana-et
# does, instead of compiling the sources it calls again.
TOOLS_UNIT_LDADD = $(TOOLS_LIBS) $(CMOCKA_LIBS)
# A text file in a fresh temporary folder (tests of readers that take a path).
TEMP_TEXT = tests/unit/temp_text.c tests/unit/temp_text.h
# The check of a writer's whole output against the text it must be.
EXPECT_TEXT = tests/unit/expect_text.c tests/unit/expect_text.h
EXTRA_DIST += tests/e2e/lib.sh tests/data tests/unit/unit_main.h

include $(srcdir)/tests/calibrate.mk
include $(srcdir)/tests/util.mk
include $(srcdir)/tests/et.mk
include $(srcdir)/tests/tools_common.mk
include $(srcdir)/tests/etcmd.mk
include $(srcdir)/tests/convert_text.mk
include $(srcdir)/tests/pytorch.mk
include $(srcdir)/tests/trace_link.mk
include $(srcdir)/tests/timeline.mk
include $(srcdir)/tests/linkmap.mk
include $(srcdir)/tests/sim.mk
include $(srcdir)/tests/robust.mk
include $(srcdir)/tests/config.mk
include $(srcdir)/tests/build.mk
include $(srcdir)/tests/xval.mk
include $(srcdir)/tests/sweep.mk
include $(srcdir)/tests/jobs.mk
