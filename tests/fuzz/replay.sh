#!/bin/sh
# Replays, without libFuzzer, every seed (tests/fuzz/corpus/<target>/) and
# every saved finding (tests/fuzz/regressions/<target>/) through its fuzz
# target: none may crash, leak or trip a sanitizer. Inputs may be refused -
# the targets only check that nothing breaks.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

# Every target: each tests/fuzz/fuzz_<target>.c that defines the fuzzer's
# entry point (a list written here once left network_faults out).
FUZZ_TARGETS=$(grep -l '^int LLVMFuzzerTestOneInput' "$VIMANA_SRCDIR"/tests/fuzz/fuzz_*.c |
    sed 's|.*/fuzz_||; s|\.c$||' | sort)
[ -n "$FUZZ_TARGETS" ] || fail "no fuzz targets in tests/fuzz"

for target in $FUZZ_TARGETS; do
    replay="$VIMANA_BUILDDIR/tests/fuzz/replay_$target"
    set --
    for dir in corpus regressions; do
        for f in "$VIMANA_SRCDIR/tests/fuzz/$dir/$target"/*; do
            [ -f "$f" ] && set -- "$@" "$f"
        done
    done
    if [ $# -eq 0 ]; then
        fail "$target: no seed inputs in tests/fuzz/corpus/$target"
        continue
    fi
    log="$TEST_TMP/$target.log"
    if "$replay" "$@" >"$log" 2>&1; then
        echo "ok: $target ($# inputs)"
    else
        fail "$target: replay_$target exited $? (the input it was on is the last 'replay:' line)"
        grep '^replay: ' "$log" | tail -n 1 >&2
        tail -n 40 "$log" >&2
    fi
done
finish
