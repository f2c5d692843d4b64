#!/bin/sh
# `vimana sweep`: every point's finish ticks equal a direct vimana run of
# the same configuration; the CSV is exact (wall time and memory masked);
# a restarted sweep reruns only the points that changed or never finished
# (counted from the summary line and the result files' times); a failing
# point is recorded and does not stop the sweep; SIGINT stops it, leaving
# the finished results.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"
IN="$VIMANA_SRCDIR/inputs"
W="$TEST_TMP/w"
sweep_inputs "$W" || fail "copy the sweep inputs"

# ---- a 2 x 2 grid: bandwidth x all-reduce algorithm ----------------------
cat >"$W/grid.yaml" <<'YAML'
workload: ar_1MiB_8
system: ring.json
network: ring8.yml
axes:
  network.bandwidth: [[25], [100]]
  system.all-reduce-implementation: [[ring], [direct]]
YAML
sweep_ok "$W/grid.yaml" "$TEST_TMP/g" "4 points: 4 run, 0 reused, 0 failed" "grid summary" --jobs 2
expect_eq "$(cat "$TEST_TMP/err")" "" "grid: stderr (no progress line off a terminal)"

# direct BW ALGO: the latest finish of a plain vimana run of that point.
direct() {
    sed "s/bandwidth: \[ 50.0 \]/bandwidth: [ $1 ]/" "$W/ring8.yml" >"$TEST_TMP/net.yml"
    sed "s/\"all-reduce-implementation\": \[\"ring\"\]/\"all-reduce-implementation\": [\"$2\"]/" "$W/ring.json" \
        >"$TEST_TMP/sys.json"
    "$VIMANA" --workload-configuration="$W/ar_1MiB_8" --system-configuration="$TEST_TMP/sys.json" \
        --network-configuration="$TEST_TMP/net.yml" |
        sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' | sort -n | tail -1
}
# finish_of DIR POINT: the finish column of results.csv.
finish_of() { awk -F, -v p="$2" '$1 == p { print $5 }' "$1/results.csv"; }
p=0
for bw in 25 100; do
    for algo in ring direct; do
        want=$(direct "$bw" "$algo")
        [ -n "$want" ] || fail "direct run $bw $algo"
        expect_eq "$(finish_of "$TEST_TMP/g" $p)" "$want" "point $p ($bw, $algo) against a direct run"
        p=$((p + 1))
    done
done
expect_eq "$(mask "$TEST_TMP/g/results.csv")" "point,network.bandwidth,system.all-reduce-implementation,status,finish,finish_sum,exposed_mean,wall_seconds,peak_memory_kib,error
0,[25],[ring],ok,151940,1215520,151940.000,W,M,
1,[25],[direct],ok,29740,237920,29740.000,W,M,
2,[100],[ring],ok,100700,805600,100700.000,W,M,
3,[100],[direct],ok,22420,179360,22420.000,W,M," "grid CSV"
expect_eq "$(sed 's/"wall_seconds": [0-9.]*/"wall_seconds": W/; s/"peak_memory_kib": [0-9]*/"peak_memory_kib": M/' \
    "$TEST_TMP/g/results.json" | sed -n 6p)" \
    '{"point": 0, "parameters": {"network.bandwidth": "[25]", "system.all-reduce-implementation": "[ring]"}, "status": "ok", "npus": 8, "finish": 151940, "finish_sum": 1215520, "exposed_mean": 151940.000, "wall_seconds": W, "peak_memory_kib": M, "error": null},' \
    "grid JSON, first point"
# The point's own configuration files: only the swept keys differ.
expect_eq "$(cat "$TEST_TMP/g/points/0001/network.yml")" "topology: [Ring]
npus_count: [8]
bandwidth: [25]
latency: [500.0]" "point 1: network.yml"
expect_eq "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["all-reduce-implementation"])' \
    "$TEST_TMP/g/points/0001/system.json")" "['direct']" "point 1: system.json"

# ---- resume: nothing to do; then a changed value reruns only its points --
touch "$TEST_TMP/marker"
sleep 1
sweep_ok "$W/grid.yaml" "$TEST_TMP/g" "4 points: 0 run, 4 reused, 0 failed" "rerun: all reused"
# ---- one sweep at a time in a folder (issue 29 §5: two runs into one --out
# overwrote each other's fixed temporary names). A running sweep holds an
# flock on DIR/.sweep.lock holding its pid; flock(1) holds it here the same way.
if command -v flock >/dev/null 2>&1; then
    printf '4242\n' >"$TEST_TMP/g/.sweep.lock"
    expect_error "vimana sweep: error: $TEST_TMP/g: another vimana sweep is writing into this folder (process 4242); wait for it or choose another --out" \
        flock "$TEST_TMP/g/.sweep.lock" "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g"
    expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "locked folder: one line"
    expect_eq "$(cat "$TEST_TMP/out")" "" "locked folder: nothing run"
    expect_error "vimana sweep: error: $TEST_TMP/g: another vimana sweep is writing into this folder (process 4242); wait for it or choose another --out" \
        flock "$TEST_TMP/g/.sweep.lock" "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g" --collect
    # The lock goes with its holder: the next sweep runs.
    expect_ok "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g"
    grep -qx '[1-9][0-9]*' "$TEST_TMP/g/.sweep.lock" || fail "the lock file holds no process id"
