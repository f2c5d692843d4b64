# tests for trace_link (`vimana-et link`)
trace_link_test_cppflags = $(TOOLS_UNIT_CPPFLAGS) \
	-DTL_TEST_DATA='"$(abs_top_srcdir)/tests/data/trace_link"'

UNIT_TESTS += tests/unit/test_trace_link_json tests/unit/test_trace_link_pipeline
tests_unit_test_trace_link_json_CPPFLAGS = $(trace_link_test_cppflags)
tests_unit_test_trace_link_json_LDADD = $(TOOLS_UNIT_LDADD)
tests_unit_test_trace_link_pipeline_CPPFLAGS = $(trace_link_test_cppflags)
tests_unit_test_trace_link_pipeline_LDADD = $(TOOLS_UNIT_LDADD)

# Fixtures and error cases use tests/data/trace_link only; the corpus test
# reads tests/data/corpus (or ../shared/corpus when present).
SHELL_TESTS += tests/e2e/trace_link_fixtures.sh tests/e2e/trace_link_errors.sh \
	tests/e2e/trace_link_corpus.sh tests/e2e/trace_link_orphans.sh tests/e2e/trace_link_inputs.sh
