#!/bin/sh
# Single-trace workloads and shared traces (issue 14): a prefix for which
# only PREFIX.et (or PREFIX.et.gz) exists runs that trace on every NPU; the
# per-rank form PREFIX.i.et takes precedence when both exist. NPUs whose
# traces hold the same bytes share one parsed trace (--run-stats counts the
# traces parsed); SEND/RECV checks, which depend on the NPU, still name the
# file and the node for the NPU that breaks them.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
S="$VIMANA_SRCDIR/inputs/system/ring.json"
N="$VIMANA_SRCDIR/inputs/network/ring8.yml"
sim() { # PREFIX [FLAGS...]
    prefix=$1
    shift
    sim_run "$prefix" "$S" "$N" --no-symmetry "$@"
}
# (--no-symmetry: outputs of the full simulation are compared byte for byte;
# symmetry_equivalence.sh compares the reduced one.)
finished_all() { # N CYCLES WHAT
    expect_eq "$(grep -c "^sys\[[0-9]*\] finished, $2 cycles" "$T/out")" "$1" "$3"
}
parsed() { # COUNT WHAT: the --run-stats line says how many traces were parsed
    grep -q "^vimana: 8 NPUs loaded in [0-9.]* s ($1 parsed); simulated " "$T/err" ||
        fail "$2: run-stats line lacks '($1 parsed)': $(cat "$T/err")"
}

# 1 MiB all-reduce, ring of 8 (golden ring8-ring-ar: 117780 cycles on every NPU).
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$T/rank/ar" >/dev/null || fail "generate"
expect_ok sim "$T/rank/ar" --run-stats
finished_all 8 117780 "per-rank files"
cp "$T/out" "$T/per-rank.out"
parsed "8 traces" "per-rank files (ids differ)"

# The single-file form: rank 0's trace as PREFIX.et, same output.
mkdir -p "$T/one" "$T/gz"
cp "$T/rank/ar.0.et" "$T/one/ar.et"
expect_ok sim "$T/one/ar" --run-stats
cmp -s "$T/out" "$T/per-rank.out" || fail "single file: stdout differs from the per-rank run"
parsed "1 trace" "single file"
gzip -c "$T/rank/ar.0.et" >"$T/gz/ar.et.gz"
expect_ok sim "$T/gz/ar" --run-stats
cmp -s "$T/out" "$T/per-rank.out" || fail "single file .et.gz: stdout differs from the per-rank run"
parsed "1 trace" "single file .et.gz"

# Both forms: the per-rank traces win, with a warning. PREFIX.et is a 2 MiB
# all-reduce here, so running it would change the cycles.
"$VIMANA_ET" generate all-reduce --npus 8 --size 2MiB --out "$T/big/ar" >/dev/null || fail "generate 2MiB"
cp "$T/big/ar.0.et" "$T/rank/ar.et"
expect_ok sim "$T/rank/ar"
cmp -s "$T/out" "$T/per-rank.out" || fail "both forms: stdout differs from the per-rank run"
expect_eq "$(cat "$T/err")" "vimana: warning: $T/rank/ar.et ignored: the per-rank traces ($T/rank/ar.0.et to $T/rank/ar.7.et) take precedence" "both forms: warning"
# ... and alone it runs on every NPU as its per-rank form does.
expect_ok sim "$T/big/ar"
cp "$T/out" "$T/big.out"
mkdir -p "$T/big1"
cp "$T/big/ar.0.et" "$T/big1/ar.et"
expect_ok sim "$T/big1/ar"
cmp -s "$T/out" "$T/big.out" || fail "2 MiB single file: stdout differs from the per-rank run"
grep -q "finished, 117780 cycles" "$T/out" && fail "2 MiB single file ran the 1 MiB trace"

# Neither form: the message is the per-rank one, unchanged.
expect_error "vimana: error: workload file: $T/none.0.et does not exist" sim "$T/none"

# Identical per-rank files (three-nodes writes the same trace on every rank):
# parsed once, golden cycles (ring8-hoti3nodes: 405520).
"$VIMANA_ET" generate three-nodes --npus 8 --out "$T/same/h" >/dev/null || fail "generate three-nodes"
expect_ok sim "$T/same/h" --run-stats
finished_all 8 405520 "identical files"
parsed "1 trace" "identical files"
# Same size, one byte different: not shared (the byte comparison, not the size, decides).
python3 - "$T/same/h.0.et" "$T/same/h.5.et" <<'PY' || fail "flip"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.find(b"COMP")
b[i] = ord("c")
open(sys.argv[2], "wb").write(b)
PY
expect_ok sim "$T/same/h" --run-stats
parsed "2 traces" "one file differing in one byte"
finished_all 8 405520 "one file differing in a node name"

# Per-file warnings: once for a single file (not once per NPU), once per
# file for identical per-rank files, as when each file was parsed.
cat >"$T/inv.json" <<'JSON'
{"global_metadata": {}, "nodes": [
 {"id": "4", "name": "a", "type": "INVALID_NODE"},
 {"id": "5", "name": "b", "type": "COMP_NODE", "data_deps": ["4", "6"]}
]}
JSON
mkdir -p "$T/inv"
"$VIMANA_ET" from-json "$T/inv.json" -o "$T/inv/w.et" >/dev/null || fail "from-json"
expect_ok sim "$T/inv/w" --drop-missing-deps
expect_eq "$(cat "$T/err")" "vimana: warning: $T/inv/w.et: ignored 1 dependencies on node ids absent from the file
vimana: warning: $T/inv/w.et: 1 INVALID_NODE node (first: node 4 (a)) runs as a zero-time node: the node type is unset" \
    "single file: one warning of each kind"
i=0
while [ "$i" -lt 8 ]; do cp "$T/inv/w.et" "$T/inv/r.$i.et"; i=$((i + 1)); done
expect_ok sim "$T/inv/r" --drop-missing-deps --run-stats
parsed "1 trace" "identical files with warnings"
expect_eq "$(grep -c "^vimana: warning: $T/inv/r\.[0-7]\.et: ignored 1 dependencies on node ids absent from the file$" "$T/err")" 8 \
    "identical files: the dropped-dependency warning for each file"
expect_eq "$(grep -c "^vimana: warning: $T/inv/r\.[0-7]\.et: 1 INVALID_NODE node (first: node 4 (a)) runs as a zero-time node: the node type is unset$" "$T/err")" 8 \
    "identical files: the INVALID_NODE warning for each file"

# SEND/RECV checks depend on the NPU: as a single file, rank 0's send
# (comm_src 0) is refused for NPU 1, naming the file and the node.
"$VIMANA_ET" generate send-recv --npus 8 --src 0 --dst 1 --out "$T/p2p/s" >/dev/null || fail "generate send-recv"
mkdir -p "$T/p2p1"
cp "$T/p2p/s.0.et" "$T/p2p1/s.et"
expect_error "vimana: error: $T/p2p1/s.et: node 0 (send_0_1): Send node should be issued by the sender (comm_src 0, but this is NPU 1)" \
    sim "$T/p2p1/s"
finish
