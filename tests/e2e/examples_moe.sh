#!/bin/sh
# examples/moe/mixtral-8x7b.sh runs as examples/moe/README.md says: the
# generator's memory and moe: lines for the Mixtral-like model on 64 H100s,
# a simulated step, and skewed routing (S = 1.2) slower than balanced.
# (deepseek-v3.sh, 1024 ranks and 80 MB of traces, is checked for syntax.)
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T=$TEST_TMP
S=$VIMANA_SRCDIR
last() { # the cycle count of the "finished last" line of $T/out
    sed -n 's/^breakdown of NPU [0-9]* (finished last, at \([0-9]*\) cycles):$/\1/p' "$T/out"
}
BIN=$VIMANA_BUILDDIR expect_ok sh "$S/examples/moe/mixtral-8x7b.sh" "$T/mix/m"
# N*K*h*2 = 4096*2*4096*2 bytes; 8192 tokens an expert: 8 senders x 4096*2/8
expect_eq "$(grep '^moe:' "$T/out")" "moe: 8 experts, top-2, EP 8: all-to-all 67108864 bytes a dispatch or combine; tokens an expert gets per micro-batch: mean 8192.0, busiest 8192 (layer 0, expert 0)" "moe line"
expect_eq "$(grep -c '^memory: rank' "$T/out")" 4 "one memory line per stage"
balanced=$(last)
[ -n "$balanced" ] || fail "no breakdown: $(tail -3 "$T/out")"
[ -f "$T/mix/m.63.et" ] || fail "64 ranks not written"
BIN=$VIMANA_BUILDDIR expect_ok sh "$S/examples/moe/mixtral-8x7b.sh" "$T/skew/m" 1.2
skewed=$(last)
[ "${skewed:-0}" -gt "${balanced:-0}" ] || fail "skew 1.2 ($skewed cycles) not slower than balanced ($balanced)"
sh -n "$S/examples/moe/deepseek-v3.sh" || fail "deepseek-v3.sh: syntax"
finish
