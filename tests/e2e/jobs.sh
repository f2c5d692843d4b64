#!/bin/sh
# vimana --jobs: several jobs on one network (docs/jobs.md), on the shipped
# examples of inputs/jobs.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
IN="$VIMANA_SRCDIR/inputs"
J="$IN/jobs"

# block NAME FILE: the per-rank lines of job NAME in a --jobs output.
block() {
    awk -v h="job $1: " 'index($0, h) == 1 { inside = !inside; next } inside' "$2"
}
# summary NAME FILE: job NAME's summary line.
summary() {
    grep "^job $1: finished" "$2"
}

# ---- disjoint jobs on a congestion-unaware switch: exactly as alone ----------
# The analytical Switch charges every pair of NPUs the same, so a job on 4
# of the 8 NPUs runs as the same workload on a switch of 4 NPUs: its
# per-rank lines are byte for byte a plain run's.
expect_ok "$VIMANA" --jobs "$J/switch_two_tenants.yaml"
cp "$T/out" "$T/jobs.out"
expect_eq "$(head -1 "$T/jobs.out")" "job allreduce: 4 NPUs, dims [4], start 0, on NPUs 0-3" "first header"
expect_eq "$(grep -c '^job alltoall: 4 NPUs, dims \[4\], start 0, on NPUs 4-7$' "$T/jobs.out")" 1 "second header"
sed 's/\[ 8 \]/[ 4 ]/' "$IN/network/switch8.yml" >"$T/switch4.yml"
expect_ok "$VIMANA" --workload-configuration="$J/workloads/ar_1MiB_4" --system-configuration="$IN/system/ring.json" \
    --network-configuration="$T/switch4.yml"
block allreduce "$T/jobs.out" >"$T/ar.jobs"
cmp -s "$T/ar.jobs" "$T/out" || fail "all-reduce job differs from the plain run"
grep -q '^sys\[3\] finished, 100720 cycles' "$T/out" || fail "plain all-reduce run: 100720 cycles expected"
expect_ok "$VIMANA" --workload-configuration="$J/workloads/a2a_1MiB_4" --system-configuration="$IN/system/direct.json" \
    --network-configuration="$T/switch4.yml"
block alltoall "$T/jobs.out" >"$T/a2a.jobs"
cmp -s "$T/a2a.jobs" "$T/out" || fail "all-to-all job differs from the plain run"
grep -q '^sys\[3\] finished, 8960 cycles' "$T/out" || fail "plain all-to-all run: 8960 cycles expected"
expect_eq "$(summary allreduce "$T/jobs.out")" "job allreduce: finished at 100720 cycles, took 100720 cycles, exposed communication 100720 cycles; alone: 100720 cycles, exposed communication 100720 cycles; slowdown 1.0000" "all-reduce summary"
expect_eq "$(summary alltoall "$T/jobs.out")" "job alltoall: finished at 8960 cycles, took 8960 cycles, exposed communication 8960 cycles; alone: 8960 cycles, exposed communication 8960 cycles; slowdown 1.0000" "all-to-all summary"

# ---- a generator spec is the trace vimana-et generate --single-file writes -----
printf 'network: %s\njobs:\n  - name: g\n    generate: {kind: all-to-all, size: 1MiB}\n    system: %s\n    dims: [4]\n    placement: contiguous\n' \
    "$IN/network/switch8.yml" "$IN/system/direct.json" >"$T/gen.yaml"
mkdir "$T/tmpd"
expect_ok env TMPDIR="$T/tmpd" "$VIMANA" --jobs "$T/gen.yaml" --report="$T/gen.json"
block g "$T/out" >"$T/gen.jobs"
"$VIMANA_ET" generate all-to-all --npus 4 --size 1MiB --single-file --out "$T/single/a2a" || fail "vimana-et generate"
expect_ok "$VIMANA" --workload-configuration="$T/single/a2a" --system-configuration="$IN/system/direct.json" \
    --network-configuration="$T/switch4.yml" --report="$T/single.json" --no-symmetry
