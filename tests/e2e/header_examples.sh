#!/bin/sh
# Every example in the public headers (core/include/vimana, installed as
# include/vimana) compiles: scripts/header-examples extracts each ```c
# block of a header comment and compiles it alone against these headers,
# and refuses an example left outside such a block. scripts/test-install
# runs it again on the installed headers with the installed SDK's flags.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
inc="$VIMANA_SRCDIR/core/include"
expect_ok "$VIMANA_SRCDIR/scripts/header-examples" "$inc/vimana" -I"$inc"
# The two headers with examples today: the ABI's and the toolkit's.
for h in network_api backend_toolkit; do
    grep -qxF "header-examples: $inc/vimana/$h.h: example 1 compiles" "$TEST_TMP/out" ||
        fail "$h.h: its example was not compiled: $(cat "$TEST_TMP/out")"
done
finish
