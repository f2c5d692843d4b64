#!/bin/sh
# Compact workloads (issue 26, docs/symmetry.md "Compact workloads"):
# `generate transformer --single-file` writes one trace per pipeline stage
# (byte for byte the per-rank file of the stage's first rank), the role map
# and the groups; vimana runs it relabelled for every rank, reduced or in
# full, and prints what the per-rank workload prints. Bad role maps get one
# line naming the file and the key.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
NCCL="$VIMANA_SRCDIR/inputs/presets/dgx-a100/system.json"
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 16 ]\nbandwidth: [ 300, 25 ]\nlatency: [ 250, 1000 ]\n' \
    >"$T/net.yml"
GEN="--layers 8 --hidden 256 --heads 8 --ffn 1024 --seq 128 --vocab 1024 --micro-batch 1 --global-batch 32 \
--tp 8 --pp 4 --dp 4 --sp --dist-optimizer"

# shellcheck disable=SC2086
"$VIMANA_ET" generate transformer $GEN --out "$T/r/gpt" >/dev/null || fail "generate per rank"
# shellcheck disable=SC2086
"$VIMANA_ET" generate transformer $GEN --single-file --out "$T/c/gpt" >/dev/null || fail "generate --single-file"
expect_eq "$(cd "$T/c" && ls | tr '\n' ' ')" "gpt.groups.json gpt.roles.json gpt.stage0.et gpt.stage1.et \
gpt.stage2.et gpt.stage3.et " "the compact form's files"
for p in 0 1 2 3; do
    cmp -s "$T/c/gpt.stage$p.et" "$T/r/gpt.$((p * 32)).et" || fail "stage $p: not rank $((p * 32))'s bytes"
done
cmp -s "$T/c/gpt.groups.json" "$T/r/gpt.groups.json" || fail "the groups differ"
cat >"$T/want.json" <<'JSON'
{
  "format": "vimana-roles",
  "version": 1,
  "npus": 128,
  "roles": [
    {"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 31]]},
    {"trace": "gpt.stage1.et", "rank": 32, "ranks": [[32, 63]]},
    {"trace": "gpt.stage2.et", "rank": 64, "ranks": [[64, 95]]},
    {"trace": "gpt.stage3.et", "rank": 96, "ranks": [[96, 127]]}
  ]
}
JSON
cmp -s "$T/c/gpt.roles.json" "$T/want.json" || fail "the role map: $(cat "$T/c/gpt.roles.json")"

run() { # PREFIX OUT FLAGS...: vimana with --breakdown and a JSON report OUT.json, stdout in OUT
    p=$1 o=$2
    shift 2
    "$VIMANA" --workload-configuration="$p" --comm-group-configuration="$p.groups.json" --system-configuration="$NCCL" \
        --network-configuration="$T/net.yml" --breakdown --report="$o.json" --run-stats "$@" >"$o" 2>"$o.err" ||
        fail "run $p $*: $(cat "$o.err")"
    sort "$o" >"$o.sorted"
    sed 's/,$//' "$o.json" | sort >"$o.json.sorted"
}
run "$T/r/gpt" "$T/per-rank" --no-symmetry
run "$T/c/gpt" "$T/compact-full" --no-symmetry
run "$T/c/gpt" "$T/compact"
grep -q '^vimana: 128 NPUs loaded in .* (4 traces parsed)' "$T/compact.err" || fail "compact: $(cat "$T/compact.err")"
grep -q '^vimana: symmetry: on (.*: 4 classes of 32 NPUs' "$T/compact.err" || fail "compact: not reduced"
for o in compact-full compact; do
    cmp -s "$T/$o.sorted" "$T/per-rank.sorted" || {
        fail "$o: the reports differ from the per-rank workload's"
        diff "$T/per-rank.sorted" "$T/$o.sorted" | head -n 6 >&2
    }
    cmp -s "$T/$o.json.sorted" "$T/per-rank.json.sorted" || fail "$o: the --report differs from the per-rank one's"
done

# The ET tools read each role's trace as the ET it is; given the prefix
# they say which files to name.
"$VIMANA_ET" validate "$T/c/gpt.stage1.et" >/dev/null || fail "validate a stage's trace"
expect_error "vimana-et stats: $T/c/gpt: a compact workload ($T/c/gpt.roles.json): name one of the traces it lists, \
each an ET of its own" "$VIMANA_ET" stats "$T/c/gpt"

# The per-rank traces take precedence over a role map beside them.
cp "$T/c/gpt.roles.json" "$T/r/"
"$VIMANA" --workload-configuration="$T/r/gpt" --comm-group-configuration="$T/r/gpt.groups.json" \
    --system-configuration="$NCCL" --network-configuration="$T/net.yml" >/dev/null 2>"$T/err" || fail "precedence"
expect_eq "$(cat "$T/err")" "vimana: warning: $T/r/gpt.roles.json ignored: the per-rank traces ($T/r/gpt.0.et to \
$T/r/gpt.127.et) take precedence" "precedence warning"

# Bad role maps: one line each.
bad() { # WHAT EXPECTED-LINE: $T/c/bad.roles.json as written on stdin
    cat >"$T/c/bad.roles.json"
    expect_error "$2" "$VIMANA" --workload-configuration="$T/c/bad" --comm-group-configuration="$T/c/gpt.groups.json" \
        --system-configuration="$NCCL" --network-configuration="$T/net.yml"
}
M="$T/c/bad.roles.json"
head='{"format": "vimana-roles", "version": 1, "npus": 128, "roles": ['
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 127]]}]}' | sed 's/128/64/' |
    bad npus "vimana: error: $M: key 'npus': the workload has 64 NPUs but the network 128"
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 100]]}]}' |
    bad uncovered "vimana: error: $M: key 'roles': rank 101 is in no role"
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 127]]}, {"trace": "gpt.stage1.et", "rank": 32, "ranks": [32]}]}' |
    bad twice "vimana: error: $M: roles[1].ranks: rank 32 is also in roles[0]"
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "rnaks": [[0, 127]]}]}' |
    bad key "vimana: error: $M: roles[0]: unknown key 'rnaks'"
