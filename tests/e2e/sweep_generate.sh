#!/bin/sh
# `vimana sweep` with a generated workload (generate: and generate.KEY
# axes): every point's row equals a direct `vimana-et generate` + `vimana`
# run of the same parameters (all-reduce sizes x algorithms; transformer
# TP x PP x DP); each distinct generator runs once; a restart reuses the
# finished points and regenerates only what a point to run needs; Slurm
# batches share the workloads; a bad generator value stops the sweep
# before any point runs, with vimana-et's line blamed on the sweep file's
# line and key.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"
IN="$VIMANA_SRCDIR/inputs"
W="$TEST_TMP/w"
mkdir -p "$W"
cp "$IN/system/ring.json" "$IN/network/ring8.yml" "$IN/network/switch8.yml" "$W/"

# row REPORT: finish,finish_sum,exposed_mean of a --report (as the CSV has them).
row() {
    python3 -c 'import json, sys
n = json.load(open(sys.argv[1]))["npus"]
f = [x["finish"] for x in n]
e = sum(x["exposed_communication"] for x in n)
print("%d,%d,%.3f" % (max(f), sum(f), e / len(n)))' "$1"
}

# ---- all-reduce: size x algorithm -----------------------------------------
cat >"$W/ar.yaml" <<'YAML'
generate: {kind: all-reduce, npus: 8}
system: ring.json
network: ring8.yml
axes:
  generate.size: [64KiB, 1MiB]
  system.all-reduce-implementation: [[ring], [direct]]
plot: finish:generate.size
YAML
sweep_ok "$W/ar.yaml" "$TEST_TMP/ar" "4 points: 4 run, 0 reused, 0 failed" "all-reduce: summary" --jobs 2
want="point,generate.size,system.all-reduce-implementation,status,finish,finish_sum,exposed_mean,wall_seconds,peak_memory_kib,error"
p=0
for size in 64KiB 1MiB; do
    "$VIMANA_ET" generate all-reduce --npus 8 --size $size --out "$TEST_TMP/d/ar$size" >/dev/null ||
        fail "direct generate $size"
    for algo in ring direct; do
        sed "s/\"all-reduce-implementation\": \[\"ring\"\]/\"all-reduce-implementation\": [\"$algo\"]/" \
            "$W/ring.json" >"$TEST_TMP/sys.json"
        "$VIMANA" --workload-configuration="$TEST_TMP/d/ar$size" --system-configuration="$TEST_TMP/sys.json" \
            --network-configuration="$W/ring8.yml" --report="$TEST_TMP/d/r.json" >/dev/null ||
            fail "direct run $size $algo"
        want="$want
$p,$size,[$algo],ok,$(row "$TEST_TMP/d/r.json"),W,M,"
        p=$((p + 1))
    done
done
expect_eq "$(mask "$TEST_TMP/ar/results.csv")" "$want" "all-reduce: the CSV equals direct runs"
# Two sizes: two workloads, each generated once, named by its generator.
expect_eq "$(cat "$TEST_TMP/ar/workloads"/*/args.txt | sort | tr '\n' ' ')" \
    "all-reduce --npus 8 --size 1MiB all-reduce --npus 8 --size 64KiB " "all-reduce: one workload per size"
expect_eq "$(ls -a "$TEST_TMP/ar/workloads" | grep -c tmp)" 0 "all-reduce: no temporary folder left"
w1=$(grep -l 1MiB "$TEST_TMP/ar/workloads"/*/args.txt)
w1=${w1%/args.txt}
cmp -s "$w1/w.3.et" "$TEST_TMP/d/ar1MiB.3.et" || fail "all-reduce: the generated trace is vimana-et's"
expect_eq "$(grep -c '<polyline' "$TEST_TMP/ar/plot.svg")" 2 "all-reduce: plot against generate.size"

# ---- restart: all reused; a lost result reruns alone, regenerating only
# its own workload; a changed size reruns its points ------------------------
touch "$TEST_TMP/marker"
sleep 1
sweep_ok "$W/ar.yaml" "$TEST_TMP/ar" "4 points: 0 run, 4 reused, 0 failed" "rerun: all reused"
rm -r "$TEST_TMP/ar/workloads" "$TEST_TMP/ar/points/0003/result.json"
sweep_ok "$W/ar.yaml" "$TEST_TMP/ar" "4 points: 1 run, 3 reused, 0 failed" "lost result: 1 run"
expect_eq "$(cat "$TEST_TMP/ar/workloads"/*/args.txt)" "all-reduce --npus 8 --size 1MiB" \
    "lost result: only its workload generated"
