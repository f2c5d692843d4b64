#!/bin/sh
# vimana-et's ET commands on inputs from tests/data/bad-inputs and on paths
# that are not regular files: exact 128-bit stats sums, INVALID_NODE as a
# warning, gzipped ranks of a prefix, directories and devices refused.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
BAD="$VIMANA_SRCDIR/tests/data/bad-inputs"

# Two comm_size and two duration_micros of 2^63: the sums are 2^64, which
# wrapped to 0 in 64 bits.
# sum_stats HEAD N SUM: the stats under HEAD of N COMP and N all-reduce
# nodes whose durations and sizes each add up to SUM.
sum_stats() {
    cat <<WANT
$1
  nodes                    $(($2 * 2))
    COMP_NODE              $2
    COMM_COLL_NODE         $2
  collective bytes
    ALL_REDUCE             $3 ($2 nodes)
  compute time             $3 us ($2 COMP nodes)
WANT
}
BIG="$BAD/S-stats-overflow/big.0.et"
expect_ok "$ET" stats "$BIG"
sum_stats "$BIG" 2 18446744073709551616 > "$T/want"
cmp -s "$T/out" "$T/want" || { fail "stats of 2^63 + 2^63"; diff "$T/want" "$T/out" >&2; }
# Totals over files add up exactly too: four copies hold 2^65 bytes.
for r in 0 1 2 3; do cp "$BIG" "$T/big4.$r.et"; done
expect_ok "$ET" stats "$T/big4"
sed -n '/^total/,$p' "$T/out" > "$T/total"
sum_stats "total (4 files)" 8 73786976294838206464 > "$T/want"
cmp -s "$T/total" "$T/want" || { fail "stats totals of 2^65"; diff "$T/want" "$T/total" >&2; }

# INVALID_NODE: the simulator runs it as a zero-time node, so validate
# warns once per file and passes.
INV="$BAD/M-messages/invalid_node"
expect_ok "$ET" validate "$INV"
expect_eq "$(cat "$T/out")" "$INV: valid (2 files, 2 nodes)" "validate of an INVALID_NODE"
expect_eq "$(cat "$T/err")" \
    "$INV.0.et: warning: 1 INVALID_NODE node (the first: node 1 (x)); the simulator runs it as a zero-time node" \
    "INVALID_NODE warning"
cat > "$T/inv.json" <<'JSON'
{"global_metadata": {}, "nodes": [
 {"id": "4", "name": "a", "type": "INVALID_NODE"},
 {"id": "5", "name": "b", "type": "COMP_NODE", "data_deps": ["4", "6"]},
 {"id": "7", "name": "c\nd", "type": "INVALID_NODE"}
]}
JSON
expect_ok "$ET" from-json "$T/inv.json" -o "$T/inv.et"
# The other checks still run: the missing parent is the one error.
expect_error "$T/inv.et: node 5 (b): data dependency on missing node 6" "$ET" validate "$T/inv.et"
expect_eq "$(grep -c 'warning: 2 INVALID_NODE nodes (the first: node 4 (a)); the simulator runs them as zero-time nodes$' "$T/err")" 1 \
    "two INVALID_NODE nodes: one warning"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 3 "warning, problem and summary lines"

# A name with a newline stays on its problem's line.
printf '{"global_metadata": {}, "nodes": [{"id": "5", "name": "b\\nc\\u0001", "type": "COMP_NODE", "data_deps": ["6"]}]}' > "$T/nl.json"
expect_ok "$ET" from-json "$T/nl.json" -o "$T/nl.et"
expect_error "$T/nl.et: node 5 (b\\nc\\x01): data dependency on missing node 6" "$ET" validate "$T/nl.et"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 2 "newline in a name: problem and summary lines"

# from-json quotes keys and values escaped: one line.
printf '{"global_metadata": {}, "nodes": [{"id": "5", "name": "b", "type": "COMP\\nNODE"}]}' > "$T/bt.json"
expect_error "$T/bt.json: nodes[0].type: unknown node type \"COMP\\nNODE\"" "$ET" from-json "$T/bt.json" -o "$T/bt.et"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "newline in a JSON value: lines on stderr"
printf '{"global_metadata": {}, "nodes": [{"id": "5", "na\\tme": "b"}]}' > "$T/bt.json"
expect_error "$T/bt.json: nodes[0]: unknown key \"na\\tme\"" "$ET" from-json "$T/bt.json" -o "$T/bt.et"

# A prefix whose ranks are gzipped (PREFIX.k.et absent), alone or mixed.
expect_ok "$ET" generate send-recv --npus 3 --src 2 --dst 0 --out "$T/gz/w"
gzip "$T/gz/w.0.et" "$T/gz/w.2.et"
expect_ok "$ET" validate "$T/gz/w"
expect_eq "$(cat "$T/out")" "$T/gz/w: valid (3 files, 3 nodes, 1 send/recv pair matched)" "validate of .et.gz ranks"
expect_ok "$ET" stats "$T/gz/w"
expect_eq "$(grep -c "^$T/gz/w\.[02]\.et\.gz\$" "$T/out")" 2 "stats reads the .et.gz ranks"
expect_eq "$(grep -c "^$T/gz/w\.1\.et\$" "$T/out")" 1 "stats reads the plain rank"
# ... and both commands say so in --help.
for cmd in stats validate; do
    expect_ok "$ET" "$cmd" --help
    grep -qF 'PREFIX.k.et.gz where PREFIX.k.et is absent' "$T/out" || fail "$cmd --help does not mention PREFIX.k.et.gz"
done

# Directories and devices: one line, no endless read.
mkdir "$T/dir" "$T/dirpfx.0.et"
for cmd in json dot stats validate; do
    expect_error "vimana-et $cmd: error: $T/dir: is a directory, expected a file" "$ET" "$cmd" "$T/dir"
    expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "$cmd on a directory: lines on stderr"
    expect_error "vimana-et $cmd: error: /dev/zero: not a regular file (character device)" "$ET" "$cmd" /dev/zero
    expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "$cmd on /dev/zero: lines on stderr"
done
for cmd in stats validate; do
    expect_error "vimana-et $cmd: error: $T/dirpfx.0.et: is a directory, expected a file" "$ET" "$cmd" "$T/dirpfx"
done
expect_error "vimana-et from-json: error: $T/dir: is a directory, expected a file" \
    "$ET" from-json "$T/dir" -o "$T/x.et"
expect_error "vimana-et from-json: error: /dev/zero: not a regular file (character device)" \
    "$ET" from-json /dev/zero -o "$T/x.et"
[ -e "$T/x.et" ] && fail "from-json left an output behind"
finish
