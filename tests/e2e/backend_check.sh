#!/bin/sh
# `vimana backend-check`: every backend we ship passes; each deliberately
# broken module (tests/backends/misbehave.c, test_backend.c) fails with the
# line naming its fault, on stderr, and the summary counts it; usage errors
# are one line with status 2. The misbehaving modules are two-NPU networks
# where every message takes 1000 ticks, so they get a two-NPU configuration.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
B="$VIMANA_BUILDDIR/tests/backends"
P="vimana backend-check"
RING2="$TEST_TMP/ring2.yml"
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$RING2"
# The built-in configurations are temporary files: none may be left behind.
mkdir "$TEST_TMP/tmp"
TMPDIR="$TEST_TMP/tmp"
export TMPDIR

check() { "$VIMANA" backend-check "$@"; }

# passes NAME ARGS...: success, nothing on stderr, "NAME 1.x: N checks passed".
passes() {
    name=$1
    shift
    expect_ok check "$@"
    grep -qxE "$P: $name 1\.[0-9]+: [0-9]+ checks passed" "$TEST_TMP/out" ||
        fail "backend-check $*: summary is '$(cat "$TEST_TMP/out")'"
    expect_eq "$(cat "$TEST_TMP/err")" "" "backend-check $*: stderr"
}

# summary_is LINE: the last command's stdout is that one line.
summary_is() {
    expect_eq "$(cat "$TEST_TMP/out")" "$1" "summary"
}

# only_check CHECK: every line on stderr is a FAIL line of that check.
only_check() {
    others=$(grep -cvF "$P: FAIL: $1: " "$TEST_TMP/err")
    expect_eq "$others" 0 "lines on stderr other than '$1' violations"
}

# fails_on_ring2 NAME LINE: the module NAME, checked on the two-NPU ring,
# fails with the line "$P: FAIL: LINE" on stderr.
fails_on_ring2() {
    expect_error "$P: FAIL: $2" check "$B/$1.la" --network-configuration="$RING2"
}

# misbehaves NAME CHECK SUMMARY LINE: the broken module NAME fails on the
# two-NPU ring with the line "$P: FAIL: LINE" on stderr (all of them
# violations of CHECK, unless CHECK is empty), and "NAME 1.5: SUMMARY".
misbehaves() {
    fails_on_ring2 "$1" "$4"
    [ -z "$2" ] || only_check "$2"
    summary_is "$P: $1 1.5: $3"
}

# Every backend we ship, by name (as --network-backend finds them) and by path.
passes analytical analytical
passes analytical congestion_unaware
passes congestion_aware congestion_aware
passes analytical "$VIMANA_BUILDDIR/backends/analytical/analytical.la"
# The backend template of examples/backend-template (built for the tests
# into tests/backends, see tests/sim.mk).
passes template "$VIMANA_BUILDDIR/tests/backends/template.la"
# A MULTI_DIM backend is also run on the built-in 2-D network; others are not.
expect_ok check analytical
n_analytical=$(sed -n 's/.*: \([0-9]*\) checks passed/\1/p' "$TEST_TMP/out")
expect_ok check analytical --network-configuration="$RING2"
n_one_network=$(sed -n 's/.*: \([0-9]*\) checks passed/\1/p' "$TEST_TMP/out")
[ "$n_analytical" -gt "$n_one_network" ] || fail "the 2-D network adds no check ($n_analytical vs $n_one_network)"
expect_eq "$(ls "$TMPDIR")" "" "temporary configurations left behind"

# A backend whose init refuses the network: the check names the file and
# gives the backend's reason (here the YAML reader's, bandwidth 0).
B0="$TEST_TMP/bw0.yml"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 0 ]\nlatency: [ 500, 500 ]\n' >"$B0"
expect_error "$P: FAIL: init: init() returned status 1 for $B0: $B0: bandwidth (0) should be larger than 0" \
    check congestion_aware --network-configuration="$B0"
