# Robustness of the simulator core and the ET library against bad inputs
# (issue 9 section 4): unit tests of the checked tick conversions, the
# dependency-cycle finder and the ET reader's input checks, and end-to-end
# runs of the real binary on the inputs kept in tests/data/bad-inputs.
UNIT_TESTS += tests/unit/test_robust_util
tests_unit_test_robust_util_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_robust_util_LDADD = libvimana_util.la $(CMOCKA_LIBS)

UNIT_TESTS += tests/unit/test_et_input_kinds
tests_unit_test_et_input_kinds_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_et_input_kinds_LDADD = libvimana_et.la $(CMOCKA_LIBS)

SHELL_TESTS += tests/e2e/robust_sim_inputs.sh tests/e2e/robust_custom.sh tests/e2e/robust_leaks.sh
