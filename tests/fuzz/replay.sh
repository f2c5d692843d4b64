#!/bin/sh
# Replays, without libFuzzer, every seed (tests/fuzz/corpus/<target>/) and
# every saved finding (tests/fuzz/regressions/<target>/) through its fuzz
# target: none may crash, leak or trip a sanitizer. Inputs may be refused -
# the targets only check that nothing breaks.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

# Every target: the replay program's table (tests/fuzz/fuzz_targets.h), which
# must name each tests/fuzz/fuzz_<target>.c that defines a target (a list
# written by hand once left network_faults out).
replay="$VIMANA_BUILDDIR/tests/fuzz/replay"
FUZZ_TARGETS=$("$replay" --list | sort)
[ -n "$FUZZ_TARGETS" ] || fail "no fuzz targets in $replay --list"
SOURCES=$(grep -l '^int fuzz_target_' "$VIMANA_SRCDIR"/tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||' | sort)
expect_eq "$FUZZ_TARGETS" "$SOURCES" "the targets of replay --list against tests/fuzz/fuzz_*.c"

for target in $FUZZ_TARGETS; do
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
    if "$replay" "$target" "$@" >"$log" 2>&1; then
        echo "ok: $target ($# inputs)"
    else
        fail "$target: replay $target exited $? (the input it was on is the last 'replay:' line)"
        grep '^replay: ' "$log" | tail -n 1 >&2
        tail -n 40 "$log" >&2
    fi
done
finish