cmp -s "$T/gen.jobs" "$T/out" || fail "a generated job differs from the plain run of vimana-et's trace"
python3 -c 'import json, sys; a, b = (json.load(open(f))["collectives"] for f in sys.argv[1:]); sys.exit(a != b)' \
    "$T/gen.g.json" "$T/single.json" || fail "a generated job's collectives (names, sizes) differ from vimana-et's"
[ -z "$(ls "$T/tmpd")" ] || fail "the generated traces' folder was left behind"

# ---- a start time shifts a job, nothing else ---------------------------------
sed 's/placement: {rule: contiguous, offset: 4}/placement: {rule: contiguous, offset: 4}\n    start: 1000/' \
    "$J/switch_two_tenants.yaml" | sed "s#\.\./#$IN/#; s#workloads/#$J/workloads/#" >"$T/start.yaml"
expect_ok "$VIMANA" --jobs "$T/start.yaml"
expect_eq "$(summary alltoall "$T/out")" "job alltoall: finished at 9960 cycles, took 8960 cycles, exposed communication 8960 cycles; alone: 8960 cycles, exposed communication 8960 cycles; slowdown 1.0000" "started at 1000"
grep -q '^sys\[0\] finished, 9960 cycles, exposed communication 9960 cycles\.$' "$T/out" ||
    fail "per-rank lines count from t = 0 of the shared network"

# A file of one job: its start counts, and alone it takes the same time.
printf 'network: %s\njobs:\n  - name: solo\n    workload: %s\n    system: %s\n    dims: [4]\n    placement: {rule: random, seed: 1}\n    start: 50\n' \
    "$IN/network/switch8.yml" "$J/workloads/ar_1MiB_4" "$IN/system/ring.json" >"$T/one.yaml"
expect_ok "$VIMANA" --jobs "$T/one.yaml"
expect_eq "$(grep '^job solo' "$T/out")" "job solo: 4 NPUs, dims [4], start 50, on NPUs 4,3,2,7
job solo: finished at 100770 cycles, took 100720 cycles, exposed communication 100720 cycles; alone: 100720 cycles, exposed communication 100720 cycles; slowdown 1.0000" "one job"

# ---- two all-to-all jobs on one congestion-aware link: both slower ------------
# inputs/jobs/two_switches.txt: NPUs 0,1 under switch 4, NPUs 2,3 under
# switch 5; NPU links 100 B/ns, the switch link 4-5 50 B/ns, all 500 ns.
# Job a on NPUs 0,2 and job b on NPUs 1,3: a 1 MiB all-to-all of 2 NPUs
# sends 512 KiB to the peer, as 2 chunks of 256 KiB = 262144 B both in
# flight (active-chunks-per-dimension 2). Store-and-forward (simulator.md,
# "The congestion-aware backend"): an NPU link hop costs
# trunc(500 + 2621.44) = 3121 and holds the link 2621; the switch link
# costs trunc(500 + 5242.88) = 5742 and holds it 5242.
# Alone (job a, direction 0 -> 2; 2 -> 0 is the mirror image): chunk 1
# leaves NPU 0 at 0, reaches switch 4 at 3121; chunk 2 waits for the NPU
# link (2621) and reaches switch 4 at 2621 + 3121 = 5742. The switch link
# takes chunk 1 at 3121 (held to 8363, at switch 5 at 8863) and chunk 2 at
# 8363 (at switch 5 at 14105); chunk 2 reaches NPU 2 at 14105 + 3121 =
# 17226. The system layer finishes 20 ns later (two endpoint delays of 10):
# 17246.
# Together: chunks reach switch 4 as a1, b1 (3121; a's first: job a's
# events were scheduled first) and a2, b2 (5742); the switch link carries
# them in that order: a1 [3121, 8363], b1 [8363, 13605], a2 [13605, 18847]
# (at switch 5 at 19347), b2 [18847, 24089] (at 24589). Job a's last chunk
# arrives at 19347 + 3121 = 22468, finish 22488; job b's at 24589 + 3121 =
# 27710, finish 27730. Slowdowns 22488/17246 = 1.3040, 27730/17246 = 1.6079.
expect_ok "$VIMANA" --jobs "$J/shared_link.yaml"
cp "$T/out" "$T/ca.out"
expect_eq "$(summary a "$T/ca.out")" "job a: finished at 22488 cycles, took 22488 cycles, exposed communication 22488 cycles; alone: 17246 cycles, exposed communication 17246 cycles; slowdown 1.3040" "job a on the shared link"
expect_eq "$(summary b "$T/ca.out")" "job b: finished at 27730 cycles, took 27730 cycles, exposed communication 27730 cycles; alone: 17246 cycles, exposed communication 17246 cycles; slowdown 1.6079" "job b on the shared link"
expect_eq "$(grep -c '^sys\[[01]\] finished, 22488 cycles' "$T/ca.out")" 2 "job a's ranks"
expect_eq "$(grep -c '^sys\[[01]\] finished, 27730 cycles' "$T/ca.out")" 2 "job b's ranks"
expect_eq "$(grep '^job b: 2 NPUs' "$T/ca.out")" "job b: 2 NPUs, dims [2], start 0, on NPUs 1,3" "strided placement"

