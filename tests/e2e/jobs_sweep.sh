#!/bin/sh
# Jobs files as a sweep axis (`jobs-file`, docs/sweep.md): a point runs
# `vimana --jobs FILE` and its figures are those of every job's ranks taken
# together; such a point may set no other axis.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
J="$VIMANA_SRCDIR/inputs/jobs"
cd "$TEST_TMP" || exit 1
sweep_inputs .

# shared_link.yaml (tests/e2e/jobs.sh): ranks finish at 22488, 22488, 27730,
# 27730: finish 27730, sum 100436, exposed mean 25109 (all exposed).
# switch_two_tenants.yaml: 4 x 100720 + 4 x 8960 = 438720, mean 54840.
# Point 2 is a plain run (tests/e2e/sweep.sh): 1 MiB all-reduce on ring8.
cat >s.yaml <<YAML
points:
  - {jobs-file: $J/shared_link.yaml}
  - {jobs-file: $J/switch_two_tenants.yaml}
  - {workload: ar_1MiB_8, system: ring.json, network: ring8.yml}
YAML
expect_ok "$VIMANA" sweep s.yaml --out res --no-progress
cut -d, -f1-9 res/results.csv >got.csv
"$VIMANA" --workload-configuration=ar_1MiB_8 --system-configuration=ring.json --network-configuration=ring8.yml \
    >plain.out || fail "plain run"
ar=$(sed -n 's/^sys\[0\] finished, \([0-9]*\) cycles.*/\1/p' plain.out)
cat >want.csv <<CSV
point,jobs-file,workload,system,network,status,finish,finish_sum,exposed_mean
0,$J/shared_link.yaml,,,,ok,27730,100436,25109.000
1,$J/switch_two_tenants.yaml,,,,ok,100720,438720,54840.000
2,,ar_1MiB_8,ring.json,ring8.yml,ok,$ar,$((ar * 8)),$ar.000
CSV
cmp -s got.csv want.csv || { fail "results of a jobs-file sweep"; diff want.csv got.csv >&2; }
[ -f res/points/0000/report.a.json ] && [ -f res/points/0000/report.b.json ] || fail "no per-job reports"

# A grid: the jobs-file axis alone, no base run needed; resumed as usual.
printf 'axes:\n  jobs-file: [%s, %s]\n' "$J/shared_link.yaml" "$J/switch_two_tenants.yaml" >g.yaml
expect_ok "$VIMANA" sweep g.yaml --out g --no-progress
expect_eq "$(cut -d, -f1,3,4,5,6 g/results.csv | tail -2)" "0,ok,27730,100436,25109.000
1,ok,100720,438720,54840.000" "jobs-file grid"
expect_ok "$VIMANA" sweep g.yaml --out g --no-progress
cat "$TEST_TMP/out" "$TEST_TMP/err" | grep -q "2 points: 0 run, 2 reused, 0 failed" || fail "jobs-file points are not reused"

# A stale job report of an earlier run does not count.
echo '{"npus": [{"npu": 0, "finish": 999999999, "exposed_communication": 0}]}' >g/points/0000/report.old.json
rm g/points/0000/result.json
expect_ok "$VIMANA" sweep g.yaml --out g --no-progress
expect_eq "$(sed -n 2p g/results.csv | cut -d, -f4)" 27730 "a stale job report was counted"

# Such a point sets nothing else.
printf 'workload: ar_1MiB_8\nsystem: ring.json\nnetwork: ring8.yml\naxes:\n  jobs-file: [%s]\n  network.bandwidth: [[50]]\n' \
    "$J/shared_link.yaml" >bad.yaml
expect_error "vimana sweep: error: bad.yaml:6: network.bandwidth: a point that runs a jobs-file takes the network, backend, workloads and configurations from it; it cannot also set an axis" \
    "$VIMANA" sweep bad.yaml --out bad
printf 'points:\n  - {jobs-file: %s, backend: congestion_aware}\n' "$J/shared_link.yaml" >bad.yaml
expect_error "vimana sweep: error: bad.yaml:2: backend: a point that runs a jobs-file takes the network, backend, workloads and configurations from it; it cannot also set an axis" \
    "$VIMANA" sweep bad.yaml --out bad
printf 'points:\n  - {jobs-file: %s}\n  - {backend: analytical}\n' "$J/shared_link.yaml" >bad.yaml
expect_error "vimana sweep: error: bad.yaml:1: missing key 'workload' (the base run; or an axis 'workload' that every point sets)" \
    "$VIMANA" sweep bad.yaml --out bad
finish
