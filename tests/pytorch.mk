# tests for pytorch: `vimana-et convert pytorch` (tools/pytorch).
pytorch_test_cppflags = $(TOOLS_UNIT_CPPFLAGS) \
	-DVIMANA_TEST_DATA='"$(abs_top_srcdir)/tests/data/pytorch"'

UNIT_TESTS += tests/unit/test_pyrepr tests/unit/test_pytorch_json tests/unit/test_pytorch_util \
	tests/unit/test_pytorch_convert
SHELL_TESTS += tests/e2e/convert_pytorch.sh tests/e2e/convert_pytorch_errors.sh \
	tests/e2e/convert_pytorch_sim.sh tests/e2e/convert_pytorch_drops.sh

tests_unit_test_pyrepr_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pyrepr_LDADD = $(TOOLS_UNIT_LDADD)

tests_unit_test_pytorch_json_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_json_LDADD = $(TOOLS_UNIT_LDADD)

tests_unit_test_pytorch_util_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_util_LDADD = $(TOOLS_UNIT_LDADD)

tests_unit_test_pytorch_convert_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_convert_LDADD = $(TOOLS_UNIT_LDADD)