expect_eq "$(mask "$TEST_TMP/ar/results.csv")" "$want" "lost result: the same CSV"
sed -i 's/\[64KiB, 1MiB\]/[64KiB, 2MiB]/' "$W/ar.yaml"
sweep_ok "$W/ar.yaml" "$TEST_TMP/ar" "4 points: 2 run, 2 reused, 0 failed" "changed size: 2 rerun"
expect_eq "$(rewritten "$TEST_TMP/ar" "$TEST_TMP/marker")" \
    "./0002/result.json ./0003/result.json " "changed size: the rewritten results"
"$VIMANA_ET" generate all-reduce --npus 8 --size 2MiB --out "$TEST_TMP/d/ar2MiB" >/dev/null
"$VIMANA" --workload-configuration="$TEST_TMP/d/ar2MiB" --system-configuration="$W/ring.json" \
    --network-configuration="$W/ring8.yml" --report="$TEST_TMP/d/r.json" >/dev/null
expect_eq "$(mask "$TEST_TMP/ar/results.csv" | sed -n 4p)" "2,2MiB,[ring],ok,$(row "$TEST_TMP/d/r.json"),W,M," \
    "changed size: point 2"

# ---- Slurm batches share the workloads; --collect gives the same CSV -----
# Both batches need both workloads and run at once: each generates them
# into its own temporary folder, the first rename wins, the other reuses it.
"$VIMANA" sweep "$W/ar.yaml" --out "$TEST_TMP/b" --batch 0/2 >"$TEST_TMP/b0" 2>&1 &
b0=$!
"$VIMANA" sweep "$W/ar.yaml" --out "$TEST_TMP/b" --batch 1/2 >"$TEST_TMP/b1" 2>&1 || fail "batch 1/2: $(cat "$TEST_TMP/b1")"
wait $b0 || fail "batch 0/2: $(cat "$TEST_TMP/b0")"
expect_ok "$VIMANA" sweep "$W/ar.yaml" --out "$TEST_TMP/b" --collect
expect_eq "$(mask "$TEST_TMP/b/results.csv")" "$(mask "$TEST_TMP/ar/results.csv")" "batches: the local CSV"
expect_eq "$(cat "$TEST_TMP/b/workloads"/*/args.txt | sort | tr '\n' ' ')" \
    "all-reduce --npus 8 --size 2MiB all-reduce --npus 8 --size 64KiB " "batches: the two workloads"
expect_eq "$(ls -A "$TEST_TMP/b/workloads" | wc -l)" 2 "batches: no temporary folder left"

# ---- a transformer: TP x PP x DP on 8 NPUs, with its groups --------------
cat >"$W/tf.yaml" <<'YAML'
generate:
  kind: transformer
  layers: 2
  hidden: 64
  heads: 4
  ffn: 256
  seq: 16
  vocab: 100
  micro-batch: 1
  global-batch: 8
system: ring.json
network: switch8.yml
points:
  - {generate.tp: 2, generate.pp: 2, generate.dp: 2}
  - {generate.tp: 4, generate.pp: 1, generate.dp: 2}
  - {generate.tp: 1, generate.pp: 2, generate.dp: 4, generate.recompute: true}
YAML
expect_ok "$VIMANA" sweep "$W/tf.yaml" --out "$TEST_TMP/tf"
want="point,generate.tp,generate.pp,generate.dp,generate.recompute,status,finish,finish_sum,exposed_mean,wall_seconds,peak_memory_kib,error"
p=0
for run in "2 2 2 " "4 1 2 " "1 2 4 true"; do
    set -- $run
    "$VIMANA_ET" generate transformer --layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 \
        --micro-batch 1 --global-batch 8 --tp $1 --pp $2 --dp $3 ${4:+--recompute} --out "$TEST_TMP/d/tf$p" \
        >/dev/null || fail "direct transformer $run"
    "$VIMANA" --workload-configuration="$TEST_TMP/d/tf$p" --comm-group-configuration="$TEST_TMP/d/tf$p.groups.json" \
        --system-configuration="$W/ring.json" --network-configuration="$W/switch8.yml" \
        --report="$TEST_TMP/d/r.json" >/dev/null || fail "direct transformer run $run"
    want="$want
$p,$1,$2,$3,${4:-},ok,$(row "$TEST_TMP/d/r.json"),W,M,"
    p=$((p + 1))
