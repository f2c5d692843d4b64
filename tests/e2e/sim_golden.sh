#!/bin/sh
# Every public golden case: per-NPU finish and exposed-communication cycles
# must equal the reference simulator's exactly, on both analytical backends.
# The cases are tests/data/golden/cases (a copy of ../shared/golden/cases);
# with ../shared present, its cases run too (those it has beyond ours).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
set -- "$VIMANA_DATA"/golden/cases/*.case
if have_shared; then
    for c in "$VIMANA_SHARED"/golden/cases/*.case; do
        [ -e "$VIMANA_DATA/golden/cases/${c##*/}" ] || set -- "$@" "$c"
    done
fi
[ "$#" -ge 76 ] || fail "only $# golden cases found"
sh "$VIMANA_SRCDIR/tests/e2e/run_golden_cases.sh" --timeout 300 "$VIMANA" "$@" >"$TEST_TMP/golden.txt" 2>&1
status=$?
grep -v '^PASS' "$TEST_TMP/golden.txt"
tail -n 1 "$TEST_TMP/golden.txt"
[ "$status" -eq 0 ] || fail "golden cases failed"
finish
