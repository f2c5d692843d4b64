#!/bin/sh
# `vimana-et link` on inputs that are not trace files, and on a trace pair
# without any sync dependency (bad-inputs F3: the writer computed NULL + 0,
# undefined behaviour that clang's UBSan reports, on every such pair).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/trace_link"
H="$DATA/simple_host.json"
K="$DATA/simple_kineto.json"
T="$TEST_TMP"
limit() { if command -v timeout >/dev/null; then timeout 20 "$@"; else "$@"; fi; }

for bad in /dev/zero "$DATA"; do
    case $bad in
    /dev/zero) why="not a regular file (character device)" ;;
    *) why="is a directory, expected a file" ;;
    esac
    expect_error "vimana-et link: $bad: $why" limit "$VIMANA_ET" link --host-trace "$bad" --device-trace "$K" --output "$T/o.json"
    expect_error "vimana-et link: $bad: $why" limit "$VIMANA_ET" link --host-trace "$H" --device-trace "$bad" --output "$T/o.json"
    [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$bad: more than one line on stderr"
    [ -e "$T/o.json" ] && fail "$bad: output written"
done

# F3: the PARAM pt2 host trace (20 nodes, 18 with an rf_id) and a Kineto
# trace with one cpu_op per rf_id, each [100*i + 10, +50] us, launching one
# 30 us kernel; nothing nests and nothing synchronises.
# - The two ProfilerStep ops (rf_id 1 and 10) are not Kineto CPU ops for the
#   reference: 16 host ops link, each with inclusive = exclusive = 50.
# - 18 kernels follow their launchers: 20 + 18 = 38 nodes.
# - No sync edge: no "sync_dep" at all.
F3="$VIMANA_SRCDIR/tests/data/bad-inputs/F3-link-null-offset"
expect_ok "$VIMANA_ET" link --host-trace "$F3/pt2_et.json" --device-trace "$F3/pt2_kineto.json" --output "$T/f3.json" \
    --log-level INFO
expect_eq "$(cat "$T/err")" "vimana-et link: $T/f3.json: 38 nodes: 16 of the 20 host nodes under the root linked, 18 GPU ops attached (0 left out), 0 sync_dep entries" \
    "F3: summary"
expect_eq "$(grep -c '"exclusive_dur": 50,' "$T/f3.json")" 16 "F3: linked host ops"
expect_eq "$(grep -c '"inclusive_dur": 50,' "$T/f3.json")" 16 "F3: linked host ops (inclusive)"
expect_eq "$(grep -c '"cat": "kernel"' "$T/f3.json")" 18 "F3: kernels"
expect_eq "$(grep -c '"exclusive_dur": 30,' "$T/f3.json")" 18 "F3: kernel durations"
expect_eq "$(grep -c '"sync_dep"' "$T/f3.json")" 0 "F3: sync_dep entries"
# the output is an ET+ that converts
expect_ok "$VIMANA_ET" convert pytorch --input "$T/f3.json" --output "$T/f3.et"
expect_ok "$VIMANA_ET" validate "$T/f3.et"

finish
