# tests for convert_text (`vimana-et convert text`)
UNIT_TESTS += tests/unit/test_convert_text
tests_unit_test_convert_text_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_convert_text_LDADD = $(TOOLS_UNIT_LDADD)

# The corpus comparison reads tests/data/corpus (all of ../shared/corpus
# when present); the input tests use only tests/data/text.
SHELL_TESTS += tests/e2e/convert_text_corpus.sh tests/e2e/convert_text_inputs.sh \
	tests/e2e/convert_text_upstream.sh tests/e2e/convert_text_transformer.sh
