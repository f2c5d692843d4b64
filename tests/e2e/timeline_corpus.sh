#!/bin/sh
# vimana-et timeline against the reference: the corpus events file gives
# chakra_timeline_visualizer's output byte for byte, and the raw simulator
# log it cannot read (spdlog prefixes) gives the same bytes.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
require_shared

C="$VIMANA_SHARED/corpus"
EVENTS="$C/timeline/hoti2024_demo2_ring8.events.txt"
LOG="$C/timeline/hoti2024_demo2_ring8.log"
WANT="$C/expected/timeline/hoti2024_demo2_ring8.timeline.json"
T="$TEST_TMP"

# The reference's own option spellings.
expect_ok "$VIMANA_ET" timeline --input_filename "$EVENTS" --output_filename "$T/events.json" \
    --num_npus 8 --npu_frequency 1000 --log_filename "$T/debug.log"
cmp -s "$T/events.json" "$WANT" || fail "events file: output differs from $WANT"
[ -s "$T/err" ] && fail "events file: unexpected stderr: $(cat "$T/err")"

# The raw log, with Vimana's spellings.
expect_ok "$VIMANA_ET" timeline --input "$LOG" --output "$T/log.json" --num-npus 8 --npu-frequency 1000
cmp -s "$T/log.json" "$WANT" || fail "raw log: output differs from $WANT"

# Any prefix, CRLF line ends, and stdin/stdout.
sed 's/^/vimana: /; s/$/\r/' "$EVENTS" >"$T/prefixed.txt"
"$VIMANA_ET" timeline --input - --output - --num-npus=8 --npu-frequency=1000 <"$T/prefixed.txt" >"$T/stdout.json" ||
    fail "stdin to stdout failed"
cmp -s "$T/stdout.json" "$WANT" || fail "prefixed CRLF lines on stdin: output differs from $WANT"

# 232 events: every issue has its callback.
expect_eq "$(grep -o '"ph": "X"' "$T/log.json" | wc -l | tr -d ' ')" 232 "event count"

finish
