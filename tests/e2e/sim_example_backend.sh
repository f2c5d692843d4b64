#!/bin/sh
# A backend built only against the public ABI loads by path and, being a
# one-hop network, gives the FullyConnected golden numbers.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
require_shared
G="$VIMANA_SHARED/golden/inputs"
module="$VIMANA_BUILDDIR/examples/backends/fixed_latency/fixed_latency.la"
run() { # workload system expected
    expect_ok "$VIMANA" --workload-configuration="$G/workload/$1" --system-configuration="$G/system/$2" \
        --network-configuration="$VIMANA_SRCDIR/examples/backends/fixed_latency/net8.conf" \
        --network-backend="$module"
    got=$(grep -c "finished, $3 cycles" "$TEST_TMP/out")
    expect_eq "$got" 8 "$1 with $2 on fixed_latency"
}
run rs_1MiB_8/rs_1MiB_8 ring.json 86420        # golden fc8-ring-rs
run a2a_1MiB_8/a2a_1MiB_8 direct.json 4520     # golden fc8-direct-a2a
run ar_1MiB_8/ar_1MiB_8 halvingDoubling.json 70028  # golden fc8-hd-ar
echo "npus = 8" > "$TEST_TMP/bad.conf"
echo "speed = 3" >> "$TEST_TMP/bad.conf"
expect_error "vimana: error: $TEST_TMP/bad.conf:2: unknown key 'speed' (expected npus, latency_ns, bandwidth_gbps)" \
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" --system-configuration="$G/system/ring.json" \
    --network-configuration="$TEST_TMP/bad.conf" --network-backend="$module"
finish
