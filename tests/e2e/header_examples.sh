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
# The check fails where it should: the example main's header carried (a
# struct tag that does not exist), and an example outside a fence.
mkdir -p "$TEST_TMP/inc/vimana"
cp "$inc/vimana/"*.h "$TEST_TMP/inc/vimana/"
sed 's/static const vimana_backend my_backend/static const struct vimana_backend my_backend/' \
    "$inc/vimana/network_api.h" >"$TEST_TMP/inc/vimana/network_api.h"
expect_error "header-examples: $TEST_TMP/inc/vimana/network_api.h: example 1 does not compile:" \
    "$VIMANA_SRCDIR/scripts/header-examples" "$TEST_TMP/inc/vimana" -I"$TEST_TMP/inc"
cp "$inc/vimana/network_api.h" "$TEST_TMP/inc/vimana/network_api.h"
printf '/*\n * Use it so:\n *   #include <vimana/network_api.h>\n */\n' >"$TEST_TMP/inc/vimana/extra.h"
expect_error "$TEST_TMP/inc/vimana/extra.h:3: an example outside a \`\`\`c fence (it would not be compiled)" \
    "$VIMANA_SRCDIR/scripts/header-examples" "$TEST_TMP/inc/vimana" -I"$TEST_TMP/inc"
finish