fi
sed -i 's/\[\[25\], \[100\]\]/[[25], [50]]/' "$W/grid.yaml"
sweep_ok "$W/grid.yaml" "$TEST_TMP/g" "4 points: 2 run, 2 reused, 0 failed" "changed sweep: 2 rerun"
expect_eq "$(rewritten "$TEST_TMP/g" "$TEST_TMP/marker")" \
    "./0002/result.json ./0003/result.json " "changed sweep: the rewritten results"
expect_eq "$(finish_of "$TEST_TMP/g" 2)" "$(direct 50 ring)" "changed sweep: point 2"

# ---- explicit points, a failing point, the plot ---------------------------
cat >"$W/points.yaml" <<'YAML'
workload: ar_1MiB_8
system: ring.json
network: ring8.yml
points:
  - {backend: analytical}
  - {backend: no_such_backend, network.bandwidth: [25]}
  - {network.bandwidth: [25]}
plot: finish:network.bandwidth
YAML
expect_error "vimana sweep: 3 points: 3 run, 0 reused, 1 failed; results in $TEST_TMP/p/results.csv" \
    sh -c '"$0" sweep "$1" --out "$2" 1>&2' "$VIMANA" "$W/points.yaml" "$TEST_TMP/p"
expect_eq "$(mask "$TEST_TMP/p/results.csv" | cut -d, -f1-6)" "point,backend,network.bandwidth,status,finish,finish_sum
0,analytical,,ok,117780,942240
1,no_such_backend,[25],failed,,
2,,[25],ok,151940,1215520" "points CSV"
# The failed point's error: the child's error line, without its prefix.
expect_eq "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["error"])' \
    "$TEST_TMP/p/points/0001/result.json")" \
    "$(sed -n 's/^vimana: error: //p' "$TEST_TMP/p/points/0001/stderr.txt")" "failed point: the child's error line"
expect_eq "$(sed -n 's/^vimana: error: \(network backend .no_such_backend. not found\).*/\1/p' \
    "$TEST_TMP/p/points/0001/stderr.txt")" "network backend 'no_such_backend' not found" "failed point: why"
# A long error line (vimana's own line for a 3000-byte backend name is
# about 1000 bytes, past the 512 bytes results once kept) is kept whole in
# result.json and results.csv.
long=$(printf '%03000d' 0 | tr 0 x)
cat >"$W/long.yaml" <<YAML
workload: ar_1MiB_8
system: ring.json
network: ring8.yml
points:
  - {backend: $long}
YAML
expect_error "vimana sweep: 1 points: 1 run, 0 reused, 1 failed; results in $TEST_TMP/l/results.csv" \
    sh -c '"$0" sweep "$1" --out "$2" 1>&2' "$VIMANA" "$W/long.yaml" "$TEST_TMP/l"
line=$(sed -n 's/^vimana: error: //p' "$TEST_TMP/l/points/0000/stderr.txt")
expect_eq "${#line}" "$(( ${#line} > 900 ? ${#line} : 0 ))" "long error: the child's line is over 900 bytes"
expect_eq "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["error"])' \
    "$TEST_TMP/l/points/0000/result.json")" "$line" "long error: result.json holds the whole line"
expect_eq "$(python3 -c 'import csv, sys; print(list(csv.DictReader(open(sys.argv[1])))[0]["error"])' \
    "$TEST_TMP/l/results.csv")" "$line" "long error: results.csv holds the whole line"
