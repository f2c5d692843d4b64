#!/bin/sh
# `vimana-et convert pytorch` on bad input: one line naming the file and the
# record, exit status 1 (2 for usage errors), never a crash, no output left.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

PROG="vimana-et convert pytorch"
DATA=$VIMANA_SRCDIR/tests/data/pytorch
T=$TEST_TMP
OUT=$T/out.et

refuses() { # EXPECTED-LINE INPUT
    expect_error "$1" "$VIMANA_ET" convert pytorch --input "$2" --output "$OUT"
    [ "$(wc -l <"$TEST_TMP/err")" -eq 1 ] || fail "more than one line on stderr for $2"
    [ ! -e "$OUT" ] || fail "$OUT was written for $2"
}

trace() { # NODES-JSON > file
    printf '{"schema": "1.0.2-chakra.0.0.4", "pid": 1, "time": "t", "start_ts": 1, "nodes": [%s], "finish_ts": 2}\n' "$1"
}
IO='"inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}'

# malformed JSON, with line and column
printf '{"schema": "1.0.2-chakra.0.0.4",\n "pid": 1,,\n' >"$T/bad.json"
refuses "$PROG: $T/bad.json: line 2, column 11: invalid JSON: expecting a property name in double quotes" "$T/bad.json"
: >"$T/empty.json"
refuses "$PROG: $T/empty.json: line 1, column 1: invalid JSON: expecting a value" "$T/empty.json"
printf '{"pid": 123456789012345678901}' >"$T/big.json"
refuses "$PROG: $T/big.json: line 1, column 9: invalid JSON: integer outside the 64-bit range" "$T/big.json"
printf '{"s": "\377"}' >"$T/utf8.json"
refuses "$PROG: $T/utf8.json: line 1, column 8: invalid JSON: invalid UTF-8" "$T/utf8.json"

# gzip input: a truncated stream is a read error
trace "" | gzip -c | head -c 20 >"$T/cut.json.gz"
expect_error "$PROG: $T/cut.json.gz: read failed: unexpected end of file" \
    "$VIMANA_ET" convert pytorch --input "$T/cut.json.gz" --output "$OUT"
trace "" | gzip -c >"$T/empty_nodes.json.gz"
expect_ok "$VIMANA_ET" convert pytorch --input "$T/empty_nodes.json.gz" --output "$OUT"
rm -f "$OUT"

# missing keys, wrong types, unknown schema
printf '{"schema": "1.0.2-chakra.0.0.4", "pid": 1, "time": "t", "start_ts": 1, "nodes": []}' >"$T/nofinish.json"
refuses "$PROG: $T/nofinish.json: missing top-level key 'finish_ts'" "$T/nofinish.json"
printf '{"schema": "9.9", "pid": 1, "time": "t", "start_ts": 1, "nodes": [], "finish_ts": 2}' >"$T/schema.json"
refuses "$PROG: $T/schema.json: unsupported schema version '9.9' (supported: 1.0.2-chakra.0.0.4, 1.0.3-chakra.0.0.4, 1.1.0-chakra.0.0.4, 1.1.1-chakra.0.0.4, 1.1.1-chakra.1.0.0)" "$T/schema.json"
printf '{"schema": "1.0.2-chakra.0.0.4", "pid": "1", "time": "t", "start_ts": 1, "nodes": [], "finish_ts": 2}' >"$T/pid.json"
refuses "$PROG: $T/pid.json: top-level 'pid' must be a non-negative integer" "$T/pid.json"
trace "{\"id\": 2, \"name\": \"x\", \"ctrl_deps\": 1, \"outputs\": {}}" >"$T/noinputs.json"
refuses "$PROG: $T/noinputs.json: nodes[0]: missing key 'inputs'" "$T/noinputs.json"
trace "{\"id\": 2, \"name\": 5, \"ctrl_deps\": 1, $IO}" >"$T/name.json"
refuses "$PROG: $T/name.json: nodes[0]: 'name' must be a string" "$T/name.json"
trace "{\"id\": 2, \"name\": \"[pytorch|profiler|execution_trace|thread]\", \"ctrl_deps\": 1, $IO, \"attrs\": [{\"name\": \"rf_id\", \"value\": \"zero\"}]}" >"$T/rfid.json"
refuses "$PROG: $T/rfid.json: node 2 ([pytorch|profiler|execution_trace|thread]): 'rf_id' must be an integer attribute in the int64 range, got str" "$T/rfid.json"
trace "{\"id\": 2, \"name\": \"a\", \"ctrl_deps\": 1.5, $IO}" >"$T/parent.json"
refuses "$PROG: $T/parent.json: node 2 (nodes[0]): 'ctrl_deps' (the parent id) must be an integer or null" "$T/parent.json"

