#!/bin/sh
# The man pages document every option `vimana --help` lists and every
# command `vimana-et --help` lists.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
MAN="$VIMANA_SRCDIR/docs/man"
# The page's text without roff's escapes (\- is a hyphen, \fB a font change).
page_text() { sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$1"; }

page_text "$MAN/vimana.1" >"$TEST_TMP/vimana.txt"
"$VIMANA" --help >"$TEST_TMP/help"
options=$(grep -o -- '--[a-z][a-z0-9-]*' "$TEST_TMP/help" | sort -u)
[ -n "$options" ] || fail "vimana --help lists no option"
for opt in $options; do
    grep -qE -- "$opt([^a-z0-9-]|\$)" "$TEST_TMP/vimana.txt" || fail "docs/man/vimana.1 does not document $opt"
done

page_text "$MAN/vimana-et.1" >"$TEST_TMP/vimana-et.txt"
"$VIMANA_ET" --help >"$TEST_TMP/help"
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$TEST_TMP/help")
[ -n "$commands" ] || fail "vimana-et --help lists no command"
for cmd in $commands; do
    grep -qx "\.SS $cmd" "$TEST_TMP/vimana-et.txt" || fail "docs/man/vimana-et.1 has no section for $cmd"
done
finish
