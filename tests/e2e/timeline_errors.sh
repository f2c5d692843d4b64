#!/bin/sh
# vimana-et timeline on bad input or options: one clear line, a non-zero
# exit and no output left behind (an earlier output stays untouched). Also
# the conversions that succeed with a warning, and a Vimana-only log
# fixture (type fallback, METADATA nodes, names with ',' and '"').
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/timeline"
T="$TEST_TMP"
P="vimana-et timeline"
tl() { "$VIMANA_ET" timeline "$@"; }

# The fixture: every category, prefixes, an unrelated line. The default
# document: microseconds (1234 cycles at 1500 MHz = 0.823 us, to the ns),
# every process and thread named; --compat: the reference's document.
expect_ok tl --input "$DATA/mixed.log" --output "$T/mixed.json" --num-npus 2 --npu-frequency 1500
cmp -s "$T/mixed.json" "$DATA/mixed.chrome.json" || fail "mixed.log: output differs from mixed.chrome.json"
expect_ok tl --input "$DATA/mixed.log" --output "$T/mixed.json" --num-npus 2 --npu-frequency 1500 --compat
cmp -s "$T/mixed.json" "$DATA/mixed.timeline.json" || fail "mixed.log --compat: output differs from mixed.timeline.json"

# Options.
expect_ok tl --help
grep -q '^Usage: vimana-et timeline --input LOG' "$TEST_TMP/out" || fail "--help: no usage"
expect_error "$P: missing --input LOG or --report REPORT.json (run \`vimana-et timeline --help\`)" tl --output "$T/o.json"
expect_error "$P: missing --output OUT.json (run \`vimana-et timeline --help\`)" tl --input "$DATA/mixed.log"
expect_error "$P: missing --num-npus N (run \`vimana-et timeline --help\`)" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --npu-frequency 1
expect_error "$P: missing --npu-frequency MHZ (run \`vimana-et timeline --help\`)" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 2
expect_error "$P: --num-npus: expected an integer from 1 to 4294967295, got '0'" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 0 --npu-frequency 1
expect_error "$P: --npu-frequency: expected a non-negative integer, got '1.5GHz'" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 2 --npu-frequency 1.5GHz
expect_error "$P: --npu-frequency: expected an integer from 1 to 9007199254740, got '9007199254741'" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 2 --npu-frequency 9007199254741
expect_error "$P: --time-unit: expected ms or us, got 's'" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 2 --npu-frequency 1 --time-unit s
expect_error "$P: --input and --report exclude each other: give one" \
    tl --input "$DATA/mixed.log" --report "$DATA/report_overlap.json" --output "$T/o.json"
expect_error "$P: --num-npus and --npu-frequency apply to --input only: a report's times are in ticks (ns)" \
    tl --report "$DATA/report_overlap.json" --output "$T/o.json" --num-npus 2
expect_error "$P: unknown option '--frequency' (run \`vimana-et timeline --help\`)" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --frequency 1
expect_error "$P: option --output needs a value" tl --input "$DATA/mixed.log" --output
expect_error "$P: --time-unit applies to --compat only: the default output is in microseconds" \
    tl --input "$DATA/mixed.log" --output "$T/o.json" --num-npus 2 --npu-frequency 1 --time-unit us
expect_error "$P: --compat applies to --input only: a report has no reference form" \
    tl --report "$DATA/report_overlap.json" --output "$T/o.json" --compat
# Directories and devices as input: one line, no endless read.
mkdir "$T/dir"
expect_error "$P: error: $T/dir: is a directory, expected a file" \
    tl --input "$T/dir" --output "$T/o.json" --num-npus 2 --npu-frequency 1
expect_error "$P: error: /dev/zero: not a regular file (character device)" \
    tl --input /dev/zero --output "$T/o.json" --num-npus 2 --npu-frequency 1
# stdin from a device: a line of over 1 MiB is refused, not buffered until
# memory runs out.
head -c 1100000 /dev/zero > "$T/zeros"
expect_error "$P: <stdin>:1: line longer than 1048576 bytes: not a simulator log" \
    sh -c '"$0" timeline --input - --output "$1" --num-npus 2 --npu-frequency 1 < "$2"' "$VIMANA_ET" "$T/o.json" "$T/zeros"
expect_error "$P: error: $T/dir: is a directory, expected a file" tl --report "$T/dir" --output "$T/o.json"
expect_error "$P: error: /dev/zero: not a regular file (character device)" tl --report /dev/zero --output "$T/o.json"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "report /dev/zero: lines on stderr"
expect_error "$P: $T/missing.log: cannot open: No such file or directory" \
    tl --input "$T/missing.log" --output "$T/o.json" --num-npus 2 --npu-frequency 1
expect_error "$P: $T/no/dir.json: cannot create: No such file or directory" \
    tl --input "$DATA/mixed.log" --output "$T/no/dir.json" --num-npus 2 --npu-frequency 1
[ -e "$T/o.json" ] || [ -e "$T/o.json.part" ] && fail "output left behind by an option error"

