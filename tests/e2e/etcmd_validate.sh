#!/bin/sh
# vimana-et validate: missing dependencies, cycles (also a 200000-node one,
# deeper than any recursion would survive), attribute rules, send/recv
# matching across a prefix, damaged files; exact lines and exit codes.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
D=$VIMANA_SRCDIR/tests/data/et

for f in cycle missing_dep bad_attrs p2p.0 p2p.1 p2p.2; do
    expect_ok "$ET" from-json "$D/$f.json" -o "$T/$f.et"
done

expect_error "$T/cycle.et: node 4 (a): cycle: 4 -> 7 -> 9 -> 4" "$ET" validate "$T/cycle.et"
grep -qxF "$T/cycle.et: node 11 (self): cycle: 11 -> 11" "$T/err" || fail "self cycle"
grep -qxF "vimana-et validate: $T/cycle.et: 2 problems" "$T/err" || fail "cycle summary"

expect_error "$T/missing_dep.et: node 3 (x): data dependency on missing node 42" "$ET" validate "$T/missing_dep.et"
grep -qxF "$T/missing_dep.et: node 3 (x): control dependency on missing node 17" "$T/err" || fail "missing ctrl dep"
expect_eq "$(wc -l < "$T/err")" 3 "missing_dep lines"

"$ET" validate "$T/bad_attrs.et" > "$T/out" 2> "$T/err"
expect_eq "$?" 1 "bad_attrs exit status"
cat > "$T/want" <<WANT
$T/bad_attrs.et: node 1 (coll_no_type): COMM_COLL_NODE without comm_type
$T/bad_attrs.et: node 2 (coll_bad_type): unknown comm_type 12 (expected 0-9)
$T/bad_attrs.et: node 3 (coll_string_size): comm_size has kind string_val, expected an integer
$T/bad_attrs.et: node 4 (send_no_tag): COMM_SEND_NODE without comm_tag
$T/bad_attrs.et: node 5 (recv_negative): comm_size is negative (-1)
$T/bad_attrs.et: node 6 (cpu_coll): COMM_COLL_NODE with is_cpu_op true (the simulator refuses it)
$T/bad_attrs.et: node 8 (strange): unknown node type 12
$T/bad_attrs.et: node 9 (dims): involved_dim has kind int64_val, expected bool_list
$T/bad_attrs.et: node 1 (dup): duplicate node id (first used by record 1)
$T/bad_attrs.et: warning: 1 INVALID_NODE node (the first: node 7 (no_type)); the simulator runs it as a zero-time node
vimana-et validate: $T/bad_attrs.et: 9 problems
WANT
cmp -s "$T/err" "$T/want" || { fail "bad_attrs output"; diff "$T/want" "$T/err" >&2; }

"$ET" validate "$T/p2p" > "$T/out" 2> "$T/err"
expect_eq "$?" 1 "p2p exit status"
cat > "$T/want" <<WANT
$T/p2p.0.et: node 2 (send_to_9): comm_dst 9 is not a rank of this prefix (it has 3)
$T/p2p.1.et: node 2 (wrong_src): comm_src 0 is not this file's rank 1
$T/p2p.0.et: node 0 (send_to_1): COMM_SEND to rank 1 (tag 5, 1024 bytes) has no matching COMM_RECV in $T/p2p.1.et
$T/p2p.1.et: node 0 (recv_from_0): COMM_RECV from rank 0 (tag 6, 1024 bytes) has no matching COMM_SEND in $T/p2p.0.et
vimana-et validate: $T/p2p: 4 problems
WANT
cmp -s "$T/err" "$T/want" || { fail "p2p output"; diff "$T/want" "$T/err" >&2; }
# One file of the prefix alone: its peers are not checked.
expect_ok "$ET" validate "$T/p2p.2.et"
expect_eq "$(cat "$T/out")" "$T/p2p.2.et: valid (1 file, 1 nodes)" "single file summary"

