#!/bin/sh
# Every public golden case: per-NPU finish and exposed-communication cycles
# must equal the reference simulator's exactly, on both analytical backends.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
require_shared
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed by run-cases"; exit 77; }
"$VIMANA_SHARED/golden/run-cases" --sim "$VIMANA" --jobs 2 --timeout 300 "$VIMANA_SHARED/golden/cases" \
    >"$TEST_TMP/golden.txt" 2>&1
status=$?
grep -v '^PASS' "$TEST_TMP/golden.txt"
tail -n 1 "$TEST_TMP/golden.txt"
[ "$status" -eq 0 ] || fail "golden cases failed"
finish