# Log errors: FILE:LINE and what is wrong. An earlier output survives.
echo previous >"$T/o.json"
L="$T/bad.log"
log_error() { # LOG-TEXT MESSAGE
    printf '%b' "$1" >"$L"
    expect_error "$P: $L:$2" tl --input "$L" --output "$T/o.json" --num-npus 2 --npu-frequency 1000
    expect_eq "$(cat "$T/o.json")" previous "output after: $2"
    [ -e "$T/o.json.part" ] && fail "partial output left behind after: $2"
}
log_error 'issue,sys->id=0, tick=0, node->id=1\n' \
    "1: malformed issue record: it has 4 fields, expected at least 5 (issue, npu, tick, node id, node name)"
log_error 'x\nissue,sys->id=0, tick=zero, node->id=1, node->name=COMP_NODE\n' \
    "2: malformed issue record: tick 'zero' is not an unsigned integer"
log_error '[t] [workload] [debug] callback,sys->id=0, tick 5, node->id=1, node->name=COMP_NODE\n' \
    "1: malformed callback record: field 2 (tick) ' tick 5' has no '='"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=COMP_NODE, node->type=x\n' \
    "1: malformed issue record: node->type 'x' is not an unsigned integer"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=COMP_NODE\ncallback,sys->id=1, tick=9, node->id=1, node->name=COMP_NODE\n' \
    "2: callback of node 1 'COMP_NODE' on NPU 1 has no open issue before it"
log_error 'issue,sys->id=2, tick=0, node->id=1, node->name=COMP_NODE\n' \
    "1: NPU 2 is out of range: --num-npus is 2"
log_error 'callback,sys->id=7, tick=0, node->id=1, node->name=COMP_NODE\n' \
    "1: NPU 7 is out of range: --num-npus is 2"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=aten::mm\n' \
    "1: cannot tell the category of node 1 'aten::mm' on NPU 0: its name has no COMP_NODE, COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY and the record has no node->type"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=a\001b\033c\n' \
    "1: cannot tell the category of node 1 'a\\x01b\\x1bc' on NPU 0: its name has no COMP_NODE, COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY and the record has no node->type"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=aten::mm, node->type=12\n' \
    "1: cannot tell the category of node 1 'aten::mm' on NPU 0: its name has no COMP_NODE, COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY and node->type 12 is not a Chakra node type"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=COMP_NODE\nissue,sys->id=0, tick=3, node->id=1, node->name=COMP_NODE\n' \
    "2: node 1 on NPU 0 issued again before its callback (first issue at line 1)"
log_error 'issue,sys->id=0, tick=8, node->id=1, node->name=COMP_NODE\ncallback,sys->id=0, tick=3, node->id=1, node->name=COMP_NODE\n' \
    "2: callback of node 1 on NPU 0 at tick 3 precedes its issue at tick 8 (line 1)"
log_error 'issue,sys->id=0, tick=0, node->id=1, node->name=COMP_NODE_\0377\n' \
    "1: the name of node 1 on NPU 0 is not valid UTF-8"

# Issues never closed: a summary warning; the closed ones are written.
printf 'issue,sys->id=0, tick=0, node->id=1, node->name=COMP_NODE_a\nissue,sys->id=1, tick=0, node->id=2, node->name=COMP_NODE_b\nissue,sys->id=0, tick=0, node->id=3, node->name=COMP_NODE_c\ncallback,sys->id=0, tick=1000, node->id=3, node->name=COMP_NODE_c\n' >"$T/open.log"
expect_ok tl --input "$T/open.log" --output "$T/open.json" --num-npus 2 --npu-frequency 1000 --compat
expect_eq "$(cat "$TEST_TMP/err")" "$P: warning: 2 issued nodes never completed and are left out (the first: node 1 'COMP_NODE_a' on NPU 0, issued at $T/open.log:1)" "unclosed warning"
expect_eq "$(cat "$T/open.json")" '{"meta_user": "aras", "traceEvents": [{"pid": 0, "tid": 3, "ts": 0.0, "dur": 0.001, "ph": "X", "name": "COMP_NODE_c", "args": {"ms": 0.001}}], "meta_cpu_count": 2}' "closed event"

# A log without records (trace-enabled off): an empty timeline and a hint.
printf 'sys[0] finished, 10 cycles, exposed communication 0 cycles.\n' >"$T/plain.log"
expect_ok tl --input "$T/plain.log" --output "$T/plain.json" --num-npus 1 --npu-frequency 1000 --compat
expect_eq "$(cat "$TEST_TMP/err")" "$P: warning: $T/plain.log: no issue/callback records (was \"trace-enabled\": 1 in the system JSON?)" "no-record warning"
expect_eq "$(cat "$T/plain.json")" '{"meta_user": "aras", "traceEvents": [], "meta_cpu_count": 1}' "empty timeline"
expect_ok tl --input "$T/plain.log" --output "$T/plain.json" --num-npus 1 --npu-frequency 1000
expect_eq "$(cat "$T/plain.json")" '{"displayTimeUnit": "ns", "traceEvents": []}' "empty default timeline"

finish
