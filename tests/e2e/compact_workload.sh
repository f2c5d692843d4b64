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

# The ET tools read each role's trace as the ET it is, and the prefix as
# the whole workload: stats totals over every rank, validate matches every
# rank's sends and receives, as on the per-rank files.
"$VIMANA_ET" validate "$T/c/gpt.stage1.et" >/dev/null || fail "validate a stage's trace"
"$VIMANA_ET" stats "$T/r/gpt" | sed -n '/^total/,$p' | tail -n +2 >"$T/stats.r" || fail "stats per rank"
"$VIMANA_ET" stats "$T/c/gpt" >"$T/stats.c" || fail "stats compact"
expect_eq "$(grep -c ' (the trace of 32 ranks)$' "$T/stats.c")" 4 "stats: one section per role"
expect_eq "$(sed -n '/^total/p' "$T/stats.c")" "total (128 ranks, 4 traces)" "stats: the totals' title"
sed -n '/^total/,$p' "$T/stats.c" | tail -n +2 | cmp -s - "$T/stats.r" || fail "stats: totals differ from per rank"
pairs=$("$VIMANA_ET" validate "$T/r/gpt" | sed 's/.*nodes, \([0-9]*\) send.*/\1/')
nodes=$(sed -n '/^total/q;s/^  nodes *//p' "$T/stats.c" | awk '{ n += $1 } END { print n }')  # the 4 traces'
expect_eq "$("$VIMANA_ET" validate "$T/c/gpt")" "$T/c/gpt: valid (128 ranks in 4 traces, $nodes nodes, \
$pairs send/recv pairs matched)" "validate compact"
# A tag changed in stage 0's first send: both sides of it, as ranks 0 and 32 run them.
"$VIMANA_ET" json "$T/c/gpt.stage0.et" -o "$T/s0.json" || fail "json"
mkdir -p "$T/t" && cp "$T/c/gpt.roles.json" "$T/c/gpt.stage1.et" "$T/c/gpt.stage2.et" "$T/c/gpt.stage3.et" "$T/t/"
awk '/"type": "COMM_SEND_NODE"/ { send = 1 } send && /"name": "comm_tag"/ { tag = 1 }
     tag && /_val"/ && !done { sub(/: [0-9-]+/, ": 777"); done = 1 } { print }' "$T/s0.json" >"$T/s0x.json"
"$VIMANA_ET" from-json "$T/s0x.json" -o "$T/t/gpt.stage0.et" || fail "from-json"
"$VIMANA_ET" validate "$T/t/gpt" 2>"$T/err" && fail "a changed tag passes"
send=$(grep -o 'node [0-9]* (send_fwd_mb0)' "$T/err")
# 8192 bytes: the activation of a micro-batch, 128 tokens x 256 x 2 bytes, split 8 ways by --sp
expect_eq "$(cat "$T/err")" "$T/t/gpt.stage1.et: node 1 (recv_fwd_mb0): COMM_RECV from rank 0 (tag 0, 8192 bytes): as \
rank 32 runs it, from rank 0, no COMM_SEND in $T/t/gpt.stage0.et (rank 0's trace) matches it
$T/t/gpt.stage0.et: $send: COMM_SEND to rank 32 (tag 777, 8192 bytes): as rank 0 runs it, to rank 32, no COMM_RECV \
in $T/t/gpt.stage1.et (rank 32's trace) matches it
vimana-et validate: $T/t/gpt: 2 problems" "validate: a changed tag"
# Stage 0's trace run by the last stage's ranks too: its sends leave the workload (said once per node).
cp "$T/c/gpt.stage0.et" "$T/t/"
roles='{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 31], [96, 127]]},
 {"trace": "gpt.stage1.et", "rank": 32, "ranks": [[32, 63]]}, {"trace": "gpt.stage2.et", "rank": 64, "ranks": [[64, 95]]}'
echo '{"format": "vimana-roles", "version": 1, "npus": 128, "roles": ['"$roles"']}' >"$T/t/gpt.roles.json"
"$VIMANA_ET" validate "$T/t/gpt" 2>"$T/err" && fail "sends out of the workload pass"
expect_eq "$(grep -c "$send: COMM_SEND to rank 32, written for rank 0, is 128 for rank 96, not a rank of this \
128-rank workload" "$T/err")" 1 "validate: a peer outside the ranks"
# synth reads every rank's role trace relabelled: the model is the per-rank one, byte for byte.
"$VIMANA_ET" synth fit "$T/r/gpt" --groups "$T/r/gpt.groups.json" -o "$T/m.r.json" || fail "synth fit per rank"
"$VIMANA_ET" synth fit "$T/c/gpt" --groups "$T/c/gpt.groups.json" -o "$T/m.c.json" || fail "synth fit compact"
cmp -s "$T/m.r.json" "$T/m.c.json" || fail "synth fit: the compact workload's model differs from the per-rank one's"
"$VIMANA_ET" synth compare "$T/r/gpt" "$T/r/gpt" --json >"$T/cmp.rr" || fail "synth compare per rank"
"$VIMANA_ET" synth compare "$T/r/gpt" "$T/c/gpt" --json >"$T/cmp.rc" || fail "synth compare compact"
cmp -s "$T/cmp.rr" "$T/cmp.rc" || fail "synth compare: the compact workload is not the per-rank one: $(cat "$T/cmp.rc")"
# obfuscate, which writes every rank's trace, says it needs them.
expect_error "vimana-et obfuscate: $T/c/gpt: a compact workload ($T/c/gpt.roles.json, 128 ranks in 4 traces): this \
command reads each rank's own trace (generate them without --single-file)" "$VIMANA_ET" obfuscate "$T/c/gpt" -o "$T/o"
expect_error "vimana-et stats: error: $T/b.roles.json: key 'npus': a workload of no ranks" \
    sh -c "printf '{\"format\": \"vimana-roles\", \"version\": 1, \"npus\": 0, \"roles\": []}' >'$T/b.roles.json' &&
    exec '$VIMANA_ET' stats '$T/b'"

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
