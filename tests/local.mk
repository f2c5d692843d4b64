# Tests: cmocka unit tests (tests/unit/test_*.c) and end-to-end shell tests
# (tests/e2e/*.sh) that run the real binaries. Each area keeps its list in a
# fragment. A shell test exits 77 to be reported as skipped (a missing
# optional tool). Reference data comes from tests/data, or from ../shared
# when it is beside the source tree (tests/data/README.md); set
# VIMANA_SHARED=/nonexistent to run without it.
TEST_EXTENSIONS = .sh
# Every test is timed (scripts/timed-test-driver writes TEST.duration beside
# its .log); scripts/test lists the durations at the end of the run.
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/scripts/timed-test-driver $(SHELL)
LOG_COMPILER = $(SHELL) $(top_srcdir)/scripts/timed-test-driver
EXTRA_DIST += scripts/timed-test-driver
CLEANFILES += $(TEST_LOGS:.log=.duration)
# Include roots as for the code under test (Makefile.am): a test of the core
# sees the core, a test of a tool what the tools see.
UNIT_CPPFLAGS = $(CORE_CPPFLAGS) $(CMOCKA_CFLAGS)
TOOLS_UNIT_CPPFLAGS = $(TOOLS_CPPFLAGS) $(CMOCKA_CFLAGS)
EXTRA_DIST += tests/e2e/lib.sh tests/data

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
