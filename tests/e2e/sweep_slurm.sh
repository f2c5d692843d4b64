#!/bin/sh
# `vimana sweep --slurm` without a Slurm installation: a stand-in sbatch
# (first on PATH) records its arguments and runs the array's tasks one
# after the other, as Slurm would on one node; `--collect` then gives the
# same CSV as the same sweep run locally. Also the script's exact text,
# sbatch missing or failing, and --collect before the tasks ran.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"
W="$TEST_TMP/w"
mkdir -p "$TEST_TMP/bin"
slurm_sweep "$W" '{tasks: 4, concurrent: 2, cpus: 2, time: "00:05:00", memory: 1G}'
cat >"$TEST_TMP/bin/sbatch" <<'SH'
#!/bin/sh
echo "$@" >"$SBATCH_LOG"
script=$2
last=$(sed -n 's/^#SBATCH --array=0-\([0-9]*\).*/\1/p' "$script")
i=0
while [ "$i" -le "$last" ]; do
    SLURM_ARRAY_TASK_ID=$i sh "$script" >>"$SBATCH_LOG.tasks" 2>&1
    i=$((i + 1))
done
echo "4242;cluster"
SH
chmod +x "$TEST_TMP/bin/sbatch"
SBATCH_LOG="$TEST_TMP/sbatch.log"
export SBATCH_LOG
D="$TEST_TMP/d"
mkdir "$D"
D=$(cd "$D" && pwd -P)

PATH="$TEST_TMP/bin:$PATH" expect_ok "$VIMANA" sweep "$W/s.yaml" --out "$D" --slurm
expect_eq "$(cat "$TEST_TMP/out")" "vimana sweep: submitted job array 4242 (4 tasks for 6 points); when it is done: vimana sweep $W/s.yaml --out $D --collect" "submitted"
expect_eq "$(cat "$SBATCH_LOG")" "--parsable $D/sweep.sbatch" "sbatch's arguments"
WP=$(cd "$W" && pwd -P)
# The script runs vimana by its absolute path: in a build tree the libtool
# wrapper, since .libs/vimana cannot start alone (issue 29 §4).
EXE=$(sed -n "s/^exec '\([^']*\)' .*/\1/p" "$D/sweep.sbatch")
case "$EXE" in /*) [ -x "$EXE" ] || fail "the script's vimana: $EXE" ;; *) fail "not absolute: $EXE" ;; esac
case "$EXE" in */.libs/*) fail "the script names $EXE, which cannot start alone" ;; esac
env -i "$EXE" --version >/dev/null 2>&1 || fail "the script's vimana does not start in an empty environment: $EXE"
expect_eq "$(cat "$D/sweep.sbatch")" "#!/bin/sh
# Written by vimana sweep --slurm: 6 points in 4 array tasks.
#SBATCH --job-name=vimana-sweep
#SBATCH --array=0-3%2
#SBATCH --cpus-per-task=2
#SBATCH --time=00:05:00
#SBATCH --mem=1G
#SBATCH --output=$D/slurm-%A_%a.out
exec '$EXE' sweep '$WP/s.yaml' --out '$D' --batch \"\$SLURM_ARRAY_TASK_ID/4\" --jobs 2 --no-progress" "the script"
# Task 0 ran points 0 and 4, task 1 points 1 and 5, tasks 2 and 3 one each.
expect_eq "$(sort "$SBATCH_LOG.tasks")" "vimana sweep: batch 0/4: 2 points: 2 run, 0 reused, 0 failed
vimana sweep: batch 1/4: 2 points: 2 run, 0 reused, 0 failed
vimana sweep: batch 2/4: 1 points: 1 run, 0 reused, 0 failed
vimana sweep: batch 3/4: 1 points: 1 run, 0 reused, 0 failed" "the tasks"
[ -f "$D/results.csv" ] && fail "a task wrote results.csv"

sweep_ok "$W/s.yaml" "$D" "6 points: 6 collected, 0 not done, 0 failed" "collect" --collect
expect_ok "$VIMANA" sweep "$W/s.yaml" --out "$TEST_TMP/local"
expect_eq "$(mask "$D/results.csv")" "$(mask "$TEST_TMP/local/results.csv")" "collected CSV = local CSV"
expect_eq "$(grep -c ',ok,' "$D/results.csv")" 6 "collected: 6 ok"

# --collect before any task ran: every point not done, exit status 1.
expect_error "vimana sweep: 6 points: 0 collected, 6 not done, 0 failed; results in $TEST_TMP/none/results.csv" \
    sh -c '"$0" sweep "$1" --out "$2" --collect 1>&2' "$VIMANA" "$W/s.yaml" "$TEST_TMP/none"
expect_eq "$(cut -d, -f1,4 "$TEST_TMP/none/results.csv" | tr '\n' ' ')" \
    "point,status 0,pending 1,pending 2,pending 3,pending 4,pending 5,pending " "collect: pending rows"

# No sbatch; a failing sbatch.
mkdir "$TEST_TMP/empty"
expect_error "vimana sweep: error: cannot run sbatch: No such file or directory (is Slurm installed? the script is $D/sweep.sbatch)" \
    env PATH="$TEST_TMP/empty" "$VIMANA" sweep "$W/s.yaml" --out "$D" --slurm
printf '#!/bin/sh\necho "sbatch: error: invalid partition specified: x" >&2\nexit 1\n' >"$TEST_TMP/bin/sbatch"
PATH="$TEST_TMP/bin:$PATH" expect_error "vimana sweep: error: sbatch failed: sbatch: error: invalid partition specified: x" \
    "$VIMANA" sweep "$W/s.yaml" --out "$D" --slurm

# Values that go into the script are plain words.
printf 'workload: w\nsystem: ring.json\nnetwork: ring8.yml\naxes: {backend: [a]}\nslurm: {time: "1; rm -rf x"}\n' >"$W/bad.yaml"
expect_error "vimana sweep: error: $W/bad.yaml:5: slurm: time: expected a word of letters, digits and : . _ -" \
    "$VIMANA" sweep "$W/bad.yaml" --out "$D" --slurm
printf 'workload: w\nsystem: ring.json\nnetwork: ring8.yml\naxes: {backend: [a]}\nslurm: {tasks: 0}\n' >"$W/bad.yaml"
expect_error "vimana sweep: error: $W/bad.yaml:5: slurm: tasks: expected a number from 1 to 100000" \
    "$VIMANA" sweep "$W/bad.yaml" --out "$D" --slurm
expect_error "vimana sweep: error: --batch: expected I/N with 0 <= I < N, got '4/4'" \
    "$VIMANA" sweep "$W/s.yaml" --out "$D" --batch 4/4
expect_error "vimana sweep: error: give one of --slurm, --collect and --batch" \
    "$VIMANA" sweep "$W/s.yaml" --out "$D" --slurm --collect
finish
