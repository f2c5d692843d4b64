#!/bin/sh
# The reduced simulation over roles (issue 26, docs/symmetry.md "Roles"):
# transformer steps of TP x PP x DP ranks fall into one class per pipeline
# stage; one representative per class is simulated, and every NPU's report,
# the --report file and --breakdown are the full simulation's. Where no
# relabelling keeps the run, the line says why.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/symmetry_compare.sh"
T="$TEST_TMP"
NCCL="$VIMANA_SRCDIR/inputs/presets/dgx-a100/system.json"

net() { # FILE TOPOLOGY0 TOPOLOGY1 N1: 8 NPUs a node, N1 nodes
    printf 'topology: [ %s, %s ]\nnpus_count: [ 8, %s ]\nbandwidth: [ 300, 25 ]\nlatency: [ 250, 1000 ]\n' \
        "$2" "$3" "$4" >"$1"
}
cat >"$T/ring.json" <<'JSON'
{"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
 "preferred-dataset-splits": 4, "all-reduce-implementation": ["ring", "ring"],
 "all-gather-implementation": ["ring", "direct"], "reduce-scatter-implementation": ["ring", "ring"],
 "all-to-all-implementation": ["direct", "direct"], "collective-optimization": "localBWAware",
 "local-mem-bw": 1600}
JSON

gen() { # PREFIX FLAGS...: a small GPT on TP 8 x PP 4 x DP 4 = 128 ranks
    out=$1
    shift
    "$VIMANA_ET" generate transformer --layers 8 --hidden 256 --heads 8 --ffn 1024 --seq 128 --vocab 1024 \
        --micro-batch 1 --global-batch 32 --tp 8 --pp 4 --dp 4 "$@" --out "$out" >/dev/null ||
        fail "generate $out $*"
}

ON="the NPUs' traces are alike up to rotations of the communicator groups like 1 (8 NPUs), the communicator \
groups like 17 (4 NPUs): 4 classes of 32 NPUs, analytical backend on dimensions"

# 1F1B with SP and the distributed optimizer, the DGX A100 preset (nccl)
gen "$T/w1/gpt" --sp --dist-optimizer
net "$T/sw.yml" Switch Switch 16
(cd "$T" && REPORT=json compare "1f1b, nccl" on --workload-configuration="$T/w1/gpt" \
    --comm-group-configuration="$T/w1/gpt.groups.json" --system-configuration="$NCCL" \
    --network-configuration="$T/sw.yml" --breakdown)
expect_eq "$(grep '^vimana: symmetry: ' "$T/reduced.err")" "vimana: symmetry: on ($ON); reduced simulation: 4 NPUs \
simulated (one per class), their messages mirrored for the other 124 NPUs" "1f1b: the symmetry line"
grep -q '^breakdown of NPU [0-9]* ' "$T/reduced.out" || fail "1f1b: no breakdown"
# a 32nd of the messages: one NPU of each 32
reduced=$(sed -n 's/.*: \([0-9]*\) messages, .*/\1/p' "$T/reduced.err")
full=$("$VIMANA" --workload-configuration="$T/w1/gpt" --comm-group-configuration="$T/w1/gpt.groups.json" \
    --system-configuration="$NCCL" --network-configuration="$T/sw.yml" --no-symmetry --run-stats 2>&1 >/dev/null |
    sed -n 's/.*: \([0-9]*\) messages, .*/\1/p')
expect_eq "$((reduced * 32))" "$full" "1f1b: messages of the reduced run"

# Interleaved 1F1B, ring and direct, a Ring of 8 in the node (the TP groups'
# rotation is the Ring's), the report as CSV
gen "$T/w2/gpt" --virtual-stages 2
net "$T/ring-sw.yml" Ring Switch 16
(cd "$T" && REPORT=csv compare "interleaved, ring" on --workload-configuration="$T/w2/gpt" \
    --comm-group-configuration="$T/w2/gpt.groups.json" --system-configuration="$T/ring.json" \
    --network-configuration="$T/ring-sw.yml" --breakdown)
grep -q "4 classes of 32 NPUs" "$T/reduced.err" || fail "interleaved: not 4 classes: $(cat "$T/reduced.err")"

# --progress reports the representatives' progress
"$VIMANA" --workload-configuration="$T/w2/gpt" --comm-group-configuration="$T/w2/gpt.groups.json" \
    --system-configuration="$T/ring.json" --network-configuration="$T/ring-sw.yml" --progress >/dev/null 2>"$T/err" ||
    fail "progress: run failed"
grep -q '^vimana: simulated (reduced: 4 representatives for all 128): t = [0-9]* ns, [0-9]* messages, 128 of 128 NPUs finished' \
    "$T/err" || fail "progress: $(cat "$T/err")"

# Between nodes a Ring of 16 holds 4 stages of 4 DP ranks: rotating the DP
# groups does not keep its hop counts, so the DP groups span classes
net "$T/ring-ring.yml" Ring Ring 16
expect_ok "$VIMANA" --workload-configuration="$T/w2/gpt" --comm-group-configuration="$T/w2/gpt.groups.json" \
    --system-configuration="$T/ring.json" --network-configuration="$T/ring-ring.yml" --run-stats
expect_eq "$(grep '^vimana: symmetry: ' "$T/err")" "vimana: symmetry: not eligible (communicator group 17 spans NPUs \
0 and 8 of different classes (the communicator groups like 17 (4 NPUs): it does not keep the hop counts of Ring \
dimension 1 (a Switch or FullyConnected dimension, or a rotation of the Ring, would))); full simulation" "Ring between nodes"

# oneRing runs one ring over both dimensions: no rotation of one dimension
# keeps its schedule as far as the descriptors say (the check once looked
# at dimension 0 only, and kept the rotation of dimension 1)
sed 's/"all-reduce-implementation": \["ring", "ring"\]/"all-reduce-implementation": ["oneRing"]/' "$T/ring.json" \
    >"$T/one.json"
"$VIMANA_ET" generate all-reduce --npus 128 --size 1MiB --single-file --out "$T/oa/ar" >/dev/null || fail "generate ar"
printf '{"1": [0, 1, 2, 3, 4, 5, 6, 7]}\n' >"$T/one-group.json"
expect_ok "$VIMANA" --workload-configuration="$T/oa/ar" --comm-group-configuration="$T/one-group.json" \
    --system-configuration="$T/one.json" --network-configuration="$T/sw.yml" --run-stats
grep -q '^vimana: symmetry: not eligible ' "$T/err" || fail "oneRing: $(grep symmetry "$T/err")"

# Pipeline only (no groups but the ranks' sends): 4 stages on one node of
# 4 NPUs are 4 classes of 1, nothing to reduce
"$VIMANA_ET" generate transformer --layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 \
    --global-batch 4 --tp 1 --pp 4 --dp 1 --out "$T/w3/gpt" >/dev/null || fail "generate pp"
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 2, 2 ]\nbandwidth: [ 300, 25 ]\nlatency: [ 250, 1000 ]\n' \
    >"$T/sw4.yml"
expect_ok "$VIMANA" --workload-configuration="$T/w3/gpt" --system-configuration="$T/ring.json" \
    --network-configuration="$T/sw4.yml" --run-stats
expect_eq "$(grep '^vimana: symmetry: ' "$T/err")" "vimana: symmetry: not eligible (no relabelling of the NPUs keeps \
the run (dimension 0: NPU 0 has 25 nodes, NPU 1 33)); full simulation" "pipeline only"
finish
