# Tests of `vimana-et timeline` (tools/timeline): cmocka tests of the record
# parser and the log conversion; shell tests of the corpus reference, the
# raw log, a simulator round trip, the report mode and the error messages.
timeline_test_cppflags = $(TOOLS_UNIT_CPPFLAGS)

UNIT_TESTS += tests/unit/test_timeline_record tests/unit/test_timeline_log
tests_unit_test_timeline_record_CPPFLAGS = $(timeline_test_cppflags)
tests_unit_test_timeline_record_LDADD = $(TOOLS_UNIT_LDADD)
tests_unit_test_timeline_log_CPPFLAGS = $(timeline_test_cppflags)
tests_unit_test_timeline_log_LDADD = $(TOOLS_UNIT_LDADD)

# The corpus and simulator tests read tests/data/corpus and golden-inputs.
SHELL_TESTS += tests/e2e/timeline_corpus.sh tests/e2e/timeline_sim.sh tests/e2e/timeline_report.sh \
	tests/e2e/timeline_errors.sh