grep -q '"status": "failed"' "$TEST_TMP/p/points/0001/result.json" || fail "failed point: result.json"
# Only point 2 is on the bandwidth axis and ok: one dot (a lone point).
expect_eq "$(grep -c '<circle' "$TEST_TMP/p/plot.svg")" 1 "points plot: one dot"
expect_ok "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g" --plot finish:network.bandwidth
expect_eq "$(grep -c '<polyline' "$TEST_TMP/g/plot.svg")" 2 "grid plot: one line per algorithm"
cp "$TEST_TMP/g/plot.svg" "$TEST_TMP/plot1.svg"
expect_ok "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g" --plot finish:network.bandwidth
cmp -s "$TEST_TMP/g/plot.svg" "$TEST_TMP/plot1.svg" || fail "plot: the same bytes again"
# y = 340 - round(finish / 200000 * 280): the axis tops at 200000, the
# next 1-2-5 step above 151940; x = 90 and 530, the ends of the x axis.
expect_eq "$(grep -o 'points="[^"]*"' "$TEST_TMP/g/plot.svg" | tr '\n' ' ')" \
    'points="90,127 530,175" points="90,298 530,305" ' "grid plot: the coordinates"
# Against the algorithm (names, not quantities): grouped bars, one per
# algorithm and bandwidth, no lines; the results are reused.
expect_ok "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g" --plot finish:system.all-reduce-implementation
expect_eq "$(grep -c '<rect class="bar"' "$TEST_TMP/g/plot.svg")" 4 "algorithm plot: 2 x 2 bars"
expect_eq "$(grep -c '<polyline' "$TEST_TMP/g/plot.svg")" 0 "algorithm plot: no line"
grep -qF '>network.bandwidth=[50]</text>' "$TEST_TMP/g/plot.svg" || fail "algorithm plot: the legend names the bandwidth"
# --progress: the line is rewritten in place (\r) and ends the sweep done.
expect_ok "$VIMANA" sweep "$W/grid.yaml" --out "$TEST_TMP/g" --progress
expect_eq "$(tr '\r' '\n' <"$TEST_TMP/err" | tail -1)" "vimana sweep: 4/4 points done, 0 running, 0 failed " \
    "--progress: the last line"

# Value types in the point's system.json: a plain number is a number, a
# quoted scalar a string, true/false a boolean.
cat >"$W/types.yaml" <<'YAML'
workload: ar_1MiB_8
system: ring.json
network: ring8.yml
points:
  - {system.active-chunks-per-dimension: 2, system.scheduling-policy: "FIFO", system.local-mem-bw: 12.5}
YAML
expect_ok "$VIMANA" sweep "$W/types.yaml" --out "$TEST_TMP/t"
expect_eq "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(repr(d["active-chunks-per-dimension"]), repr(d["scheduling-policy"]), repr(d["local-mem-bw"]))' \
    "$TEST_TMP/t/points/0000/system.json")" "2 'FIFO' 12.5" "value types"

# ---- the shipped examples run as they are; the MICRO'24 points equal
# direct runs (and the congestion-aware backend is slower on the 1-D ring)
expect_ok "$VIMANA" sweep "$IN/sweeps/ring8_bw_algo.yaml" --out "$TEST_TMP/ex1"
expect_eq "$(awk -F, 'NR > 1 && $4 == "ok"' "$TEST_TMP/ex1/results.csv" | wc -l)" 16 "ring8_bw_algo: 16 points ok"
[ -s "$TEST_TMP/ex1/plot.svg" ] || fail "ring8_bw_algo: its plot"
expect_ok "$VIMANA" sweep "$IN/sweeps/micro24_backends.yaml" --out "$TEST_TMP/ex2"
p=0
for run in "network/ring8.yml system/direct.json analytical" "network/ring8.yml system/direct.json congestion_aware" \
    "sweeps/ring2x4.yml sweeps/direct_2d.json analytical" "sweeps/ring2x4.yml sweeps/direct_2d.json congestion_aware"; do
    set -- $run
    want=$("$VIMANA" --workload-configuration="$IN/sweeps/workloads/a2a_1MiB_8" --system-configuration="$IN/$2" \
        --network-configuration="$IN/$1" --network-backend="$3" 2>/dev/null |
        sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' | sort -n | tail -1)
    [ -n "$want" ] || fail "micro24: direct run $run"
    expect_eq "$(awk -F, -v p=$p '$1 == p { print $6 }' "$TEST_TMP/ex2/results.csv")" "$want" "micro24 point $p"
    p=$((p + 1))
done
[ "$(awk -F, '$1 == 1 { print $6 }' "$TEST_TMP/ex2/results.csv")" -gt \
    "$(awk -F, '$1 == 0 { print $6 }' "$TEST_TMP/ex2/results.csv")" ] || fail "micro24: congestion-aware slower on 1-D"

# ---- 200 points on all cores (under a second here) -----------------------
bws=$(awk 'BEGIN { for (b = 10; b < 260; b += 5) printf "%s[%d]", (b > 10 ? ", " : ""), b }')
printf 'workload: ar_1MiB_8\nsystem: ring.json\nnetwork: ring8.yml\naxes:\n  network.bandwidth: [%s]\n  system.all-reduce-implementation: [[ring], [direct], [halvingDoubling], [doubleBinaryTree]]\n' \
    "$bws" >"$W/200.yaml"
sweep_ok "$W/200.yaml" "$TEST_TMP/200" "200 points: 200 run, 0 reused, 0 failed" "200 points"
expect_eq "$(awk -F, 'NR > 1 && $4 == "ok"' "$TEST_TMP/200/results.csv" | wc -l)" 200 "200 points: all ok"
# Point 79 = bandwidth 10 + 5 * 19 = 105 (79 / 4), doubleBinaryTree (79 % 4).
expect_eq "$(sed -n 81p "$TEST_TMP/200/results.csv" | cut -d, -f1-3)" "79,[105],[doubleBinaryTree]" "200 points: order"

finish
