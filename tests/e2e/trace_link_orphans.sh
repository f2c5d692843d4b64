#!/bin/sh
# `vimana-et link` warns, with a count, when broken ctrl_deps cut host nodes
# off the root's tree (they are written but never linked: no durations, and
# their GPU ops are left out). The traces are the `simple` fixture of
# tests/data/trace_link (12 host nodes) with one ctrl_deps edited.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/trace_link"
K="$DATA/simple_kineto.json"
PROG="vimana-et link"
WHY="are not under the root (node 1) and stay unlinked: their ctrl_deps do not lead to it"

link() { # HOST
    expect_ok "$VIMANA_ET" link --host-trace "$1" --device-trace "$K" --output "$TEST_TMP/out.json"
}

# As shipped: node 20 (aten::detach) names the missing node 99.
link "$DATA/simple_host.json"
grep -qxF "$PROG: warning: $DATA/simple_host.json: 1 of 12 host nodes $WHY (node 20 (aten::detach): ctrl_deps 99 names no node)" \
    "$TEST_TMP/err" || fail "missing id: no warning"

# aten::to (10) names itself: 10, its child _to_copy (11), grandchild copy_
# (12) and node 20.
sed 's/"id": 10, "name": "aten::to", "ctrl_deps": 4/"id": 10, "name": "aten::to", "ctrl_deps": 10/' \
    "$DATA/simple_host.json" >"$TEST_TMP/self.json"
link "$TEST_TMP/self.json"
grep -qxF "$PROG: warning: $TEST_TMP/self.json: 4 of 12 host nodes $WHY (node 10 (aten::to): ctrl_deps names the node itself)" \
    "$TEST_TMP/err" || fail "self-loop: no warning"
# the memcpy launched by copy_ (12) is not attached any more
expect_eq "$(grep -c '"name": "Memcpy' "$TEST_TMP/out.json")" 0 "memcpy nodes after the self-loop"

# aten::linear (5) and aten::addmm (8) name each other: those two and node 20.
sed 's/"id": 5, "name": "aten::linear", "ctrl_deps": 4/"id": 5, "name": "aten::linear", "ctrl_deps": 8/' \
    "$DATA/simple_host.json" >"$TEST_TMP/cycle.json"
link "$TEST_TMP/cycle.json"
grep -qxF "$PROG: warning: $TEST_TMP/cycle.json: 3 of 12 host nodes $WHY (node 5 (aten::linear): ctrl_deps forms a cycle)" \
    "$TEST_TMP/err" || fail "cycle: no warning"

# A sound trace: no such warning.
expect_ok "$VIMANA_ET" link --host-trace "$DATA/dp_rank0_host.json" --device-trace "$DATA/dp_rank0_kineto.json" \
    --output "$TEST_TMP/out.json"
grep -q 'not under the root' "$TEST_TMP/err" && fail "warning on a sound trace"

finish
