# Tests of `vimana-et linkmap` (tools/linkmap): a congestion_aware run drawn
# byte for byte, a hand-written report (ordering, --top, escaping), and
# every refused report and option.
SHELL_TESTS += tests/e2e/linkmap.sh tests/e2e/linkmap_errors.sh
