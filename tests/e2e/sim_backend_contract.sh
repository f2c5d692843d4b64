#!/bin/sh
# A backend that breaks the network API contract stops the run with one line
# naming the backend and the violation, never a crash or wrong cycles. The
# modules (tests/backends/misbehave.c) move a message between two NPUs in
# 1000 ticks; the workload sends 1 MiB from NPU 0 to NPU 1.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
run() { # MODULE
    "$VIMANA" --workload-configuration="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2" \
        --system-configuration="$G/system/ring.json" --network-configuration="$G/network/ring2.yml" \
        --network-backend="$VIMANA_BUILDDIR/tests/backends/$1.la"
}
only_line() { # WHAT: stderr holds exactly one line
    expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "$1: lines on stderr"
}

expect_error "vimana: error: network backend bad_twice broke the network API contract: delivered a message twice (token 0)" run bad_twice
only_line twice
expect_error "vimana: error: network backend bad_unknown broke the network API contract: delivered an unknown message (token 1099511627776)" run bad_unknown
only_line unknown
expect_error "vimana: error: network backend bad_backwards broke the network API contract: time went backwards (now() returned 0 after 1000)" run bad_backwards
only_line backwards
expect_error "vimana: error: network backend bad_in_send broke the network API contract: called host->delivered from inside sim_send (deliver from a scheduled event instead) (token 0)" run bad_in_send
only_line in_send
# A backend that accepts the message and never delivers it: its run()
# returns with the message still in the network. The run ends at once with
# the network named as the cause, not as a workload deadlock.
expect_error "vimana: error: stalled: 1 message pending at t = 0: network backend bad_never returned without delivering it (a link that never transmits, an unreachable NPU, or a backend that drops messages)" run bad_never
only_line never
finish