done
expect_eq "$(mask "$TEST_TMP/tf/results.csv")" "$want" "transformer: the CSV equals direct runs"
# The groups matter: without them the TP x PP x DP points would differ.
[ "$(cut -d, -f7 "$TEST_TMP/tf/results.csv" | sort -u | wc -l)" -eq 4 ] || fail "transformer: three finish times"

# ---- the shipped examples --------------------------------------------------
expect_ok "$VIMANA" sweep "$IN/sweeps/allreduce_size_algo.yaml" --out "$TEST_TMP/ex1"
expect_eq "$(awk -F, 'NR > 1 && $4 == "ok"' "$TEST_TMP/ex1/results.csv" | wc -l)" 12 "allreduce_size_algo: 12 ok"
expect_eq "$(ls "$TEST_TMP/ex1/workloads" | wc -l)" 3 "allreduce_size_algo: 3 workloads"
expect_ok "$VIMANA" sweep "$IN/sweeps/transformer_tp_pp.yaml" --out "$TEST_TMP/ex2"
expect_eq "$(awk -F, 'NR > 1 && $5 == "ok"' "$TEST_TMP/ex2/results.csv" | wc -l)" 6 "transformer_tp_pp: 6 ok"

# ---- bad generator values: vimana-et's line, the sweep file's line and
# key, the first point that has it; no point runs ---------------------------
cd "$W" || exit 1
# bad "TEXT" "exact stderr line": TEXT (printf format) as s.yaml.
bad() {
    rm -rf out
    printf "$1" >s.yaml
    expect_error "$2" "$VIMANA" sweep s.yaml --out out
    [ "$(wc -l <"$TEST_TMP/err")" -eq 1 ] || fail "more than one line for: $2"
    [ -n "$(find out -name result.json 2>/dev/null)" ] && fail "a point ran after: $2"
}
NET='system: ring.json\nnetwork: ring8.yml\n'
bad "generate: {kind: all-reduce, npus: 8}\n${NET}axes:\n  generate.size: [1MiB, 1XB, 2XB]\n" \
    "vimana sweep: error: s.yaml:5: generate.size: point 1: vimana-et generate: --size: expected a size such as 1048576, 64KiB, 1MiB or 1MB, got '1XB'"
bad "generate:\n  kind: all-reduce\n  npus: 0\n${NET}axes:\n  generate.size: [1MiB]\n" \
    "vimana sweep: error: s.yaml:3: generate.npus: point 0: vimana-et generate: --npus: expected 1 to 1000000 ranks, got 0"
bad "generate: {kind: transformer, layers: 4, hidden: 64, heads: 4, ffn: 256, seq: 16, vocab: 100, micro-batch: 1, global-batch: 8, tp: 2, dp: 1}\n${NET}axes:\n  generate.pp: [4, 3]\n" \
    "vimana sweep: error: s.yaml:5: generate.pp: point 1: vimana-et generate: --layers: 4 is not divisible by --pp 3"
bad "generate: {kind: transformer, layers: 4}\n${NET}axes:\n  generate.tp: [1]\n" \
    "vimana sweep: error: s.yaml:1: generate: point 0: vimana-et generate: transformer: missing --hidden"
bad "generate: {kind: all-reduce, npus: 8, sise: 1MiB}\n${NET}axes:\n  backend: [analytical]\n" \
    "vimana sweep: error: s.yaml:1: generate.sise: vimana-et generate all-reduce has no parameter 'sise' (see vimana-et generate --help)"
bad "generate: {kind: all-reduce, npus: 8}\n${NET}axes:\n  generate.kind: [all-gather, three-nodes]\n  generate.size: [1MiB]\n" \
    "vimana sweep: error: s.yaml:6: generate.size: vimana-et generate three-nodes has no parameter 'size' (see vimana-et generate --help)"
bad "generate: {kind: transformer, layers: 2}\n${NET}options: [--comm-group-configuration=g.json]\naxes:\n  generate.tp: [1]\n" \
    "vimana sweep: error: s.yaml:4: options: --comm-group-configuration is set by the sweep (the generator writes the groups)"
# A point whose generated workload does not fit the network fails alone.
printf "generate: {kind: all-reduce}\n${NET}axes:\n  generate.npus: [8, 4]\n" >s.yaml
expect_error "vimana sweep: 2 points: 2 run, 0 reused, 1 failed; results in out/results.csv" \
    sh -c '"$0" sweep s.yaml --out out 1>&2' "$VIMANA"
expect_eq "$(cut -d, -f1-4 out/results.csv | tr '\n' ' ')" "point,generate.npus,status,finish 0,8,ok,117780 1,4,failed, " \
    "npus 4 on 8 NPUs: point 1 fails"
finish
