#!/bin/sh
# The ABI rule of network_api.h, source side: plugin sources written
# against older headers compile unchanged against today's and run.
# tests/data/abi/backend_1_0.c is a 1.0-era plugin (its versioned names
# mixed with the typedefs, as the 1.0 header allowed): it compiles against
# the 1.0 header itself (tests/data/abi/1.0) and against today's, and the
# module today's header builds runs the tutorial all-reduce (117780 cycles,
# its one-hop model). Rebuilt with VIMANA_BACKEND_HEADER_INIT it declares
# today's minor, so the report gives the link counters it does not fill as
# 0; pinned with VIMANA_BACKEND_HEADER_INIT_MINOR(0) it is a 1.0 backend,
# and the host reports them as unknown. tests/data/abi/names_1_4.c holds
# the versioned names of the 1.2 to 1.4 headers.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
A="$VIMANA_SRCDIR/tests/data/abi"
T="$TEST_TMP"
cc=${CC:-cc}
flags="-std=c11 -Wall -Wextra -Werror"

# shellcheck disable=SC2086
$cc $flags -fsyntax-only -I"$A/1.0" "$A/backend_1_0.c" 2>"$T/cc.err" ||
    { fail "backend_1_0.c is not a 1.0 source: it does not compile against the 1.0 header"; cat "$T/cc.err" >&2; }
# shellcheck disable=SC2086
$cc $flags -shared -fPIC -fvisibility=hidden -I"$VIMANA_SRCDIR/core/include" "$A/backend_1_0.c" \
    -o "$T/plugin_1_0.so" 2>"$T/cc.err" ||
    { fail "the 1.0-era plugin does not compile against today's network_api.h"; cat "$T/cc.err" >&2; }
sed 's/VIMANA_BACKEND_HEADER_INIT,/VIMANA_BACKEND_HEADER_INIT_MINOR(0),/' "$A/backend_1_0.c" >"$T/pinned.c"
grep -q 'HEADER_INIT_MINOR(0)' "$T/pinned.c" || fail "backend_1_0.c: no VIMANA_BACKEND_HEADER_INIT to pin"
# shellcheck disable=SC2086
$cc $flags -shared -fPIC -fvisibility=hidden -I"$VIMANA_SRCDIR/core/include" "$T/pinned.c" \
    -o "$T/pinned_1_0.so" 2>"$T/cc.err" ||
    { fail "the 1.0-era plugin pinned to minor 0 does not compile"; cat "$T/cc.err" >&2; }
# shellcheck disable=SC2086
$cc $flags -c -I"$VIMANA_SRCDIR/core/include" "$A/names_1_4.c" -o "$T/names_1_4.o" 2>"$T/cc.err" ||
    { fail "the names of the 1.2 to 1.4 headers do not compile against today's network_api.h"; cat "$T/cc.err" >&2; }

run() { # MODULE REPORT
    expect_ok "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" \
        --system-configuration="$G/system/ring.json" --network-configuration="$G/network/ring8.yml" \
        --network-backend="$1" --report="$2"
    expect_eq "$(grep -c 'finished, 117780 cycles' "$T/out")" 8 "$1: every NPU at 117780 cycles"
}
# Ring neighbours exchange 7 messages of 32 KiB per chunk, 4 chunks, twice
# (reduce-scatter, all-gather): 56 messages of 1110 ticks on link 0 -> 1.
link='"src_device": 0, "dst_device": 1, "bytes": 1835008, "messages": 56, "busy_ticks": 62160'
run "$T/plugin_1_0.so" "$T/today.json"
grep -qF "{$link, \"utilisation\": " "$T/today.json" || fail "rebuilt 1.0 plugin: no link record {$link, ...}"
grep -F "{$link," "$T/today.json" | grep -qF '"max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0}' ||
    fail "rebuilt with today's HEADER_INIT: its unfilled counters should read 0: $(grep -F "{$link," "$T/today.json")"
run "$T/pinned_1_0.so" "$T/pinned.json"
grep -F "{$link," "$T/pinned.json" | grep -qF '"max_queue_ticks": null, "queue_ticks": null, "ecn_marks": null, "pause_ticks": null}' ||
    fail "pinned to 1.0: the 1.2 and 1.5 counters should be unknown: $(grep -F "{$link," "$T/pinned.json")"
finish
