# tests for pytorch: `vimana-et convert pytorch` (tools/pytorch).
pytorch_test_cppflags = $(TOOLS_UNIT_CPPFLAGS) \
	-DVIMANA_TEST_DATA='"$(abs_top_srcdir)/tests/data/pytorch"'
pytorch_test_ldadd = libvimana_et.la libvimana_util.la $(ZLIB_LIBS) $(CMOCKA_LIBS) -lm
pytorch_test_sources = $(pytorch_lib_sources) tools/common/pyfloat.c tools/common/idmap.c

check_PROGRAMS += tests/unit/test_pyrepr tests/unit/test_pytorch_json \
	tests/unit/test_pytorch_util tests/unit/test_pytorch_convert
TESTS += tests/unit/test_pyrepr tests/unit/test_pytorch_json \
	tests/unit/test_pytorch_util tests/unit/test_pytorch_convert \
	tests/e2e/convert_pytorch.sh tests/e2e/convert_pytorch_errors.sh tests/e2e/convert_pytorch_sim.sh \
	tests/e2e/convert_pytorch_drops.sh
EXTRA_DIST += tests/e2e/convert_pytorch.sh tests/e2e/convert_pytorch_errors.sh tests/e2e/convert_pytorch_sim.sh \
	tests/e2e/convert_pytorch_drops.sh

tests_unit_test_pyrepr_SOURCES = tests/unit/test_pyrepr.c $(pytorch_test_sources)
tests_unit_test_pyrepr_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pyrepr_LDADD = $(pytorch_test_ldadd)

tests_unit_test_pytorch_json_SOURCES = tests/unit/test_pytorch_json.c $(pytorch_test_sources)
tests_unit_test_pytorch_json_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_json_LDADD = $(pytorch_test_ldadd)

tests_unit_test_pytorch_util_SOURCES = tests/unit/test_pytorch_util.c $(pytorch_test_sources)
tests_unit_test_pytorch_util_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_util_LDADD = $(pytorch_test_ldadd)

tests_unit_test_pytorch_convert_SOURCES = tests/unit/test_pytorch_convert.c $(pytorch_test_sources)
tests_unit_test_pytorch_convert_CPPFLAGS = $(pytorch_test_cppflags)
tests_unit_test_pytorch_convert_LDADD = $(pytorch_test_ldadd)