# graph errors from the hand-made data
refuses "$PROG: $DATA/cycle.json: cyclic data dependency: 3 (aten::a) -> 4 (aten::b) -> 3 (aten::a)" "$DATA/cycle.json"

# a SEND/RECV kernel whose peer cannot be derived: a warning, still converted
expect_ok "$VIMANA_ET" convert pytorch --input "$DATA/p2p_rank0.json" --output "$OUT"
grep -qxF "$PROG: warning: $DATA/p2p_rank0.json: node 20 (ncclDevKernel_SendRecv): RECV node written without comm_src/comm_dst/comm_tag: no record_param_comms op above the kernel" "$T/err" ||
    fail "missing p2p warning"
expect_ok "$VIMANA_ET" convert pytorch --input "$DATA/p2p_rank0.json" --output "$OUT" --no-p2p-peers
[ ! -s "$T/err" ] || fail "warnings with --no-p2p-peers"
rm -f "$OUT"

# files
refuses "$PROG: $T/none.json: cannot open: No such file or directory" "$T/none.json"
refuses "$PROG: $T: is a directory, expected a file" "$T"
# /dev/zero used to be read for ever; a failure must not hang the suite
if command -v timeout >/dev/null; then
    expect_error "$PROG: /dev/zero: not a regular file (character device)" \
        timeout 20 "$VIMANA_ET" convert pytorch --input /dev/zero --output "$OUT"
    [ ! -e "$OUT" ] || fail "$OUT was written for /dev/zero"
fi
# An empty object (bad-inputs F8: NULL + 0 in the JSON parser, which clang's
# UBSan reports), bare and after tabs: one line, the first key missing.
F8=$VIMANA_SRCDIR/tests/data/bad-inputs/F8-pyjson-empty-object
refuses "$PROG: $F8/min.json: missing top-level key 'schema'" "$F8/min.json"
refuses "$PROG: $F8/crash-336570d7b5b2fb00f62cef60efd24417a2ea42cf: missing top-level key 'schema'" \
    "$F8/crash-336570d7b5b2fb00f62cef60efd24417a2ea42cf"
trace "{\"id\": 2, \"name\": \"a\", \"ctrl_deps\": 1, $IO, \"attrs\": [{}]}" >"$T/emptyattr.json"
refuses "$PROG: $T/emptyattr.json: nodes[0]: every attrs entry needs 'name' and 'value'" "$T/emptyattr.json"
expect_error "$PROG: $T/no/log.txt: cannot create the log file: No such file or directory" \
    "$VIMANA_ET" convert pytorch --input "$DATA/simulate.json" --output "$OUT" --log-filename "$T/no/log.txt"
[ ! -e "$OUT" ] || fail "$OUT was written although the log could not be created"
# input from a pipe, gzip'd or not
gzip -c "$DATA/simulate.json" | "$VIMANA_ET" convert pytorch --input /dev/stdin --output "$OUT" --simulate >"$T/sim.out" 2>&1 ||
    fail "gzip'd input from a pipe"
expect_eq "$(cat "$T/sim.out")" "simulated length: 152 us (3 CPU nodes, 3 GPU nodes on 2 streams)" "simulate.json --simulate"
rm -f "$OUT"
expect_error "$PROG: $T/no/such/dir/x.et: cannot create: No such file or directory" \
    "$VIMANA_ET" convert pytorch --input "$DATA/simulate.json" --output "$T/no/such/dir/x.et"

# usage
expect_error "$PROG: --input and --output are required (run \`$PROG --help\`)" "$VIMANA_ET" convert pytorch --input x.json
expect_error "$PROG: unknown argument '--frobnicate' (run \`$PROG --help\`)" "$VIMANA_ET" convert pytorch --frobnicate
expect_error "$PROG: option --output needs a value" "$VIMANA_ET" convert pytorch --input x --output
"$VIMANA_ET" convert pytorch --input x >/dev/null 2>&1
expect_eq "$?" 2 "exit status of a usage error"
expect_ok "$VIMANA_ET" convert pytorch --help
grep -q -- "--simulate" "$T/out" || fail "--help does not list --simulate"
expect_ok "$VIMANA_ET" convert PyTorch -h

finish
