# Tests of the utilities the vimana-et commands share (tools/common): the
# float spelling, UTF-8 decoding, JSON string literals, the id map and the
# JSON lexer of the trace readers.
tools_common_test_cppflags = $(TOOLS_UNIT_CPPFLAGS)

UNIT_TESTS += tests/unit/test_pyfloat tests/unit/test_tools_common tests/unit/test_json_lex
tests_unit_test_pyfloat_CPPFLAGS = $(tools_common_test_cppflags)
tests_unit_test_pyfloat_LDADD = $(TOOLS_UNIT_LDADD)
# Doubles and their repr(), for test_pyfloat and test_pyrepr.
EXTRA_DIST += tests/unit/pyfloat_cases.h
tests_unit_test_tools_common_CPPFLAGS = $(tools_common_test_cppflags)
tests_unit_test_tools_common_LDADD = $(TOOLS_UNIT_LDADD)
tests_unit_test_json_lex_CPPFLAGS = $(tools_common_test_cppflags)
tests_unit_test_json_lex_LDADD = $(TOOLS_UNIT_LDADD)
