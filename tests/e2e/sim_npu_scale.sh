#!/bin/sh
# vimana --npu-compute-scale=FILE.json (docs/simulator.md, "Unequal NPUs"):
# per-NPU multipliers of compute durations -- stragglers, mixed GPUs -- on
# their own, with --compute-scale, under --jobs (the network's NPUs), and
# their one-line errors.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
printf 'topology: [ Switch ]\nnpus_count: [ 4 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/sw4.yml"

# Compute only: each of 4 NPUs runs one 100 us node (PREFIX.et, the same on every NPU).
cat >"$T/c.json" <<'JSON'
{"global_metadata": {"version": "0.0.4"}, "nodes": [{"id": "1", "name": "gemm", "type": "COMP_NODE",
 "duration_micros": "100", "attr": [{"name": "is_cpu_op", "bool_val": false}]}]}
JSON
"$VIMANA_ET" from-json "$T/c.json" -o "$T/c.et" || fail "from-json"
run() { # NETWORK FLAGS...: finish ticks by NPU, one line
    net=$1
    shift
    "$VIMANA" --workload-configuration="$T/c" --system-configuration="$SYS" --network-configuration="$net" "$@" \
        >"$T/out" 2>"$T/err" || { fail "run $*: $(cat "$T/err")"; return; }
    sed -n 's/^sys\[\([0-9]*\)\] finished, \([0-9]*\) cycles.*/\1 \2/p' "$T/out" | sort -n | cut -d' ' -f2 | tr '\n' ' '
}
echo '{"1": 2.5, "2-3": 0.5}' >"$T/s.json"
expect_eq "$(run "$T/sw4.yml" --npu-compute-scale="$T/s.json")" "100000 250000 50000 50000 " "per-NPU scales"
# with --compute-scale: the product, rounded once (100000 x 1.5 x 2.5 = 375000; x 1.5 x 0.5 = 75000)
expect_eq "$(run "$T/sw4.yml" --npu-compute-scale="$T/s.json" --compute-scale=1.5)" "150000 375000 75000 75000 " \
    "with --compute-scale"
grep -q "symmetry" "$T/err" && fail "no symmetry line expected without --run-stats"
run "$T/sw4.yml" --npu-compute-scale="$T/s.json" --run-stats >/dev/null
expect_eq "$(grep '^vimana: symmetry' "$T/err")" "vimana: symmetry: not eligible (--npu-compute-scale gives NPU 1 2.5 \
times the compute time and NPU 0 1 times); full simulation" "the reduction is refused"

# A DP-8 step with NPU 3 at scale 2.0: every rank finishes later, and NPU 3's compute (its
# finish less its exposed communication) is exactly twice another rank's.
"$VIMANA_ET" generate transformer --layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 \
    --global-batch 8 --tp 1 --pp 1 --dp 8 --out "$T/dp/g" >/dev/null || fail "generate DP 8"
printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/sw8.yml"
dp() { # FLAGS...: "NPU FINISH EXPOSED" lines
    "$VIMANA" --workload-configuration="$T/dp/g" --comm-group-configuration="$T/dp/g.groups.json" \
        --system-configuration="$SYS" --network-configuration="$T/sw8.yml" "$@" 2>"$T/err" |
        sed -n 's/^sys\[\([0-9]*\)\] finished, \([0-9]*\) cycles, exposed communication \([0-9]*\) cycles./\1 \2 \3/p' |
        sort -n
}
dp >"$T/even"
echo '{"3": 2.0}' >"$T/straggler.json"
dp --npu-compute-scale="$T/straggler.json" >"$T/slow"
expect_eq "$(wc -l <"$T/slow")" 8 "8 ranks report"
later=$(join "$T/even" "$T/slow" | awk '$4 > $2 { n++ } END { print n + 0 }')
expect_eq "$later" 8 "every rank finishes later with a straggler"
expect_eq "$(awk '$1 == 3 { print $2 - $3 }' "$T/slow")" "$(awk '$1 == 0 { print 2 * ($2 - $3) }' "$T/even")" \
    "the straggler's compute doubles"

# --jobs: the file names the network's NPUs. Two jobs of 2 NPUs on the 4-NPU switch, the second
# on NPUs 2-3: NPU 3 (its rank 1) at 3.0 slows that job's rank 1 only.
mkdir -p "$T/j"
cp "$T/c.et" "$T/j/c.et"
cat >"$T/j/jobs.yaml" <<YAML
network: $T/sw4.yml
backend: analytical
jobs:
  - name: a
    workload: c
    system: $SYS
    dims: [2]
    placement: contiguous
  - name: b
    workload: c
    system: $SYS
    dims: [2]
    placement: {rule: contiguous, offset: 2}
YAML
echo '{"3": 3.0}' >"$T/j3.json"
"$VIMANA" --jobs "$T/j/jobs.yaml" --npu-compute-scale="$T/j3.json" >"$T/jobs.out" 2>"$T/err" || fail "jobs: $(cat "$T/err")"
expect_eq "$(grep -c '^sys\[[01]\] finished, 100000 cycles' "$T/jobs.out")" 3 "jobs: three ranks at 100 us"
expect_eq "$(grep -c '^sys\[1\] finished, 300000 cycles' "$T/jobs.out")" 1 "jobs: NPU 3 (job b's rank 1) at 300 us"

# One-line errors naming the file and the key.
bad() { # JSON EXPECTED-LINE
    printf '%s\n' "$1" >"$T/bad.json"
    expect_error "vimana: error: $T/bad.json: $2" "$VIMANA" --workload-configuration="$T/c" --system-configuration="$SYS" \
        --network-configuration="$T/sw4.yml" --npu-compute-scale="$T/bad.json"
}
bad '{"4": 2.0}' "key '4': NPU 4 is not in this 4-NPU system"
bad '{"1-2": 2.0, "2": 3.0}' "key '2': NPU 2 is also in key '1-2'"
bad '{"3-1": 2.0}' "key '3-1': expected an NPU (\"3\") or a range of NPUs (\"8-15\")"
bad '{"x": 2.0}' "key 'x': expected an NPU (\"3\") or a range of NPUs (\"8-15\")"
bad '{"1": 0}' "key '1': 0 is not a number in (0, 1e6]"
bad '{"1": "fast"}' "key '1': \"fast\" is not a number in (0, 1e6]"
bad '[2.0]' "line 1, column 1: expected a JSON object ('{'), got '['"
echo '{"0-3": 1e6}' >"$T/huge.json"
expect_error "vimana: error: $T/c.et: node 1: duration 100000 ns times --compute-scale=1e+18 and NPU 0's \
--npu-compute-scale 1e+06 is out of range" "$VIMANA" --workload-configuration="$T/c" --system-configuration="$SYS" \
    --network-configuration="$T/sw4.yml" --npu-compute-scale="$T/huge.json" --compute-scale=1e18
expect_error "vimana: error: $T/none.json: cannot open: No such file or directory" "$VIMANA" --workload-configuration="$T/c" \
    --system-configuration="$SYS" --network-configuration="$T/sw4.yml" --npu-compute-scale="$T/none.json"
finish
