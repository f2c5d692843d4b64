#!/bin/sh
# vimana-et merge / split: a distributed ET set as one master trace and back,
# byte for byte; validate and stats read the master as the prefix.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
ET=$VIMANA_ET
"$ET" generate transformer --layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 128 --micro-batch 1 \
    --global-batch 8 --tp 2 --pp 2 --dp 2 --out "$T/r/g" >/dev/null || fail "generate"

expect_ok "$ET" merge "$T/r/g" -o "$T/m/g.et"
expect_eq "$(cat "$T/out")" "$T/m/g.et: 8 ranks merged" "merge's line"
expect_ok "$ET" split "$T/m/g.et" -o "$T/s/g"
expect_eq "$(cat "$T/out")" "$T/s/g: 8 ranks written" "split's line"
for r in 0 1 2 3 4 5 6 7; do
    cmp -s "$T/r/g.$r.et" "$T/s/g.$r.et" || fail "rank $r: split does not give back the merged bytes"
done
# the master is an ET: its metadata, then per rank a marker and the rank's nodes
expect_eq "$("$ET" json "$T/m/g.et" | grep -c '"name": "vimana.rank"')" 8 "one marker a rank"
expect_eq "$("$ET" json "$T/m/g.et" | grep -m1 '"version"' | tr -d ' ')" '"version":"vimana-master-1",' "its version"
# validate and stats read it as the prefix
expect_eq "$("$ET" validate "$T/m/g.et")" "$T/m/g.et: valid (8 files, 656 nodes, 32 send/recv pairs matched)" "validate"
"$ET" stats "$T/r/g" | sed -n '/^total/,$p' >"$T/stats.r"
"$ET" stats "$T/m/g.et" | sed -n '/^total/,$p' >"$T/stats.m"
cmp -s "$T/stats.r" "$T/stats.m" || fail "stats: the master's totals differ from the prefix's"
expect_eq "$("$ET" stats "$T/m/g.et" | head -n 1)" "$T/m/g.et (rank 0)" "stats names a master's rank"
ls /tmp | grep -q '^vimana-master\.' && fail "a temporary split folder was left in /tmp"

# .et.gz ranks merge as their content; split gives the plain files
mkdir -p "$T/z"
for r in 0 1 2 3 4 5 6 7; do gzip -c "$T/r/g.$r.et" >"$T/z/g.$r.et.gz"; done
expect_ok "$ET" merge "$T/z/g" -o "$T/z.et"
cmp -s "$T/z.et" "$T/m/g.et" || fail "a gzip prefix merges to the same master"

# a problem in a rank of a master names the master and the rank
printf '{"global_metadata": {"version": "0.0.4"}, "nodes": [{"id": "1", "name": "a", "type": "COMP_NODE", "data_deps": ["9"]}]}\n' >"$T/bad.json"
mkdir -p "$T/b"
"$ET" from-json "$T/bad.json" -o "$T/b/p.0.et" || fail "from-json"
expect_ok "$ET" merge "$T/b/p" -o "$T/b.et"
expect_error "$T/b.et (rank 0): node 1 (a): data dependency on missing node 9" "$ET" validate "$T/b.et"

# one-line errors
expect_error "vimana-et split: $T/r/g.0.et: not a master trace of vimana-et merge (its metadata's version is not vimana-master-1)" \
    "$ET" split "$T/r/g.0.et" -o "$T/x"
expect_error "vimana-et merge: $T/none: no such file, and no $T/none.0.et" "$ET" merge "$T/none" -o "$T/x.et"
expect_error "vimana-et merge: $T/r/g.0.et: a single file; merge takes the PREFIX of PREFIX.0.et, PREFIX.1.et, ..." \
    "$ET" merge "$T/r/g.0.et" -o "$T/x.et"
expect_error "vimana-et merge: missing -o (see --help)" "$ET" merge "$T/r/g"
head -c 3000 "$T/m/g.et" >"$T/cut.et"
"$ET" split "$T/cut.et" -o "$T/c/g" 2>"$T/err" && fail "a truncated master splits"
grep -q "^vimana-et split: $T/cut.et: rank [0-9]*: its node [0-9]* of [0-9]* runs past the end of the file$" "$T/err" ||
    fail "truncated master: $(cat "$T/err")"
expect_ok "$ET" merge --help
grep -q '^Usage: vimana-et merge PREFIX -o MASTER.et' "$T/out" || fail "merge --help"
finish
