#!/bin/sh
# vimana-et link on the upstream pairs of the corpus. Neither links (their
# Kineto traces predate record-function ids): by default that is an error;
# with --allow-unlinked the output is byte for byte chakra_trace_link's.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

C="$REF/corpus"
P="$C/pytorch"
T="$TEST_TMP"

DLRM=$(ref_file corpus/pytorch/param/dlrm_eg_0.json)
DLRM_K=$(ref_file corpus/pytorch/param/worker0_step_12.1694128201545.pt.trace.json)
expect_error "vimana-et link: $DLRM: host trace schema '1.0.1' is the old flat layout ('parent' instead of 'ctrl_deps', no attrs): it cannot be linked and the converter rejects it (chakra #198); re-record it with PyTorch >= 2.1, or pass --allow-unlinked to renumber it the way chakra_trace_link does" \
    "$VIMANA_ET" link --rank 0 --chakra-host-trace "$DLRM" --chakra-device-trace "$DLRM_K" --output-file "$T/dlrm.json"
expect_ok "$VIMANA_ET" link --rank 0 --chakra-host-trace "$DLRM" --chakra-device-trace "$DLRM_K" \
    --output-file "$T/dlrm.json" --allow-unlinked
gzip -dc "$C/expected/pytorch/dlrm_eg_0/dlrm_eg_0.trace_link.json.gz" | cmp -s - "$T/dlrm.json" ||
    fail "dlrm_eg_0: --allow-unlinked output differs from chakra_trace_link's"
grep -qxF "vimana-et link: warning: $DLRM_K: no 'Record function id' in any cpu_op event: nothing is linked (--allow-unlinked)" \
    "$T/err" || fail "dlrm_eg_0: missing warning"

# The same Kineto trace with a current host trace: nothing can link.
expect_error "vimana-et link: $DLRM_K: no 'Record function id' in any cpu_op event: this Kineto trace cannot be linked (PyTorch too old?)" \
    "$VIMANA_ET" link --host-trace "$(ref_file corpus/pytorch/micro2024-demo4/host_0.json)" --device-trace "$DLRM_K" --output "$T/h0.json"

# HTA's pair: chakra_trace_link crashes (no ProfilerStep, chakra #162).
HTA="$P/hta/benchmark_simple_add_et.json.gz"
HTA_K="$P/hta/benchmark_simple_add_trace.json.gz"
expect_ok "$VIMANA_ET" link --rank 0 --host-trace "$HTA" --device-trace "$HTA_K" --output "$T/hta.json" --allow-unlinked
grep -qxF "vimana-et link: warning: $HTA_K: no ProfilerStep annotation (chakra_trace_link stops here, chakra #162); the whole trace is linked" \
    "$T/err" || fail "benchmark_simple_add: missing ProfilerStep warning"
expect_eq "$(grep -c '^        {$' "$T/hta.json")" 38 "benchmark_simple_add: nodes written"

finish
