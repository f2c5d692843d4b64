#!/bin/sh
# Upstream spellings that tutorials paste (issue 29 §4): --path (ASTRA-sim
# 1.0's results folder), --logical-topology-configuration (MICRO'24's ns-3
# demo, checked against the NPU count), inputs/system/Switch.json; and the
# one-line summary that ends a run of 64 NPUs or more.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
"$VIMANA_ET" generate all-reduce --npus 64 --size 1MiB --out "$TEST_TMP/ar" >/dev/null || fail "generate"
printf 'topology: [ Ring ]\nnpus_count: [ 64 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$TEST_TMP/ring64.yml"
sim() {
    "$VIMANA" --workload-configuration="$TEST_TMP/ar" --system-configuration="$VIMANA_SRCDIR/inputs/system/ring.json" \
        --network-configuration="$TEST_TMP/ring64.yml" "$@"
}
echo '{"logical-dims": ["8", "8"]}' >"$TEST_TMP/ok.json"
expect_ok sim --logical-topology-configuration="$TEST_TMP/ok.json" --path="$TEST_TMP/stats"
[ -s "$TEST_TMP/stats/log.log" ] || fail "--path did not write the run's log"
finish_line=$(grep -m1 'finished, ' "$TEST_TMP/out" | sed 's/.*finished, \([0-9]*\) cycles.*/\1/')
expect_eq "$(tail -n 1 "$TEST_TMP/out")" \
    "summary: 64 NPUs finished: min $finish_line, median $finish_line, max $finish_line cycles; exposed communication min $finish_line, median $finish_line, max $finish_line cycles." \
    "summary line of 64 NPUs"
# refused NAME JSON WHY: the logical topology NAME.json holding JSON is
# refused with the one line "FILE: WHY".
refused() {
    echo "$2" >"$TEST_TMP/$1.json"
    expect_error "vimana: error: $TEST_TMP/$1.json: $3" sim --logical-topology-configuration="$TEST_TMP/$1.json"
}
refused big '{"logical-dims": [16, "8"]}' "logical-dims: 16 x 8 is 128 NPUs, the run has 64"
refused zero '{"logical-dims": ["8", "0"]}' 'logical-dims[1]: expected a size from 1 to 2147483648, got "0"'
refused extra '{"logical-dims": ["64"], "extra": 1}' "unknown key 'extra' (the file holds \"logical-dims\" only)"
refused empty '{"logical-dims": []}' "logical-dims: expected a list of dimension sizes, got an empty one"
# Fewer than 64 NPUs: the finish lines alone, as the reference prints.
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$TEST_TMP/ar8" >/dev/null || fail "generate 8"
expect_ok "$VIMANA" --workload-configuration="$TEST_TMP/ar8" --system-configuration="$VIMANA_SRCDIR/inputs/system/Switch.json" \
    --network-configuration="$VIMANA_SRCDIR/inputs/network/switch8.yml"
expect_eq "$(grep -c '^summary:' "$TEST_TMP/out")" 0 "summary lines of 8 NPUs"
expect_eq "$(grep -c 'finished, ' "$TEST_TMP/out")" 8 "Switch.json on switch8.yml"
finish
