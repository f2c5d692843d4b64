#!/bin/sh
# The backend template (examples/backend-template), built from the public
# headers and the toolkit only, loads by path. It charges latency + size /
# bandwidth for every message, one hop whatever the topology: on the
# FullyConnected golden networks it gives the golden numbers, and on a
# Switch it gives what a one-hop network gives (the tutorial ring figure),
# not the analytical backend's two hops.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$VIMANA_SRCDIR/examples/backend-template"
module="$VIMANA_BUILDDIR/tests/backends/template.la"
run() { # workload system network expected
    expect_ok "$VIMANA" --workload-configuration="$G/workload/$1" --system-configuration="$2" \
        --network-configuration="$3" --network-backend="$module"
    got=$(grep -c "finished, $4 cycles" "$TEST_TMP/out")
    expect_eq "$got" 8 "$1 with $2 on $3 with the template"
}
run rs_1MiB_8/rs_1MiB_8 "$G/system/ring.json" "$G/network/fc8.yml" 86420        # golden fc8-ring-rs
run a2a_1MiB_8/a2a_1MiB_8 "$G/system/direct.json" "$G/network/fc8.yml" 4520     # golden fc8-direct-a2a
run ar_1MiB_8/ar_1MiB_8 "$G/system/halvingDoubling.json" "$G/network/fc8.yml" 70028  # golden fc8-hd-ar
# The template's own files: the tutorial all-reduce (spec section 15: one
# hop of 32768 bytes = trunc(500 + 610.35) = 1110 ns) -> 117780.
run ar_1MiB_8/ar_1MiB_8 "$T/system.json" "$T/network.yml" 117780
# On Switch 8 the analytical backend charges two hops (golden sw8 cases);
# the template still charges one, so the tutorial figure again.
run ar_1MiB_8/ar_1MiB_8 "$T/system.json" "$G/network/switch8.yml" 117780

# Errors: the toolkit's YAML reader, and the template's one-dimension rule.
printf 'topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\n' >"$TEST_TMP/nolat.yml"
expect_error "vimana: error: $TEST_TMP/nolat.yml: missing key 'latency'" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/system.json" \
    --network-configuration="$TEST_TMP/nolat.yml" --network-backend="$module"
printf 'topology: [ Ring, Ring ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >"$TEST_TMP/2d.yml"
expect_error "vimana: error: $TEST_TMP/2d.yml: the template backend models one dimension; this network has 2" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$T/system.json" \
    --network-configuration="$TEST_TMP/2d.yml" --network-backend="$module"
finish
