# Tests of `vimana-et timeline` (tools/timeline): cmocka tests of the record
# parser and the log conversion; shell tests of the corpus reference, the
# raw log, a simulator round trip, the report mode and the error messages.
timeline_test_cppflags = $(TOOLS_UNIT_CPPFLAGS)
timeline_log_sources = \
	tools/common/pyfloat.c tools/common/pyjson_string.c tools/timeline/trace_record.c \
	tools/timeline/node_category.c tools/timeline/open_events.c tools/timeline/ref_trace.c \
	tools/timeline/chrome_trace.c tools/common/idmap.c tools/timeline/log_timeline.c

check_PROGRAMS += tests/unit/test_timeline_record tests/unit/test_timeline_log
TESTS += tests/unit/test_timeline_record tests/unit/test_timeline_log
tests_unit_test_timeline_record_SOURCES = tests/unit/test_timeline_record.c \
	tools/timeline/trace_record.c tools/timeline/node_category.c
tests_unit_test_timeline_record_CPPFLAGS = $(timeline_test_cppflags)
tests_unit_test_timeline_record_LDADD = $(CMOCKA_LIBS)
tests_unit_test_timeline_log_SOURCES = tests/unit/test_timeline_log.c $(timeline_log_sources)
tests_unit_test_timeline_log_CPPFLAGS = $(timeline_test_cppflags)
tests_unit_test_timeline_log_LDADD = libvimana_util.la $(CMOCKA_LIBS) -lm

# The corpus and simulator tests read tests/data/corpus and golden-inputs.
timeline_e2e = tests/e2e/timeline_corpus.sh tests/e2e/timeline_sim.sh \
	tests/e2e/timeline_report.sh tests/e2e/timeline_errors.sh
TESTS += $(timeline_e2e)
EXTRA_DIST += $(timeline_e2e)
