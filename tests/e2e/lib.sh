# Shared helpers for the end-to-end shell tests. Source it first:
#   . "$VIMANA_SRCDIR/tests/e2e/lib.sh"
# The test harness exports VIMANA_BUILDDIR, VIMANA_SRCDIR, VIMANA_SHARED and
# VIMANA_BACKEND_PATH (see Makefile.am).
set -u

: "${VIMANA_BUILDDIR:=$(pwd)}"
: "${VIMANA_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${VIMANA_SHARED:=$VIMANA_SRCDIR/../shared}"
VIMANA_ET="$VIMANA_BUILDDIR/vimana-et"
VIMANA="$VIMANA_BUILDDIR/vimana"

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/vimana-test.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT
TEST_FAILURES=0

fail() {
    echo "FAIL: $*" >&2
    TEST_FAILURES=$((TEST_FAILURES + 1))
}

# Ends the test: 1 if any check failed, else 0.
finish() {
    if [ "$TEST_FAILURES" -ne 0 ]; then
        echo "$TEST_FAILURES check(s) failed" >&2
        exit 1
    fi
    exit 0
}

# Skips the whole test (automake reports SKIP) unless ../shared is present.
require_shared() {
    [ -d "$VIMANA_SHARED/golden" ] || { echo "SKIP: $VIMANA_SHARED not present"; exit 77; }
}

expect_eq() { # ACTUAL EXPECTED WHAT
    [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# expect_error "exact stderr line" CMD ARGS...: the command must exit non-zero
# and print exactly that line (among possibly others) on stderr.
expect_error() {
    want=$1
    shift
    if "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
        fail "expected failure from: $*"
        return
    fi
    grep -qxF -- "$want" "$TEST_TMP/err" || {
        fail "stderr of '$*' lacks the line: $want"
        sed 's/^/    got: /' "$TEST_TMP/err" >&2
    }
}

# expect_ok CMD ARGS...: the command must succeed; its stdout is left in
# $TEST_TMP/out.
expect_ok() {
    "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || {
        fail "command failed: $*"
        sed 's/^/    stderr: /' "$TEST_TMP/err" >&2
    }
}