summary_is "$P: congestion_aware 1.5: 1 of 3 checks failed"
# congestion_aware models several dimensions: a 2-D Ring x Switch passes.
R2="$TEST_TMP/r2.yml"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >"$R2"
expect_ok check congestion_aware --network-configuration="$R2"
summary_is "$P: congestion_aware 1.5: 14 checks passed"
expect_error "$P: FAIL: init: init() returned status 1 for $TEST_TMP/none.yml: $TEST_TMP/none.yml: cannot open: No such file or directory" \
    check analytical --network-configuration="$TEST_TMP/none.yml"

# Wrong ABI major: refused by the loader, with its message.
expect_error "$P: FAIL: load: $B/.libs/abi_wrong_major.so: backend ABI 2.0 is not compatible with this vimana (ABI 1.5): major versions differ; rebuild the backend against this vimana's network_api.h" \
    check "$B/abi_wrong_major.la"
summary_is "$P: $B/abi_wrong_major.la: 1 of 1 checks failed"

# Delivers every message twice.
misbehaves bad_twice delivery "1 of 10 checks failed" "delivery: token 0x564d000000000005 (NPU 0 -> 1, 3 bytes, sent at tick 0) delivered twice (at tick 1000 and 1000)"

# Never delivers.
misbehaves bad_never stall "1 of 10 checks failed" "stall: never delivered: token 0x564d000000000005 (NPU 0 -> 1, 3 bytes, sent at tick 0)"

# Time going backwards.
misbehaves bad_backwards '' "3 of 10 checks failed" "clock: now() returned 0 after 1000 (time went backwards)"

# Delivers from inside sim_send (and again later, from its event).
misbehaves bad_in_send delivery "1 of 10 checks failed" "delivery: token 0x564d000000000005 (NPU 0 -> 1, 3 bytes, sent at tick 0) delivered from inside sim_send() (deliver from a scheduled event instead)"

# Changes the token: unknown deliveries, and the real ones never arrive.
fails_on_ring2 bad_unknown "delivery: delivered an unknown token 0x564d010000000005 at tick 1000 (the token must come back unchanged)"
grep -qxF "$P: FAIL: stall: never delivered: token 0x564d000000000005 (NPU 0 -> 1, 3 bytes, sent at tick 0)" "$TEST_TMP/err" ||
    fail "bad_unknown: no stall line"
summary_is "$P: bad_unknown 1.5: 2 of 10 checks failed"

# Delivers for ever and has no stop(): the check gives its verdict and ends.
misbehaves bad_storm '' "2 of 10 checks failed" "run: more than 1000000 events and deliveries in one run() (an event storm: run() would not return)"

# stop() that lets the rest of the tick run.
misbehaves bad_late_stop stop "1 of 11 checks failed" "stop: 3 events ran after stop() was called at tick 10 (run() must return once the event in progress has finished)"

# Runs a zero-delay event at once, inside schedule().
misbehaves bad_inline_zero schedule "1 of 10 checks failed" "schedule: event #2 (delay 0) ran inside schedule() (an event runs from run(), after the events queued before it for its tick)"

# A faulty descriptor: one line per fault; no name, so the summary names the file.
check "$B/bad_descriptor.la" --network-configuration="$RING2" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
    fail "bad_descriptor passed"
cat >"$TEST_TMP/want" <<EOT
$P: FAIL: descriptor: name is NULL
$P: FAIL: descriptor: capabilities has unknown bits 0x80
$P: FAIL: descriptor: stop is set in an ABI 1.0 descriptor (stop is since 1.1: declare abi_minor 1, e.g. with VIMANA_BACKEND_HEADER_INIT)
$P: FAIL: descriptor: device_name is set in an ABI 1.0 descriptor (device_name is since 1.2: declare abi_minor 2, e.g. with VIMANA_BACKEND_HEADER_INIT)
$P: FAIL: descriptor: reserved[2] is not zero (reserved slots must stay NULL)
EOT
cmp -s "$TEST_TMP/want" "$TEST_TMP/err" || fail "bad_descriptor: stderr is: $(cat "$TEST_TMP/err")"
summary_is "$P: $B/bad_descriptor.la 1.0: 1 of 10 checks failed"