# A zero-length record: an all-default node (an INVALID_NODE), and warnings.
printf '{"global_metadata": {}, "nodes": [{}]}' > "$T/zero.json"
expect_ok "$ET" from-json "$T/zero.json" -o "$T/zero.et"
expect_ok "$ET" validate "$T/zero.et"
grep -qxF "$T/zero.et: warning: 1 INVALID_NODE node (the first: node 0 ()); the simulator runs it as a zero-time node" \
    "$T/err" || fail "zero-length record: INVALID_NODE warning"
grep -qxF "$T/zero.et: warning: 1 zero-length record(s) (read as all-default nodes; Python readers stop at the first)" "$T/err" ||
    fail "zero-length warning"

# Damaged files: the reader's message, counted as a problem.
expect_ok "$ET" generate all-reduce --npus 2 --out "$T/ar"
head -c 70 "$T/ar.0.et" > "$T/cut.et"
expect_error "$T/cut.et: record 1 (byte offset 8): truncated record: length says 72 bytes but only 61 remain" \
    "$ET" validate "$T/cut.et"
printf '\003\017\377\377' > "$T/garbage.et"
expect_error "$T/garbage.et: record 0 (byte offset 0): cannot parse GlobalMetadata (corrupt record or not a Chakra ET)" \
    "$ET" validate "$T/garbage.et"

# A 200000-node chain closed into one cycle: iterative search, and a
# printed cycle cut to a readable length.
awk 'BEGIN {
    n = 200000
    printf "{\"global_metadata\": {}, \"nodes\": [\n"
    for (i = 0; i < n; i++)
        printf "%s{\"id\": %d, \"type\": \"COMP_NODE\", \"data_deps\": [%d]}\n", i ? "," : "", i, i ? i - 1 : n - 1
    printf "]}\n"
}' > "$T/chain.json"
expect_ok "$ET" from-json "$T/chain.json" -o "$T/chain.et"
expect_error "vimana-et validate: $T/chain.et: 1 problem" "$ET" validate "$T/chain.et"
grep -q "^$T/chain.et: node 0 (): cycle: 0 -> 1 -> 2 -> 3 -> .* -> \.\.\. (200000 nodes)\$" "$T/err" || fail "long cycle line"

# Usage errors.
expect_error "vimana-et validate: $T/nothing: no such file, and no $T/nothing.0.et" "$ET" validate "$T/nothing"
expect_error "vimana-et validate: missing PREFIX_OR_FILE (see --help)" "$ET" validate
expect_error "vimana-et validate: unknown option '--fix' (see --help)" "$ET" validate --fix "$T/ar"

# Valid inputs: a summary line on stdout, exit 0.
expect_ok "$ET" validate "$T/ar"
expect_eq "$(cat "$T/out")" "$T/ar: valid (2 files, 2 nodes)" "all-reduce summary"

C=$REF/corpus/et
G=$REF/golden/inputs/workload
expect_ok "$ET" validate "$C/astra-sim-custom-collectives/custom_allreduce"
expect_eq "$(cat "$T/out")" "$C/astra-sim-custom-collectives/custom_allreduce: valid (8 files, 280 nodes, 112 send/recv pairs matched)" "custom collectives"
expect_ok "$ET" validate "$G/ring_shift_then_ar_8/ring_shift_then_ar_8"
expect_eq "$(cat "$T/out")" "$G/ring_shift_then_ar_8/ring_shift_then_ar_8: valid (8 files, 32 nodes, 8 send/recv pairs matched)" "ring shift"
expect_ok "$ET" validate "$C/micro2024-demo2/MLP_ModelParallel"
expect_ok "$ET" validate "$G/hoti_3nodes_8/hoti_3nodes_8"
# Upstream's PyTorch trace really has dangling control deps and cycles.
# (tests/data keeps it gzip'd: ref_file gives the plain file)
CH=$(ref_file corpus/et/chakra-tests/chakra.0.et)
"$ET" validate "$CH" > "$T/out" 2> "$T/err"
expect_eq "$?" 1 "chakra.0.et exit status"
expect_eq "$(grep -c 'control dependency on missing node' "$T/err")" 1277 "chakra.0.et dangling ctrl deps"
grep -qxF "$CH: node 3322 (aten::threshold_backward(1)): cycle: 3322 -> 3322" "$T/err" || fail "chakra.0.et self cycle"
finish
