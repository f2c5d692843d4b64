#!/bin/sh
# scripts/timed-test-driver, the driver of `make check`, on tiny fake tests:
# it keeps automake's driver's result and exit status and adds the test's
# seconds to the result line, the .trs and the .log (issue 29).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
DRIVER=$VIMANA_SRCDIR/build-aux/test-driver
[ -f "$DRIVER" ] || { echo "no build-aux/test-driver (run ./autogen.sh)"; exit 77; }
printf '#!/bin/sh\nsleep 0.3\necho slept\n' >"$TEST_TMP/pass.sh"
printf '#!/bin/sh\necho broken\nexit 3\n' >"$TEST_TMP/fail.sh"

# NAME: runs the fake test NAME.sh as automake does; result line in NAME.out
run_fake() {
    (cd "$TEST_TMP" && sh "$VIMANA_SRCDIR/scripts/timed-test-driver" sh "$DRIVER" \
        --test-name "$1.sh" --log-file "$1.log" --trs-file "$1.trs" --color-tests no \
        --enable-hard-errors yes --expect-failure no -- sh "$1.sh" >"$1.out")
}
# NAME MIN: the seconds on the result line, and the same in .trs and .log
check_times() {
    secs=$(sed -n "s/^[A-Z]*: $1\\.sh (\\([0-9]*\\.[0-9]\\) s)\$/\\1/p" "$TEST_TMP/$1.out")
    [ -n "$secs" ] || { fail "$1: result line without its seconds: $(cat "$TEST_TMP/$1.out")"; return; }
    awk -v s="$secs" -v m="$2" 'BEGIN { exit !(s >= m && s < 60) }' || fail "$1: $secs s, not in [$2, 60)"
    expect_eq "$(grep '^:test-duration:' "$TEST_TMP/$1.trs")" ":test-duration: $secs" "$1.trs duration field"
    expect_eq "$(tail -n 1 "$TEST_TMP/$1.log")" "duration: $secs s" "last line of $1.log"
}

run_fake pass
expect_eq "$?" 0 "exit status of the driver on a passing test"
expect_eq "$(sed 's/ (.*//' "$TEST_TMP/pass.out")" "PASS: pass.sh" "result line of the passing test"
expect_eq "$(grep '^:test-result:' "$TEST_TMP/pass.trs")" ":test-result: PASS" "pass.trs result"
expect_eq "$(head -n 1 "$TEST_TMP/pass.log")" "slept" "the test's own output first in pass.log"
check_times pass 0.3

run_fake fail
expect_eq "$(sed 's/ (.*//' "$TEST_TMP/fail.out")" "FAIL: fail.sh" "result line of the failing test"
expect_eq "$(grep '^:test-result:' "$TEST_TMP/fail.trs")" ":test-result: FAIL" "fail.trs result"
check_times fail 0.0
finish