echo "$head"'{"trace": "gpt.stage0.et", "rank": 5, "ranks": [[6, 127], [0, 4]]}]}' |
    bad rank "vimana: error: $M: roles[0].rank: rank 5 does not run the role's trace (it is not in roles[0].ranks)"
echo "$head"'{"trace": "gpt.stage9.et", "rank": 0, "ranks": [[0, 127]]}]}' |
    bad missing "vimana: error: workload file: $T/c/gpt.stage9.et does not exist"
echo '{"format": "vimana-roles", "version": 2, "npus": 128, "roles": []}' |
    bad version "vimana: error: $M: key 'version': version 2 is newer than this vimana reads (1)"
# stage 0's trace run by the last stage's ranks too: their pipeline sends leave the system
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 31], [96, 127]]},
 {"trace": "gpt.stage1.et", "rank": 32, "ranks": [[32, 63]]}, {"trace": "gpt.stage2.et", "rank": 64, "ranks": [[64, 95]]}]}' |
    bad peers "vimana: error: $T/c/gpt.stage0.et: node 13 (send_fwd_mb0): comm_dst 32, written for rank 0, is 159 for \
rank 127, not an NPU of this 128-NPU system ($M)"
# two groups of one shape overlap: which one does another rank run?
printf '{"1": [0, 1], "2": [1, 2]}\n' >"$T/overlap.json"
echo "$head"'{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 127]]}]}' >"$M"
expect_error "vimana: error: $T/overlap.json: communicator groups 1 and 2 have the same shape and both hold NPU 1: a \
compact workload cannot tell which one another rank runs" "$VIMANA" --workload-configuration="$T/c/bad" \
    --comm-group-configuration="$T/overlap.json" --system-configuration="$NCCL" --network-configuration="$T/net.yml"

# A collective on a group the NPU is not in (per rank, no compact form).
"$VIMANA_ET" generate all-reduce --npus 4 --size 1MiB --out "$T/g/ar" >/dev/null || fail "generate all-reduce"
for i in 0 1 2 3; do
    "$VIMANA_ET" json "$T/g/ar.$i.et" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
doc["nodes"][0].setdefault("attr", []).append({"name": "pg_name", "string_val": "1"})
json.dump(doc, sys.stdout)' >"$T/g/w.json" && "$VIMANA_ET" from-json "$T/g/w.json" -o "$T/g/ar.$i.et" >/dev/null ||
        fail "pg_name on rank $i"
done
printf '{"1": [0, 1]}\n' >"$T/g/groups.json"
printf 'topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/ring4.yml"
expect_error "vimana: error: $T/g/ar.2.et: node 2 (all_reduce_4npus_1MB): NPU 2 is not a member of communicator group 1" \
    "$VIMANA" --workload-configuration="$T/g/ar" --comm-group-configuration="$T/g/groups.json" \
    --system-configuration="$NCCL" --network-configuration="$T/ring4.yml" --no-symmetry
finish
