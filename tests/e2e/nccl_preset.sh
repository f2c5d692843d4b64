#!/bin/sh
# The shipped HGX-H100 preset (inputs/presets/hgx-h100): calibrating the
# shipped measurements again gives the shipped system.json byte for byte; the
# fit meets the target (<= 5 % error from 1 MiB up, <= 15 % below); and
# vimana with the preset simulates the report's times.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
P="$VIMANA_SRCDIR/inputs/presets/hgx-h100"

sed 's/^latency: \[ 250.0 \]$/latency: [ 250 ]/' "$P/8gpu/network.yml" >"$T/hgx8.yml"
expect_ok "$VIMANA" calibrate "$P/measured/dgx-h100-8gpu_all_reduce_perf.txt" --topology "$T/hgx8.yml" -o "$T/p"
cmp -s "$T/p/system.json" "$P/8gpu/system.json" || fail "calibrate no longer gives the shipped 8gpu/system.json"
cmp -s "$T/p/network.yml" "$P/8gpu/network.yml" || fail "calibrate no longer gives the shipped 8gpu/network.yml"
cmp -s "$T/p/fit.svg" "$P/8gpu/fit.svg" || fail "calibrate no longer gives the shipped 8gpu/fit.svg"
for n in 2 4; do
    cmp -s "$P/${n}gpu/system.json" "$P/8gpu/system.json" || fail "${n}gpu/system.json is not 8gpu's"
done

# Every row within the target.
awk -F'|' '$5 ~ /^ *[0-9]+ *$/ { size = $5 + 0; err = $11 + 0; if (err < 0) err = -err;
    if ((size >= 1048576 && err > 5) || err > 15) { print "row " size ": " err " %"; bad = 1 } }
    END { exit bad }' "$P/8gpu/fit-report.md" || fail "the fit misses the target"

# The simulated column is the simulation.
for size in 8 524288 1048576 1073741824; do
    "$VIMANA_ET" generate all-reduce --npus 8 --size "$size" --single-file --out "$T/ar" >/dev/null || fail "generate"
    want=$("$VIMANA" --workload-configuration="$T/ar" --system-configuration="$P/8gpu/system.json" \
        --network-configuration="$P/8gpu/network.yml" | sed -n 's/^sys\[7\], Comm time: //p')
    got=$(awk -F'|' -v s="$size" '$5 + 0 == s && $3 ~ /all_reduce/ { gsub(/ /, "", $10); printf "%d", $10 * 1000 + 0.5 }' \
        "$P/8gpu/fit-report.md")
    expect_eq "$got" "$want" "8gpu preset at $size B"
done
# The any-count preset (system.json, tuner 1: the model's estimate picks
# algorithm and protocol): its report's rows on 2, 4 and 8 GPUs are the
# simulation on that many NPUs of network.yml's switch.
for n in 2 4 8; do
    sed "s/^npus_count: \[ 8 \]/npus_count: [ $n ]/" "$P/network.yml" >"$T/any$n.yml"
    for size in 1048576 4194304 134217728 1073741824; do
        "$VIMANA_ET" generate all-reduce --npus "$n" --size "$size" --single-file --out "$T/any" >/dev/null || fail "generate"
        want=$("$VIMANA" --workload-configuration="$T/any" --system-configuration="$P/system.json" \
            --network-configuration="$T/any$n.yml" | sed -n "s/^sys\[$((n - 1))\], Comm time: //p")
        got=$(awk -F'|' -v s="$size" -v n="$n" '$4 + 0 == n && $5 + 0 == s { gsub(/ /, "", $10); printf "%d", $10 * 1000 + 0.5 }' \
            "$P/fit-report.md")
        expect_eq "$got" "$want" "any-count preset, $n GPUs, $size B"
    done
done
grep -q '"tuner": 1' "$P/system.json" || fail "the any-count preset runs the tuner"
# The 2- and 4-GPU presets run (ring on 2, NVLS from nvls-min-bytes on 4).
for n in 2 4; do
    "$VIMANA_ET" generate all-reduce --npus "$n" --size 1GiB --single-file --out "$T/ar$n" >/dev/null || fail "generate"
    expect_ok "$VIMANA" --workload-configuration="$T/ar$n" --system-configuration="$P/${n}gpu/system.json" \
        --network-configuration="$P/${n}gpu/network.yml"
done
finish
