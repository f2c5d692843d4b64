#!/bin/sh
# A backend that breaks the network API contract stops the run with one line
# naming the backend and the violation, never a crash or wrong cycles. The
# modules (tests/backends/misbehave.c) move a message between two NPUs in
# 1000 ticks; the workload sends 1 MiB from NPU 0 to NPU 1.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G=$GOLDEN_INPUTS
B="$VIMANA_BUILDDIR/tests/backends"
W="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2"
run() { # MODULE [OPTION...]
    m=$1
    shift
    sim_golden "$W" ring.json ring2.yml --network-backend="$B/$m.la" "$@"
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

# What `vimana backend-check` refuses, the simulator refuses too, in one
# line naming the module (issue 29 §5; each of these ran, or read past a
# buffer, or wrapped a count before). At load: a descriptor without a name,
# an init() error text without its NUL, dimensions whose product wraps to
# 4 NPUs in 64 bits.
expect_error "vimana: error: $B/.libs/bad_null_name.so: backend descriptor: name is NULL (the host names the backend by it)" \
    run bad_null_name
only_line null_name
expect_error "vimana: error: $B/.libs/bad_init_no_nul.so: backend 'bad_init_no_nul': init() returned status 1: its error message has no terminating NUL within the 1024 bytes it was given" \
    run bad_init_no_nul
only_line init_no_nul
expect_error "vimana: error: $B/.libs/bad_dims_wrap.so: backend 'bad_dims_wrap': the dimensions multiply to more than 2147483647 NPUs (network $G/network/ring2.yml)" \
    run bad_dims_wrap
only_line dims_wrap
# During the run: num_links() of 2^32 - 1 on 2 NPUs (--report would call
# link_stats() four billion times), log(NULL), and events run a tick
# early (their NPU's compute then never ran: the workload has compute).
expect_error "vimana: error: network backend bad_many_links broke the network API contract: num_links() returned 4294967295 for a network of 2 NPUs (at most 16777216 links are possible)" \
    run bad_many_links --report="$TEST_TMP/r.json"
only_line many_links
expect_error "vimana: error: network backend bad_log_null broke the network API contract: log() was called with a NULL message" \
    run bad_log_null
only_line log_null
W="$G/workload/mixed_p2p_ar_2/mixed_p2p_ar_2"
expect_error "vimana: error: network backend bad_early broke the network API contract: an event due at tick 3000 ran at tick 2999, before its time" \
    run bad_early
only_line early
# --jobs loads and reads a backend the same way.
cp "$VIMANA_SRCDIR/inputs/network/switch8.yml" "$VIMANA_SRCDIR/inputs/system/ring.json" "$TEST_TMP/"
cp "$VIMANA_SRCDIR/inputs/jobs/workloads/ar_1MiB_4".*.et "$TEST_TMP/"
for m in null_name dims_wrap; do
    printf 'network: switch8.yml\nbackend: %s\njobs:\n  - name: a\n    workload: ar_1MiB_4\n    system: ring.json\n    dims: [4]\n    placement: contiguous\n' \
        "$B/bad_$m.la" >"$TEST_TMP/j.yaml"
    (cd "$TEST_TMP" && "$VIMANA" --jobs j.yaml) >"$TEST_TMP/out" 2>"$TEST_TMP/err" && fail "--jobs ran bad_$m"
    only_line "jobs $m"
done
expect_eq "$(cat "$TEST_TMP/err")" "vimana: error: $B/.libs/bad_dims_wrap.so: backend 'bad_dims_wrap': the dimensions multiply to more than 2147483647 NPUs (network switch8.yml)" \
    "--jobs: dims_wrap"
# A run() that never returns and never calls back: only a watchdog outside
# the run can stop it (--time-limit); the exit status is timeout(1)'s.
run bad_hang --time-limit=1 >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$?" 124 "--time-limit: exit status"
expect_eq "$(cat "$TEST_TMP/err")" "vimana: error: --time-limit=1: the run did not end within 1 s (network backend '$B/bad_hang.la'); stopped it" \
    "--time-limit: the line"
# Within the limit, the run's output and status are its own.
sim_golden "$W" ring.json ring2.yml >"$TEST_TMP/plain" 2>&1
sim_golden "$W" ring.json ring2.yml --time-limit=60 >"$TEST_TMP/limited" 2>&1
expect_eq "$?" 0 "--time-limit=60: exit status"
expect_eq "$(cat "$TEST_TMP/limited")" "$(cat "$TEST_TMP/plain")" "--time-limit=60: output"
run bad_twice --time-limit=60 >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$?" 1 "--time-limit: a failing run's status"
expect_eq "$(cat "$TEST_TMP/err")" "vimana: error: network backend bad_twice broke the network API contract: delivered a message twice (token 0)" \
    "--time-limit: a failing run's line"
expect_error "vimana: --time-limit: expected a positive integer, got '0'" run bad_hang --time-limit=0
finish
