#!/bin/sh
# ./configure prints nothing on stderr about our core/ folder: autoconf's
# clean-up `rm -f core ...` printed "rm: cannot remove 'core': Is a
# directory" about 50 times (issue 29 §4); autogen.sh drops the word.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
conf=$VIMANA_SRCDIR/configure
[ -f "$conf" ] || { echo "no configure script (run ./autogen.sh)"; exit 77; }
n=$(grep -c 'rm -f core ' "$conf" || true)
expect_eq "$n" 0 "'rm -f core ' lines in configure"
# What each of those did in a tree with a core/ folder: rm complains.
mkdir -p "$TEST_TMP/core"
(cd "$TEST_TMP" && rm -f core conftest.err 2>"$TEST_TMP/rm.err") || true
grep -q "Is a directory" "$TEST_TMP/rm.err" || fail "rm -f on a folder should complain (the case the edit avoids)"
finish
