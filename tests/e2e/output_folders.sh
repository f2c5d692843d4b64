#!/bin/sh
# Every output file's folder is created, as generate, sweep --out and
# calibrate -o always did (issue 29 §4: --report, --timeline, dot -o and
# obfuscate -o failed with "No such file or directory").
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$TEST_TMP/ar" >/dev/null || fail "generate"
O=$TEST_TMP/new/deeper
expect_ok "$VIMANA" --workload-configuration="$TEST_TMP/ar" --system-configuration="$VIMANA_SRCDIR/inputs/system/ring.json" \
    --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" --report="$O/report/r.json" \
    --timeline="$O/timeline/t.json"
[ -s "$O/report/r.json" ] || fail "--report did not create its folder"
[ -s "$O/timeline/t.json" ] || fail "--timeline did not create its folder"
expect_ok "$VIMANA_ET" dot "$TEST_TMP/ar.0.et" -o "$O/dot/g.dot"
[ -s "$O/dot/g.dot" ] || fail "dot -o did not create its folder"
expect_ok "$VIMANA_ET" obfuscate "$TEST_TMP/ar" -o "$O/obf/x"
[ -s "$O/obf/x.0.et" ] || fail "obfuscate -o did not create its folder"
# A file where a folder should be: the one-line error of the open.
: >"$TEST_TMP/file"
expect_error "vimana: error: $TEST_TMP/file/r.json: cannot create: Not a directory" \
    "$VIMANA" --workload-configuration="$TEST_TMP/ar" --system-configuration="$VIMANA_SRCDIR/inputs/system/ring.json" \
    --network-configuration="$VIMANA_SRCDIR/inputs/network/ring8.yml" --report="$TEST_TMP/file/r.json"
finish
