#!/bin/sh
# vimana-et generate --single-file (issue 14): writes only PREFIX.et, the
# same bytes as PREFIX.0.et of the per-rank form, and vimana runs it on
# every NPU with the per-rank form's output.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
S="$VIMANA_SRCDIR/inputs/system/ring.json"
N="$VIMANA_SRCDIR/inputs/network/ring8.yml"
# --no-symmetry: the per-rank files (ids differ) are simulated in full, the
# single file would be reduced and print its NPUs in NPU order
# (symmetry_equivalence.sh compares those two ways).
sim() { # PREFIX
    "$VIMANA" --workload-configuration="$1" --system-configuration="$S" --network-configuration="$N" --no-symmetry
}

for kind in all-reduce all-gather reduce-scatter all-to-all three-nodes; do
    size="--size 64KiB"
    [ "$kind" = three-nodes ] && size=
    # shellcheck disable=SC2086
    expect_ok "$ET" generate "$kind" --npus 8 $size --out "$T/rank/$kind"
    # shellcheck disable=SC2086
    expect_ok "$ET" generate "$kind" --npus 8 $size --single-file --out "$T/one/$kind"
    expect_eq "$(ls "$T/one")" "$kind.et" "$kind --single-file: the only file written"
    cmp -s "$T/one/$kind.et" "$T/rank/$kind.0.et" || fail "$kind: PREFIX.et differs from PREFIX.0.et"
    expect_ok sim "$T/rank/$kind"
    mv "$T/out" "$T/rank.out"
    expect_ok sim "$T/one/$kind"
    cmp -s "$T/out" "$T/rank.out" || fail "$kind: vimana output of the single file differs from the per-rank run"
    expect_eq "$(grep -c '^sys\[[0-7]\] finished, ' "$T/out")" 8 "$kind: every NPU finishes"
    rm -f "$T/one/$kind.et"
done
# The tutorial graph on ring8 (golden ring8-hoti3nodes: 405520 cycles).
expect_eq "$(grep -c 'finished, 405520 cycles' "$T/out")" 8 "three-nodes single file: golden cycles"

# One file may stand for more NPUs than the per-rank form's million files.
expect_ok "$ET" generate all-reduce --npus 1048576 --single-file --out "$T/m/ar"
expect_ok "$ET" json "$T/m/ar.et"
grep -q '"name": "all_reduce_1048576npus_1MB"' "$T/out" || fail "1048576 NPUs: name"
expect_error "vimana-et generate: --npus: expected 1 to 1000000 ranks, got 1048576" \
    "$ET" generate all-reduce --npus 1048576 --out "$T/m/x"
expect_error "vimana-et generate: --npus: expected 1 to 4294967295 ranks, got 4294967296" \
    "$ET" generate all-reduce --npus 4294967296 --single-file --out "$T/m/x"

expect_error "vimana-et generate: --single-file: send-recv writes a different trace for the sender, the receiver and the idle ranks" \
    "$ET" generate send-recv --npus 4 --single-file --out "$T/x"
[ -e "$T/x.et" ] && fail "send-recv --single-file wrote a file"
finish
