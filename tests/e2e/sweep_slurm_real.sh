#!/bin/sh
# `vimana sweep --slurm` on a real Slurm: a 6-point sweep submitted as a
# job array of 3 tasks, waited for with squeue, gathered with --collect,
# and compared with the same sweep run locally (identical but for the wall
# time and memory columns). The tasks run the vimana behind the libtool
# wrapper, with the environment sbatch passes on (library path, sanitizer
# options). Opt-in, so that `make check` never submits to a cluster by
# surprise (the sweep's directory is under /tmp, which other nodes do not
# see): SKIPs unless VIMANA_SLURM is set and not 0, and unless `sinfo`
# answers and shows an idle node. scripts/test sets it up: it runs
# `scripts/slurm-local up` and exports SLURM_CONF. With VIMANA_SLURM=1 a
# missing or broken Slurm is a failure, not a skip.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"

no_slurm() {
    if [ "${VIMANA_SLURM:-}" = 1 ]; then
        fail "VIMANA_SLURM=1 but $1"
        finish
    fi
    echo "SKIP: $1 (scripts/slurm-local up starts one)"
    exit 77
}
case "${VIMANA_SLURM:-0}" in
    0) echo "SKIP: VIMANA_SLURM is not set (set it to 1 to submit to the Slurm that sinfo reaches)"; exit 77 ;;
esac
command -v sbatch >/dev/null 2>&1 || no_slurm "no sbatch on PATH"
states=$(sinfo -h -o %t 2>&1) || no_slurm "sinfo fails: $(echo "$states" | head -n 1)"
echo "$states" | grep -qx 'idle\|mix' || no_slurm "no idle Slurm node (sinfo: $(echo "$states" | tr '\n' ' '))"

W="$TEST_TMP/w"
slurm_sweep "$W" '{tasks: 3, cpus: 1, time: "00:05:00", memory: 500M}'
D="$TEST_TMP/d"
mkdir "$D"
D=$(cd "$D" && pwd -P)

expect_ok "$VIMANA" sweep "$W/s.yaml" --out "$D" --slurm
JOB=$(sed -n 's/^vimana sweep: submitted job array \([0-9][0-9]*\) (3 tasks for 6 points).*/\1/p' "$TEST_TMP/out")
[ -n "$JOB" ] || { fail "no job id in: $(cat "$TEST_TMP/out")"; finish; }
# Whatever happens next, leave nothing in the queue.
trap 'scancel "$JOB" 2>/dev/null; rm -rf "$TEST_TMP"' EXIT

# The array is done when squeue no longer lists it (bounded: 120 s).
i=0
while [ -n "$(squeue -h -j "$JOB" -o %i 2>/dev/null)" ]; do
    i=$((i + 1))
    if [ "$i" -gt 240 ]; then
        fail "job array $JOB not done after 120 s: $(squeue -h -j "$JOB" -o '%i %t %r' | tr '\n' ' ')"
        finish
    fi
    sleep 0.5
done

# Task I ran points I and I+3, each in its own process: nothing else on
# the tasks' output (no loader error, no sanitizer report).
for t in 0 1 2; do
    expect_eq "$(cat "$D/slurm-${JOB}_$t.out")" \
        "vimana sweep: batch $t/3: 2 points: 2 run, 0 reused, 0 failed" "task $t's output"
done
sweep_ok "$W/s.yaml" "$D" "6 points: 6 collected, 0 not done, 0 failed" "collect" --collect
expect_ok "$VIMANA" sweep "$W/s.yaml" --out "$TEST_TMP/local" --no-progress
expect_eq "$(mask "$D/results.csv")" "$(mask "$TEST_TMP/local/results.csv")" "Slurm's CSV = local CSV"
expect_eq "$(grep -c ',ok,' "$D/results.csv")" 6 "6 ok rows"
finish