# ABI 1.2 (tests/backends/host11.c with link statistics, two NPUs by
# default): device_name() is checked on both ends of every link, as one
# more check ("device-name"; 14 where a 1.1 backend with link statistics has 13).
passes host12_ok "$B/host12_ok.la" --network-configuration="$RING2"
summary_is "$P: host12_ok 1.2: 14 checks passed"
# A name with a newline: reported once (the first link that names the switch).
fails_on_ring2 host12_bad_name "device-name: device_name(2) returned a name with byte 0x0a at offset 2 (names are printable ASCII) (the dst_device of link 0)"
summary_is "$P: host12_bad_name 1.2: 1 of 14 checks failed"
# Waits that do not add up: the longest is more than the total (no names:
# no device-name check, 13 checks).
fails_on_ring2 host12_bad_queue "link-stats: link_stats(0): max_queue_ticks 400 is more than queue_ticks 0 (the longest wait is part of the total)"
only_check link-stats
summary_is "$P: host12_bad_queue 1.2: 1 of 13 checks failed"
# Faster than physics: 1 MiB (and 1 GiB) in 1000 ticks on links of 100 GB/s
# (107.4 bytes/ns): a delivery's lower bound is its bytes over every link
# of its source (a backend delivering everything at once passed before).
expect_error "$P: FAIL: delivery: token 0x564d00000000000c (NPU 1 -> 0, 1048576 bytes, sent at tick 123456789) \
arrived 1000 ticks after it was sent, faster than its source's links allow: at least 9765 ticks (1048576 bytes over \
107.4 bytes/ns, every link of the NPU at its dim_bandwidth)" \
    check "$B/host12_too_fast.la" --network-configuration="$RING2"
summary_is "$P: host12_too_fast 1.2: 1 of 13 checks failed"
# A slow backend (2 ms of CPU a MiB) gets smaller messages: its timed
# 1 MiB says 1 GiB ones would take it far past a second; a note says how
# large they are, and every check still passes.
expect_ok check "$B/host12_slow.la" --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" \
    --backend-options=npus=8
summary_is "$P: host12_slow 1.2: 13 checks passed"
grep -qxE "$P: note: delivery: one 1 MiB message took [0-9]+\.[0-9][0-9] ms of CPU and one of [0-9]+ MiB [0-9]+\.[0-9][0-9] ms, \
so its largest messages are \
(1|2|4|8|16|32|64|128|256|512) MiB, not 1 GiB \(--full for 1 GiB\)" "$TEST_TMP/err" ||
    fail "slow backend: no note: $(cat "$TEST_TMP/err")"
# A backend whose cost is per message, not per byte (2 ms each, as a
# sanitized message-level model on a slow machine): 4 MiB costs what 1 MiB
# does, so 1 GiB messages stay and no note is printed (CI once cut
# congestion_aware to 128 MiB from its 1 MiB probe alone).
passes host12_slow_fixed "$B/host12_slow_fixed.la" --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" \
    --backend-options=npus=8
# ABI 1.5's options table: --options lists it (columns as wide as their
# texts) and runs no check; a backend without one says so; a key twice and
# a table in a 1.4 descriptor are descriptor failures; a slow backend's note
# names the options with a faster value.
expect_ok check "$B/host15_options.la" --options
expect_eq "$(cat "$TEST_TMP/out")" "$P: host15_options 1.5: 2 options (--backend-options=KEY=VALUE,...)
key    values     default  what it changes
npus   2 to 1024  2        NPUs of the one-switch network (faster: 2)
count  a path     none     where fini() writes its counts" "--options"
expect_ok check analytical --options
expect_eq "$(cat "$TEST_TMP/out")" "$P: analytical 1.5 lists no options" "--options without a table"
expect_ok check "$B/host11_ok.la" --options
expect_eq "$(cat "$TEST_TMP/out")" "$P: host11_ok 1.1 lists no options (the options table is since ABI 1.5)" \
    "--options on a 1.1 backend"