# On one Switch every NPU has its own up- and down-link: interleaved jobs
# share no link, so the same two jobs meet nowhere (slowdown 1).
sed "s#network: two_switches.txt#network: $IN/network/switch8.yml#; s#workloads/#$J/workloads/#; s#direct_2chunks#$J/direct_2chunks#" \
    "$J/shared_link.yaml" >"$T/one_switch.yaml"
expect_ok "$VIMANA" --jobs "$T/one_switch.yaml"
expect_eq "$(grep -c 'slowdown 1.0000$' "$T/out")" 2 "interleaved jobs on one Switch"

# ---- --timeline: one file, one group of processes per job; --report per job ----
expect_ok "$VIMANA" --jobs "$J/shared_link.yaml" --report="$T/r.json" --timeline="$T/t.json"
[ -e "$T/r.json" ] && fail "a report for no job"
python3 - "$T" >"$T/outputs" <<'PY' || fail "reading the --jobs outputs"
import json, sys
t = sys.argv[1]
ev = json.load(open(t + "/t.json"))["traceEvents"]
names = sorted((e["pid"], e["args"]["name"]) for e in ev if e["name"] == "process_name")
print(names)
print(sorted({e["pid"] for e in ev}))
for job in "ab":
    r = json.load(open(t + "/r.%s.json" % job))
    print(r["job"], r["job_npus"], [n["finish"] for n in r["npus"]])
PY
expect_eq "$(cat "$T/outputs")" "[(0, 'a: rank 0 (NPU 0)'), (1, 'a: rank 1 (NPU 2)'), (2, 'b: rank 0 (NPU 1)'), (3, 'b: rank 1 (NPU 3)')]
[0, 1, 2, 3]
a [0, 2] [22488, 22488]
b [1, 3] [27730, 27730]" "timeline processes and per-job reports"

# ---- a random placement is the documented shuffle, the same every time --------
sed 's/placement: \[0, 2\]/placement: {rule: random, seed: 7}/; s/placement: {rule: strided.*/placement: {rule: random, seed: 8}/' "$J/shared_link.yaml" |
    sed "s#two_switches#$J/two_switches#; s#workloads/#$J/workloads/#; s#direct_2chunks#$J/direct_2chunks#" >"$T/random.yaml"
expect_ok "$VIMANA" --jobs "$T/random.yaml"
cp "$T/out" "$T/random1"
expect_ok "$VIMANA" --jobs "$T/random.yaml"
cmp -s "$T/out" "$T/random1" || fail "a random placement changed between runs"
# The NPUs of both jobs, in rank order: disjoint, all four used.
expect_eq "$(sed -n 's/^job [ab]: 2 NPUs.*on NPUs //p' "$T/out" | tr ',-' '\n\n' | sort | tr -d '\n')" "0123" \
    "random placements of the two jobs"
finish
