#!/bin/sh
# `vimana-et convert pytorch` on small hand-made traces whose ctrl_deps are
# broken: the nodes whose parent chain does not reach a thread root get no
# dependencies and are removed; a warning counts them and names where the
# chain breaks. The process root naming itself is the ET convention, not a
# fault; it is removed as dangling and the thread root's ctrl_deps on it is
# left out (noted) unless --compat.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

PROG="vimana-et convert pytorch"
T=$TEST_TMP
IO='"inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": [{"name": "rf_id", "value": 0}, {"name": "fw_parent", "value": 0}, {"name": "seq_id", "value": 0}, {"name": "scope", "value": 0}, {"name": "tid", "value": 1}, {"name": "fw_tid", "value": 0}, {"name": "op_schema", "value": ""}]'
trace() { # NODES-JSON
    printf '{"schema": "1.0.2-chakra.0.0.4", "pid": 1, "time": "t", "start_ts": 1, "nodes": [%s], "finish_ts": 2}\n' "$1"
}
node() { # ID NAME CTRL_DEPS
    printf '{"id": %s, "name": "%s", "ctrl_deps": %s, %s}' "$1" "$2" "$3" "$IO"
}
ROOTS="$(node 1 '[pytorch|profiler|execution_trace|process]' 1), $(node 2 '[pytorch|profiler|execution_trace|thread]' 1), $(node 3 a 2)"
NOTE="$PROG: note: %s: dropped 1 dependency on a node removed as dangling (ctrl_deps of node 2 on node 1); --compat keeps it"

# convert NAME NODES-JSON: converts, leaves the node ids written in $T/ids.
convert() {
    trace "$2" >"$T/$1.json"
    expect_ok "$VIMANA_ET" convert pytorch --input "$T/$1.json" --output "$T/$1.et"
    "$VIMANA_ET" json "$T/$1.et" | sed -n 's/^   "id": "\([0-9]*\)",$/\1/p' | tr '\n' ' ' >"$T/ids"
}

# Sound: thread root 2 -> a (3) -> b (4); the process root goes, quietly.
convert sound "$ROOTS, $(node 4 b 3)"
expect_eq "$(cat "$T/ids")" "2 3 4 " "sound: nodes written"
expect_eq "$(cat "$T/err")" "$(printf "$NOTE" "$T/sound.json")" "sound: stderr"

# b (4) names the missing node 99: b and its child c (5) are lost.
convert missing "$ROOTS, $(node 4 b 99), $(node 5 c 4), $(node 6 d 3)"
expect_eq "$(cat "$T/ids")" "2 3 6 " "missing id: nodes written"
grep -qxF "$PROG: warning: $T/missing.json: 2 of 6 nodes dropped: their ctrl_deps do not lead to a thread root (node 4 (b): ctrl_deps 99 names no node)" \
    "$T/err" || fail "missing id: no warning"

# b (4) names itself.
convert self "$ROOTS, $(node 4 b 4), $(node 5 c 4), $(node 6 d 3)"
expect_eq "$(cat "$T/ids")" "2 3 6 " "self-loop: nodes written"
grep -qxF "$PROG: warning: $T/self.json: 2 of 6 nodes dropped: their ctrl_deps do not lead to a thread root (node 4 (b): ctrl_deps names the node itself)" \
    "$T/err" || fail "self-loop: no warning"

# b (4) and c (5) name each other; d (6) hangs below c.
convert cycle "$ROOTS, $(node 4 b 5), $(node 5 c 4), $(node 6 d 5), $(node 7 e 3)"
expect_eq "$(cat "$T/ids")" "2 3 7 " "cycle: nodes written"
grep -qxF "$PROG: warning: $T/cycle.json: 3 of 7 nodes dropped: their ctrl_deps do not lead to a thread root (node 4 (b): ctrl_deps forms a cycle)" \
    "$T/err" || fail "cycle: no warning"

# Everything but the thread root hangs below a self-loop: 18 of 19 nodes
# used to vanish without a word. (The thread root itself, with nothing
# depending on it, is removed as dangling too.)
nodes="$(node 1 '[pytorch|profiler|execution_trace|process]' 1), $(node 2 '[pytorch|profiler|execution_trace|thread]' 1), $(node 3 step 3)"
i=4
while [ $i -le 19 ]; do
    nodes="$nodes, $(node $i op$i $((i - 1)))"
    i=$((i + 1))
done
convert deep "$nodes"
expect_eq "$(cat "$T/ids")" "" "deep: nodes written"
grep -qxF "$PROG: warning: $T/deep.json: 17 of 19 nodes dropped: their ctrl_deps do not lead to a thread root (node 3 (step): ctrl_deps names the node itself)" \
    "$T/err" || fail "deep: no warning"

finish
