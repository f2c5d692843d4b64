#!/bin/sh
# vimana-et timeline --report: a hand-written report with collectives that
# overlap on one NPU (they get separate threads), an NPU with a report row
# but no collectives, one with collectives but no row, extra members that
# pass through as args, and non-ASCII names. Then the report errors.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/timeline"
T="$TEST_TMP"

# Run from the data folder so the trace's otherData.report is the bare name.
(cd "$DATA" && "$VIMANA_ET" timeline --report report_overlap.json --output "$T/trace.json") ||
    fail "report conversion failed"
cmp -s "$T/trace.json" "$DATA/report_overlap.trace.json" || {
    fail "report trace differs from report_overlap.trace.json"
    diff "$DATA/report_overlap.trace.json" "$T/trace.json" >&2
}

# A collectives-only report (no "npus") and an empty one.
printf '{"collectives": [{"npu": 3, "name": "x", "start": 5, "end": 5}]}' >"$T/min.json"
expect_ok "$VIMANA_ET" timeline --report "$T/min.json" --output "$T/min_trace.json"
grep -qF '{"name":"x","cat":"collective","ph":"X","ts":0.005,"dur":0,"pid":3,"tid":1,"args":{}}' \
    "$T/min_trace.json" || fail "minimal report: $(cat "$T/min_trace.json")"
printf '{"collectives": []}\n' >"$T/empty.json"
expect_ok "$VIMANA_ET" timeline --report "$T/empty.json" --output -
expect_eq "$(tail -n 1 "$TEST_TMP/out")" "]}" "empty report trace"

# Errors name the file and the record; no output is left behind.
R="$T/bad.json"
report_error() { # CONTENT MESSAGE
    printf '%s' "$1" >"$R"
    expect_error "vimana-et timeline: $R: $2" "$VIMANA_ET" timeline --report "$R" --output "$T/o.json"
    [ -e "$T/o.json" ] || [ -e "$T/o.json.part" ] && fail "output left behind after: $2"
}
report_error '{"collectives": [}' "line 1, column 18: key 'collectives'[0]: expected a value, got '}'"
report_error '{"collectives": [' "line 1, column 18: key 'collectives'[0]: expected a value, got the end of the file"
report_error '{"collectives": []} x' "line 1, column 21: unexpected text after the end of the JSON object: 'x'"
report_error '[]' "not a vimana report: the document is not a JSON object"
report_error '{"npus": []}' 'not a vimana report: no "collectives" array'
report_error '{"collectives": {}}' 'not a vimana report: "collectives" is not an array'
report_error '{"collectives": [], "npus": 3}' 'not a vimana report: "npus" is not an array'
report_error '{"collectives": [1]}' 'collectives[0] is not an object'
report_error '{"collectives": [{"npu": 0, "start": 0, "end": 1}]}' 'collectives[0]: missing "name"'
report_error '{"collectives": [{"npu": 0, "name": 5, "start": 0, "end": 1}]}' 'collectives[0]: "name" is not a string'
report_error '{"collectives": [{"npu": 0, "name": "a", "start": 0, "end": 1}, {"npu": 0, "name": "b", "end": 1}]}' \
    'collectives[1]: missing "start"'
report_error '{"collectives": [{"npu": -1, "name": "a", "start": 0, "end": 1}]}' \
    'collectives[0]: "npu" is not a non-negative integer'
report_error '{"collectives": [{"npu": 0, "name": "a", "start": 1.5, "end": 2}]}' \
    'collectives[0]: "start" is not a non-negative integer'
report_error '{"collectives": [{"npu": 0, "name": "a", "start": 9, "end": 5}]}' \
    'collectives[0]: "end" 5 is before "start" 9'
report_error '{"collectives": [], "npus": [{"npu": 0}]}' 'npus[0]: missing "finish"'
report_error '{"collectives": [], "npus": [null]}' 'npus[0] is not an object'
expect_error "vimana-et timeline: $T/none.json: cannot open: No such file or directory" \
    "$VIMANA_ET" timeline --report "$T/none.json" --output "$T/o.json"

finish