fails_on_ring2 host15_bad_options "descriptor: options[1]: key 'npus' is also options[0]"
fails_on_ring2 host14_options "descriptor: options is set in an ABI 1.4 descriptor (options is since 1.5: declare abi_minor 5, e.g. with VIMANA_BACKEND_HEADER_INIT)"
# A 1.1 descriptor that fills the 1.2 slot: the host would ignore it.
fails_on_ring2 host11_links "descriptor: device_name is set in an ABI 1.1 descriptor (device_name is since 1.2: declare abi_minor 2, e.g. with VIMANA_BACKEND_HEADER_INIT)"
summary_is "$P: host11_links 1.1: 1 of 13 checks failed"

# The faults the simulator refuses with the same checks (core/host/backend_validate.h;
# tests/e2e/sim_backend_contract.sh runs vimana on the same modules; issue 29 §5).
fails_on_ring2 bad_null_name "descriptor: name is NULL"
only_check descriptor
fails_on_ring2 bad_init_no_nul "init: init() returned status 1 for $RING2: its error message has no terminating NUL within the 1024 bytes it was given"
misbehaves bad_dims_wrap '' "1 of 4 checks failed" "topology: the dimensions multiply to more than 2147483647 NPUs"
fails_on_ring2 bad_many_links "link-stats: num_links() returned 4294967295 for a network of 2 NPUs (at most 16777216 links are possible)"
fails_on_ring2 bad_early "schedule: event #6, scheduled at tick 0 for tick 1, ran at tick 0"
fails_on_ring2 bad_log_null "run: host->log() was called with a NULL message"
# A run() that never returns and never calls back: the watchdog (--timeout)
# ends the check with one line instead of hanging.
expect_error "$P: FAIL: watchdog: $B/bad_hang.la did not finish its checks within 1 s (a run() or another call that never returns); stopped it" \
    check "$B/bad_hang.la" --network-configuration="$RING2" --timeout=1
expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "hang: lines on stderr"
summary_is "$P: $B/bad_hang.la: stopped after 1 s"
expect_error "$P: error: --timeout: expected whole seconds from 1 to 86400, got '0'" check analytical --timeout=0
expect_error "$P: error: --timeout: expected whole seconds from 1 to 86400, got '1e3'" check analytical --timeout=1e3
expect_error "$P: error: --timeout: expected whole seconds from 1 to 86400, got '99999999999999999999'" \
    check analytical --timeout=99999999999999999999

# The misbehaving modules ignore the configuration: on the built-in 8-NPU ring it shows.
expect_error "$P: FAIL: topology: dim_size(0) returned 2, the configuration has 8 NPUs in that dimension" \
    check "$B/bad_never.la"

# Usage.
expect_error "$P: error: no backend given (usage: vimana backend-check PLUGIN [--network-configuration=FILE] [--backend-options=...])" check
check >/dev/null 2>&1
expect_eq "$?" 2 "status without a backend"
expect_error "$P: error: unknown option '--speed=3' (see vimana backend-check --help)" check analytical --speed=3
expect_error "$P: error: --network-configuration needs a file (--network-configuration=FILE)" check analytical --network-configuration=
expect_error "$P: error: more than one backend given (one PLUGIN per run)" check analytical congestion_aware
expect_ok check --help
grep -q "^Usage: vimana backend-check PLUGIN" "$TEST_TMP/out" || fail "backend-check --help shows no usage"
# The man page documents every option of `vimana backend-check --help`.
help_in_man "BACKEND CHECK" backend-check
expect_ok "$VIMANA" --help
grep -q "vimana backend-check PLUGIN" "$TEST_TMP/out" || fail "vimana --help does not mention backend-check"
finish
