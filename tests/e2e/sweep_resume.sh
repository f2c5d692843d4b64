#!/bin/sh
# `vimana sweep` stopped midway by SIGINT, or killed by SIGKILL (no chance
# to clean up; here with a generated workload), then run again: the
# finished points are kept, only the unfinished ones run. The second point's backend
# is a path that first leads to a module whose run never ends (bad_storm),
# so the sweep is surely midway when it is interrupted; for the restart the
# same path leads to the analytical backend (the point's settings, as the
# sweep file gives them, are unchanged).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"
STORM="$VIMANA_BUILDDIR/tests/backends/.libs/bad_storm.so"
ANALYTICAL="$VIMANA_BUILDDIR/backends/analytical/.libs/analytical.so"
[ -f "$STORM" ] && [ -f "$ANALYTICAL" ] || { echo "SKIP: the uninstalled modules are not in .libs"; exit 77; }
# Starts `vimana sweep SPEC --out DIR --jobs 1` in the background (its pid
# in $pid) and returns once point 0 has its result: point 1, on the endless
# backend, is then running.
start_until_point0() { # SPEC DIR
    "$VIMANA" sweep "$1" --out "$2" --jobs 1 >"$TEST_TMP/out1" 2>"$TEST_TMP/err1" &
    pid=$!
    i=0
    while [ ! -f "$2/points/0000/result.json" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    sleep 0.2
}

W="$TEST_TMP/w"
sweep_inputs "$W" || fail "copy the sweep inputs"
# sweep_spec FILE WORKLOAD-LINE: three bandwidths x two backends, the second
# ./slow.so (a link to the storm backend while the sweep is to be stopped)
sweep_spec() {
    printf '%s\nsystem: ring.json\nnetwork: ring8.yml\naxes:\n  network.bandwidth: [[25], [50], [100]]\n  backend: [analytical, ./slow.so]\n' \
        "$2" >"$1"
}
# restarted SPEC DIR WHAT: the sweep SPEC, run again into DIR with ./slow.so
# leading to the analytical backend, runs the 5 unfinished points and keeps
# point 0's result as it was.
restarted() {
    touch "$2.marker"
    sleep 1
    ln -sf "$ANALYTICAL" "$W/slow.so"
    sweep_ok "$1" "$2" "6 points: 5 run, 1 reused, 0 failed" "$3: 5 run" --jobs 2
    expect_eq "$(rewritten "$2" "$2.marker")" \
        "./0001/result.json ./0002/result.json ./0003/result.json ./0004/result.json ./0005/result.json " \
        "$3: point 0 kept"
}
sweep_spec "$W/s.yaml" "workload: ar_1MiB_8"
ln -s "$STORM" "$W/slow.so"
start_until_point0 "$W/s.yaml" "$TEST_TMP/s"
kill -INT $pid
wait $pid
expect_eq "$?" 1 "interrupted sweep: exit status"
expect_eq "$(cat "$TEST_TMP/err1")" \
    "vimana sweep: interrupted: 5 of 6 points left unfinished (run the same command again to finish them)" \
    "interrupted sweep: stderr"
expect_eq "$(cd "$TEST_TMP/s/points" && ls */result.json | tr '\n' ' ')" "0000/result.json " \
    "interrupted sweep: only point 0 has a result"
[ -f "$TEST_TMP/s/results.csv" ] && fail "interrupted sweep: no results.csv"
# No child is left running.
sleep 0.2
pgrep -f "$TEST_TMP/s/points" >/dev/null && fail "interrupted sweep: a child still runs"

restarted "$W/s.yaml" "$TEST_TMP/s" "restart"
# Both backends are now the analytical model: pairs of equal finish times.
expect_eq "$(cut -d, -f1,4,5 "$TEST_TMP/s/results.csv" | tr '\n' ' ')" \
    "point,status,finish 0,ok,151940 1,ok,151940 2,ok,117780 3,ok,117780 4,ok,100700 5,ok,100700 " "restart: results"

# ---- kill -9 midway: the same, with the workload generated ----------------
sweep_spec "$W/s9.yaml" "generate: {kind: all-reduce, npus: 8, size: 1MiB}"
ln -sf "$STORM" "$W/slow.so"
start_until_point0 "$W/s9.yaml" "$TEST_TMP/s9"
kill -KILL $pid
wait $pid
expect_eq "$?" 137 "kill -9: exit status"
expect_eq "$(cd "$TEST_TMP/s9/points" && ls */result.json | tr '\n' ' ')" "0000/result.json " \
    "kill -9: only point 0 has a result"
[ -f "$TEST_TMP/s9/results.csv" ] && fail "kill -9: no results.csv"
# Its child (point 1, which never ends) outlives it: stop that one.
for child in $(pgrep -f "$TEST_TMP/s9/points/0001"); do
    kill -KILL "$child"
done
restarted "$W/s9.yaml" "$TEST_TMP/s9" "kill -9, restart"
expect_eq "$(ls "$TEST_TMP/s9/workloads" | tr '\n' ' ')" "$(ls "$TEST_TMP/s9/workloads" | head -1) " \
    "kill -9, restart: the workload generated once"
# The generated 1 MiB all-reduce is the shipped one: the same figures.
expect_eq "$(cut -d, -f1,4,5 "$TEST_TMP/s9/results.csv")" "$(cut -d, -f1,4,5 "$TEST_TMP/s/results.csv")" \
    "kill -9, restart: results"
finish
