#!/bin/sh
# vimana-et timeline against the reference: with --compat the corpus events
# file gives chakra_timeline_visualizer's output byte for byte, and the raw
# simulator log it cannot read (spdlog prefixes) gives the same bytes. The
# default document has the same slices in true microseconds, tracks named.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

C="$REF/corpus"
EVENTS="$C/timeline/hoti2024_demo2_ring8.events.txt"
LOG="$C/timeline/hoti2024_demo2_ring8.log"
WANT="$C/expected/timeline/hoti2024_demo2_ring8.timeline.json"
T="$TEST_TMP"

# The reference's own option spellings.
expect_ok "$VIMANA_ET" timeline --input_filename "$EVENTS" --output_filename "$T/events.json" \
    --num_npus 8 --npu_frequency 1000 --log_filename "$T/debug.log" --compat
cmp -s "$T/events.json" "$WANT" || fail "events file: output differs from $WANT"
[ -s "$T/err" ] && fail "events file: unexpected stderr: $(cat "$T/err")"

# The raw log, with Vimana's spellings.
expect_ok "$VIMANA_ET" timeline --input "$LOG" --output "$T/log.json" --num-npus 8 --npu-frequency 1000 --compat
cmp -s "$T/log.json" "$WANT" || fail "raw log: output differs from $WANT"

# Any prefix, CRLF line ends, and stdin/stdout.
sed 's/^/vimana: /; s/$/\r/' "$EVENTS" >"$T/prefixed.txt"
"$VIMANA_ET" timeline --compat --input - --output - --num-npus=8 --npu-frequency=1000 <"$T/prefixed.txt" >"$T/stdout.json" ||
    fail "stdin to stdout failed"
cmp -s "$T/stdout.json" "$WANT" || fail "prefixed CRLF lines on stdin: output differs from $WANT"

# 232 events: every issue has its callback.
expect_eq "$(grep -o '"ph": "X"' "$T/log.json" | wc -l | tr -d ' ')" 232 "event count"

# The default document: the same 232 slices, ts and dur in microseconds.
expect_ok "$VIMANA_ET" timeline --input "$LOG" --output "$T/us.json" --num-npus 8 --npu-frequency 1000
expect_eq "$(grep -c '"ph": "X"' "$T/us.json")" 232 "default: event count"
# The reference's first slice, {"pid": 0, "tid": 3, "ts": 0.0, "dur": 32.291,
# ...} in ms, is 32291000 cycles (ticks 0 to 32291000 in the log): 32291 us.
grep -qxF '{"name": "COMP_NODE_layer_64_1_mlp0_FWD", "cat": "compute", "ph": "X", "ts": 0, "dur": 32291, "pid": 0, "tid": 3, "args": {"cycles": 32291000}},' \
    "$T/us.json" || fail "default: first slice not in microseconds"
grep -qF '{"pid": 0, "tid": 3, "ts": 0.0, "dur": 32.291, "ph": "X", "name": "COMP_NODE_layer_64_1_mlp0_FWD", "args": {"ms": 32.291}}' \
    "$WANT" || fail "the reference's first slice is not as this test assumes"
grep -qxF 'callback,sys->id=0, tick=32291000, node->id=0, node->name=COMP_NODE_layer_64_1_mlp0_FWD, node->type=4' \
    "$EVENTS" || fail "the log's first callback is not as this test assumes"
# Every slice's track named once: 8 processes, and threads = distinct (pid, tid).
expect_eq "$(grep -c '"name": "process_name", "ph": "M", "pid": [0-7], "args": {"name": "NPU [0-7]"}' "$T/us.json")" 8 \
    "default: process names"
tracks=$(grep '"ph": "X"' "$T/us.json" | sed 's/.*"pid": \([0-9]*\), "tid": \([0-9]*\),.*/\1 \2/' | sort -u | wc -l | tr -d ' ')
expect_eq "$(grep -c '"name": "thread_name"' "$T/us.json")" "$tracks" "default: thread names"

finish
